// The viewer's HTTP side (Beast): GET / serves the embedded page, GET /events the feed as
// Server-Sent Events (`data: <line>`), GET /feed the same lines as NDJSON (what the page reads),
// one line per event, from a feed_hub. Shared by
// toolstream-replay --serve and the gateway's --viewer.
#pragma once

#include "../common/http_guard.hpp"
#include "../common/http_write.hpp"
#include "../common/use_nothrow.hpp"
#include "feed_hub.hpp"
#include "viewer_page.hpp"   // generated from viewer.html by viewer.cmake

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

namespace toolstream_viewer {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using toolstream_programs::use_nothrow;

struct server_options {
    std::string api_key;   // when set, GET /events and /feed need `Authorization: Bearer KEY` or `?key=KEY`
    std::chrono::seconds ping_every{15};   // an SSE comment, so that a dead page is noticed
};

/// The embedded page; TOOLSTREAM_VIEWER_PAGE=FILE serves FILE instead, read per request, with the
/// viewer.js beside it written in as embed.cmake does (for working on the page without rebuilding).
inline std::string page_html()
{
    if (const char* path = std::getenv("TOOLSTREAM_VIEWER_PAGE"); path != nullptr && *path != '\0') {
        const auto read = [](const std::filesystem::path& file) {
            std::ifstream in(file, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        };
        std::string page = read(path);
        constexpr std::string_view tag = R"(<script src="viewer.js"></script>)";
        if (const auto at = page.find(tag); at != std::string::npos)
            page.replace(at, tag.size(), "<script>\n" + read(std::filesystem::path(path).parent_path() / "viewer.js") + "</script>");
        return page;
    }
    return {reinterpret_cast<const char*>(viewer_page_bytes), sizeof viewer_page_bytes};
}

namespace detail {

// The value of `name` in the query string of `target` (no percent-decoding: keys are tokens).
inline std::string_view query_value(std::string_view target, std::string_view name)
{
    const auto q = target.find('?');
    if (q == std::string_view::npos)
        return {};
    std::string_view rest = target.substr(q + 1);
    while (!rest.empty()) {
        const auto amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
            return pair.substr(name.size() + 1);
        if (amp == std::string_view::npos)
            break;
        rest = rest.substr(amp + 1);
    }
    return {};
}

inline bool authorised(const http::request<http::empty_body>& req, const server_options& o)
{
    if (o.api_key.empty())
        return true;
    using toolstream_programs::same_secret;
    const bool by_header = same_secret(req[http::field::authorization], "Bearer " + o.api_key);
    const bool by_query = same_secret(query_value(req.target(), "key"), o.api_key);
    return by_header || by_query;
}

inline asio::awaitable<void> reply(beast::tcp_stream& client, http::status status, std::string_view type,
                                   std::string body)
{
    http::response<http::string_body> res{status, 11};
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    res.set("X-Content-Type-Options", "nosniff");
    res.keep_alive(false);
    res.body() = std::move(body);
    res.prepare_payload();
    client.expires_after(std::chrono::seconds(30));
    const std::string head = toolstream_programs::head_bytes(res);
    co_await toolstream_programs::async_write_pieces(client, head, res.body());
}

enum class framing { sse, ndjson };

// Streams the hub to one page until it goes away: as SSE (`data: LINE` and a blank line), or as
// NDJSON (`LINE\n`), which a page reads with fetch() several times faster than an EventSource
// dispatches events.
inline asio::awaitable<void> stream_events(beast::tcp_stream& client, feed_hub& hub, const server_options& o, framing f)
{
    const std::string_view head = f == framing::sse
        ? "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
          "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        : "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson; charset=utf-8\r\n"
          "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
    client.expires_never();
    auto [hec, hn] = co_await toolstream_programs::async_write_pieces(client, head);
    if (hec)
        co_return;
    auto executor = co_await asio::this_coro::executor;
    auto wake = std::make_shared<asio::steady_timer>(executor);
    const auto queue = hub.subscribe([executor, weak = std::weak_ptr(wake)] {
        asio::post(executor, [weak] {
            if (auto timer = weak.lock())
                timer->cancel();
        });
    });
    std::string frame;
    for (;;) {
        auto lines = hub.take(*queue);
        frame.clear();
        for (const auto& line : lines) {
            if (f == framing::sse)
                frame += "data: ";
            frame += line;
            frame += f == framing::sse ? "\n\n" : "\n";
        }
        if (lines.empty()) {
            wake->expires_after(o.ping_every);
            auto [ec] = co_await wake->async_wait(use_nothrow);
            if (ec != asio::error::operation_aborted)
                frame = f == framing::sse ? ": ping\n\n" : "\n";   // nothing for a while: is the page there?
            else
                continue;
        }
        auto [ec, n] = co_await toolstream_programs::async_write_pieces(client, frame);
        if (ec)
            break;
    }
    hub.unsubscribe(queue);
}

inline asio::awaitable<void> serve_viewer_connection(beast::tcp_stream client, feed_hub& hub, const server_options& o)
{
    beast::flat_buffer buffer;
    http::request_parser<http::empty_body> parser;
    parser.header_limit(16 * 1024);
    client.expires_after(std::chrono::seconds(30));
    auto [ec, n] = co_await http::async_read(client, buffer, parser, use_nothrow);
    if (ec)
        co_return;
    const auto& req = parser.get();
    std::string_view path = req.target();
    path = path.substr(0, path.find('?'));
    // The viewer listens on an IP address: a Host naming anything but an address or localhost is
    // a page that rebound its domain to this one (DNS rebinding) and must not read the traffic.
    if (!toolstream_programs::host_cannot_be_rebound(req[http::field::host], {}))
        co_await reply(client, http::status::misdirected_request, "text/plain", "unknown Host\n");
    else if (req.method() != http::verb::get)
        co_await reply(client, http::status::method_not_allowed, "text/plain", "GET only\n");
    else if (path == "/" || path == "/index.html")
        co_await reply(client, http::status::ok, "text/html; charset=utf-8", page_html());
    else if ((path == "/events" || path == "/feed") && !authorised(req, o))
        co_await reply(client, http::status::unauthorized, "text/plain", "this viewer needs its key: ?key=KEY\n");
    else if (path == "/events" || path == "/feed")
        co_await stream_events(client, hub, o, path == "/events" ? framing::sse : framing::ndjson);
    else
        co_await reply(client, http::status::not_found, "text/plain", "not found\n");
    boost::system::error_code ignored;
    client.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
}

} // namespace detail

/// Accepts pages until the acceptor is closed; each connection on its own strand.
inline asio::awaitable<void> accept_viewers(asio::ip::tcp::acceptor& acceptor, feed_hub& hub, const server_options& o)
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
        asio::co_spawn(executor, detail::serve_viewer_connection(beast::tcp_stream(std::move(socket)), hub, o),
                       asio::detached);
    }
}

/// Opens a listening acceptor on "HOST:PORT" (port 0: any free one); false and `error` otherwise.
inline bool listen_on(asio::ip::tcp::acceptor& acceptor, std::string_view address, std::string& error)
{
    const auto colon = address.rfind(':');
    if (colon == std::string_view::npos) {
        error = "--listen needs HOST:PORT, not " + std::string(address);
        return false;
    }
    std::string host(address.substr(0, colon));
    if (host.size() > 1 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    unsigned port = 0;
    for (const char c : address.substr(colon + 1)) {
        if (c < '0' || c > '9' || (port = port * 10 + static_cast<unsigned>(c - '0')) > 65535) {
            error = "bad port in --listen " + std::string(address);
            return false;
        }
    }
    boost::system::error_code ec;
    const auto ip = asio::ip::make_address(host, ec);
    if (ec) {
        error = "--listen needs an IP address, not " + host;
        return false;
    }
    const asio::ip::tcp::endpoint endpoint(ip, static_cast<unsigned short>(port));
    acceptor.open(endpoint.protocol(), ec);
    if (!ec)
        acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec)
        acceptor.bind(endpoint, ec);
    if (!ec)
        acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        error = "cannot listen on " + std::string(address) + ": " + ec.message();
        return false;
    }
    return true;
}

} // namespace toolstream_viewer
