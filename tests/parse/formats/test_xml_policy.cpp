// The xml policy against the reference's vectors (research §5.1: write_file and the full flow),
// with every input also checked for chunk invariance and byte conservation. Tag detection (the
// state tests of §5) and run_bash are in test_xml_tags.cpp.
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

namespace test_xml_policy {

using namespace toolstream;
using namespace toolstream::test::xml_support;

namespace {

test::policy_run run_pieces(const std::vector<std::string_view>& pieces)
{
    std::string whole;
    for (auto p : pieces)
        whole += p;
    check_streaming(whole);
    return test::run_pieces<xml>(pieces, xml_options{});
}

std::size_t count(std::string_view haystack, std::string_view needle)
{
    std::size_t n = 0;
    for (auto at = haystack.find(needle); at != std::string_view::npos; at = haystack.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

static_assert(parser_policy<xml>);

// ---- §5.1 XML write_file tool ----

TEST_CASE("xml: write_file tool gives one file segment with path and content only", "[xml][write_file]")
{
    const auto r = run("<tool name=\"write_file\"><arguments><arg name='path'>/tmp/test.py</arg>"
                       "<arg name='content'>print('hello')</arg></arguments></tool>");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/tmp/test.py\"} \"print('hello')\"\n");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"/tmp/test.py\",\"content\":\"print('hello')\"}\n");
    CHECK(r.invocations.at(0).id == r.events.at(0).segment_id);
}

TEST_CASE("xml: fragmented write_file tool", "[xml][write_file]")
{
    const auto r = run_pieces({"<tool name=\"write_file\"><argu", "ments><arg name", "='path'>/tmp/frag.py</arg>",
                               "<arg name='con", "tent'>", "print('frag", "mented')</arg", "></arguments></tool>"});
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/tmp/frag.py\"} \"print('fragmented')\"\n");
}

TEST_CASE("xml: write_file START waits for the path", "[xml][write_file]")
{
    handler<xml> h;
    REQUIRE(!h.feed("<tool name=\"write_file\"><arguments>"));
    CHECK(h.events().empty());
    REQUIRE(!h.feed("<arg name='path'>/tmp/delayed.py</arg>"));
    REQUIRE(h.events().size() == 1);
    CHECK(h.events()[0].type == segment_event_type::SEGMENT_START);
    CHECK(h.events()[0].metadata == boost::json::object{{"tool_name", "write_file"}, {"path", "/tmp/delayed.py"}});
    check_streaming("<tool name=\"write_file\"><arguments><arg name='path'>/tmp/delayed.py</arg>");
}

TEST_CASE("xml: text after the tool is a new text segment; no closing tag leaks", "[xml][write_file]")
{
    const auto r = run("<tool name=\"write_file\"><arguments><arg name='path'>/a</arg><arg name='content'>data</arg>"
                       "</arguments></tool>Post tool text");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a\"} \"data\"\n"
                         "text \"Post tool text\"\n");
}

TEST_CASE("xml: content markers are stripped; tags inside the body are kept", "[xml][write_file][markers]")
{
    const auto r = run("<tool name=\"write_file\"><arguments><arg name='path'>/a.py</arg><arg name='content'>"
                       "__START_CONTENT__\nprint('<div>')\n<arg name=\"x\">y</arg>\n__END_CONTENT__</arg></arguments></tool>");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "print('<div>')\n<arg name=\"x\">y</arg>\n");
}

TEST_CASE("xml: markers split across chunks", "[xml][write_file][markers]")
{
    const auto r = run_pieces({"<tool name=\"write_file\"><arguments><arg name='path'>/a.py</arg><arg name='content'>__STAR",
                               "T_CONTENT__print('hi')\n<arg>ok</arg>\n__END", "_CONTENT__</arg></arguments></tool>"});
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "print('hi')\n<arg>ok</arg>\n");
}

TEST_CASE("xml: false end markers inside the body are kept", "[xml][write_file][markers]")
{
    const std::string head = "<tool name=\"write_file\"><arguments><arg name=\"path\">/d.py</arg><arg name=\"content\">";
    const std::string tail = "</arg></arguments></tool>";
    SECTION("nested mentions")
    {
        const auto r = run(head + "__START_CONTENT__\n# This file documents __END_CONTENT__ usage\n"
                                  "# The marker __END_CONTENT__ appears in comments\nprint('hello')\n__END_CONTENT__" + tail);
        CHECK(test::content_of_type(r.events, segment_type::write_file)
              == "# This file documents __END_CONTENT__ usage\n# The marker __END_CONTENT__ appears in comments\n"
                 "print('hello')\n");
    }
    SECTION("whitespace between the end marker and </arg>")
    {
        const auto r = run(head + "__START_CONTENT__\nThe __END_CONTENT__ marker\n__END_CONTENT__\n  " + tail);
        const auto body = test::content_of_type(r.events, segment_type::write_file);
        CHECK(body == "The __END_CONTENT__ marker\n");
        CHECK(count(body, "__END_CONTENT__") == 1);
    }
    SECTION("several false ends, one right before code")
    {
        const auto r = run(head + "__START_CONTENT__\n__END_CONTENT__ is not the end\nMore text with __END_CONTENT__ in middle\n"
                                  "__END_CONTENT__x = 1\nfinal line\n__END_CONTENT__" + tail);
        const auto body = test::content_of_type(r.events, segment_type::write_file);
        CHECK(body == "__END_CONTENT__ is not the end\nMore text with __END_CONTENT__ in middle\n__END_CONTENT__x = 1\nfinal line\n");
        CHECK(count(body, "__END_CONTENT__") == 3);
    }
}

TEST_CASE("xml: fragmented nested false end marker", "[xml][write_file][markers]")
{
    const auto r = run_pieces({"<tool name=\"write_file\"><arguments><arg name=\"path\">/f.md</arg><arg name='content'>",
                               "__START_CONTENT__\n", "# Docs: __END_CONT", "ENT__ is the sentinel\n", "x = 1\n",
                               "__END_CONT", "ENT__", "\n</arg>", "</arguments></tool>"});
    const auto body = test::content_of_type(r.events, segment_type::write_file);
    CHECK(body == "# Docs: __END_CONTENT__ is the sentinel\nx = 1\n");
    CHECK(count(body, "__END_CONTENT__") == 1);
}

TEST_CASE("xml: patch_file strips the patch markers and keeps the diff verbatim", "[xml][patch_file]")
{
    const auto r = run("<tool name=\"patch_file\"><arguments><arg name=\"path\">file.py</arg><arg name='patch'>__START_PATCH__\n"
                       "--- a/file.py\n+++ b/file.py\n@@ -1,2 +1,3 @@\n existing\n+if x < 10 and y > 5:\n"
                       "+# Note: Do not remove __END_PATCH__ marker\n__END_PATCH__</arg></arguments></tool>");
    const std::string diff = "--- a/file.py\n+++ b/file.py\n@@ -1,2 +1,3 @@\n existing\n+if x < 10 and y > 5:\n"
                             "+# Note: Do not remove __END_PATCH__ marker\n";
    CHECK(segments(r) == "patch_file {\"tool_name\":\"patch_file\",\"path\":\"file.py\"} "
                             + boost::json::serialize(boost::json::string(diff)) + "\n");
    CHECK(calls(r) == "seg_1 patch_file " + boost::json::serialize(boost::json::object{{"path", "file.py"}, {"patch", diff}}) + "\n");
}

TEST_CASE("xml: the reference's taught write_file layout", "[xml][write_file][markers]")
{
    const auto r = run("Creating it.\n<tool name=\"write_file\">\n    <arguments>\n        <arg name=\"path\">/path/to/hello.py</arg>\n"
                       "        <arg name=\"content\">\n__START_CONTENT__\ndef hello():\n    print(\"Hello, World!\")\n"
                       "__END_CONTENT__\n        </arg>\n    </arguments>\n</tool>\nDone.");
    CHECK(segments(r) == "text \"Creating it.\\n\"\n"
                         "write_file {\"tool_name\":\"write_file\",\"path\":\"/path/to/hello.py\"} "
                         "\"def hello():\\n    print(\\\"Hello, World!\\\")\\n\"\n"
                         "text \"\\nDone.\"\n");
}

// ---- §5.1 full flow ----

TEST_CASE("xml: legacy tool syntax in prose gives one invocation", "[xml][flow]")
{
    const auto r = run_pieces({"I'll read the file for you.\n\n", "<tool name=\"read_file\">", "<path>/src/main.py</path>",
                               "</tool>", "\n\nHere's what I found."});
    CHECK(segments(r) == "text \"I'll read the file for you.\\n\\n\"\n"
                         "tool_call {\"tool_name\":\"read_file\"} \"<path>/src/main.py</path>\"\n"
                         "text \"\\n\\nHere's what I found.\"\n");
    CHECK(calls(r) == "seg_2 read_file {\"path\":\"/src/main.py\"}\n");
    CHECK(r.invocations[0].id == r.events[3].segment_id);
}

TEST_CASE("xml: two calls give two invocations with distinct ids", "[xml][flow]")
{
    const auto r = run("<tool name=\"read_file\"><path>/a.py</path></tool> and <tool name=\"read_file\"><path>/b.py</path></tool>");
    CHECK(calls(r) == "seg_1 read_file {\"path\":\"/a.py\"}\nseg_3 read_file {\"path\":\"/b.py\"}\n");
    CHECK(r.invocations[0].id != r.invocations[1].id);
}

TEST_CASE("xml: write_file without the <arguments> wrapper", "[xml][flow]")
{
    const auto r = run("<tool name=\"write_file\"><arg name=\"path\">/out.txt</arg><arg name=\"content\">Hello</arg></tool>");
    CHECK(calls(r) == "seg_1 write_file {\"path\":\"/out.txt\",\"content\":\"Hello\"}\n");
}

TEST_CASE("xml: shorthand tags and a generic tool in one response", "[xml][flow][shorthand]")
{
    const auto r = run("Let me write it.\n<write_file path=\"/output.py\">print('hello')\n</write_file>\nNow run:\n"
                       "<run_bash>\npython output.py\n</run_bash>\nCheck:\n<tool name=\"verify_result\"><expected>hello</expected></tool>");
    CHECK(segments(r) == "text \"Let me write it.\\n\"\n"
                         "write_file {\"path\":\"/output.py\"} \"print('hello')\\n\"\n"
                         "text \"\\nNow run:\\n\"\n"
                         "run_bash \"\\npython output.py\\n\"\n"
                         "text \"\\nCheck:\\n\"\n"
                         "tool_call {\"tool_name\":\"verify_result\"} \"<expected>hello</expected>\"\n");
    CHECK(calls(r) == "seg_2 write_file {\"path\":\"/output.py\",\"content\":\"print('hello')\\n\"}\n"
                 "seg_4 run_bash {\"command\":\"\\npython output.py\\n\"}\n"
                 "seg_6 verify_result {\"expected\":\"hello\"}\n");
}

TEST_CASE("xml: shorthand write_file keeps raw HTML and nested XML exactly", "[xml][shorthand]")
{
    const std::string html = "\n<!doctype html>\n<html><!-- hero -->\n<div class=\"hero\">& welcome</div>\n</html>\n";
    const auto r = run("<write_file path=\"/site/index.html\">" + html + "</write_file>");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == html);

    const std::string nested = "<config><tool name=\"inner\"><arg name=\"a\">1</arg></tool><run_bash>x</run_bash></config>";
    const auto n = run("<write_file path=\"/c.xml\">" + nested + "</write_file>");
    CHECK(test::content_of_type(n.events, segment_type::write_file) == nested);
    CHECK(calls(n) == "seg_1 write_file " + boost::json::serialize(boost::json::object{{"path", "/c.xml"}, {"content", nested}}) + "\n");
}

TEST_CASE("xml: a CDATA body is stripped of its delimiters and may hold </arg>", "[xml][write_file]")
{
    const auto r = run("<tool name=\"write_file\"><arguments><arg name=\"path\">/app.html</arg><arg name=\"content\">"
                       "<![CDATA[<div class=\"app\">& ready</div></arg>]]></arg></arguments></tool>");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "<div class=\"app\">& ready</div></arg>");
}

TEST_CASE("xml: unescaped < in an argument value", "[xml][flow]")
{
    const std::string input = "<tool name=\"create_tasks\"><arg name=\"description\">Handle n <= 0 case</arg></tool>";
    CHECK(calls(run(input)) == "seg_1 create_tasks {\"description\":\"Handle n <= 0 case\"}\n");
    const auto split = input.find("n <") + 3;
    CHECK(calls(run_pieces({std::string_view(input).substr(0, split), std::string_view(input).substr(split)}))
          == "seg_1 create_tasks {\"description\":\"Handle n <= 0 case\"}\n");
}

TEST_CASE("xml: arguments follow the Python reference (nesting, items, entities, CDATA)", "[xml][flow][bug6]")
{
    const auto r = run("<tool name=\"create_tasks\"><arguments><arg name=\"tasks\"><item><arg name=\"task_name\">implement_fibonacci</arg>"
                       "<arg name=\"description\">Handle n <= 0 case</arg></item></arg>"
                       "<arg name=\"cfg\"><arg name=\"a\">1</arg><arg name=\"b\">x</arg></arg>"
                       "<arg name=\"q\">a &amp; b &lt; c &#65;</arg><arg name=\"code\"><![CDATA[if (a < b && c > d) { x(); }]]></arg>"
                       "<arg name=\"ws\">  padded  </arg><arg name=\"dup\">1</arg><arg name=\"dup\">2</arg></arguments></tool>");
    CHECK(r.invocations.at(0).arguments
          == boost::json::parse(R"({"tasks":[{"task_name":"implement_fibonacci","description":"Handle n <= 0 case"}],)"
                                R"("cfg":{"a":"1","b":"x"},"q":"a & b < c A","code":"if (a < b && c > d) { x(); }",)"
                                R"("ws":"padded","dup":"2"})"));
}

TEST_CASE("xml: split names and values; 1-byte chunks", "[xml][flow]")
{
    CHECK(calls(run_pieces({"<tool name=\"te", "st\"><arg>val", "ue</arg></to", "ol>"})) == "seg_1 test {\"arg\":\"value\"}\n");
    std::vector<std::string_view> bytes;
    const std::string_view input = "<tool name=\"x\"><a>1</a></tool>";
    for (std::size_t i = 0; i < input.size(); ++i)
        bytes.push_back(input.substr(i, 1));
    CHECK(calls(run_pieces(bytes)) == "seg_1 x {\"a\":\"1\"}\n");
}

} // namespace test_xml_policy
