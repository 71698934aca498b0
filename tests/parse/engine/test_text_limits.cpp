// Held-bytes caps of the text policies: past the cap the bytes are released as text and feed()
// reports error::marker_too_long; the stream goes on and nothing is lost.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/sentinel.hpp>
#include <toolstream/parse/formats/xml.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"

namespace test_text_limits {

using namespace toolstream;

namespace {

template<class Policy, class Options>
void check_cap(Options options, const std::string& overlong, const std::string& call_after)
{
    handler<Policy> h(recording_sink{}, {}, Policy(options));
    error_code first;
    for (char c : overlong)   // byte by byte: the cap must hold whatever the chunking
        if (auto ec = h.feed(std::string_view(&c, 1)); ec && !first)
            first = ec;
    CHECK(first == error::marker_too_long);
    const auto after = h.feed(call_after);
    INFO(after.message());
    REQUIRE(!after);
    REQUIRE(!h.finalize());
    CHECK(test::content_of_type(h.events(), segment_type::text).substr(0, overlong.size()) == overlong);
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].is_complete());
}

} // namespace

TEST_CASE("text limits: an opening longer than the cap is text and reports marker_too_long", "[limits][text]")
{
    xml_options xo;
    xo.max_tag_size = 64;
    check_cap<xml>(xo, "<tool name=\"" + std::string(200, 'x'),
                   "\"> then <tool name=\"read_file\"><arg name=\"path\">/a</arg></tool>");

    json_calls_options jo;
    jo.max_held = 32;
    check_cap<json_calls>(jo, "{" + std::string(100, ' '), R"( {"name":"f","args":{}})");

    sentinel_options so;
    so.max_held = 48;
    check_cap<sentinel>(so, "[[SEG_START {\"type\":\"" + std::string(100, 't'),
                        R"("}]] [[SEG_START {"type":"run_bash"}]]ls[[SEG_END]])");
}

} // namespace test_text_limits
