// The xml policy's tag detection (the state tests of research §5): tool names in any quote, case
// and spacing, what stays text, held tag prefixes; then run_bash and the shorthand tags' closing.
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

namespace test_xml_tags {

using namespace toolstream;
using namespace toolstream::test::xml_support;

// ---- state tests of §5: tag detection ----

TEST_CASE("xml: tool names in either quote, any case, any spacing; the case is kept", "[xml][tags]")
{
    CHECK(segments(run("<tool name='test'></tool>")) == "tool_call {\"tool_name\":\"test\"} \"\"\n");
    CHECK(segments(run("<TOOL NAME=\"Read_File\"><Path>/x</Path></TOOL>"))
          == "tool_call {\"tool_name\":\"Read_File\"} \"<Path>/x</Path>\"\n");
    CHECK(segments(run("<tool\n  name = 'spaced' >x</tool >")) == "tool_call {\"tool_name\":\"spaced\"} \"x\"\n");
    CHECK(segments(run("<tool id=\"1\" name=\"second_attr\">x</tool>"))
          == "tool_call {\"tool_name\":\"second_attr\"} \"x\"\n");
}

TEST_CASE("xml: generic content is the raw inner XML; END carries the parsed arguments", "[xml][tags]")
{
    const auto r = run("<tool name=\"read_file\"><arguments><arg name=\"path\">/a.txt</arg></arguments></tool>");
    CHECK(segments(r) == "tool_call {\"tool_name\":\"read_file\"} \"<arguments><arg name=\\\"path\\\">/a.txt</arg></arguments>\"\n");
    CHECK(r.events.back().metadata
          == boost::json::object{{"tool_name", "read_file"}, {"arguments", boost::json::object{{"path", "/a.txt"}}}});
    CHECK(calls(r) == "seg_1 read_file {\"path\":\"/a.txt\"}\n");
}

TEST_CASE("xml: tags that are not tool calls stay text byte for byte", "[xml][tags][text]")
{
    for (std::string_view input :
         {"<div>hi</div>", "a < b and c > d", "<br/>", "<tools>x</tools>", "<toolbox>", "<tool>no name</tool>",
          "<tool/>", "<tool name=\"\">empty</tool>", "<write_file>no path</write_file>", "<write_file path=\"/a\"/>",
          "<run_bash/>", "<run_bashes>", "<write_files path=\"/a\">", "<span class='tool'>", "<<tool", "<tool<tool",
          "<", "<t", "1 <2", "<tool name=\"x\" <b>bold</b>", "</tool>", "<tool name=\"x\"", "x <write_fil"}) {
        const auto r = run(input);
        INFO(input);
        CHECK(segments(r) == "text " + boost::json::serialize(boost::json::string(input)) + "\n");
        CHECK(r.invocations.empty());
    }
}

TEST_CASE("xml: a held tag prefix emits nothing until decided", "[xml][tags]")
{
    handler<xml> h;
    REQUIRE(!h.feed("Hello <write_fil"));
    REQUIRE(h.events().size() == 2);
    CHECK(h.events()[1].delta == "Hello ");
    CHECK(h.policy().held_bytes() == 10);
    REQUIRE(!h.feed("e path=\"/a\">x</write_file>"));
    CHECK(test::segments({test::coalesce(h.events()), {}}) == "text \"Hello \"\nwrite_file {\"path\":\"/a\"} \"x\"\n");
}

TEST_CASE("xml: finalize turns a half-read opening tag into text", "[xml][tags][finalize]")
{
    CHECK(segments(run("<tool")) == "text \"<tool\"\n");
    CHECK(segments(run("see <tool name=\"read_fi")) == "text \"see <tool name=\\\"read_fi\"\n");
}

TEST_CASE("xml: tool names select the specialised states case-insensitively", "[xml][tags]")
{
    CHECK(segments(run("<tool name=\"WRITE_FILE\"><arg name=\"path\">/a</arg><arg name=\"content\">x</arg></tool>"))
          == "write_file {\"tool_name\":\"WRITE_FILE\",\"path\":\"/a\"} \"x\"\n");
    CHECK(segments(run("<tool name=\"RUN_BASH\"><arg name=\"command\">ls</arg></tool>"))
          == "run_bash {\"tool_name\":\"RUN_BASH\"} \"ls\"\n");
    CHECK(segments(run("<WRITE_FILE path=\"/b\">y</WRITE_FILE>")) == "write_file {\"path\":\"/b\"} \"y\"\n");
    CHECK(segments(run("<tool name=\"other\">z</tool>")) == "tool_call {\"tool_name\":\"other\"} \"z\"\n");
}

TEST_CASE("xml: parse_tool_calls = false leaves <tool> as text but parses shorthand tags", "[xml][tags]")
{
    const xml_options off{.max_tag_size = 4096, .parse_tool_calls = false};
    const auto r = run("<tool name='test'>x</tool><run_bash>ls</run_bash>", off);
    CHECK(segments(r) == "text \"<tool name='test'>x</tool>\"\nrun_bash \"ls\"\n");
}

TEST_CASE("xml: a self-closing tool is a call without arguments", "[xml][tags]")
{
    const auto r = run("<tool name=\"get_time\"/> then");
    CHECK(segments(r) == "tool_call {\"tool_name\":\"get_time\"} \"\"\ntext \" then\"\n");
    CHECK(calls(r) == "seg_1 get_time {}\n");
}

// ---- run_bash ----

TEST_CASE("xml: run_bash tool streams only the command", "[xml][run_bash]")
{
    const auto r = run("<tool name=\"run_bash\"><arguments><arg name=\"command\">ls -la</arg></arguments></tool>"
                       "<tool name=\"read_file\"><path>/a</path></tool>");
    CHECK(segments(r) == "run_bash {\"tool_name\":\"run_bash\"} \"ls -la\"\n"
                         "tool_call {\"tool_name\":\"read_file\"} \"<path>/a</path>\"\n");
    CHECK(calls(r) == "seg_1 run_bash {\"command\":\"ls -la\"}\nseg_2 read_file {\"path\":\"/a\"}\n");
}

TEST_CASE("xml: run_bash background and timeout_seconds become metadata", "[xml][run_bash]")
{
    const auto r = run("<tool name=\"run_bash\"><arguments><arg name=\"command\">sleep 9</arg><arg name=\"background\">yes</arg>"
                       "<arg name=\"timeoutSeconds\"> 30 </arg></arguments></tool>");
    CHECK(r.events.back().metadata
          == boost::json::object{{"tool_name", "run_bash"}, {"background", true}, {"timeout_seconds", 30}});
    CHECK(calls(r) == "seg_1 run_bash {\"command\":\"sleep 9\",\"background\":true,\"timeout_seconds\":30}\n");

    const auto a = run("<tool name=\"run_bash\" background=\"0\" timeout_seconds=\"soon\"><arg name=\"command\">ls</arg></tool>"
                       "<run_bash background='true' timeout_seconds='5'>make</run_bash>");
    CHECK(segments(a) == "run_bash {\"tool_name\":\"run_bash\",\"background\":false,\"timeout_seconds\":\"soon\"} \"ls\"\n"
                         "run_bash {\"background\":true,\"timeout_seconds\":5} \"make\"\n");
}

TEST_CASE("xml: run_bash closed before any command is refused at its END", "[xml][run_bash]")
{
    const auto r = run("<tool name=\"run_bash\"><arguments></arguments></tool>");
    CHECK(segments(r) == "run_bash {\"tool_name\":\"run_bash\"} \"\" invalid_arguments\n");
    CHECK(calls(r) == "seg_1 run_bash {} invalid_arguments\n");
}

TEST_CASE("xml: shorthand tags hold partial closing tags and keep comments", "[xml][shorthand]")
{
    handler<xml> h;
    REQUIRE(!h.feed("<run_bash>echo hi</ru"));
    CHECK(test::content_of_type(h.events(), segment_type::run_bash) == "echo hi");
    CHECK(h.policy().held_bytes() == 4);
    REQUIRE(!h.feed("n_bash>"));
    CHECK(h.invocations().size() == 1);
    CHECK(segments(run("<write_file path=\"/a.py\"># comment </wri\nx = 1</write_file>"))
          == "write_file {\"path\":\"/a.py\"} \"# comment </wri\\nx = 1\"\n");
    CHECK(segments(run("<run_bash>\n# list\nls # </run\n</run_bash>")) == "run_bash \"\\n# list\\nls # </run\\n\"\n");
}

} // namespace test_xml_tags
