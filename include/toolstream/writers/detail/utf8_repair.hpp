// Making a written line valid UTF-8: a writer whose every line a browser decodes on its own.
#pragma once

#include <toolstream/detail/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace toolstream::detail {

/// Replaces every byte of `line` from `from` on that does not start a strictly valid UTF-8
/// sequence with U+FFFD, as a browser's decoder would. Only JSON string contents can hold
/// non-ASCII bytes, and U+FFFD is valid there as it is. An all-valid line is left untouched
/// after one scan.
inline void repair_utf8(std::string& line, std::size_t from = 0)
{
    std::uint32_t cp = 0;
    std::size_t i = from;
    for (; i < line.size(); ++i) {
        if (static_cast<unsigned char>(line[i]) < 0x80)
            continue;
        const std::size_t n = decode_utf8(line, i, cp);
        if (n == 0)
            break;
        i += n - 1;
    }
    if (i >= line.size())
        return;
    std::string fixed(line, 0, i);
    while (i < line.size()) {
        if (static_cast<unsigned char>(line[i]) < 0x80) {
            fixed += line[i++];
            continue;
        }
        const std::size_t n = decode_utf8(line, i, cp);
        if (n == 0) {
            fixed += "\xEF\xBF\xBD";
            ++i;
        } else {
            fixed.append(line, i, n);
            i += n;
        }
    }
    line.swap(fixed);
}

} // namespace toolstream::detail
