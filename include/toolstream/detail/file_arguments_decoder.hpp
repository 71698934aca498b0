// Streams the decoded body of a native write_file/patch_file call out of its JSON arguments,
// whatever the fragmentation, with Boost.JSON's basic_parser doing all unescaping.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
/// each decoded piece of the body string is reported as it arrives (escapes such as `\uD83D\uDE00`
/// split across fragments included); the path is reported once, when its string closes.
/// Arguments that are not an object, a body that is not a string, and a second `path` or body
/// key (JSON readers disagree on which one counts) fail with error::invalid_arguments.
class file_arguments_decoder {
public:
    /// Boost 1.81 #876: a write suspended inside `\uXXXX` followed by 4 KiB or more overflows
    /// a stack buffer, so fragments are fed in slices no larger than this.
    static constexpr std::size_t max_write = 2048;

    explicit file_arguments_decoder(std::string_view body_key, std::size_t max_depth = 64)
        : parser_(make_options(max_depth), body_key)
    {
    }

    file_arguments_decoder(const file_arguments_decoder&) = delete;
    file_arguments_decoder& operator=(const file_arguments_decoder&) = delete;

    /// Feeds one fragment. After an error every later call returns the same error.
    error_code write(std::string_view fragment, const file_argument_callbacks& cb)
    {
        if (failed_)
            return failed_;
        // Decided by the first byte, so that the error does not depend on the fragmentation.
        if (!opened_) {
            const std::string_view rest = skip_blanks(fragment);
            if (!rest.empty()) {
                opened_ = true;
                if (rest.front() != '{')
                    return failed_ = error::invalid_arguments;
            }
        }
        parser_.handler().cb = &cb;
        while (!fragment.empty()) {
            if (parser_.done()) {
                // Only whitespace may follow the closing brace.
                if (!all_blank(fragment))
                    failed_ = boost::json::error::extra_data;
                break;
            }
            const std::size_t n = std::min(max_write, fragment.size());
            error_code ec;
            const std::size_t used = parser_.write_some(true, fragment.data(), n, ec);
            if (ec) {
                failed_ = ec;
                break;
            }
            fragment.remove_prefix(used);
            consumed_ += used;
        }
        parser_.handler().cb = nullptr;
        return failed_;
    }

    /// Bytes read without error. After an error, the error lies in the next max_write bytes;
    /// body text decoded from those bytes before it was dropped (Boost.JSON reports the pieces
    /// of a string only at the end of a write), so a caller wanting it replays them.
    std::size_t consumed() const noexcept { return consumed_; }

    /// True once the whole arguments object has been read.
    bool done() const noexcept { return parser_.done(); }
    error_code error() const noexcept { return failed_; }

private:
    // The basic_parser handler: tracks only the top-level key whose value is being read.
    struct events {
        static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
        static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
        static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
        static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

        enum class field : std::uint8_t { other, path, body };

        explicit events(std::string_view body) : body_key(body) {}

        std::string_view body_key;
        const file_argument_callbacks* cb = nullptr;
        std::size_t depth = 0;
        std::string key;    // the top-level key being read, capped: long keys match nothing
        std::string member; // the last top-level key of another field
        field current = field::other;
        std::string path;
        bool path_key_seen = false;
        bool body_key_seen = false;

        bool on_document_begin(error_code&) { return true; }
        bool on_document_end(error_code&) { return true; }
        bool on_object_begin(error_code& ec) { return open(ec); }
        bool on_object_end(std::size_t, error_code&) { return close(); }
        bool on_array_begin(error_code& ec) { return open(ec); }
        bool on_array_end(std::size_t, error_code&) { return close(); }
        bool on_key_part(std::string_view s, std::size_t, error_code&)
        {
            append_key(s);
            return true;
        }
        bool on_key(std::string_view s, std::size_t, error_code& ec)
        {
            append_key(s);
            if (depth == 1) {
                current = key == "path" ? field::path : key == body_key ? field::body : field::other;
                member.swap(key);
                key.clear();
                bool& seen = current == field::path ? path_key_seen : body_key_seen;
                if (current != field::other && std::exchange(seen, true)) {
                    ec = error::invalid_arguments;
                    return false;
                }
            }
            return true;
        }
        bool on_string_part(std::string_view s, std::size_t, error_code&)
        {
            string_piece(s);
            return true;
        }
        bool on_string(std::string_view s, std::size_t, error_code&)
        {
            string_piece(s);
            if (depth == 1 && current == field::path)
                cb->on_path(cb->context, path);
            if (depth == 1)
                current = field::other;
            return true;
        }
        bool on_number_part(std::string_view, error_code&) { return true; }
        bool on_int64(std::int64_t v, std::string_view, error_code& ec) { return scalar(ec, v); }
        bool on_uint64(std::uint64_t v, std::string_view, error_code& ec) { return scalar(ec, v); }
        bool on_double(double v, std::string_view, error_code& ec) { return scalar(ec, v); }
        bool on_bool(bool v, error_code& ec) { return scalar(ec, v); }
        bool on_null(error_code& ec) { return scalar(ec); }
        bool on_comment_part(std::string_view, error_code&) { return true; }
        bool on_comment(std::string_view, error_code&) { return true; }

        void append_key(std::string_view s)
        {
            if (depth == 1 && key.size() <= 16)
                key.append(s.substr(0, 17 - key.size()));
        }
        void string_piece(std::string_view s)
        {
            if (depth == 1 && current == field::body && !s.empty())
                cb->on_body(cb->context, s);
            else if (depth == 1 && current == field::path)
                path.append(s);
        }
        bool scalar(error_code& ec, const boost::json::value& v = nullptr)
        {
            if (!not_body(ec))
                return false;
            if (depth == 1 && current == field::other && !v.is_null() && cb->on_scalar != nullptr)
                cb->on_scalar(cb->context, member, v);
            if (depth == 1)
                current = field::other;
            return true;
        }
        // A body that is not a string would make an empty file of a complete call.
        bool not_body(error_code& ec)
        {
            if (depth == 1 && current == field::body) {
                ec = error::invalid_arguments;
                return false;
            }
            return true;
        }
        bool open(error_code& ec)
        {
            if (!not_body(ec))
                return false;
            ++depth;
            return true;
        }
        bool close()
        {
            --depth;
            if (depth == 1)
                current = field::other;
            return true;
        }
    };

    static boost::json::parse_options make_options(std::size_t max_depth)
    {
        boost::json::parse_options opt;
        opt.max_depth = max_depth;
        return opt;
    }

    // Boost 1.81 #814: basic_parser must not be the first member, or a caller buffer ending
    // exactly at this object's address is mistaken for the parser's sentinel.
    error_code failed_;
    std::size_t consumed_ = 0;
    bool opened_ = false;   // the first non-whitespace byte was seen
    boost::json::basic_parser<events> parser_;
};

} // namespace toolstream::detail
