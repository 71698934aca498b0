// Reads the few fields of a provider event while Boost.JSON parses it, with no DOM: the fast
// path of a converter, which falls back to payload_parser for any shape it does not know.
#pragma once

#include <toolstream/error.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Declared only: a test defines it to run a converter's DOM path (`convert_tree`) and its fast
/// parse (`sax_`) apart, and so to compare the two. Converters with a fast path befriend it.
struct event_paths_access;

/// A place in an event's JSON that a dialect reads: 0 is "not read" (the value and everything
/// inside it is skipped), `root` the top-level object, other values are the dialect's own.
using sax_slot = unsigned char;

namespace sax_slots {
inline constexpr sax_slot ignored = 0;
inline constexpr sax_slot root = 1;
/// What a dialect's `child()` returns for a key it cannot take (a duplicate, say): the parse
/// stops and the event goes to the DOM path.
inline constexpr sax_slot reject = 255;
} // namespace sax_slots

/// The base of a `boost::json::basic_parser` handler (CRTP) that follows a dialect's shape.
///
/// `Dialect` tells where each value goes; every member has a default but `child`:
/// - `sax_slot child(sax_slot parent, std::string_view key)`: the slot of the member `key` of
///   the object at slot `parent` (called only for objects the dialect reads);
/// - `bool object_at(sax_slot)`: the slot may hold an object whose members are read;
/// - `std::string* text_at(sax_slot)`: where the slot's string goes, its decoded parts appended
///   as Boost gives them (a buffer the dialect reuses: no allocation once it has grown);
/// - `bool count_at(sax_slot, std::uint64_t)`, `bool bool_at(sax_slot, bool)`,
///   `bool null_at(sax_slot)`: a non-negative integer, a boolean, a null there.
/// Any value at a read slot that the dialect does not accept (a string where a count belongs, a
/// double, an array) stops the parse, and the converter takes its DOM path: that path is the
/// reference, so an unexpected shape never gives another result than it would.
template<class Dialect>
class event_sax {
public:
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

    bool on_document_begin(error_code&)
    {
        depth_ = 0;
        slot_ = sax_slots::ignored;
        key_.clear();
        object_ = false;
        return true;
    }
    bool on_document_end(error_code& ec) { return object_ || stop(ec); }   // every event here is an object
    bool on_object_begin(error_code& ec) { return open(true, ec); }
    bool on_object_end(std::size_t, error_code&) { return close(); }
    bool on_array_begin(error_code& ec) { return open(false, ec); }
    bool on_array_end(std::size_t, error_code&) { return close(); }

    bool on_key_part(std::string_view s, std::size_t, error_code&)
    {
        if (reading())
            key_.append(s);
        return true;
    }
    bool on_key(std::string_view s, std::size_t, error_code& ec)
    {
        if (!reading()) {
            slot_ = sax_slots::ignored;
            return true;
        }
        std::string_view key = s;
        if (!key_.empty())
            key = key_.append(s);
        slot_ = self().child(stack_[depth_ - 1], key);
        key_.clear();
        return slot_ != sax_slots::reject || stop(ec);
    }

    bool on_string_part(std::string_view s, std::size_t, error_code& ec)
    {
        if (slot_ == sax_slots::ignored)
            return true;
        std::string* text = self().text_at(slot_);
        if (text == nullptr)
            return stop(ec);
        text->append(s);
        return true;
    }
    bool on_string(std::string_view s, std::size_t n, error_code& ec)
    {
        return on_string_part(s, n, ec) && value_done();
    }

    bool on_number_part(std::string_view, error_code&) { return true; }
    bool on_int64(std::int64_t v, std::string_view, error_code& ec)
    {
        return v >= 0 ? on_uint64(static_cast<std::uint64_t>(v), {}, ec) : scalar(false, ec);
    }
    bool on_uint64(std::uint64_t v, std::string_view, error_code& ec)
    {
        return scalar(slot_ == sax_slots::ignored || self().count_at(slot_, v), ec);
    }
    bool on_double(double, std::string_view, error_code& ec) { return scalar(false, ec); }
    bool on_bool(bool v, error_code& ec) { return scalar(slot_ == sax_slots::ignored || self().bool_at(slot_, v), ec); }
    bool on_null(error_code& ec) { return scalar(slot_ == sax_slots::ignored || self().null_at(slot_), ec); }
    bool on_comment_part(std::string_view, error_code&) { return true; }
    bool on_comment(std::string_view, error_code&) { return true; }

    // Defaults of the dialect's hooks: nothing is accepted.
    bool object_at(sax_slot) const noexcept { return false; }
    std::string* text_at(sax_slot) noexcept { return nullptr; }
    bool count_at(sax_slot, std::uint64_t) noexcept { return false; }
    bool bool_at(sax_slot, bool) noexcept { return false; }
    bool null_at(sax_slot) noexcept { return false; }

private:
    // Containers nested deeper than this take the DOM path (Boost's own default limit is 32).
    static constexpr std::size_t max_depth = 32;

    Dialect& self() noexcept { return static_cast<Dialect&>(*this); }

    // True inside an object whose members the dialect reads.
    bool reading() const noexcept { return depth_ > 0 && depth_ <= max_depth && stack_[depth_ - 1] != sax_slots::ignored; }

    static bool stop(error_code& ec)
    {
        ec = error::invalid_payload;   // any failure sends the event to the DOM path
        return false;
    }

    bool value_done() noexcept
    {
        slot_ = sax_slots::ignored;
        return true;
    }

    bool scalar(bool accepted, error_code& ec)
    {
        if (slot_ != sax_slots::ignored && !accepted)
            return stop(ec);
        return value_done();
    }

    bool open(bool is_object, error_code& ec)
    {
        sax_slot s = slot_;
        if (depth_ == 0)
            s = (object_ = is_object) ? sax_slots::root : sax_slots::reject;
        else if (depth_ > max_depth || stack_[depth_ - 1] == sax_slots::ignored)
            s = sax_slots::ignored;
        else if (s != sax_slots::ignored && !(is_object && self().object_at(s)))
            s = sax_slots::reject;
        if (s == sax_slots::reject || depth_ >= max_depth)
            return stop(ec);
        stack_[depth_++] = s;
        slot_ = sax_slots::ignored;
        return true;
    }

    bool close() noexcept
    {
        --depth_;
        return value_done();
    }

    std::array<sax_slot, max_depth> stack_{};
    std::size_t depth_ = 0;
    sax_slot slot_ = sax_slots::ignored;   // the slot of the value that comes next
    std::string key_;                      // a key split across writes, gathered
    bool object_ = false;                  // the document is an object
};

/// Runs a dialect's event_sax over one complete payload.
///
/// Boost 1.81 workarounds: the parser is never the first member (#814) and is fed at most
/// 2 KiB per write_some (#876).
template<class Dialect>
class event_sax_parser {
public:
    static constexpr std::size_t max_write = 2048;

    Dialect& handler() noexcept { return parser_.handler(); }

    /// True when `text` is exactly one JSON object that the dialect read to the end; false for
    /// malformed JSON and for every shape the dialect declined (the caller takes its DOM path).
    bool parse(std::string_view text)
    {
        parser_.reset();
        error_code ec;
        std::size_t at = 0;
        do {
            const std::size_t n = std::min(max_write, text.size() - at);
            const bool more = at + n < text.size();
            if (parser_.write_some(more, text.data() + at, n, ec) != n || ec)
                return false;
            at += n;
        } while (at < text.size());
        return parser_.done();
    }

private:
    [[maybe_unused]] bool unused_ = false;   // keeps the parser from being the first member (#814)
    boost::json::basic_parser<Dialect> parser_{boost::json::parse_options{}};
};

} // namespace toolstream::detail
