// Safe by default: who may talk to the gateway. A Host that names something other than the
// listen address or localhost is DNS rebinding; a browser page from another origin needs
// --allow-origin; with --api-key-env, a client needs the key (compared in constant time).
#pragma once

#include "options.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace gateway {

/// The host part of a Host header (no port, no brackets), lower case.
inline std::string host_name(std::string_view host)
{
    if (host.starts_with('[')) {
        host = host.substr(1, host.find(']') == std::string_view::npos ? host.size() : host.find(']') - 1);
    } else if (const auto colon = host.rfind(':'); colon != std::string_view::npos && host.find(':') == colon) {
        host = host.substr(0, colon);
    }
    std::string out(host);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// Whether `host` (a Host header) may be served. An IP address cannot be rebound to another
/// server, so any is fine; a name must be localhost, the listen host or one of --allow-host.
inline bool host_allowed(const options& o, std::string_view host)
{
    const auto name = host_name(host);
    if (name.empty())
        return true;   // HTTP/1.0 without Host: never a browser, which always sends one
    boost::system::error_code ec;
    boost::asio::ip::make_address(name, ec);
    if (!ec)
        return true;
    if (name == "localhost" || name.ends_with(".localhost") || name == host_name(o.listen_host))
        return true;
    return std::any_of(o.allow_hosts.begin(), o.allow_hosts.end(),
                       [&](const std::string& h) { return h == "*" || host_name(h) == name; });
}

/// Whether a browser request from `origin` may be answered: one --allow-origin names it (or
/// `*`), or it is the gateway's own origin (`http://` + the Host it was sent to).
inline bool origin_allowed(const options& o, std::string_view origin, std::string_view host)
{
    if (origin == "http://" + std::string(host))
        return true;
    return std::any_of(o.allow_origins.begin(), o.allow_origins.end(),
                       [&](const std::string& a) { return a == "*" || a == origin; });
}

/// Constant-time comparison: the time taken does not depend on where the texts differ.
inline bool same_secret(std::string_view a, std::string_view b)
{
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
        diff = static_cast<unsigned char>(diff | (x ^ y));
    }
    return diff == 0;
}

/// Whether an Authorization header carries the --api-key-env key (always, without one).
inline bool authorized(const options& o, std::string_view authorization)
{
    if (o.api_key.empty())
        return true;
    constexpr std::string_view bearer = "Bearer ";
    if (authorization.size() < bearer.size())
        return false;
    std::string scheme(authorization.substr(0, bearer.size()));
    for (auto& c : scheme)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool key_ok = same_secret(authorization.substr(bearer.size()), o.api_key);   // always compared
    return key_ok && scheme == "bearer ";
}

} // namespace gateway
