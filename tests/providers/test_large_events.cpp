// Large events through every provider's decoder and converter (issue 10, §1): 100 events of
// 4 KiB, 64 KiB and 1 MiB, and 3 of 8 MiB, as text and as tool-call arguments. Before the fix
// the payload parser's arena doubled its next block with every payload over 4 KiB, and about 23
// such events threw std::bad_alloc out of convert().
#include <toolstream/providers/anthropic.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/providers/openai_responses.hpp>

#include "catch_compat.hpp"
#include "providers/large_streams.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace test_large_events {

namespace {

using namespace toolstream;
using test::large::expected_output;
using test::large::stream_shape;

/// How the events carry the body.
enum class carried {
    text,              ///< content deltas
    argument_deltas,   ///< one call whose argument text arrives in pieces (or Gemini partialArgs)
    whole_calls,       ///< one complete call per event (Gemini `args`, Ollama `arguments`)
};

struct size_case {
    std::size_t bytes;
    std::size_t count;
};
constexpr size_case sizes[] = {{4u << 10, 100}, {64u << 10, 100}, {1u << 20, 100}, {8u << 20, 3}};
constexpr std::size_t write_size = 64u << 10;

/// A body and its escapes, made once per size for the whole file.
struct body_forms {
    std::string raw;
    std::string once;    // escaped: a JSON string's text
    std::string twice;   // escaped again: JSON text carried inside a JSON string
};

const body_forms& body_of(std::size_t bytes)
{
    static std::map<std::size_t, body_forms> cache;
    auto [it, fresh] = cache.try_emplace(bytes);
    if (fresh) {
        it->second.raw = test::large::body(bytes);
        it->second.once = test::large::escaped(it->second.raw);
        it->second.twice = test::large::escaped(it->second.once);
    }
    return it->second;
}

constexpr std::string_view args_head = R"({"content":")";
constexpr std::string_view args_tail = R"("})";

/// The wire text of one repeated event's payload piece: the tag, then the body as the dialect
/// writes it (escaped once in a JSON string; twice when the string holds argument JSON text).
std::string wire_unit(const body_forms& b, bool argument_text)
{
    return std::string(test::large::tag_template) + (argument_text ? b.twice : b.once);
}

/// Per provider: the stream carrying `b` as `how`, or nothing when the dialect has no such form.
template<class Provider>
std::optional<stream_shape> shape_of(carried how, const body_forms& b);

// The Chat Completions shape; Mistral sends tool_calls without `index` (their position numbers them).
std::optional<stream_shape> chat_shape(carried how, const body_forms& b, bool with_index, auto builder)
{
    const std::string index = with_index ? R"("index":0,)" : "";
    const auto choice = [](const std::string& delta, std::string_view finish = "null") {
        return R"({"id":"chatcmpl-1","model":"m","choices":[{"index":0,"delta":)" + delta + R"(,"finish_reason":)"
            + std::string(finish) + "}]}";
    };
    const auto arguments = [&](std::string_view text, std::string_view extra = {}) {
        return R"({"tool_calls":[{)" + index + std::string(extra) + R"("function":{)"
            + (extra.empty() ? "" : R"("name":"write_file",)") + R"("arguments":")" + std::string(text) + R"("}}]})";
    };
    if (how == carried::text)
        return builder.repeated(choice(R"({"content":")" + wire_unit(b, false) + R"("})"))
            .epilogue(choice("{}", R"("stop")"))
            .done();
    if (how == carried::argument_deltas)
        return builder.prologue(choice(arguments(R"({\"content\":\")", R"("id":"call_1","type":"function",)")))
            .repeated(choice(arguments(wire_unit(b, true))))
            .epilogue(choice(arguments(R"(\"})")))
            .epilogue(choice("{}", R"("tool_calls")"))
            .done();
    return std::nullopt;
}

template<>
std::optional<stream_shape> shape_of<openai_chat>(carried how, const body_forms& b)
{
    return chat_shape(how, b, true, test::large::shape_builder<openai_chat>{});
}

template<>
std::optional<stream_shape> shape_of<mistral>(carried how, const body_forms& b)
{
    return chat_shape(how, b, false, test::large::shape_builder<mistral>{});
}

template<>
std::optional<stream_shape> shape_of<openai_responses>(carried how, const body_forms& b)
{
    test::large::shape_builder<openai_responses> s;
    s.prologue(R"({"type":"response.created","response":{"id":"resp_1","model":"m","status":"in_progress"}})",
               "response.created");
    const auto arguments_delta = [](std::string_view text) {
        return R"({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":")"
            + std::string(text) + R"("})";
    };
    if (how == carried::text) {
        s.repeated(R"({"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":")"
                       + wire_unit(b, false) + R"("})",
                   "response.output_text.delta");
    } else if (how == carried::argument_deltas) {
        s.prologue(R"({"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"write_file","arguments":""}})",
                   "response.output_item.added")
            .prologue(arguments_delta(R"({\"content\":\")"), "response.function_call_arguments.delta")
            .repeated(arguments_delta(wire_unit(b, true)), "response.function_call_arguments.delta")
            .epilogue(arguments_delta(R"(\"})"), "response.function_call_arguments.delta")
            .epilogue(R"({"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0})",
                      "response.function_call_arguments.done");
    } else {
        return std::nullopt;
    }
    return s.epilogue(R"({"type":"response.completed","response":{"id":"resp_1","status":"completed"}})",
                      "response.completed")
        .done();
}

template<>
std::optional<stream_shape> shape_of<anthropic>(carried how, const body_forms& b)
{
    test::large::shape_builder<anthropic> s;
    s.prologue(R"({"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":1}}})",
               "message_start");
    const auto delta = [](std::string_view inner) {
        return R"({"type":"content_block_delta","index":0,"delta":)" + std::string(inner) + "}";
    };
    std::string_view stop_reason = "end_turn";
    if (how == carried::text) {
        s.prologue(R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})",
                   "content_block_start")
            .repeated(delta(R"({"type":"text_delta","text":")" + wire_unit(b, false) + R"("})"), "content_block_delta");
    } else if (how == carried::argument_deltas) {
        const auto json = [&](std::string_view text) {
            return delta(R"({"type":"input_json_delta","partial_json":")" + std::string(text) + R"("})");
        };
        s.prologue(R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"write_file","input":{}}})",
                   "content_block_start")
            .prologue(json(R"({\"content\":\")"), "content_block_delta")
            .repeated(json(wire_unit(b, true)), "content_block_delta")
            .epilogue(json(R"(\"})"), "content_block_delta");
        stop_reason = "tool_use";
    } else {
        return std::nullopt;
    }
    return s.epilogue(R"({"type":"content_block_stop","index":0})", "content_block_stop")
        .epilogue(R"({"type":"message_delta","delta":{"stop_reason":")" + std::string(stop_reason)
                      + R"("},"usage":{"output_tokens":2}})",
                  "message_delta")
        .epilogue(R"({"type":"message_stop"})", "message_stop")
        .done();
}

template<>
std::optional<stream_shape> shape_of<gemini>(carried how, const body_forms& b)
{
    const auto response = [](std::string_view part, std::string_view finish = {}) {
        return R"({"candidates":[{"content":{"role":"model","parts":[)" + std::string(part) + "]}"
            + (finish.empty() ? "" : R"(,"finishReason":")" + std::string(finish) + "\"")
            + R"(,"index":0}],"responseId":"r1","modelVersion":"gemini"})";
    };
    test::large::shape_builder<gemini> s;
    if (how == carried::text) {
        s.repeated(response(R"({"text":")" + wire_unit(b, false) + R"("})"));
    } else if (how == carried::whole_calls) {
        s.repeated(response(R"({"functionCall":{"name":"write_file","args":{"content":")" + wire_unit(b, false) + R"("}}})"));
    } else {   // Vertex streamed arguments: string pieces of one `$.content`
        s.prologue(response(R"({"functionCall":{"name":"write_file","willContinue":true}})"))
            .repeated(response(R"({"functionCall":{"partialArgs":[{"jsonPath":"$.content","stringValue":")"
                               + wire_unit(b, false) + R"(","willContinue":true}],"willContinue":true}})"))
            .epilogue(response(R"({"functionCall":{}})"));
    }
    return s.epilogue(response(R"({"text":""})", "STOP")).done();
}

template<>
std::optional<stream_shape> shape_of<ollama>(carried how, const body_forms& b)
{
    const auto line = [](std::string_view message, bool done = false) {
        return R"({"model":"m","message":{"role":"assistant",)" + std::string(message) + "}"
            + (done ? R"(,"done_reason":"stop","done":true})" : R"(,"done":false})");
    };
    test::large::shape_builder<ollama> s;
    if (how == carried::text)
        s.repeated(line(R"("content":")" + wire_unit(b, false) + "\""));
    else if (how == carried::whole_calls)
        s.repeated(line(R"("content":"","tool_calls":[{"function":{"name":"write_file","arguments":{"content":")"
                        + wire_unit(b, false) + R"("}}}])"));
    else
        return std::nullopt;
    return s.epilogue(line(R"("content":"")", true)).done();
}

/// Checks the chunks of a stream carrying `count` copies of `unit` (the body as it must come out).
class output_check {
public:
    output_check(carried how, std::string_view unit, std::size_t count)
        : how_(how), unit_(unit), count_(count),
          expected_(how == carried::text ? expected_output("", unit, count, "")
                                         : expected_output(args_head, unit, count, args_tail))
    {
    }

    void operator()(std::size_t choice, const chunk_response& c)
    {
        if (choice != 0)
            fail("a chunk for choice " + std::to_string(choice));
        finished_ = finished_ || !c.finish_reason.empty();
        if (how_ == carried::text) {
            if (!c.tool_calls.empty())
                fail("a tool call in a text stream");
            if (!expected_.take(c.content))
                fail("text differs after " + std::to_string(expected_.matched()) + " bytes");
            return;
        }
        if (!c.content.empty())
            fail("content in a tool-call stream");
        for (const auto& d : c.tool_calls) {
            if (how_ == carried::whole_calls) {
                check_whole_call(d);
            } else {
                if (d.index != 0)
                    fail("a second call, index " + std::to_string(d.index));
                if (!expected_.take(d.arguments_delta))
                    fail("arguments differ after " + std::to_string(expected_.matched()) + " bytes");
                complete_calls_ += d.is_complete;
            }
        }
    }

    /// The stream's output was all of the input's content, then a finish reason.
    void check_end()
    {
        INFO(failure_);
        CHECK(failure_.empty());
        CHECK(finished_);
        if (how_ == carried::whole_calls) {
            CHECK(complete_calls_ == count_);
            return;
        }
        CHECK(expected_.complete());
        if (how_ == carried::argument_deltas)
            CHECK(complete_calls_ == 1);
    }

private:
    void check_whole_call(const tool_call_delta& d)
    {
        if (d.index != complete_calls_ || !d.is_complete || d.name != "write_file")
            fail("call " + std::to_string(d.index) + " is not the next whole write_file call");
        expected_output call(args_head, unit_, 1, args_tail, complete_calls_);
        if (!call.take(d.arguments_delta) || !call.complete())
            fail("call " + std::to_string(d.index) + " arguments differ after " + std::to_string(call.matched()) + " bytes");
        ++complete_calls_;
    }

    void fail(const std::string& what)
    {
        if (failure_.empty())
            failure_ = what;
    }

    carried how_;
    std::string_view unit_;
    std::size_t count_;
    expected_output expected_;
    std::size_t complete_calls_ = 0;
    bool finished_ = false;
    std::string failure_;
};

template<class Provider>
void check_large_events(carried how)
{
    for (const auto [bytes, count] : sizes) {
        const body_forms& b = body_of(bytes);
        auto shape = shape_of<Provider>(how, b);
        REQUIRE(shape);
        INFO(provider_converter<Provider>::name << ": " << count << " events of " << bytes << " bytes");
        output_check check(how, how == carried::text ? b.raw : b.once, count);
        std::string errors;
        const std::size_t fed = test::large::feed<Provider>(*shape, count, write_size, check,
                                                            [&](error_code ec) { errors += ec.message() + "; "; });
        CHECK(errors.empty());
        INFO(errors);
        check.check_end();
        CHECK(fed > count * bytes);
        if (bytes == (8u << 20))
            CHECK(shape->repeated.size() < sse_options{}.max_event_size);   // the case the issue asks for
    }
}

} // namespace

TEST_CASE("large events: openai_chat, as text and as argument deltas", "[providers][large]")
{
    check_large_events<openai_chat>(carried::text);
    check_large_events<openai_chat>(carried::argument_deltas);
}

TEST_CASE("large events: mistral, as text and as argument deltas", "[providers][large]")
{
    check_large_events<mistral>(carried::text);
    check_large_events<mistral>(carried::argument_deltas);
}

TEST_CASE("large events: openai_responses, as text and as argument deltas", "[providers][large]")
{
    check_large_events<openai_responses>(carried::text);
    check_large_events<openai_responses>(carried::argument_deltas);
}

TEST_CASE("large events: anthropic, as text and as partial_json deltas", "[providers][large]")
{
    check_large_events<anthropic>(carried::text);
    check_large_events<anthropic>(carried::argument_deltas);
}

TEST_CASE("large events: gemini, as text, whole calls and partialArgs", "[providers][large]")
{
    check_large_events<gemini>(carried::text);
    check_large_events<gemini>(carried::whole_calls);
    check_large_events<gemini>(carried::argument_deltas);
}

TEST_CASE("large events: ollama, as text and as whole calls", "[providers][large]")
{
    check_large_events<ollama>(carried::text);
    check_large_events<ollama>(carried::whole_calls);
}

} // namespace test_large_events
