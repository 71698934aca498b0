// The engine's typed_value_attribute: a key/value parameter's header says whether its value is
// raw text or JSON (DSML's `string="false"`, Kimi K3's `type="…"`), proven on a trait set written
// here. Every input goes through chunk invariance, byte conservation and the argument-fragment
// contract.
#include <toolstream/detail/quoted_attribute.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string>
#include <string_view>

namespace test_typed_value_attribute {

using namespace toolstream;
using test::calls;

namespace {

// <call NAME><arg key="K" json="yes|no">V</arg></call>: `json="no"` (or none) is a string.
struct json_flag_format : marker_format {
    static constexpr std::string_view name = "json_flag";
    static constexpr std::string_view call_open = "<call";
    static constexpr std::string_view header_end = ">";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<arg";
    static constexpr std::string_view parameter_name_end = ">";
    static constexpr std::string_view value_close = "</arg>";
    static constexpr std::string_view parameters_close = "</call>";
    static constexpr value_type_attribute typed_value_attribute{"json", "no"};

    static std::string read_parameter_name(std::string_view raw)
    {
        return std::string(detail::quoted_attribute(raw, "key").value_or(""));
    }
};
using json_flag = text_format_policy<json_flag_format>;

// The same format without the attribute: every untyped value is a string, as before it existed.
struct no_flag_format : json_flag_format {
    static constexpr std::string_view name = "no_flag";
    static constexpr value_type_attribute typed_value_attribute{};
};
using no_flag = text_format_policy<no_flag_format>;

static_assert(text_format_traits<json_flag_format> && parser_policy<json_flag>);
static_assert(text_format_traits<no_flag_format> && parser_policy<no_flag>);

template<class Policy = json_flag, class... Options>
test::policy_run run(std::string_view input, const Options&... options)
{
    return test::run_checked<Policy>(input, options...);
}

text_format_options with_schemas(std::size_t max_held = 4096)
{
    return test::with_tools(R"([{"type":"function","function":{"name":"f","parameters":{"type":"object",
      "properties":{"label":{"type":"string"},"count":{"type":"integer"}}}}}])", max_held);
}

constexpr std::string_view mixed =
    "<call f><arg key=\"n\" json=\"yes\">42</arg><arg key=\"o\" json=\"yes\"> {\"a\": [1, true]} </arg>"
    "<arg key=\"s\" json=\"no\">42</arg><arg key=\"t\">true</arg><arg key=\"bad\" json=\"yes\">not json</arg></call>";

} // namespace

TEST_CASE("engine/typed_value_attribute: the header decides raw text or JSON", "[engine][typed_value_attribute]")
{
    // JSON values decoded (blanks around them are JSON's); `no` or no attribute, a string;
    // JSON that does not parse, the raw text as a string.
    CHECK(calls(run(mixed)) == "seg_1 f {\"n\":42,\"o\":{\"a\":[1,true]},\"s\":\"42\",\"t\":\"true\",\"bad\":\"not json\"}\n");
    // Without the trait, the same input is all strings.
    CHECK(calls(run<no_flag>(mixed))
          == "seg_1 f {\"n\":\"42\",\"o\":\" {\\\"a\\\": [1, true]} \",\"s\":\"42\",\"t\":\"true\",\"bad\":\"not json\"}\n");
    // Only a whole attribute name counts, its value in double quotes.
    CHECK(calls(run("<call f><arg key=\"a\" xjson=\"yes\">1</arg><arg key=\"b\" json='yes'>2</arg>"
                    "<arg json=\"yes\" key=\"c\">3</arg></call>"))
          == "seg_1 f {\"a\":\"1\",\"b\":\"2\",\"c\":3}\n");
}

TEST_CASE("engine/typed_value_attribute: a schema's type comes first", "[engine][typed_value_attribute]")
{
    // label is a string and count an integer whatever the header says; other keys follow it.
    const auto r = run("<call f><arg key=\"label\" json=\"yes\">7</arg><arg key=\"count\" json=\"no\">7</arg>"
                       "<arg key=\"extra\" json=\"yes\">[7]</arg><arg key=\"plain\">7</arg></call>",
                       with_schemas());
    CHECK(calls(r) == "seg_1 f {\"label\":\"7\",\"count\":7,\"extra\":[7],\"plain\":\"7\"}\n");
}

TEST_CASE("engine/typed_value_attribute: held values, the cap, a cut-off stream", "[engine][typed_value_attribute][finalize]")
{
    // A JSON value longer than the hold cap streams as a string from there, nothing reported.
    const std::string long_array = "[" + std::string(200, '1') + "]";
    const auto r = run("<call f><arg key=\"a\" json=\"yes\">" + long_array + "</arg></call>", text_format_options{.max_held = 48});
    CHECK(calls(r) == "seg_1 f {\"a\":\"" + long_array + "\"}\n");
    // A value held when the stream ends: the call is incomplete, its text kept.
    CHECK(calls(run("<call f><arg key=\"a\" json=\"yes\">[1, 2")) == "seg_1 f {} incomplete\n");
    constexpr std::string_view pieces[] = {"<call f>", "<arg key=\"n\" json=\"yes\">", "[1, \"</arg>\"]", "</arg>",
                                           "<arg key=\"s\">x</arg>", "</call>", "json=\"no\""};
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        run(input);
        run(input, with_schemas(48));
    }
}

} // namespace test_typed_value_attribute
