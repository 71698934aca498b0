// Safe by default: who may talk to the gateway. A Host that names something other than the
// listen address or localhost is DNS rebinding; a browser page from another origin needs
// --allow-origin; with --api-key-env, a client needs the key (compared in constant time), as a
// bearer token or in `x-api-key`.
#pragma once

#include "../common/http_guard.hpp"
#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace gateway {

using toolstream_programs::host_name;
using toolstream_programs::same_secret;

/// Whether `host` (a Host header) may be served. An IP address cannot be rebound to another
/// server, so any is fine; a name must be localhost, the listen host or one of --allow-host.
inline bool host_allowed(const options& o, std::string_view host)
{
    if (toolstream_programs::host_cannot_be_rebound(host, o.listen_host))
        return true;
    const auto name = host_name(host);
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

/// Whether the request carries the --api-key-env key (always, without one): as
/// `Authorization: Bearer <key>` (OpenAI clients) or `x-api-key: <key>` (Anthropic clients). Both
/// are compared in constant time, whichever is present.
inline bool authorized(const options& o, std::string_view authorization, std::string_view x_api_key)
{
    if (o.api_key.empty())
        return true;
    constexpr std::string_view bearer = "Bearer ";
    bool bearer_ok = false;
    if (authorization.size() >= bearer.size()) {
        std::string scheme(authorization.substr(0, bearer.size()));
        for (auto& c : scheme)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const bool key_ok = same_secret(authorization.substr(bearer.size()), o.api_key);   // always compared
        bearer_ok = key_ok && scheme == "bearer ";
    }
    const bool header_ok = !x_api_key.empty() && same_secret(x_api_key, o.api_key);
    return bearer_ok || header_ok;
}

} // namespace gateway
