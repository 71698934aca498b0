// What tests/gateway/viewer_tests.cpp reads the gateway's --viewer with: a page's GET /feed,
// the viewer's port from the access log, the ports a process listens on, and the feed's lines.
#pragma once

#include "gateway/helpers.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace gateway_test {

using clock_type = std::chrono::steady_clock;

/// What a page read from GET /feed: the status, each NDJSON line parsed (pings left out), and
/// when the first `delta` line arrived.
struct feed_read {
    std::string error;
    unsigned status = 0;
    std::string body;   // the whole body (a refusal's text)
    std::vector<json::object> lines;
    clock_type::time_point first_delta{};
};

/// Reads `target` of the viewer on `port` (with `authorization` when not empty) until `done`
/// holds for the lines so far, the connection ends, or `timeout`. `subscribed` is called once,
/// when the feed's first line (its `reset`) arrived: the page is then on the hub. `host` is the
/// Host header.
inline asio::awaitable<feed_read> read_feed(unsigned short port, std::string target, std::string authorization,
                                     std::function<bool(const std::vector<json::object>&)> done,
                                     std::function<void()> subscribed, std::chrono::milliseconds timeout,
                                     std::string host = "127.0.0.1")
{
    feed_read r;
    beast::tcp_stream stream(co_await asio::this_coro::executor);
    stream.expires_after(timeout);   // one deadline for the whole read
    if (auto [ec] = co_await stream.async_connect({asio::ip::make_address("127.0.0.1"), port}, nothrow); ec) {
        r.error = "connect: " + ec.message();
        co_return r;
    }
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n";
    if (!authorization.empty())
        request += "Authorization: " + authorization + "\r\n";
    request += "\r\n";
    if (auto [ec, n] = co_await asio::async_write(stream, asio::buffer(request), nothrow); ec) {
        r.error = "write: " + ec.message();
        co_return r;
    }
    std::string raw;
    std::size_t body_at = std::string::npos, parsed_to = 0;
    char buffer[16 * 1024];
    for (int reads = 0; reads < 100'000; ++reads) {
        auto [ec, n] = co_await stream.async_read_some(asio::buffer(buffer), nothrow);
        raw.append(buffer, n);
        if (body_at == std::string::npos && (body_at = raw.find("\r\n\r\n")) != std::string::npos) {
            body_at += 4;
            parsed_to = body_at;
            if (raw.starts_with("HTTP/1.1 ") && raw.size() > 12)
                r.status = static_cast<unsigned>(std::stoi(raw.substr(9, 3)));
        }
        if (body_at != std::string::npos) {
            for (auto nl = raw.find('\n', parsed_to); nl != std::string::npos; nl = raw.find('\n', parsed_to)) {
                const std::string line = raw.substr(parsed_to, nl - parsed_to);
                parsed_to = nl + 1;
                if (r.status != 200 || line.empty())
                    continue;   // a refusal's text; a ping
                const auto v = parse(line);
                if (!v.is_object()) {
                    r.error = "not a JSON object: " + line;
                    co_return r;
                }
                if (v.at("type") == "delta" && r.first_delta == clock_type::time_point{})
                    r.first_delta = clock_type::now();
                r.lines.push_back(v.get_object());
                if (r.lines.size() == 1 && subscribed)
                    subscribed();
            }
            if (r.status == 200 && done(r.lines))
                break;
        }
        if (ec) {
            if (ec != asio::error::eof)
                r.error = "read: " + ec.message();
            break;
        }
    }
    if (body_at != std::string::npos)
        r.body = raw.substr(body_at);
    boost::system::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    co_return r;
}

inline std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The viewer's port from the access log's `{"event":"viewer","url":"http://127.0.0.1:PORT/"}`
/// (written before the gateway prints `listening on`); 0 when it is not there.
inline unsigned short viewer_port_of(const std::string& log_path)
{
    std::istringstream log(slurp(log_path));
    for (std::string line; std::getline(log, line);) {
        const auto v = parse(line);
        if (!v.is_object() || v.get_object().if_contains("event") == nullptr || v.at("event") != "viewer")
            continue;
        const std::string url(v.at("url").as_string());
        const std::string prefix = "http://127.0.0.1:";
        if (url.starts_with(prefix))
            return static_cast<unsigned short>(std::stoi(url.substr(prefix.size())));
    }
    return 0;
}

/// The TCP ports process `pid` listens on (Linux: its socket inodes in /proc/net/tcp{,6}).
inline std::set<unsigned short> listening_ports(pid_t pid)
{
    std::set<std::string> inodes;
    for (const auto& fd : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
        std::error_code ec;
        const auto target = std::filesystem::read_symlink(fd.path(), ec).string();
        if (!ec && target.starts_with("socket:["))
            inodes.insert(target.substr(8, target.size() - 9));
    }
    std::set<unsigned short> ports;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::istringstream in(slurp(table));
        std::string line;
        std::getline(in, line);   // the header
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
            fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
            if (state == "0A" && inodes.contains(inode))   // LISTEN
                ports.insert(static_cast<unsigned short>(std::stoul(local.substr(local.rfind(':') + 1), nullptr, 16)));
        }
    }
    return ports;
}

/// The ports the gateway `pid` opened to listen: those it inherited from this test (the fake
/// upstream's) are not its own.
inline std::set<unsigned short> own_listening_ports(pid_t pid)
{
    auto ports = listening_ports(pid);
    for (const auto p : listening_ports(getpid()))
        ports.erase(p);
    return ports;
}

struct run_result {
    int status = -1;
    std::string out, err;
};

/// The gateway with `args` to completion (--exit-after bounds it when it starts).
inline run_result run_gateway(const std::string& args)
{
    const std::string out = "gateway_viewer_cli_out.txt", err = "gateway_viewer_cli_err.txt";
    const int status = std::system((gateway_binary + " " + args + " >" + out + " 2>" + err).c_str());
    run_result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    std::remove(out.c_str());
    std::remove(err.c_str());
    return r;
}

/// Whether `v` is the string `s` (Boost 1.81 compares a json::value with no string_view).
inline bool is(const json::value& v, std::string_view s)
{
    return v.is_string() && v.get_string() == s;
}

/// The lines of one stream.
inline std::vector<json::object> lines_of(const std::vector<json::object>& lines, std::string_view stream)
{
    std::vector<json::object> out;
    for (const auto& l : lines)
        if (const auto* s = l.if_contains("stream"); s != nullptr && is(*s, stream))
            out.push_back(l);
    return out;
}

/// What the `delta` lines of segments of `kind` carried, joined.
inline std::string text_of(const std::vector<json::object>& lines, std::string_view kind)
{
    std::string out;
    for (const auto& l : lines)
        if (is(l.at("type"), "delta") && is(l.at("kind"), kind))
            out += l.at("text").as_string();
    return out;
}

inline const json::object* find_line(const std::vector<json::object>& lines, std::string_view type, std::string_view kind = {})
{
    for (const auto& l : lines)
        if (is(l.at("type"), type) && (kind.empty() || (l.contains("kind") && is(l.at("kind"), kind))))
            return &l;
    return nullptr;
}

/// Whether every stream in `streams` has its `finish` line.
inline bool finished(const std::vector<json::object>& lines, std::vector<std::string> streams)
{
    for (const auto& s : streams)
        if (find_line(lines_of(lines, s), "finish") == nullptr)
            return false;
    return true;
}

} // namespace gateway_test
