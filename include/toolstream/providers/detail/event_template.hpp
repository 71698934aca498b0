// Reading an event that differs from the previous one only in one string value, without parsing it.
#pragma once

#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The bytes of an event around one string value: its shape. Streams repeat one shape event after
/// event (`{"id":"...","choices":[{"delta":{"content":"` + text + `"}}]}`), so an event that has
/// the shape's every byte before and after the value, and a value that is one complete JSON string
/// between them, parses as the event that taught the shape did, but for that string. Reading it
/// is then two comparisons and the string's strict decoding (json_string_decoder::read, which
/// accepts what Boost.JSON accepts) instead of a parse.
///
/// A shape is learnt from a parsed event and a probe: the same event with the value lengthened,
/// parsed again, must change exactly the field the caller names, so a key found elsewhere (an
/// unread field, a string that only contains the key) is never taken for it. A stream whose
/// events change elsewhere too (a counter, random padding) would pay that second parse at every
/// event: after each lesson the next one waits twice as many events, up to `max_wait`, and a
/// shape that is read resets the wait.
class event_template {
public:
    /// Only events up to this size teach a shape: the probe copies the event, and the saving is
    /// in the per-event parse of small events.
    static constexpr std::size_t max_event = std::size_t{64} << 10;
    /// The most events between two lessons.
    static constexpr std::size_t max_wait = 64;

    /// True when `data` has the shape learnt (none yet: false). Then its string is decoded into
    /// `out`, replacing what it held; on false `out` may hold anything.
    bool read(std::string_view data, std::string& out)
    {
        if (!matches(data))
            return false;
        out.clear();
        decoder_.reset_string();
        error_code ec;
        const std::string_view value = data.substr(prefix_size_, data.size() - shape_.size() + 1);   // and its closing quote
        if (decoder_.read(value, out, ec) != value.size() || !decoder_.closed())
            return false;
        wait_ = 0;
        next_wait_ = 1;
        return true;
    }

    /// True when a lesson is due: counts down the wait after the last one.
    bool lesson_due() noexcept
    {
        if (wait_ == 0)
            return true;
        --wait_;
        return false;
    }

    /// Learns the shape of `data` around the string value of its one occurrence of `key` (with
    /// its quotes: `"content"`), or forgets the shape when it cannot. `changes(probe, value)`
    /// parses `probe` and says whether the caller's field then holds `value`.
    template<class Changes>
    bool learn(std::string_view data, std::string_view key, Changes&& changes)
    {
        shape_.clear();
        wait_ = next_wait_;
        next_wait_ = std::min(next_wait_ * 2, max_wait);
        if (data.size() > max_event)
            return false;
        const std::size_t at = data.find(key);
        if (at == std::string_view::npos || data.find(key, at + 1) != std::string_view::npos)
            return false;
        std::size_t begin = skip_space(data, at + key.size());
        if (begin == data.size() || data[begin] != ':')
            return false;
        begin = skip_space(data, begin + 1);
        if (begin == data.size() || data[begin] != '"')
            return false;
        ++begin;
        probe_value_.clear();
        decoder_.reset_string();
        error_code ec;
        const std::size_t used = decoder_.read(data.substr(begin), probe_value_, ec);
        if (ec || !decoder_.closed())
            return false;
        const std::size_t end = begin + used - 1;   // the closing quote
        // The probe: the value with one more character, which a field read from elsewhere lacks.
        probe_.assign(data.substr(0, end));
        probe_ += 'x';
        probe_.append(data.substr(end));
        probe_value_ += 'x';
        if (!changes(std::string_view(probe_), std::string_view(probe_value_)))
            return false;
        shape_.assign(data.substr(0, begin));
        shape_.append(data.substr(end));
        prefix_size_ = begin;
        return true;
    }

    /// True when `data` has the shape's bytes before and after its string (which read() checks).
    bool matches(std::string_view data) const noexcept
    {
        if (shape_.empty() || data.size() < shape_.size())
            return false;
        const std::size_t suffix = shape_.size() - prefix_size_;
        return std::memcmp(data.data(), shape_.data(), prefix_size_) == 0
            && std::memcmp(data.data() + data.size() - suffix, shape_.data() + prefix_size_, suffix) == 0;
    }

private:
    static std::size_t skip_space(std::string_view s, std::size_t i) noexcept
    {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
            ++i;
        return i;
    }

    std::string shape_;   // the bytes before the string's first byte, then from its closing quote
    std::size_t prefix_size_ = 0;
    std::size_t wait_ = 0;
    std::size_t next_wait_ = 1;
    json_string_decoder decoder_;
    std::string probe_;
    std::string probe_value_;
};

} // namespace toolstream::detail
