// A small HTTP/1.1 client for the gateway's tests and load client: coroutines on a caller's
// io_context, every read and write with a deadline, and the moments the answer began and ended.
#pragma once

#include "fake_upstream.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace gateway_test {

struct http_answer {
    std::string error;              // empty when a whole response was read
    unsigned status = 0;
    std::string content_type;
    std::string allow;
    std::string body;               // chunked transfer decoded
    unsigned version = 0;
    http::fields headers;           // all of them
    std::chrono::steady_clock::time_point first_body_byte{};   // when the first body bytes arrived
    std::chrono::steady_clock::time_point finished{};
};

/// One request on a new connection. `on_body` (optional) is called with the body so far after
/// each read that added to it.
inline asio::awaitable<http_answer> exchange(unsigned short port, http::verb verb, std::string target, std::string body,
                                             std::chrono::milliseconds timeout = std::chrono::seconds(20),
                                             std::function<void(const std::string&)> on_body = {},
                                             std::function<void(http::request<http::string_body>&)> prepare = {})
{
    http_answer a;
    beast::tcp_stream stream(co_await asio::this_coro::executor);
    stream.expires_after(timeout);
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
    if (auto [ec] = co_await stream.async_connect(endpoint, nothrow); ec) {
        a.error = "connect: " + ec.message();
        co_return a;
    }
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!body.empty())
        req.set(http::field::content_type, "application/json");
    req.body() = std::move(body);
    req.prepare_payload();
    if (prepare)
        prepare(req);   // other headers, for the tests of who may call
    if (auto [ec, n] = co_await http::async_write(stream, req, nothrow); ec) {
        a.error = "write: " + ec.message();
        co_return a;
    }
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    if (auto [ec, n] = co_await http::async_read_header(stream, buffer, parser, nothrow); ec) {
        a.error = "read header: " + ec.message();
        co_return a;
    }
    for (int reads = 0; !parser.is_done() && reads < 1'000'000; ++reads) {
        const auto before = parser.get().body().size();
        auto [ec, n] = co_await http::async_read_some(stream, buffer, parser, nothrow);
        if (ec) {
            a.error = "read body: " + ec.message();
            break;
        }
        if (parser.get().body().size() > before) {
            if (a.first_body_byte == std::chrono::steady_clock::time_point{})
                a.first_body_byte = std::chrono::steady_clock::now();
            if (on_body)
                on_body(parser.get().body());
        }
    }
    a.finished = std::chrono::steady_clock::now();
    const auto& res = parser.get();
    a.status = res.result_int();
    a.content_type = std::string(res[http::field::content_type]);
    a.allow = std::string(res[http::field::allow]);
    a.body = res.body();
    a.version = res.version();
    for (const auto& f : res.base())
        a.headers.insert(f.name_string(), f.value());
    boost::system::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    co_return a;
}

/// Sends `raw` bytes as they are and reads one response (for malformed requests).
inline asio::awaitable<http_answer> raw_exchange(unsigned short port, std::string raw,
                                                 std::chrono::milliseconds timeout = std::chrono::seconds(20))
{
    http_answer a;
    beast::tcp_stream stream(co_await asio::this_coro::executor);
    stream.expires_after(timeout);
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
    if (auto [ec] = co_await stream.async_connect(endpoint, nothrow); ec) {
        a.error = "connect: " + ec.message();
        co_return a;
    }
    // The gateway may answer (413) before it has read everything: a failed write is not fatal.
    co_await asio::async_write(stream, asio::buffer(raw), nothrow);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    if (auto [ec, n] = co_await http::async_read(stream, buffer, res, nothrow); ec) {
        a.error = "read: " + ec.message();
        co_return a;
    }
    a.status = res.result_int();
    a.content_type = std::string(res[http::field::content_type]);
    a.body = res.body();
    a.version = res.version();
    for (const auto& f : res.base())
        a.headers.insert(f.name_string(), f.value());
    co_return a;
}

/// Runs one exchange to completion on a fresh io_context, bounded by `timeout`.
template<class Make>
http_answer run_one(Make make, std::chrono::milliseconds timeout = std::chrono::seconds(30))
{
    asio::io_context ioc;
    http_answer out;
    out.error = "did not finish in time";
    asio::co_spawn(ioc, make(), [&](std::exception_ptr e, http_answer a) {
        if (!e)
            out = std::move(a);
    });
    ioc.run_for(timeout);
    return out;
}

inline http_answer get(unsigned short port, std::string target)
{
    return run_one([&] { return exchange(port, http::verb::get, target, {}); });
}

inline http_answer post(unsigned short port, std::string target, std::string body,
                        std::chrono::milliseconds timeout = std::chrono::seconds(20))
{
    return run_one([&] { return exchange(port, http::verb::post, target, body, timeout); });
}

/// One request whose headers `prepare` changes after the usual ones are set.
inline http_answer send_with(unsigned short port, http::verb verb, std::string target, std::string body,
                        std::function<void(http::request<http::string_body>&)> prepare)
{
    return run_one([&] { return exchange(port, verb, target, body, std::chrono::seconds(20), {}, prepare); });
}

} // namespace gateway_test
