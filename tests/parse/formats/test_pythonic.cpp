// pythonic: inputs written from vLLM's documented behaviour (vllm/tool_parsers/pythonic_tool_parser.py
// and the shared literal rules of its utils.py: ast literals, json.dumps), with SGLang's
// PythonicDetector for the differences. Every case runs at every split position, in 1-byte and
// random chunks, with byte conservation and the argument-fragment contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/pythonic.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace test_pythonic {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<pythonic> && pythonic::decodes_file_bodies);

namespace {

test::policy_run run(std::string_view input) { return test::run_checked<pythonic>(input); }

// Options whose schema gives write_file the library's file tool shape (path and content).
text_format_options file_tool()
{
    return test::with_tools(R"([{"type":"function","function":{"name":"write_file","parameters":{
      "type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}}}])");
}

// The one call of `[f(a=VALUE)]`: its arguments as JSON text, or its status when not complete.
std::string value_of(std::string_view python)
{
    const auto r = run("[f(a=" + std::string(python) + ")]");
    REQUIRE(r.invocations.size() == 1);
    const auto& call = r.invocations[0];
    if (!call.is_complete())
        return std::string(boost::describe::enum_to_string(call.status, "?")) + ": " + call.error;
    return boost::json::serialize(call.arguments.at("a"));
}

} // namespace

TEST_CASE("pythonic: a list of calls, as Llama 3.2 writes it", "[formats][pythonic]")
{
    const auto r = run("[get_weather(city='San Francisco', metric='celsius'), register_user(name='John Doe', age=37, "
                       "address={'city': 'San Francisco', 'state': 'CA'}, role=None, passed_test=True, "
                       "aliases=['John', 'Johnny']), get_time()]");
    CHECK(calls(r) == "seg_1 get_weather {\"city\":\"San Francisco\",\"metric\":\"celsius\"}\n"
                      "seg_2 register_user {\"name\":\"John Doe\",\"age\":37,\"address\":{\"city\":\"San Francisco\","
                      "\"state\":\"CA\"},\"role\":null,\"passed_test\":true,\"aliases\":[\"John\",\"Johnny\"]}\n"
                      "seg_3 get_time {}\n");
    // The tool_call's content is its Python text; the list's brackets and separators are markup.
    CHECK(segments(r).starts_with("tool_call {\"tool_name\":\"get_weather\"} "
                                  "\"get_weather(city='San Francisco', metric='celsius')\"\n"));
    CHECK(r.invocations[0].arguments_raw == R"({"city":"San Francisco","metric":"celsius"})");
}

TEST_CASE("pythonic: Python literals become JSON", "[formats][pythonic]")
{
    CHECK(value_of(R"('Martha\'s "Vineyard"')") == R"("Martha's \"Vineyard\"")");
    CHECK(value_of(R"("tab\there\nnl \\ \x41\101\u00e9\U0001F600 \ud83d\ude00 \q")") == "\"tab\\there\\nnl \\\\ AAé😀 😀 \\\\q\"");
    CHECK(value_of(R"(r'\d+\'')") == R"("\\d+\\'")");
    CHECK(value_of(R"('a' "b"  r'\c' u'd')") == R"("ab\\cd")");   // implicit concatenation
    CHECK(value_of("'''one\n'two'\n''' ") == R"("one\n'two'\n")");
    CHECK(value_of("\"raw\nbreak\"") == R"("raw\nbreak")");        // kept, as vLLM's recovery reads it
    CHECK(value_of("f'{{x}}'") == R"("{x}")");
    CHECK(value_of("''") == R"("")");
    CHECK(value_of("-12") == "-12");
    CHECK(value_of("1_000") == "1000");
    CHECK(value_of("0x1F") == "31");
    CHECK(value_of("0o17") == "15");
    CHECK(value_of("0b101") == "5");
    CHECK(value_of("007") == "7");
    CHECK(value_of("- 2.5") == "-2.5E0");
    CHECK(value_of(".5") == "5E-1");
    CHECK(value_of("1e3") == "1E3");
    CHECK(value_of("1e-400") == "0E0");
    CHECK(value_of("True") == "true");
    CHECK(value_of("false") == "false");
    CHECK(value_of("null") == "null");
    CHECK(value_of("[1, [2, []], {}]") == "[1,[2,[]],{}]");
    CHECK(value_of("(1, 'a',)") == R"([1,"a"])");
    CHECK(value_of("(1,)") == "[1]");
    CHECK(value_of("()") == "[]");
    CHECK(value_of("(5)") == "5");
    CHECK(value_of("((1, 2))") == "[1,2]");
    CHECK(value_of("{'a', 'b'}") == R"(["a","b"])");
    CHECK(value_of("{1}") == "[1]");
    CHECK(value_of("{'k': (1, {2: None}), 3: 'x', True: [], -1.5: 0,}") == R"({"k":[1,{"2":null}],"3":"x","true":[],"-1.5":0})");
    CHECK(value_of("[ 1 ,\n 2 ]") == "[1,2]");
}

TEST_CASE("pythonic: what vLLM rejects ends the call invalid_arguments; the calls after it are read", "[formats][pythonic]")
{
    for (std::string_view bad : {"b'z'", "1e999", "1j", "x", "inf", "f'{x}'", "'\\N{DASH}'", "[1, )", "{'a': }",
                                 "{[1]: 2}", "-True", "-'a'", "'a' + 'b'", "(1, 2"}) {
        INFO(bad);
        CHECK(value_of(bad).starts_with("invalid_arguments: "));
    }
    // A positional argument after a keyword one, unpacking, a repeated body: the call is invalid,
    // its raw text kept as its content, and the next call is read as usual.
    const auto r = run("[f(a=1, 2), g(**kw), write_file(path='x', content='a', content='b'), ok(v=[1, (2,)])] tail");
    CHECK(calls(r) == "seg_1 f {} invalid_arguments\nseg_2 g {} invalid_arguments\n"
                      "seg_3 write_file {} invalid_arguments\nseg_4 ok {\"v\":[1,[2]]}\n");
    CHECK(r.invocations[0].error == "positional arguments are not supported (vLLM's pythonic parsers read keyword arguments only)");
    CHECK(segments(r).starts_with("tool_call {\"tool_name\":\"f\"} \"f(a=1, 2)\" invalid_arguments\n"));
    CHECK(test::content_of_type(r.events, segment_type::text) == " tail");
    // Brackets and quotes inside the broken call do not end it early.
    CHECK(calls(run("[f(a=x, b='),]', c=[')']), g()]")) == "seg_1 f {} invalid_arguments\nseg_2 g {}\n");
}

TEST_CASE("pythonic: text around calls; a bracket that opens no call is text", "[formats][pythonic]")
{
    const auto r = run("Let me check. [get_weather(city=\"Paris\", days=3)] Done.");
    CHECK(segments(r) == "text \"Let me check. \"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"get_weather(city=\\\"Paris\\\", days=3)\"\n"
                         "text \" Done.\"\n");
    // As vLLM's pattern: `[` then NAME( then `)` or a keyword; a positional first argument is text.
    for (std::string_view input : {"[1, 2]", "[link](url)", "a [print(x)] b", "[f (a == 1)]", "[f(*args)]", "[ ]",
                                   "[]", "[x.y]", "[f(", "[get_weather", "call [f(a"}) {
        INFO(input);
        const auto t = run(input);
        CHECK(t.invocations.empty());
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
    // Dotted names (vLLM keeps them), blanks anywhere; after the list the rest is text.
    CHECK(calls(run("[ tools.search.run ( q = 'x' ) , f() ]\n[g(a=1)]")) == "seg_1 tools.search.run {\"q\":\"x\"}\n"
                                                                             "seg_2 f {}\nseg_4 g {\"a\":1}\n");
    // After a call, anything but `,` and another call ends the block.
    const auto t = run("[f(a=1) then g(b=2)]");
    CHECK(calls(t) == "seg_1 f {\"a\":1}\n");
    CHECK(test::content_of_type(t.events, segment_type::text) == " then g(b=2)]");
}

TEST_CASE("pythonic: write_file streams its decoded body live, path waited for", "[formats][pythonic]")
{
    const std::string input = "[write_file(path=\"a.py\", content=\"def f():\\n    return \\\"é\\\" # ) ] '\\n\"), "
                              "run_bash(command='ls -l', background=True, timeout_seconds=30, note='x')]";
    const auto r = run(input);
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.py\"} "
                         "\"def f():\\n    return \\\"é\\\" # ) ] '\\n\"\n"
                         "run_bash {\"tool_name\":\"run_bash\"} \"ls -l\"\n");
    CHECK(r.invocations[0].arguments == boost::json::parse(R"({"path":"a.py","content":"def f():\n    return \"é\" # ) ] '\n"})"));
    CHECK(r.invocations[1].arguments
          == boost::json::parse(R"({"command":"ls -l","background":true,"timeout_seconds":30})"));
    // The body arrives before the call ends, piece by piece; a body before the path waits for it
    // (the tool's schema gives it the file tool's shape: without one, its first member would make
    // an ordinary call).
    handler<pythonic> h(recording_sink{}, {}, pythonic(file_tool()));
    REQUIRE(!h.feed("[write_file(path='b.txt', content='''first "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first ");
    REQUIRE(!h.feed("line\n''' 'more')"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first line\nmore");
    REQUIRE(!h.feed(", write_file(content='early', "));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "first line\nmore");
    REQUIRE(!h.feed("path='c.txt')]"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 2);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"b.txt","content":"first line\nmore"})"));
    CHECK(h.invocations()[1].arguments == boost::json::parse(R"({"path":"c.txt","content":"early"})"));
    // A body in parentheses, as Python wraps long strings; a body that is not a string is invalid.
    CHECK(calls(run("[write_file(path='p', content=(\n  'a\\n'\n  'b'\n))]")) == "seg_1 write_file {\"path\":\"p\",\"content\":\"a\\nb\"}\n");
    CHECK(calls(run("[write_file(path='p', content=42)]")) == "seg_1 write_file {} invalid_arguments\n");
    // Without its path: not the file tool's shape, an ordinary call; with the schema, a file call
    // that misses its path.
    CHECK(calls(run("[write_file(content='x')]")) == "seg_1 write_file {\"content\":\"x\"}\n");
    CHECK(calls(test::run_checked<pythonic>("[write_file(content='x')]", file_tool())) == "seg_1 write_file {} invalid_arguments\n");
}

TEST_CASE("pythonic: a UTF-8 character split across chunks stays whole in every event", "[formats][pythonic]")
{
    const std::string input = "[f(a='\xe2\x82\xac\xf0\x9f\x98\x80')]";
    for (std::size_t cut = 1; cut < input.size(); ++cut) {
        handler<pythonic, test::contract_recording_sink> h;
        REQUIRE(!h.feed(std::string_view(input).substr(0, cut)));
        REQUIRE(!h.feed(std::string_view(input).substr(cut)));
        REQUIRE(!h.finalize());
        for (const auto& e : h.events())
            CHECK(detail::utf8_complete_prefix(e.delta) == e.delta.size());
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].arguments.at("a").as_string() == "\xe2\x82\xac\xf0\x9f\x98\x80");
    }
}

TEST_CASE("pythonic: a list cut off at the end of the stream", "[formats][pythonic][finalize]")
{
    CHECK(calls(run("[f(a='unterminated")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("[f(a=[1, 2")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("[f(a=1), g(b='\\")) == "seg_1 f {\"a\":1}\nseg_2 g {} incomplete\n");
    CHECK(calls(run("[f(a='\xe2\x82")) == "seg_1 f {} incomplete\n");
    // A call whose syntax failed before the end keeps that verdict.
    CHECK(calls(run("[f(a=x, b='(")) == "seg_1 f {} invalid_arguments\n");
    // A call whose `)` came is complete though the list's `]` never does (a stop sequence).
    const auto r = run("[f(a=1), ");
    CHECK(calls(r) == "seg_1 f {\"a\":1}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == ", ");
}

TEST_CASE("pythonic: generated inputs at every chunking", "[formats][pythonic]")
{
    constexpr std::string_view pieces[] = {
        "[get_weather(city='Paris', days=3)]", "[f(), g(x=[1, {'a': None}], y=(1,))]",
        "[write_file(path='p.py', content='x = \"]\"\\n')]", "[broken(1, a=2)]", "[h(s=r'\\d', t='''a\nb''')]",
    };
    for (const std::string& input : test::mixed_inputs(pieces, 40)) {
        INFO(input);
        test::check_chunk_invariance<pythonic>(input);
        test::check_byte_conservation<pythonic>(input);
    }
}

TEST_CASE("pythonic: a 1 MiB write_file body streams with a bounded hold", "[formats][pythonic][large]")
{
    std::string body;
    std::string decoded;
    while (body.size() < (std::size_t{1} << 20)) {
        body += "print('it\\'s \\u00e9', \\\"[x(a=1)]\\\") \xc3\xa9\\n";
        decoded += "print('it's \xc3\xa9', \"[x(a=1)]\") \xc3\xa9\n";
    }
    const std::string input = "ok [write_file(path='big.py', content=\"" + body + "\")] done";
    test::check_large_body<pythonic>(input, decoded, 128, std::size_t{1} << 14);
}

TEST_CASE("pythonic: a token or an undecided container past max_held fails the same at any chunking", "[formats][pythonic]")
{
    text_format_options small;
    small.max_held = 16;
    for (std::string_view input : {"[f(a=1, a_keyword_longer_than_the_cap=2), g()]", "[f(a=12345678901234567890), g()]",
                                   "[f(a=('a string longer than sixteen bytes', 2)), g()]"}) {
        INFO(input);
        const auto r = test::run_checked<pythonic>(input, small);
        CHECK(calls(r) == "seg_1 f {} invalid_arguments\nseg_2 g {}\n");
    }
    // With the default cap the same calls are fine.
    CHECK(calls(run("[f(a=('a string longer than sixteen bytes', 2))]")) == "seg_1 f {\"a\":[\"a string longer than sixteen bytes\",2]}\n");
    // A body waiting for its path past max_held_body (the schema gives it the file tool's shape):
    // START goes without it, END has it.
    small.schemas = file_tool().schemas;
    small.max_held = 64;
    small.max_held_body = 64;
    const auto r = test::run_checked<pythonic>("[write_file(content='" + std::string(100, 'x') + "', path='late.txt')]", small);
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\"} \"" + std::string(100, 'x') + "\"\n");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments.at("path") == "late.txt");
}

} // namespace test_pythonic
