// A live preview of JSON text that is still arriving: an incremental reader keeping a
// boost::json::value current, in amortised O(delta) per fragment, never re-reading a byte.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_string_decoder.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream {

/// The preview of a JSON text's prefix (`preview()`), after each `feed`:
/// - an open string shows its decoded prefix (an escape shows once it is whole; a surrogate
///   pair, once both halves are; the bytes of a UTF-8 character, once all have come; bytes that
///   are not UTF-8 pass through, as detail::utf8_bytes::lenient groups them);
/// - open objects and arrays show the members and elements they hold so far;
/// - a key with no value yet is left out, and so is an unfinished number or literal (`12` of
///   `123`, `tr` of `true`): it appears once a delimiter ends it;
/// - before the first byte of the value, the preview is null.
/// Malformed text stops the preview where it was; `failed()` says so. Duplicate keys: the last
/// wins, as in JavaScript. A top-level scalar appears when `finish()` says it is whole.
/// Neither copyable nor movable: it keeps pointers into its own preview.
class partial_json {
public:
    partial_json() = default;
    partial_json(const partial_json&) = delete;
    partial_json& operator=(const partial_json&) = delete;

    /// Reads the next bytes of the text.
    void feed(std::string_view bytes)
    {
        for (std::size_t i = 0; i < bytes.size() && !failed_;) {
            if (in_ == in::string_value || in_ == in::key)
                i += string_bytes(bytes.substr(i));
            else
                step(bytes[i++]);
        }
    }

    /// The text is whole: a pending top-level scalar is finished.
    void finish()
    {
        if (!failed_ && !scalar_.empty())
            end_scalar();
    }

    const boost::json::value& preview() const noexcept { return root_; }
    bool failed() const noexcept { return failed_; }

    void reset()
    {
        root_ = nullptr;
        stack_.clear();
        open_string_ = nullptr;
        key_.clear();
        scalar_.clear();
        string_.reset_string();
        expect_ = expect::value;
        in_ = in::nothing;
        failed_ = false;
    }

private:
    enum class expect : std::uint8_t {
        value,          // a value: the root, an array element, or after a key's colon
        first_element,  // after `[`: a value or `]`
        first_key,      // after `{`: a key or `}`
        key,            // after `,` in an object
        colon,          // after a key
        after_value,    // `,` or the container's end
        done,           // the root is whole
    };
    enum class in : std::uint8_t { nothing, string_value, key, scalar };

    struct frame {
        boost::json::value* container;
    };

    // A byte outside strings.
    void step(char c)
    {
        if (in_ == in::scalar) {
            if (c != ',' && c != '}' && c != ']' && !detail::is_blank(c)) {
                scalar_ += c;
                return;
            }
            end_scalar();
            if (failed_)
                return;
            // the delimiter is read below
        }
        structural(c);
    }

    void structural(char c)
    {
        if (detail::is_blank(c))
            return;
        switch (expect_) {
        case expect::first_key:
            if (c == '}')
                return close();
            [[fallthrough]];
        case expect::key:
            if (c != '"')
                return fail();
            key_.clear();
            string_.reset_string();
            in_ = in::key;
            return;
        case expect::colon:
            if (c != ':')
                return fail();
            expect_ = expect::value;
            return;
        case expect::first_element:
            if (c == ']')
                return close();
            [[fallthrough]];
        case expect::value: return begin_value(c);
        case expect::after_value:
            if (stack_.empty())
                return fail();
            if (c == ',') {
                expect_ = stack_.back().container->is_object() ? expect::key : expect::value;
                return;
            }
            if (c == (stack_.back().container->is_object() ? '}' : ']'))
                return close();
            return fail();
        case expect::done: return fail();
        }
    }

    /// Where the value being started goes: the root, the next element, or the pending key.
    boost::json::value& place(boost::json::value v)
    {
        if (stack_.empty())
            return root_ = std::move(v);
        auto& parent = *stack_.back().container;
        if (parent.is_array())
            return parent.get_array().emplace_back(std::move(v));
        return parent.get_object().insert_or_assign(key_, std::move(v)).first->value();
    }

    void begin_value(char c)
    {
        if (c == '{' || c == '[') {
            auto& v = place(c == '{' ? boost::json::value(boost::json::object{}) : boost::json::value(boost::json::array{}));
            stack_.push_back({&v});
            expect_ = c == '{' ? expect::first_key : expect::first_element;
        } else if (c == '"') {
            open_string_ = &place(boost::json::string{}).get_string();
            string_.reset_string();
            in_ = in::string_value;
        } else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n') {
            scalar_.assign(1, c);
            in_ = in::scalar;
        } else {
            fail();
        }
    }

    void close()
    {
        stack_.pop_back();
        expect_ = stack_.empty() ? expect::done : expect::after_value;
    }

    void end_scalar()
    {
        in_ = in::nothing;
        boost::json::value v;
        if (scalar_ == "true")
            v = true;
        else if (scalar_ == "false")
            v = false;
        else if (scalar_ != "null" && !parse_number(v))
            return fail();
        scalar_.clear();
        place(std::move(v));
        expect_ = stack_.empty() ? expect::done : expect::after_value;
    }

    bool parse_number(boost::json::value& v) const;

    // Reads the open string's bytes from the start of `s`; returns how many it used.
    std::size_t string_bytes(std::string_view s);
    void end_string()
    {
        expect_ = in_ == in::key ? expect::colon : stack_.empty() ? expect::done : expect::after_value;
        in_ = in::nothing;
        open_string_ = nullptr;
    }

    void fail() noexcept { failed_ = true; }

    boost::json::value root_;
    std::vector<frame> stack_;             // the open containers, outermost first
    boost::json::string* open_string_ = nullptr;
    std::string key_;                      // the key being read, or waiting for its value
    std::string scalar_;                   // an unfinished number or literal
    detail::json_string_decoder string_;   // the open string's decoding
    expect expect_ = expect::value;
    in in_ = in::nothing;
    bool failed_ = false;
};

} // namespace toolstream

#include <toolstream/impl/partial_json.hpp>
