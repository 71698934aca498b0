// What both programs' HTTP servers check before they answer: a Host header that a DNS-rebinding
// page could have sent, and a key compared in constant time.
#pragma once

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace toolstream_programs {

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

/// Whether a Host header cannot be a rebound name: none (HTTP/1.0, never a browser), an IP
/// address, localhost, or the name the server listens on.
inline bool host_cannot_be_rebound(std::string_view host, std::string_view listen_host)
{
    const auto name = host_name(host);
    if (name.empty())
        return true;
    boost::system::error_code ec;
    boost::asio::ip::make_address(name, ec);
    return !ec || name == "localhost" || name.ends_with(".localhost") || name == host_name(listen_host);
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

} // namespace toolstream_programs
