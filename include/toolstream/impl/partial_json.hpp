// Out-of-line parts of partial_json: strings, numbers.
#pragma once

#include <toolstream/partial_json.hpp>

#include <boost/json/parse.hpp>

namespace toolstream {

inline std::size_t partial_json::string_bytes(std::string_view s)
{
    error_code ec;
    const std::size_t used = in_ == in::key ? string_.read<detail::utf8_bytes::lenient>(s, key_, ec)
                                            : string_.read<detail::utf8_bytes::lenient>(s, *open_string_, ec);
    if (ec)
        fail();
    else if (string_.closed())
        end_string();
    return used;
}

inline bool partial_json::parse_number(boost::json::value& v) const
{
    // A number is short; Boost.JSON reads it exactly as a whole parse would.
    boost::system::error_code ec;
    v = boost::json::parse(scalar_, ec);
    return !ec && v.is_number();
}

} // namespace toolstream
