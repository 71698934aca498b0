// Reading the few fields a dialect needs from one complete event payload while Boost.JSON parses
// it, with no DOM: the shared mechanism of the tree-less provider converters.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/providers/detail/string_value_feed.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// Where a value sits, in a dialect's own numbering: a code below 64 that the dialect gives to
/// each field or container it reads ("the delta object of a choice", "a tool call's arguments").
/// sax_skip marks a place no rule names: its value, and everything inside it, is skipped.
using sax_place = std::uint8_t;
inline constexpr sax_place sax_skip = 0;

/// What the dialect wants done with a container that opens at a place it named.
enum class sax_open : std::uint8_t {
    enter,      ///< read inside it: its keys or elements get places
    skip,       ///< ignore it and all it holds
    fallback,   ///< a shape the fast path does not read: stop, and convert from the DOM
};

/// A JSON number as Boost read it.
struct sax_number {
    enum class kind : std::uint8_t { int64, uint64, floating };
    kind type = kind::int64;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0;

    /// The number as a count (a token count, an index) under json_fields.hpp's count_field rule:
    /// a non-negative integer, or a whole double written for one.
    std::optional<std::uint64_t> count() const noexcept
    {
        switch (type) {
        case kind::uint64: return u;
        case kind::int64: return i >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(i)) : std::nullopt;
        case kind::floating: return whole_count(d);
        }
        return std::nullopt;
    }
};

/// The literals true, false and null.
enum class sax_literal : std::uint8_t { null, false_, true_ };

/// The next entry of a pool of field records reused from event to event (`used` of them are
/// taken): cleared, keeping the capacity of its strings, so a steady stream allocates nothing.
template<class T>
T& next_pooled(std::vector<T>& pool, std::size_t& used)
{
    if (used == pool.size())
        pool.emplace_back();
    T& t = pool[used++];
    t.clear();
    return t;
}

/// The base of a boost::json::basic_parser handler that reads one dialect's fields (CRTP).
///
/// The base tracks depth, skips every subtree no rule names without asking the dialect, gathers
/// keys split across writes, and stops with a fallback when a tracked object repeats a key (the
/// DOM keeps the last of duplicates; the fast path would see both). `Dialect` supplies:
///
///     static constexpr sax_place root_place;              // the place of the payload itself
///     sax_place key(sax_place object, std::string_view);  // the place of that key's value
///     sax_place element(sax_place array);                 // the place of every element
///     sax_open open(sax_place, bool is_object);           // a container begins at a named place
///     bool close(sax_place);                              // an entered container ends
///     std::string* string_target(sax_place);              // where a string's decoded bytes go
///                                                         //   (nullptr: ignore the string)
///     bool string_end(sax_place);                         // the string at that place is complete
///     bool number(sax_place, const sax_number&);
///     bool literal(sax_place, sax_literal);
///
/// Each hook runs only for named places (never sax_skip). A hook returning false (or
/// sax_open::fallback) stops the parse and reports a fallback: the event has a shape the
/// dialect's fast path does not read, and the caller converts it from a DOM instead. The
/// dialect resets its own fields before each event; the base resets itself in begin().
template<class Dialect>
class event_sax {
public:
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

    /// Tracked containers nest at most this deep; deeper ones fall back (dialects are shallow).
    static constexpr std::size_t max_tracked_depth = 16;

    /// True when the last parse stopped because the dialect asked for the DOM.
    bool fell_back() const noexcept { return fallback_; }

    /// Forgets the previous event.
    void begin() noexcept
    {
        depth_ = 0;
        skip_depth_ = 0;
        fallback_ = false;
        in_string_ = false;
        target_ = nullptr;
        key_.clear();
    }

    // The basic_parser handler interface.
    using ec_type = boost::system::error_code;
    bool on_document_begin(ec_type&) { return true; }
    bool on_document_end(ec_type&) { return true; }
    bool on_object_begin(ec_type& ec) { return open_container(true, ec); }
    bool on_object_end(std::size_t, ec_type& ec) { return close_container(ec); }
    bool on_array_begin(ec_type& ec) { return open_container(false, ec); }
    bool on_array_end(std::size_t, ec_type& ec) { return close_container(ec); }

    bool on_key_part(std::string_view s, std::size_t, ec_type&)
    {
        if (skip_depth_ == 0)
            key_.append(s);
        return true;
    }

    bool on_key(std::string_view s, std::size_t, ec_type& ec)
    {
        if (skip_depth_ != 0)
            return true;
        frame& f = frames_[depth_ - 1];
        if (!key_.empty()) {   // the key was split across writes
            key_.append(s);
            s = key_;
        }
        f.next = f.place == sax_skip ? sax_skip : self().key(f.place, s);
        key_.clear();
        if (f.next == sax_skip)
            return true;
        const std::uint64_t bit = std::uint64_t{1} << f.next;
        if ((f.seen & bit) != 0)
            return stop(ec);   // a repeated key: the DOM keeps the last, so let it decide
        f.seen |= bit;
        return true;
    }

    bool on_string_part(std::string_view s, std::size_t, ec_type&)
    {
        if (!in_string_) {
            in_string_ = true;
            const sax_place p = value_place();
            target_ = p == sax_skip ? nullptr : self().string_target(p);
        }
        if (target_ != nullptr)
            target_->append(s);
        return true;
    }

    bool on_string(std::string_view s, std::size_t, ec_type& ec)
    {
        const sax_place p = value_place();
        if (!in_string_)
            target_ = p == sax_skip ? nullptr : self().string_target(p);
        in_string_ = false;
        if (p == sax_skip)
            return true;
        if (target_ != nullptr)
            target_->append(s);
        target_ = nullptr;
        return self().string_end(p) || stop(ec);
    }

    bool on_number_part(std::string_view, ec_type&) { return true; }
    bool on_int64(std::int64_t v, std::string_view, ec_type& ec)
    {
        return scalar_number({sax_number::kind::int64, v, 0, 0}, ec);
    }
    bool on_uint64(std::uint64_t v, std::string_view, ec_type& ec)
    {
        return scalar_number({sax_number::kind::uint64, 0, v, 0}, ec);
    }
    bool on_double(double v, std::string_view, ec_type& ec)
    {
        return scalar_number({sax_number::kind::floating, 0, 0, v}, ec);
    }
    bool on_bool(bool v, ec_type& ec) { return scalar_literal(v ? sax_literal::true_ : sax_literal::false_, ec); }
    bool on_null(ec_type& ec) { return scalar_literal(sax_literal::null, ec); }
    bool on_comment_part(std::string_view, ec_type&) { return true; }
    bool on_comment(std::string_view, ec_type&) { return true; }

protected:
    event_sax() = default;

    /// Stops the parse with a fallback, for a dialect that reads some events itself (hiding the
    /// handler functions above) and meets a shape it does not read there.
    bool request_fallback(ec_type& ec) { return stop(ec); }

private:
    struct frame {
        sax_place place = sax_skip;
        bool is_object = false;
        sax_place next = sax_skip;   // objects: the place of the value after the last key
        std::uint64_t seen = 0;      // objects: the places whose key was seen
    };

    Dialect& self() noexcept { return static_cast<Dialect&>(*this); }

    // The place of the value that is starting: the document's, a key's, or an element's.
    sax_place value_place()
    {
        if (skip_depth_ != 0)
            return sax_skip;
        if (depth_ == 0)
            return Dialect::root_place;
        const frame& f = frames_[depth_ - 1];
        if (f.is_object)
            return f.next;
        return f.place == sax_skip ? sax_skip : self().element(f.place);
    }

    bool stop(ec_type& ec)
    {
        fallback_ = true;
        ec = error::invalid_payload;   // any error stops the parser; fell_back() tells them apart
        return false;
    }

    bool open_container(bool is_object, ec_type& ec)
    {
        const sax_place p = value_place();
        const sax_open what = p == sax_skip ? sax_open::skip : self().open(p, is_object);
        if (what == sax_open::fallback || (what == sax_open::enter && depth_ == max_tracked_depth))
            return stop(ec);
        if (what == sax_open::skip) {
            ++skip_depth_;
            return true;
        }
        frames_[depth_++] = frame{p, is_object, sax_skip, 0};
        return true;
    }

    bool close_container(ec_type& ec)
    {
        if (skip_depth_ != 0) {
            --skip_depth_;
            return true;
        }
        const sax_place p = frames_[--depth_].place;
        return self().close(p) || stop(ec);
    }

    bool scalar_number(const sax_number& n, ec_type& ec)
    {
        const sax_place p = value_place();
        return p == sax_skip || self().number(p, n) || stop(ec);
    }

    bool scalar_literal(sax_literal l, ec_type& ec)
    {
        const sax_place p = value_place();
        return p == sax_skip || self().literal(p, l) || stop(ec);
    }

    std::array<frame, max_tracked_depth> frames_{};
    std::size_t depth_ = 0;
    std::size_t skip_depth_ = 0;   // depth inside a skipped container
    std::string key_;              // a key split across writes, gathered
    std::string* target_ = nullptr;
    bool in_string_ = false;
    bool fallback_ = false;
};

/// How an event_sax parse of one payload ended.
enum class sax_outcome : std::uint8_t {
    done,       ///< the payload was valid JSON and the dialect read all of it
    fallback,   ///< the dialect asked for the DOM
    invalid,    ///< the payload is not one JSON value (error::invalid_payload)
};

/// A boost::json::basic_parser over a dialect's event_sax handler, fed as Boost 1.81 needs:
/// the parser is never the first member of its object (#814) and is written through
/// write_sliced (#876). It accepts exactly what payload_parser accepts (the same parse
/// options, trailing data rejected), so a fallback to the DOM never changes the verdict.
/// Long string values are decoded outside Boost.JSON (string_value_feed).
template<class Handler>
class event_sax_parser {
public:
    event_sax_parser() = default;
    event_sax_parser(const event_sax_parser&) = delete;
    event_sax_parser& operator=(const event_sax_parser&) = delete;

    Handler& handler() noexcept { return parser_.handler(); }

    /// Parses `text` into the handler, which the caller has prepared for a new event. An
    /// exception from the handler (std::bad_alloc) propagates; the next parse starts clean.
    sax_outcome parse(std::string_view text)
    {
        parser_.reset();
        Handler& h = parser_.handler();
        h.begin();
        boost::system::error_code ec;
        const std::size_t used = values_.write(parser_, text, ec);
        if (ec)
            return h.fell_back() ? sax_outcome::fallback : sax_outcome::invalid;
        if (used != text.size())
            return sax_outcome::invalid;   // data after the value
        return parser_.done() ? sax_outcome::done : sax_outcome::invalid;
    }

private:
    [[maybe_unused]] unsigned char guard_ = 0;   // keeps the parser off the object's address (#814)
    boost::json::basic_parser<Handler> parser_{boost::json::parse_options{}};
    string_value_feed values_;
};

} // namespace toolstream::detail
