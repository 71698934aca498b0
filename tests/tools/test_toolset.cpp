// toolset: each provider's tool definitions against hand-written goldens, and dispatch.
#include "tools/tool_types.hpp"

#include <toolstream/tools/toolset.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "catch_compat.hpp"

#include <fstream>
#include <iterator>
#include <string>

namespace test_toolset {

using namespace toolstream;
using namespace tools_test;

namespace {

boost::json::value golden(const char* name)
{
    std::ifstream in(std::string(TOOLSTREAM_TEST_DATA_DIR) + "/tools/" + name, std::ios::binary);
    REQUIRE(in);
    return boost::json::parse(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
}

const auto documented = toolset{
    tool<get_weather_args>("get_weather", "Get the current weather in a given location"),
    tool<set_light_values_args>("set_light_values", "Sets the brightness and color temperature of a light."),
};

/// True if `key` appears anywhere in `v`.
bool mentions(const boost::json::value& v, std::string_view key)
{
    if (v.is_object()) {
        for (const auto& kv : v.get_object())
            if (kv.key() == key || mentions(kv.value(), key))
                return true;
    } else if (v.is_array()) {
        for (const auto& item : v.get_array())
            if (mentions(item, key))
                return true;
    }
    return false;
}

} // namespace

TEST_CASE("toolset writes each provider's documented tool shape", "[tools][providers]")
{
    CHECK(boost::json::value(documented.openai_chat()) == golden("openai_chat.json"));
    CHECK(boost::json::value(documented.openai_chat({.strict = true})) == golden("openai_chat_strict.json"));
    CHECK(boost::json::value(documented.openai_responses({.strict = true})) == golden("openai_responses_strict.json"));
    CHECK(boost::json::value(documented.anthropic()) == golden("anthropic.json"));
    CHECK(boost::json::value(documented.gemini()) == golden("gemini.json"));

    // Responses defaults `strict` to true, so a non-strict definition says false.
    const auto responses = documented.openai_responses();
    CHECK(responses.at(0).at("strict") == false);
    CHECK(responses.at(0).at("parameters") == golden("openai_chat.json").at(0).at("function").at("parameters"));
    CHECK(!documented.openai_chat().at(0).at("function").as_object().contains("strict"));
}

TEST_CASE("toolset: strict only where the schema allows it; Gemini's subset where it suffices", "[tools][providers]")
{
    const auto tools = toolset{
        tool<write_file_args>("write_file", "Write a file"),
        tool<order_args>("order", "Place an order"),
        tool<empty_args>("ping", "Check the connection"),
    };
    static_assert(decltype(tools)::size() == 3);
    CHECK(tools.contains("order"));
    CHECK(!tools.contains("Order"));

    const auto chat = tools.openai_chat({.strict = true});
    CHECK(chat.at(0).at("function").at("strict") == true);
    CHECK(!chat.at(1).at("function").as_object().contains("strict"));   // maps: cannot be strict
    CHECK(chat.at(1).at("function").at("parameters") == json_schema<order_args>());
    CHECK(chat.at(2).at("function").at("strict") == true);
    const auto responses = tools.openai_responses({.strict = true});
    CHECK(responses.at(1).at("strict") == false);
    CHECK(responses.at(2).at("parameters") == json_schema<empty_args>({.strict = true}));

    const auto gemini = tools.gemini().at("functionDeclarations").as_array();
    REQUIRE(gemini.size() == 3);
    CHECK(gemini.at(0).at("parameters").at("properties").at("mode") ==
          boost::json::parse(R"({"type":"STRING","format":"enum","enum":["overwrite","append"]})"));
    CHECK(!mentions(gemini.at(0), "additionalProperties"));
    // Gemini's OpenAPI subset has no maps: the full JSON Schema goes in parametersJsonSchema.
    CHECK(!gemini.at(1).as_object().contains("parameters"));
    CHECK(gemini.at(1).at("parametersJsonSchema") == json_schema<order_args>());
    // No members: no parameters, as Gemini's documentation asks.
    CHECK(gemini.at(2) == boost::json::parse(R"({"name":"ping","description":"Check the connection"})"));
}

TEST_CASE("Gemini schema conversion: nullable, items, constraints, nothing it rejects", "[tools][providers]")
{
    const auto converted = detail::to_gemini_schema(boost::json::parse(R"({"type":"object","$schema":"x",
        "properties":{"slots":{"type":"array","items":{"type":["integer","null"]},"minItems":1,"maxItems":2},
                      "name":{"type":"string","pattern":"^a","title":"dropped"},
                      "mode":{"type":["string","null"],"enum":["a",null]}},
        "required":["slots"],"additionalProperties":false})").as_object());
    CHECK(converted == boost::json::parse(R"({"type":"OBJECT",
        "properties":{"slots":{"type":"ARRAY","items":{"type":"INTEGER","nullable":true},"minItems":1,"maxItems":2},
                      "name":{"type":"STRING","pattern":"^a"},
                      "mode":{"type":"STRING","nullable":true,"format":"enum","enum":["a"]}},
        "required":["slots"]})"));
    CHECK(detail::gemini_expressible(json_schema<search_args>()));
    CHECK(!detail::gemini_expressible(json_schema<order_args>()));
    CHECK(!detail::gemini_expressible(boost::json::parse(R"({"type":"array","items":{"type":"object"}})").as_object()));
}

TEST_CASE("toolset::schemas() gives every tool's parameters for the text formats", "[tools][providers]")
{
    const auto schemas = documented.schemas();
    CHECK(schemas.size() == 2);
    REQUIRE(schemas.parameters("get_weather"));
    CHECK(*schemas.parameters("get_weather") == json_schema<get_weather_args>());
    CHECK(schemas.property("set_light_values", "brightness")->at("type") == "integer");
    CHECK(schemas.property("set_light_values", "nope") == nullptr);
    CHECK(schemas.property("nope", "brightness") == nullptr);
}

} // namespace test_toolset
