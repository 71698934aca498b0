// json_schema<T>(): every row of the mapping table, strict mode, and field_info.
#include "tools/tool_types.hpp"

#include <toolstream/tools/json_schema.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "catch_compat.hpp"

namespace test_json_schema {

using namespace toolstream;
using namespace tools_test;

namespace {

boost::json::value json(std::string_view text)
{
    return boost::json::parse(text);
}

const boost::json::value& property(const boost::json::object& schema, const char* name)
{
    return schema.at("properties").at(name);
}

struct not_described {
    int x;
};

} // namespace

static_assert(described_struct<write_file_args> && described_struct<empty_args>);
static_assert(!described_struct<not_described> && !described_struct<std::string> && !described_struct<int>);
static_assert(described_enum<write_mode> && !described_enum<int>);
static_assert(detail::schema_mappable<std::vector<std::optional<line_item>>>);
static_assert(detail::schema_mappable<std::map<std::string, write_mode>>);
static_assert(!detail::schema_mappable<char> && !detail::schema_mappable<not_described>);
static_assert(!detail::schema_mappable<std::map<int, int>> && !detail::schema_mappable<const char*>);
static_assert(detail::field_docs_name_members<search_args>() && detail::field_docs_name_members<empty_args>());

TEST_CASE("json_schema maps booleans, integers, numbers and strings", "[tools][schema]")
{
    const auto schema = json_schema<scalars>();
    CHECK(property(schema, "flag") == json(R"({"type":"boolean"})"));
    for (const char* name : {"i8", "i16", "i32", "i64"})
        CHECK(property(schema, name) == json(R"({"type":"integer"})"));
    for (const char* name : {"u8", "u32", "u64"})
        CHECK(property(schema, name) == json(R"({"type":"integer","minimum":0})"));
    CHECK(property(schema, "f") == json(R"({"type":"number"})"));
    CHECK(property(schema, "d") == json(R"({"type":"number"})"));
    CHECK(property(schema, "s") == json(R"({"type":"string"})"));
    CHECK(schema.at("required") == json(R"(["flag","i8","i16","i32","i64","u8","u32","u64","f","d","s"])"));
    CHECK(schema.at("additionalProperties") == false);
}

TEST_CASE("json_schema: enums, optionals, nested structs, bases, vectors and maps", "[tools][schema]")
{
    CHECK(json_schema<write_file_args>() == json(R"({"type":"object","properties":{
        "path":{"type":"string"},"content":{"type":"string"},
        "mode":{"type":"string","enum":["overwrite","append"]}},
        "required":["path","content"],"additionalProperties":false})"));

    const auto order = json_schema<order_args>();
    const auto item = json(R"({"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1}},
                                "required":["sku","qty"],"additionalProperties":false})");
    CHECK(order == json(R"({"type":"object","properties":{
        "author":{"type":"string"},
        "items":{"type":"array","items":)" + boost::json::serialize(item) + R"(},
        "prices":{"type":"object","additionalProperties":{"type":"number"}},
        "stock":{"type":"object","additionalProperties":{"type":"integer"}},
        "slots":{"type":"array","items":{"type":["integer","null"]}},
        "gift":)" + boost::json::serialize(item) + R"(,
        "tags":{"type":"array","items":{"type":"string"}}},
        "required":["author","items","prices","stock","slots","tags"],"additionalProperties":false})"));
    // Members of described bases come first, as Describe lists them.
    CHECK(order.at("properties").get_object().begin()->key() == "author");
    CHECK(json_schema<empty_args>() == json(R"({"type":"object","properties":{},"required":[],"additionalProperties":false})"));
}

TEST_CASE("json_schema strict: every member required, optional ones nullable", "[tools][schema]")
{
    const auto schema = json_schema<write_file_args>({.strict = true});
    CHECK(schema == json(R"({"type":"object","properties":{
        "path":{"type":"string"},"content":{"type":"string"},
        "mode":{"type":["string","null"],"enum":["overwrite","append",null]}},
        "required":["path","content","mode"],"additionalProperties":false})"));
    CHECK(strict_capable(schema));

    const auto order = json_schema<order_args>({.strict = true});
    CHECK(order.at("required").as_array().size() == 7);
    CHECK(property(order, "gift").at("type") == json(R"(["object","null"])"));
    CHECK(!strict_capable(order));   // the maps leave their objects open
    CHECK(strict_capable(json_schema<search_args>({.strict = true})));
    CHECK(!strict_capable(json(R"({"type":"object","properties":{"a":{"type":["object","null"],"properties":{}}}, "additionalProperties":false})").as_object()));
    CHECK(!strict_capable(json(R"({"type":"array","items":{"type":"object","properties":{}}})").as_object()));
}

TEST_CASE("field_info: descriptions and constraints land where JSON Schema reads them", "[tools][schema]")
{
    const auto schema = json_schema<search_args>();
    CHECK(property(schema, "query") == json(R"({"type":"string","description":"What to search for","pattern":"^[^\\n]+$"})"));
    CHECK(property(schema, "limit") == json(R"({"type":"integer","description":"How many results","minimum":1,"maximum":50})"));
    // Item constraints go to the items, array constraints to the array.
    CHECK(property(schema, "sites") == json(R"({"type":"array","description":"Sites to search",
        "items":{"type":"string","pattern":"^[a-z.]+$"},"minItems":1,"maxItems":3})"));
    // Integral bounds are written as integers, others as numbers.
    CHECK(boost::json::serialize(property(schema, "limit")) == R"({"type":"integer","description":"How many results","minimum":1,"maximum":50})");
    CHECK(detail::bound_value(0.5) == 0.5);
    CHECK(detail::bound_value(-3) == -3);
    CHECK(detail::bound_value(1e300).is_double());
}

TEST_CASE("json_schema keeps the description order readable: type first", "[tools][schema]")
{
    const auto schema = json_schema<get_weather_args>();
    const auto& unit = property(schema, "unit").as_object();
    std::vector<std::string> keys;
    for (const auto& kv : unit)
        keys.emplace_back(kv.key());
    CHECK(keys == std::vector<std::string>{"type", "description", "enum"});
}

} // namespace test_json_schema
