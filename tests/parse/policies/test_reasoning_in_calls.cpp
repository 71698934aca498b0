// A call's bytes are the call's: for every reasoning parser (reasoning_parsers) and every
// registered format that carries a file body (support/format_samples.hpp), a write_file call whose
// body holds that parser's markers keeps them, at every split. Regions still open before and after
// the call, and recurring ones again after it. Under the sanitizers the two-piece splits of each
// pair are a sample, every sixth position, the pairs taking turns over the six offsets; the other
// builds run every position.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/ernie45.hpp>
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "support/build_kind.hpp"
#include "support/events.hpp"
#include "support/fixtures.hpp"
#include "support/format_samples.hpp"
#include "support/text_policy_checks.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace test_reasoning_in_calls {

using namespace toolstream;

namespace {

/// Every marker of `syntax`, each between words: what a file about the format would hold.
std::string body_with_markers(const reasoning_syntax& syntax)
{
    std::string body = "x ";
    const auto add = [&](std::string_view marker) {
        if (!marker.empty())
            body.append(marker).append(" y ");
    };
    add(syntax.open);
    add(syntax.close);
    for (const std::string_view m : syntax.open_alternatives)
        add(m);
    for (const std::string_view m : syntax.close_alternatives)
        add(m);
    add(syntax.ends_implicit_at);
    add(syntax.yields_to);
    for (const std::string_view m : syntax.markup_outside)
        add(m);
    return body + "z";
}

/// A closed region: `open` + `words` + `close`, or nothing for a parser without markers.
std::string region(const reasoning_syntax& syntax, std::string_view words)
{
    return syntax.open.empty() ? std::string{} : std::string(syntax.open).append(words).append(syntax.close);
}

struct outcome {
    std::vector<tool_invocation> invocations;
    std::string reasoning;
};

/// `format` behind `syntax` (none when null), fed `pieces`.
outcome run(std::string_view format, const reasoning_syntax* syntax, const std::vector<std::string_view>& pieces)
{
    auto policy = make_policy(format);
    REQUIRE(policy.has_value());
    if (syntax != nullptr)
        policy->set_reasoning(*syntax);
    handler<runtime_policy> h(recording_sink{}, {}, std::move(*policy));
    error_code ec;
    for (const std::string_view piece : pieces)
        if (!ec)
            ec = test::with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); });
    if (!ec)
        ec = h.finalize();
    if (ec)
        REQUIRE(ec.message().empty());
    return {h.invocations(), test::content_of_type(h.events(), segment_type::reasoning)};
}

bool is_string(const boost::json::value* v, std::string_view s)
{
    return v != nullptr && v->is_string() && v->get_string() == s;
}

/// The two-piece splits a sanitized build checks: those at `offset` modulo the stride.
constexpr std::size_t sanitized_split_stride = 6;

bool split_checked(const std::vector<std::string_view>& pieces, std::size_t offset)
{
    return !test::sanitized_build || pieces.size() != 2
           || pieces[0].size() % sanitized_split_stride == offset % sanitized_split_stride;
}

/// `text` in `format` behind `syntax` at every chunking (see the stride above): one complete
/// write_file call whose content is `body`, and `reasoning` as the reasoning.
void check_call_keeps_markers(std::string_view format, const reasoning_syntax& syntax, std::string_view text,
                              std::string_view body, std::string_view reasoning, std::size_t offset)
{
    for (const auto& pieces : test::chunkings(text, 0)) {
        if (!split_checked(pieces, offset))
            continue;
        const outcome got = run(format, &syntax, pieces);
        const auto* call = got.invocations.size() == 1 ? &got.invocations[0] : nullptr;
        const auto* path = call != nullptr ? call->arguments.if_contains("path") : nullptr;
        const auto* content = call != nullptr ? call->arguments.if_contains("content") : nullptr;
        if (call != nullptr && call->status == invocation_status::complete && call->name == "write_file"
            && is_string(path, test::sample_path) && is_string(content, body)
            && got.reasoning == reasoning)
            continue;   // one check per run: millions of passing assertions would dominate the time
        INFO("text: " << text << "\npieces: " << pieces.size() << ", the first " << pieces[0].size() << " bytes");
        REQUIRE(got.invocations.size() == 1);
        CHECK(got.invocations[0].status == invocation_status::complete);
        CHECK(got.invocations[0].name == "write_file");
        CHECK(got.invocations[0].arguments == boost::json::object{{"path", test::sample_path}, {"content", body}});
        REQUIRE(got.reasoning == reasoning);
        FAIL("the arguments hold other keys");
    }
}

} // namespace

TEST_CASE("reasoning in calls: every parser's markers in a call's arguments stay the call's, in every format",
          "[formats][reasoning][registry]")
{
    static_assert(reasoning_parsers.size() >= 31);
    std::size_t checked = 0;
    for (const auto& sample : test::format_samples) {
        for (const reasoning_syntax& syntax : reasoning_parsers) {
            INFO("format " << sample.policy << ", reasoning parser " << syntax.name);
            const std::string body = body_with_markers(syntax);
            const std::string call = test::sample_text(sample, body);
            // Without a reasoning parser the format reads the markers as the body's bytes.
            REQUIRE(run(sample.policy, nullptr, {call}).invocations.at(0).arguments.at("content").as_string() == body);

            const std::string later = region(syntax, "later");
            check_call_keeps_markers(sample.policy, syntax, region(syntax, "plan") + call + later, body,
                                     syntax.recurs ? "planlater" : syntax.open.empty() ? "" : "plan", checked);
            // Thinking off: the call is content from the first byte.
            check_call_keeps_markers(sample.policy, with_thinking_open(syntax, false), call + later, body,
                                     syntax.recurs ? "later" : "", checked + 3);
            ++checked;
        }
    }
    CHECK(checked == std::size(test::format_samples) * reasoning_parsers.size());
}

TEST_CASE("reasoning in calls: fuzz_formats' input with ernie45 behind openai_gptoss keeps every byte", "[formats][reasoning]")
{
    // The fuzz input's 4-byte header picks ernie45, openai_gptoss and pieces of up to 7 bytes; its
    // body has harmony markers inside a hermes-shaped call's arguments.
    const std::string input = test::read_file(TOOLSTREAM_FUZZ_REGRESSIONS_DIR "/formats/ernie45_openai_gptoss_marker_in_arguments");
    REQUIRE(input.size() > 4);
    const std::string_view body = std::string_view(input).substr(4);
    using policy = reasoning_policy<ernie45, openai_gptoss_reasoning>;
    test::check_byte_conservation<policy>(body);
    test::check_chunk_invariance<policy>(body);
    // The issue's own case, through the policy chosen by name as the programs choose it.
    const std::string body_with_region = "x <|channel|>analysis<|message|>y<|end|> z";
    const std::string call = "Writing.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.md\", \"content\": \""
                             + body_with_region + "\"}}\n</tool_call>\n";
    for (const auto& pieces : test::chunkings(call)) {
        const outcome got = run("hermes", &openai_gptoss_reasoning::syntax, pieces);
        REQUIRE(got.invocations.size() == 1);
        CHECK(got.invocations[0].status == invocation_status::complete);
        CHECK(got.invocations[0].arguments.at("content").as_string() == body_with_region);
        CHECK(got.reasoning.empty());
    }
}

} // namespace test_reasoning_in_calls
