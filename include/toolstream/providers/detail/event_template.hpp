// Reading an event that differs from the previous one only in one string value, without parsing it:
// event_template, and the event_sax_parser that uses it (shaped_sax_parser).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/detail/json_string_skip.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/event_sax.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The bytes of an event around one string value: its shape. Streams repeat one shape event after
/// event (`{"id":"...","choices":[{"delta":{"content":"` + text + `"}}]}`), so an event that has
/// the shape's every byte around the value, and a value that is one complete JSON string, parses
/// as the event that taught the shape did, but for that string. Reading it is then comparisons
/// and the string's strict decoding (json_string_decoder::read, which accepts what Boost.JSON
/// accepts) instead of a parse.
///
/// Some streams also change a value nobody reads in every event: a counter (`sequence_number`), a
/// timestamp (`created_at`), random padding (`obfuscation`). The caller names such keys; their
/// values become holes of the shape too, each a string of at most `max_ignored` bytes or an
/// integer, checked as strictly and otherwise skipped.
///
/// A shape is learnt from a parsed event and a probe: the same event with the value lengthened,
/// parsed again, must change exactly the field the caller names, so a key found elsewhere (an
/// unread field, a string that only contains the key) is never taken for it. A stream whose
/// events change elsewhere too would pay that second parse at every event: after each lesson the
/// next one waits twice as many events, up to `max_wait`, and a shape that is read resets the wait.
class event_template {
public:
    /// Only events up to this size teach a shape: the probe copies the event, and the saving is
    /// in the per-event parse of small events.
    static constexpr std::size_t max_event = std::size_t{64} << 10;
    /// The most events between two lessons.
    static constexpr std::size_t max_wait = 64;
    /// The longest ignored string value; a longer one ends the match.
    static constexpr std::size_t max_ignored = 256;
    /// Holes per shape: the value, and the ignored values of at most three keys.
    static constexpr std::size_t max_holes = 4;

    /// True when `data` has the shape learnt (none yet: false). Then its string is decoded into
    /// `out`, replacing what it held; on false `out` may hold anything.
    bool read(std::string_view data, std::string& out) { return walk(data, &out); }

    /// True when `data`, which parsed as JSON, has the shape: its holes are only found, not
    /// decoded or checked again.
    bool matches(std::string_view data) { return walk(data, nullptr); }

    /// True when a lesson is due: counts down the wait after the last one.
    bool lesson_due() noexcept
    {
        if (wait_ == 0)
            return true;
        --wait_;
        return false;
    }

    /// Learns the shape of `data`, which parsed as JSON, around the string value of its one
    /// occurrence of `key` (with its quotes: `"content"`) and the values of the `ignored` keys it
    /// has once, or forgets the shape when it cannot. `changes(probe, value)` parses `probe` and
    /// says whether the caller's field then holds `value`.
    template<class Keys, class Changes>
    bool learn(std::string_view data, std::string_view key, const Keys& ignored, Changes&& changes)
    {
        holes_ = 0;
        shape_.clear();
        wait_ = next_wait_;
        next_wait_ = std::min(next_wait_ * 2, max_wait);
        if (data.size() > max_event)
            return false;
        std::array<span, max_holes> holes;   // unused ones sort last
        holes.fill({static_cast<std::size_t>(-1), 0, hole::string});
        std::size_t count = 0;
        if (!find_value(data, key, true, holes[count]))
            return false;
        ++count;
        for (const std::string_view k : ignored)
            if (span found; count < max_holes && find_value(data, k, false, found))
                holes[count++] = found;
        std::sort(holes.begin(), holes.end(), [](const span& x, const span& y) { return x.begin < y.begin; });
        const span value = *std::find_if(holes.begin(), holes.end(), [](const span& h) { return h.kind == hole::value; });
        // The probe: the value with one more character, which a field read from elsewhere lacks.
        probe_.assign(data.substr(0, value.end - 1));
        probe_ += 'x';
        probe_.append(data.substr(value.end - 1));
        decoded_.clear();
        decoder_.reset_string();
        error_code ec;
        decoder_.read(data.substr(value.begin, value.end - value.begin), decoded_, ec);
        decoded_ += 'x';
        if (ec || !changes(std::string_view(probe_), std::string_view(decoded_)))
            return false;
        std::size_t from = 0;
        for (std::size_t h = 0; h < count; ++h) {
            shape_.append(data.substr(from, holes[h].begin - from));
            cuts_[h] = shape_.size();
            kinds_[h] = holes[h].kind;
            from = holes[h].end;
        }
        shape_.append(data.substr(from));
        holes_ = count;
        return true;
    }

private:
    enum class hole : unsigned char { value, string, integer };
    struct span {
        std::size_t begin = 0;   // a string's first byte after its quote, an integer's first
        std::size_t end = 0;     // after a string's closing quote, after an integer's last digit
        hole kind = hole::value;
    };

    // read() when `out` is given, else matches().
    bool walk(std::string_view data, std::string* out)
    {
        std::size_t at = 0;        // in data
        std::size_t literal = 0;   // in shape_
        for (std::size_t h = 0; h < holes_; ++h) {
            if (!literal_at(data, at, literal, cuts_[h]))
                return false;
            const std::size_t used = hole_length(data.substr(at), kinds_[h], out);
            if (used == 0)
                return false;
            at += used;
        }
        if (holes_ == 0 || data.size() - at != shape_.size() - literal || !literal_at(data, at, literal, shape_.size()))
            return false;
        wait_ = 0;
        next_wait_ = 1;
        return true;
    }

    // Compares data from `at` with shape_[literal, end), and moves both past it.
    bool literal_at(std::string_view data, std::size_t& at, std::size_t& literal, std::size_t end) const noexcept
    {
        const std::size_t n = end - literal;
        if (data.size() - at < n || std::memcmp(data.data() + at, shape_.data() + literal, n) != 0)
            return false;
        at += n;
        literal = end;
        return true;
    }

    // The bytes of the hole `rest` starts with; 0 when it is none of its kind. With `out`, a string
    // is checked strictly (the value decoded into `out`); without, the text is known to be JSON.
    std::size_t hole_length(std::string_view rest, hole kind, std::string* out)
    {
        if (kind == hole::integer)
            return integer_length(rest);
        const std::size_t limit = kind == hole::value ? rest.size() : std::min(rest.size(), max_ignored + 1);
        if (out == nullptr)
            return string_end(rest, 0, limit);
        // The plain head is copied as it is; only from its first special byte is the string decoded.
        std::string& decoded = kind == hole::value ? *out : decoded_;
        const std::size_t plain = json_string_decoder::plain_length(rest.substr(0, limit));
        decoded.assign(rest.data(), plain);
        if (plain < limit && rest[plain] == '"')
            return plain + 1;
        decoder_.reset_string();
        error_code ec;
        const std::size_t used = plain + decoder_.read(rest.substr(plain, limit - plain), decoded, ec);
        return ec || !decoder_.closed() ? 0 : used;
    }

    // In JSON text, the end (after the closing quote) of the string whose inside starts at
    // `from`, when that quote lies before `limit`; else 0.
    static std::size_t string_end(std::string_view s, std::size_t from, std::size_t limit) noexcept
    {
        string_skip skip(s, limit);
        const std::size_t quote = skip.closing_quote(skip.next(from));
        return quote < limit ? quote + 1 : 0;
    }

    // The length of the JSON integer `s` starts with (-?(0|[1-9][0-9]*), at most 19 digits), or 0.
    static std::size_t integer_length(std::string_view s) noexcept
    {
        std::size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
        const std::size_t first = i;
        while (i < s.size() && i - first < 19 && s[i] >= '0' && s[i] <= '9')
            ++i;
        if (i == first || (s[first] == '0' && i - first > 1))
            return 0;
        return i;
    }

    // The value after the one occurrence of `key` in `data` (JSON text): a string (any length for
    // the value, else at most max_ignored bytes) or, unless it is the value, an integer.
    static bool find_value(std::string_view data, std::string_view key, bool is_value, span& out) noexcept
    {
        const std::size_t at = data.find(key);
        if (at == std::string_view::npos || data.find(key, at + 1) != std::string_view::npos)
            return false;
        std::size_t i = skip_blanks(data, at + key.size());
        if (i == data.size() || data[i] != ':')
            return false;
        i = skip_blanks(data, i + 1);
        if (i < data.size() && data[i] == '"') {
            const std::size_t limit = is_value ? data.size() : std::min(data.size(), i + 2 + max_ignored);
            out = {i + 1, string_end(data, i + 1, limit), is_value ? hole::value : hole::string};
            return out.end != 0;
        }
        const std::size_t digits = is_value ? 0 : integer_length(data.substr(i));
        out = {i, i + digits, hole::integer};
        return digits != 0;
    }

    std::string shape_;   // the literal bytes between the holes
    std::array<std::size_t, max_holes> cuts_{};   // where in shape_ each hole is
    std::array<hole, max_holes> kinds_{};
    std::size_t holes_ = 0;   // none: no shape
    std::size_t wait_ = 0;
    std::size_t next_wait_ = 1;
    json_string_decoder decoder_;
    std::string probe_;
    std::string decoded_;   // an ignored string's decoding, or the probe's value
};

/// An event_sax_parser that reads the events of a learnt shape (event_template) without parsing
/// them: the handler's fields are those of the event that taught the shape, with the varying
/// string replaced. Events are tried against the shape only when their SSE event name is the one
/// the shape was learnt with.
///
/// `Fields` (an event_sax handler) names the strings a shape may vary, in order of preference:
///
/// | expression             | type                      | semantics                                      |
/// |------------------------|---------------------------|------------------------------------------------|
/// | `Fields::shape_keys`   | a `std::array` of `std::string_view` | each slot's key with its quotes (`"\"text\""`) |
/// | `Fields::ignored_keys` | a `std::array` of `std::string_view` | keys whose values the handler never reads, wherever they are, and which may change from event to event |
/// | `f.shape_field(slot)`  | `std::string*`            | the field that slot's string fills in the event read, or null when the event has none (another structure) |
///
/// A second parser parses the probes, so that the handler keeps the fields of the event just read.
template<class Fields>
class shaped_sax_parser {
    struct no_preparation {
        void operator()(Fields&) const noexcept {}
    };

public:
    Fields& handler() noexcept { return parser_.handler(); }

    /// Reads `data`, an event named `name`, into handler(): through the shape when the event has
    /// it, else by a parse, before which `prepare(Fields&)` readies the handler for a new event
    /// (the parser's own begin() is enough for most handlers). A parse that is done may teach the
    /// shape (a second parse, of the probe).
    template<class Prepare = no_preparation>
    sax_outcome parse(std::string_view name, std::string_view data, Prepare&& prepare = {})
    {
        Fields& f = parser_.handler();
        if (shaped_ && equals(name, shape_name_) && shape_.read(data, *f.shape_field(slot_)))
            return sax_outcome::done;
        shaped_ = false;
        prepare(f);
        const sax_outcome outcome = parser_.parse(data);
        if (outcome == sax_outcome::done)
            learn(name, data, prepare);
        return outcome;
    }

private:
    template<class Prepare>
    void learn(std::string_view name, std::string_view data, Prepare& prepare)
    {
        Fields& f = parser_.handler();
        if (name == shape_name_ && f.shape_field(slot_) != nullptr && shape_.matches(data)) {
            shaped_ = true;   // the shape again, after other events
            return;
        }
        std::size_t slot = 0;
        for (; slot < std::size(Fields::shape_keys); ++slot)
            if (const std::string* field = f.shape_field(slot); field != nullptr && !field->empty())
                break;
        if (slot == std::size(Fields::shape_keys) || !shape_.lesson_due())
            return;
        shaped_ = shape_.learn(data, Fields::shape_keys[slot], Fields::ignored_keys, [&](std::string_view probe, std::string_view value) {
            Fields& p = probe_parser_.handler();
            prepare(p);
            if (probe_parser_.parse(probe) != sax_outcome::done)
                return false;
            const std::string* field = p.shape_field(slot);
            return field != nullptr && *field == value;
        });
        slot_ = slot;
        shape_name_.assign(name);
    }

    event_sax_parser<Fields> parser_;
    event_sax_parser<Fields> probe_parser_;
    event_template shape_;
    std::string shape_name_;
    std::size_t slot_ = 0;
    bool shaped_ = false;   // the handler holds the fields of an event of the shape learnt
};

} // namespace toolstream::detail
