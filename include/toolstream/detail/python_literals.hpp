// Python tokens read as they stream: names, number literals turned into JSON numbers, and the
// source a literal is read from (detail/python_values.hpp). Below the formats and the tools, so
// that the pythonic formats' reader and raw_parameters' schema typing share it.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/literal_words.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace toolstream::detail {

constexpr bool python_name_start(char c) noexcept
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool python_name_char(char c) noexcept { return python_name_start(c) || (c >= '0' && c <= '9'); }

/// Where a Python literal's bytes come from: `view()` the unread bytes, `take(n)` reports the
/// first `n` as read, `room()` (at least 1) how much decoded text one piece may carry, and
/// `decoded(t)` receives a file body's decoded text. A stream's block (the pythonic formats'
/// python_block_source) or a whole text (detail/python_text.hpp).
template<class S>
concept python_source = requires(S& s, std::size_t n, std::string_view t) {
    { s.view() } -> std::convertible_to<std::string_view>;
    { s.room() } -> std::convertible_to<std::size_t>;
    s.take(n);
    s.decoded(t);
};

/// Takes the blanks at the front of `src` and returns what is left unread.
template<python_source Source>
std::string_view skip_to_token(Source& src)
{
    src.take(skip_blanks(src.view(), 0));
    return src.view();
}

/// Whether `p` prefixes a string literal (`r`, `u`, `f`, `b` and their pairs, any case).
inline bool python_string_prefix(std::string_view p) noexcept
{
    std::string lower;
    for (char c : p)
        lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    for (std::string_view ok : {"r", "u", "f", "b", "rb", "br", "fr", "rf"})
        if (lower == ok)
            return true;
    return false;
}

/// Appends the JSON of the Python number literal `t` (no sign) to `json`; returns why it has
/// none (empty when it has). `0x`/`0o`/`0b` ints up to 64 bits become decimal, `_` goes, leading
/// zeros go (vLLM's recovery reads `07` as 7), `.5` and `5.` get their zero; a float that is
/// not finite (`1e999`) has no JSON value, as vLLM rejects it; an underflow is 0.0.
inline std::string python_number(std::string_view t, std::string& json)
{
    std::string s;
    for (char c : t)
        if (c != '_')
            s += c;
    const std::string bad = "invalid number '" + std::string(t) + "'";
    if (s.size() > 1 && s[0] == '0' && std::string_view("xXoObB").find(s[1]) != std::string_view::npos) {
        const int base = s[1] == 'x' || s[1] == 'X' ? 16 : s[1] == 'o' || s[1] == 'O' ? 8 : 2;
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), value, base);
        if (ec == std::errc::result_out_of_range)
            return "integer literal '" + std::string(t) + "' out of range";
        if (ec != std::errc() || end != s.data() + s.size() || s.size() == 2)
            return bad;
        json += std::to_string(value);
        return {};
    }
    if (!s.empty() && (s.back() == 'j' || s.back() == 'J'))
        return "complex numbers have no JSON value";
    const std::string_view all = s;
    const std::size_t dot = all.find('.');
    const std::size_t e = all.find_first_of("eE");
    const std::string_view whole = all.substr(0, std::min(dot, e));
    const std::string_view frac = dot == std::string_view::npos
        ? std::string_view()
        : all.substr(dot + 1, e == std::string_view::npos ? std::string_view::npos : e - dot - 1);
    const std::string_view exp = e == std::string_view::npos ? std::string_view() : all.substr(e + 1);
    const std::string_view exp_digits = !exp.empty() && (exp[0] == '+' || exp[0] == '-') ? exp.substr(1) : exp;
    const auto digits = [](std::string_view d) { return d.find_first_not_of("0123456789") == std::string_view::npos; };
    if (!digits(whole) || !digits(frac) || (whole.empty() && frac.empty())
        || (e != std::string_view::npos && (exp_digits.empty() || !digits(exp_digits) || (dot != std::string_view::npos && e < dot))))
        return bad;
    const std::string_view int_part = whole.substr(std::min(whole.find_first_not_of('0'), whole.size()));
    std::string out(int_part.empty() ? "0" : int_part);
    if (dot == std::string_view::npos && e == std::string_view::npos) {
        json += out;
        return {};
    }
    out += '.';
    out += frac.empty() ? std::string_view("0") : frac;
    if (e != std::string_view::npos)
        out.append("e").append(exp);
    errno = 0;
    const double d = std::strtod(out.c_str(), nullptr);
    if (std::isinf(d))
        return "number '" + std::string(t) + "' out of range (not a finite JSON number)";
    if (errno == ERANGE && d == 0.0)
        out = "0.0";
    json += out;
    return {};
}

/// A name or number token at the front of a view, and the JSON scalar it is.
struct python_token {
    enum class kind { more, string, scalar, failed };
    kind what = kind::more;
    std::size_t size = 0;   ///< its bytes (string: the prefix before the quote)
    std::string error;      ///< failed: why
};

/// Reads the token at the front of `v` (a name, or a number when it starts with a digit or `.`),
/// shorter than `cap` bytes, a unary minus before it when `negative` (`signed`: any sign): a string
/// prefix before a quote, True/False/None or true/false/null, or a number, whose JSON is appended
/// to `json`; more while it may go on.
inline python_token python_scalar(std::string_view v, std::size_t cap, bool is_signed, bool negative, std::string& json)
{
    using kind = python_token::kind;
    const bool number = (v[0] >= '0' && v[0] <= '9') || v[0] == '.';
    const bool hex = number && v.size() > 1 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    std::size_t n = 0;
    while (n < v.size() && n < cap
           && (python_name_char(v[n]) || (number && v[n] == '.')
               || (number && !hex && n > 0 && (v[n] == '+' || v[n] == '-') && (v[n - 1] == 'e' || v[n - 1] == 'E'))))
        ++n;
    if (n == cap)   // whatever the chunking
        return {kind::failed, 0, "a token longer than max_held"};
    if (n == v.size())
        return {};
    const std::string_view word = v.substr(0, n);
    if (!number && (v[n] == '"' || v[n] == '\'') && python_string_prefix(word))
        return is_signed ? python_token{kind::failed, 0, "a sign applies to numbers only"} : python_token{kind::string, n, {}};
    if (number) {
        std::string out = negative ? "-" : "";
        std::string why = python_number(word, out);
        if (!why.empty())
            return {kind::failed, 0, std::move(why)};
        json += out == "-0" ? "0" : out;
        return {kind::scalar, n, {}};
    }
    if (is_signed)
        return {kind::failed, 0, "a sign applies to numbers only"};
    if (const std::string_view literal = json_literal_of(word, json_words | python_words); !literal.empty()) {
        json += literal;
        return {kind::scalar, n, {}};
    }
    return {kind::failed, 0, "'" + std::string(word) + "' is not a literal (tool call arguments must be literals)"};
}

} // namespace toolstream::detail
