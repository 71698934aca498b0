// How an upstream Chat Completions stream ends, as the OpenAI writers pass it on: the
// upstream's own finish, or an error naming it; never a clean stop it did not send, a finish
// that came after the first, or data after [DONE].
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>

#include "catch_compat.hpp"
#include "writers/openai_sse_reader.hpp"
#include "writers/writer_support.hpp"

#include <string>
#include <string_view>

namespace test_openai_terminal_states {

using namespace toolstream;

namespace {

std::string chunk(std::string_view delta, std::string_view finish = "null")
{
    return R"(data: {"id":"c","model":"m","choices":[{"index":0,"delta":)" + std::string(delta)
           + R"(,"finish_reason":)" + std::string(finish) + "}]}\n\n";
}

constexpr std::string_view done = "data: [DONE]\n\n";

struct run_result {
    test::both_writers out;
    error_code first_error;   // what write() and finish() returned first
};

/// `upstream` through an openai_chat pipeline into both writers, in pieces of `size` bytes.
run_result run(const std::string& upstream, std::size_t size)
{
    pipeline<openai_chat, api_tool_call, test::both_writers> p;
    error_code first;
    for (std::size_t at = 0; at < upstream.size(); at += size)
        if (const auto ec = p.write(std::string_view(upstream).substr(at, size)); ec && !first)
            first = ec;
    if (const auto ec = p.finish(); ec && !first)
        first = ec;
    p.sink().sse.done();
    return {std::move(p.sink()), first};
}

/// `upstream` (a "Hi" delta, then its end) whole and in 1- and 7-byte pieces: both writers pass
/// "Hi" on, then the error `message`; no finish, no [DONE].
void check_hi_then_error(const std::string& upstream, std::string_view message)
{
    for (const std::size_t size : {upstream.size(), std::size_t{1}, std::size_t{7}}) {
        INFO(upstream << "in pieces of " << size);
        const auto r = run(upstream, size);
        const auto read = test::read_openai_sse(r.out.sse.output().bytes);
        CHECK(read.violations.empty());
        CHECK(read.choices.at(0).content == "Hi");
        CHECK(!read.choices.at(0).finish_reason.has_value());
        REQUIRE(read.error);
        CHECK(read.error->at("message").as_string() == message);
        CHECK(r.out.sse.output().bytes.find("[DONE]") == std::string::npos);
        REQUIRE(r.out.completion.failed());
        CHECK(r.out.completion.error_message() == message);
    }
}

} // namespace

TEST_CASE("openai terminal states: an unknown or aborted finish is an error naming it, never a stop", "[openai-sse][finish]")
{
    for (const std::string_view reason : {"abort", "eos_token", "cancelled"})
        check_hi_then_error(chunk(R"({"content":"Hi"})") + chunk("{}", "\"" + std::string(reason) + "\"") + std::string(done),
                            "the provider ended the response with an error (finish reason '" + std::string(reason) + "')");
}

TEST_CASE("openai terminal states: function_call is a finish only with the calls it names", "[openai-sse][finish]")
{
    const std::string without = chunk(R"({"content":"Hi"})") + chunk("{}", R"("function_call")") + std::string(done);
    auto r = run(without, 7);
    CHECK(r.out.sse.failed());
    CHECK(r.out.completion.failed());
    CHECK(std::string(r.out.completion.error_message()).find("'function_call'") != std::string::npos);

    const std::string with = chunk(R"({"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]})")
                             + chunk("{}", R"("function_call")") + std::string(done);
    r = run(with, 7);
    CHECK(!r.out.sse.failed());
    const auto read = test::read_openai_sse(r.out.sse.output().bytes);
    CHECK(read.choices.at(0).finish_reason == "tool_calls");
    CHECK(read.choices.at(0).calls.size() == 1);
}

TEST_CASE("openai terminal states: the first finish stands, and nothing after [DONE] is read", "[openai-sse][finish]")
{
    const std::string second_finish = chunk(R"({"content":"Hi"})") + chunk("{}", R"("stop")")
                                      + chunk(R"({"content":"x"})", R"("length")") + std::string(done);
    const std::string after_done = chunk(R"({"content":"Hi"})") + chunk("{}", R"("stop")") + std::string(done)
                                   + chunk(R"({"content":"xGHOST"})", R"("length")") + "data: not even JSON\n\n";
    for (const std::size_t size : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
        INFO("pieces of " << size);
        auto r = run(second_finish, size);
        CHECK(r.first_error == error::finish_repeated);   // reported to the caller, not obeyed
        auto read = test::read_openai_sse(r.out.sse.output().bytes);
        CHECK(read.violations.empty());
        CHECK(read.choices.at(0).finish_reason == "stop");
        CHECK(!r.out.completion.failed());
        CHECK(r.out.completion.completion().at("choices").at(0).at("finish_reason") == "stop");

        r = run(after_done, size);
        CHECK(!r.first_error);
        read = test::read_openai_sse(r.out.sse.output().bytes);
        CHECK(read.violations.empty());
        CHECK(read.choices.at(0).content == "Hi");
        CHECK(read.choices.at(0).finish_reason == "stop");
        CHECK(r.out.completion.completion().at("choices").at(0).at("message").at("content") == "Hi");
    }
}

TEST_CASE("openai terminal states: llama.cpp's `error:` line is the upstream's error, its message passed on", "[openai-sse][finish]")
{
    const std::string message = R"(the request exceeds the available context size \u00e9)";
    for (const std::string& last : {R"(error: {"code":500,"message":")" + message + R"(","type":"exceed_context_size_error"})" "\n\n",
                                   R"(data: {"error":{"code":500,"message":")" + message + R"(","type":"server_error"}})" "\n\n",
                                   "event: error\ndata: {\"message\":\"" + message + "\"}\n\n"}) {
        check_hi_then_error(chunk(R"({"content":"Hi"})") + last, "the request exceeds the available context size \xc3\xa9");
    }
    // Not JSON: the data itself, bounded.
    const auto r = run(chunk(R"({"content":"Hi"})") + "error: upstream fell over\n\n", 3);
    CHECK(r.out.completion.error_message() == "upstream fell over");
}

} // namespace test_openai_terminal_states
