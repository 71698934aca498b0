#include <toolstream/concepts.hpp>
#include <toolstream/handler.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/sinks.hpp>

#include "catch_compat.hpp"

#include <string>
#include <vector>

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
