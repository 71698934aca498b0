// line_decoder<Decoder>: the write() and finish() of a decoder of a line framing (SSE, NDJSON),
// around the decoder's own handling of its lines.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/transport/detail/line_splitter.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// The base of a line framing's decoder: strips a UTF-8 BOM from the stream's start, hands the
/// bytes to the decoder, and recovers from a failed allocation.
///
/// `Decoder` derives from it and provides, privately (befriending line_decoder):
/// - `feed(std::string_view bytes, Visitor& visit, error_code& ec)`: decodes written bytes.
/// - `end_stream(Visitor& visit, error_code& ec)`: what finish() delivers once every byte is fed.
/// - `drop_input()`: forgets what was being decoded when an allocation failed.
/// - optionally `end_write()`: runs after each write's bytes are fed (default: nothing).
template<class Decoder>
class line_decoder {
public:
    /// Decodes `bytes`, calling `visit` per event (see the decoder).
    template<class Visitor>
    error_code write(std::string_view bytes, Visitor&& visit)
    {
        error_code ec;
        recovering(visit, ec, [&] {
            const auto [replay, rest] = bom_.strip(bytes);
            decoder().feed(replay, visit, ec);
            decoder().feed(rest, visit, ec);
            decoder().end_write();
        });
        return ec;
    }

    /// End of input: delivers what the stream ended without terminating (see the decoder).
    template<class Visitor>
    error_code finish(Visitor&& visit)
    {
        error_code ec;
        recovering(visit, ec, [&] {
            decoder().feed(bom_.finish(), visit, ec);
            decoder().end_stream(visit, ec);
        });
        return ec;
    }

protected:
    line_decoder(line_ends ends, std::size_t max_line) noexcept : lines_(ends, max_line) {}

    void end_write() noexcept {}

    /// Back to the start of a stream, keeping buffer capacity.
    void reset_lines() noexcept
    {
        bom_.reset();
        lines_.reset();
    }

    bom_skipper bom_;
    line_splitter lines_;

private:
    Decoder& decoder() noexcept { return static_cast<Decoder&>(*this); }

    // Runs `decode`. Should an allocation fail inside it, the decoder drops what was being
    // decoded and the failure is reported as error::out_of_memory: in `ec`, and to the visitor,
    // whose own allocations may fail as well.
    template<class Visitor, class Decode>
    void recovering(Visitor& visit, error_code& ec, Decode&& decode)
    {
        const error_code failed = guard_allocation([&] {
            decode();
            return error_code();
        });
        if (!failed)
            return;
        decoder().drop_input();
        (void)guard_allocation([&] {
            report_error(visit, ec, error::out_of_memory);
            return error_code();
        });
        ec = error::out_of_memory;
    }
};

} // namespace toolstream::detail
