// toolstream-gateway's command line: where to listen, which upstream, how to read it, the limits.
#pragma once

#include <toolstream/registry.hpp>

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway {

/// A plain-HTTP upstream URL, split.
struct upstream_url {
    std::string host;
    std::string port = "80";
    std::string target = "/";   // path and query, sent as is
};

struct options {
    std::string listen_host = "127.0.0.1";
    std::uint16_t listen_port = 8080;
    upstream_url upstream;
    std::string provider;
    std::string parser = "api_tool_call";
    std::string reasoning_parser;             // accepted; see the README (pending in the library)
    std::optional<bool> thinking_open;        // --thinking-open yes|no: the prompt left thinking open
    std::vector<std::string> models;          // GET /v1/models
    std::size_t max_body = 4 * 1024 * 1024;   // request body, bytes
    std::size_t max_streams = 64;             // chat requests in flight
    std::chrono::milliseconds upstream_timeout{60'000};   // connect, and each read of the upstream
    std::chrono::milliseconds client_timeout{60'000};     // reading a request, each write to a client
    std::size_t threads = 1;
    std::chrono::seconds exit_after{0};      // 0: run until SIGINT/SIGTERM
};

inline constexpr std::string_view usage_text =
    "usage: toolstream-gateway --upstream http://HOST[:PORT]/PATH --provider openai_chat|ollama|mistral\n"
    "                          [--listen HOST:PORT] [--parser NAME] [--reasoning-parser NAME] [--thinking-open yes|no]\n"
    "                          [--model NAME]... [--max-body BYTES] [--max-streams N]\n"
    "                          [--upstream-timeout MS] [--client-timeout MS] [--threads N]\n"
    "                          [--exit-after SECONDS]\n"
    "Serves POST /v1/chat/completions (stream true or false) and GET /v1/models.\n"
    "--listen defaults to 127.0.0.1:8080; port 0 picks a free port. The address is printed\n"
    "on stdout as `listening on HOST:PORT`.\n";

/// Providers whose request dialect the gateway can speak.
inline bool translatable_provider(std::string_view p)
{
    return p == "openai_chat" || p == "ollama" || p == "mistral";
}

template<class T>
bool parse_number(std::string_view text, T& out)
{
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && end == text.data() + text.size();
}

inline std::optional<upstream_url> parse_upstream_url(std::string_view url)
{
    constexpr std::string_view scheme = "http://";
    if (!url.starts_with(scheme))
        return std::nullopt;   // plain HTTP only: the upstream is a local model server
    url.remove_prefix(scheme.size());
    upstream_url u;
    const auto slash = url.find('/');
    const auto authority = url.substr(0, slash);
    if (slash != std::string_view::npos)
        u.target = std::string(url.substr(slash));
    const auto colon = authority.rfind(':');
    if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
        u.host = std::string(authority.substr(0, colon));
        u.port = std::string(authority.substr(colon + 1));
        std::uint16_t port = 0;
        if (!parse_number(u.port, port) || port == 0)
            return std::nullopt;
    } else {
        u.host = std::string(authority);
    }
    if (u.host.size() > 2 && u.host.front() == '[' && u.host.back() == ']')
        u.host = u.host.substr(1, u.host.size() - 2);
    if (u.host.empty())
        return std::nullopt;
    return u;
}

/// The options, or an error message for the usage line.
inline std::optional<options> parse_options(int argc, char** argv, std::string& error)
{
    options o;
    bool have_upstream = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (i + 1 >= argc) {
            error = "missing value after " + std::string(flag);
            return std::nullopt;
        }
        const std::string_view value = argv[++i];
        bool ok = true;
        if (flag == "--listen") {
            const auto colon = value.rfind(':');
            ok = colon != std::string_view::npos && parse_number(value.substr(colon + 1), o.listen_port);
            o.listen_host = std::string(value.substr(0, colon));
        } else if (flag == "--upstream") {
            auto u = parse_upstream_url(value);
            ok = u.has_value();
            if (ok)
                o.upstream = std::move(*u);
            have_upstream = ok;
        } else if (flag == "--provider") {
            o.provider = std::string(value);
        } else if (flag == "--parser") {
            o.parser = std::string(value);
        } else if (flag == "--reasoning-parser") {
            o.reasoning_parser = std::string(value);
        } else if (flag == "--thinking-open") {
            ok = value == "yes" || value == "no";
            o.thinking_open = value == "yes";
        } else if (flag == "--model") {
            o.models.emplace_back(value);
        } else if (flag == "--max-body") {
            ok = parse_number(value, o.max_body) && o.max_body > 0;
        } else if (flag == "--max-streams") {
            ok = parse_number(value, o.max_streams) && o.max_streams > 0;
        } else if (flag == "--upstream-timeout" || flag == "--client-timeout") {
            std::int64_t ms = 0;
            ok = parse_number(value, ms) && ms > 0;
            (flag == "--upstream-timeout" ? o.upstream_timeout : o.client_timeout) = std::chrono::milliseconds(ms);
        } else if (flag == "--threads") {
            ok = parse_number(value, o.threads) && o.threads > 0 && o.threads <= 64;
        } else if (flag == "--exit-after") {
            std::int64_t s = 0;
            ok = parse_number(value, s) && s > 0;
            o.exit_after = std::chrono::seconds(s);
        } else {
            error = "unknown option " + std::string(flag);
            return std::nullopt;
        }
        if (!ok) {
            error = "bad value for " + std::string(flag) + ": " + std::string(value);
            return std::nullopt;
        }
    }
    if (!have_upstream)
        error = "--upstream http://HOST[:PORT]/PATH is required";
    else if (!translatable_provider(o.provider))
        error = "--provider must be openai_chat, ollama or mistral (the request dialects the gateway speaks)";
    else if (toolstream::canonical_policy_name(o.parser).empty())
        error = "unknown --parser " + o.parser;
    if (!error.empty())
        return std::nullopt;
    return o;
}

} // namespace gateway
