// Parses one complete JSON payload (an SSE data field, an NDJSON line) into a reusable DOM.
#pragma once

#include <toolstream/error.hpp>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace toolstream::detail {

/// Owns a monotonic arena that is released before every parse, so a stream of small payloads
/// parses without touching the heap once the arena has grown to the largest payload.
///
/// Boost 1.81 workarounds: the parser is never the first member (#814) and is fed at most
/// 2 KiB per write (#876).
class payload_parser {
public:
    static constexpr std::size_t max_write = 2048;

    payload_parser() : arena_(initial_.data(), initial_.size()) {}
    payload_parser(const payload_parser&) = delete;
    payload_parser& operator=(const payload_parser&) = delete;

    /// Parses `text`. The returned value lives until the next call.
    result<const boost::json::value*> parse(std::string_view text)
    {
        value_.reset();
        arena_.release();
        parser_.reset(boost::json::storage_ptr(&arena_));
        error_code ec;
        for (std::size_t at = 0; at < text.size() && !ec; at += max_write) {
            const std::size_t n = std::min(max_write, text.size() - at);
            parser_.write(text.data() + at, n, ec);
        }
        if (!ec)
            parser_.finish(ec);
        if (ec)
            return ec;
        value_.emplace(parser_.release());
        return &*value_;
    }

private:
    std::array<unsigned char, 4096> initial_{};
    boost::json::monotonic_resource arena_;
    boost::json::stream_parser parser_;
    std::optional<boost::json::value> value_;   // declared last: destroyed before the arena
};

} // namespace toolstream::detail
