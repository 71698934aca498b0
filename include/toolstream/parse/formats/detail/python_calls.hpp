// The call-level syntax of the pythonic formats: where a call starts (`NAME(`), and how a call
// whose arguments went wrong is skipped to its end (parse/formats/detail/pythonic_reader.hpp).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/python_literals.hpp>
#include <toolstream/parse/engine/format_reader.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// Where a call's head `NAME (` ends in a view.
struct python_call_head {
    opening_verdict::kind what;   ///< block: a head; text: none; more: undecided
    std::size_t name_end = 0;     ///< NAME is w[i, name_end)
    std::size_t paren_end = 0;    ///< past its `(`
};

/// The call head at w[i]: NAME (dotted, `a.b`), blanks, `(`; `strict` also wants what follows to
/// be `)` or `KEY =` (not `==`), as vLLM's pattern wants keyword arguments.
inline python_call_head python_call_start(std::string_view w, std::size_t i, bool strict)
{
    using kind = opening_verdict::kind;
    for (;;) {
        if (i == w.size())
            return {kind::more};
        if (!python_name_start(w[i]))
            return {kind::text};
        while (i < w.size() && python_name_char(w[i]))
            ++i;
        if (i == w.size())
            return {kind::more};
        if (w[i] != '.')
            break;
        ++i;
    }
    python_call_head head{kind::block, i, 0};
    i = skip_blanks(w, i);
    if (i == w.size())
        return {kind::more};
    if (w[i] != '(')
        return {kind::text};
    head.paren_end = ++i;
    if (!strict)
        return head;
    i = skip_blanks(w, i);
    if (i == w.size())
        return {kind::more};
    if (w[i] == ')')
        return head;
    if (!python_name_start(w[i]))
        return {kind::text};
    while (i < w.size() && python_name_char(w[i]))
        ++i;
    i = skip_blanks(w, i);
    if (i + 1 >= w.size())
        return {kind::more};
    return w[i] == '=' && w[i + 1] != '=' ? head : python_call_head{kind::text};
}

/// Finds the end of a call whose arguments went wrong, by bracket and quote depth from where the
/// reading stopped: its `)`, or the end of the calls (`]` of a list, `close` after them) that
/// ends it too. Holds nothing: it reads each byte once.
class python_call_skipper {
public:
    struct found {
        std::size_t read;   ///< bytes read (all of them the call's)
        bool end;           ///< the call ends after them
    };

    /// Starts inside a string (`quote`, 0 if none) with `depth` brackets open.
    void begin(char quote, bool triple, std::size_t depth) noexcept
    {
        quote_ = quote;
        triple_ = triple;
        depth_ = depth;
    }

    /// Reads `v` on; a prefix that needs more bytes to be decided is left unread.
    found scan(std::string_view v, bool list, std::string_view close) noexcept
    {
        std::size_t i = 0;
        while (i < v.size()) {
            const char c = v[i];
            if (quote_ != 0) {
                if (c == '\\') {
                    if (i + 1 == v.size())
                        break;
                    i += 2;
                } else if (c == quote_ && triple_) {
                    if (i + 2 >= v.size())
                        break;
                    const bool closes = v[i + 1] == quote_ && v[i + 2] == quote_;
                    quote_ = closes ? 0 : quote_;
                    i += closes ? 3 : 1;
                } else {
                    quote_ = c == quote_ ? 0 : quote_;
                    ++i;
                }
                continue;
            }
            if (c == '"' || c == '\'') {
                if (i + 2 >= v.size())
                    break;
                triple_ = v[i + 1] == c && v[i + 2] == c;
                quote_ = v[i + 1] == c && !triple_ ? 0 : c;
                i += triple_ ? 3 : v[i + 1] == c ? 2 : 1;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                ++depth_;
            } else if ((c == ')' || c == ']' || c == '}') && depth_ > 0) {
                --depth_;
            } else if (c == ')') {
                return {i + 1, true};
            } else if (c == ']' && list) {
                return {i, true};   // the list closes: so does the call
            } else if (!close.empty() && c == close.front()) {
                const std::size_t n = scan::common_prefix(v.substr(i), close, false);
                if (n == close.size())
                    return {i, true};
                if (i + n == v.size())
                    break;
            }
            ++i;
        }
        return {i, false};
    }

private:
    char quote_ = 0;
    bool triple_ = false;
    std::size_t depth_ = 0;
};

} // namespace toolstream::detail
