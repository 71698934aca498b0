// file_arguments_decoder::read_value (file_arguments_decoder.hpp): inline in every TU, or
// compiled once by <toolstream/src.hpp> with TOOLSTREAM_SEPARATE_COMPILATION.
#pragma once

#include <toolstream/detail/file_arguments_decoder.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace toolstream::detail {

TOOLSTREAM_DECL std::size_t file_arguments_decoder::read_value(std::string_view s, const file_argument_callbacks& cb)
{
    value_.handler().cb = &cb;
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t n = std::min(max_write, s.size() - i);
        error_code ec;
        const std::size_t used = value_.write_some(true, s.data() + i, n, ec);
        if (ec)
            return fail(ec, i);
        i += used;
        if (value_.done()) {
            current_ = field::other;
            state_ = state::after_value;
            break;
        }
    }
    return i;
}

} // namespace toolstream::detail
