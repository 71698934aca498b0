// POST /v1/chat/completions: the request in the upstream's dialect, the upstream's stream through
// a toolstream runtime_pipeline, and out as OpenAI SSE (stream: true) or one chat.completion.
#pragma once

#include "http_replies.hpp"
#include "options.hpp"
#include "request_translation.hpp"
#include "upstream_call.hpp"

#include <toolstream/runtime_pipeline.hpp>
#include <toolstream/writers/openai_completion.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace gateway {

/// The SSE writer's output: the bytes of the next HTTP chunk.
struct append_to {
    std::string* out;
    void operator()(std::string_view bytes) const { out->append(bytes); }
};
using stream_sink = toolstream::openai_sse_writer<append_to>;
using completion_sink = toolstream::openai_completion_builder;

/// What every connection shares.
struct shared_state {
    const options& opts;
    std::atomic<std::size_t> active_chats{0};
};

/// A place among the --max-streams chats in flight, released when it goes out of scope.
class chat_slot {
public:
    explicit chat_slot(shared_state& s) : state_(&s)
    {
        if (s.active_chats.fetch_add(1) >= s.opts.max_streams) {
            s.active_chats.fetch_sub(1);
            state_ = nullptr;
        }
    }
    chat_slot(const chat_slot&) = delete;
    chat_slot& operator=(const chat_slot&) = delete;
    ~chat_slot()
    {
        if (state_ != nullptr)
            state_->active_chats.fetch_sub(1);
    }
    explicit operator bool() const { return state_ != nullptr; }

private:
    shared_state* state_;
};

/// Writes a whole reply; false if the client is gone.
inline asio::awaitable<bool> send_reply(beast::tcp_stream& client, string_response res, std::chrono::milliseconds timeout)
{
    client.expires_after(timeout);
    auto [ec, n] = co_await http::async_write(client, res, use_nothrow);
    co_return !ec && res.keep_alive();
}

/// Sends what the writer produced as one HTTP chunk and empties `out`; false if the client is gone.
inline asio::awaitable<bool> send_chunk(beast::tcp_stream& client, std::string& out, std::chrono::milliseconds timeout)
{
    if (out.empty())
        co_return true;
    client.expires_after(timeout);
    auto [ec, n] = co_await asio::async_write(client, http::make_chunk(asio::buffer(out)), use_nothrow);
    out.clear();
    co_return !ec;
}

template<class Sink>
std::unique_ptr<toolstream::runtime_pipeline<Sink>> make_pipeline(const options& o, Sink sink)
{
    // Provider and parser were checked at start-up; the reasoning parser is not in the library yet.
    auto made = toolstream::runtime_pipeline<Sink>::create(o.provider, o.parser, std::move(sink));
    return made ? std::move(*made) : nullptr;
}

/// stream: true. The header goes out as soon as the upstream answered 200; then one HTTP chunk
/// per upstream read that produced output. A stalled or broken upstream becomes an error event;
/// one that closed early finishes `length` (the pipeline's word for an unfinished stream).
inline asio::awaitable<bool> stream_answer(beast::tcp_stream& client, upstream_call& up, const options& o,
                                           bool keep_alive)
{
    std::string out;
    auto pipeline = make_pipeline(o, stream_sink(append_to{&out}));
    if (!pipeline)
        co_return co_await send_reply(client, error_reply(http::status::internal_server_error, "pipeline", "no pipeline"), o.client_timeout);

    http::response<http::empty_body> head{http::status::ok, 11};
    head.set(http::field::server, "toolstream-gateway");
    head.set(http::field::content_type, "text/event-stream");
    head.set(http::field::cache_control, "no-cache");
    head.chunked(true);
    head.keep_alive(keep_alive);
    http::response_serializer<http::empty_body> serializer{head};
    client.expires_after(o.client_timeout);
    if (auto [ec, n] = co_await http::async_write_header(client, serializer, use_nothrow); ec)
        co_return false;

    upstream_failure failure = upstream_failure::none;
    std::string_view piece;
    while (!up.done()) {
        if ((failure = co_await up.read(piece)) != upstream_failure::none)
            break;
        pipeline->write(piece);
        if (!co_await send_chunk(client, out, o.client_timeout)) {
            up.close();   // the client left: stop the generation too
            co_return false;
        }
    }
    if (failure == upstream_failure::timeout || failure == upstream_failure::broken)
        pipeline->sink()(toolstream::provider_failed{describe(failure)});
    pipeline->finish();
    pipeline->sink().done();
    if (!co_await send_chunk(client, out, o.client_timeout))
        co_return false;
    client.expires_after(o.client_timeout);
    auto [ec, n] = co_await asio::async_write(client, http::make_chunk_last(), use_nothrow);
    co_return !ec && keep_alive && failure == upstream_failure::none;
}

/// stream: false. The same stream, built into one chat.completion object. Nothing has been sent
/// yet when the upstream fails, so a failure is an HTTP error: 504 stalled, 502 broken or a
/// provider error in the stream; an upstream that closed early gives finish_reason `length`.
inline asio::awaitable<bool> whole_answer(beast::tcp_stream& client, upstream_call& up, const options& o,
                                          bool keep_alive)
{
    auto pipeline = make_pipeline(o, completion_sink{});
    if (!pipeline)
        co_return co_await send_reply(client, error_reply(http::status::internal_server_error, "pipeline", "no pipeline"), o.client_timeout);
    upstream_failure failure = upstream_failure::none;
    std::string_view piece;
    while (!up.done()) {
        if ((failure = co_await up.read(piece)) != upstream_failure::none)
            break;
        pipeline->write(piece);
    }
    if (failure == upstream_failure::timeout)
        co_return co_await send_reply(client, error_reply(http::status::gateway_timeout, "upstream_timeout", describe(failure), keep_alive), o.client_timeout);
    if (failure == upstream_failure::broken)
        co_return co_await send_reply(client, error_reply(http::status::bad_gateway, "upstream_broken", describe(failure), keep_alive), o.client_timeout);
    pipeline->finish();
    auto& builder = pipeline->sink();
    if (builder.failed())
        co_return co_await send_reply(client, error_reply(http::status::bad_gateway, "upstream_error", builder.error_message(), keep_alive), o.client_timeout);
    co_return co_await send_reply(client, json_reply(http::status::ok, boost::json::serialize(builder.completion()), keep_alive), o.client_timeout);
}

/// The whole exchange; returns whether the connection may serve another request.
inline asio::awaitable<bool> serve_chat(beast::tcp_stream& client, const http::request<http::string_body>& req,
                                        shared_state& state)
{
    const auto& o = state.opts;
    const bool keep_alive = req.keep_alive();
    auto parsed = read_chat_request(req.body());
    if (const auto* bad = std::get_if<request_error>(&parsed))
        co_return co_await send_reply(client, error_reply(http::status::bad_request, bad->code, bad->message, keep_alive), o.client_timeout);
    const auto& chat = std::get<chat_request>(parsed);

    chat_slot slot(state);
    if (!slot)
        co_return co_await send_reply(client, error_reply(http::status::service_unavailable, "too_many_streams",
                                                          "the gateway is serving --max-streams chats; retry", keep_alive), o.client_timeout);

    upstream_call up(co_await asio::this_coro::executor, o);
    if (const auto failure = co_await up.open(upstream_body(chat, o.provider), req[http::field::authorization]);
        failure != upstream_failure::none) {
        const auto status = failure == upstream_failure::timeout ? http::status::gateway_timeout : http::status::bad_gateway;
        co_return co_await send_reply(client, error_reply(status, failure == upstream_failure::timeout ? "upstream_timeout" : "upstream_unavailable",
                                                          describe(failure), keep_alive), o.client_timeout);
    }
    if (const unsigned status = up.status(); status != 200) {
        // A 4xx is about the request (an unknown model, say): the client gets it as is.
        const auto reply_status = status >= 400 && status < 500 ? static_cast<http::status>(status) : http::status::bad_gateway;
        const auto message = "upstream answered " + std::to_string(status) + ": " + co_await up.read_error_body();
        co_return co_await send_reply(client, error_reply(reply_status, "upstream_status", message, false), o.client_timeout);
    }
    if (chat.stream)
        co_return co_await stream_answer(client, up, o, keep_alive);
    co_return co_await whole_answer(client, up, o, keep_alive);
}

} // namespace gateway
