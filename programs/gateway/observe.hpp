// What the gateway tells its operator: one JSON access-log line per request on stderr, and the
// Prometheus text of GET /metrics. Counters are atomics: any thread may serve any request.
#pragma once

#include "upstream_call.hpp"

#include <boost/json.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>

namespace gateway {

/// A histogram with fixed buckets (seconds), as Prometheus reads it.
class histogram {
public:
    static constexpr std::array<double, 13> bounds{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120};

    void observe(double seconds)
    {
        for (std::size_t i = 0; i < bounds.size(); ++i)
            if (seconds <= bounds[i])
                counts_[i].fetch_add(1, std::memory_order_relaxed);
        total_.fetch_add(1, std::memory_order_relaxed);
        micros_.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
    }
    void write(std::string& out, std::string_view name, std::string_view help) const
    {
        out += "# HELP " + std::string(name) + " " + std::string(help) + "\n# TYPE " + std::string(name) + " histogram\n";
        for (std::size_t i = 0; i < bounds.size(); ++i) {
            char le[32];
            std::snprintf(le, sizeof le, "%g", bounds[i]);
            out += std::string(name) + "_bucket{le=\"" + le + "\"} " + std::to_string(counts_[i].load()) + "\n";
        }
        out += std::string(name) + "_bucket{le=\"+Inf\"} " + std::to_string(total_.load()) + "\n";
        char sum[64];
        std::snprintf(sum, sizeof sum, "%.6f", static_cast<double>(micros_.load()) / 1e6);
        out += std::string(name) + "_sum " + sum + "\n" + std::string(name) + "_count " + std::to_string(total_.load()) + "\n";
    }

private:
    std::array<std::atomic<std::uint64_t>, bounds.size()> counts_{};
    std::atomic<std::uint64_t> total_{0}, micros_{0};
};

/// The routes the metrics count requests of; `other` is every path without a route.
inline constexpr std::array<std::string_view, 8> route_names{
    "/v1/chat/completions", "/v1/messages", "/v1/messages/count_tokens", "/v1/responses", "/v1/models",
    "/healthz", "/metrics", "other"};

/// The index of `path` in route_names.
inline std::size_t route_index(std::string_view path)
{
    for (std::size_t i = 0; i + 1 < route_names.size(); ++i)
        if (route_names[i] == path)
            return i;
    return route_names.size() - 1;
}

struct metrics {
    std::array<std::atomic<std::uint64_t>, 600> requests_by_status{};
    std::array<std::atomic<std::uint64_t>, route_names.size()> requests_by_route{};
    std::array<std::atomic<std::uint64_t>, failure_kinds> upstream_errors{};
    std::atomic<std::uint64_t> bytes_in{0}, bytes_out{0};
    std::atomic<std::uint64_t> connections_refused{0};
    std::atomic<std::size_t> connections{0};
    histogram ttfb, duration;

    std::string text(std::size_t streams_in_flight, std::uint64_t upstream_bytes) const
    {
        std::string out;
        out += "# HELP toolstream_gateway_requests_total Requests answered, by HTTP status.\n"
               "# TYPE toolstream_gateway_requests_total counter\n";
        for (std::size_t s = 100; s < requests_by_status.size(); ++s)
            if (const auto n = requests_by_status[s].load(); n != 0)
                out += "toolstream_gateway_requests_total{status=\"" + std::to_string(s) + "\"} " + std::to_string(n) + "\n";
        out += "# HELP toolstream_gateway_route_requests_total Requests answered, by route.\n"
               "# TYPE toolstream_gateway_route_requests_total counter\n";
        for (std::size_t r = 0; r < route_names.size(); ++r)
            out += "toolstream_gateway_route_requests_total{route=\"" + std::string(route_names[r]) + "\"} " +
                   std::to_string(requests_by_route[r].load()) + "\n";
        out += "# HELP toolstream_gateway_streams_in_flight Chats being served.\n"
               "# TYPE toolstream_gateway_streams_in_flight gauge\ntoolstream_gateway_streams_in_flight " +
               std::to_string(streams_in_flight) + "\n";
        out += "# HELP toolstream_gateway_connections Client connections open.\n"
               "# TYPE toolstream_gateway_connections gauge\ntoolstream_gateway_connections " +
               std::to_string(connections.load()) + "\n";
        out += "# HELP toolstream_gateway_connections_refused_total Connections closed at once (--max-connections, no descriptors).\n"
               "# TYPE toolstream_gateway_connections_refused_total counter\ntoolstream_gateway_connections_refused_total " +
               std::to_string(connections_refused.load()) + "\n";
        out += "# HELP toolstream_gateway_upstream_errors_total Chats that failed, by kind.\n"
               "# TYPE toolstream_gateway_upstream_errors_total counter\n";
        for (std::size_t k = 1; k < failure_kinds; ++k)
            out += "toolstream_gateway_upstream_errors_total{kind=\"" + std::string(code_of(static_cast<failure>(k))) +
                   "\"} " + std::to_string(upstream_errors[k].load()) + "\n";
        const auto counter = [&](std::string_view name, std::string_view help, std::uint64_t v) {
            out += "# HELP " + std::string(name) + " " + std::string(help) + "\n# TYPE " + std::string(name) +
                   " counter\n" + std::string(name) + " " + std::to_string(v) + "\n";
        };
        counter("toolstream_gateway_bytes_in_total", "Request body bytes read from clients.", bytes_in.load());
        counter("toolstream_gateway_bytes_out_total", "Response body bytes written to clients.", bytes_out.load());
        counter("toolstream_gateway_upstream_bytes_total", "Body bytes read from the upstream.", upstream_bytes);
        ttfb.write(out, "toolstream_gateway_ttfb_seconds", "Time from request to the first response byte.");
        duration.write(out, "toolstream_gateway_request_duration_seconds", "Time from request to the last response byte.");
        return out;
    }
};

/// One request as the access log and the metrics see it.
struct request_record {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point first_byte{};
    std::string method, path;
    unsigned status = 0;
    std::uint64_t bytes_in = 0, bytes_out = 0;
    unsigned upstream_status = 0;
    failure error = failure::none;
    std::string error_code;   // the code the client got, when it got an error
    std::string cause;        // why, for the operator (never a key)
    std::string viewer_stream;   // the chat's `stream` in the --viewer feed
    std::string format;          // --parser auto: the format each choice was read in

    void wrote(std::size_t n)
    {
        if (first_byte == std::chrono::steady_clock::time_point{})
            first_byte = std::chrono::steady_clock::now();
        bytes_out += n;
    }
};

inline std::string utc_now()
{
    const auto now = std::chrono::system_clock::now();
    const auto t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

/// Any line the gateway writes on stderr, whole: threads never interleave.
inline void log_line(const boost::json::object& o)
{
    static std::mutex m;
    const auto line = boost::json::serialize(o);
    std::lock_guard lock(m);
    std::cerr << line << "\n" << std::flush;
}

/// Counts the request in the metrics and writes its access-log line.
inline void finish_record(const request_record& r, metrics& m)
{
    const auto end = std::chrono::steady_clock::now();
    const auto secs = [](auto d) { return std::chrono::duration<double>(d).count(); };
    const auto micros = [](auto d) { return std::chrono::duration_cast<std::chrono::microseconds>(d).count(); };
    if (r.status > 0 && r.status < m.requests_by_status.size())
        m.requests_by_status[r.status].fetch_add(1);
    const std::size_t route = route_index(r.path);
    if (!r.method.empty())
        m.requests_by_route[route].fetch_add(1);
    if (r.error != failure::none)
        m.upstream_errors[static_cast<std::size_t>(r.error)].fetch_add(1);
    m.bytes_in.fetch_add(r.bytes_in);
    m.bytes_out.fetch_add(r.bytes_out);
    const bool answered = r.first_byte != std::chrono::steady_clock::time_point{};
    if (answered)
        m.ttfb.observe(secs(r.first_byte - r.start));
    m.duration.observe(secs(end - r.start));
    boost::json::object o{{"time", utc_now()},
                          {"method", r.method},
                          {"path", r.path},
                          {"route", route_names[route]},
                          {"status", r.status},
                          {"bytes_in", r.bytes_in},
                          {"bytes_out", r.bytes_out},
                          {"duration_us", micros(end - r.start)},
                          {"ttfb_us", answered ? boost::json::value(micros(r.first_byte - r.start)) : boost::json::value(nullptr)}};
    o["upstream_status"] = r.upstream_status != 0 ? boost::json::value(r.upstream_status) : boost::json::value(nullptr);
    o["error"] = r.error_code.empty() ? boost::json::value(nullptr) : boost::json::value(r.error_code);
    if (!r.cause.empty())
        o["cause"] = r.cause;
    if (!r.viewer_stream.empty())
        o["viewer_stream"] = r.viewer_stream;
    if (!r.format.empty())
        o["format"] = r.format;
    log_line(o);
}

} // namespace gateway
