// The xml policy at its limits (max_tag_size, max_held_body) and with bounded holdback over long
// prose; generated inputs checked for chunk invariance and byte conservation; native calls, reset.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"
#include "parse/formats/xml_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace test_xml_limits {

using namespace toolstream;
using namespace toolstream::test::xml_support;

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
          == "seg_1 write_file {} invalid_arguments\n");
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
    CHECK(test::segments({test::coalesce(h.events()), {}}) == "run_bash \"ls\"\n");
}

} // namespace test_xml_limits
