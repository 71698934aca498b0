// The mistakes the API catches at compile time (tests/compile_fail/ has the failing side, run by
// ctest), what it accepts, and plain model text by name through runtime_pipeline.
#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/pipeline/text_pipeline.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/sinks.hpp>

#include "catch_compat.hpp"
#include "support/event_log.hpp"
#include "support/events.hpp"

#include <string>
#include <vector>

namespace test_compile_time_checks {

using namespace toolstream;

namespace {

struct const_ref_sink {
    std::string fragments;
    void operator()(const segment_event&) {}
    void operator()(const argument_fragment& f) { fragments += f.json; }
};
struct by_value_sink {
    std::string fragments;
    void operator()(const segment_event&) {}
    void operator()(argument_fragment f) { fragments += f.json; }
};
struct mutable_ref_sink {
    void operator()(const segment_event&) {}
    void operator()(argument_fragment&) {}
};
struct rvalue_ref_sink {
    void operator()(const segment_event&) {}
    void operator()(consumed_markup&&) {}
};
struct segments_only_sink {
    void operator()(const segment_event&) {}
};

constexpr std::string_view xml_call =
    R"(Before <tool name="get_weather"><arg name="city">Paris</arg></tool> after.)";

} // namespace

TEST_CASE("a sink that takes a kind only by mutable or rvalue reference is a near miss", "[sinks][compile_time]")
{
    STATIC_REQUIRE(detail::near_miss_of<mutable_ref_sink, argument_fragment>);
    STATIC_REQUIRE(detail::near_miss_of<rvalue_ref_sink, consumed_markup>);
    // Accepted: const reference, by value, not at all, and a generic lambda.
    STATIC_REQUIRE(!detail::near_miss_of<const_ref_sink, argument_fragment>);
    STATIC_REQUIRE(!detail::near_miss_of<by_value_sink, argument_fragment>);
    STATIC_REQUIRE(!detail::near_miss_of<segments_only_sink, argument_fragment>);
    const auto generic = [](const auto&) {};
    STATIC_REQUIRE(!detail::near_miss_of<decltype(generic), argument_fragment>);
    STATIC_REQUIRE(detail::sink_signatures_checked<const_ref_sink>());
    STATIC_REQUIRE(detail::sink_signatures_checked<test::event_log>());
}

TEST_CASE("a sink taking fragments by const reference or by value receives them", "[sinks][compile_time]")
{
    handler<xml, const_ref_sink> by_ref;
    handler<xml, by_value_sink> by_value;
    REQUIRE(!by_ref.feed(xml_call));
    REQUIRE(!by_value.feed(xml_call));
    REQUIRE(!by_ref.finalize());
    REQUIRE(!by_value.finalize());
    REQUIRE(by_ref.invocations().size() == 1);
    CHECK(by_ref.sink().fragments == R"({"city":"Paris"})");
    CHECK(by_value.sink().fragments == by_ref.sink().fragments);
}

TEST_CASE("runtime_pipeline takes \"text\": plain model text through the named parser", "[runtime_pipeline][text]")
{
    for (const auto& pieces : test::chunkings(xml_call)) {
        // The reference: the same pieces through a handler.
        handler<xml, test::event_log> reference;
        for (auto piece : pieces)
            REQUIRE(!test::with_exact_copy(piece, [&](std::string_view p) { return reference.feed(p); }));
        REQUIRE(!reference.finalize());

        auto made = runtime_pipeline<test::event_log>::create("text", "xml");
        REQUIRE(made);
        auto& p = **made;
        CHECK(p.provider_name() == "text");
        CHECK(p.wire_framing() == framing::text);
        for (auto piece : pieces)
            REQUIRE(!p.write(piece));
        REQUIRE(!p.finish());
        const auto& lines = p.sink().lines;
        REQUIRE(lines.size() == reference.sink().lines.size() + 2);
        CHECK(lines.front() == "RESPONSE  ");
        CHECK(lines.back() == "FINISH 0  \"tool_calls\"");
        CHECK(std::vector<std::string>(lines.begin() + 1, lines.end() - 1) == reference.sink().lines);
        CHECK(p.sink().markup == reference.sink().markup);
        CHECK(p.sink().violations().empty());

        const stream_summary s = p.summary();
        REQUIRE(s.choices.size() == 1);
        REQUIRE(s.choices[0].tool_calls.size() == 1);
        CHECK(s.choices[0].tool_calls[0].name == "get_weather");
        CHECK(s.choices[0].tool_calls[0].arguments == reference.invocations()[0].arguments);
        CHECK(!s.choices[0].finish_reason);
        CHECK(!s.usage);
        CHECK(!s.error);
        CHECK(p.write("more") == make_error_code(error::feed_after_finalize));
    }
}

TEST_CASE("a text pipeline without calls finishes with stop and collects its text", "[runtime_pipeline][text]")
{
    pipeline_options options;
    options.collect_text = true;
    auto made = runtime_pipeline<test::event_log>::create("text", "hermes", test::event_log{}, options);
    REQUIRE(made);
    REQUIRE(!(*made)->write("Just an answer, "));
    REQUIRE(!(*made)->write("no tools."));
    REQUIRE(!(*made)->finish());
    CHECK((*made)->sink().lines.back() == "FINISH 0  \"stop\"");
    const stream_summary s = (*made)->summary();
    REQUIRE(s.choices.size() == 1);
    CHECK(s.choices[0].text == "Just an answer, no tools.");
    CHECK(s.choices[0].tool_calls.empty());
}

TEST_CASE("an empty text still starts and finishes its one choice", "[runtime_pipeline][text]")
{
    text_pipeline<xml, test::event_log> p;
    REQUIRE(!p.finish());
    CHECK(p.sink().lines == std::vector<std::string>{"RESPONSE  ", "FINISH 0  \"stop\""});
    CHECK(p.summary().choices.size() == 1);
}

TEST_CASE("runtime_pipeline's names: text and the providers, nothing else", "[runtime_pipeline][text]")
{
    CHECK(runtime_pipeline<>::create("text", "no_such_parser").error() == make_error_code(error::unknown_parser));
    CHECK(runtime_pipeline<>::create("texts", "xml").error() == make_error_code(error::unknown_provider));
    CHECK(runtime_pipeline<>::create("", "xml").error() == make_error_code(error::unknown_provider));
    for (auto name : provider_names) {
        auto made = runtime_pipeline<>::create(name, "xml");
        REQUIRE(made);
        CHECK((*made)->provider_name() == name);
        CHECK((*made)->wire_framing() != framing::text);
    }
}

} // namespace test_compile_time_checks
