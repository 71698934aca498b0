// repair_non_finite's and parse_json's bodies (parse_json.hpp): inline in every TU, or compiled
// once by <toolstream/src.hpp> with TOOLSTREAM_SEPARATE_COMPILATION.
#pragma once

#include <toolstream/detail/parse_json.hpp>

#include <boost/json/parse.hpp>

#include <cmath>
#include <string_view>
#include <vector>

namespace toolstream::detail {

TOOLSTREAM_DECL bool repair_non_finite(boost::json::value& v)
{
    std::vector<boost::json::value*> todo{&v};
    while (!todo.empty()) {
        boost::json::value* at = todo.back();
        todo.pop_back();
        switch (at->kind()) {
        case boost::json::kind::double_: {
            double& d = at->get_double();
            if (std::isinf(d))
                return false;
            if (std::isnan(d))
                d = 0;
            break;
        }
        case boost::json::kind::array:
            for (auto& item : at->get_array())
                todo.push_back(&item);
            break;
        case boost::json::kind::object:
            for (auto& member : at->get_object())
                todo.push_back(&member.value());
            break;
        default: break;
        }
    }
    return true;
}

TOOLSTREAM_DECL boost::json::value parse_json(std::string_view text, boost::system::error_code& ec,
                                              const boost::json::parse_options& options)
{
    auto v = boost::json::parse(text, ec, {}, options);
    if (!ec && !repair_non_finite(v)) {
        ec = boost::json::error::exponent_overflow;
        return nullptr;
    }
    return v;
}

} // namespace toolstream::detail
