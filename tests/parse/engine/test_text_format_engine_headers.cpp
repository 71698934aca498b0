// The text-format engine (text_format_policy) on formats that name each call in a header, as trait
// sets written here: a sectioned format with a JSON object and a call id (DeepSeek V3.1 / Kimi K2
// shape), and a key/value format (Qwen3-Coder shape). Every input goes through chunk invariance,
// byte conservation and the argument-fragment contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/engine/text_format_engine_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace test_text_format_engine_headers {

using namespace toolstream;
using namespace toolstream::test::engine_support;

// ---- the trait sets ----

// A section of calls, each named by a header that also gives the call id (functions.NAME:IDX).
struct sectioned_format : marker_format {
    static constexpr std::string_view name = "sectioned";
    static constexpr std::string_view section_open = "<|calls|>";
    static constexpr std::string_view section_close = "<|/calls|>";
    static constexpr std::string_view call_open = "<|call|>";
    static constexpr std::string_view header_end = "<|args|>";
    static constexpr std::string_view call_close = "<|/call|>";
    static constexpr text_arguments arguments = text_arguments::json_object;
    static std::optional<call_header> read_header(std::string_view h)
    {
        const auto dot = h.find('.');
        const auto colon = h.rfind(':');
        if (dot == std::string_view::npos || colon == std::string_view::npos || colon < dot)
            return std::nullopt;
        return call_header{std::string(h.substr(dot + 1, colon - dot - 1)), std::string(h)};
    }
};
using sectioned = text_format_policy<sectioned_format>;

// Key/value parameters with raw values: <tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>…
struct key_value_format : marker_format {
    static constexpr std::string_view name = "key_value";
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view header_end = ">";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<parameter=";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</parameter>";
    static constexpr std::string_view parameters_close = "</function>";
    static constexpr bool strip_value_newline = true;
    static std::optional<call_header> read_header(std::string_view h)
    {
        const auto at = h.find("<function=");
        if (at == std::string_view::npos || h.substr(0, at).find_first_not_of(" \n") != std::string_view::npos)
            return std::nullopt;
        return call_header{std::string(h.substr(at + 10)), {}};
    }
};
using key_value = text_format_policy<key_value_format>;

static_assert(text_format_traits<sectioned_format>);
static_assert(text_format_traits<key_value_format>);
static_assert(parser_policy<sectioned> && parser_policy<key_value>);
static_assert(!key_value::decodes_file_bodies);

// ---- a sectioned format: header names, ids, a JSON object ----

TEST_CASE("engine/sectioned: a section of calls named by headers, ids kept", "[engine][sectioned]")
{
    const auto r = run<sectioned>(
        "Calling.<|calls|><|call|>functions.get_weather:0<|args|>{\"city\": \"Oslo\"}<|/call|>\n"
        "<|call|>functions.write_file:1<|args|>{\"content\": \"a\\tb\", \"path\": \"t.txt\"}<|/call|><|/calls|> After.",
        file_tools());   // the body before the path: the schema gives write_file its shape
    CHECK(segments(r) == "text \"Calling.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"{\\\"city\\\": \\\"Oslo\\\"}\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"t.txt\"} \"a\\tb\"\n"
                         "text \" After.\"\n");
    CHECK(calls(r) == "functions.get_weather:0 get_weather {\"city\":\"Oslo\"}\n"
                      "functions.write_file:1 write_file {\"path\":\"t.txt\",\"content\":\"a\\tb\"}\n");
}

TEST_CASE("engine/sectioned: a header that names nothing, or is too long, is text", "[engine][sectioned]")
{
    CHECK(segments(run<sectioned>("<|calls|><|call|>nodot<|args|>{}<|/call|><|/calls|>x"))
          == "text \"<|call|>nodot<|args|>{}<|/call|><|/calls|>x\"\n");
    const std::string long_header = "<|calls|><|call|>functions." + std::string(40, 'n') + ":0<|args|>{}<|/call|>";
    handler<sectioned> h(recording_sink{}, {}, sectioned(text_format_options{.max_held = 32, .max_held_body = 1024, .schemas = {}}));
    CHECK(h.feed(long_header) == error::marker_too_long);
    REQUIRE(!h.finalize());
    CHECK(h.invocations().empty());
}

TEST_CASE("engine/sectioned §7: cut inside arguments, and before the closing markers", "[engine][sectioned][finalize]")
{
    CHECK(calls(run<sectioned>("<|calls|><|call|>functions.f:0<|args|>{\"a\": \"<|/cal"))
          == "functions.f:0 f {} incomplete\n");
    CHECK(segments(run<sectioned>("<|calls|><|call|>functions.f:0<|args|>{\"a\": 1}<|/ca"))
          == "tool_call {\"tool_name\":\"f\"} \"{\\\"a\\\": 1}\"\ntext \"<|/ca\"\n");
}

// ---- key/value parameters ----

TEST_CASE("engine/key_value: raw values stream as JSON string fragments", "[engine][key_value]")
{
    const auto r = run<key_value>("Let me. <tool_call>\n<function=search>\n<parameter=query>\nx < y \"q\"\n</parameter>\n"
                                  "<parameter=limit>\n5\n</parameter>\n</function>\n</tool_call> ok");
    CHECK(calls(r) == "seg_2 search {\"query\":\"x < y \\\"q\\\"\",\"limit\":\"5\"}\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Let me.  ok");
}

TEST_CASE("engine/key_value: a closing marker inside a value does not end it", "[engine][key_value]")
{
    const auto r = run<key_value>("<tool_call><function=write_file><parameter=path>a.xml</parameter>"
                                  "<parameter=content>\n<p>x</parameter> y</p>\n</parameter>\n</parameter>\n"
                                  "</function></tool_call>");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"a.xml\",\"content\":\"<p>x</parameter> y</p>\\n</parameter>\"}\n");
    // Blanks after the marker are looked at (up to 64): a marker followed by more value is value.
    handler<key_value> h(recording_sink{}, {}, key_value(text_format_options{.max_held = 24, .max_held_body = 1024,
                                                                          .schemas = {}}));
    const std::string blanks(30, ' ');
    CHECK(!h.feed("<tool_call><function=f><parameter=a>v</parameter>" + blanks + "w</parameter></function></tool_call>"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::object{{"a", "v</parameter>" + blanks + "w"}});
}

TEST_CASE("engine/key_value: a write_file body streams raw, START waits for the path", "[engine][key_value]")
{
    const auto r = run<key_value>("<tool_call>\n<function=write_file>\n<parameter=content>\nline 1\n\"line\" 2\n</parameter>\n"
                                  "<parameter=path>\n/tmp/a.txt\n</parameter>\n</function>\n</tool_call>",
                                  file_tools());   // the body before the path: the schema gives write_file its shape
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/tmp/a.txt\"} \"line 1\\n\\\"line\\\" 2\"\n");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"/tmp/a.txt\",\"content\":\"line 1\\n\\\"line\\\" 2\"}\n");
    // §7: a value cut at a partial closing marker keeps it.
    CHECK(segments(run<key_value>("<tool_call><function=f><parameter=a>\nv\n</param"))
          == "tool_call {\"tool_name\":\"f\"} \"<parameter=a>\\nv\\n</param\" incomplete\n");
    CHECK(segments(run<key_value>("<tool_call><function=write_file><parameter=path>p</parameter><parameter=content>body __E"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"p\"} \"body __E\" incomplete\n");
}

} // namespace test_text_format_engine_headers
