// The words that stand for JSON's literals in what models write (Python's True and None, yes and
// no, Lua's nil), in one table: each reader names the spellings its peer accepts.
#pragma once

#include <toolstream/detail/ascii.hpp>

#include <string_view>

namespace toolstream::detail {

/// Families of spellings; a reader accepts the union of those it names.
enum literal_family : unsigned {
    json_words = 1,     ///< true, false, null
    python_words = 2,   ///< True, False, None
    nil_word = 4,       ///< nil (null)
    yes_no_words = 8,   ///< yes, no
    digit_words = 16,   ///< 1, 0
};

enum class letter_case { exact, any };

struct literal_word {
    std::string_view spelling;
    std::string_view json;   ///< the JSON literal it stands for
    unsigned family;
};

inline constexpr literal_word literal_words[] = {
    {"true", "true", json_words},     {"false", "false", json_words},  {"null", "null", json_words},
    {"True", "true", python_words},   {"False", "false", python_words}, {"None", "null", python_words},
    {"nil", "null", nil_word},        {"yes", "true", yes_no_words},   {"no", "false", yes_no_words},
    {"1", "true", digit_words},       {"0", "false", digit_words},
};

/// The JSON literal (`true`, `false` or `null`) that `word` spells in `families`, else empty.
/// With letter_case::any, spellings match whatever their letters' case (`NONE` is `None`).
inline std::string_view json_literal_of(std::string_view word, unsigned families, letter_case c = letter_case::exact)
{
    for (const literal_word& w : literal_words)
        if ((w.family & families) != 0 && (c == letter_case::any ? iequals_ascii(word, w.spelling) : word == w.spelling))
            return w.json;
    return {};
}

} // namespace toolstream::detail
