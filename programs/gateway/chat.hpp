// POST /v1/chat/completions: the request in the upstream's dialect, the upstream's stream through
// a toolstream runtime_pipeline, and out as OpenAI SSE (stream: true) or one chat.completion.
// While the upstream is awaited, the client's socket is watched: a client that leaves cancels
// the upstream request at once and frees its --max-streams slot.
#pragma once

#include "exchange.hpp"
#include "gateway_viewer.hpp"   // programs/viewer: --viewer
#include "request_translation.hpp"
#include "upstream_answer.hpp"

#include <toolstream/runtime_pipeline.hpp>
#include <toolstream/writers/sinks.hpp>
#include <toolstream/writers/openai_completion.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>

#include <concepts>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <variant>

#include <sys/socket.h>

namespace gateway {

/// The SSE writer's output: the bytes of the next piece of the body.
struct append_to {
    std::string* out;
    void operator()(std::string_view bytes) const { out->append(bytes); }
};

/// A writer between the pipeline and the client that turns a choice ended without the
/// provider's finish (the upstream stopped early) into an `upstream_truncated` error, never a
/// `length` finish, and notes whether the stream had anything of its dialect at all.
template<class Inner>
struct guarded_sink {
    Inner inner;
    bool saw_event = false;
    bool failed = false;
    bool truncated = false;

    template<class Event>
        requires std::invocable<Inner&, const Event&>
    void operator()(const Event& e)
    {
        saw_event = true;
        inner(e);
    }
    void operator()(const toolstream::provider_failed& p)
    {
        failed = true;
        inner(p);
    }
    void operator()(const toolstream::choice_finished& c)
    {
        if (!c.reason.empty() || failed) {
            inner(c);
            return;
        }
        failed = truncated = true;
        inner(toolstream::provider_failed{describe(failure::truncated)});
    }
};

// The client's copy (first) and the --viewer's (second, which does nothing without a viewer).
using client_stream_sink = guarded_sink<toolstream::openai_sse_writer<append_to>>;
using client_completion_sink = guarded_sink<toolstream::openai_completion_builder>;
using stream_sink = toolstream::tee_sink<client_stream_sink, toolstream_viewer::viewer_tap>;
using completion_sink = toolstream::tee_sink<client_completion_sink, toolstream_viewer::viewer_tap>;

/// The chat's tap into the --viewer feed, its stream named in the access log.
inline toolstream_viewer::viewer_tap viewer_tap_for(exchange& x)
{
    if (x.state.viewer == nullptr)
        return {};
    x.record.viewer_stream = x.state.viewer->next_stream();
    return {x.state.viewer, x.record.viewer_stream};
}

/// Ends the viewer's copy of a stream that stops early (the client left, the upstream failed
/// before its end): an `error` line, then finish(), which ends its open segments, so that the
/// viewer's snapshot never keeps them open. Nothing without a viewer.
template<class Pipeline>
class viewer_ending {
public:
    viewer_ending(Pipeline& p, const exchange& x) : pipeline_(x.state.viewer != nullptr ? &p : nullptr), state_(&x.state)
    {
    }
    viewer_ending(const viewer_ending&) = delete;
    viewer_ending& operator=(const viewer_ending&) = delete;
    ~viewer_ending()
    {
        if (pipeline_ == nullptr || state_->viewer == nullptr)   // none, or the gateway is exiting
            return;
        try {
            pipeline_->sink().second()(toolstream::provider_failed{why_});
            pipeline_->finish();
        } catch (...) {   // out of memory: the viewer's copy stays open; the gateway goes on
        }
    }
    /// The pipeline was finished normally: nothing to do.
    void finished() noexcept { pipeline_ = nullptr; }
    void because(std::string why) { why_ = std::move(why); }

private:
    Pipeline* pipeline_;
    const shared_state* state_;
    std::string why_{describe(failure::client_gone)};
};

/// `call_` and 16 random hex digits: generated tool-call ids are unique across responses.
inline std::string random_id_prefix()
{
    thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char hex[] = "0123456789abcdef";
    std::string id = "call_";
    auto r = rng();
    for (int i = 0; i < 16; ++i, r >>= 4)
        id.push_back(hex[r & 15]);
    return id + "_";
}

template<class Sink>
std::unique_ptr<toolstream::runtime_pipeline<Sink>> make_pipeline(const options& o, Sink sink)
{
    toolstream::pipeline_options po;
    po.segment_id_prefix = random_id_prefix();
    po.native_limits.max_calls = o.max_calls;
    po.native_limits.max_argument_bytes = o.max_argument_bytes;
    po.keep_invocations = false;   // the sink relays each call; nothing reads them afterwards
    po.sse.max_event_size = std::min(po.sse.max_event_size, o.max_response_bytes);
    po.ndjson.max_line_size = std::min(po.ndjson.max_line_size, o.max_response_bytes);
    auto made = toolstream::runtime_pipeline<Sink>::create(o.provider, o.parser, std::move(sink), std::move(po),
                                                           o.reasoning_parser, nullptr, o.thinking_open);
    return made ? std::move(*made) : nullptr;   // names were checked at start-up
}

/// What ended a stream early, for the client's error event and the log.
inline std::string failure_message(failure f, const upstream_call& up)
{
    return std::string(describe(f)) + (up.cause().empty() || f == failure::over_budget ? "" : " (" + up.cause() + ")");
}

/// stream: true. The header goes out once the upstream answered a stream; then one piece per
/// upstream read that produced output. A failure after that is an error event after the
/// deltas already sent (the OpenAI SDKs raise it); nothing follows it.
inline asio::awaitable<bool> stream_answer(exchange& x, upstream_call& up, body_source& body)
{
    std::string out;
    auto pipeline = make_pipeline(
        x.opts(), stream_sink{{toolstream::openai_sse_writer<append_to>(append_to{&out})}, viewer_tap_for(x)});
    viewer_ending ending(*pipeline, x);
    http::response<http::empty_body> head{http::status::ok, 11};
    head.set(http::field::server, "toolstream-gateway");
    head.set(http::field::content_type, "text/event-stream");
    head.set(http::field::cache_control, "no-cache");
    if (x.version < 11)
        x.keep_alive = false;   // HTTP/1.0: the body ends when the connection does
    x.decorate(head);
    head.chunked(x.version >= 11);
    http::response_serializer<http::empty_body> serializer{head};
    x.record.status = 200;
    x.record.wrote(0);
    x.client.expires_after(x.opts().client_timeout);
    if (auto [ec, n] = co_await http::async_write_header(x.client, serializer, use_nothrow); ec)
        co_return false;

    failure f = failure::none;
    std::string_view piece;
    while (!body.done()) {
        if ((f = co_await body.next(piece)) != failure::none)
            break;
        pipeline->write(piece);
        if (!co_await send_piece(x, out)) {
            up.cancel();   // the client left: stop the generation too
            x.record.error = failure::client_gone;
            co_return false;
        }
    }
    auto& sink = pipeline->sink().first();
    if (f == failure::none && !sink.saw_event)
        f = failure::bad_answer;
    if (f != failure::none) {
        const auto message = failure_message(f, up);
        pipeline->sink()(toolstream::provider_failed{message});   // the client and the viewer
        x.record.cause = message;
    }
    pipeline->finish();
    ending.finished();
    if (f == failure::none && sink.truncated) {
        f = failure::truncated;
        pipeline->sink().second()(toolstream::provider_failed{describe(f)});   // as the client got it
    }
    x.record.error = f;
    if (f != failure::none)
        x.record.error_code = std::string(code_of(f));
    sink.inner.done();
    if (!co_await send_piece(x, out))
        co_return false;
    if (x.version >= 11) {
        x.client.expires_after(x.opts().client_timeout);
        auto [ec, n] = co_await asio::async_write(x.client, http::make_chunk_last(), use_nothrow);
        co_return !ec && x.keep_alive && f == failure::none;
    }
    co_return false;
}

/// stream: false. The same stream, built into one chat.completion object. Nothing has been sent
/// when the upstream fails, so a failure is an HTTP error (docs/gateway.md lists them).
inline asio::awaitable<bool> whole_answer(exchange& x, upstream_call& up, body_source& body)
{
    auto pipeline =
        make_pipeline(x.opts(), completion_sink{{toolstream::openai_completion_builder{}}, viewer_tap_for(x)});
    viewer_ending ending(*pipeline, x);
    failure f = failure::none;
    std::string_view piece;
    while (!body.done()) {
        if ((f = co_await body.next(piece)) != failure::none)
            break;
        pipeline->write(piece);
    }
    if (f == failure::client_gone) {
        x.record.error = f;
        x.record.status = 499;
        co_return false;
    }
    auto& sink = pipeline->sink().first();
    if (f == failure::none && !sink.saw_event)
        f = failure::bad_answer;
    if (f != failure::none) {
        ending.because(failure_message(f, up));
        co_return co_await send_failure(x, f, failure_message(f, up), up.cause());
    }
    pipeline->finish();
    ending.finished();
    if (sink.truncated) {
        pipeline->sink().second()(toolstream::provider_failed{describe(failure::truncated)});
        co_return co_await send_failure(x, failure::truncated, describe(failure::truncated), "no finish reason before the end");
    }
    if (sink.inner.failed()) {
        x.record.error = failure::upstream_status;
        co_return co_await send_error(x, http::status::bad_gateway, "upstream_error", sink.inner.error_message(),
                                      sink.inner.error_message());
    }
    co_return co_await send_reply(x, json_reply(http::status::ok, boost::json::serialize(sink.inner.completion()), x.keep_alive));
}

/// Whether the peer has closed its side (Linux: the socket is in CLOSE_WAIT), even with
/// unread pipelined bytes in the way.
inline bool peer_closed(asio::ip::tcp::socket& s)
{
    char byte = 0;
    const auto n = ::recv(s.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0)
        return true;
    if (n < 0)
        return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
    return false;
}

/// Returns when the client has gone (the answer's branch is then cancelled). Readable means
/// closed unless bytes are waiting (a pipelined request): then it checks twice a second.
inline asio::awaitable<void> watch_client(beast::tcp_stream& client, upstream_call& up)
{
    auto& socket = client.socket();
    asio::steady_timer pause(socket.get_executor());
    for (;;) {
        auto [ec] = co_await socket.async_wait(asio::ip::tcp::socket::wait_read, use_nothrow);
        if (ec == asio::error::operation_aborted)
            co_return;   // cancelled: the answer is done
        while (!ec && !peer_closed(socket)) {
            pause.expires_after(std::chrono::milliseconds(500));
            if (auto [tec] = co_await pause.async_wait(use_nothrow); tec)
                co_return;
        }
        up.cancel();
        co_return;
    }
}

/// The whole exchange; returns whether the connection may serve another request.
inline asio::awaitable<bool> serve_chat(exchange& x, const http::request<http::string_body>& req)
{
    const auto& o = x.opts();
    auto parsed = read_chat_request(req.body());
    if (const auto* bad = std::get_if<request_error>(&parsed))
        co_return co_await send_error(x, http::status::bad_request, bad->code, bad->message);
    const auto& chat = std::get<chat_request>(parsed);

    chat_slot slot(x.state);
    if (!slot)
        co_return co_await send_error(x, http::status::service_unavailable, "too_many_streams",
                                      "the gateway is serving --max-streams chats; retry");
    if (x.state.memory.held.load() >= o.memory_budget)
        co_return co_await send_failure(x, failure::over_budget, describe(failure::over_budget), "refused at start");

    upstream_call up(co_await asio::this_coro::executor, o, x.state.memory);
    // The upstream's key: the gateway's own, else the client's unless the client authenticated
    // to the gateway with it (that key is never passed on).
    const std::string authorization = !o.upstream_key.empty() ? "Bearer " + o.upstream_key
                                      : o.api_key.empty()     ? std::string(req[http::field::authorization])
                                                              : std::string();
    using namespace asio::experimental::awaitable_operators;
    auto answer = [&]() -> asio::awaitable<bool> {
        if (const auto f = co_await up.open(upstream_body(chat, o.provider), authorization); f != failure::none)
            co_return co_await send_failure(x, f, failure_message(f, up), up.cause());
        x.record.upstream_status = up.status();
        body_source body(up);
        const auto type = media_type(up.content_type());
        if (up.status() != 200 || type == "application/json") {
            std::string text;
            if (const auto f = co_await up.read_all(text, o.max_response_bytes); f != failure::none)
                co_return co_await send_failure(x, f, failure_message(f, up), up.cause());
            if (up.status() != 200) {
                const auto r = refusal_of(up.status(), text);
                x.record.error = failure::upstream_status;
                co_return co_await send_error(x, r.status, "upstream_status", r.message, "upstream body: " + clip(text, 2048));
            }
            auto translated = o.provider == "ollama" ? text + "\n" : completion_as_sse(text);
            if (translated.empty() || !upstream_message(text).empty())
                co_return co_await send_failure(x, failure::bad_answer,
                                                "the upstream answered a JSON object that is not a chat completion",
                                                "upstream body: " + clip(text, 2048));
            body.replace_with(std::move(translated));
        } else if (!stream_media_type(type)) {
            co_return co_await send_failure(x, failure::bad_answer,
                                            "the upstream answered Content-Type '" + std::string(up.content_type()) +
                                                "', not a " + o.provider + " stream",
                                            "content type " + std::string(up.content_type()));
        }
        if (chat.stream)
            co_return co_await stream_answer(x, up, body);
        co_return co_await whole_answer(x, up, body);
    };
    auto outcome = co_await (answer() || watch_client(x.client, up));
    if (outcome.index() == 1) {   // the client left before its answer was complete
        if (x.record.status == 0)
            x.record.status = 499;   // as nginx logs it: the client closed the request
        x.record.error = failure::client_gone;
        x.record.error_code = std::string(code_of(failure::client_gone));
        co_return false;
    }
    co_return std::get<0>(outcome);
}

} // namespace gateway
