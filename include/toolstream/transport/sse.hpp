// Server-sent events: turns the raw bytes of an SSE body into events, write by write.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>
#include <toolstream/transport/detail/line_decoder.hpp>
#include <toolstream/transport/detail/line_splitter.hpp>
#include <toolstream/transport/wire_event.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

namespace toolstream {

struct sse_options {
    std::size_t max_event_size = 16u << 20;   ///< bytes of one event's joined data; beyond it: error
    bool flush_at_eof = true;                 ///< finish() dispatches a last event lacking its blank line
};

/// A `:` comment line, which servers send as a keep-alive; `comment` is all the text after the
/// colon (a leading space is kept).
struct sse_keep_alive {
    std::string_view comment;
};

/// Decodes an SSE body by the WHATWG event-stream rules, fed in pieces of any size.
///
/// - Lines end at CR, LF or CRLF (also a CRLF split across writes); bytes are split before any
///   UTF-8 handling, so U+2028/U+2029 and split multibyte characters pass through untouched.
///   A UTF-8 BOM at the start of the stream is dropped.
/// - `data:` lines (one space after the colon is stripped) are joined with `\n`; `event:` names
///   the event; `id:`, `retry:` and unknown fields are ignored; a line without a colon is a field
///   with an empty value. An `error:` line (llama.cpp's server ends a failed stream with one) is
///   the data of an event named `error`. A blank line dispatches the event as a `wire_event`;
///   `name` is empty without an `event:` line and resets after every event.
/// - An event is not dispatched when its data is empty or only whitespace (gateways send such
///   data-only keep-alives), nor when it is the `[DONE]` sentinel (after trimming whitespace),
///   which sets done() instead. Later events are still delivered; callers may stop at done().
/// - Comment lines go to `visit(sse_keep_alive)` only if the visitor accepts that type.
/// - Raw JSON: if the first non-whitespace byte of the stream is `{` or `[`, the body is not SSE
///   (Gemini sends error bodies unframed). It is kept verbatim from that byte on and delivered
///   by finish() as one event with an empty name.
///
/// Limits: when an event's joined data (or the raw JSON body, or a single line) would exceed
/// `max_event_size`, write() returns `error::event_too_large` once for that event. The event is
/// discarded as it arrives, so memory stays bounded; the decoder skips to the next blank line and
/// decodes the events after it normally. Other events in the same write are still delivered.
/// A visitor that takes an `error_code` also gets the error at its place among the events.
/// Should memory run out, write() and finish() return `error::out_of_memory` instead of
/// throwing: the event being decoded and the rest of those bytes are dropped, and decoding
/// resumes after the next blank line.
///
/// Views passed to the visitor are valid only during that call. An event that lies wholly
/// inside one write is delivered as a view into the written bytes, without copying; so is one
/// whose only data line is long and spans writes, from the buffer that gathered it. After
/// finish(), call reset() before decoding another stream.
class sse_decoder : public detail::line_decoder<sse_decoder> {
public:
    explicit sse_decoder(sse_options opts = {})
        : line_decoder(detail::line_ends::cr_lf_crlf, line_limit(opts.max_event_size)), opts_(opts)
    {
    }

    /// A `[DONE]` data sentinel was seen.
    bool done() const noexcept { return done_; }

    /// Back to a fresh stream, keeping buffer capacity.
    void reset() noexcept
    {
        reset_lines();
        clear_event();
        mode_ = mode::undecided;
        skipping_ = false;
        whitespace_overflows_ = 0;
        done_ = false;
    }

    /// Bytes held between writes (a partial line, an unfinished event or raw body); for tests
    /// and monitoring.
    std::size_t buffered_bytes() const noexcept
    {
        return lines_.buffered_bytes() + data_.size() - data_from_ + name_.size();
    }

private:
    friend class detail::line_decoder<sse_decoder>;

    enum class mode { undecided, sse, raw, raw_dropped };

    // A data line may be `data: ` plus a value of max_event_size bytes.
    static std::size_t line_limit(std::size_t max_event_size) noexcept
    {
        constexpr std::size_t prefix = 6;
        return max_event_size > static_cast<std::size_t>(-1) - prefix ? max_event_size : max_event_size + prefix;
    }

    // The event continues in a later write: own its data now.
    void end_write()
    {
        if (borrowing_) {
            data_.assign(borrowed_);
            borrowing_ = false;
        }
    }

    // A raw JSON body, and with `flush_at_eof` an event (and last line) that the stream ended
    // without terminating. Otherwise the spec's rule applies: dropped.
    template<class Visitor>
    void end_stream(Visitor& visit, error_code& ec)
    {
        if (mode_ == mode::raw) {
            visit(wire_event{{}, data_, &data_});
        } else if (opts_.flush_at_eof) {
            lines_.finish([&](std::string_view line, bool in_input) { on_line(line, in_input, visit, ec); });
            dispatch(visit);
        }
    }

    // After a failed allocation the event being decoded and the rest of the bytes are dropped,
    // and decoding resumes after the next blank line.
    void drop_input() noexcept
    {
        clear_event();
        lines_.drop_line();
        skipping_ = mode_ == mode::sse;
        if (mode_ == mode::raw)
            mode_ = mode::raw_dropped;
    }

    template<class Visitor>
    void feed(std::string_view bytes, Visitor& visit, error_code& ec)
    {
        if (mode_ == mode::undecided) {
            // Leading whitespace means nothing to SSE, so it goes to the line splitter meanwhile
            // (where a raw body leaves it unused).
            const std::size_t first = bytes.find_first_not_of(detail::json_whitespace);
            if (first != std::string_view::npos) {
                mode_ = bytes[first] == '{' || bytes[first] == '[' ? mode::raw : mode::sse;
                if (mode_ == mode::raw)
                    bytes.remove_prefix(first);
                // Overlong whitespace is an error only if it was SSE (in one write it never
                // reaches the splitter before a raw body).
                if (mode_ == mode::sse)
                    for (std::size_t i = 0; i < whitespace_overflows_; ++i)
                        detail::report_error(visit, ec, error::event_too_large);
                whitespace_overflows_ = 0;
            }
        }
        if (mode_ == mode::raw) {
            if (bytes.size() <= opts_.max_event_size - data_.size()) {
                data_.append(bytes);
                return;
            }
            data_.clear();
            mode_ = mode::raw_dropped;
            detail::report_error(visit, ec, error::event_too_large);
        }
        if (mode_ == mode::raw_dropped)
            return;
        lines_.write(
            bytes, [&](std::string_view line, bool in_input) { on_line(line, in_input, visit, ec); },
            [&] { too_large(visit, ec); });
    }

    template<class Visitor>
    void on_line(std::string_view line, bool in_input, Visitor& visit, error_code& ec)
    {
        if (skipping_) {   // the rest of an oversized event
            skipping_ = !line.empty();
            return;
        }
        if (line.empty()) {
            dispatch(visit);
            return;
        }
        if (line.front() == ':') {
            if constexpr (std::is_invocable_v<Visitor&, sse_keep_alive>)
                visit(sse_keep_alive{line.substr(1)});
            return;
        }
        const std::size_t colon = line.find(':');
        const std::string_view field = line.substr(0, colon);
        std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
        if (!value.empty() && value.front() == ' ')
            value.remove_prefix(1);
        if (detail::equals(field, "data"))
            append_data(value, in_input, visit, ec);
        else if (detail::equals(field, "event"))
            name_.assign(value);
        else if (detail::equals(field, "error")) {   // llama.cpp's server: `error: {json}`, an event of its own
            name_.assign("error");
            append_data(value, in_input, visit, ec);
        }
        // `id` and `retry` serve reconnection, which is the caller's business; unknown fields are ignored.
    }

    template<class Visitor>
    void append_data(std::string_view value, bool in_input, Visitor& visit, error_code& ec)
    {
        const std::size_t held = borrowing_ ? borrowed_.size() : data_.size() - data_from_;
        if (value.size() + (has_data_ ? 1 : 0) > opts_.max_event_size - held) {
            too_large(visit, ec);
            return;
        }
        if (!has_data_ && in_input) {   // often an event's only data line: keep a view, copy nothing
            borrowed_ = value;
            borrowing_ = true;
        } else if (!has_data_ && lines_.take_line(data_)) {
            // A first data line gathered across writes (a large event): its buffer becomes the
            // event's, so the event is never held twice.
            data_from_ = static_cast<std::size_t>(value.data() - data_.data());
        } else {
            if (borrowing_) {
                data_.assign(borrowed_);
                borrowing_ = false;
            }
            if (data_from_ != 0) {
                data_.erase(0, data_from_);
                data_from_ = 0;
            }
            if (has_data_)
                data_ += '\n';
            data_ += value;
        }
        has_data_ = true;
    }

    template<class Visitor>
    void dispatch(Visitor& visit)
    {
        if (has_data_) {
            const std::string_view data = borrowing_ ? borrowed_ : std::string_view(data_).substr(data_from_);
            // Only a payload that starts with `[` can be the end marker: the rest is not trimmed.
            const std::string_view from_first = detail::skip_blanks(data);
            if (!from_first.empty() && from_first.front() == '['
                && detail::equals(detail::trim_blanks(from_first), "[DONE]"))
                done_ = true;
            else if (!from_first.empty())
                visit(wire_event{name_, data, borrowing_ ? nullptr : &data_});
        }
        clear_event();
    }

    template<class Visitor>
    void too_large(Visitor& visit, error_code& ec)
    {
        if (skipping_)
            return;
        if (mode_ == mode::undecided)
            ++whitespace_overflows_;   // reported once the mode is known
        else
            detail::report_error(visit, ec, error::event_too_large);
        clear_event();
        skipping_ = true;
    }

    void clear_event() noexcept
    {
        name_.clear();
        data_.clear();
        data_from_ = 0;
        has_data_ = false;
        borrowing_ = false;
    }

    sse_options opts_;
    std::string name_;
    std::string data_;              // the joined data from data_from_ on, or the raw JSON body
    std::size_t data_from_ = 0;     // the `data:` prefix of a line taken whole from the splitter
    std::string_view borrowed_;     // the sole data line so far, while it is inside the caller's bytes
    mode mode_ = mode::undecided;
    bool has_data_ = false;
    bool borrowing_ = false;
    bool skipping_ = false;         // an oversized event was dropped: ignore lines to the next blank one
    std::size_t whitespace_overflows_ = 0;   // leading whitespace lines past the line limit
    bool done_ = false;
};

} // namespace toolstream
