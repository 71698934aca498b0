// toolset::dispatch and the dispatching sink: handlers run only for complete calls that convert,
// and a sink runs each call the moment its invocation arrives.
#include "tools/tool_types.hpp"

#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>
#include <toolstream/tools/toolset.hpp>

#include <boost/json/parse.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace test_dispatch {

using namespace toolstream;
using namespace tools_test;

namespace {

const auto tools = toolset{
    tool<write_file_args>("write_file", "Write a file"),
    tool<search_args>("search", "Search the web"),
};

tool_invocation call(std::string name, std::string arguments, invocation_status status = invocation_status::complete)
{
    tool_invocation inv;
    inv.id = "call_7";
    inv.name = std::move(name);
    inv.arguments = boost::json::parse(arguments).as_object();
    inv.status = status;
    inv.error = status == invocation_status::complete ? "" : "cut";
    return inv;
}

/// Records which handler ran, with what.
struct recording_handlers {
    std::vector<std::string>* log;
    void operator()(const write_file_args& a, const tool_invocation& inv) const { log->push_back(inv.id + " write " + a.path); }
    void operator()(search_args a) const { log->push_back("search " + a.query); }
};

using void_sink = dispatching_sink<decltype(tools), recording_handlers, detail::ignore_dispatch_result>;
static_assert(invocation_sink<void_sink> && event_sink<void_sink> && !segment_event_sink<void_sink>);
static_assert(handles_arguments<recording_handlers, write_file_args> && handles_arguments<recording_handlers, search_args>);
static_assert(!handles_arguments<recording_handlers, order_args>);

} // namespace

TEST_CASE("dispatch runs the handler of a complete call with typed arguments", "[tools][dispatch]")
{
    std::vector<std::string> log;
    auto r = tools.dispatch(call("write_file", R"({"path":"a.txt","content":"x"})"), recording_handlers{&log});
    static_assert(std::is_same_v<decltype(r), dispatch_result<void>>);
    CHECK(r);
    CHECK(r.status == dispatch_status::handled);
    CHECK(r.error == argument_error{});
    CHECK(log == std::vector<std::string>{"call_7 write a.txt"});

    CHECK(tools.dispatch(call("search", R"({"query":"boost","sites":["a.org"]})"), recording_handlers{&log}));
    CHECK(log.back() == "search boost");
}

TEST_CASE("dispatch refuses unknown, incomplete and unconvertible calls without running a handler", "[tools][dispatch]")
{
    std::vector<std::string> log;
    const recording_handlers handlers{&log};

    auto unknown = tools.dispatch(call("delete_everything", "{}"), handlers);
    CHECK(!unknown);
    CHECK(unknown.status == dispatch_status::unknown_tool);
    CHECK(unknown.error.message == "unknown tool: delete_everything");

    auto incomplete = tools.dispatch(call("write_file", R"({"path":"a","content":"b"})", invocation_status::incomplete), handlers);
    CHECK(incomplete.status == dispatch_status::not_complete);
    CHECK(incomplete.error.code == error::incomplete_call);

    auto invalid = tools.dispatch(call("write_file", "{}", invocation_status::invalid_arguments), handlers);
    CHECK(invalid.status == dispatch_status::not_complete);
    CHECK(invalid.error.code == error::invalid_arguments);

    auto bad = tools.dispatch(call("search", R"({"query":"q","limit":"ten","sites":["a"]})"), handlers);
    CHECK(bad.status == dispatch_status::bad_arguments);
    CHECK(bad.error.to_string() == "/limit: expected integer");

    // An unknown name that is also incomplete is reported as unknown: no tool could take it.
    CHECK(tools.dispatch(call("nope", "{}", invocation_status::incomplete), handlers).status == dispatch_status::unknown_tool);
    CHECK(log.empty());
}

TEST_CASE("dispatch returns the handlers' common result", "[tools][dispatch]")
{
    auto handlers = overloaded{
        [](const write_file_args& a) { return std::string("wrote ") + a.path; },
        [](const search_args& a) { return "searched " + a.query; },
    };
    auto r = tools.dispatch(call("write_file", R"({"path":"f","content":""})"), handlers);
    static_assert(std::is_same_v<decltype(r), dispatch_result<std::string>>);
    REQUIRE(r.value);
    CHECK(*r.value == "wrote f");
    CHECK(!tools.dispatch(call("x", "{}"), handlers).value);

    // Handlers that disagree (int and void) give no value.
    auto mixed = overloaded{[](const write_file_args&) { return 1; }, [](const search_args&) {}};
    static_assert(std::is_same_v<decltype(tools.dispatch(call("x", "{}"), mixed)), dispatch_result<void>>);
    // Convertible results meet at their common type.
    auto numbers = overloaded{[](const write_file_args&) { return 1; }, [](const search_args&) { return 2.5; }};
    auto n = tools.dispatch(call("search", R"({"query":"q","sites":["a"]})"), numbers);
    static_assert(std::is_same_v<decltype(n.value), std::optional<double>>);
    CHECK(n.value == 2.5);
}

TEST_CASE("the dispatching sink runs a call as soon as its invocation arrives", "[tools][dispatch]")
{
    std::vector<std::string> log;
    auto on_result = [&](const tool_invocation& inv, const dispatch_result<void>& r) {
        log.push_back(inv.name + " " + boost::describe::enum_to_string(r.status, "?"));
    };
    handler<api_tool_call, decltype(tools.sink(recording_handlers{&log}, on_result))> h(tools.sink(recording_handlers{&log}, on_result));

    chunk_response c;
    c.content = "Writing it.";
    REQUIRE(!h.feed(c));
    c.content.clear();
    c.tool_calls.push_back({0, "call_1", "write_file", R"({"path":"a.txt","content":"hi"})", true});
    REQUIRE(!h.feed(c));
    // The call ran before the model said anything else.
    CHECK(log == std::vector<std::string>{"call_1 write a.txt", "write_file handled"});

    c.tool_calls = {{1, "call_2", "search", R"({"query":"q","sites":[]})", true}};
    REQUIRE(!h.feed(c));
    CHECK(log.back() == "search bad_arguments");
    c.tool_calls = {{2, "call_3", "write_file", R"({"path":"b.txt")", false}};
    REQUIRE(!h.feed(c));
    CHECK(log.size() == 3);
    REQUIRE(!h.finalize());
    CHECK(log.back() == "write_file not_complete");   // the stream ended inside it: never run
    CHECK(log.size() == 4);
}

TEST_CASE("the dispatching sink in an Anthropic pipeline runs the tool before the message ends", "[tools][dispatch]")
{
    const std::string stream =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write_file\",\"input\":{}}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \\\"a.txt\\\", \\\"con\"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"tent\\\": \\\"hi\\\"}\"}}\n\n"
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n";
    const std::string after =
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Done.\"}}\n\n"
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\n"
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    for (const auto& pieces : test::chunkings(stream, 2)) {
        std::vector<std::string> log;
        pipeline<anthropic, api_tool_call, decltype(tools.sink(recording_handlers{&log}))> p(tools.sink(recording_handlers{&log}));
        for (auto piece : pieces)
            REQUIRE(!test::with_exact_copy(piece, [&](std::string_view s) { return p.write(s); }));
        // Every byte of the tool block is in; the message is not over.
        REQUIRE(log == std::vector<std::string>{"toolu_1 write a.txt"});
        REQUIRE(!p.write(after));
        REQUIRE(!p.finish());
        REQUIRE(log.size() == 1);
    }
}

TEST_CASE("the bundled demo stream dispatches its write_file call once, at every chunking", "[tools][dispatch]")
{
    std::ifstream in(std::string(TOOLSTREAM_TEST_DATA_DIR) + "/../../examples/data/write_file_demo.sse", std::ios::binary);
    REQUIRE(in);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    for (std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{64}, bytes.size()}) {
        std::vector<std::string> log;
        pipeline<openai_chat, api_tool_call, decltype(tools.sink(recording_handlers{&log}))> p(tools.sink(recording_handlers{&log}));
        for (std::size_t at = 0; at < bytes.size(); at += piece)
            REQUIRE(!p.write(std::string_view(bytes).substr(at, piece)));
        REQUIRE(!p.finish());
        CHECK(log == std::vector<std::string>{"call_demo_1 write inventory.py"});
    }
}

} // namespace test_dispatch
