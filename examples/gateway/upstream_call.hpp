// One streamed request to the upstream model server over plain HTTP/1.1: connect, send, read
// the status, then the body piece by piece. Every step has a deadline, so an upstream that
// stalls is a `timeout`, never a hang.
#pragma once

#include "options.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <chrono>
#include <string>
#include <string_view>

namespace gateway {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

inline constexpr auto use_nothrow = asio::as_tuple(asio::use_awaitable);

enum class upstream_failure {
    none,
    unreachable,    // could not connect or send
    timeout,        // connect or a read took longer than --upstream-timeout
    closed_early,   // the connection ended before the body did
    broken,         // not HTTP, or a body the parser refused
};

inline const char* describe(upstream_failure f)
{
    switch (f) {
    case upstream_failure::none: return "no failure";
    case upstream_failure::unreachable: return "the upstream could not be reached";
    case upstream_failure::timeout: return "the upstream timed out";
    case upstream_failure::closed_early: return "the upstream closed the connection before the end of its response";
    case upstream_failure::broken: return "the upstream sent a malformed HTTP response";
    }
    return "";
}

class upstream_call {
public:
    upstream_call(const asio::any_io_executor& executor, const options& o)
        : options_(o), stream_(executor)
    {
        parser_.body_limit(boost::none);   // a long generation is not an error; stalls are
    }

    /// Connects, sends `body` and reads the response header.
    asio::awaitable<upstream_failure> open(std::string body, std::string_view authorization)
    {
        const auto& url = options_.upstream;
        stream_.expires_after(options_.upstream_timeout);
        boost::system::error_code ec;
        const auto address = asio::ip::make_address(url.host, ec);
        if (!ec) {
            const asio::ip::tcp::endpoint endpoint(address, static_cast<unsigned short>(std::stoi(url.port)));
            std::tie(ec) = co_await stream_.async_connect(endpoint, use_nothrow);
        } else {
            asio::ip::tcp::resolver resolver(stream_.get_executor());
            auto [rec, endpoints] = co_await resolver.async_resolve(url.host, url.port, use_nothrow);
            if (rec)
                co_return upstream_failure::unreachable;
            std::tie(ec, std::ignore) = co_await stream_.async_connect(endpoints, use_nothrow);
        }
        if (ec)
            co_return failure_of(ec, upstream_failure::unreachable);

        http::request<http::string_body> req{http::verb::post, url.target, 11};
        req.set(http::field::host, url.host + ":" + url.port);
        req.set(http::field::user_agent, "toolstream-gateway");
        req.set(http::field::content_type, "application/json");
        req.set(http::field::accept, "text/event-stream, application/x-ndjson, application/json");
        if (!authorization.empty())
            req.set(http::field::authorization, authorization);
        req.body() = std::move(body);
        req.prepare_payload();
        stream_.expires_after(options_.upstream_timeout);
        std::tie(ec, std::ignore) = co_await http::async_write(stream_, req, use_nothrow);
        if (ec)
            co_return failure_of(ec, upstream_failure::unreachable);

        stream_.expires_after(options_.upstream_timeout);
        std::tie(ec, std::ignore) = co_await http::async_read_header(stream_, buffer_, parser_, use_nothrow);
        co_return ec ? failure_of(ec, upstream_failure::broken) : upstream_failure::none;
    }

    unsigned status() const { return parser_.get().result_int(); }
    bool done() const { return parser_.is_done(); }

    /// The next piece of the body into `piece` (possibly empty); check done() after each.
    asio::awaitable<upstream_failure> read(std::string_view& piece)
    {
        piece = {};
        if (parser_.is_done())
            co_return upstream_failure::none;
        parser_.get().body().data = piece_.data();
        parser_.get().body().size = piece_.size();
        stream_.expires_after(options_.upstream_timeout);
        auto [ec, n] = co_await http::async_read_some(stream_, buffer_, parser_, use_nothrow);
        if (ec == http::error::need_buffer)
            ec = {};
        piece = std::string_view(piece_.data(), piece_.size() - parser_.get().body().size);
        co_return ec ? failure_of(ec, upstream_failure::broken) : upstream_failure::none;
    }

    /// The rest of an error reply, up to `limit` bytes (for the message given to the client).
    asio::awaitable<std::string> read_error_body(std::size_t limit = 4096)
    {
        std::string text;
        std::string_view piece;
        for (int reads = 0; reads < 64 && !done() && text.size() < limit; ++reads) {
            if (co_await read(piece) != upstream_failure::none)
                break;
            text.append(piece.substr(0, limit - text.size()));
        }
        co_return text;
    }

    void close()
    {
        boost::system::error_code ignored;
        stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        stream_.close();
    }

private:
    static upstream_failure failure_of(const boost::system::error_code& ec, upstream_failure otherwise)
    {
        if (ec == beast::error::timeout)
            return upstream_failure::timeout;
        if (ec == http::error::partial_message || ec == http::error::end_of_stream || ec == asio::error::eof ||
            ec == asio::error::connection_reset || ec == asio::error::broken_pipe)
            return otherwise == upstream_failure::unreachable ? otherwise : upstream_failure::closed_early;
        return otherwise;
    }

    const options& options_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    http::response_parser<http::buffer_body> parser_;
    std::array<char, 16 * 1024> piece_{};
};

} // namespace gateway
