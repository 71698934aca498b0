// The engine's call_name_key: a json_call format whose call objects name their tool under another
// key (Cohere's `{"tool_call_id": "0", "tool_name": NAME, "parameters": {…}}`), proven on trait
// sets written here. Every input goes through chunk invariance, byte conservation and the
// argument-fragment contract.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_json_call_name_key {

using namespace toolstream;
using test::calls;
using test::segments;

namespace {

// <calls>[{"id": …, "tool_name": NAME, "parameters": {…}}, …]</calls>
struct tool_name_format : marker_format {
    static constexpr std::string_view name = "tool_name_calls";
    static constexpr std::string_view call_open = "<calls>";
    static constexpr std::string_view call_close = "</calls>";
    static constexpr text_arguments arguments = text_arguments::json_call;
    static constexpr json_call_list call_list = json_call_list::array;
    static constexpr std::string_view call_name_key = "tool_name";
};
using tool_name_calls = text_format_policy<tool_name_format>;

// The same markers with the default name key.
struct name_format : tool_name_format {
    static constexpr std::string_view name = "name_calls";
    static constexpr std::string_view call_name_key = marker_format::call_name_key;
};
using name_calls = text_format_policy<name_format>;

static_assert(text_format_traits<tool_name_format> && parser_policy<tool_name_calls> && tool_name_calls::decodes_file_bodies);
static_assert(name_format::call_name_key == "name");

template<class Policy>
test::policy_run run(std::string_view input)
{
    return test::run_checked<Policy>(input);
}

} // namespace

TEST_CASE("engine/call_name_key: the key names the call; `name` does not", "[engine][call_name_key]")
{
    const auto r = run<tool_name_calls>(R"(Calling. <calls>[{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}, )"
                                        R"({"parameters": {}, "tool_name": "a\u0062"}, {"name": "f", "parameters": {}}]</calls> done.)");
    CHECK(calls(r) == "seg_2 get_weather {\"city\":\"Paris\"}\nseg_3 ab {}\nseg_4  {} invalid_arguments\n");
    CHECK(test::content_of_type(r.events, segment_type::text) == "Calling.  done.");
    // The default key is unchanged: `tool_name` names nothing there.
    CHECK(calls(run<name_calls>(R"(<calls>[{"tool_name": "f", "parameters": {}}, {"name": "g", "parameters": {}}]</calls>)"))
          == "seg_1  {} invalid_arguments\nseg_2 g {}\n");
}

TEST_CASE("engine/call_name_key: write_file streams its decoded body live; cut off", "[engine][call_name_key][finalize]")
{
    handler<tool_name_calls> h;
    REQUIRE(!h.feed(R"(<calls>[{"tool_call_id": "0", "tool_name": "write_file", "parameters": {"path": "a.txt", "content": "part one, )"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "part one, ");
    REQUIRE(!h.feed(R"(part two"}}]</calls>)"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments == boost::json::parse(R"({"path":"a.txt","content":"part one, part two"})"));
    CHECK(calls(run<tool_name_calls>(R"(<calls>[{"tool_name": "f", "parameters": {"a": "cut)")) == "seg_1 f {} incomplete\n");
    // A key that only begins with the name key names nothing.
    CHECK(calls(run<tool_name_calls>(R"(<calls>[{"tool_names": "f", "parameters": {}}]</calls>)")) == "seg_1  {} invalid_arguments\n");
}

} // namespace test_json_call_name_key
