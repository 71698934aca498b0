#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/sentinel.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <boost/json/parse.hpp>

#include <array>
#include <string>

namespace test_sentinel_policy {

using namespace toolstream;
using toolstream::test::check_byte_conservation;
using toolstream::test::check_chunk_invariance;
using toolstream::test::run_pieces;
using toolstream::test::run_whole;

static_assert(parser_policy<sentinel>);

namespace {

using seg = segment_event_type;

boost::json::object obj(std::string_view s)
{
    return boost::json::parse(s).as_object();
}

std::string starts(const std::vector<owned_segment_event>& events)
{
    std::string s;
    for (const auto& e : events)
        if (e.type == seg::SEGMENT_START)
            s += std::string(boost::json::value_from(e.segment_kind).as_string()) + " ";
    return s;
}

// Input that must come out as text only, byte for byte, at every chunking.
void check_stays_text(std::string_view input)
{
    const auto r = run_whole<sentinel>(input);
    INFO(input << "\n" << test::dump(r.events));
    CHECK(starts(r.events) == "text ");
    CHECK(test::content_of_type(r.events, segment_type::text) == input);
    CHECK(r.invocations.empty());
    check_chunk_invariance<sentinel>(input);
}

} // namespace

TEST_CASE("sentinel: write_file block (§1.3)", "[sentinel]")
{
    const std::string_view input = R"(Here: [[SEG_START {"type":"write_file","path":"/a.ts"}]]print("hi")[[SEG_END]] done)";
    const auto r = run_whole<sentinel>(input);
    REQUIRE(r.events.size() == 9);
    CHECK(r.events[1].delta == "Here: ");
    CHECK(to_json_string(r.events[3].view())
          == R"({"type":"SEGMENT_START","segment_id":"seg_2","segment_type":"write_file","payload":{"metadata":{"path":"/a.ts"}}})");
    CHECK(r.events[4].delta == R"(print("hi"))");
    CHECK(to_json_string(r.events[5].view())
          == R"({"type":"SEGMENT_END","segment_id":"seg_2","payload":{"metadata":{"path":"/a.ts"}}})");
    CHECK(r.events[7].delta == " done");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == "write_file");
    CHECK(r.invocations[0].arguments == obj(R"j({"path":"/a.ts","content":"print(\"hi\")"})j"));
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: tool arguments in the header (§5 create_tasks vector)", "[sentinel]")
{
    const std::string_view input =
        R"([[SEG_START {"type":"tool","tool_name":"create_tasks","arguments":{"tasks":[{"task_name":"implement_fibonacci","description":"Handle n <= 0 case"}]}}]][[SEG_END]])";
    const auto r = run_whole<sentinel>(input);
    REQUIRE(r.events.size() == 2);
    CHECK(r.events[0].segment_kind == segment_type::tool_call);
    CHECK(r.events[0].metadata.at("tool_name") == "create_tasks");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == "create_tasks");
    CHECK(r.invocations[0].arguments
          == obj(R"({"tasks":[{"task_name":"implement_fibonacci","description":"Handle n <= 0 case"}]})"));
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: tool_call bodies are parsed by the adapter when the header has no arguments", "[sentinel]")
{
    const std::string_view xml_body =
        R"([[SEG_START {"type":"tool_call","tool_name":"read_file"}]]<arguments><arg name="path">/x</arg></arguments>[[SEG_END]])";
    auto r = run_whole<sentinel>(xml_body);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].name == "read_file");
    CHECK(r.invocations[0].arguments == obj(R"({"path":"/x"})"));
    check_chunk_invariance<sentinel>(xml_body);

    const std::string_view json_body = R"([[SEG_START {"type":"tool","tool_name":"grep"}]] {"q": "a]]b"} [[SEG_END]])";
    r = run_whole<sentinel>(json_body);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == obj(R"({"q":"a]]b"})"));
    check_chunk_invariance<sentinel>(json_body);

    const std::string_view string_args =
        R"([[SEG_START {"type":"tool","tool_name":"w","arguments":"{\"city\": \"NYC\"}"}]][[SEG_END]])";
    r = run_whole<sentinel>(string_args);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == obj(R"({"city":"NYC"})"));
    CHECK(r.events.back().metadata.at("arguments") == obj(R"({"city":"NYC"})"));
}

TEST_CASE("sentinel: header arguments that are not an object END invalid_arguments", "[sentinel]")
{
    for (std::string_view input : {
             std::string_view(R"([[SEG_START {"type":"tool","tool_name":"w","arguments":"not json"}]][[SEG_END]])"),
             std::string_view(R"([[SEG_START {"type":"tool","tool_name":"w","arguments":[1]}]]{"a":1}[[SEG_END]])"),
         }) {
        const auto r = run_whole<sentinel>(input);
        INFO(test::dump(r.events));
        CHECK(r.events.back().status == segment_status::invalid_arguments);
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::invalid_arguments);
        check_chunk_invariance<sentinel>(input);
    }
}

TEST_CASE("sentinel: header types map to segment types; other keys are metadata, repeated on END", "[sentinel]")
{
    const std::string_view input =
        "[[SEG_START {\"type\":\"run_terminal_cmd\",\"timeout_seconds\":5}]]ls -la[[SEG_END]]"
        "[[SEG_START {\"type\":\"run_bash\"}]]pwd[[SEG_END]]"
        "[[SEG_START {\"type\":\"patch_file\",\"path\":\"p.py\"}]]@@ -1 +1 @@\n-a\n+b\n[[SEG_END]]"
        "[[SEG_START {\"type\":\"text\",\"lang\":\"en\"}]]just words[[SEG_END]]"
        "[[SEG_START {\"type\":\"tool_call\",\"tool_name\":\"t\"}]][[SEG_END]]";
    const auto r = run_whole<sentinel>(input);
    INFO(test::dump(r.events));
    CHECK(starts(r.events) == "run_bash run_bash patch_file text tool_call ");
    CHECK(r.events[0].metadata == obj(R"({"timeout_seconds":5})"));
    CHECK(r.events[2].metadata == obj(R"({"timeout_seconds":5})"));
    CHECK(r.events[9].metadata == obj(R"({"lang":"en"})"));
    CHECK(r.events[10].delta == "just words");
    REQUIRE(r.invocations.size() == 4);
    CHECK(r.invocations[0].name == "run_bash");
    CHECK(r.invocations[0].arguments == obj(R"({"command":"ls -la","timeout_seconds":5})"));
    CHECK(r.invocations[1].arguments == obj(R"({"command":"pwd"})"));
    CHECK(r.invocations[2].arguments == obj(R"({"path":"p.py","patch":"@@ -1 +1 @@\n-a\n+b\n"})"));
    CHECK(r.invocations[3].name == "t");
    CHECK(r.invocations[3].arguments.empty());
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: regression §6.5/§4.1, a start marker split at any byte is still found", "[sentinel]")
{
    const std::string_view input = R"(ok [[SEG_START {"type":"run_bash"}]]echo hi[[SEG_END]])";
    for (std::size_t cut = 1; cut < input.size(); ++cut) {
        const auto r = run_pieces<sentinel>({input.substr(0, cut), input.substr(cut)});
        INFO("cut at " << cut << "\n" << test::dump(r.events));
        CHECK(starts(r.events) == "text run_bash ");
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].arguments == obj(R"({"command":"echo hi"})"));
    }
    const auto r = run_pieces<sentinel>({"ok [[SEG_ST", "ART {\"type\":\"run_bash\"}]]echo hi[[SEG_", "END]]"});
    CHECK(r.invocations.size() == 1);
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: regression §6.10, a closing double bracket inside header strings or arrays does not end the header", "[sentinel]")
{
    const std::string_view input =
        R"([[SEG_START {"type":"tool","tool_name":"m","note":"a ]] b","arguments":{"grid":[[1,2],[3]],"s":"x\"]]"}}]]body[[SEG_END]])";
    const auto r = run_whole<sentinel>(input);
    INFO(test::dump(r.events));
    REQUIRE(r.events.size() == 3);
    CHECK(r.events[0].metadata.at("note") == "a ]] b");
    CHECK(r.events[1].delta == "body");
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == obj(R"({"grid":[[1,2],[3]],"s":"x\"]]"})"));
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: the end marker is case-insensitive; the body is raw", "[sentinel]")
{
    const std::string_view input = R"([[SEG_START {"type":"write_file","path":"a"}]]x [[SEG_START y &amp; [[seg_end] z[[Seg_End]]tail)";
    const auto r = run_whole<sentinel>(input);
    INFO(test::dump(r.events));
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments.at("content") == "x [[SEG_START y &amp; [[seg_end] z");
    CHECK(test::content_of_type(r.events, segment_type::text) == "tail");
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: an opening that is not one stays text byte for byte", "[sentinel]")
{
    check_stays_text(R"(a [[SEG_START {bad json}]]x[[SEG_END]] b)");
    check_stays_text(R"([[SEG_START ["a","b"]]]x[[SEG_END]])");
    check_stays_text(R"([[SEG_START "write_file"]]x)");
    check_stays_text(R"([[SEG_START {"type":"nope"}]]x[[SEG_END]])");
    check_stays_text(R"([[SEG_START {"path":"a"}]]x[[SEG_END]])");
    check_stays_text(R"([[SEG_START {"type":5}]]x[[SEG_END]])");
    check_stays_text(R"([[SEG_START {"type":"text"} x]] y)");
    check_stays_text(R"([[SEG_START {"type":"text"}] ]x)");
    check_stays_text(R"([[seg_start {"type":"text"}]]lower-case start marker)");
    check_stays_text("[[SEG_STARTS [[SEG_END]] [[ [[SEG [SEG_START");
}

TEST_CASE("sentinel: after a broken opening, a real one right behind it is found", "[sentinel]")
{
    const std::string_view input = R"([[SEG_START oops [[SEG_START[[SEG_START {"type":"run_bash"}]]ls[[SEG_END]])";
    const auto r = run_whole<sentinel>(input);
    CHECK(starts(r.events) == "text run_bash ");
    CHECK(r.events[1].delta == "[[SEG_START oops [[SEG_START");
    REQUIRE(r.invocations.size() == 1);
    check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: header whitespace is allowed around the JSON", "[sentinel]")
{
    const std::string_view input = "[[SEG_START\n  {\"type\" : \"run_bash\"}  ]]ls[[SEG_END]]";
    const auto r = run_whole<sentinel>(input);
    REQUIRE(r.invocations.size() == 1);
    CHECK(r.invocations[0].arguments == obj(R"({"command":"ls"})"));
    check_chunk_invariance<sentinel>(input);
    const auto joined = run_whole<sentinel>(R"([[SEG_START{"type":"run_bash"}]]ls[[SEG_END]])");
    CHECK(joined.invocations.size() == 1);
}

TEST_CASE("sentinel: truncation loses nothing and never yields a complete invocation", "[sentinel]")
{
    SECTION("inside a body, with part of the end marker")
    {
        const std::string_view input = R"(x [[SEG_START {"type":"run_bash"}]]rm -rf /tmp/a[[SEG_E)";
        const auto r = run_whole<sentinel>(input);
        REQUIRE(r.events.size() == 6);
        CHECK(r.events[4].delta == "rm -rf /tmp/a[[SEG_E");
        CHECK(r.events[5].status == segment_status::incomplete);
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::incomplete);
        check_chunk_invariance<sentinel>(input);
    }
    SECTION("a half-read opening is text")
    {
        check_stays_text(R"(x [[SEG_START {"ty)");
        check_stays_text(R"(x [[SEG_START {"type":"run_bash"}])");
        check_stays_text("x [[SEG_");
    }
    SECTION("an empty body")
    {
        const auto r = run_whole<sentinel>(R"([[SEG_START {"type":"write_file","path":"a"}]])");
        REQUIRE(r.invocations.size() == 1);
        CHECK(r.invocations[0].status == invocation_status::incomplete);
    }
}

TEST_CASE("sentinel: an opening longer than max_held is text, and held bytes stay within it", "[sentinel]")
{
    const std::string input =
        R"([[SEG_START {"type":"tool","tool_name":"t","pad":")" + std::string(200, 'p') + R"("}]]body[[SEG_END]])";
    const sentinel_options small{64};
    const auto r = run_whole<sentinel>(input, small);
    CHECK(starts(r.events) == "text ");
    CHECK(test::content_of_type(r.events, segment_type::text) == input);
    check_chunk_invariance<sentinel>(input, small);

    const auto fits = run_whole<sentinel>(input);
    CHECK(fits.invocations.size() == 1);

    handler<sentinel> h(recording_sink{}, {}, sentinel(small));
    std::size_t reported = 0;
    for (char c : input) {
        const auto ec = h.feed(std::string_view(&c, 1));
        REQUIRE(test::fed_cleanly(ec));
        reported += ec == error::marker_too_long;
        CHECK(h.policy().held_bytes() <= 64);
    }
    CHECK(reported == 1);   // the one opening that passed the cap
}

TEST_CASE("sentinel: native tool calls are assembled too, and finalize ends them", "[sentinel]")
{
    handler<sentinel> h;
    chunk_response c;
    c.content = R"([[SEG_START {"type":"run_bash"}]]ls)";
    c.tool_calls = {{0, "call_1", "native", R"({"a":1})", true}, {1, "call_2", "open", "{", false}};
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 3);
    CHECK(h.invocations()[0].id == "call_1");
    CHECK(h.invocations()[0].is_complete());
    CHECK(h.invocations()[1].name == "run_bash");
    CHECK(h.invocations()[1].status == invocation_status::incomplete);
    CHECK(h.invocations()[2].id == "call_2");
    CHECK(h.invocations()[2].status == invocation_status::incomplete);
}

TEST_CASE("sentinel: byte conservation over generated prose, blocks and truncation", "[sentinel][conservation]")
{
    constexpr std::array<std::string_view, 6> blocks{
        R"([[SEG_START {"type":"write_file","path":"/a.ts"}]]print("<hi> {x} [[y]]")[[SEG_END]])",
        R"([[SEG_START {"type":"tool","tool_name":"m","arguments":{"g":[[1]],"s":"]]"}}]][[seg_end]])",
        R"([[SEG_START {"type":"tool_call","tool_name":"r"}]]<arguments><arg name="p">x</arg></arguments>[[SEG_END]])",
        R"([[SEG_START {"type":"bogus"}]]not a block[[SEG_END]])",
        R"([[SEG_START  {"type":"text"} ]]words[[SEG_END]])",
        R"([[SEG_START [[SEG_START {"type":"run_bash"}]]ls[[SEG_END]])",
    };
    for (const auto& input : test::mixed_inputs(blocks, 150)) {
        check_byte_conservation<sentinel>(input);
        check_byte_conservation<sentinel>(input, sentinel_options{16});
    }
    for (const auto& input : test::mixed_inputs(blocks, 25, 7))
        check_chunk_invariance<sentinel>(input);
}

TEST_CASE("sentinel: holdback stays bounded over 10 MB of prose without tool syntax", "[sentinel][holdback]")
{
    // Outside an opening only a marker prefix is held: at most 10 bytes.
    test::check_bounded_holdback<sentinel>(10, 10 * 1024 * 1024);
}

} // namespace test_sentinel_policy
