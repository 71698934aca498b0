// One streamed request to the upstream model server over plain HTTP/1.1: connect, send, read
// the status, then the body piece by piece. Every step has a deadline (each read, and the
// whole chat), every byte counts against the chat's and the process's limits, and a client
// that leaves can cancel it at any moment.
#pragma once

#include "../common/http_write.hpp"
#include "../common/use_nothrow.hpp"
#include "failures.hpp"
#include "options.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace gateway {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using toolstream_programs::use_nothrow;

/// Upstream bytes held by all chats, against --memory-budget.
struct memory_account {
    std::atomic<std::size_t> held{0};
    std::atomic<std::uint64_t> total{0};   // ever read, for the metrics
};

class upstream_call;

/// The upstream calls in flight, so that the end of the drain can end each one on its own strand
/// (its chat then tells the client and the log why).
class call_registry {
public:
    void add(upstream_call* c)
    {
        std::lock_guard lock(mutex_);
        calls_.insert(c);
    }
    void remove(upstream_call* c)
    {
        std::lock_guard lock(mutex_);
        calls_.erase(c);
    }
    /// Ends every call in flight with failure::shutting_down.
    void shut_down();

private:
    std::mutex mutex_;
    std::unordered_set<upstream_call*> calls_;
};

class upstream_call {
public:
    upstream_call(const asio::any_io_executor& executor, const options& o, memory_account& account, call_registry& registry)
        : options_(o), account_(account), registry_(registry), stream_(executor),
          deadline_(std::chrono::steady_clock::now() + o.max_duration)
    {
        limit_parser();
        registry_.add(this);
    }
    upstream_call(const upstream_call&) = delete;
    upstream_call& operator=(const upstream_call&) = delete;
    ~upstream_call()
    {
        registry_.remove(this);
        account_.held.fetch_sub(held_);
    }

    /// Connects, sends `body` and reads the response header.
    asio::awaitable<failure> open(std::string body, std::string_view authorization)
    {
        const auto& url = options_.upstream;
        arm();
        boost::system::error_code ec;
        const auto address = asio::ip::make_address(url.host, ec);
        if (!ec) {
            const asio::ip::tcp::endpoint endpoint(address, static_cast<unsigned short>(std::stoi(url.port)));
            std::tie(ec) = co_await stream_.async_connect(endpoint, use_nothrow);
        } else {
            asio::ip::tcp::resolver resolver(stream_.get_executor());
            auto [rec, endpoints] = co_await resolver.async_resolve(url.host, url.port, use_nothrow);
            if (rec) {
                cause_ = "resolving " + url.host + ": " + rec.message();
                co_return failure::unreachable;
            }
            std::tie(ec, std::ignore) = co_await stream_.async_connect(endpoints, use_nothrow);
        }
        if (ec)
            co_return fail(ec, failure::unreachable, "connect");

        http::request<http::string_body> req{http::verb::post, url.target, 11};
        req.set(http::field::host, url.host + ":" + url.port);
        req.set(http::field::user_agent, "toolstream-gateway");
        req.set(http::field::content_type, "application/json");
        req.set(http::field::accept, "text/event-stream, application/x-ndjson, application/json");
        if (!authorization.empty())
            req.set(http::field::authorization, authorization);
        req.body() = std::move(body);
        req.prepare_payload();
        const std::string head = toolstream_programs::head_bytes(req);
        arm();
        std::tie(ec, std::ignore) = co_await toolstream_programs::async_write_pieces(stream_, head, req.body());
        if (ec)
            co_return fail(ec, failure::unreachable, "send");
        // Interim responses (100 Continue, 103 Early Hints) come before the answer: skipped
        // (RFC 9110 15.2), a bounded number of them.
        for (int interim = 0; interim < 8; ++interim) {
            arm();
            std::tie(ec, std::ignore) = co_await http::async_read_header(stream_, buffer_, *parser_, use_nothrow);
            if (ec || status() < 100 || status() >= 200 || status() == 101)
                break;
            limit_parser();   // a fresh parser for the response after it
        }
        co_return ec ? fail(ec, failure::broken, "response header") : failure::none;
    }

    unsigned status() const { return parser_->get().result_int(); }
    /// When --max-duration ends the chat.
    std::chrono::steady_clock::time_point deadline() const { return deadline_; }
    /// The upstream's Retry-After (delay-seconds or an HTTP date, RFC 9110 10.2.3), when it is
    /// one of those and short; else empty.
    std::string_view retry_after() const
    {
        const std::string_view v = parser_->get()[http::field::retry_after];
        const bool plain = v.size() <= 64 && std::all_of(v.begin(), v.end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == ' ' || c == ',' || c == ':';
        });
        return plain ? v : std::string_view{};
    }
    std::string_view content_type() const { return parser_->get()[http::field::content_type]; }
    bool done() const { return parser_->is_done(); }
    /// What went wrong, for the log (empty when nothing did).
    const std::string& cause() const { return cause_; }

    /// The next piece of the body into `piece` (possibly empty); check done() after each.
    asio::awaitable<failure> read(std::string_view& piece)
    {
        piece = {};
        if (parser_->is_done())
            co_return failure::none;
        if (cancelled_)
            co_return failure::client_gone;
        if (shut_down_)
            co_return failure::shutting_down;
        parser_->get().body().data = piece_.data();
        parser_->get().body().size = piece_.size();
        arm();
        auto [ec, n] = co_await http::async_read_some(stream_, buffer_, *parser_, use_nothrow);
        if (ec == http::error::need_buffer)
            ec = {};
        piece = std::string_view(piece_.data(), piece_.size() - parser_->get().body().size);
        if (cancelled_)
            co_return failure::client_gone;
        if (shut_down_)
            co_return failure::shutting_down;
        if (ec)
            co_return fail(ec, failure::broken, "reading the body");
        co_return count(piece.size());
    }

    /// The rest of a small reply (an error, or a non-streamed JSON answer), up to `limit` bytes.
    asio::awaitable<failure> read_all(std::string& text, std::size_t limit)
    {
        std::string_view piece;
        for (int reads = 0; !done() && reads < 1'000'000; ++reads) {
            if (auto f = co_await read(piece); f != failure::none)
                co_return f;
            if (text.size() + piece.size() > limit) {
                text.append(piece.substr(0, limit - text.size()));
                cause_ = "a reply over " + std::to_string(limit) + " bytes";
                co_return failure::too_large;
            }
            text.append(piece);
        }
        co_return failure::none;
    }

    /// The answer is relayed piece by piece (stream: true): a piece is held only until the next
    /// one is read, so --memory-budget counts that piece, not all that was read.
    void relay_pieces() noexcept { relaying_ = true; }

    /// The client left: end the upstream request now (its read completes at once).
    void cancel()
    {
        cancelled_ = true;
        close();
    }

    /// The drain ended: end the upstream request now, as failure::shutting_down. Only on the
    /// call's own executor (call_registry::shut_down posts it there).
    void shut_down()
    {
        shut_down_ = true;
        close();
    }

    asio::any_io_executor executor() { return stream_.get_executor(); }

    void close()
    {
        boost::system::error_code ignored;
        stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        stream_.close();
    }

private:
    void limit_parser()
    {
        parser_.emplace();
        parser_->body_limit(boost::none);   // counted against --max-response-bytes instead
        parser_->header_limit(64 * 1024);
    }

    /// The next step's deadline: --upstream-timeout, but never past --max-duration.
    void arm() { stream_.expires_at(std::min(deadline_, std::chrono::steady_clock::now() + options_.upstream_timeout)); }

    failure count(std::size_t n)
    {
        if (relaying_) {   // the last piece is out: this chat holds only the new one
            account_.held.fetch_sub(held_);
            held_ = 0;
        }
        counted_ += n;
        held_ += n;
        account_.total.fetch_add(n, std::memory_order_relaxed);
        const auto held = account_.held.fetch_add(n) + n;
        if (counted_ > options_.max_response_bytes) {
            cause_ = "more than " + std::to_string(options_.max_response_bytes) + " bytes";
            return failure::too_large;
        }
        if (held > options_.memory_budget) {
            cause_ = "all chats hold more than " + std::to_string(options_.memory_budget) + " bytes";
            return failure::over_budget;
        }
        return failure::none;
    }

    failure fail(const boost::system::error_code& ec, failure otherwise, std::string_view step)
    {
        cause_ = std::string(step) + ": " + ec.message();
        if (ec == beast::error::timeout)
            return std::chrono::steady_clock::now() >= deadline_ ? failure::deadline : failure::timeout;
        if (otherwise != failure::unreachable &&
            (ec == http::error::partial_message || ec == http::error::end_of_stream || ec == asio::error::eof ||
             ec == asio::error::connection_reset || ec == asio::error::broken_pipe))
            return failure::truncated;
        return otherwise;
    }

    const options& options_;
    memory_account& account_;
    call_registry& registry_;
    beast::tcp_stream stream_;
    std::chrono::steady_clock::time_point deadline_;
    beast::flat_buffer buffer_;
    std::optional<http::response_parser<http::buffer_body>> parser_;
    std::array<char, 16 * 1024> piece_{};
    std::size_t counted_ = 0;   // read, against --max-response-bytes
    std::size_t held_ = 0;      // held, against --memory-budget
    bool relaying_ = false;
    bool cancelled_ = false;
    bool shut_down_ = false;
    std::string cause_;
};

inline void call_registry::shut_down()
{
    std::lock_guard lock(mutex_);
    for (upstream_call* c : calls_)
        asio::post(c->executor(), [this, c] {
            std::lock_guard still(mutex_);   // on the call's strand: it cannot end meanwhile
            if (calls_.contains(c))
                c->shut_down();
        });
}

} // namespace gateway
