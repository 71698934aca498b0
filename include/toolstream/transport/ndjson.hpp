// Newline-delimited JSON: turns the raw bytes of an NDJSON body into one event per line.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>
#include <toolstream/transport/detail/line_decoder.hpp>
#include <toolstream/transport/detail/line_splitter.hpp>
#include <toolstream/transport/wire_event.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream {

struct ndjson_options {
    std::size_t max_line_size = 64u << 20;   ///< bytes of one line (without its line end)
};

/// Decodes an NDJSON body (Ollama), fed in pieces of any size: one `wire_event` with an empty
/// `name` and the line as `data` per line that is not blank.
///
/// - Lines end at LF; a CR before the LF is stripped, and a lone CR is part of the line.
///   A UTF-8 BOM at the start of the stream is dropped. Lines holding only whitespace are skipped.
/// - Limits: a line longer than `max_line_size` makes write() return `error::line_too_large`;
///   that line is dropped as it arrives (memory stays bounded) and the lines after it decode
///   normally. Other lines in the same write are still delivered. A visitor that takes an
///   `error_code` also gets the error at its place among the lines.
/// - Should memory run out, write() and finish() return `error::out_of_memory` instead of
///   throwing: the line being decoded and the rest of those bytes are dropped, and decoding
///   resumes after the next line end.
///
/// Views passed to the visitor are valid only during that call; a line that lies wholly inside
/// one write is a view into the written bytes. After finish(), call reset() before decoding
/// another stream.
class ndjson_decoder : public detail::line_decoder<ndjson_decoder> {
public:
    explicit ndjson_decoder(ndjson_options opts = {}) : line_decoder(detail::line_ends::lf, opts.max_line_size) {}

    /// Back to a fresh stream, keeping buffer capacity.
    void reset() noexcept { reset_lines(); }

    /// Bytes of a partial line held between writes; for tests and monitoring.
    std::size_t buffered_bytes() const noexcept { return lines_.buffered_bytes(); }

private:
    friend class detail::line_decoder<ndjson_decoder>;

    template<class Visitor>
    void feed(std::string_view bytes, Visitor& visit, error_code& ec)
    {
        lines_.write(
            bytes, [&](std::string_view line, bool in_input) { deliver(line, in_input, visit); },
            [&] { detail::report_error(visit, ec, error::line_too_large); });
    }

    // A last line that lacks its `\n`.
    template<class Visitor>
    void end_stream(Visitor& visit, error_code&)
    {
        lines_.finish([&](std::string_view line, bool in_input) { deliver(line, in_input, visit); });
    }

    // After a failed allocation decoding resumes after the next line end.
    void drop_input() noexcept { lines_.drop_line(); }

    template<class Visitor>
    void deliver(std::string_view line, bool in_input, Visitor& visit)
    {
        if (!detail::all_blank(line))
            visit(wire_event{{}, line, in_input ? nullptr : &lines_.line_buffer()});
    }
};

} // namespace toolstream
