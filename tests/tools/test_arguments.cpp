// arguments_as<T>: conversion of every mapping row, and errors that name the JSON Pointer.
#include "tools/tool_types.hpp"

#include <toolstream/tools/arguments.hpp>

#include <boost/json/parse.hpp>
#include <boost/system/system_error.hpp>

#include "catch_compat.hpp"

#include <sstream>

namespace test_arguments {

using namespace toolstream;
using namespace tools_test;

namespace {

boost::json::object object(const std::string& text)
{
    return boost::json::parse(text).as_object();
}

template<class T>
argument_error error_of(const std::string& text)
{
    auto r = arguments_as<T>(object(text));
    REQUIRE_FALSE(r.has_value());
    return r.error();
}

tool_invocation call(std::string arguments, invocation_status status = invocation_status::complete, std::string error = {})
{
    tool_invocation inv;
    inv.id = "call_1";
    inv.name = "write_file";
    inv.arguments = object(arguments);
    inv.status = status;
    inv.error = std::move(error);
    return inv;
}

const char* scalars_json = R"({"flag":true,"i8":-128,"i16":32767,"i32":-5,"i64":-9223372036854775808,
    "u8":255,"u32":4000000000,"u64":18446744073709551615,"f":1.5,"d":-2.25,"s":"x"})";

} // namespace

TEST_CASE("arguments_as reads every scalar type at its limits", "[tools][arguments]")
{
    auto r = arguments_as<scalars>(object(scalars_json));
    REQUIRE(r.has_value());
    CHECK(r->flag);
    CHECK(r->i8 == -128);
    CHECK(r->i16 == 32767);
    CHECK(r->i32 == -5);
    CHECK(r->i64 == std::numeric_limits<std::int64_t>::min());
    CHECK(r->u8 == 255);
    CHECK(r->u32 == 4000000000u);
    CHECK(r->u64 == std::numeric_limits<std::uint64_t>::max());
    CHECK(r->f == 1.5f);
    CHECK(r->d == -2.25);
    CHECK(r->s == "x");

    // An integer written as an exact double is an integer; a number member takes integers.
    auto exact = object(scalars_json);
    exact["i32"] = 7.0;
    exact["d"] = 3;
    auto r2 = arguments_as<scalars>(exact);
    REQUIRE(r2.has_value());
    CHECK(r2->i32 == 7);
    CHECK(r2->d == 3.0);
}

TEST_CASE("arguments_as reads enums, optionals, nested structs, bases, vectors and maps", "[tools][arguments]")
{
    auto w = arguments_as<write_file_args>(object(R"({"path":"a.txt","content":"hi","mode":"append","extra":1})"));
    REQUIRE(w.has_value());
    CHECK(w->path == "a.txt");
    CHECK(w->content == "hi");
    CHECK(w->mode == write_mode::append);
    CHECK(arguments_as<write_file_args>(object(R"({"path":"a","content":""})"))->mode == std::nullopt);
    CHECK(arguments_as<write_file_args>(object(R"({"path":"a","content":"","mode":null})"))->mode == std::nullopt);

    auto o = arguments_as<order_args>(object(R"({"author":"ann","items":[{"sku":"a","qty":1},{"sku":"b","qty":2}],
        "prices":{"a":1.5,"b":2},"stock":{"a":3},"slots":[1,null,3],"gift":{"sku":"g","qty":1},"tags":[]})"));
    REQUIRE(o.has_value());
    CHECK(o->author == "ann");
    REQUIRE(o->items.size() == 2);
    CHECK(o->items[1].sku == "b");
    CHECK(o->items[1].qty == 2);
    CHECK(o->prices == std::map<std::string, double>{{"a", 1.5}, {"b", 2.0}});
    CHECK(o->stock.at("a") == 3);
    CHECK(o->slots == std::vector<std::optional<int>>{1, std::nullopt, 3});
    REQUIRE(o->gift);
    CHECK(o->gift->sku == "g");
    CHECK(o->tags.empty());
}

TEST_CASE("arguments_as errors name the JSON Pointer and what was expected", "[tools][arguments]")
{
    const std::string order_ok_tail = R"("prices":{},"stock":{},"slots":[],"tags":[])";
    auto e = error_of<order_args>(R"({"author":"a","items":[{"sku":"a","qty":1},{"sku":"b","qty":2},{"sku":"c","qty":"3"}],)" + order_ok_tail + "}");
    CHECK(e.path == "/items/2/qty");
    CHECK(e.message == "expected integer");
    CHECK(e.code == boost::json::error::not_number);
    CHECK(e.to_string() == "/items/2/qty: expected integer");
    std::ostringstream printed;
    printed << e;
    CHECK(printed.str() == "/items/2/qty: expected integer");

    e = error_of<write_file_args>(R"({"content":"x"})");
    CHECK(e.to_string() == "/path: missing required field");
    CHECK(e.code == error::missing_argument);

    CHECK(error_of<write_file_args>(R"({"path":null,"content":"x"})").to_string() == "/path: expected string");
    CHECK(error_of<write_file_args>(R"({"path":"a","content":"x","mode":"truncate"})").to_string()
          == "/mode: expected one of: overwrite, append");
    CHECK(error_of<write_file_args>(R"({"path":"a","content":"x","mode":1})").code == boost::json::error::not_string);
    CHECK(error_of<write_file_args>(R"({"path":"a","content":"x","mode":"truncate"})").code == boost::json::error::unknown_name);

    auto with = [&](const char* key, const char* value) {
        auto o = object(scalars_json);
        o[key] = boost::json::parse(value);
        auto r = arguments_as<scalars>(o);
        REQUIRE_FALSE(r.has_value());
        return r.error().to_string();
    };
    CHECK(with("flag", "1") == "/flag: expected boolean");
    CHECK(with("i8", "128") == "/i8: expected integer from -128 to 127");
    CHECK(with("i8", "-129") == "/i8: expected integer from -128 to 127");
    CHECK(with("u8", "-1") == "/u8: expected integer from 0 to 255");
    CHECK(with("u32", "1e10") == "/u32: expected integer from 0 to 4294967295");
    CHECK(with("i64", "9223372036854775808") == "/i64: expected integer from -9223372036854775808 to 9223372036854775807");
    CHECK(with("i64", "9.3e18") == "/i64: expected integer from -9223372036854775808 to 9223372036854775807");
    CHECK(with("i32", "2.5") == "/i32: expected integer");
    CHECK(with("i32", "\"2\"") == "/i32: expected integer");
    CHECK(with("d", "\"2\"") == "/d: expected number");
    CHECK(with("f", "1e300") == "/f: number out of range");
    CHECK(with("s", "[]") == "/s: expected string");

    CHECK(error_of<order_args>(R"({"author":"a","items":{},)" + order_ok_tail + "}").to_string() == "/items: expected array");
    CHECK(error_of<order_args>(R"({"author":"a","items":[3],)" + order_ok_tail + "}").to_string() == "/items/0: expected object");
    CHECK(error_of<order_args>(R"({"author":"a","items":[{"sku":"a"}],)" + order_ok_tail + "}").to_string()
          == "/items/0/qty: missing required field");
    CHECK(error_of<order_args>(R"({"author":"a","items":[],"prices":[],"stock":{},"slots":[],"tags":[]})").to_string()
          == "/prices: expected object");
    // Keys are escaped as RFC 6901 says: `~` as `~0`, `/` as `~1`.
    CHECK(error_of<order_args>(R"({"author":"a","items":[],"prices":{"a/b~c":"x"},"stock":{},"slots":[],"tags":[]})").to_string()
          == "/prices/a~1b~0c: expected number");
    CHECK(error_of<order_args>(R"({"author":"a","items":[],"prices":{},"stock":{},"slots":[1,"2"],"tags":[]})").to_string()
          == "/slots/1: expected integer");
    CHECK(error_of<order_args>(R"({"author":"a","items":[],"prices":{},"stock":{},"slots":[],"gift":{"sku":1,"qty":1},"tags":[]})").to_string()
          == "/gift/sku: expected string");
}

TEST_CASE("arguments_as checks field_info bounds and item counts", "[tools][arguments]")
{
    CHECK(arguments_as<search_args>(object(R"({"query":"q","limit":50,"sites":["a"]})")).has_value());
    auto e = error_of<search_args>(R"({"query":"q","limit":51,"sites":["a"]})");
    CHECK(e.to_string() == "/limit: expected at most 50");
    CHECK(e.code == boost::system::errc::argument_out_of_domain);
    CHECK(error_of<search_args>(R"({"query":"q","limit":0,"sites":["a"]})").to_string() == "/limit: expected at least 1");
    CHECK(error_of<search_args>(R"({"query":"q","sites":[]})").to_string() == "/sites: expected at least 1 items");
    CHECK(error_of<search_args>(R"({"query":"q","sites":["a","b","c","d"]})").to_string() == "/sites: expected at most 3 items");
    // A bound on the elements of an array applies to each element.
    CHECK(error_of<order_args>(R"({"author":"a","items":[{"sku":"a","qty":0}],"prices":{},"stock":{},"slots":[],"tags":[]})").to_string()
          == "/items/0/qty: expected at least 1");
}

TEST_CASE("arguments_as on an invocation: only complete calls convert", "[tools][arguments]")
{
    auto ok = arguments_as<write_file_args>(call(R"({"path":"a","content":"b"})"));
    REQUIRE(ok.has_value());
    CHECK(ok.value().path == "a");

    auto incomplete = arguments_as<write_file_args>(call(R"({"path":"a","content":"b"})", invocation_status::incomplete, "stream ended"));
    REQUIRE_FALSE(incomplete.has_value());
    CHECK(incomplete.error().code == error::incomplete_call);
    CHECK(incomplete.error().path.empty());
    CHECK(incomplete.error().to_string() == "the call is incomplete: stream ended");

    auto invalid = arguments_as<write_file_args>(call("{}", invocation_status::invalid_arguments, "bad JSON"));
    REQUIRE_FALSE(invalid.has_value());
    CHECK(invalid.error().code == error::invalid_arguments);
    CHECK(invalid.error().to_string() == "the call's arguments are invalid: bad JSON");
}

TEST_CASE("arguments_result behaves like boost::system::result", "[tools][arguments]")
{
    auto bad = arguments_as<write_file_args>(object(R"({"path":"a"})"));
    CHECK_FALSE(bad.has_value());
    CHECK(bad.has_error());
    bool threw = false;
    try {
        (void)bad.value();
    } catch (const boost::system::system_error& e) {
        threw = true;
        CHECK(e.code() == error::missing_argument);
        CHECK(std::string(e.what()).find("/content: missing required field") != std::string::npos);
    }
    CHECK(threw);
    if (auto good = arguments_as<write_file_args>(object(R"({"path":"a","content":"b"})")))
        CHECK(good->content == "b");
    else
        FAIL("a valid object did not convert");
}

TEST_CASE("arguments_as converts megabytes of arguments", "[tools][arguments]")
{
    // 2 MiB of content and 50,000 array elements: conversion is one pass over the tree.
    const std::string content(2 << 20, 'x');
    boost::json::object args{{"path", "big.txt"}, {"content", content}};
    auto w = arguments_as<write_file_args>(args);
    REQUIRE(w.has_value());
    CHECK(w->content.size() == content.size());

    boost::json::array items;
    for (int i = 0; i < 50000; ++i)
        items.push_back(boost::json::object{{"sku", "s" + std::to_string(i)}, {"qty", i + 1}});
    boost::json::object order{{"author", "a"}, {"items", items}, {"prices", boost::json::object{}},
                              {"stock", boost::json::object{}}, {"slots", boost::json::array{}}, {"tags", boost::json::array{}}};
    auto o = arguments_as<order_args>(order);
    REQUIRE(o.has_value());
    CHECK(o->items.size() == 50000);
    CHECK(o->items.back().qty == 50000);

    order["items"].as_array()[49999].as_object()["qty"] = "many";
    auto e = arguments_as<order_args>(order);
    REQUIRE_FALSE(e.has_value());
    CHECK(e.error().to_string() == "/items/49999/qty: expected integer");
}

} // namespace test_arguments
