// Where the format behind a reasoning parser opens its blocks: a region that yields to calls
// (reasoning_syntax::yields_to_calls) ends at the first one, whichever format it is.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/detail/marker_scanner.hpp>
#include <toolstream/parse/engine/format_reader.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>

namespace toolstream::detail {

/// The first opening of a format's block in some bytes.
struct format_opening {
    enum class kind {
        untold,      ///< the policy does not tell where its blocks open
        none,        ///< no block opens before the limit
        undecided,   ///< one may open at `position`: only more bytes tell
        block,       ///< a block opens at `position`
    };
    kind what = kind::untold;
    std::size_t position = 0;
};

/// A policy that finds its openings itself (runtime_policy's chosen alternative).
template<class P>
concept finds_openings = requires(const P& p, std::string_view v, std::size_t limit, bool flag) {
    { p.find_opening(v, limit, flag, flag) } -> std::same_as<format_opening>;
};

/// A text format's policy: its openers, and a reader built from its options to judge one.
template<class P>
concept reads_openings = requires(const P& p) {
    typename P::reader_type;
    { P::traits_type::ignore_case } -> std::convertible_to<bool>;
    { p.openers() } -> std::convertible_to<std::span<const std::string_view>>;
    p.options();
};

/// Readers keep only whether the text before an opener was blank (on_text), so one non-blank
/// byte stands for output that went out before the bytes looked at.
inline constexpr std::string_view earlier_output = ".";

/// The first block a format would open in `v` at a position before `limit`, were `v` fed to it
/// now (`after_output`: non-blank output came before `v`), judged by fresh readers of type
/// `Reader` made from `options`; not one whose reader says it opens no call (an optional
/// `bool opens_call(i) const`). An opener the reader cannot judge yet is `undecided`, except
/// `at_end`, where it is text (as finalize() leaves a held opening). The cost is the engine's own
/// for the same bytes: a scan, and a bounded look at each opener. A template of the reader and
/// options only, so that a format's policy and auto's judge of it share one instantiation.
template<class Reader, class Options>
format_opening find_opening_with(std::span<const std::string_view> opener_list, bool ignore_case, const Options& options,
                                 std::string_view v, std::size_t limit, bool after_output, bool at_end)
{
    using kind = format_opening::kind;
    const marker_set openers(opener_list, ignore_case);
    std::size_t from = 0;
    while (from < limit) {
        const marker_match m = openers.find(v.substr(from));
        const std::size_t at = from + m.position;
        if (at >= limit)
            break;
        if (m.marker == marker_match::npos)   // an opener's prefix ends `v`
            return at_end ? format_opening{kind::none, limit} : format_opening{kind::undecided, at};
        Reader reader(options);
        if constexpr (requires { reader.on_text(v); }) {
            reader.on_text(after_output ? earlier_output : std::string_view{});
            reader.on_text(v.substr(0, at));
        }
        const opening_verdict verdict = reader.open(m.marker, v.substr(at));
        switch (verdict.what) {
        case opening_verdict::kind::block:
            if constexpr (requires { reader.opens_call(m.marker); }) {
                if (!reader.opens_call(m.marker)) {   // text, not a call, follows the opener
                    from = at + 1;
                    break;
                }
            }
            return {kind::block, at};
        case opening_verdict::kind::more:
            if (!at_end)
                return {kind::undecided, at};
            from = at + 1;
            break;
        case opening_verdict::kind::text: from = at + std::max<std::size_t>(verdict.size, 1); break;
        }
    }
    return {kind::none, limit};
}

/// The first block `policy` would open in `v` before `limit` (find_opening_with, with the
/// policy's openers and options; the policy's own state is untouched).
template<class P>
format_opening find_opening(const P& policy, std::string_view v, std::size_t limit, bool after_output, bool at_end)
{
    if constexpr (finds_openings<P>) {
        return policy.find_opening(v, limit, after_output, at_end);
    } else if constexpr (reads_openings<P>) {
        using options_type = std::remove_cvref_t<decltype(policy.options())>;
        return find_opening_with<typename P::reader_type, options_type>(
            policy.openers(), P::traits_type::ignore_case, policy.options(), v, limit, after_output, at_end);
    } else {
        return {};
    }
}

} // namespace toolstream::detail
