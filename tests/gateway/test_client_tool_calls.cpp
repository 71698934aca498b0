// client_tool_calls: the model's calls of the functions offered for a Responses client's custom and
// namespaced tools, turned back into calls of those tools (no network).
#include "catch_compat.hpp"

#include "../../programs/gateway/responses/client_tool_calls.hpp"

#include <toolstream/detail/utf8.hpp>
#include <toolstream/writers/openai_responses.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test_client_tool_calls {

namespace json = boost::json;
using gateway::responses::client_tool_calls;
using toolstream::argument_fragment;
using toolstream::segment_event;
using toolstream::segment_event_type;
using toolstream::segment_status;
using toolstream::segment_type;
using joined_texts = std::map<std::string, std::string, std::less<>>;

/// What reached the inner sink: owned copies of the segment events but a tool segment's CONTENT,
/// and per segment id its argument fragments and its tool CONTENT, joined.
struct recording_sink {
    struct end_record { std::string arguments_text; std::optional<json::object> arguments; };
    std::vector<toolstream::owned_segment_event> segments;
    std::vector<end_record> ends;   // one per END, in order
    joined_texts arguments, content;
    std::vector<std::string> first_fragments;   // the first few, as they came
    bool split_character = false;   // a fragment or a delta was empty, or not valid UTF-8 on its own
    std::vector<toolstream::finish_kind> finishes;

    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_CONTENT && toolstream::is_tool_segment(e.segment_kind))
            return append(content, e.segment_id, e.delta);
        segments.emplace_back(e);
        if (e.type == segment_event_type::SEGMENT_END)
            ends.push_back({std::string(e.arguments_text),
                            e.arguments != nullptr ? std::optional<json::object>(*e.arguments) : std::nullopt});
    }
    void operator()(const argument_fragment& f)
    {
        if (first_fragments.size() < 8)
            first_fragments.emplace_back(f.json);
        append(arguments, f.segment_id, f.json);
    }
    void operator()(const toolstream::choice_finished& c) { finishes.push_back(c.kind); }

    void append(joined_texts& to, std::string_view id, std::string_view text)
    {
        split_character = split_character || text.empty() || !toolstream::detail::is_valid_utf8(text);
        to[std::string(id)] += text;
    }
    const toolstream::owned_segment_event& end() const
    {
        REQUIRE((!segments.empty() && segments.back().type == segment_event_type::SEGMENT_END));
        return segments.back();
    }
};

using recording_calls = client_tool_calls<recording_sink>;
static_assert(toolstream::event_sink<recording_calls> && toolstream::detail::sink_signatures_checked<recording_calls>());
static_assert(std::invocable<recording_calls&, const argument_fragment&>
              && std::invocable<recording_calls&, const toolstream::choice_finished&>);
static_assert(!std::invocable<recording_calls&, const toolstream::provider_failed&>);   // the inner takes none

const gateway::responses::client_tool_table& tools()
{
    using gateway::responses::tool_kind;
    static const gateway::responses::client_tool_table table{
        {"apply_patch", {tool_kind::custom, "apply_patch", ""}},
        {"shell", {tool_kind::function, "shell", ""}},
        {"files__read", {tool_kind::function, "read", "files"}},
    };
    return table;
}

segment_event tool_event(segment_event_type type, std::string_view id, const json::object* metadata,
                         std::string_view delta = {})
{
    segment_event e;
    e.type = type;
    e.segment_id = id;
    e.segment_kind = segment_type::tool_call;
    e.delta = delta;
    e.metadata = metadata;
    return e;
}

/// A tool call as a pipeline delivers a native one: START, each piece as CONTENT then as a
/// fragment, END. END parses the joined text when it is an object (its metadata `arguments` then
/// holds it) and keeps `status` whatever it is. Without `fragments`, only CONTENT and END carry
/// the text (as to a sink that takes no fragments).
template<class Sink>
void feed_call(Sink& sink, std::string_view id, std::string_view name, const std::vector<std::string_view>& pieces,
               segment_status status = segment_status::complete, std::string_view error = {}, bool fragments = true)
{
    const json::object metadata{{"tool_name", name}};
    sink(tool_event(segment_event_type::SEGMENT_START, id, &metadata));
    std::string text;
    for (const std::string_view piece : pieces) {
        sink(tool_event(segment_event_type::SEGMENT_CONTENT, id, nullptr, piece));
        if (fragments)
            sink(argument_fragment{id, segment_type::tool_call, piece, 0});
        text += piece;
    }
    json::object end_metadata = metadata;
    segment_event end = tool_event(segment_event_type::SEGMENT_END, id, &end_metadata);
    end.status = status;
    end.error = error;
    end.arguments_text = text;
    boost::system::error_code ec;
    if (json::value v = json::parse(text, ec); !ec && v.is_object() && status == segment_status::complete) {
        json::value& kept = end_metadata["arguments"] = std::move(v);
        end.arguments = &kept.get_object();
    }
    sink(end);
}

std::vector<std::string_view> bytes_of(std::string_view s, std::size_t size)
{
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < s.size(); i += size)
        out.push_back(s.substr(i, size));
    return out;
}

recording_sink run(const std::vector<std::string_view>& pieces, segment_status status = segment_status::complete,
                   std::string_view error = {}, bool fragments = true)
{
    client_tool_calls calls(recording_sink{}, &tools());
    feed_call(calls, "call_1", "apply_patch", pieces, status, error, fragments);
    CHECK(calls.open_calls() == 0);
    return std::move(calls.inner());
}

// Newlines, quotes, backslashes, `\/`, `\t`, `\u00e9`, a surrogate pair, raw UTF-8; blanks around tokens.
constexpr std::string_view patch_json =
    " {\n \"input\" :\t\"*** Begin Patch\\n*** Update File: src/a.c\\n@@\\n-printf(\\\"old\\\");\\n"
    "+printf(\\\"caf\\u00e9 \\ud83d\\ude00 \\\\ \\/ \\t\\\");\\n+// raw: \xC3\xBC\xE4\xB8\xAD\xF0\x9F\x98\x80\\n"
    "*** End Patch\\n\" }\r\n";
constexpr std::string_view patch_text =
    "*** Begin Patch\n*** Update File: src/a.c\n@@\n-printf(\"old\");\n"
    "+printf(\"caf\xC3\xA9 \xF0\x9F\x98\x80 \\ / \t\");\n+// raw: \xC3\xBC\xE4\xB8\xAD\xF0\x9F\x98\x80\n"
    "*** End Patch\n";

void check_custom_call(const recording_sink& r, std::string_view expected)
{
    REQUIRE(r.segments.size() == 2);
    for (const auto& e : r.segments) {
        CHECK(e.metadata.at("tool_name") == "apply_patch");
        CHECK(e.metadata.at("free_form") == true);
        CHECK(!e.metadata.contains("arguments"));
    }
    CHECK(r.arguments.size() == 1);
    CHECK(r.arguments.at("call_1") == expected);
    CHECK(r.content.at("call_1") == expected);
    CHECK(!r.split_character);
    CHECK(r.end().status == segment_status::complete);
    CHECK(r.end().error.empty());
    REQUIRE(r.ends.size() == 1);
    CHECK(r.ends[0].arguments_text == expected);
    CHECK(r.ends[0].arguments == json::object{});   // present, and empty
}

struct string_output { std::string* out; void operator()(std::string_view bytes) const { out->append(bytes); } };

/// The `data:` JSON of every server-sent event, in order.
std::vector<json::object> sse_events(std::string_view stream)
{
    std::vector<json::object> events;
    for (std::size_t at = stream.find("data: "); at != std::string_view::npos; at = stream.find("data: ", at)) {
        const std::size_t end = stream.find('\n', at);
        events.push_back(json::parse(stream.substr(at + 6, end - at - 6)).as_object());
        at = end;
    }
    REQUIRE(!events.empty());
    return events;
}

/// One custom call through the adaptor into a Responses writer: the stream it wrote.
std::string written(const std::vector<std::string_view>& pieces)
{
    std::string out;
    client_tool_calls calls(toolstream::openai_responses_writer(string_output{&out}), &tools());
    calls(toolstream::response_started{"chatcmpl-1", "m"});
    feed_call(calls, "call_1", "apply_patch", pieces);
    calls(toolstream::choice_finished{0, "tool_calls", toolstream::finish_kind::tool_calls});
    calls.inner().done();
    CHECK(calls.inner().closed());
    return out;
}

TEST_CASE("client tool calls: a custom call's input is decoded however it is split", "[gateway]")
{
    REQUIRE(json::parse(patch_json).at("input").as_string() == patch_text);   // the fixture itself
    check_custom_call(run({patch_json}), patch_text);
    check_custom_call(run(bytes_of(patch_json, 1)), patch_text);
    for (std::size_t i = 1; i < patch_json.size(); ++i) {
        INFO("split at " << i);
        check_custom_call(run({patch_json.substr(0, i), patch_json.substr(i)}), patch_text);
    }
}

TEST_CASE("client tool calls: a 1 MiB input in 1-byte and 4 KiB fragments", "[gateway]")
{
    std::string big;
    while (big.size() < (std::size_t{1} << 20))
        big += "+line \"q\" \\ caf\xC3\xA9 \xF0\x9F\x98\x80\t/x\n";
    const std::string text = json::serialize(json::object{{"input", big}});
    for (const std::size_t size : {std::size_t{1}, std::size_t{4096}}) {
        INFO("fragments of " << size);
        check_custom_call(run(bytes_of(text, size)), big);
    }
}

TEST_CASE("client tool calls: arguments of the wrong shape end invalid_arguments", "[gateway]")
{
    const std::string prefix = "custom tool 'apply_patch' expects {\"input\": string}: ";
    const std::string long_key = std::string(63, 'k') + "\xC3\xA9" + std::string(16, 'k');   // cut inside `é`
    const std::pair<std::string, std::string> cases[] = {
        {R"({"input":1})", "'input' is not a string"},
        {R"({"path":"a.txt"})", "it has the member 'path' where 'input' was expected"},
        {"{\"" + long_key + "\":1}", "it has the member '" + long_key.substr(0, 63) + "...' where 'input' was expected"},
        {R"({"input":"a","extra":1})", "it has members besides 'input'"},
        {R"({"input":"a"} {})", "there are bytes after the object"},
        {R"({"input":"abc)", "the arguments end inside the object"},
        {R"({"input":"abc" )", "the arguments end inside the object"},
        {R"(["input"])", "the arguments are not a JSON object"},
        {"{}", "it has no member 'input'"},
        {" \n", "the arguments are empty"},
        {R"({"input" "a"})", "the arguments are not valid JSON"},
        {R"({"input":"a\x"})", "'input' is not a valid JSON string (" + boost::system::error_code(json::error::syntax).message() + ")"},
    };
    // Whole, byte by byte, and with no fragments (only END's text): the same verdict.
    for (const auto& [text, why] : cases)
        for (const std::size_t size : {text.size(), std::size_t{1}, std::size_t{0}}) {
            INFO(text << " in fragments of " << size);
            const recording_sink r = run(bytes_of(text, size == 0 ? 1 : size), segment_status::complete, {}, size != 0);
            CHECK(r.end().status == segment_status::invalid_arguments);
            CHECK(r.end().error == prefix + why);
            CHECK(r.end().metadata.at("free_form") == true);
            REQUIRE(r.ends.size() == 1);
            CHECK(!r.ends[0].arguments.has_value());
        }
}

TEST_CASE("client tool calls: an END already not complete keeps its status", "[gateway]")
{
    const recording_sink cut = run({R"({"input":"*** Begin)", R"( Patch\n)"}, segment_status::incomplete,
                                   "the stream ended inside the call");
    CHECK(cut.end().status == segment_status::incomplete);
    CHECK(cut.end().error == "the stream ended inside the call");
    CHECK(cut.end().metadata.at("free_form") == true);
    CHECK(cut.arguments.at("call_1") == "*** Begin Patch\n");
    CHECK(cut.ends.at(0).arguments_text == "*** Begin Patch\n");
    CHECK(!cut.ends.at(0).arguments.has_value());
    const recording_sink broken = run({R"({"input":"a"} x)"}, segment_status::invalid_arguments, "syntax error");
    CHECK(broken.end().status == segment_status::invalid_arguments);
    CHECK(broken.end().error == "syntax error");
    CHECK(broken.ends.at(0).arguments_text == "a");
}

TEST_CASE("client tool calls: a namespaced function gets its own name and namespace", "[gateway]")
{
    client_tool_calls calls(recording_sink{}, &tools());
    const std::string_view args = R"({"path":"a\u00e9.txt"})";
    feed_call(calls, "call_9", "files__read", {args.substr(0, 5), args.substr(5)});
    const recording_sink& r = calls.inner();
    REQUIRE(r.segments.size() == 2);
    for (const auto& e : r.segments) {
        CHECK(e.metadata.at("tool_name") == "read");
        CHECK(e.metadata.at("namespace") == "files");
        CHECK(!e.metadata.contains("free_form"));
    }
    CHECK(r.first_fragments == std::vector<std::string>{std::string(args.substr(0, 5)), std::string(args.substr(5))});
    CHECK(r.content.at("call_9") == args);   // as it was
    CHECK(r.end().status == segment_status::complete);
    CHECK(r.end().metadata.at("arguments") == json::parse(args));
    CHECK(r.ends.at(0).arguments_text == args);
    CHECK(r.ends.at(0).arguments == json::parse(args).as_object());
    CHECK(calls.open_calls() == 0);
}

TEST_CASE("client tool calls: other calls, text and other events pass unchanged", "[gateway]")
{
    client_tool_calls calls(recording_sink{}, &tools());
    client_tool_calls<recording_sink> direct(recording_sink{}, nullptr);   // maps nothing
    auto both = [&](const auto& e) { calls(e), direct(e); };
    segment_event text;
    text.segment_id = "seg_1";
    text.delta = R"({"input":"not a call"})";
    for (const auto type : {segment_event_type::SEGMENT_START, segment_event_type::SEGMENT_CONTENT,
                            segment_event_type::SEGMENT_END}) {
        text.type = type;
        both(text);
    }
    const std::string_view args = R"({"input":"x"})";
    for (const std::string_view name : {"get_weather", "shell"}) {   // unknown; mapped to itself
        feed_call(calls, name, name, {args.substr(0, 3), args.substr(3)});
        feed_call(direct, name, name, {args.substr(0, 3), args.substr(3)});
    }
    both(toolstream::choice_finished{0, "tool_calls", toolstream::finish_kind::tool_calls});

    const recording_sink& r = calls.inner();
    CHECK(r.segments == direct.inner().segments);
    CHECK(r.arguments == direct.inner().arguments);
    CHECK(r.first_fragments == direct.inner().first_fragments);
    CHECK(r.segments.at(1).delta == R"({"input":"not a call"})");
    CHECK(r.segments.at(3).metadata == json::object{{"tool_name", "get_weather"}});
    CHECK(r.segments.at(6).metadata.at("arguments") == json::parse(args));   // the last of 7: shell's END
    CHECK(r.arguments.at("get_weather") == args);
    CHECK(r.content.at("shell") == args);
    CHECK(r.ends.at(1).arguments_text == args);
    CHECK(r.finishes == std::vector{toolstream::finish_kind::tool_calls});
}

TEST_CASE("client tool calls: interleaved calls are decoded apart", "[gateway]")
{
    client_tool_calls calls(recording_sink{}, &tools());
    const std::string second_json = R"({"input":"second \ud83d\ude00 \"call\"\n"})";
    const std::string_view second_text = "second \xF0\x9F\x98\x80 \"call\"\n";
    const json::object patch{{"tool_name", "apply_patch"}}, read{{"tool_name", "files__read"}};
    const std::string_view read_args = R"({"path":"b"})", texts[] = {patch_json, second_json, read_args};
    const std::string_view ids[] = {"c1", "c2", "c3"};
    for (std::size_t k = 0; k < 3; ++k)
        calls(tool_event(segment_event_type::SEGMENT_START, ids[k], k < 2 ? &patch : &read));
    CHECK(calls.open_calls() == 2);
    for (std::size_t i = 0; i < patch_json.size(); ++i)
        for (std::size_t k = 0; k < 3; ++k)
            if (i < texts[k].size())
                calls(argument_fragment{ids[k], segment_type::tool_call, texts[k].substr(i, 1), 0});
    for (std::size_t k = 0; k < 3; ++k) {
        segment_event end = tool_event(segment_event_type::SEGMENT_END, ids[k], k < 2 ? &patch : &read);
        end.arguments_text = texts[k];
        calls(end);
    }
    CHECK(calls.open_calls() == 0);
    const recording_sink& r = calls.inner();
    CHECK(r.arguments == joined_texts{{"c1", std::string(patch_text)}, {"c2", std::string(second_text)},
                                      {"c3", std::string(read_args)}});
    REQUIRE(r.ends.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(r.ends[k].arguments_text == (k == 0 ? patch_text : k == 1 ? second_text : read_args));
        CHECK(r.segments.at(3 + k).status == segment_status::complete);
    }
    CHECK(r.segments.at(4).metadata.at("free_form") == true);
    CHECK(r.segments.at(5).metadata.at("namespace") == "files");
}

TEST_CASE("client tool calls: the Responses writer writes a custom_tool_call", "[gateway]")
{
    for (const std::size_t size : {patch_json.size(), std::size_t{7}, std::size_t{1}}) {
        INFO("fragments of " << size);
        const std::vector<json::object> events = sse_events(written(bytes_of(patch_json, size)));
        std::string deltas, done_input;
        std::vector<json::object> items;
        for (const auto& e : events) {
            const std::string_view type = e.at("type").as_string();
            if (type == "response.custom_tool_call_input.delta")
                deltas += e.at("delta").as_string();
            else if (type == "response.custom_tool_call_input.done")
                done_input = e.at("input").as_string();
            else if (type == "response.output_item.done")
                items.push_back(e.at("item").as_object());
            CHECK(type != "response.function_call_arguments.delta");
        }
        CHECK(deltas == patch_text);
        CHECK(done_input == patch_text);
        REQUIRE(items.size() == 1);
        CHECK(items[0].at("type") == "custom_tool_call");
        CHECK(items[0].at("name") == "apply_patch");
        CHECK(items[0].at("call_id") == "call_1");
        CHECK(items[0].at("input").as_string() == patch_text);
        CHECK(events.back().at("type") == "response.completed");
        const json::array& output = events.back().at("response").at("output").as_array();
        REQUIRE(output.size() == 1);
        CHECK(output[0].at("input").as_string() == patch_text);
    }
    // A wrong shape fails the response, naming the tool and the fault.
    const json::object last = sse_events(written({R"({"input":"a","path":"b"})"})).back();
    CHECK(last.at("type") == "response.failed");
    const std::string_view message = last.at("response").at("error").at("message").as_string();
    CHECK(message.find("custom tool 'apply_patch' expects {\"input\": string}: it has members besides 'input'")
          != std::string_view::npos);
}

} // namespace test_client_tool_calls
