// Feeding a boost::json::basic_parser as Boost 1.81 needs.
#pragma once

#include <toolstream/error.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// The most bytes one basic_parser::write_some may take: Boost 1.81 (#876) misparses some
/// longer writes.
inline constexpr std::size_t max_parser_write = 2048;

/// Writes `text` to `parser` in slices of at most max_parser_write bytes; `more`: whether input
/// follows `text` (false: the value must end within it). Returns the bytes consumed: fewer than
/// `text.size()` when `ec` is set or when the value ended before the text did.
template<class Parser>
std::size_t write_sliced(Parser& parser, std::string_view text, bool more, error_code& ec)
{
    std::size_t at = 0;
    do {
        const std::size_t n = std::min(max_parser_write, text.size() - at);
        const bool last = at + n == text.size();
        const std::size_t used = parser.write_some(more || !last, text.data() + at, n, ec);
        at += used;
        if (ec || used != n)
            break;
    } while (at < text.size());
    return at;
}

} // namespace toolstream::detail
