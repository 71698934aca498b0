// The fast path of the anthropic, openai_responses and ollama converters (fields read while
// parsing, event_sax.hpp) against their DOM path: every event must give the same chunks and the
// same error whichever path takes it, and the usual shapes must take the fast one.
#include "catch_compat.hpp"
#include "support/chunk_recorder.hpp"
#include "support/fixtures.hpp"

#include <toolstream/detail/growth.hpp>
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/detail/event_fields.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_responses.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include <cstddef>
#include <filesystem>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::detail {
struct event_paths_access {
    template<class C, class Emit>
    static error_code tree(C& c, const wire_event& ev, Emit& emit)
    {
        return c.convert_tree(ev, emit);
    }
    template<class C>
    static bool fast_parse(C& c, std::string_view data)
    {
        return c.sax_.parse({}, data) == sax_outcome::done;
    }
};
} // namespace toolstream::detail

namespace test_event_paths {

namespace {

namespace ts = toolstream;
using access = ts::detail::event_paths_access;

struct recorded_event {
    std::string name;
    std::string data;
};

// Feeds `events` to one converter through convert() (fast path first) and to another through
// its DOM path only; both must agree event by event.
template<class Provider>
void same_on_both_paths(const std::vector<recorded_event>& events)
{
    ts::provider_converter<Provider> fast;
    ts::provider_converter<Provider> tree;
    for (std::size_t i = 0; i < events.size(); ++i) {
        CAPTURE(i, events[i].name, events[i].data.substr(0, 300));
        ts::test::chunk_recorder a;
        ts::test::chunk_recorder b;
        const ts::wire_event ev{events[i].name, events[i].data};
        const ts::error_code ea = fast.convert(ev, a);
        const ts::error_code eb = access::tree(tree, ev, b);
        CHECK(ea == eb);
        REQUIRE(a.emitted.size() == b.emitted.size());
        for (std::size_t k = 0; k < a.emitted.size(); ++k)
            CHECK(a.emitted[k].chunk == b.emitted[k].chunk);
    }
}

std::vector<recorded_event> decode(std::string_view body, bool ndjson)
{
    std::vector<recorded_event> out;
    auto visit = [&](const ts::wire_event& ev) { out.push_back({std::string(ev.name), std::string(ev.data)}); };
    if (ndjson) {
        ts::ndjson_decoder d;
        CHECK(!d.write(body, visit));
        CHECK(!d.finish(visit));
    } else {
        ts::sse_decoder d;
        CHECK(!d.write(body, visit));
        CHECK(!d.finish(visit));
    }
    return out;
}

template<class Provider>
void fixtures_agree(const std::string& dir)
{
    const auto root = ts::test::fixtures_dir();
    if (!root) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set: recorded streams skipped");
        return;
    }
    std::size_t streams = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*root / dir)) {
        const auto ext = entry.path().extension();
        if (ext != ".sse" && ext != ".ndjson")
            continue;
        CAPTURE(entry.path().string());
        same_on_both_paths<Provider>(decode(ts::test::read_file(entry.path()), ext == ".ndjson"));
        ++streams;
    }
    CHECK(streams > 0);
}

// `"pad":"xxx…"` long enough that what follows it starts `at` bytes into the payload, so that
// keys and values straddle the 2 KiB writes the fast path feeds Boost.
std::string pad_to(std::string_view prefix, std::size_t at)
{
    std::string s(prefix);
    s += R"("pad":")";
    if (s.size() + 2 < at)
        s.append(at - s.size() - 2, 'x');
    s += R"(",)";
    return s;
}

std::string big_text(std::size_t n)
{
    std::string s;
    const std::string_view unit = R"(caf\u00e9 \"q\" \ud83d\ude00 line\n)";
    while (s.size() < n)
        s += unit;
    return s;
}

} // namespace

TEST_CASE("event paths: every fixture converts alike on the fast and the DOM path", "[event_paths]")
{
    SECTION("anthropic") { fixtures_agree<ts::anthropic>("anthropic"); }
    SECTION("openai_responses") { fixtures_agree<ts::openai_responses>("openai_responses"); }
}

TEST_CASE("event paths: the usual shapes take the fast path, the rare ones the DOM", "[event_paths]")
{
    ts::provider_converter<ts::anthropic> a;
    CHECK(access::fast_parse(a, R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}})"));
    CHECK(access::fast_parse(a, R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a"}})"));
    CHECK(access::fast_parse(a, R"({"type":"content_block_stop","index":1})"));
    CHECK(!access::fast_parse(a, R"({"type":"content_block_delta","index":"0","delta":{}})"));      // index as text
    CHECK(access::fast_parse(a, R"({"type":"content_block_delta","index":1.0,"delta":{}})"));       // a whole double counts
    CHECK(!access::fast_parse(a, R"({"type":"content_block_delta","index":0.5,"delta":{}})"));      // not a count
    CHECK(!access::fast_parse(a, R"({"type":"content_block_delta","index":0,"index":1,"delta":{}})"));   // repeated key
    CHECK(!access::fast_parse(a, R"({"type":"content_block_delta","index":0,"delta":[]})"));
    CHECK(!access::fast_parse(a, R"([1,2])"));
    CHECK(!access::fast_parse(a, R"({"type":"content_block_delta")"));
    CHECK(!access::fast_parse(a, R"({"type":"ping"} x)"));
    CHECK(!access::fast_parse(a, ""));
    CHECK(!access::fast_parse(a, R"("text")"));
    CHECK(!access::fast_parse(a, "12"));

    ts::provider_converter<ts::openai_responses> r;
    CHECK(access::fast_parse(r, R"({"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"x","logprobs":[]})"));
    CHECK(!access::fast_parse(r, R"({"type":"response.created","response":{"id":"r"}})"));

    ts::provider_converter<ts::ollama> o;
    CHECK(access::fast_parse(o, R"({"model":"m","message":{"role":"assistant","content":"x","images":null},"done":false,"error":null})"));
    CHECK(!access::fast_parse(o, R"({"model":"m","message":{"role":"assistant","content":"","tool_calls":[]},"done":false})"));
    CHECK(!access::fast_parse(o, R"({"error":"boom"})"));
    CHECK(!access::fast_parse(o, R"({"model":"m","eval_count":1.5})"));
}

// The DOM path reads everything it needs into its tree, so it frees a large event's buffer before
// the chunk is built (a whole call is then not held twice); a small one stays for the next event.
TEST_CASE("event paths: the DOM path frees a large event once parsed", "[event_paths]")
{
    const auto run = [](auto converter, const std::string& head, const std::string& tail, std::size_t text_bytes) {
        const std::string text(text_bytes, 'x');
        std::string buffer = head + text + tail;
        const std::size_t capacity = buffer.capacity();
        const ts::wire_event ev{{}, buffer, &buffer};
        ts::test::chunk_recorder out;
        REQUIRE(!access::tree(converter, ev, out));
        std::string content;
        for (const auto& chunk : out.chunks)
            content += chunk.content;
        CHECK(content == text);
        return std::pair{capacity, buffer.capacity()};
    };
    const std::string anthropic_head = R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":")";
    const std::string responses_head =
        R"({"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":")";
    for (const std::size_t bytes : {std::size_t{100}, std::size_t{200} << 10}) {
        CAPTURE(bytes);
        const auto [a_before, a_after] = run(ts::provider_converter<ts::anthropic>{}, anthropic_head, R"("}})", bytes);
        const auto [r_before, r_after] = run(ts::provider_converter<ts::openai_responses>{}, responses_head, R"("})", bytes);
        if (bytes < ts::detail::large_buffer) {
            CHECK(a_after == a_before);
            CHECK(r_after == r_before);
        } else {
            CHECK(a_after < ts::detail::large_buffer);
            CHECK(r_after < ts::detail::large_buffer);
        }
    }
}

TEST_CASE("event paths: anthropic shapes agree, usual and odd", "[event_paths]")
{
    const std::string big = big_text(3 << 20);
    std::vector<recorded_event> events = {
        {"message_start", R"({"type":"message_start","message":{"id":"m1","model":"c","usage":{"input_tokens":3}}})"},
        {"content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"caf\u00e9 \ud83d\ude00"}})"},
        {"", R"( { "delta" : { "text" : "late type" , "type" : "text_delta" } , "index" : 0 , "type" : "content_block_delta" } )"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":null}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","text":"b"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":9999,"delta":{"type":"text_delta","text":"x"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"x"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","delta":{"type":"text_delta","text":"no index"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} {})"},
        {"content_block_delta", "not json"},
        {"content_block_stop", R"({"type":"content_block_stop","index":0})"},
        {"content_block_start", R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":1,"extra":{"deep":[{"x":[1,{"y":2}]}]},"delta":{"type":"input_json_delta","partial_json":"1}","more":{"a":1}}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"never started"}})"},
        // keys and values across the 2 KiB writes
        {"content_block_delta", pad_to(R"({"type":"content_block_delta",)", 2040) + R"("index":1,"delta":{"type":"input_json_delta","partial_json":"\u00e9\u00e9\u00e9"}})"},
        {"content_block_delta", pad_to(R"({"type":"content_block_delta",)", 2046) + R"("partial_json_not":1,"index":1,"delta":{"partial_json":"x","type":"input_json_delta"}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":")" + big_text(5000) + R"("}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":")" + big + R"("}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":")" + big + R"("}})"},
        {"content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":")" + big + R"(})"},
        {"content_block_stop", R"({"type":"content_block_stop","index":1})"},
        {"content_block_stop", R"({"type":"content_block_stop","index":1})"},
        {"content_block_stop", R"({"type":"content_block_stop"})"},
        {"ping", R"({"type":"ping"})"},
        {"message_delta", R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":5}})"},
        {"message_stop", R"({"type":"message_stop"})"},
        {"message_start", R"({"type":"message_start","message":{"id":"m2","model":"c"}})"},
        {"message_start", R"({"type":"message_start","message":{"id":"m3","model":"c"}})"},   // a splice
        {"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"after splice"}})"},
        {"error", R"({"type":"error","error":{"type":"overloaded_error","message":"busy"}})"},
    };
    same_on_both_paths<ts::anthropic>(events);
}

TEST_CASE("event paths: openai_responses shapes agree, usual and odd", "[event_paths]")
{
    const std::string big = big_text(2 << 20);
    std::vector<recorded_event> events = {
        {"response.created", R"({"type":"response.created","response":{"id":"r1","model":"g"}})"},
        {"response.output_text.delta", R"({"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"hi \u00e9"})"},
        {"", R"({"delta":"no name","output_index":0,"type":"response.output_text.delta"})"},
        {"response.reasoning_summary_text.delta", R"({"type":"response.reasoning_summary_text.delta","delta":"think"})"},
        {"response.refusal.delta", R"({"type":"response.refusal.delta","delta":"no"})"},
        {"response.output_text.delta", R"({"type":"response.output_text.delta","delta":7})"},
        {"response.output_text.delta", R"({"type":"response.output_text.delta","delta":"a","delta":"b"})"},
        {"response.output_text.delta", R"({"type":"response.output_text.delta","delta":"x","response":{"id":"r2","model":"g"}})"},
        {"response.output_item.added", R"({"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"f"}})"},
        {"response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":1,"delta":"{\"a\":"})"},
        {"response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"1"})"},
        {"response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":99999,"delta":"2"})"},
        {"response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","item_id":"nope","delta":"3"})"},
        {"response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","output_index":1,"delta":")" + big + R"("})"},
        {"response.function_call_arguments.delta", pad_to(R"({"type":"response.function_call_arguments.delta",)", 2044) + R"("output_index":1,"call_id":"c1","delta":"}"})"},
        {"response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","output_index":1,"delta":"x")"},
        {"response.custom_tool_call_input.delta", R"({"type":"response.custom_tool_call_input.delta","output_index":2,"delta":"free text"})"},
        {"response.function_call_arguments.done", R"({"type":"response.function_call_arguments.done","output_index":1,"arguments":"{}"})"},
        {"response.output_item.done", R"({"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":"{}"}})"},
        {"response.completed", R"({"type":"response.completed","response":{"id":"r1","status":"completed","usage":{"input_tokens":1,"output_tokens":2}}})"},
        {"error", R"({"type":"error","message":"quota"})"},
        {"", "[]"},
        {"response.output_text.delta", R"("text")"},
        {"response.output_text.delta", "null"},
    };
    same_on_both_paths<ts::openai_responses>(events);
}

TEST_CASE("event paths: ollama lines agree, usual and odd", "[event_paths]")
{
    const std::string big = big_text(2 << 20);
    std::vector<recorded_event> events = {
        {"", R"({"model":"q","created_at":"t","message":{"role":"assistant","content":"he"},"done":false})"},
        {"", R"({"model":"q","message":{"role":"assistant","content":"","thinking":"hm \u00e9"},"done":false})"},
        {"", R"({"message":{"content":")" + big + R"("},"model":"q","done":false})"},
        {"", pad_to("{", 2045) + R"("message":{"content":"straddle"},"done":false})"},
        {"", R"({"model":"q","message":{"role":"assistant","content":"x","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]},"done":false})"},
        {"", R"({"model":"q","message":{"content":null},"done":"yes"})"},
        {"", R"({"model":"q","message":"text","done":false})"},
        {"", R"({"model":"q","message":{"content":"a","content":"b"}})"},
        {"", R"({"error":"model not found"})"},
        {"", R"({"error":{"message":"boom"}})"},
        {"", R"({"error":null,"message":{"content":"fine"}})"},
        {"", R"({"model":"q","message":{"content":"x"})"},
        {"", R"({"model":"q","message":{"content":""},"done":true,"done_reason":"length","prompt_eval_count":5,"eval_count":7})"},
        {"", R"({"model":"q","done":true,"eval_count":7.0})"},
    };
    same_on_both_paths<ts::ollama>(events);
}

TEST_CASE("event paths: repeated events read as the DOM reads them, whatever the values nobody reads become",
          "[event_paths][event_template]")
{
    // Runs of events of one shape (event_template) in which the varying string, the values the
    // converter never reads (sequence_number, obfuscation, created_at) and, now and then, a field
    // it does read change; valid or not, some adding keys.
    std::mt19937 rng(11);
    const std::string_view pieces[] = {"a", "\xc3\xa9", R"(\")", R"(\\)", R"(\n)", R"(\u00e9)",
                                       "\"", "\\", R"(","x":")", "\x01"};
    const auto value = [&] {
        std::string v;
        for (std::size_t i = rng() % 5; i > 0; --i)
            v += rng() % 5 == 0 ? pieces[rng() % std::size(pieces)] : pieces[rng() % 6];
        return v;
    };
    const std::string_view counters[] = {"7", "8", "123456", "-1", "0", "07", "1.5", "\"9\"", "null"};
    std::vector<recorded_event> responses = {
        {"response.output_item.added",
         R"({"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"f"}})"}};
    std::vector<recorded_event> anthropic = {
        {"content_block_start",
         R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}})"}};
    std::vector<recorded_event> ollama;
    for (int i = 0; i < 400; ++i) {
        const std::string index = rng() % 8 == 0 ? "1" : "0";
        const std::string counter(counters[rng() % std::size(counters)]);
        responses.push_back({"response.function_call_arguments.delta",
                             R"({"type":"response.function_call_arguments.delta","sequence_number":)" + counter +
                                 R"(,"item_id":"fc_1","output_index":)" + index + R"(,"delta":")" + value() +
                                 R"(","obfuscation":")" + value() + R"("})"});
        anthropic.push_back({"content_block_delta", R"({"type":"content_block_delta","index":)" + index +
                                                        R"(,"delta":{"type":"input_json_delta","partial_json":")" +
                                                        value() + R"("}})"});
        ollama.push_back({"", R"({"model":")" + std::string(rng() % 8 == 0 ? "r" : "q") + R"(","created_at":")" + value() +
                                  R"(","message":{"role":"assistant","content":")" + value() + R"("},"done":false})"});
    }
    same_on_both_paths<ts::openai_responses>(responses);
    same_on_both_paths<ts::anthropic>(anthropic);
    same_on_both_paths<ts::ollama>(ollama);
}

} // namespace test_event_paths
