// The checks the libFuzzer targets run (fuzz_support.hpp): a text policy, and a provider pipeline,
// each run whole and in the input's chunking; a complete native call against its raw arguments.
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/limits.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>

#include "fuzz_input.hpp"
#include "fuzz_recorder.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::fuzz {

/// ASCII lower case, for case-insensitive syntax checks.
inline std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// Checks a complete native call against Boost.JSON's reading of its raw arguments (a free-form
/// call, an OpenAI Responses custom tool, has none): a generic
/// call's arguments are that object; a file call's path and body are its strings (the file body
/// was streamed by a separate incremental decoder).
inline void check_native_invocation(const tool_invocation& inv)
{
    if (inv.free_form) {   // a custom tool's input is text, never parsed
        if (!inv.arguments.empty())
            fail("a free-form call with parsed arguments", dump({inv}));
        return;
    }
    if (!inv.is_complete())
        return;
    boost::json::parse_options deep;
    deep.max_depth = 1 << 16;
    error_code ec;
    const bool blank = inv.arguments_raw.find_first_not_of(" \t\r\n") == std::string::npos;
    auto parsed = blank ? boost::json::value(boost::json::object()) : boost::json::parse(inv.arguments_raw, ec, {}, deep);
    if (ec || !parsed.is_object())
        fail("a complete call whose raw arguments are not a JSON object", dump({inv}));
    // Boost.JSON 1.81 reads 0e400 as NaN and 1e400 as Infinity: the documented repair.
    if (!detail::repair_non_finite(parsed))
        fail("a complete call with a number past the double range", dump({inv}));
    const auto& raw = parsed.get_object();
    if (inv.name != "write_file" && inv.name != "patch_file") {
        if (raw != inv.arguments)
            fail("a complete call's arguments differ from its raw text parsed", dump({inv}));
        return;
    }
    const char* body_key = inv.name == "write_file" ? "content" : "patch";
    for (const char* key : {"path", body_key}) {
        const auto* want = raw.if_contains(key);
        const auto* got = inv.arguments.if_contains(key);
        if (want == nullptr && key == body_key && (got == nullptr || *got == ""))
            continue;   // no body at all: an empty file or patch
        if (want == nullptr || !want->is_string() || got == nullptr || *got != *want)
            fail(std::string("a complete file call's ") + key + " differs from its raw text parsed", dump({inv}));
    }
}

/// Whether `Policy` decodes file bodies out of JSON strings (json_calls, text_format_policy).
template<class Policy>
constexpr bool decodes_file_bodies() noexcept
{
    if constexpr (requires { Policy::decodes_file_bodies; })
        return Policy::decodes_file_bodies;
    else
        return false;
}

/// Text policies: runs `body` whole and in the input's chunking through handler<Policy>, each run
/// with a policy from `make_policy()`, and checks chunk invariance, byte conservation (text +
/// content + markup == input; `decoded_bodies`: see recorder), the life cycle checks of `recorder`
/// with `closing` and `complete_at_end`, and, when `held_bound` is not 0, that `held_bytes()` stays
/// within it after every feed.
template<class Policy, class MakePolicy>
void check_made_policy(const input& in, MakePolicy make_policy, bool decoded_bodies, closing_rule closing,
                       std::size_t held_bound, bool complete_at_end)
{
    auto run = [&](const std::vector<std::string_view>& pieces) {
        handler<guarded<Policy>, recorder> h(
            recorder{{}, {}, {}, {}, closing, {}, {}, decoded_bodies, complete_at_end, {}, {}, {}}, {},
            guarded<Policy>{make_policy()});
        if constexpr (requires(const Policy& p) { p.decodes_file_bodies_now(); })
            h.sink().decoded_now = [&h] { return h.policy().inner.decodes_file_bodies_now(); };
        error_code first;
        for (auto piece : pieces) {
            if (const auto ec = h.feed(piece); ec && !first)
                first = ec;
            if (held_bound != 0 && h.policy().inner.held_bytes() > held_bound)
                fail("held_bytes() " + std::to_string(h.policy().inner.held_bytes()) + " passes its bound "
                     + std::to_string(held_bound));
        }
        if (const auto ec = h.finalize(); ec && !first)
            first = ec;
        auto& r = h.sink();
        r.check_all_ended();
        if (r.bytes != in.body)
            fail("text + content + markup does not reconstruct the input",
                 "input:\n" + std::string(in.body) + "\nreconstructed:\n" + r.bytes);
        return outcome_of(r, first ? first.message() : std::string());
    };
    const auto whole = run({in.body});
    if (const auto pieces = chunking(in.body, in); pieces.size() > 1)
        check_same(whole, run(pieces));
}

/// check_made_policy with `Policy(options)`.
template<class Policy, class Options>
void check_text_policy(const input& in, const Options& options, closing_rule closing, std::size_t held_bound,
                       bool complete_at_end = false)
{
    check_made_policy<Policy>(in, [&] { return Policy(options); }, decodes_file_bodies<Policy>(), closing, held_bound,
                              complete_at_end);
}

/// Provider pipelines: runs `body` whole and in the input's chunking through
/// pipeline<Provider, api_tool_call> and checks chunk invariance of the events, the invocations,
/// the summary and the first error; the life cycle checks of `recorder`; and each complete call
/// against its raw arguments. Header bits 2-3 pick the transport limit (SSE event or NDJSON
/// line: 16 MiB, 64, 512, 4096 bytes), bits 4-6 small native call limits.
template<class Provider>
void check_provider(const input& in)
{
    using converter = provider_converter<Provider>;
    static constexpr std::size_t transport_limits[] = {16u << 20, 64, 512, 4096};
    pipeline_options options;
    options.collect_text = true;
    options.sse.max_event_size = transport_limits[in.option(2, 2)];
    options.ndjson.max_line_size = transport_limits[in.option(2, 2)];
    native_call_limits limits;
    if (in.option(4, 1))
        limits.max_calls = 2;
    if (in.option(5, 1))
        limits.max_argument_bytes = 64;
    if (in.option(6, 1))
        limits.max_depth = 3;
    options.native_limits = limits;
    using policy = guarded<api_tool_call>;

    auto run = [&](const std::vector<std::string_view>& pieces) {
        pipeline<Provider, policy, recorder> p(recorder{}, options);
        for (auto piece : pieces)
            (void)p.write(piece);
        (void)p.finish();
        auto& r = p.sink();
        r.check_all_ended();
        for (const auto& inv : r.invocations)
            check_native_invocation(inv);
        const auto framing = converter::wire_framing == framing::sse ? "sse" : "ndjson";
        auto summary = boost::json::serialize(to_json(p.summary(), converter::name, framing));
        r.output.check_json(summary, "summary");
        if (!r.output.problem().empty())
            fail("output that is not strict UTF-8 JSON", r.output.problem());
        return outcome_of(r, summary + "\n" + p.first_error().message());
    };
    const auto whole = run({in.body});
    if (const auto pieces = chunking(in.body, in); pieces.size() > 1)
        check_same(whole, run(pieces));
}

} // namespace toolstream::fuzz
