// gemma4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,…}<tool_call|>`, read as vLLM's gemma4 tool
// parser (vllm/tool_parsers/gemma4_tool_parser.py, vllm/parser/gemma4.py and their tests) reads
// it. Every input runs at every split position, in 1-byte and random chunks, with byte
// conservation and the argument-fragment contract (formats/format_checks.hpp).
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/gemma4.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace test_gemma4 {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<gemma4> && !gemma4::decodes_file_bodies);

TEST_CASE("gemma4: calls between prose and back to back", "[formats][gemma4]")
{
    const auto r = test::run_checked<gemma4>(
        "Let me check both. <|tool_call>call:get_weather{location:<|\"|>San Francisco, CA<|\"|>,unit:<|\"|>celsius<|\"|>}"
        "<tool_call|><|tool_call>call:get-time.v2{}<tool_call|>Done.");
    CHECK(segments(r) == "text \"Let me check both. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{location:<|\\\"|>San Francisco, CA<|\\\"|>,"
                         "unit:<|\\\"|>celsius<|\\\"|>}\"\n"
                         "tool_call {\"tool_name\":\"get-time.v2\"} \"{}\"\n"
                         "text \"Done.\"\n");
    CHECK(calls(r) == "seg_2 get_weather {\"location\":\"San Francisco, CA\",\"unit\":\"celsius\"}\n"
                      "seg_3 get-time.v2 {}\n");
    CHECK(r.invocations[0].arguments_raw == R"({"location":"San Francisco, CA","unit":"celsius"})");
}

TEST_CASE("gemma4: nested objects, arrays, numbers, booleans, null", "[formats][gemma4]")
{
    const auto r = test::run_checked<gemma4>(
        "<|tool_call>call:configure{count:42,ratio:-3.5e2,on:true,off:false,gone:null,none_too:None,"
        "mode:fast lane,nested:{inner:{<|\"|>3<|\"|>:<|\"|>new text<|\"|>},list:[1, <|\"|>a]b<|\"|>, [true,{}], []]},"
        " spaced : <|\"|> keep \"quotes\" \\ <|\"|> ,empty:}<tool_call|>");
    CHECK(calls(r) == "seg_1 configure {\"count\":42,\"ratio\":-3.5E2,\"on\":true,\"off\":false,\"gone\":null,"
                      "\"none_too\":null,\"mode\":\"fast lane\",\"nested\":{\"inner\":{\"3\":\"new text\"},"
                      "\"list\":[1,\"a]b\",[true,{}],[]]},\"spaced\":\" keep \\\"quotes\\\" \\\\ \",\"empty\":\"\"}\n");
    // Numbers keep their digits; what is not a JSON number is a string, as vLLM reads `1.`.
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{a:3.14,b:007,c:1.,d:[2,]}<tool_call|>"))
          == "seg_1 f {\"a\":3.14E0,\"b\":\"007\",\"c\":\"1.\",\"d\":[2]}\n");
}

TEST_CASE("gemma4: write_file streams its body live; markers in strings end nothing", "[formats][gemma4]")
{
    const std::string body = "# \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80 <tool_call|> } ] \"q\" \\n\n<|tool_call>call:x{";
    const auto r = test::run_checked<gemma4>("Writing.\n<|tool_call>call:write_file{path:<|\"|>docs/a.md<|\"|>,content:<|\"|>"
                                             + body + "<|\"|>}<tool_call|>\nDone.");
    CHECK(segments(r) == "text \"Writing.\\n\"\nwrite_file {\"tool_name\":\"write_file\",\"path\":\"docs/a.md\"} "
                             + boost::json::serialize(boost::json::string(body)) + "\ntext \"\\nDone.\"\n");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == boost::json::parse(R"({"path":"docs/a.md","content":)"
                                                           + boost::json::serialize(boost::json::string(body)) + "}"));

    // The body is out before the call closes; a split delimiter or character holds only its start.
    handler<gemma4> h;
    REQUIRE(!h.feed("<|tool_call>call:write_file{path:<|\"|>a.txt<|\"|>,content:<|\"|>part one, \xc3"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed("\xa9<|\""));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, \xc3\xa9");
    REQUIRE(!h.feed("|>}<tool_call|>"));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, é"})"));

    // The body before the path, the tool's schema giving it the file tool's shape (without one,
    // its first member would make an ordinary call): START waits for the path. run_bash takes
    // its options.
    const auto file_tool = test::with_tools(R"([{"type":"function","function":{"name":"write_file","parameters":{
      "type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}}}])");
    const auto late = test::run_checked<gemma4>("<|tool_call>call:write_file{content:<|\"|>x\ny<|\"|>,path:<|\"|>p<|\"|>}"
                                                "<tool_call|>",
                                                file_tool);
    CHECK(segments(late) == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"x\\ny\"\n");
    CHECK(calls(late) == "seg_1 write_file {\"path\":\"p\",\"content\":\"x\\ny\"}\n");
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:run_bash{command:<|\"|>ls -l<|\"|>,timeout_seconds:30,"
                                          "background:false,extra:{a:1}}<tool_call|>"))
          == "seg_1 run_bash {\"command\":\"ls -l\",\"background\":false,\"timeout_seconds\":30}\n");
}

TEST_CASE("gemma4: a tool_call's string streams as its arguments", "[formats][gemma4]")
{
    handler<gemma4, test::contract_recording_sink> h(test::contract_recording_sink{});
    REQUIRE(!h.feed("<|tool_call>call:search{query:<|\"|>caf\xc3"));
    CHECK(test::content_of_type(h.events(), segment_type::tool_call) == "{query:<|\"|>caf");
    REQUIRE(!h.feed("\xa9 au lait<|\"|>}<tool_call|>"));
    REQUIRE(!h.finalize());
    test::require_contract_kept(h.sink().contract);
    CHECK(h.invocations()[0].arguments_raw == "{\"query\":\"caf\xc3\xa9 au lait\"}");
}

TEST_CASE("gemma4: what is not a call stays text", "[formats][gemma4]")
{
    for (std::string_view input :
         {"<|tool_call> is the token", "<|tool_call>call:", "<|tool_call>call:f", "<|tool_call>call: f{}<tool_call|>",
          "<|tool_call>call:f {}", "<|tool_call>call:{a:1}", "<|tool_call>response:f{}", "a <tool_call|> b",
          "key:<|\"|>v<|\"|>", "call:f{a:1}", "<|tool_ca"}) {
        INFO(input);
        CHECK(segments(test::run_checked<gemma4>(input)) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
    }
}

TEST_CASE("gemma4: cut off, stopped, invalid", "[formats][gemma4][finalize]")
{
    // Cut inside the arguments: incomplete, the raw text kept.
    CHECK(segments(test::run_checked<gemma4>("<|tool_call>call:write_file{path:<|\"|>p<|\"|>,content:<|\"|>ab<|\""))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"ab<|\\\"\" incomplete\n");
    for (std::string_view input : {"<|tool_call>call:f{a:<|\"|>x", "<|tool_call>call:f{a:1", "<|tool_call>call:f{a:{b:[1",
                                   "<|tool_call>call:f{<|\"|>k", "<|tool_call>call:f{"}) {
        INFO(input);
        CHECK(calls(test::run_checked<gemma4>(input)) == "seg_1 f {} incomplete\n");
    }
    // A stop sequence took the closing marker: the complete object makes a complete call.
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{a:1}\n")) == "seg_1 f {\"a\":1}\n");
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{a:1}<tool_")) == "seg_1 f {\"a\":1}\n");
    const auto stopped = test::run_checked<gemma4>("<|tool_call>call:f{a:1} then prose");
    CHECK(segments(stopped) == "tool_call {\"tool_name\":\"f\"} \"{a:1}\"\ntext \"then prose\"\n");

    // Broken syntax: invalid_arguments with the reason; its text up to the closing marker is the call's.
    const auto bad = test::run_checked<gemma4>("<|tool_call>call:f{a:1 b:2}<tool_call|>after");
    CHECK(calls(bad) == "seg_1 f {} invalid_arguments\n");
    CHECK(segments(bad) == "tool_call {\"tool_name\":\"f\"} \"{a:1 b:2}\" invalid_arguments\ntext \"after\"\n");
    CHECK(bad.invocations[0].error.find("invalid Gemma tool-call arguments: expected ',' or '}'") != std::string::npos);
    for (std::string_view input : {"<|tool_call>call:f{a:1<tool_call|>", "<|tool_call>call:f{:1}<tool_call|>",
                                   "<|tool_call>call:f{a:,b:1}<tool_call|>", "<|tool_call>call:f{a:[1}<tool_call|>",
                                   "<|tool_call>call:f{<|\"|>k<|\"|> 1}<tool_call|>", "<|tool_call>call:f{a:1}}<tool_call|>"}) {
        INFO(input);
        const auto r = test::run_checked<gemma4>(input);
        if (input.ends_with("}}<tool_call|>")) {   // the call ended at its object's end: the rest is text
            CHECK(calls(r) == "seg_1 f {\"a\":1}\n");
            continue;
        }
        CHECK(calls(r) == "seg_1 f {} invalid_arguments\n");
        CHECK(test::content_of_type(r.events, segment_type::text).empty());
    }
    // A broken call without its closing marker ends before the next call.
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{a:1:2}x<|tool_call>call:g{b:2}<tool_call|>"))
          == "seg_1 f {} invalid_arguments\nseg_2 g {\"b\":2}\n");
}

TEST_CASE("gemma4: nesting and token caps", "[formats][gemma4]")
{
    const std::string deep = "<|tool_call>call:f{a:" + std::string(70, '[') + "<tool_call|>after";
    handler<gemma4> h;
    CHECK(h.feed(deep) == error::nesting_too_deep);
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].status == invocation_status::invalid_arguments);
    CHECK(test::content_of_type(h.events(), segment_type::text) == "after");

    // A key or scalar is held up to max_held; a string streams whatever its size.
    const text_format_options small{.max_held = 32, .max_held_body = 24, .schemas = {}};
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{a_key_name_longer_than_32_bytes_in_all:1}<tool_call|>", small))
          == "seg_1 f {} invalid_arguments\n");
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{k:123456789012345678901234567890123}<tool_call|>", small))
          == "seg_1 f {} invalid_arguments\n");
    CHECK(calls(test::run_checked<gemma4>("<|tool_call>call:f{k:<|\"|>a string longer than the 32-byte cap<|\"|>}<tool_call|>", small))
          == "seg_1 f {\"k\":\"a string longer than the 32-byte cap\"}\n");
}

TEST_CASE("gemma4: generated inputs at every chunking", "[formats][gemma4][generated]")
{
    constexpr std::string_view pieces[] = {
        "<|tool_call>call:get{x:[1,{y:<|\"|>}]<tool_call|><|\"|>}],z:true}<tool_call|>",
        "<|tool_call>call:write_file{path:<|\"|>p<|\"|>,content:<|\"|>\xc3\xa9\n\xf0\x9f\x98\x80 <|\"|>}<tool_call|>",
        "<|tool_call>call:write_file{content:<|\"|>body first<|\"|>,path:<|\"|>q<|\"|>}",
        "<|tool_call>call:bad{a b}<tool_call|>", "<|tool_call>call:", "<|tool_call>", "<tool_call|>", "<|\"|>",
        "\xe2\x82\xac ", "\n",
    };
    for (const auto& input : test::mixed_inputs(pieces, 40))
        test::run_checked<gemma4>(input);
    for (const auto& input : test::mixed_inputs(pieces, 15, 7))
        test::run_checked<gemma4>(input, text_format_options{.max_held = 32, .max_held_body = 24, .schemas = {}});
}

TEST_CASE("gemma4: a 1 MiB write_file streams with a bounded hold", "[formats][gemma4][large]")
{
    std::string body;
    while (body.size() < (std::size_t{1} << 20))
        body += "line " + std::to_string(body.size()) + " <tool_call|> <|\"| \"q\" \xc3\xa9 }\n";
    const std::string input = "Prose first.\n<|tool_call>call:write_file{path:<|\"|>big.txt<|\"|>,content:<|\"|>" + body
                              + "<|\"|>}<tool_call|>\nProse after.";
    test::check_large_body<gemma4>(input, body, 64);
}

} // namespace test_gemma4
