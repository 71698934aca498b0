// `auto` (registry.hpp's last policy, auto_policy): the format is found from the text. That it
// gives the named format's events on every format test's input is checked by run_checked itself
// (support/auto_agreement.cpp); here, what only auto does.
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace test_auto {

using namespace toolstream;
using test::calls;

namespace {

struct auto_result {
    test::policy_run run;
    std::string format;
};

// `input` through `auto` at every chunking; they must agree, and the whole run is returned.
auto_result read_auto(std::string_view input, auto_options options = {})
{
    const auto once = [&](const std::vector<std::string_view>& pieces) {
        handler<runtime_policy> h(recording_sink{}, {}, runtime_policy(auto_detect(options)));
        for (const auto piece : pieces)
            REQUIRE(!h.feed(piece));
        REQUIRE(!h.finalize());
        return auto_result{{test::coalesce(h.events()), h.invocations()}, std::string(h.policy().format())};
    };
    const auto whole = once({input});
    for (const auto& pieces : test::chunkings(input)) {
        const auto got = once(pieces);
        REQUIRE(got.format == whole.format);
        REQUIRE(got.run.events == whole.run.events);
        REQUIRE(got.run.invocations == whole.run.invocations);
    }
    return whole;
}

std::size_t longest_opener()
{
    std::size_t n = 0;
    for (const auto o : auto_detect::openers())
        n = std::max(n, o.size());
    return n;
}

} // namespace

TEST_CASE("auto: a marker several formats open is read by the one whose call follows", "[formats][auto]")
{
    // The three `<tool_call>` formats of the issue: JSON (hermes), `<function=` (qwen3_coder), a
    // bare name with `<arg_key>` (glm45; llama.cpp's prose_after_call output).
    const auto hermes_call = read_auto("Sure.\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"UTC\"}}\n</tool_call>");
    CHECK(hermes_call.format == "hermes");
    CHECK(calls(hermes_call.run) == "seg_2 get_time {\"tz\":\"UTC\"}\n");
    const auto coder_call = read_auto("<tool_call>\n<function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n</function>\n</tool_call>");
    CHECK(coder_call.format == "qwen3_coder");
    CHECK(calls(coder_call.run) == "seg_1 get_time {\"tz\":\"UTC\"}\n");
    const auto glm_call = read_auto("<tool_call>get_time\n<arg_key>tz</arg_key>\n<arg_value>UTC</arg_value>\n</tool_call>");
    CHECK(glm_call.format == "glm45");
    CHECK(calls(glm_call.run) == "seg_1 get_time {\"tz\":\"UTC\"}\n");
    // A marker no other format has is its format's at once.
    const auto kimi = read_auto("<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time:0<|tool_call_argument_begin|>"
                                "{\"tz\": \"UTC\"}<|tool_call_end|><|tool_calls_section_end|>");
    CHECK(kimi.format == "kimi_k2");
    CHECK(calls(kimi.run) == "functions.get_time:0 get_time {\"tz\":\"UTC\"}\n");
}

TEST_CASE("auto: text with no format's markup is text, held no longer than a marker", "[formats][auto]")
{
    const std::string prose = "Plain answer: 2 < 3, {braces} and [brackets], <b>bold</b>, to be or not, functional.";
    const auto r = read_auto(prose);
    CHECK(r.format.empty());
    CHECK(test::content_of_type(r.run.events, segment_type::text) == prose);
    CHECK(r.run.invocations.empty());

    // Fed a byte at a time, it holds at most a marker's prefix.
    handler<runtime_policy> h(recording_sink{}, {}, make_policy("auto").value());
    std::size_t most = 0;
    for (const char c : prose) {
        REQUIRE(!h.feed(std::string_view(&c, 1)));
        most = std::max(most, h.policy().held_bytes());
    }
    CHECK(most < longest_opener());
    REQUIRE(!h.finalize());
}

TEST_CASE("auto: the first call of a large file is held at most 4096 bytes, then streams", "[formats][auto]")
{
    const std::string body(200000, 'x');
    const std::string text = "Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/a.txt\n</parameter>\n"
                             "<parameter=content>\n" + body + "\n</parameter>\n</function>\n</tool_call>\nDone.";
    for (const std::size_t chunk : {std::size_t{7}, std::size_t{4096}}) {
        INFO("chunks of " << chunk);
        handler<runtime_policy> h(recording_sink{}, {}, make_policy("auto").value());
        std::size_t most = 0;
        for (std::size_t at = 0; at < text.size(); at += chunk) {
            REQUIRE(!h.feed(std::string_view(text).substr(at, chunk)));
            most = std::max(most, h.policy().held_bytes());
        }
        REQUIRE(!h.finalize());
        CHECK(most <= auto_options{}.max_held);
        CHECK(h.policy().format() == "qwen3_coder");
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].is_complete());
        CHECK(h.invocations()[0].arguments.at("content").as_string() == body);
    }
}

TEST_CASE("auto: behind a reasoning parser, a call of whichever format ends a region that calls end", "[formats][auto]")
{
    // llama.cpp's prose_after_call output (tests/test-chat.cpp, GLM-4.6) under vLLM's qwen3
    // reasoning parser, whose region is open from the start: glm45's call ends it, as it does
    // under --parser glm45 (test_reasoning_openings.cpp); auto finds glm45 there.
    const std::string glm = "<tool_call>get_time\n<arg_key>tz</arg_key>\n<arg_value>UTC</arg_value>\n</tool_call>";
    const std::string hermes = "Let me think.\n</think>\n\nChecking.\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>";
    const std::vector<std::tuple<std::string, std::string, std::string>> cases{
        {glm, "glm45", ""}, {hermes, "hermes", "Let me think.\n"}};
    for (const auto& [text, format, reasoning] : cases) {
        INFO(text);
        const auto whole = [&](const std::vector<std::string_view>& pieces) {
            handler<runtime_policy> h(recording_sink{}, {}, make_policy("auto", "qwen3").value());
            for (const auto piece : pieces)
                REQUIRE(!h.feed(piece));
            REQUIRE(!h.finalize());
            return auto_result{{test::coalesce(h.events()), h.invocations()}, std::string(h.policy().format())};
        };
        const auto r = whole({text});
        CHECK(r.format == format);
        REQUIRE(r.run.invocations.size() == 1);
        CHECK(r.run.invocations[0].name == "get_time");
        CHECK(r.run.invocations[0].is_complete());
        CHECK(test::content_of_type(r.run.events, segment_type::reasoning) == reasoning);
        for (const auto& pieces : test::chunkings(text)) {
            const auto got = whole(pieces);
            REQUIRE(got.run.events == r.run.events);
            REQUIRE(got.run.invocations == r.run.invocations);
        }
    }
}

TEST_CASE("auto: no minimax call opens inside <think>, where minimax opens none; other formats' do", "[formats][auto]")
{
    // minimax's rule (vllm tests/tool_parsers/test_minimax_tool_parser.py::
    // test_extract_tool_calls_with_thinking_tags): its calls inside a think block are text. auto
    // keeps it: a minimax call there makes the rest of the block text (not hy_v3's `<tool_calls>`
    // nor llama3_json's object), and the call after the block is minimax's.
    const std::string minimax_call = "<tool_calls>\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"UTC\"}}\n</tool_calls>";
    const std::string inside = "<think>" + minimax_call + "</think>";
    const auto thought = read_auto(inside);
    CHECK(thought.format.empty());
    CHECK(thought.run.invocations.empty());
    CHECK(test::content_of_type(thought.run.events, segment_type::text) == inside);
    const auto after = read_auto(inside + "\n" + minimax_call);
    CHECK(after.format == "minimax");
    CHECK(calls(after.run) == "seg_2 get_time {\"tz\":\"UTC\"}\n");
    CHECK(test::content_of_type(after.run.events, segment_type::text) == inside + "\n");
    // hermes reads a call inside a think block when no reasoning parser is named; so does auto.
    const auto hermes = read_auto("<think><tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call></think>");
    CHECK(hermes.format == "hermes");
    CHECK(calls(hermes.run) == "seg_2 get_time {}\n");
}

TEST_CASE("auto: make_policy and the registry know it; the choice is the stream's", "[formats][auto]")
{
    auto made = make_policy("auto");
    REQUIRE(made.has_value());
    CHECK(made->name() == "auto");
    CHECK(made->format().empty());
    CHECK(policy_names.back() == "auto");
    // A second stream chooses again: reset() forgets the first choice.
    handler<runtime_policy> h(recording_sink{}, {}, std::move(*made));
    REQUIRE(!h.feed("[TOOL_CALLS]get_time{\"tz\": \"UTC\"}"));
    REQUIRE(!h.finalize());
    CHECK(h.policy().format() == "mistral_calls");
    h.reset();
    CHECK(h.policy().format().empty());
    REQUIRE(!h.feed("<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>"));
    REQUIRE(!h.finalize());
    CHECK(h.policy().format() == "hermes");
    // What a named format left in its text (the replay program's warning).
    CHECK(auto_detect::format_in("see <tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>") == "hermes");
    CHECK(auto_detect::format_in("no markup here").empty());
}

} // namespace test_auto
