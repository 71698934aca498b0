// What every connection shares, and one request's context: the client, its access-log record,
// how to answer it (HTTP version, keep-alive, CORS), and the writes that count what they send.
#pragma once

#include "../common/http_write.hpp"
#include "http_replies.hpp"
#include "observe.hpp"
#include "options.hpp"
#include "upstream_call.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>

namespace toolstream_viewer {
class feed_hub;
} // namespace toolstream_viewer

namespace gateway {

struct shared_state {
    explicit shared_state(const options& o) : opts(o) {}
    const options& opts;
    std::atomic<std::size_t> active_chats{0};
    std::atomic<bool> draining{false};
    memory_account memory;
    call_registry calls;
    metrics stats;
    toolstream_viewer::feed_hub* viewer = nullptr;   // --viewer: every chat's events go there too
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

/// One request being answered.
struct exchange {
    beast::tcp_stream& client;
    shared_state& state;
    request_record& record;
    bool keep_alive = true;
    unsigned version = 11;       // the client's HTTP version: 10 gets no chunked encoding
    std::string cors_origin;     // set when an allowed cross-origin browser request
    dialect api = dialect::openai_chat;   // the route's: the shape of every answer and error
    bool answer_sent = false;             // a stream's every event was written (only its end chunk may follow)
    // A chat's --max-duration, which bounds its writes to the client too.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();

    const options& opts() const { return state.opts; }

    /// The deadline of the next write to the client: --client-timeout, never past the chat's.
    void arm_write() { client.expires_at(std::min(deadline, std::chrono::steady_clock::now() + opts().client_timeout)); }

    template<class Message>
    void decorate(Message& h) const
    {
        h.version(version);
        h.keep_alive(keep_alive);
        if (!cors_origin.empty()) {
            h.set(http::field::access_control_allow_origin, cors_origin);
            h.set(http::field::vary, "Origin");
        }
    }
};

/// Writes a whole reply; false if the connection cannot serve another request.
inline asio::awaitable<bool> send_reply(exchange& x, string_response res)
{
    x.decorate(res);
    x.record.status = res.result_int();
    x.record.wrote(res.body().size());
    x.client.expires_after(x.opts().client_timeout);
    const std::string head = toolstream_programs::head_bytes(res);
    auto [ec, n] = co_await toolstream_programs::async_write_pieces(x.client, head, res.body());
    co_return !ec && res.keep_alive();
}

/// An error reply in the client's dialect; the code and cause go to the access log.
inline asio::awaitable<bool> send_error(exchange& x, http::status status, std::string_view code, std::string_view message,
                                        std::string_view cause = {})
{
    x.record.error_code = std::string(code);
    if (!cause.empty())
        x.record.cause = std::string(cause);
    co_return co_await send_reply(x, error_reply(status, code, message, x.keep_alive, x.api));
}

/// A chat's failure as an HTTP error (nothing was sent yet).
inline asio::awaitable<bool> send_failure(exchange& x, failure f, std::string_view message, std::string_view cause)
{
    x.record.error = f;
    co_return co_await send_error(x, status_of(f), code_of(f), message, cause);
}

/// Sends `out` as one piece of a streamed body (an HTTP chunk, or raw bytes for HTTP/1.0) and
/// empties it; false if the client is gone or did not read in time (client_write_failed()).
inline asio::awaitable<bool> send_piece(exchange& x, std::string& out)
{
    if (out.empty())
        co_return true;
    x.record.wrote(out.size());
    x.arm_write();
    boost::system::error_code ec;
    if (x.version >= 11) {
        const toolstream_programs::chunk_size_line size(out.size());
        std::tie(ec, std::ignore) =
            co_await toolstream_programs::async_write_pieces(x.client, size.view(), out, toolstream_programs::chunk_end);
    } else {
        std::tie(ec, std::ignore) = co_await toolstream_programs::async_write_pieces(x.client, out);
    }
    out.clear();
    co_return !ec;
}

/// A stream whose write to the client failed: the log says why (the client left or did not read
/// within --client-timeout, or the chat reached --max-duration).
inline void client_write_failed(exchange& x)
{
    const bool late = std::chrono::steady_clock::now() >= x.deadline;
    x.record.error = late ? failure::deadline : failure::client_gone;
    x.record.error_code = std::string(code_of(x.record.error));
    x.record.cause = late ? "the client had not read its stream when --max-duration passed"
                          : "a write to the client failed: it left, or did not read within --client-timeout";
}

} // namespace gateway
