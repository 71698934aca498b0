#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>

#include "catch_compat.hpp"

#include <map>
#include <string>
#include <vector>

namespace test_sinks {

using namespace toolstream;

namespace {

struct invocations_only {
    std::vector<std::string>* names;
    void operator()(const tool_invocation& i) const { names->push_back(i.name); }
};

struct not_a_sink {
    void operator()(int) const {}
};

struct not_a_policy {
    void on_content(std::string_view) {}
};

chunk_response one_call(std::string name, std::string args)
{
    chunk_response c;
    c.tool_calls.push_back({0, "call_1", std::move(name), std::move(args), true});
    return c;
}

} // namespace

static_assert(event_sink<recording_sink> && segment_event_sink<recording_sink> && invocation_sink<recording_sink>);
static_assert(event_sink<null_sink> && !invocation_sink<null_sink>);
static_assert(event_sink<invocations_only> && !segment_event_sink<invocations_only>);
static_assert(!event_sink<not_a_sink>);
static_assert(event_sink<tee_sink<recording_sink, invocations_only>>);
static_assert(parser_policy<api_tool_call>);
static_assert(!parser_policy<not_a_policy>);
static_assert(!std::is_polymorphic_v<handler<api_tool_call>>);

TEST_CASE("recording sink keeps owning events and invocations", "[sinks]")
{
    handler<api_tool_call> h;
    REQUIRE(!h.feed(one_call("get_time", "{}")));
    REQUIRE(h.sink().events.size() == 3);
    CHECK(h.sink().invocations.size() == 1);
    CHECK(h.sink().invocations == h.invocations());
}

TEST_CASE("callback sink forwards only what the callable takes", "[sinks]")
{
    std::vector<std::string> seen;
    auto on_event = [&](const segment_event& e) { seen.push_back(std::string(e.segment_id)); };
    handler<api_tool_call, callback_sink<decltype(on_event)>> events_only(callback_sink{on_event});
    REQUIRE(!events_only.feed(one_call("f", "{}")));
    CHECK(seen == std::vector<std::string>{"call_1", "call_1", "call_1"});
    CHECK(events_only.invocations().size() == 1);   // built for invocations() even if the sink skips them

    std::vector<std::string> names;
    handler<api_tool_call, invocations_only> invs(invocations_only{&names});
    REQUIRE(!invs.feed(one_call("f", "{}")));
    CHECK(names == std::vector<std::string>{"f"});
}

TEST_CASE("tee sink sends each event kind to the sinks that take it", "[sinks]")
{
    std::vector<std::string> names;
    using tee = tee_sink<recording_sink, invocations_only>;
    handler<api_tool_call, tee> h(tee{recording_sink{}, invocations_only{&names}});
    REQUIRE(!h.feed(one_call("a", "{}")));
    CHECK(h.sink().first().events.size() == 3);
    CHECK(h.sink().first().invocations.size() == 1);
    CHECK(names == std::vector<std::string>{"a"});
}

TEST_CASE("null sink discards events while invocations are still built", "[sinks]")
{
    handler<api_tool_call, null_sink> h;
    REQUIRE(!h.feed(one_call("write_file", R"({"path":"p","content":"c"})")));
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments.at("content") == "c");
}

namespace {

// Counts each kind of event it gets.
struct kind_counter {
    std::map<std::string, int>* counts;
    void operator()(const segment_event&) const { ++(*counts)["segment_event"]; }
    void operator()(const tool_invocation&) const { ++(*counts)["tool_invocation"]; }
    void operator()(const argument_fragment&) const { ++(*counts)["argument_fragment"]; }
    void operator()(const consumed_markup&) const { ++(*counts)["consumed_markup"]; }
    void operator()(const response_started&) const { ++(*counts)["response_started"]; }
    void operator()(const choice_finished&) const { ++(*counts)["choice_finished"]; }
    void operator()(const usage_reported&) const { ++(*counts)["usage_reported"]; }
    void operator()(const provider_failed&) const { ++(*counts)["provider_failed"]; }
};

} // namespace

TEST_CASE("sinks: the pipeline, the handler, tee_sink and callback_sink forward every kind of event", "[sinks]")
{
    // xml markup in the content, a native call, usage, then a provider error: every kind occurs.
    const std::string sse =
        R"(data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"content":"<tool name=\"f\"><arguments><arg name=\"a\">1</arg></arguments></tool>"}}]})"
        "\n\n"
        R"(data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":2}})"
        "\n\n"
        R"(data: {"error":{"message":"boom"}})"
        "\n\n";
    std::map<std::string, int> direct, through_callback;
    auto generic = [&](const auto& e) { kind_counter{&through_callback}(e); };
    using sink_type = tee_sink<kind_counter, callback_sink<decltype(generic)>>;
    pipeline<openai_chat, xml, sink_type> p(sink_type{kind_counter{&direct}, callback_sink{generic}});
    (void)p.write(sse);
    (void)p.finish();
    for (const char* kind : {"segment_event", "tool_invocation", "argument_fragment", "consumed_markup",
                             "response_started", "choice_finished", "usage_reported", "provider_failed"}) {
        INFO(kind);
        CHECK(direct[kind] > 0);
        CHECK(through_callback[kind] == direct[kind]);
    }
    CHECK(direct["tool_invocation"] == 2);
    CHECK(direct["response_started"] == 1);
}

} // namespace test_sinks
