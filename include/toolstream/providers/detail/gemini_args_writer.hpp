// Compact JSON text written from a JSON parser's events, as append_compact_json writes it from a
// DOM: Gemini's `args` object, turned into argument text while it parses, with no tree.
#pragma once

#include <toolstream/detail/compact_json.hpp>

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// Writes one object (and all it holds) from its parse events: keys and strings re-escaped with
/// append_json_escaped piece by piece, integers as parsed, doubles with append_js_number. A
/// repeated key in any of its objects (where the DOM would keep one), an object of more than
/// `max_keys` keys (each key is compared with the others) or nesting past `max_depth` makes
/// key()/open() return false: the caller then reads the event from a DOM instead.
class gemini_args_writer {
public:
    static constexpr std::size_t max_keys = 64;
    static constexpr std::size_t max_depth = 64;

    /// True between start() and the end of the object it opened.
    bool active() const noexcept { return !levels_.empty(); }

    /// Begins the object, appending to `out` (which must outlive it).
    void start(std::string& out)
    {
        out_ = &out;
        levels_.clear();
        keys_used_ = 0;
        key_.clear();
        in_string_ = false;
        out += '{';
        levels_.push_back({true, 0});
    }

    /// Forgets an object left unfinished.
    void reset() noexcept { levels_.clear(); }

    bool open(bool is_object)
    {
        if (levels_.size() == max_depth)
            return false;
        before_value();
        *out_ += is_object ? '{' : '[';
        levels_.push_back({true, is_object ? keys_used_ : npos});
        return true;
    }

    /// Closes the innermost container; true when that was the object start() opened.
    bool close()
    {
        const level l = levels_.back();
        levels_.pop_back();
        if (l.first_key == npos) {
            *out_ += ']';
        } else {
            *out_ += '}';
            keys_used_ = l.first_key;
        }
        return levels_.empty();
    }

    void key_part(std::string_view s) { key_.append(s); }

    bool key(std::string_view s)
    {
        if (!key_.empty()) {
            key_.append(s);
            s = key_;
        }
        level& l = levels_.back();
        if (keys_used_ - l.first_key == max_keys)
            return false;
        for (std::size_t i = l.first_key; i < keys_used_; ++i)
            if (keys_[i] == s)
                return false;
        if (keys_used_ == keys_.size())
            keys_.emplace_back();
        keys_[keys_used_++].assign(s);
        if (!l.first)
            *out_ += ',';
        l.first = false;
        *out_ += '"';
        append_json_escaped(*out_, s);
        *out_ += "\":";
        key_.clear();
        return true;
    }

    void string_part(std::string_view s)
    {
        if (!in_string_) {
            before_value();
            *out_ += '"';
            in_string_ = true;
        }
        append_json_escaped(*out_, s);
    }

    void string(std::string_view s)
    {
        string_part(s);
        *out_ += '"';
        in_string_ = false;
    }

    template<class Int>
    void integer(Int v)
    {
        before_value();
        char buf[24];
        out_->append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    }

    void floating(double v)
    {
        before_value();
        append_js_number(*out_, v);
    }

    /// `true`, `false` or `null`.
    void literal(std::string_view text)
    {
        before_value();
        *out_ += text;
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    struct level {
        bool first = true;           // no member or element written yet
        std::size_t first_key = 0;   // objects: their keys in keys_ from here; arrays: npos
    };

    // A comma before every array element but the first (object members get theirs in key()).
    void before_value()
    {
        level& l = levels_.back();
        if (l.first_key == npos) {
            if (!l.first)
                *out_ += ',';
            l.first = false;
        }
    }

    std::string* out_ = nullptr;
    std::vector<level> levels_;       // the containers open, the object itself first
    std::vector<std::string> keys_;   // the keys of the objects open
    std::size_t keys_used_ = 0;
    std::string key_;                 // a key split across writes
    bool in_string_ = false;          // a string value is open
};

} // namespace toolstream::detail
