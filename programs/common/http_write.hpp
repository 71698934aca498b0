// Every write of the programs' HTTP servers and clients, as one kind of Asio operation: a message's
// head is serialised into bytes here, and a write is at most three pieces of bytes. Beast's own
// writers (http::async_write, the serializer, make_chunk) compile a set of composed operations for
// each body and buffer type they are given, most of the programs' compile time.
#pragma once

#include "use_nothrow.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http/message.hpp>

#include <array>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream_programs {

/// The start line and fields of a request, and the blank line that ends them. A message's body,
/// when it has one, is written as the next piece (its Content-Length set by the caller, with
/// prepare_payload() or by hand for a HEAD reply), never copied after its head.
template<class Fields>
std::string head_bytes(const boost::beast::http::header<true, Fields>& head)
{
    typename Fields::writer fields{head, head.version(), head.method()};
    return boost::beast::buffers_to_string(fields.get());
}

/// The status line and fields of a response, and the blank line that ends them (as above).
template<class Fields>
std::string head_bytes(const boost::beast::http::header<false, Fields>& head)
{
    typename Fields::writer fields{head, head.version(), head.result_int()};
    return boost::beast::buffers_to_string(fields.get());
}

/// The size line of an HTTP/1.1 chunk of `size` bytes (RFC 9112 7.1): hex digits and CRLF.
struct chunk_size_line {
    explicit chunk_size_line(std::size_t size)
    {
        const auto end = std::to_chars(digits.data(), digits.data() + digits.size() - 2, size, 16).ptr;
        end[0] = '\r';
        end[1] = '\n';
        length = static_cast<std::size_t>(end + 2 - digits.data());
    }
    std::string_view view() const noexcept { return {digits.data(), length}; }

    std::array<char, 2 * sizeof(std::size_t) + 2> digits{};
    std::size_t length = 0;
};

inline constexpr std::string_view chunk_end = "\r\n";
inline constexpr std::string_view last_chunk = "0\r\n\r\n";

/// Writes `first`, `second` and `third`, in order, whole; completes with (error_code, bytes).
/// The stream's own timeout applies (beast::tcp_stream's expiry). The pieces must outlive the
/// write.
template<class Stream>
auto async_write_pieces(Stream& stream, std::string_view first, std::string_view second = {},
                        std::string_view third = {})
{
    const std::array<boost::asio::const_buffer, 3> pieces{boost::asio::buffer(first), boost::asio::buffer(second),
                                                          boost::asio::buffer(third)};
    return boost::asio::async_write(stream, pieces, use_nothrow);
}

} // namespace toolstream_programs
