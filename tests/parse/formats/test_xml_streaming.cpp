// The xml policy where the reference fails (research §6 items 3, 4, 5, 9) and marker mode's
// closing rules. Limits, bounded holdback, generated inputs, native calls and reset are in
// test_xml_limits.cpp.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/formats/xml_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace test_xml_streaming {

using namespace toolstream;
using namespace toolstream::test::xml_support;

namespace {

// Markup the policy reported, in order.
std::string markup_of(std::string_view input)
{
    struct markup_sink {
        std::string bytes;
        void operator()(const segment_event&) {}
        void operator()(consumed_markup m) { bytes += m.bytes; }
    };
    handler<xml, markup_sink> h(markup_sink{});
    REQUIRE(!h.feed(input));
    REQUIRE(!h.finalize());
    return h.sink().bytes;
}

} // namespace

// ---- §6.3: a truncated call is never complete, and a partial closing tag is not content ----

TEST_CASE("xml bug 3: truncated run_bash is incomplete", "[xml][bug3][finalize]")
{
    const auto r = run("<tool name=\"run_bash\"><arguments><arg name=\"command\">ls -la /very/long/path");
    CHECK(segments(r) == "run_bash {\"tool_name\":\"run_bash\"} \"ls -la /very/long/path\" incomplete\n");
    CHECK(calls(r) == "seg_1 run_bash {} incomplete\n");   // an incomplete END carries no arguments
    CHECK(r.invocations[0].error == "stream ended before the tool call was complete");
}

TEST_CASE("xml §7: a truncated shorthand write_file keeps the partial closing tag as its body", "[xml][bug3][finalize]")
{
    const std::string input = "<write_file path=\"/a\">partial content</write_";
    const auto r = run(input);
    CHECK(segments(r) == "write_file {\"path\":\"/a\"} \"partial content</write_\" incomplete\n");
    CHECK(calls(r) == "seg_1 write_file {} incomplete\n");
    CHECK(markup_of(input) == "<write_file path=\"/a\">");
}

TEST_CASE("xml bug 3, §7: a truncated generic tool is incomplete and keeps a partial </tool> as content", "[xml][bug3][finalize]")
{
    const auto r = run("<tool name=\"x\"><arguments><arg name=\"a\">val</arg></arguments></to");
    CHECK(segments(r) == "tool_call {\"tool_name\":\"x\"} \"<arguments><arg name=\\\"a\\\">val</arg></arguments></to\" incomplete\n");
    CHECK(calls(r) == "seg_1 x {} incomplete\n");
}

// ---- §6.4: nothing held is lost at finalize ----

TEST_CASE("xml bug 4, §7: marker mode flushes every held byte at finalize, as body", "[xml][bug4][finalize]")
{
    const auto r = run(write_head + "__START_CONTENT__\nprint(1)\nprint(2)\n");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a.py\"} \"print(1)\\nprint(2)\\n\" incomplete\n");
    CHECK(calls(r) == "seg_1 write_file {} incomplete\n");
    // Indentation held for a possible closing line is body, and so is a partial end marker.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nif x:\n    ").events, segment_type::write_file)
          == "if x:\n    ");
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nline one\nline two __END_CONT").events,
                                segment_type::write_file)
          == "line one\nline two __END_CONT");
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nx\n__END_CONT").events, segment_type::write_file)
          == "x\n__END_CONT");
    // An end marker waiting for its </arg>, and the blanks after it, are body too.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nx\n  __END_CONTENT__ \n </ar").events,
                                segment_type::write_file)
          == "x\n  __END_CONTENT__ \n </ar");
}

TEST_CASE("xml bug 4, §7: a body without markers is not lost at finalize; a partial start marker is body", "[xml][bug4][finalize]")
{
    CHECK(segments(run(write_head + "partial body"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a.py\"} \"partial body\" incomplete\n");
    CHECK(segments(run(write_head + "__STA"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a.py\"} \"__STA\" incomplete\n");
    CHECK(segments(run(write_head + "  __START_CON"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a.py\"} \"  __START_CON\" incomplete\n");
    // The line break after a complete start marker is still syntax.
    CHECK(segments(run(write_head + "__START_CONTENT__\r"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a.py\"} \"\\r\" incomplete\n");
}

TEST_CASE("xml bug 4: a write_file cut before its content still ENDs, its markup reported", "[xml][bug4][finalize]")
{
    const std::string input = "Hi <tool name=\"write_file\"><arguments><arg name=\"pa";
    const auto r = run(input);
    CHECK(segments(r) == "text \"Hi \"\nwrite_file {\"tool_name\":\"write_file\"} \"\" incomplete\n");
    CHECK(calls(r) == "seg_2 write_file {} incomplete\n");
    CHECK(markup_of(input) == "<tool name=\"write_file\"><arguments><arg name=\"pa");
}

// ---- §6.5: chunk-dependent in the reference ----

TEST_CASE("xml bug 5: the line break after the start marker is dropped at every chunking", "[xml][bug5]")
{
    for (std::string_view eol : {"\n", "\r\n"}) {
        const auto r = run(write_head + "__START_CONTENT__" + std::string(eol) + "def f():\n    pass\n__END_CONTENT__</arg></arguments></tool>");
        CHECK(test::content_of_type(r.events, segment_type::write_file) == "def f():\n    pass\n");
    }
    // Only one: a blank first line stays.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\n\nx\n__END_CONTENT__</arg></tool>").events,
                                segment_type::write_file) == "\nx\n");
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__x\n__END_CONTENT__</arg></tool>").events,
                                segment_type::write_file) == "x\n");
    CHECK(test::content_of_type(run(write_head + "__start_content__\ny\n__End_Content__</ARG></tool>").events,
                                segment_type::write_file) == "y\n");
}

TEST_CASE("xml bug 5: the path may come after the content, at every chunking", "[xml][bug5][write_file]")
{
    const auto r = run("Writing. <tool name=\"write_file\"><arguments><arg name=\"content\">__START_CONTENT__\nbody <b>\n"
                       "__END_CONTENT__</arg><arg name=\"path\">/late.py</arg></arguments></tool> done");
    CHECK(segments(r) == "text \"Writing. \"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"/late.py\"} \"body <b>\\n\"\n"
                         "text \" done\"\n");
    CHECK(calls(r) == "seg_2 write_file {\"path\":\"/late.py\",\"content\":\"body <b>\\n\"}\n");

    // The held body counts as held, and START comes with the path.
    handler<xml> h;
    REQUIRE(!h.feed("<tool name=\"patch_file\"><arg name=\"patch\">@@ -1 +1 @@\n-a\n+b\n</arg>"));
    CHECK(h.events().empty());
    CHECK(h.policy().held_bytes() == std::string_view("@@ -1 +1 @@\n-a\n+b\n</arg>").size());
    REQUIRE(!h.feed("<arg name=\"path\">p.txt</arg>"));
    CHECK(h.policy().held_bytes() == 0);
    CHECK(test::segments({test::coalesce(h.events()), {}})
          == "patch_file {\"tool_name\":\"patch_file\",\"path\":\"p.txt\"} \"@@ -1 +1 @@\\n-a\\n+b\\n\"");
}

TEST_CASE("xml: a body past max_held_body STARTs without its path; the late path is in END and the call",
          "[xml][limits][write_file]")
{
    const std::string body = "0123456789abcdef";
    const std::string input = "<tool name=\"write_file\"><arg name=\"content\">" + body
        + "</arg><arg name=\"path\">late.txt</arg></tool>";
    // Held while the path is unknown: the body and the markup after it, up to the path's value.
    const std::size_t held = (body + "</arg><arg name=\"path\">").size();
    xml_options o;
    o.max_held_body = held;
    CHECK(segments(run(input, o)) == "write_file {\"tool_name\":\"write_file\",\"path\":\"late.txt\"} \"" + body + "\"\n");

    o.max_held_body = held - 1;
    const auto r = run(input, o);
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\"} \"" + body + "\"\n");
    REQUIRE(r.events.back().type == segment_event_type::SEGMENT_END);
    CHECK(r.events.back().metadata.at("path") == "late.txt");
    // A path that comes after a body that STARTed without it is written after it.
    CHECK(calls(r) == "seg_1 write_file {\"content\":\"" + body + "\",\"path\":\"late.txt\"}\n");

    // The hold never passes the limit, whatever the body's length.
    o.max_held_body = 1000;
    handler<xml> h(recording_sink{}, {}, xml(o));
    REQUIRE(!h.feed("<tool name=\"patch_file\"><arg name=\"patch\">"));
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(!h.feed("+ a line of the patch\n"));
        REQUIRE(h.policy().held_bytes() <= 1000 + 64 + 16);
    }
    REQUIRE(!h.events().empty());
    CHECK(h.events().front().type == segment_event_type::SEGMENT_START);
    CHECK(!h.events().front().metadata.contains("path"));
}

TEST_CASE("xml bug 5: a file that never gets a path is refused, its body kept", "[xml][bug5][write_file]")
{
    const auto closed = run("<tool name=\"write_file\"><arg name=\"content\">orphan</arg></tool>");
    CHECK(segments(closed) == "write_file {\"tool_name\":\"write_file\"} \"orphan\" invalid_arguments\n");
    CHECK(calls(closed) == "seg_1 write_file {} invalid_arguments\n");
    const auto cut = run("<tool name=\"write_file\"><arg name=\"content\">orphan</arg><arg name=\"pa");
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\"} \"orphan\" incomplete\n");
    CHECK(calls(cut) == "seg_1 write_file {} incomplete\n");
}

// ---- §6.9: the reference's rigid path regex, first-</arg> and first-</tool> limits ----

TEST_CASE("xml bug 9: path and argument tags tolerate spacing, quotes, case and entities", "[xml][bug9]")
{
    CHECK(calls(run("<tool name=\"write_file\"><arg  name = \"path\" >/s p/a&amp;b.txt</arg><ARG NAME='content'>x</ARG></tool>"))
          == "seg_1 write_file {\"path\":\"/s p/a&b.txt\",\"content\":\"x\"}\n");
    CHECK(calls(run("<tool name=\"write_file\"><arg name=\"path\">\n  dir/<x>.txt\n</arg><arg name=\"content\">y</arg></tool>"))
          == "seg_1 write_file {\"path\":\"dir/<x>.txt\",\"content\":\"y\"}\n");
}

TEST_CASE("xml bug 9: a body without markers ends at its first </arg>; markers or CDATA keep more", "[xml][bug9]")
{
    // Documented limit, as the reference: the rest of the body becomes syntax.
    CHECK(test::content_of_type(run(write_head + "a</arg>b</arg></tool>").events, segment_type::write_file) == "a");
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\na</arg>b\n__END_CONTENT__</arg></tool>").events,
                                segment_type::write_file) == "a</arg>b\n");
    CHECK(test::content_of_type(run(write_head + "<![CDATA[a</arg>b]]></arg></tool>").events, segment_type::write_file)
          == "a</arg>b");
}

TEST_CASE("xml bug 9: </tool> inside an argument does not end a generic call", "[xml][bug9]")
{
    const auto cdata = run("<tool name=\"doc\"><arguments><arg name=\"text\"><![CDATA[close with </tool>]]></arg></arguments></tool>after");
    CHECK(calls(cdata) == "seg_1 doc {\"text\":\"close with </tool>\"}\n");
    CHECK(segments(cdata).ends_with("text \"after\"\n"));

    const auto raw = run("<tool name=\"doc\"><arg name=\"t\">a</tool>b</arg></tool>after");
    CHECK(segments(raw) == "tool_call {\"tool_name\":\"doc\"} \"<arg name=\\\"t\\\">a</tool>b</arg>\"\ntext \"after\"\n");

    const auto comment = run("<tool name=\"doc\"><!-- </tool> --><a>1</a></tool>");
    CHECK(calls(comment) == "seg_1 doc {\"a\":\"1\"}\n");

    // Self-closing <arg/> opens nothing; </arguments> closes an <arg> left open.
    CHECK(calls(run("<tool name=\"f\"><arg name=\"a\"/><arg name=\"b\">2</arg></tool>")) == "seg_1 f {\"a\":\"\",\"b\":\"2\"}\n");
    CHECK(segments(run("<tool name=\"f\"><arguments><arg name=\"a\">1</arguments></tool>x"))
          == "tool_call {\"tool_name\":\"f\"} \"<arguments><arg name=\\\"a\\\">1</arguments>\"\ntext \"x\"\n");
}

// ---- marker mode: closing without an end marker, indentation ----

TEST_CASE("xml: a missing end marker closes at </arg> before </arguments> or </tool>", "[xml][markers]")
{
    const auto r = run(write_head + "\n__START_CONTENT__\ndef f():\n    return 1\n        </arg>\n    </arguments>\n</tool>");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "def f():\n    return 1\n");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"/a.py\",\"content\":\"def f():\\n    return 1\\n\"}\n");
    // A bare </arg> followed by anything else is body.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\n<a></arg> x\n  </arg></tool>").events,
                                segment_type::write_file) == "<a></arg> x\n");
    // An end marker right before </tool> (no </arg>) closes too.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nz\n__END_CONTENT__\n</tool>tail").events,
                                segment_type::write_file) == "z\n");
}

TEST_CASE("xml: the indentation of the closing line is syntax, other indentation is body", "[xml][markers]")
{
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\n  a\n    __END_CONTENT__\n  </arg></tool>").events,
                                segment_type::write_file) == "  a\n");
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\n  a\n    __END_CONTENT__ no\n  b\n__END_CONTENT__</arg></tool>").events,
                                segment_type::write_file) == "  a\n    __END_CONTENT__ no\n  b\n");
}

} // namespace test_xml_streaming
