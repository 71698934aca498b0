// The chat core of every route (/v1/chat/completions, /v1/messages, /v1/responses): the request,
// already a Chat Completions one, in the upstream's dialect; the upstream's stream through a
// toolstream runtime_pipeline; and out in the client's dialect, streamed or as one object.
// While the upstream is awaited, the client's socket is watched: a client that leaves cancels
// the upstream request at once and frees its --max-streams slot.
#pragma once

#include "../common/http_write.hpp"
#include "chat_sinks.hpp"
#include "client_requests.hpp"
#include "exchange.hpp"
#include "redaction.hpp"
#include "upstream_answer.hpp"
#include "upstream_request.hpp"

#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>

#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <variant>

#include <sys/socket.h>

namespace gateway {

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

/// The schemas of the request's `tools` (any shape tool_schemas reads), which type the values of
/// the formats that write them as text (qwen3_coder's `<parameter=days>3`); none without tools.
inline std::shared_ptr<const toolstream::tool_schemas> schemas_of(const chat_request& chat)
{
    const auto* tools = chat.body.if_contains("tools");
    if (tools == nullptr || !tools->is_array() || tools->get_array().empty())
        return nullptr;
    return std::make_shared<const toolstream::tool_schemas>(tools->get_array());
}

inline std::unique_ptr<toolstream::runtime_pipeline<chat_sink>> make_pipeline(const options& o, const chat_request& chat,
                                                                               chat_sink sink)
{
    toolstream::pipeline_options po;
    po.segment_id_prefix = random_id_prefix();
    po.native_limits.max_calls = o.max_calls;
    po.native_limits.max_argument_bytes = o.max_argument_bytes;
    po.keep_invocations = false;   // the sink relays each call; nothing reads them afterwards
    po.sse.max_event_size = std::min(po.sse.max_event_size, o.max_response_bytes);
    po.ndjson.max_line_size = std::min(po.ndjson.max_line_size, o.max_response_bytes);
    auto made = toolstream::runtime_pipeline<chat_sink>::create(o.provider, o.parser, std::move(sink), std::move(po),
                                                           o.reasoning_parser, schemas_of(chat), o.thinking_open);
    return made ? std::move(*made) : nullptr;   // names were checked at start-up
}

/// Feeds `piece` to `pipeline`. Past --max-calls or --max-argument-bytes the calls past the
/// limit would be dropped or emptied, so the answer is failure::over_limit instead, `why` naming
/// the limit. An upstream that broke its protocol without breaking the answer (a second,
/// different finish for a choice: the first stands) is named in the access log's cause.
template<class Pipeline>
failure feed(exchange& x, Pipeline& pipeline, std::string_view piece, std::string& why)
{
    const auto ec = pipeline.write(piece);
    if (ec == toolstream::error::too_many_calls)
        why = "the upstream's answer has more tool calls than --max-calls (" + std::to_string(x.opts().max_calls) + ")";
    else if (ec == toolstream::error::arguments_too_large)
        why = "a tool call's arguments are over --max-argument-bytes (" + std::to_string(x.opts().max_argument_bytes) + ")";
    else if (ec == toolstream::error::finish_repeated && x.record.cause.empty())
        x.record.cause = "upstream protocol error: " + ec.message();
    return why.empty() ? failure::none : failure::over_limit;
}

/// Whether the upstream has said all its answer holds: every choice has its finish, and the usage
/// came if the client asked for it. A stall after that (no `[DONE]`, no end) loses nothing.
template<class Pipeline>
bool answer_complete(const Pipeline& pipeline, bool usage_wanted)
{
    const auto summary = pipeline.summary();
    const bool finished = !summary.choices.empty()
                          && std::ranges::all_of(summary.choices, [](const auto& c) { return c.finish_reason.has_value(); });
    return finished && (!usage_wanted || summary.usage.has_value());
}

/// The next piece of the upstream's answer, as body.next() reads it. An upstream that stalls
/// once the answer is complete (answer_complete) has ended it: `ended` is set, the piece is
/// empty, and the access log says so.
template<class Pipeline>
asio::awaitable<failure> next_piece(exchange& x, upstream_call& up, body_source& body, const Pipeline& pipeline,
                                    bool usage_wanted, std::string_view& piece, bool& ended)
{
    failure f = co_await body.next(piece);
    if (f == failure::timeout && answer_complete(pipeline, usage_wanted)) {
        up.close();
        piece = {};
        ended = true;
        x.record.cause = "the upstream stalled after its complete answer (no [DONE]); the answer was delivered";
        co_return failure::none;
    }
    co_return f;
}

/// With --parser auto, the format each choice's text was read in, for the access log: "none"
/// for a choice whose text held no markup of any format.
template<class Pipeline>
void note_formats(exchange& x, Pipeline& pipeline)
{
    if (toolstream::canonical_policy_name(x.opts().parser) != toolstream::auto_detect::name)
        return;
    std::string formats;
    for (const std::string_view f : pipeline.formats())
        formats.append(formats.empty() ? "" : ",").append(f.empty() ? std::string_view("none") : f);
    x.record.format = std::move(formats);
}

/// What ended a stream early, for the client's error event and the log.
inline std::string failure_message(failure f, const upstream_call& up)
{
    return std::string(describe(f)) + (up.cause().empty() || f == failure::over_budget ? "" : " (" + up.cause() + ")");
}

/// stream: true. The header goes out once the upstream answered a stream; then one piece per
/// upstream read that produced output. A failure after that is the dialect's error event after
/// the deltas already sent (the SDKs raise it); nothing follows it.
inline asio::awaitable<bool> stream_answer(exchange& x, upstream_call& up, body_source& body, const chat_request& chat,
                                          const client_context& client, const redactor& secrets)
{
    // Only a Chat client asks for the usage chunk; the upstream is asked for usage anyway.
    const bool include_usage = client.api == dialect::openai_chat && chat.include_usage;
    std::string out;
    client_sink to_client{stream_writer_for(client, &out, chat), ends_cut_calls(client)};
    auto pipeline = make_pipeline(x.opts(), chat, chat_sink{{std::move(to_client), viewer_tap_for(x)}, &secrets});
    viewer_ending ending(*pipeline, x);
    http::response<http::empty_body> head{http::status::ok, 11};
    head.set(http::field::server, "toolstream-gateway");
    head.set(http::field::content_type, "text/event-stream");
    head.set(http::field::cache_control, "no-cache");
    if (x.version < 11)
        x.keep_alive = false;   // HTTP/1.0: the body ends when the connection does
    x.decorate(head);
    head.chunked(x.version >= 11);
    const std::string head_text = toolstream_programs::head_bytes(head);
    x.record.status = 200;
    x.record.wrote(0);
    x.arm_write();
    if (auto [ec, n] = co_await toolstream_programs::async_write_pieces(x.client, head_text); ec)
        co_return false;

    failure f = failure::none;
    std::string_view piece;
    std::string why;   // the limit an answer went past
    up.relay_pieces();
    for (bool ended = false; !ended && !body.done();) {
        // One co_await per statement: GCC 12 at -O0 mislowers one inside `||` (bytes were lost and repeated).
        f = co_await next_piece(x, up, body, *pipeline, include_usage, piece, ended);
        if (f != failure::none || (f = feed(x, *pipeline, piece, why)) != failure::none)
            break;
        if (std::chrono::steady_clock::now() >= x.deadline) {   // writes that never blocked did not see it
            f = failure::deadline;
            break;
        }
        if (!co_await send_piece(x, out)) {
            up.cancel();   // the client left: stop the generation too
            client_write_failed(x);
            co_return false;
        }
    }
    auto& sink = pipeline->sink().inner.first();
    if (f == failure::none && !sink.saw_event)
        f = failure::bad_answer;
    if (f != failure::none) {
        const auto message = why.empty() ? failure_message(f, up) : why;
        pipeline->sink()(toolstream::provider_failed{message});   // the client and the viewer
        x.record.cause = message;
    }
    pipeline->finish();
    ending.finished();
    note_formats(x, *pipeline);
    if (f == failure::none && sink.truncated) {
        f = failure::truncated;
        pipeline->sink().inner.second()(toolstream::provider_failed{describe(f)});   // as the client got it
    } else if (f == failure::none && sink.failed) {
        f = failure::upstream_error;   // the client got the upstream's error event; the log says it too
        x.record.cause = sink.failure_message;
    }
    x.record.error = f;
    if (f != failure::none)
        x.record.error_code = std::string(code_of(f));
    end_stream(sink.inner);
    if (!co_await send_piece(x, out)) {
        client_write_failed(x);
        co_return false;
    }
    x.answer_sent = true;   // every event is out: a client that hangs up now had its whole answer
    if (x.version >= 11) {
        x.arm_write();
        auto [ec, n] = co_await toolstream_programs::async_write_pieces(x.client, toolstream_programs::last_chunk);
        co_return !ec && x.keep_alive && f == failure::none;
    }
    co_return false;
}

/// stream: false. The same stream, built into one object of the client's dialect. Nothing has been
/// sent when the upstream fails, so a failure is an HTTP error (docs/gateway.md lists them).
inline asio::awaitable<bool> whole_answer(exchange& x, upstream_call& up, body_source& body, const chat_request& chat,
                                         const client_context& client, const redactor& secrets)
{
    client_sink to_client{builder_for(client), ends_cut_calls(client)};
    auto pipeline = make_pipeline(x.opts(), chat, chat_sink{{std::move(to_client), viewer_tap_for(x)}, &secrets});
    viewer_ending ending(*pipeline, x);
    failure f = failure::none;
    std::string_view piece;
    std::string why;   // the limit an answer went past
    for (bool ended = false; !ended && !body.done();) {
        f = co_await next_piece(x, up, body, *pipeline, false, piece, ended);
        if (f != failure::none || (f = feed(x, *pipeline, piece, why)) != failure::none)
            break;
    }
    if (f == failure::client_gone) {
        x.record.error = f;
        x.record.status = 499;
        co_return false;
    }
    auto& sink = pipeline->sink().inner.first();
    if (f == failure::none && !sink.saw_event)
        f = failure::bad_answer;
    if (f != failure::none) {
        const auto message = why.empty() ? failure_message(f, up) : why;
        ending.because(message);
        co_return co_await send_failure(x, f, message, why.empty() ? up.cause() : why);
    }
    pipeline->finish();
    ending.finished();
    note_formats(x, *pipeline);
    if (sink.truncated) {
        pipeline->sink().inner.second()(toolstream::provider_failed{describe(failure::truncated)});
        co_return co_await send_failure(x, failure::truncated, describe(failure::truncated), "no finish reason before the end");
    }
    const auto answer = whole_of(sink.inner);
    if (answer.failed) {
        x.record.error = failure::upstream_error;
        co_return co_await send_error(x, http::status::bad_gateway, "upstream_error", answer.error, answer.error);
    }
    co_return co_await send_reply(x, json_reply(http::status::ok, answer.body, x.keep_alive));
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
    client_request client_side;
    auto parsed = read_client_request(x.api, req.body(), client_side);
    if (const auto* bad = std::get_if<request_error>(&parsed))
        co_return co_await send_error(x, http::status::bad_request, bad->code, bad->message);
    const auto& chat = std::get<chat_request>(parsed);
    const client_context client{x.api, &client_side.tools};
    auto upstream_request = upstream_body(chat, o.provider);
    if (const auto* bad = std::get_if<request_error>(&upstream_request))
        co_return co_await send_error(x, http::status::bad_request, bad->code, bad->message);

    chat_slot slot(x.state);
    if (!slot)
        co_return co_await send_error(x, http::status::service_unavailable, "too_many_streams",
                                      "the gateway is serving --max-streams chats; retry");
    if (x.state.memory.held.load() >= o.memory_budget)
        co_return co_await send_failure(x, failure::over_budget, describe(failure::over_budget), "refused at start");

    upstream_call up(co_await asio::this_coro::executor, o, x.state.memory, x.state.calls);
    x.deadline = up.deadline();
    // The upstream's key: the gateway's own, else the client's unless the client authenticated
    // to the gateway with it (that key is never passed on). An Anthropic client's `x-api-key`
    // goes on as a bearer token, the only form the upstream dialects take.
    const std::string_view client_key = req["x-api-key"];
    const std::string authorization = !o.upstream_key.empty()                 ? "Bearer " + o.upstream_key
                                      : !o.api_key.empty()                    ? std::string()
                                      : !req[http::field::authorization].empty() ? std::string(req[http::field::authorization])
                                      : !client_key.empty()                   ? "Bearer " + std::string(client_key)
                                                                              : std::string();
    redactor secrets;
    secrets.add(authorization);
    using namespace asio::experimental::awaitable_operators;
    auto answer = [&]() -> asio::awaitable<bool> {
        if (const auto f = co_await up.open(std::move(std::get<std::string>(upstream_request)), authorization);
            f != failure::none)
            co_return co_await send_failure(x, f, failure_message(f, up), up.cause());
        x.record.upstream_status = up.status();
        body_source body(up);
        const auto type = media_type(up.content_type());
        if (up.status() != 200 || type == "application/json") {
            std::string text;
            if (const auto f = co_await up.read_all(text, o.max_response_bytes); f != failure::none)
                co_return co_await send_failure(x, f, failure_message(f, up), up.cause());
            if (up.status() != 200) {
                text = secrets(text);
                const auto r = refusal_of(up.status(), text);
                auto res = error_reply(r.status, r.code, r.message, x.keep_alive, x.api);
                if (const auto retry = up.retry_after(); !retry.empty() && r.status == static_cast<http::status>(up.status()))
                    res.set(http::field::retry_after, retry);
                x.record.error = failure::upstream_status;
                x.record.error_code = r.code;
                x.record.cause = "upstream body: " + clip(text, 2048);
                co_return co_await send_reply(x, std::move(res));
            }
            // One answer as the stream it stands for: an NDJSON line, or an SSE completion.
            auto translated = upstream_provider_named(o.provider)->api == upstream_api::ollama_chat ? text + "\n"
                                                                                                   : completion_as_sse(text);
            if (translated.empty() || !upstream_message(text).empty())
                co_return co_await send_failure(x, failure::bad_answer,
                                                "the upstream answered a JSON object that is not a chat completion",
                                                "upstream body: " + clip(secrets(text), 2048));
            body.replace_with(std::move(translated));
        } else if (!stream_media_type(type)) {
            co_return co_await send_failure(x, failure::bad_answer,
                                            "the upstream answered Content-Type '" + std::string(up.content_type()) +
                                                "', not a " + o.provider + " stream",
                                            "content type " + std::string(up.content_type()));
        }
        if (chat.stream)
            co_return co_await stream_answer(x, up, body, chat, client, secrets);
        co_return co_await whole_answer(x, up, body, chat, client, secrets);
    };
    auto outcome = co_await (answer() || watch_client(x.client, up));
    if (outcome.index() == 1 && x.answer_sent)   // it left after the last event, before the last chunk
        co_return false;
    if (outcome.index() == 1) {   // the client left before its answer was complete
        if (x.record.status == 0)
            x.record.status = 499;   // as nginx logs it: the client closed the request
        // A write that timed out closes the socket, which ends the watch too: its cause stands.
        if (x.record.error == failure::none) {
            x.record.error = failure::client_gone;
            x.record.error_code = std::string(code_of(failure::client_gone));
        }
        co_return false;
    }
    co_return std::get<0>(outcome);
}

} // namespace gateway
