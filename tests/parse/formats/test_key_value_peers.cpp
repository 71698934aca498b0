// The key/value formats (qwen3_coder, glm45, minimax_m2) against what vLLM, SGLang and llama.cpp
// accept: qwen3_coder's bare <function=…>, a missing </parameter>, glm45's name without a line
// break, and schema-typed values (null, unions) in every format. Every input runs at every split
// position, in 1-byte and random chunks, with byte conservation and the argument contract.
#include <toolstream/parse/formats/glm45.hpp>
#include <toolstream/parse/formats/minimax_m2.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace test_key_value_peers {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

text_format_options with_schemas()
{
    text_format_options o;
    o.schemas = std::make_shared<const tool_schemas>(boost::json::parse(R"([
      {"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{
        "note":{"type":["string","null"]},"n":{"type":["integer","null"]},
        "spec":{"anyOf":[{"type":"object"},{"type":"string"}]},"spec2":{"anyOf":[{"type":"object"},{"type":"string"}]},
        "count":{"oneOf":[{"type":"integer"},{"type":"string"}]},"count2":{"oneOf":[{"type":"integer"},{"type":"string"}]},
        "first":{"type":["string","integer"]},
        "opt":{"anyOf":[{"type":"number"},{"type":"null"}]},
        "plain":{"type":"string"},"free":{"description":"no type"}}}}},
      {"type":"function","function":{"name":"TodoWrite","parameters":{"type":"object","properties":{
        "todos":{"type":"array","items":{"type":"object","properties":{"content":{"type":"string"},"status":{"type":"string"}}}}}}}}
    ])").as_array());
    return o;
}

// The same arguments in each format's own syntax.
std::string qwen3_coder_call(std::string_view params)
{
    return "<tool_call>\n<function=f>\n" + std::string(params) + "</function>\n</tool_call>";
}
std::string qwen3_coder_param(std::string_view k, std::string_view v)
{
    return "<parameter=" + std::string(k) + ">\n" + std::string(v) + "\n</parameter>\n";
}
std::string glm45_param(std::string_view k, std::string_view v)
{
    return "<arg_key>" + std::string(k) + "</arg_key>\n<arg_value>" + std::string(v) + "</arg_value>\n";
}
std::string minimax_param(std::string_view k, std::string_view v)
{
    return "<parameter name=\"" + std::string(k) + "\">" + std::string(v) + "</parameter>\n";
}

constexpr std::pair<std::string_view, std::string_view> typed_values[] = {
    {"note", "null"}, {"n", "null"}, {"spec", "{\"a\": 1}"}, {"count", "42"}, {"first", "42"},
    {"opt", "None"}, {"plain", "null"}, {"free", "7"}, {"spec2", "not json"}, {"count2", "many"},
};
// vLLM's qwen3_coder / glm45 / minimax_m2 value typing: null for a nullable type. A union is its
// first non-string member that reads the text, wherever the string member stands (llama.cpp's
// typing: `first` is string|integer), and text no member reads stays a string.
constexpr std::string_view typed_expected =
    "seg_1 f {\"note\":null,\"n\":null,\"spec\":{\"a\":1},\"count\":42,\"first\":42,\"opt\":null,\"plain\":\"null\","
    "\"free\":\"7\",\"spec2\":\"not json\",\"count2\":\"many\"}\n";

} // namespace

TEST_CASE("qwen3_coder: <function=…> without <tool_call> is a call (vLLM, SGLang, llama.cpp)", "[formats][qwen3_coder][peers]")
{
    const auto bare = test::run_checked<qwen3_coder>("<function=f>\n<parameter=a>\n1\n</parameter>\n</function>");
    CHECK(calls(bare) == "seg_1 f {\"a\":\"1\"}\n");
    const auto prose = test::run_checked<qwen3_coder>(
        "Let me look.\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>\nDone.");
    CHECK(segments(prose) == "text \"Let me look.\\n\"\ntool_call {\"tool_name\":\"f\"} "
                             "\"\\n<parameter=a>\\n1\\n</parameter>\\n</function>\"\ntext \"\\nDone.\"\n");
    // Two bare calls; a bare opening that names no tool stays text.
    CHECK(calls(test::run_checked<qwen3_coder>("<function=a>\n</function>\n<function=b>\n</function>")) == "seg_1 a {}\nseg_3 b {}\n");
    CHECK(segments(test::run_checked<qwen3_coder>("use <function=a b> here")) == "text \"use <function=a b> here\"\n");
    // Cut inside: incomplete, every byte kept.
    CHECK(calls(test::run_checked<qwen3_coder>("<function=f>\n<parameter=a>\n1")) == "seg_1 f {} incomplete\n");
}

TEST_CASE("qwen3_coder: a missing </parameter> is closed by the next <parameter= or </function> (vLLM)", "[formats][qwen3_coder][peers]")
{
    CHECK(calls(test::run_checked<qwen3_coder>(
              qwen3_coder_call("<parameter=a>\n1\n<parameter=b>\n2\n</parameter>\n")))
          == "seg_1 f {\"a\":\"1\",\"b\":\"2\"}\n");
    CHECK(calls(test::run_checked<qwen3_coder>(qwen3_coder_call("<parameter=a>\n1\n<parameter=b>\n2\n")))
          == "seg_1 f {\"a\":\"1\",\"b\":\"2\"}\n");
    // The stop sequence took </tool_call>.
    CHECK(calls(test::run_checked<qwen3_coder>("<tool_call>\n<function=f>\n<parameter=a>\nx y\n</function>\n"))
          == "seg_1 f {\"a\":\"x y\"}\n");
    // Typed, with a schema.
    CHECK(calls(test::run_checked<qwen3_coder>(qwen3_coder_call("<parameter=count>\n3\n<parameter=n>\nnull\n"), with_schemas()))
          == "seg_1 f {\"count\":3,\"n\":null}\n");
    // Mid-line, or </function> that no call end follows: part of the value (a file body may hold them).
    CHECK(calls(test::run_checked<qwen3_coder>(qwen3_coder_call("<parameter=a>\nx <parameter=b> y\n</function> z\n</parameter>\n")))
          == "seg_1 f {\"a\":\"x <parameter=b> y\\n</function> z\"}\n");
    // MiniMax's parameters the same way.
    CHECK(calls(test::run_checked<minimax_m2>("<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">1\n"
                                               "<parameter name=\"b\">2\n</invoke>\n</minimax:tool_call>"))
          == "seg_1 f {\"a\":\"1\",\"b\":\"2\"}\n");
}

TEST_CASE("key/value formats: schema-typed null and unions (vLLM's value typing)", "[formats][schemas][peers]")
{
    std::string coder, glm, minimax;
    for (const auto& [k, v] : typed_values) {
        coder += qwen3_coder_param(k, v);
        glm += glm45_param(k, v);
        minimax += minimax_param(k, v);
    }
    CHECK(calls(test::run_checked<qwen3_coder>(qwen3_coder_call(coder), with_schemas())) == typed_expected);
    // glm45 also JSON-decodes the property without a type (vLLM's glm45).
    std::string glm_expected(typed_expected);
    glm_expected.replace(glm_expected.find("\"free\":\"7\""), 10, "\"free\":7");
    CHECK(calls(test::run_checked<glm45>("<tool_call>f\n" + glm + "</tool_call>", with_schemas())) == glm_expected);
    CHECK(calls(test::run_checked<minimax_m2>("<minimax:tool_call>\n<invoke name=\"f\">\n" + minimax
                                              + "</invoke>\n</minimax:tool_call>",
                                              with_schemas()))
          == typed_expected);
}

// sgl-project/sglang test/registered/function_call/test_qwen3_coder_detector/test_cases.py::test_complex_schema_toolcall:
// an array parameter written with a Python literal is the list (SGLang tries json.loads, then
// ast.literal_eval). Derived: JSON still wins where it reads the text (`\/` is `/`), and a literal
// that does not read stays the string; glm45 and minimax_m2 type their values alike.
TEST_CASE("key/value formats: an array or object parameter written as a Python literal (SGLang)", "[formats][schemas][peers]")
{
    const auto r = test::run_checked<qwen3_coder>(
        "Text prefix + complex schema tool call test\n\n<function=TodoWrite>\n<parameter=todos>\n[\n"
        " {\"content\": \"Buy a new car\", \"status\": 'pending'},\n {\"content\": \"Buy a new house\", \"status\": \"completed\"}\n]\n"
        "</parameter>\n</function>\n\n",
        with_schemas());
    CHECK(calls(r) == "seg_2 TodoWrite {\"todos\":[{\"content\":\"Buy a new car\",\"status\":\"pending\"},"
                      "{\"content\":\"Buy a new house\",\"status\":\"completed\"}]}\n");
    // SGLang's text ends at the call; here the blank lines after it are kept as text.
    CHECK(test::content_of_type(r.events, segment_type::text) == "Text prefix + complex schema tool call test\n\n\n\n");
    const std::string json_wins = "[\"a\\/b\"]", broken = "[{'content': x}]";
    CHECK(calls(test::run_checked<qwen3_coder>(
              "<tool_call>\n<function=TodoWrite>\n" + qwen3_coder_param("todos", json_wins) + "</function>\n</tool_call>", with_schemas()))
          == "seg_1 TodoWrite {\"todos\":[\"a/b\"]}\n");
    CHECK(calls(test::run_checked<qwen3_coder>(
              "<tool_call>\n<function=TodoWrite>\n" + qwen3_coder_param("todos", broken) + "</function>\n</tool_call>", with_schemas()))
          == "seg_1 TodoWrite {\"todos\":\"[{'content': x}]\"}\n");
    const std::string literal = "[{'content': 'x', 'status': 'pending'}]";
    const std::string expected = "seg_1 TodoWrite {\"todos\":[{\"content\":\"x\",\"status\":\"pending\"}]}\n";
    CHECK(calls(test::run_checked<glm45>("<tool_call>TodoWrite\n" + glm45_param("todos", literal) + "</tool_call>", with_schemas()))
          == expected);
    CHECK(calls(test::run_checked<minimax_m2>("<minimax:tool_call>\n<invoke name=\"TodoWrite\">\n" + minimax_param("todos", literal)
                                              + "</invoke>\n</minimax:tool_call>",
                                              with_schemas()))
          == expected);
}

TEST_CASE("glm45: values JSON-decoded without a schema; a name without a line break (vLLM)", "[formats][glm45][peers]")
{
    // vLLM's glm45 json.loads a value its schema does not declare a string.
    CHECK(calls(test::run_checked<glm45>("<tool_call>f\n" + glm45_param("n", "2") + glm45_param("o", "{\"x\": [1, true]}")
                                         + glm45_param("s", "\"q\"") + glm45_param("t", "plain text") + glm45_param("b", "null")
                                         + "</tool_call>"))
          == "seg_1 f {\"n\":2,\"o\":{\"x\":[1,true]},\"s\":\"q\",\"t\":\"plain text\",\"b\":null}\n");
    // A property the schema declares a string stays as written.
    CHECK(calls(test::run_checked<glm45>("<tool_call>f\n" + glm45_param("plain", "2") + glm45_param("free", "2") + "</tool_call>",
                                         with_schemas()))
          == "seg_1 f {\"plain\":\"2\",\"free\":2}\n");
    // <tool_call>NAME<arg_key>…: the name runs into the first key.
    CHECK(calls(test::run_checked<glm45>("Sure.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"))
          == "seg_2 get_weather {\"city\":\"Paris\"}\n");
    CHECK(calls(test::run_checked<glm45>("<tool_call>ping</tool_call>")) == "seg_1 ping {}\n");
}

} // namespace test_key_value_peers
