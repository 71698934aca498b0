// Limits of native tool-call assembly: each gives its error through feed(), keeps what was
// emitted before it, and lets the stream go on.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "catch_compat.hpp"

#include <boost/json/serialize.hpp>

namespace test_limits {

using namespace toolstream;

namespace {

native_call_limits small_limits()
{
    native_call_limits l;
    l.max_calls = 10;
    l.max_argument_bytes = 100;
    l.max_depth = 8;
    return l;
}

chunk_response delta(std::size_t index, std::string name, std::string args, bool complete = false)
{
    chunk_response c;
    c.tool_calls.push_back({index, "", std::move(name), std::move(args), complete});
    return c;
}

} // namespace

TEST_CASE("limits: calls past max_calls are skipped with too_many_calls", "[limits]")
{
    handler<api_tool_call> h(recording_sink{}, handler_options{.segment_id_prefix = {}, .choice = 0, .native_limits = small_limits()});
    std::size_t refused = 0;
    for (std::size_t i = 0; i < 2000; ++i)
        if (h.feed(delta(i, "f", "{}", true)) == error::too_many_calls)
            ++refused;
    CHECK(refused == 1990);
    CHECK(h.invocations().size() == 10);
    // A call admitted earlier still takes fragments.
    REQUIRE(!h.finalize());
    CHECK(h.invocations().back().is_complete());
}

TEST_CASE("limits: arguments past max_argument_bytes end the call invalid", "[limits]")
{
    for (const std::string name : {"get_weather", "write_file"}) {
        handler<api_tool_call> h(recording_sink{}, handler_options{.segment_id_prefix = {}, .choice = 0, .native_limits = small_limits()});
        const std::string head = name == "write_file" ? R"({"path":"p","content":")" : R"({"q":")";
        CHECK(!h.feed(delta(0, name, head)));
        const auto events_before = h.events().size();
        CHECK(h.feed(delta(0, "", std::string(200, 'x'))) == error::arguments_too_large);
        CHECK(!h.feed(delta(0, "", "more", true)));   // ignored: the call has ended
        REQUIRE(!h.finalize());
        REQUIRE(h.invocations().size() == 1);
        const auto& inv = h.invocations()[0];
        CHECK(inv.status == invocation_status::invalid_arguments);
        CHECK(inv.error == make_error_code(error::arguments_too_large).message());
        CHECK(inv.arguments_raw == head);
        REQUIRE(h.events().size() >= events_before);
        CHECK(h.events().back().status == segment_status::invalid_arguments);
    }
}

TEST_CASE("limits: arguments nested past max_depth are invalid, with nesting_too_deep", "[limits]")
{
    const std::string deep = std::string(20, '[') + std::string(20, ']');
    for (const auto& [name, args] : {std::pair<std::string, std::string>{"f", R"({"a":)" + deep + "}"},
                                     {"write_file", R"({"path":"p","content":"c","x":)" + deep + "}"}}) {
        handler<api_tool_call> h(recording_sink{}, handler_options{.segment_id_prefix = {}, .choice = 0, .native_limits = small_limits()});
        REQUIRE(h.feed(delta(0, name, args, true)) == error::nesting_too_deep);
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].status == invocation_status::invalid_arguments);
        CHECK(h.invocations()[0].error == make_error_code(error::nesting_too_deep).message());
    }
    // Within the limit the same shape is fine.
    handler<api_tool_call> ok(recording_sink{}, handler_options{.segment_id_prefix = {}, .choice = 0, .native_limits = small_limits()});
    REQUIRE(!ok.feed(delta(0, "f", R"({"a":[[[1]]]})", true)));
    CHECK(ok.invocations().at(0).is_complete());
}

TEST_CASE("limits: the default depth accepts the 64 levels Boost.JSON's own default would refuse", "[limits]")
{
    const std::string nested = std::string(40, '[') + std::string(40, ']');
    handler<api_tool_call> h;
    REQUIRE(!h.feed(delta(0, "f", R"({"a":)" + nested + "}", true)));
    CHECK(h.invocations().at(0).is_complete());
}

} // namespace test_limits
