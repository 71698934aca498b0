// Streams the decoded body of a native write_file/patch_file call out of its JSON arguments,
// whatever the fragmentation. The object's keys and strings are read here (json_string_decoder,
// which copies runs without escapes in one piece); Boost.JSON's basic_parser reads the other
// values (numbers, literals, nested arrays and objects), so validation is Boost.JSON's throughout.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/config.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/error.hpp>

#include <boost/json/basic_parser.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// Where decoded pieces go. A function pointer and a context keep the decoder independent of
/// the writer type with a plain indirect call.
struct file_argument_callbacks {
    void* context = nullptr;
    void (*on_body)(void* context, std::string_view decoded_piece) = nullptr;
    void (*on_path)(void* context, std::string_view path) = nullptr;
    /// Optional: a top-level boolean or number of any other key (a run_bash `background`...).
    void (*on_scalar)(void* context, std::string_view key, const boost::json::value& v) = nullptr;
};

/// Decodes `{"path": "...", "<body_key>": "..."}` (keys in any order, other keys ignored):
/// the body string is reported as it decodes, one piece per write and per `body_slice` bytes of
/// a longer one, so that what it holds stays bounded (escapes such as `\uD83D\uDE00` and UTF-8
/// characters split across fragments included: a piece is always whole characters); the path is
/// reported once, when its string closes. Arguments that are not an object, a body that is not a
/// string, and a second `path` or body key (JSON readers disagree on which one counts) fail with
/// error::invalid_arguments; other errors are Boost.JSON's. The body decoded before an error is
/// reported, so it does not depend on the fragmentation.
class file_arguments_decoder {
public:
    /// Boost 1.81 #876: a write suspended inside `\uXXXX` followed by 4 KiB or more overflows
    /// a stack buffer, so Boost.JSON is fed in slices no larger than this.
    static constexpr std::size_t max_write = 2048;

    /// The most body bytes read before they are handed over, within one write.
    static constexpr std::size_t body_slice = std::size_t{64} << 10;

    explicit file_arguments_decoder(std::string_view body_key, std::size_t max_depth = 64)
        : body_key_(body_key), max_depth_(max_depth), value_(make_options(max_depth))
    {
    }

    file_arguments_decoder(const file_arguments_decoder&) = delete;
    file_arguments_decoder& operator=(const file_arguments_decoder&) = delete;

    /// Feeds one fragment. After an error every later call returns the same error.
    error_code write(std::string_view fragment, const file_argument_callbacks& cb)
    {
        if (failed_)
            return failed_;
        const std::size_t used = read(fragment, cb);
        flush(cb);
        consumed_ += used;
        return failed_;
    }

    /// Bytes read without error (after an error, those before the byte in error).
    std::size_t consumed() const noexcept { return consumed_; }

    /// True once the whole arguments object has been read.
    bool done() const noexcept { return state_ == state::done; }
    error_code error() const noexcept { return failed_; }

    /// Once the whole object has been read without error: where the inside of the body string
    /// lies in the text written, from its first byte to its closing quote; nullopt without a body.
    std::optional<std::pair<std::size_t, std::size_t>> body_extent() const noexcept
    {
        if (!done() || failed_ || !body_key_seen_)
            return std::nullopt;
        return std::pair{body_begin_, body_end_};
    }

private:
    enum class state : std::uint8_t { start, first_key, next_key, key, colon, value, string, other_value, after_value, done };
    enum class field : std::uint8_t { other, path, body };

    // Boost.JSON's handler for a value that is not a string: reports a top-level scalar and
    // refuses a body that is not a string (a complete call would make an empty file).
    struct value_events {
        static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
        static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
        static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
        static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

        const file_argument_callbacks* cb = nullptr;
        std::string_view key;
        field current = field::other;
        std::size_t depth = 0;

        bool on_document_begin(error_code&) { return true; }
        bool on_document_end(error_code&) { return true; }
        bool on_object_begin(error_code& ec) { return open(ec); }
        bool on_object_end(std::size_t, error_code&) { return close(); }
        bool on_array_begin(error_code& ec) { return open(ec); }
        bool on_array_end(std::size_t, error_code&) { return close(); }
        bool on_key_part(std::string_view, std::size_t, error_code&) { return true; }
        bool on_key(std::string_view, std::size_t, error_code&) { return true; }
        bool on_string_part(std::string_view, std::size_t, error_code&) { return true; }
        bool on_string(std::string_view, std::size_t, error_code&) { return true; }
        bool on_number_part(std::string_view, error_code&) { return true; }
        bool on_int64(std::int64_t v, std::string_view, error_code& ec) { return scalar(ec, v); }
        bool on_uint64(std::uint64_t v, std::string_view, error_code& ec) { return scalar(ec, v); }
        bool on_double(double v, std::string_view, error_code& ec) { return scalar(ec, v); }
        bool on_bool(bool v, error_code& ec) { return scalar(ec, v); }
        bool on_null(error_code& ec) { return scalar(ec); }
        bool on_comment_part(std::string_view, error_code&) { return true; }
        bool on_comment(std::string_view, error_code&) { return true; }

        bool scalar(error_code& ec, const boost::json::value& v = nullptr)
        {
            if (depth != 0)
                return true;
            if (current == field::body) {
                ec = error::invalid_arguments;
                return false;
            }
            if (current == field::other && !v.is_null() && cb->on_scalar != nullptr)
                cb->on_scalar(cb->context, key, v);
            return true;
        }
        bool open(error_code& ec)
        {
            if (depth == 0 && current == field::body) {
                ec = error::invalid_arguments;
                return false;
            }
            ++depth;
            return true;
        }
        bool close()
        {
            --depth;
            return true;
        }
    };

    static boost::json::parse_options make_options(std::size_t max_depth)
    {
        boost::json::parse_options opt;
        opt.max_depth = max_depth == 0 ? 0 : max_depth - 1;   // inside the arguments object
        return opt;
    }

    std::size_t fail(error_code ec, std::size_t at)
    {
        failed_ = ec;
        return at;
    }

    // Reads `s` as far as it goes; returns the bytes used (up to the error, if any).
    std::size_t read(std::string_view s, const file_argument_callbacks& cb)
    {
        std::size_t i = 0;
        while (i < s.size()) {
            if (state_ == state::string || state_ == state::key) {
                const bool body = state_ == state::string && current_ == field::body;
                // A body is read a slice at a time and handed over per slice, so that a whole
                // call in one write (Gemini, Mistral) is not decoded into a second whole copy.
                i += read_string(s.substr(i, body ? body_slice : s.size()), cb);
                if (body && gather_.size() >= body_slice)
                    flush(cb);
                if (failed_)
                    return i;
                if (body && state_ == state::after_value)
                    body_end_ = consumed_ + i - 1;   // the closing quote
                continue;
            }
            if (state_ == state::other_value) {
                i += read_value(s.substr(i), cb);
                if (failed_)
                    return i;
                continue;
            }
            if (state_ == state::done)
                return all_blank(s.substr(i)) ? s.size() : fail(boost::json::error::extra_data, i);
            i = skip_blanks(s, i);
            if (i == s.size())
                break;
            const char c = s[i];
            switch (state_) {
            case state::start:
                // Decided by the first byte, so that the error does not depend on the fragmentation.
                if (c != '{')
                    return fail(error::invalid_arguments, i);
                if (max_depth_ == 0)
                    return fail(boost::json::error::too_deep, i);
                state_ = state::first_key;
                break;
            case state::first_key:
            case state::next_key:
                if (c == '"') {
                    key_.clear();
                    string_.reset_string();
                    state_ = state::key;
                } else if (c == '}' && state_ == state::first_key) {
                    state_ = state::done;
                } else {
                    return fail(boost::json::error::syntax, i);
                }
                break;
            case state::colon:
                if (c != ':')
                    return fail(boost::json::error::syntax, i);
                state_ = state::value;
                break;
            case state::value:
                if (c == '"') {
                    string_.reset_string();
                    state_ = state::string;
                    if (current_ == field::body)
                        body_begin_ = consumed_ + i + 1;
                    break;
                }
                value_.reset();
                value_.handler() = value_events{&cb, key_, current_};
                state_ = state::other_value;
                continue;   // Boost.JSON reads it from its first byte
            case state::after_value:
                if (c == ',')
                    state_ = state::next_key;
                else if (c == '}')
                    state_ = state::done;
                else
                    return fail(boost::json::error::syntax, i);
                break;
            default: break;
            }
            ++i;
        }
        return s.size();
    }

    // A key, or a string value: the body's pieces to the pending piece, the path's and a key's
    // (capped: long keys match nothing) to their strings, any other string only validated.
    std::size_t read_string(std::string_view s, const file_argument_callbacks& cb)
    {
        error_code ec;
        // The body gathers in gather_ until the end of the write; a key or another string is
        // decoded there too (the body's were handed over when it closed), then taken or dropped.
        const std::size_t used = string_.read(s, current_ == field::path && state_ != state::key ? path_ : gather_, ec);
        if (state_ == state::key) {
            key_.append(std::string_view(gather_).substr(0, 17 - std::min<std::size_t>(key_.size(), 17)));
            gather_.clear();
        } else if (current_ == field::other) {
            gather_.clear();
        }
        if (ec)
            return fail(ec, used);
        if (!string_.closed())
            return used;
        if (state_ == state::key) {
            current_ = key_ == "path" ? field::path : key_ == body_key_ ? field::body : field::other;
            bool& seen = current_ == field::path ? path_key_seen_ : body_key_seen_;
            if (current_ != field::other && std::exchange(seen, true))
                return fail(error::invalid_arguments, used);
            state_ = state::colon;
            return used;
        }
        if (current_ == field::body)
            flush(cb);
        else if (current_ == field::path)
            cb.on_path(cb.context, path_);
        current_ = field::other;
        state_ = state::after_value;
        return used;
    }

    // A value that is not a string, through Boost.JSON, which stops once the value is whole.
    std::size_t read_value(std::string_view s, const file_argument_callbacks& cb);

    // The body decoded since the last hand-over, as one piece.
    void flush(const file_argument_callbacks& cb)
    {
        if (!gather_.empty())
            cb.on_body(cb.context, gather_);
        gather_.clear();
    }

    error_code failed_;
    std::size_t consumed_ = 0;
    std::string_view body_key_;
    std::size_t max_depth_;
    state state_ = state::start;
    field current_ = field::other;   // what the value being read is
    bool path_key_seen_ = false;
    bool body_key_seen_ = false;
    std::size_t body_begin_ = 0;     // the body string's inside in the text: [begin, end)
    std::size_t body_end_ = 0;
    json_string_decoder string_;
    std::string key_;                // the last top-level key, capped
    std::string path_;
    std::string gather_;             // body decoded since the last hand-over: under two slices
    // Boost 1.81 #814: basic_parser must not be the first member, or a caller buffer ending
    // exactly at this object's address is mistaken for the parser's sentinel.
    boost::json::basic_parser<value_events> value_;
};

} // namespace toolstream::detail

#if !defined(TOOLSTREAM_SEPARATE_COMPILATION)
#include <toolstream/detail/impl/file_arguments_decoder.hpp>
#endif
