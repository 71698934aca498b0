// The HTTP/1.x side: accept (bounded by --max-connections and the descriptors there are), read
// requests (bounded in size and time), check who is asking, route, keep-alive, log.
// Each connection is a coroutine on its own strand, so no client waits for another.
#pragma once

#include "../common/http_write.hpp"
#include "chat.hpp"
#include "guard.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string_view>
#include <tuple>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace gateway {

/// After an early reply (413, 408), read and drop what the client is still sending for a
/// moment, so that closing does not reset the connection before the client read the reply.
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

/// POST /v1/messages/count_tokens: an estimate (anthropic::estimate_input_tokens says how), as
/// the gateway has no tokenizer of the upstream's model.
inline asio::awaitable<bool> send_token_count(exchange& x, std::string_view body)
{
    auto parsed = parse_request_json(body);
    if (const auto* bad = std::get_if<request_error>(&parsed))
        co_return co_await send_error(x, http::status::bad_request, bad->code, bad->message);
    const auto& request = std::get<boost::json::object>(parsed);
    if (auto checked = anthropic::to_chat_body(request); const auto* bad = std::get_if<request_error>(&checked))
        co_return co_await send_error(x, http::status::bad_request, bad->code, bad->message);
    const boost::json::object count{{"input_tokens", anthropic::estimate_input_tokens(request)}};
    co_return co_await send_reply(x, json_reply(http::status::ok, boost::json::serialize(count), x.keep_alive));
}

/// Checks who is asking, then routes; returns whether the connection may serve another.
inline asio::awaitable<bool> route(exchange& x, const http::request<http::string_body>& req)
{
    const auto& o = x.opts();
    std::string_view path = req.target();
    path = path.substr(0, path.find('?'));
    if (req.version() >= 11 && req.find(http::field::host) == req.end())
        co_return co_await send_error(x, http::status::bad_request, "bad_http", "an HTTP/1.1 request needs a Host header (RFC 9112)");
    const std::string_view host = req[http::field::host];
    if (!host_allowed(o, host))
        co_return co_await send_error(x, http::status::misdirected_request, "host_not_allowed",
                                      "Host '" + std::string(host) + "' is not served here (--allow-host)");
    const auto origin = req.find(http::field::origin);
    if (origin != req.end()) {
        if (!origin_allowed(o, origin->value(), host))
            co_return co_await send_error(x, http::status::forbidden, "origin_not_allowed",
                                          "requests from origin '" + std::string(origin->value()) + "' are not allowed (--allow-origin)");
        x.cors_origin = std::string(origin->value());
    }
    if (req.method() == http::verb::options && origin != req.end()) {   // a CORS preflight
        string_response res{http::status::no_content, 11};
        res.set(http::field::access_control_allow_methods, "GET, POST, OPTIONS");
        const auto asked = req[http::field::access_control_request_headers];
        res.set(http::field::access_control_allow_headers, asked.empty() ? "authorization, content-type" : asked);
        res.set(http::field::access_control_max_age, "600");
        co_return co_await send_reply(x, std::move(res));
    }
    if (path == "/healthz") {
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            co_return co_await send_error(x, http::status::method_not_allowed, "method_not_allowed", "use GET");
        const bool draining = x.state.draining.load();
        auto res = json_reply(draining ? http::status::service_unavailable : http::status::ok,
                              draining ? R"({"status":"draining"})" : R"({"status":"ok"})", x.keep_alive);
        if (req.method() == http::verb::head) {   // GET's headers, no body (RFC 9110)
            const auto length = res.body().size();
            res.body().clear();
            res.content_length(length);
        }
        co_return co_await send_reply(x, std::move(res));
    }
    if (!authorized(o, req[http::field::authorization], req["x-api-key"])) {
        auto res = error_reply(http::status::unauthorized, "invalid_api_key",
                               "this gateway needs Authorization: Bearer <key> or x-api-key: <key> (--api-key-env)",
                               x.keep_alive, x.api);
        res.set(http::field::www_authenticate, "Bearer");
        x.record.error_code = "invalid_api_key";
        co_return co_await send_reply(x, std::move(res));
    }
    const auto method_not_allowed = [&](std::string_view allowed) {
        auto res = error_reply(http::status::method_not_allowed, "method_not_allowed",
                               std::string(req.method_string()) + " is not allowed on " + std::string(path), x.keep_alive,
                               x.api);
        res.set(http::field::allow, allowed);
        x.record.error_code = "method_not_allowed";
        return res;
    };
    const bool posted_json = req.method() == http::verb::post && media_type(req[http::field::content_type]) == "application/json";
    if (path == "/v1/chat/completions" || path == "/v1/messages" || path == "/v1/responses" ||
        path == "/v1/messages/count_tokens") {
        if (req.method() != http::verb::post)
            co_return co_await send_reply(x, method_not_allowed("POST"));
        if (!posted_json)
            co_return co_await send_error(x, http::status::unsupported_media_type, "unsupported_media_type",
                                          "Content-Type must be application/json, not '" +
                                              std::string(req[http::field::content_type]) + "'");
        if (path == "/v1/messages/count_tokens")
            co_return co_await send_token_count(x, req.body());
        if (x.state.draining.load())
            x.keep_alive = false;
        co_return co_await serve_chat(x, req);
    }
    if (path == "/v1/models") {
        if (req.method() != http::verb::get)
            co_return co_await send_reply(x, method_not_allowed("GET"));
        co_return co_await send_reply(x, models_reply(o.models, x.keep_alive));
    }
    if (path == "/metrics") {
        if (req.method() != http::verb::get)
            co_return co_await send_reply(x, method_not_allowed("GET"));
        auto res = json_reply(http::status::ok, x.state.stats.text(x.state.active_chats.load(), x.state.memory.total.load()), x.keep_alive);
        res.set(http::field::content_type, "text/plain; version=0.0.4");
        co_return co_await send_reply(x, std::move(res));
    }
    co_return co_await send_error(x, http::status::not_found, "not_found", "no route for " + std::string(path));
}

inline asio::awaitable<void> serve_connection(beast::tcp_stream client, shared_state& state)
{
    const auto& o = state.opts;
    beast::flat_buffer buffer;
    // The read's deadline cancels the read rather than closing the socket (as the stream's own
    // timeout would): a client that stalled mid-request is still told 408.
    asio::steady_timer read_deadline(client.get_executor());
    std::uint64_t reads = 0;
    bool timed_out = false;
    for (bool keep = true; keep && !state.draining.load();) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(o.max_body);
        client.expires_never();
        read_deadline.expires_after(o.client_timeout);
        timed_out = false;
        read_deadline.async_wait([&, read = ++reads](const boost::system::error_code& e) {
            if (!e && read == reads) {
                timed_out = true;
                boost::system::error_code ignored;
                client.socket().cancel(ignored);
            }
        });
        auto [ec, n] = co_await http::async_read_header(client, buffer, parser, use_nothrow);
        if (!ec && parser.get().version() >= 11 && beast::iequals(parser.get()[http::field::expect], "100-continue")) {
            // The client waits for this before it sends the body (RFC 9110); a body over
            // --max-body was refused from its Content-Length already.
            static constexpr std::string_view go_on = "HTTP/1.1 100 Continue\r\n\r\n";
            std::tie(ec, std::ignore) = co_await toolstream_programs::async_write_pieces(client, go_on);
        }
        if (!ec && !parser.is_done())
            std::tie(ec, n) = co_await http::async_read(client, buffer, parser, use_nothrow);
        ++reads;   // a deadline that fires from now on is stale
        read_deadline.cancel();
        if (timed_out)
            ec = beast::error::timeout;
        request_record record;
        record.bytes_in = parser.get().body().size();
        exchange x{client, state, record, false, 11, {}};
        // The request line is known before the header is done (a Content-Length over --max-body
        // is refused there): its route shapes every answer from here on, errors included.
        if (parser.is_header_done() || !parser.get().target().empty()) {
            record.method = std::string(parser.get().method_string());
            record.path = std::string(parser.get().target().substr(0, parser.get().target().find('?')));
            x.api = dialect_of_route(record.path);
        }
        if (parser.is_header_done())
            x.version = parser.get().version() >= 11 ? 11 : 10;
        if (ec == http::error::body_limit) {
            co_await send_error(x, http::status::payload_too_large, "body_too_large",
                                "the request body is over --max-body (" + std::to_string(o.max_body) + " bytes)");
            finish_record(record, state.stats);
            co_await close_gracefully(client);
            co_return;
        }
        if (ec == beast::error::timeout && parser.got_some()) {   // a request begun, then stalled
            co_await send_error(x, http::status::request_timeout, "request_timeout",
                                "the request was not received within --client-timeout");
            finish_record(record, state.stats);
            co_await close_gracefully(client);
            co_return;
        }
        if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::eof ||
            ec == asio::error::connection_reset || ec == http::error::partial_message)
            break;   // the client is gone or idle
        if (ec) {
            co_await send_error(x, http::status::bad_request, "bad_http", "malformed HTTP request: " + ec.message());
            finish_record(record, state.stats);
            co_await close_gracefully(client);
            co_return;
        }
        x.keep_alive = parser.get().keep_alive();
        keep = co_await route(x, parser.get());
        finish_record(record, state.stats);
    }
    read_deadline.cancel();
    boost::system::error_code ignored;
    client.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

/// Counts a connection among --max-connections while it lives.
struct connection_count {
    metrics& m;
    explicit connection_count(metrics& s) : m(s) { m.connections.fetch_add(1); }
    connection_count(const connection_count&) = delete;
    connection_count& operator=(const connection_count&) = delete;
    ~connection_count() { m.connections.fetch_sub(1); }
};

template<class Socket>
asio::awaitable<void> counted_connection(Socket socket, shared_state& state)
{
    connection_count counted(state.stats);
    co_await serve_connection(beast::tcp_stream(std::move(socket)), state);
}

/// Answers 503 on a just-accepted descriptor and closes it, without a coroutine and without
/// blocking: the gateway is full.
inline void refuse_connection(int fd, metrics& m, std::string_view why)
{
    static const std::string reply = [] {
        const std::string body =
            R"({"error":{"message":"the gateway is at --max-connections; retry","type":"server_error","code":"too_many_connections"}})";
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
               "Connection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }();
    [[maybe_unused]] const auto sent = ::send(fd, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
    if (m.connections_refused.fetch_add(1) % 1000 == 0)   // the first of each thousand, not a flood
        log_line({{"time", utc_now()}, {"event", "connection_refused"}, {"cause", why},
                  {"connections", m.connections.load()}, {"refused_so_far", m.connections_refused.load()}});
}

/// Accepts until the acceptor is closed; each connection gets its own strand. Out of
/// descriptors, a spare one is given up to accept the waiting client and tell it 503.
inline asio::awaitable<void> accept_connections(asio::ip::tcp::acceptor& acceptor, shared_state& state)
{
    int spare = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    for (;;) {
        auto [ec, socket] = co_await acceptor.async_accept(asio::make_strand(acceptor.get_executor()), use_nothrow);
        if (ec == asio::error::operation_aborted || !acceptor.is_open())
            break;
        if (ec == asio::error::no_descriptors || ec.value() == ENFILE) {
            // Give up the spare descriptor to take the waiting client and tell it 503 (never
            // blocking: the connections that are ending must run to free theirs), then pause.
            if (spare >= 0)
                ::close(spare);
            if (const int fd = ::accept4(acceptor.native_handle(), nullptr, nullptr, SOCK_CLOEXEC); fd >= 0)
                refuse_connection(fd, state.stats, "out of file descriptors (" + ec.message() + ")");
            spare = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            asio::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(5));
            co_await pause.async_wait(use_nothrow);
            continue;
        }
        if (ec) {   // wait a little rather than spin
            asio::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(50));
            co_await pause.async_wait(use_nothrow);
            continue;
        }
        if (state.stats.connections.load() >= state.opts.max_connections || state.draining.load()) {
            boost::system::error_code rec;
            if (const int fd = socket.release(rec); !rec)
                refuse_connection(fd, state.stats, state.draining.load() ? "draining" : "--max-connections");
            continue;
        }
        auto executor = socket.get_executor();
        asio::co_spawn(executor, counted_connection(std::move(socket), state), [](std::exception_ptr e) {
            if (e) {   // only this connection is lost; say why
                try {
                    std::rethrow_exception(e);
                } catch (const std::exception& ex) {
                    log_line({{"time", utc_now()}, {"event", "connection_dropped"}, {"cause", ex.what()}});
                }
            }
        });
    }
    if (spare >= 0)
        ::close(spare);
}

} // namespace gateway
