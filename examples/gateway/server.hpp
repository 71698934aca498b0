// The HTTP/1.1 side: accept, read requests (bounded in size and time), route, keep-alive.
// Each connection is a coroutine on its own strand, so no client waits for another.
#pragma once

#include "chat.hpp"
#include "http_replies.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <chrono>
#include <exception>
#include <iostream>
#include <string_view>

namespace gateway {

/// After an early reply (413), read and drop what the client is still sending for a moment, so
/// that closing does not reset the connection before the client has read the reply.
inline asio::awaitable<void> close_gracefully(beast::tcp_stream& client)
{
    boost::system::error_code ec;
    client.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
    std::array<char, 16 * 1024> sink{};
    client.expires_after(std::chrono::seconds(1));
    for (int reads = 0; reads < 1024; ++reads) {   // at most 16 MiB, at most a second
        auto [rec, n] = co_await client.async_read_some(asio::buffer(sink), use_nothrow);
        if (rec)
            break;
    }
    client.close();
}

/// Routes one request; returns whether the connection may serve another.
inline asio::awaitable<bool> route(beast::tcp_stream& client, const http::request<http::string_body>& req,
                                   shared_state& state)
{
    const auto& o = state.opts;
    const bool keep_alive = req.keep_alive();
    std::string_view path = req.target();
    path = path.substr(0, path.find('?'));
    const auto method_not_allowed = [&](std::string_view allowed) {
        auto res = error_reply(http::status::method_not_allowed, "method_not_allowed",
                               std::string(req.method_string()) + " is not allowed on " + std::string(path), keep_alive);
        res.set(http::field::allow, allowed);
        return res;
    };
    if (path == "/v1/chat/completions") {
        if (req.method() != http::verb::post)
            co_return co_await send_reply(client, method_not_allowed("POST"), o.client_timeout);
        co_return co_await serve_chat(client, req, state);
    }
    if (path == "/v1/models") {
        if (req.method() != http::verb::get)
            co_return co_await send_reply(client, method_not_allowed("GET"), o.client_timeout);
        co_return co_await send_reply(client, models_reply(o.models, keep_alive), o.client_timeout);
    }
    co_return co_await send_reply(client, error_reply(http::status::not_found, "not_found",
                                                      "no route for " + std::string(path), keep_alive), o.client_timeout);
}

inline asio::awaitable<void> serve_connection(beast::tcp_stream client, shared_state& state)
{
    const auto& o = state.opts;
    beast::flat_buffer buffer;
    for (bool keep = true; keep;) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(o.max_body);
        client.expires_after(o.client_timeout);
        auto [ec, n] = co_await http::async_read(client, buffer, parser, use_nothrow);
        if (ec == http::error::body_limit) {
            co_await send_reply(client, error_reply(http::status::payload_too_large, "body_too_large",
                                                    "the request body is over --max-body (" + std::to_string(o.max_body) + " bytes)", false),
                                o.client_timeout);
            co_await close_gracefully(client);
            co_return;
        }
        if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::eof ||
            ec == asio::error::connection_reset || ec == http::error::partial_message)
            break;   // the client is gone or idle
        if (ec) {
            co_await send_reply(client, error_reply(http::status::bad_request, "bad_http", "malformed HTTP request: " + ec.message(), false),
                                o.client_timeout);
            co_await close_gracefully(client);
            co_return;
        }
        keep = co_await route(client, parser.get(), state);
    }
    boost::system::error_code ignored;
    client.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

/// Accepts until the acceptor is closed; each connection gets its own strand.
inline asio::awaitable<void> accept_connections(asio::ip::tcp::acceptor& acceptor, shared_state& state)
{
    for (;;) {
        auto [ec, socket] = co_await acceptor.async_accept(asio::make_strand(acceptor.get_executor()), use_nothrow);
        if (ec == asio::error::operation_aborted || !acceptor.is_open())
            co_return;
        if (ec) {   // out of descriptors, say: wait a little rather than spin
            asio::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(50));
            co_await pause.async_wait(use_nothrow);
            continue;
        }
        auto executor = socket.get_executor();
        asio::co_spawn(executor, serve_connection(beast::tcp_stream(std::move(socket)), state), [](std::exception_ptr e) {
            if (e) {   // only this connection is lost; say why
                try {
                    std::rethrow_exception(e);
                } catch (const std::exception& ex) {
                    std::cerr << "toolstream-gateway: connection dropped: " << ex.what() << "\n";
                }
            }
        });
    }
}

} // namespace gateway
