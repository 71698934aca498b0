// inkling: tool blocks <|content_invoke_tool_json|>{"name": NAME, "args": {…}}<|end_message|>, as vLLM's
// InklingParser documents them (every marker a special token; the template prefills <|message_model|>).
// The cases are written from that documented grammar. Every input runs at every split position, in
// 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/inkling.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>

namespace test_inkling {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

template<class... Args>
test::policy_run run(std::string_view input, const Args&... args)
{
    return test::run_checked<inkling>(input, args...);
}

constexpr std::string_view open_call = "<|content_invoke_tool_json|>";
constexpr std::string_view end_message = "<|end_message|>";

std::string call(std::string_view object, bool closed = true)
{
    return std::string(open_call) + std::string(object) + (closed ? std::string(end_message) : "");
}

} // namespace

static_assert(test::registered_text_format<inkling> && inkling::decodes_file_bodies);

TEST_CASE("inkling: tool blocks after text, several calls", "[formats][inkling]")
{
    const std::string input = "Let me check." + call(R"({"name":"get_weather","args":{"city":"SF"}})")
        + "<|message_model|>" + call(R"({"name": "get_time", "args": {"tz": "PST", "n": [1, {"a": null}]}})") + "Done.";
    const auto r = run(input);
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"SF\"}\nseg_4 get_time {\"tz\":\"PST\",\"n\":[1,{\"a\":null}]}\n");
    // The other block markers are text.
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me check.<|message_model|>Done.");
    // The arguments are the model's raw text.
    CHECK(r.invocations[0].arguments_raw == R"({"city":"SF"})");
    // A call that starts the output (the header was prefilled), "arguments" read as "args".
    CHECK(calls(run(call(R"({"name":"f","arguments":{}})"))) == "seg_1 f {}\n");
}

TEST_CASE("inkling: write_file streams its decoded body; markers inside strings end nothing", "[formats][inkling]")
{
    const auto r = run(call(R"({"name":"write_file","args":{"path":"a.md","content":"<|end_message|> and \u00e9\n"}})"));
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} \"<|end_message|> and \xc3\xa9\\n\"\n");
    handler<inkling> h;
    REQUIRE(!h.feed(call(R"({"name":"write_file","args":{"path":"b.txt","content":"part one, )", false)));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed("part two\"}}<|end_message|>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"b.txt","content":"part one, part two"})"));
}

TEST_CASE("inkling: end of stream, end of sampling, not a call", "[formats][inkling][finalize]")
{
    // A complete object whose block the sampler ended, or a stop sequence took <|end_message|>: complete.
    const auto sampled = run(call(R"({"name":"f","args":{"a":1}})", false) + "<|content_model_end_sampling|>");
    CHECK(calls(sampled) == "seg_1 f {\"a\":1}\n");
    CHECK(test::content_of_type(sampled.events, segment_type::text) == "<|content_model_end_sampling|>");
    CHECK(calls(run(call(R"({"name":"f","args":{"a":1}})", false))) == "seg_1 f {\"a\":1}\n");
    // Cut inside the object: incomplete.
    CHECK(calls(run(call(R"({"name":"f","args":{"a":)", false))) == "seg_1 f {} incomplete\n");
    // Not an object after the marker, a text block, a raw tool block: text.
    for (std::string_view input : {"<|content_invoke_tool_json|> is the marker",
                                   "<|message_model|><|content_text|>Hello {\"name\":\"f\"}<|end_message|>",
                                   "<|content_invoke_tool_text|>get_weather(city=SF)<|end_message|>"}) {
        INFO(input);
        CHECK(segments(run(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("inkling: a call closed inside its JSON is invalid, and the next call is read", "[formats][inkling][peers]")
{
    // Derived from vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py::test_extract_tool_calls_invalid_json:
    // `<|end_message|>` outside a string ends the object, the call ENDs invalid_arguments, and the
    // next block's call is read.
    const auto r = run(call(R"({"name": "a", "args": {"x": [1)") + call(R"({"name": "b", "args": {}})"));
    CHECK(calls(r) == "seg_1 a {} invalid_arguments\nseg_2 b {}\n");
    CHECK(test::content_of_type(r.events, segment_type::tool_call) == R"({"name": "a", "args": {"x": [1{"name": "b", "args": {}})");
}

TEST_CASE("inkling: generated inputs at every chunking", "[formats][inkling][generated]")
{
    const std::string first = call(R"({"name": "get", "args": {"x": [1, {"y": "}<|end_message|>"}]}})");
    const std::string second = call(R"({"name":"write_file","args":{"path":"p","content":"\u00e9\n\ud83d\ude00"}})");
    const std::string third = "<|message_model|>" + call(R"({"args":{"k":"v"},"name":"late"})");
    const std::string_view pieces[] = {first, second, third, open_call, end_message, "<|content_model_end_sampling|>", "\n"};
    for (const auto& input : test::mixed_inputs(pieces, 40))
        run(input);
    for (const auto& input : test::mixed_inputs(pieces, 15, 7))
        run(input, text_format_options{.max_held = 16, .max_held_body = 24, .schemas = {}});
}

} // namespace test_inkling
