// convert_raw_parameter and tool_schemas: the schema-driven typing of raw-text parameter values
// (qwen3_coder, glm45, minimax_m2), checked against vLLM's rules and against arguments_as.
#include "tools/tool_types.hpp"

#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/tools/arguments.hpp>
#include <toolstream/tools/json_schema.hpp>
#include <toolstream/tools/toolset.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "catch_compat.hpp"

#include <string>

namespace test_raw_parameters {

using namespace toolstream;
using namespace tools_test;

namespace {

/// convert_raw_parameter with a schema given as JSON text, the result serialized.
std::string convert(const char* schema, std::string_view raw)
{
    const boost::json::value s = boost::json::parse(schema);
    return boost::json::serialize(convert_raw_parameter(&s, raw));
}

std::string quoted(std::string_view raw)
{
    return boost::json::serialize(boost::json::value(raw));
}

} // namespace

TEST_CASE("raw parameters: strings stay strings; no schema, no conversion", "[tools][raw]")
{
    CHECK(boost::json::serialize(convert_raw_parameter(nullptr, "42")) == R"("42")");
    CHECK(boost::json::serialize(convert_raw_parameter(nullptr, "null")) == R"("null")");
    for (const char* type : {"string", "str", "text", "varchar", "char", "enum", "STRING", " String "}) {
        const std::string schema = std::string(R"({"type":")") + type + R"("})";
        CHECK(convert(schema.c_str(), "42") == R"("42")");
        CHECK(convert(schema.c_str(), " true\n") == R"(" true\n")");
        CHECK(convert(schema.c_str(), "null") == R"("null")");   // a string-typed "null" is text
    }
    CHECK(convert(R"({"enum":["a","b"]})", "7") == R"("7")");    // no type: a string, as vLLM
    CHECK(convert(R"({"type":"mystery"})", "7") == R"("7")");
    CHECK(convert(R"({"type":5})", "7") == R"("7")");
    CHECK(convert(R"("not an object")", "7") == R"("7")");
}

TEST_CASE("raw parameters: integers", "[tools][raw]")
{
    for (const char* type : {"integer", "int", "int64", "uint", "long", "short", "unsigned", "INTEGER"}) {
        const std::string schema = std::string(R"({"type":")") + type + R"("})";
        CHECK(convert(schema.c_str(), "42") == "42");
        CHECK(convert(schema.c_str(), "-7") == "-7");
        CHECK(convert(schema.c_str(), "+7") == "7");
        CHECK(convert(schema.c_str(), " 12\n") == "12");
        CHECK(convert(schema.c_str(), "007") == "7");
    }
    const char* integer = R"({"type":"integer"})";
    CHECK(convert(integer, "9223372036854775807") == "9223372036854775807");
    CHECK(convert(integer, "18446744073709551615") == "18446744073709551615");
    // What does not convert stays the string it was.
    for (const char* raw : {"1.5", "5.0", "1e3", "0x10", "1_000", "", "  ", "ten", "+-1", "++1", "--1", "-", "+",
                            "18446744073709551616", "-9223372036854775809", "4 2"})
        CHECK(convert(integer, raw) == quoted(raw));
}

TEST_CASE("raw parameters: numbers, integral ones as integers", "[tools][raw]")
{
    for (const char* type : {"number", "num", "float", "float64", "double"}) {
        const std::string schema = std::string(R"({"type":")") + type + R"("})";
        CHECK(convert(schema.c_str(), "1.5") == "1.5E0");
        CHECK(convert(schema.c_str(), "5.0") == "5");
        CHECK(convert(schema.c_str(), "-2e3") == "-2000");
    }
    const char* number = R"({"type":"number"})";
    CHECK(convert(number, ".5") == "5E-1");
    CHECK(convert(number, "+7") == "7");
    CHECK(convert(number, "-0.0") == "0");
    CHECK(convert(number, " 3.25 ") == "3.25E0");
    CHECK(convert(number, "1e300") == "1E300");
    for (const char* raw : {"inf", "-inf", "nan", "infinity", "1e999", "1,5", "0x1p3", "", "1.5.2", "+-1", "1_0"})
        CHECK(convert(number, raw) == quoted(raw));
}

TEST_CASE("raw parameters: booleans, null, objects and arrays", "[tools][raw]")
{
    for (const char* type : {"boolean", "bool", "binary"}) {
        const std::string schema = std::string(R"({"type":")") + type + R"("})";
        CHECK(convert(schema.c_str(), "true") == "true");
        CHECK(convert(schema.c_str(), "False") == "false");
        CHECK(convert(schema.c_str(), " TRUE\n") == "true");
        // vLLM turns these into false; a value that does not convert stays a string here.
        CHECK(convert(schema.c_str(), "yes") == R"("yes")");
        CHECK(convert(schema.c_str(), "1") == R"("1")");
    }
    for (const char* type : {"integer", "number", "boolean", "object", "array"}) {
        const std::string schema = std::string(R"({"type":")") + type + R"("})";
        CHECK(convert(schema.c_str(), "null") == "null");
        CHECK(convert(schema.c_str(), "None") == "null");
        CHECK(convert(schema.c_str(), " NULL ") == "null");
    }
    CHECK(convert(R"({"type":"null"})", "null") == "null");
    CHECK(convert(R"({"type":"null"})", "x") == R"("x")");

    CHECK(convert(R"({"type":"object"})", R"({"a": [1, {"b": null}]})") == R"({"a":[1,{"b":null}]})");
    CHECK(convert(R"({"type":"dict[str, int]"})", R"({"a": 1})") == R"({"a":1})");
    CHECK(convert(R"({"type":"array"})", "[1, \"two\"]\n") == R"([1,"two"])");
    CHECK(convert(R"({"type":"arr"})", "[]") == "[]");
    CHECK(convert(R"({"type":"list[int]"})", "[1]") == "[1]");
    // Neither JSON nor a Python literal, the wrong kind of value, or a number JSON cannot hold:
    // stays a string.
    for (const char* raw : {"{'a': 1", "[1,", "[1, 2]", "(1, 2)", "3", R"("{}")", "'{}'", "{\"a\": 1e999}"})
        CHECK(convert(R"({"type":"object"})", raw) == quoted(raw));
    CHECK(convert(R"({"type":"array"})", R"({"a":1})") == quoted(R"({"a":1})"));
    CHECK(convert(R"({"type":"object"})", R"({"a": 0e400})") == R"({"a":0E0})");   // Boost's NaN repaired to 0
}

// SGLang's and vLLM's qwen3_coder read an object or array parameter with ast.literal_eval when
// json.loads fails (sgl-project/sglang test/registered/function_call/test_qwen3_coder_detector/
// test_cases.py::test_complex_schema_toolcall; its streamed form is in test_key_value_peers.cpp).
TEST_CASE("raw parameters: objects and arrays written as Python literals", "[tools][raw]")
{
    CHECK(convert(R"({"type":"array"})", "[{'content': 'x', 'status': 'pending'}]") == R"([{"content":"x","status":"pending"}])");
    CHECK(convert(R"({"type":"object"})", "{'a': True, 'b': None, 'c': (1, 2.5), 1: 'x'}\n")
          == R"({"a":true,"b":null,"c":[1,2.5E0],"1":"x"})");   // json.dumps writes a key 1 as "1"
    CHECK(convert(R"({"type":"array"})", "('a', 'b')") == R"(["a","b"])");   // a tuple is a JSON array
    CHECK(convert(R"({"type":"list[str]"})", "['it''s', \"q\"]") == R"(["its","q"])");   // concatenated
    CHECK(convert(R"({"type":["string","array"]})", "[1, 'two']") == R"([1,"two"])");
    // JSON first: `\/` is `/` in JSON, a backslash and `/` in Python.
    CHECK(convert(R"({"type":"array"})", R"(["a\/b"])") == R"(["a/b"])");
    // A literal that does not read (a name, a call, a bytes string, an unclosed list, text after
    // it) stays the string, as written.
    for (const char* raw : {"[{'a': x}]", "[f(1)]", "[b'x']", "['a'", "['a'] + ['b']", "['a'] x", "[1e999]"})
        CHECK(convert(R"({"type":"array"})", raw) == quoted(raw));
    CHECK(convert(R"({"type":["string","object"]})", "{'a': 1") == quoted("{'a': 1"));
}

TEST_CASE("raw parameters: type lists and anyOf, with null", "[tools][raw]")
{
    CHECK(convert(R"({"type":["integer","null"]})", "5") == "5");
    CHECK(convert(R"({"type":["null","integer"]})", "5") == "5");
    CHECK(convert(R"({"type":["string","null"]})", "null") == "null");   // nullable string: null
    CHECK(convert(R"({"type":["string","null"]})", "None") == "null");
    CHECK(convert(R"({"type":["string","null"]})", " null") == R"(" null")");
    CHECK(convert(R"({"type":["string","null"]})", "x") == R"("x")");
    CHECK(convert(R"({"anyOf":[{"type":"null"},{"type":"boolean"}]})", "true") == "true");
    CHECK(convert(R"({"anyOf":[{"type":"string"},{"type":"null"}]})", "null") == "null");
    // A non-string member that reads the text types it, wherever the string member stands (llama.cpp).
    CHECK(convert(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})", "5") == "5");
    CHECK(convert(R"({"type":["string","integer"]})", "5 apples") == R"("5 apples")");
    CHECK(convert(R"({"type":["string","object"]})", R"({"a": 1})") == R"({"a":1})");
    CHECK(convert(R"({"type":["string","object"]})", " [1] ") == R"(" [1] ")");   // the string, as written
    CHECK(convert(R"({"type":["string","boolean","integer"]})", "TRUE") == "true");
    CHECK(convert(R"({"oneOf":[{"type":"number"}]})", "2.5") == "2.5E0");
    CHECK(convert(R"({"anyOf":[{"type":"null"}]})", "null") == "null");
    CHECK(convert(R"({"anyOf":[{"description":"no type"}]})", "5") == R"("5")");
    CHECK(convert(R"({"type":["null"]})", "none") == "null");
}

TEST_CASE("tool_schemas reads every provider's tools array", "[tools][raw]")
{
    const auto tools = toolset{
        tool<get_weather_args>("get_weather", "Weather"),
        tool<search_args>("search", "Search"),
    };
    const tool_schemas from_toolset = tools.schemas();
    for (const tool_schemas& schemas :
         {tool_schemas(tools.openai_chat()), tool_schemas(tools.openai_chat({.strict = true})), tool_schemas(tools.openai_responses()),
          tool_schemas(tools.anthropic()), tool_schemas(boost::json::array{tools.gemini()}), from_toolset}) {
        CHECK(schemas.size() == 2);
        CHECK(schemas.convert("search", "limit", "12") == 12);
        CHECK(schemas.convert("search", "sites", R"(["a.org"])") == boost::json::array{"a.org"});
        CHECK(schemas.convert("search", "query", "12") == "12");
        CHECK(schemas.convert("get_weather", "unit", "celsius") == "celsius");
        CHECK(schemas.convert("search", "unknown_key", "12") == "12");
        CHECK(schemas.convert("unknown_tool", "limit", "12") == "12");
    }
    // Entries that are not tools are skipped; a tool without parameters has an empty schema.
    const tool_schemas odd(boost::json::parse(R"([1, {"type":"function"}, {"name":7}, {"name":"bare"},
        {"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"n":{"type":"int"}}}}}])").as_array());
    CHECK(odd.size() == 2);
    REQUIRE(odd.parameters("bare"));
    CHECK(odd.parameters("bare")->empty());
    CHECK(odd.property("bare", "x") == nullptr);
    CHECK(odd.convert("f", "n", "3") == 3);
    CHECK(tool_schemas().empty());
}

TEST_CASE("raw conversion driven by json_schema<T> gives what arguments_as<T> accepts", "[tools][raw]")
{
    // One raw text per member, as a key/value format would hand them over.
    const std::vector<std::pair<std::string, std::string>> raw = {
        {"author", "ann"},
        {"items", R"([{"sku": "a", "qty": 2}])"},
        {"prices", R"({"a": 1.5})"},
        {"stock", R"({"a": 3})"},
        {"slots", "[1, null]"},
        {"gift", "null"},
        {"tags", R"(["x"])"},
    };
    for (const bool strict : {false, true}) {
        tool_schemas schemas;
        schemas.add("order", json_schema<order_args>({.strict = strict}));
        boost::json::object arguments;
        for (const auto& [key, text] : raw)
            arguments[key] = schemas.convert("order", key, text);
        auto order = arguments_as<order_args>(arguments);
        REQUIRE(order.has_value());
        CHECK(order->items.at(0).qty == 2);
        CHECK(order->prices.at("a") == 1.5);
        CHECK(order->slots == std::vector<std::optional<int>>{1, std::nullopt});
        CHECK(!order->gift);
    }

    tool_schemas schemas;
    schemas.add("scalars", json_schema<scalars>());
    const std::vector<std::pair<std::string, std::string>> scalar_raw = {
        {"flag", "True"}, {"i8", "-128"}, {"i16", " 300 "}, {"i32", "7"}, {"i64", "-9223372036854775808"},
        {"u8", "255"}, {"u32", "4000000000"}, {"u64", "18446744073709551615"}, {"f", "1.5"}, {"d", "3.0"}, {"s", "42"},
    };
    boost::json::object arguments;
    for (const auto& [key, text] : scalar_raw)
        arguments[key] = schemas.convert("scalars", key, text);
    auto s = arguments_as<scalars>(arguments);
    REQUIRE(s.has_value());
    CHECK(s->flag);
    CHECK(s->i16 == 300);
    CHECK(s->u64 == std::numeric_limits<std::uint64_t>::max());
    CHECK(s->d == 3.0);
    CHECK(s->s == "42");

    // Optional enums through the strict schema (type list with null) and the plain one.
    for (const bool strict : {false, true}) {
        tool_schemas w;
        w.add("write_file", json_schema<write_file_args>({.strict = strict}));
        boost::json::object args{{"path", w.convert("write_file", "path", "a.txt")},
                                 {"content", w.convert("write_file", "content", "null")},
                                 {"mode", w.convert("write_file", "mode", strict ? "null" : "append")}};
        auto r = arguments_as<write_file_args>(args);
        REQUIRE(r.has_value());
        CHECK(r->content == "null");
        CHECK(r->mode == (strict ? std::nullopt : std::optional<write_mode>(write_mode::append)));
    }
}

TEST_CASE("raw conversion of large values", "[tools][raw]")
{
    // A 1 MiB array and a 4 MiB string: one parse, no quadratic work.
    std::string array = "[";
    for (int i = 0; i < 150000; ++i)
        array += (i ? "," : "") + std::to_string(i);
    array += "]";
    REQUIRE(array.size() > (1 << 20) - 200000);
    const boost::json::object schema = json_schema<order_args>();
    const auto converted = convert_raw_parameter(&schema.at("properties").at("slots"), array);
    REQUIRE(converted.is_array());
    CHECK(converted.as_array().size() == 150000);
    const std::string big(4 << 20, 'x');
    CHECK(convert_raw_parameter(nullptr, big).as_string().size() == big.size());
}

} // namespace test_raw_parameters
