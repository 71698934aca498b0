// The xml policy where the reference fails (research §6 items 3, 4, 5, 9), truncation at any
// point, generated inputs checked for byte conservation, and bounded holdback.
#include <toolstream/handler.hpp>
#include <toolstream/formats/xml.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace toolstream;

namespace {

void check_streaming(std::string_view input, xml_options options = {})
{
    test::check_chunk_invariance<xml>(input, options);
    test::check_byte_conservation<xml>(input, options);
}

test::policy_run run(std::string_view input, xml_options options = {})
{
    check_streaming(input, options);
    return test::run_whole<xml>(input, options);
}

// One line per segment: type, START metadata (when any), coalesced content, END status (when
// not complete).
std::string segments(const test::policy_run& r)
{
    std::map<std::string, std::string> content;
    std::string out;
    for (const auto& e : r.events)
        if (e.type == segment_event_type::SEGMENT_CONTENT)
            content[e.segment_id] += e.delta;
    for (const auto& e : r.events) {
        if (e.type == segment_event_type::SEGMENT_START) {
            out += std::string(boost::describe::enum_to_string(e.segment_kind, "?"));
            if (!e.metadata.empty())
                out += " " + boost::json::serialize(e.metadata);
            out += " " + boost::json::serialize(boost::json::string(content[e.segment_id]));
        } else if (e.type == segment_event_type::SEGMENT_END) {
            if (e.status != segment_status::complete)
                out += std::string(" ") + boost::describe::enum_to_string(e.status, "?");
            out += "\n";
        }
    }
    return out;
}

std::string calls(const test::policy_run& r)
{
    std::string out;
    for (const auto& inv : r.invocations) {
        out += inv.name + " " + boost::json::serialize(inv.arguments);
        if (inv.status != invocation_status::complete)
            out += std::string(" ") + boost::describe::enum_to_string(inv.status, "?");
        out += "\n";
    }
    return out;
}

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

const std::string write_head = "<tool name=\"write_file\"><arguments><arg name=\"path\">/a.py</arg><arg name=\"content\">";

} // namespace

// ---- §6.3: a truncated call is never complete, and a partial closing tag is not content ----

TEST_CASE("xml bug 3: truncated run_bash is incomplete", "[xml][bug3][finalize]")
{
    const auto r = run("<tool name=\"run_bash\"><arguments><arg name=\"command\">ls -la /very/long/path");
    CHECK(segments(r) == "run_bash {\"tool_name\":\"run_bash\"} \"ls -la /very/long/path\" incomplete\n");
    CHECK(calls(r) == "run_bash {} incomplete\n");   // an incomplete END carries no arguments
    CHECK(r.invocations[0].error == "stream ended before the tool call was complete");
}

TEST_CASE("xml §7: a truncated shorthand write_file keeps the partial closing tag as its body", "[xml][bug3][finalize]")
{
    const std::string input = "<write_file path=\"/a\">partial content</write_";
    const auto r = run(input);
    CHECK(segments(r) == "write_file {\"path\":\"/a\"} \"partial content</write_\" incomplete\n");
    CHECK(calls(r) == "write_file {} incomplete\n");
    CHECK(markup_of(input) == "<write_file path=\"/a\">");
}

TEST_CASE("xml bug 3, §7: a truncated generic tool is incomplete and keeps a partial </tool> as content", "[xml][bug3][finalize]")
{
    const auto r = run("<tool name=\"x\"><arguments><arg name=\"a\">val</arg></arguments></to");
    CHECK(segments(r) == "tool_call {\"tool_name\":\"x\"} \"<arguments><arg name=\\\"a\\\">val</arg></arguments></to\" incomplete\n");
    CHECK(calls(r) == "x {} incomplete\n");
}

// ---- §6.4: nothing held is lost at finalize ----

TEST_CASE("xml bug 4, §7: marker mode flushes every held byte at finalize, as body", "[xml][bug4][finalize]")
{
    const auto r = run(write_head + "__START_CONTENT__\nprint(1)\nprint(2)\n");
    CHECK(segments(r) == "write_file {\"tool_name\":\"write_file\",\"path\":\"/a.py\"} \"print(1)\\nprint(2)\\n\" incomplete\n");
    CHECK(calls(r) == "write_file {} incomplete\n");
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
    CHECK(calls(r) == "write_file {} incomplete\n");
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
    CHECK(calls(r) == "write_file {\"path\":\"/late.py\",\"content\":\"body <b>\\n\"}\n");

    // The held body counts as held, and START comes with the path.
    handler<xml> h;
    REQUIRE(!h.feed("<tool name=\"patch_file\"><arg name=\"patch\">@@ -1 +1 @@\n-a\n+b\n</arg>"));
    CHECK(h.events().empty());
    CHECK(h.policy().held_bytes() == std::string_view("@@ -1 +1 @@\n-a\n+b\n</arg>").size());
    REQUIRE(!h.feed("<arg name=\"path\">p.txt</arg>"));
    CHECK(h.policy().held_bytes() == 0);
    CHECK(segments({test::coalesce(h.events()), {}})
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
    CHECK(calls(r) == "write_file {\"content\":\"" + body + "\",\"path\":\"late.txt\"}\n");

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
    CHECK(calls(closed) == "write_file {} invalid_arguments\n");
    const auto cut = run("<tool name=\"write_file\"><arg name=\"content\">orphan</arg><arg name=\"pa");
    CHECK(segments(cut) == "write_file {\"tool_name\":\"write_file\"} \"orphan\" incomplete\n");
    CHECK(calls(cut) == "write_file {} incomplete\n");
}

// ---- §6.9: the reference's rigid path regex, first-</arg> and first-</tool> limits ----

TEST_CASE("xml bug 9: path and argument tags tolerate spacing, quotes, case and entities", "[xml][bug9]")
{
    CHECK(calls(run("<tool name=\"write_file\"><arg  name = \"path\" >/s p/a&amp;b.txt</arg><ARG NAME='content'>x</ARG></tool>"))
          == "write_file {\"path\":\"/s p/a&b.txt\",\"content\":\"x\"}\n");
    CHECK(calls(run("<tool name=\"write_file\"><arg name=\"path\">\n  dir/<x>.txt\n</arg><arg name=\"content\">y</arg></tool>"))
          == "write_file {\"path\":\"dir/<x>.txt\",\"content\":\"y\"}\n");
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
    CHECK(calls(cdata) == "doc {\"text\":\"close with </tool>\"}\n");
    CHECK(segments(cdata).ends_with("text \"after\"\n"));

    const auto raw = run("<tool name=\"doc\"><arg name=\"t\">a</tool>b</arg></tool>after");
    CHECK(segments(raw) == "tool_call {\"tool_name\":\"doc\"} \"<arg name=\\\"t\\\">a</tool>b</arg>\"\ntext \"after\"\n");

    const auto comment = run("<tool name=\"doc\"><!-- </tool> --><a>1</a></tool>");
    CHECK(calls(comment) == "doc {\"a\":\"1\"}\n");

    // Self-closing <arg/> opens nothing; </arguments> closes an <arg> left open.
    CHECK(calls(run("<tool name=\"f\"><arg name=\"a\"/><arg name=\"b\">2</arg></tool>")) == "f {\"a\":\"\",\"b\":\"2\"}\n");
    CHECK(segments(run("<tool name=\"f\"><arguments><arg name=\"a\">1</arguments></tool>x"))
          == "tool_call {\"tool_name\":\"f\"} \"<arguments><arg name=\\\"a\\\">1</arguments>\"\ntext \"x\"\n");
}

// ---- marker mode: closing without an end marker, indentation ----

TEST_CASE("xml: a missing end marker closes at </arg> before </arguments> or </tool>", "[xml][markers]")
{
    const auto r = run(write_head + "\n__START_CONTENT__\ndef f():\n    return 1\n        </arg>\n    </arguments>\n</tool>");
    CHECK(test::content_of_type(r.events, segment_type::write_file) == "def f():\n    return 1\n");
    CHECK(calls(r) == "write_file {\"path\":\"/a.py\",\"content\":\"def f():\\n    return 1\\n\"}\n");
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

// ---- limits ----

TEST_CASE("xml: tags, values and lookahead longer than max_tag_size are released", "[xml][limits]")
{
    const xml_options small{.max_tag_size = 64, .parse_tool_calls = true};
    const std::string pad(80, 'x');
    // An opening tag: text.
    const std::string long_tag = "<tool name=\"t\" data=\"" + pad + "\">a</tool>";
    CHECK(segments(run(long_tag, small)) == "text " + boost::json::serialize(boost::json::string(long_tag)) + "\n");
    // A path value: ignored, so the file has no path.
    CHECK(calls(run("<tool name=\"write_file\"><arg name=\"path\">" + pad + "</arg><arg name=\"content\">c</arg></tool>", small))
          == "write_file {} invalid_arguments\n");
    // Whitespace before the start marker: the body is plain.
    const std::string spaces(70, ' ');
    CHECK(test::content_of_type(run(write_head + spaces + "__START_CONTENT__\nq</arg></tool>", small).events,
                                segment_type::write_file) == spaces + "__START_CONTENT__\nq");
    // Whitespace after an end marker: the marker is body.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nq\n__END_CONTENT__" + spaces + "\n__END_CONTENT__</arg></tool>", small).events,
                                segment_type::write_file) == "q\n__END_CONTENT__" + spaces + "\n");
    // Deep indentation is body.
    CHECK(test::content_of_type(run(write_head + "__START_CONTENT__\nq\n" + spaces + "__END_CONTENT__</arg></tool>", small).events,
                                segment_type::write_file) == "q\n" + spaces);
}

TEST_CASE("xml: held bytes stay bounded over 10 MB of prose full of '<'", "[xml][limits][holdback]")
{
    const std::string pieces[] = {
        "a < b ", "<div class=\"tool\">", "</div> ", "<tools>", "<toolbox/> ", "<tool>", "<tool/>", "<write_fil ",
        "<run_bashes>", "<br/>\n", "x<y>z ", "<tool name=\"", "\" <", "<write_file>", "<tool name='' >", "<<<< ",
        "</tool> ", "<run_bash/> ", "<tool " + std::string(200, 'a') + " ",
    };
    std::string prose;
    std::mt19937 rng(7);
    while (prose.size() < 256 * 1024)
        prose += pieces[rng() % std::size(pieces)];
    for (std::size_t cap : {std::size_t{64}, std::size_t{4096}}) {
        handler<xml, null_sink> h(null_sink{}, {}, xml(xml_options{.max_tag_size = cap, .parse_tool_calls = true}));
        std::size_t fed = 0, most = 0;
        const std::size_t total = 10 * 1024 * 1024;
        while (fed < total) {
            const std::size_t at = fed % prose.size();
            const std::size_t n = std::min<std::size_t>({prose.size() - at, total - fed, 1 + rng() % 2048});
            REQUIRE(test::fed_cleanly(h.feed(std::string_view(prose).substr(at, n))));
            fed += n;
            most = std::max(most, h.policy().held_bytes());
        }
        REQUIRE(!h.finalize());
        CHECK(h.invocations().empty());
        INFO("cap " << cap << ", most held " << most);
        CHECK(most < cap + 16);
    }
}

TEST_CASE("xml: held bytes stay bounded over the shared tricky prose", "[xml][limits][holdback]")
{
    test::check_bounded_holdback<xml>(4096 + 16, 10 * 1024 * 1024, xml_options{});
    test::check_bounded_holdback<xml>(64 + 16, 1024 * 1024, xml_options{.max_tag_size = 1, .parse_tool_calls = true});
}

// ---- generated inputs: every kind of call, prose with '<' '>' '{' '[', truncation anywhere ----

TEST_CASE("xml: generated inputs are chunk-invariant and conserve every byte", "[xml][generated]")
{
    const std::string_view xml_calls[] = {
        "<tool name=\"read_file\"><arguments><arg name=\"path\">/a</arg></arguments></tool>",
        "<tool name='Legacy'><path>/b</path><n>1</n></tool>",
        "<tool name=\"write_file\">\n<arguments>\n<arg name=\"path\">/w.py</arg>\n<arg name=\"content\">\n__START_CONTENT__\n"
        "x = [1, {2: 3}]\nif a < b: pass\n__END_CONTENT__ not\n__END_CONTENT__\n  </arg>\n</arguments>\n</tool>",
        "<tool name=\"write_file\"><arg name=\"content\">late <b>path</b></arg><arg name=\"path\">/late</arg></tool>",
        "<tool name=\"patch_file\"><arguments><arg name=\"path\">p</arg><arg name=\"patch\">__START_PATCH__\n-a\n+b\n"
        "</arg>\n</arguments></tool>",
        "<tool name=\"write_file\"><arg name=\"path\">/c</arg><arg name=\"content\"><![CDATA[a</arg>b]]>\n</arg></tool>",
        "<tool name=\"run_bash\"><arguments><arg name=\"command\">ls -la | grep x > out</arg><arg name=\"background\">no</arg>"
        "</arguments></tool>",
        "<write_file path=\"/s.html\"><p>a < b</p></write_file>",
        "<run_bash timeout_seconds=\"3\">\necho '<tool>'\n</run_bash>",
        "<tool name=\"doc\"><arg name=\"t\"><![CDATA[</tool>]]></arg><!-- c --></tool>",
        "<tool name=\"now\"/>",
    };
    const std::string_view prose[] = {
        "Plain words. ", "a < b and c > d. ", "if (x) { y(); } ", "[1, 2] ", "<div class=\"x\">", "</p> ", "<br/> ",
        "<too ", "<tools> ", "\n", "{\"tool\": 1} ", "<tool>", "</tool> ", "<write_fil", "__START_CONTENT__ ",
    };
    for (const auto& input : test::mixed_inputs(xml_calls, 60))
        check_streaming(input);
    std::mt19937 rng(2024);
    for (int i = 0; i < 150; ++i) {
        std::string input;
        for (auto parts = 2 + rng() % 6; parts > 0; --parts)
            input += rng() % 2 == 0 ? xml_calls[rng() % std::size(xml_calls)] : prose[rng() % std::size(prose)];
        if (i % 2 == 1)
            input.resize(rng() % input.size());
        INFO(input);
        check_streaming(input);
        // Only the call a cut falls in can be incomplete: the last one.
        const auto r = test::run_whole<xml>(input, xml_options{});
        for (std::size_t k = 0; k < r.invocations.size(); ++k)
            if (r.invocations[k].status == invocation_status::incomplete)
                CHECK((i % 2 == 1 && k + 1 == r.invocations.size()));
    }
}

TEST_CASE("xml: fragment soup is chunk-invariant and conserves every byte at both caps", "[xml][generated]")
{
    // Pieces of every construct, so that inputs stop, restart and nest them in odd places.
    const std::string frags[] = {
        "<tool name=\"write_file\">", "<tool name=\"patch_file\">", "<tool name=\"run_bash\">", "<tool name=\"g\">",
        "<tool name='x'/>", "<arguments>", "</arguments>", "<arg name=\"path\">", "<arg name=\"content\">",
        "<arg name=\"patch\">", "<arg name=\"command\">", "<arg name=\"background\">", "<arg name=\"timeout_seconds\">",
        "<arg name=\"o\">", "</arg>", "</tool>", "</to", "<arg/>", "__START_CONTENT__", "__END_CONTENT__", "__START_PATCH__",
        "__END_PATCH__", "__END_", "\n", "\r\n", "  ", "\t", "<![CDATA[", "]]>", "<!--", "-->", "<write_file path=\"/p\">",
        "</write_file>", "<run_bash>", "</run_bash>", "<write_file>", "a", "b < c", ">", "<", "/a.py", "&amp;", "<div>",
        "<tools>", "<tool>", std::string(40, 'z'), "\n" + std::string(70, ' '), "<tool name=\"t\" " + std::string(70, 'q') + ">",
    };
    std::mt19937 rng(11);
    for (int i = 0; i < 150; ++i) {
        std::string input;
        for (auto n = 3 + rng() % 30; n > 0; --n)
            input += frags[rng() % std::size(frags)];
        for (std::size_t cap : {std::size_t{64}, std::size_t{4096}})
            check_streaming(input, {.max_tag_size = cap, .parse_tool_calls = i % 5 != 0});
    }
}

// ---- native calls, reset ----

TEST_CASE("xml: native tool calls are assembled as in api_tool_call", "[xml][native]")
{
    handler<xml> h;
    chunk_response c;
    c.content = "Calling <tool name=\"a\"></tool>";
    c.tool_calls = {{0, "call_1", "get_weather", R"({"city":"Paris"})", true}};
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 2);
    CHECK(h.invocations()[0].name == "a");
    CHECK(h.invocations()[1].id == "call_1");
    CHECK(h.invocations()[1].arguments == boost::json::object{{"city", "Paris"}});
}

TEST_CASE("xml: reset starts a fresh stream", "[xml]")
{
    handler<xml> h;
    REQUIRE(!h.feed("<tool name=\"write_file\"><arg name=\"content\">held"));
    h.reset();
    CHECK(h.policy().held_bytes() == 0);
    REQUIRE(!h.feed("<run_bash>ls</run_bash>"));
    REQUIRE(!h.finalize());
    CHECK(segments({test::coalesce(h.events()), {}}) == "run_bash \"ls\"\n");
}
