// toolstream-gateway's command line: one table of flags (name, value, help, how it is read and
// range-checked), the options it fills, and the checks that need several flags.
#pragma once

#include <toolstream/runtime/registry.hpp>

#include "../common/names.hpp"
#include "upstream_apis.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <array>

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
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

/// Every limit has a default that keeps a 2-core, 24 GiB machine safe at --max-streams chats
/// (docs/gateway.md gives the arithmetic).
struct options {
    std::string listen_host = "127.0.0.1";
    std::uint16_t listen_port = 8080;
    upstream_url upstream;
    std::string provider;
    std::string parser = "api_tool_call";
    std::string reasoning_parser;
    std::optional<bool> thinking_open;                     // --thinking-open yes|no (default: the parser's)
    std::vector<std::string> models;                       // GET /v1/models
    std::size_t max_body = 4u << 20;                       // request body, bytes
    std::size_t max_streams = 64;                          // chat requests in flight
    std::size_t max_connections = 512;                     // client connections open
    std::chrono::milliseconds upstream_timeout{60'000};    // connect, and each read of the upstream
    std::chrono::milliseconds client_timeout{60'000};      // reading a request, each write to a client
    std::chrono::milliseconds max_duration{600'000};       // one chat, start to end
    std::chrono::milliseconds drain_timeout{30'000};       // SIGTERM: how long chats may finish
    std::size_t max_response_bytes = 32u << 20;            // upstream body bytes of one chat
    std::size_t memory_budget = std::size_t{1} << 30;      // upstream bytes held by all chats
    std::size_t max_calls = 128;                           // tool calls per response
    std::size_t max_argument_bytes = 32u << 20;            // arguments of one tool call
    std::size_t threads = 1;
    std::chrono::seconds exit_after{0};                    // 0: run until SIGINT/SIGTERM
    std::vector<std::string> allow_origins;                // browser origins allowed (CORS)
    std::vector<std::string> allow_hosts;                  // Host values besides the listen address
    std::string api_key;                                   // from --api-key-env: clients must send it
    std::string upstream_key;                              // from --upstream-key-env: sent upstream
    std::string viewer;                                    // --viewer HOST:PORT; empty: no viewer
    bool viewer_remote = false;                            // --viewer-remote: any address, not only loopback
    bool help = false;
};

inline bool translatable_provider(std::string_view p) { return upstream_provider_named(p).has_value(); }

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

/// One flag: its value's name (empty: takes none), its help line, and how it is read. `read`
/// returns an empty string or why the value is refused.
struct flag_spec {
    std::string_view name;
    std::string_view value;
    std::string help;
    std::function<std::string(options&, std::string_view)> read;
};

namespace detail {

/// An integer in [lo, hi], or why not.
template<class T>
std::string read_count(std::string_view text, T& out, std::uint64_t lo, std::uint64_t hi)
{
    std::uint64_t v = 0;
    if (!parse_number(text, v))
        return "'" + std::string(text) + "' is not a whole number";
    if (v < lo || v > hi)
        return std::string(text) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    out = static_cast<T>(v);
    return {};
}

/// Milliseconds in [1, a day]: steady_clock deadlines never overflow.
inline std::string read_ms(std::string_view text, std::chrono::milliseconds& out)
{
    std::uint64_t v = 0;
    auto why = read_count(text, v, 1, 86'400'000);
    out = std::chrono::milliseconds(static_cast<std::int64_t>(v));
    return why;
}

/// The value of environment variable `name`, which must be set and not empty.
inline std::string read_env(std::string_view name, std::string& out)
{
    const char* v = std::getenv(std::string(name).c_str());
    if (v == nullptr || *v == '\0')
        return "environment variable " + std::string(name) + " is not set or empty";
    out = v;
    return {};
}

/// --viewer's HOST:PORT ([::1]:PORT for IPv6): an IP address and a port, or why not.
inline std::string read_viewer_address(std::string_view text, boost::asio::ip::address& out)
{
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0)
        return "'" + std::string(text) + "' is not HOST:PORT";
    std::string host(text.substr(0, colon));
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    boost::system::error_code ec;
    out = boost::asio::ip::make_address(host, ec);
    if (ec)
        return "'" + host + "' is not an IP address";
    std::uint16_t port = 0;
    return read_count(text.substr(colon + 1), port, 0, 65535);
}

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

} // namespace detail

/// Every flag the gateway takes, in the order --help lists them.
inline const std::vector<flag_spec>& flag_table()
{
    using detail::read_count;
    using detail::read_ms;
    static const std::vector<flag_spec> table{
        {"--help", "", "print this help on stdout and exit 0", [](options& o, std::string_view) { o.help = true; return std::string(); }},
        {"--upstream", "URL", "the model server, http://HOST[:PORT]/PATH (required)", [](options& o, std::string_view v) {
             auto u = parse_upstream_url(v);
             if (!u)
                 return "'" + std::string(v) + "' is not an http://HOST[:PORT]/PATH URL (plain HTTP only)";
             o.upstream = std::move(*u);
             return std::string();
         }},
        {"--provider", "NAME", "its dialect: " + toolstream_programs::joined(gateway_providers, ", ") + " (required)",
         [](options& o, std::string_view v) {
             if (!translatable_provider(v))
                 return "unknown provider '" + std::string(v) + "'; known: " + toolstream_programs::joined(gateway_providers, ", ");
             o.provider = std::string(v);
             return std::string();
         }},
        {"--listen", "HOST:PORT", "where to listen (127.0.0.1:8080; port 0 picks a free one)", [](options& o, std::string_view v) {
             const auto colon = v.rfind(':');
             if (colon == std::string_view::npos || colon == 0)
                 return "'" + std::string(v) + "' is not HOST:PORT";
             o.listen_host = std::string(v.substr(0, colon));
             if (o.listen_host.size() > 2 && o.listen_host.front() == '[' && o.listen_host.back() == ']')
                 o.listen_host = o.listen_host.substr(1, o.listen_host.size() - 2);
             return read_count(v.substr(colon + 1), o.listen_port, 0, 65535);
         }},
        {"--parser", "NAME", "tool-call format in the model's text (api_tool_call: native calls only)", [](options& o, std::string_view v) {
             if (toolstream::canonical_policy_name(v).empty())
                 return "unknown parser '" + std::string(v) + "'; see toolstream-replay --help for the names";
             o.parser = std::string(v);
             return std::string();
         }},
        {"--reasoning-parser", "NAME", "reasoning format in the model's text (qwen3, deepseek_r1...)", [](options& o, std::string_view v) {
             o.reasoning_parser = std::string(v);   // checked with --parser by known_parser_names
             return std::string();
         }},
        {"--thinking-open", "yes|no", "whether the prompt left a reasoning region open (the reasoning parser's default)", [](options& o, std::string_view v) {
             if (v != "yes" && v != "no")
                 return "takes yes or no, not '" + std::string(v) + "'";
             o.thinking_open = v == "yes";
             return std::string();
         }},
        {"--model", "NAME", "a name for GET /v1/models (repeatable)", [](options& o, std::string_view v) { o.models.emplace_back(v); return std::string(); }},
        {"--max-body", "BYTES", "request body limit (4194304; 1..1 GiB)", [](options& o, std::string_view v) { return read_count(v, o.max_body, 1, detail::gib); }},
        {"--max-streams", "N", "chats in flight (64; 1..100000)", [](options& o, std::string_view v) { return read_count(v, o.max_streams, 1, 100'000); }},
        {"--max-connections", "N", "client connections open (512; 1..1000000)", [](options& o, std::string_view v) { return read_count(v, o.max_connections, 1, 1'000'000); }},
        {"--max-duration", "MS", "one chat, start to end (600000)", [](options& o, std::string_view v) { return read_ms(v, o.max_duration); }},
        {"--max-response-bytes", "BYTES", "upstream body bytes of one chat (33554432; 1 KiB..64 GiB)", [](options& o, std::string_view v) { return read_count(v, o.max_response_bytes, detail::kib, 64 * detail::gib); }},
        {"--memory-budget", "BYTES", "upstream bytes held by all chats together (1073741824; 1 MiB..1 TiB)", [](options& o, std::string_view v) { return read_count(v, o.memory_budget, detail::mib, 1024 * detail::gib); }},
        {"--max-calls", "N", "tool calls in one response (128; 1..1000000)", [](options& o, std::string_view v) { return read_count(v, o.max_calls, 1, 1'000'000); }},
        {"--max-argument-bytes", "BYTES", "arguments of one tool call (33554432; 1 KiB..64 GiB)", [](options& o, std::string_view v) { return read_count(v, o.max_argument_bytes, detail::kib, 64 * detail::gib); }},
        {"--upstream-timeout", "MS", "connect, and each read of the upstream (60000; 1..86400000)", [](options& o, std::string_view v) { return read_ms(v, o.upstream_timeout); }},
        {"--client-timeout", "MS", "reading a request, each write to a client (60000; 1..86400000)", [](options& o, std::string_view v) { return read_ms(v, o.client_timeout); }},
        {"--drain-timeout", "MS", "after SIGTERM, how long chats in flight may finish (30000)", [](options& o, std::string_view v) { return read_ms(v, o.drain_timeout); }},
        {"--threads", "N", "threads serving clients (1; 1..64)", [](options& o, std::string_view v) { return read_count(v, o.threads, 1, 64); }},
        {"--allow-origin", "ORIGIN", "a browser origin allowed to call (CORS; repeatable; * for any)", [](options& o, std::string_view v) { o.allow_origins.emplace_back(v); return std::string(); }},
        {"--allow-host", "HOST", "a Host value accepted besides the listen address and localhost (repeatable; * for any)", [](options& o, std::string_view v) { o.allow_hosts.emplace_back(v); return std::string(); }},
        {"--api-key-env", "NAME", "clients must send $NAME as Authorization: Bearer or x-api-key", [](options& o, std::string_view v) { return detail::read_env(v, o.api_key); }},
        {"--upstream-key-env", "NAME", "send Authorization: Bearer $NAME upstream (else none is sent)", [](options& o, std::string_view v) { return detail::read_env(v, o.upstream_key); }},
        {"--viewer", "HOST:PORT", "serve the live viewer of every stream there (off; loopback only; port 0: any free one)", [](options& o, std::string_view v) {
             boost::asio::ip::address ip;
             auto why = detail::read_viewer_address(v, ip);
             o.viewer = std::string(v);
             return why;
         }},
        {"--viewer-remote", "", "let --viewer listen on an address that is not loopback (it shows all traffic)", [](options& o, std::string_view) { o.viewer_remote = true; return std::string(); }},
        {"--exit-after", "SECONDS", "stop after this long (tests; 1..31536000)", [](options& o, std::string_view v) {
             std::uint64_t s = 0;
             auto why = read_count(v, s, 1, 31'536'000);
             o.exit_after = std::chrono::seconds(static_cast<std::int64_t>(s));
             return why;
         }},
    };
    return table;
}

inline std::string usage_text()
{
    std::string out =
        "usage: toolstream-gateway --upstream http://HOST[:PORT]/PATH --provider " + toolstream_programs::joined(gateway_providers, "|")
        + " [options]\n"
        "Serves POST /v1/chat/completions (OpenAI Chat), /v1/messages (Anthropic Messages; and\n"
        "/v1/messages/count_tokens) and /v1/responses (OpenAI Responses), each with stream true or false;\n"
        "GET /v1/models, GET /healthz and GET /metrics. The address is printed on stdout as\n"
        "`listening on HOST:PORT`. See docs/gateway.md.\n";
    for (const auto& f : flag_table()) {
        std::string left = "  " + std::string(f.name) + (f.value.empty() ? "" : " " + std::string(f.value));
        left.resize(std::max<std::size_t>(left.size() + 1, 30), ' ');
        out += left + std::string(f.help) + "\n";
    }
    return out;
}

/// The options, or why the command line is refused (naming the flag and the reason).
inline std::optional<options> parse_options(int argc, char** argv, std::string& error)
{
    options o;
    bool have_upstream = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        const flag_spec* spec = nullptr;
        for (const auto& f : flag_table())
            if (f.name == flag)
                spec = &f;
        if (spec == nullptr) {
            error = "unknown option '" + std::string(flag) + "' (--help lists them)";
            return std::nullopt;
        }
        std::string_view value;
        if (!spec->value.empty()) {
            if (i + 1 >= argc) {
                error = std::string(flag) + " needs a value: " + std::string(spec->value);
                return std::nullopt;
            }
            value = argv[++i];
        }
        if (auto why = spec->read(o, value); !why.empty()) {
            error = std::string(flag) + ": " + why;
            return std::nullopt;
        }
        if (o.help)
            return o;
        have_upstream = have_upstream || flag == "--upstream";
    }
    if (!have_upstream)
        error = "--upstream http://HOST[:PORT]/PATH is required";
    else if (o.provider.empty())
        error = "--provider is required: " + toolstream_programs::joined(gateway_providers, ", ")
                + " (the request dialects the gateway speaks)";
    else if (!toolstream::known_parser_names(o.parser, o.reasoning_parser))
        error = "--reasoning-parser: unknown reasoning parser '" + o.reasoning_parser + "' (with --parser " + o.parser + ")";
    else if (o.viewer_remote && o.viewer.empty())
        error = "--viewer-remote needs --viewer HOST:PORT";
    else if (boost::asio::ip::address ip; !o.viewer.empty() && detail::read_viewer_address(o.viewer, ip).empty() &&
                                          !o.viewer_remote && !ip.is_loopback())
        error = "--viewer: " + o.viewer + " is not a loopback address; the viewer shows every stream, so listening "
                "elsewhere needs --viewer-remote (and --api-key-env)";
    if (!error.empty())
        return std::nullopt;
    return o;
}

} // namespace gateway
