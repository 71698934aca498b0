// Incremental reading of the structure of JSON tool calls written in model text: where each call
// begins and ends, its tool name, and where its arguments value begins and ends.
#pragma once

#include <toolstream/detail/json_extent.hpp>
#include <toolstream/detail/json_signature.hpp>
#include <toolstream/detail/json_string_skip.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Follows the structure of a JSON text that opened with a signature, byte by byte and string
/// aware (escaped quotes included), reporting where each call begins and ends, the first tool
/// name of each call (its `name` member, or the key reset() names) as soon as its string
/// closes, and where the call's arguments value (the
/// first `arguments`, `parameters` or `args` member of the call, its `tool` or its `function`
/// object) begins and ends. With `keyed` calls (`{"NAME": ARGUMENTS}`), a call object's first key
/// is its tool name and that key's value its arguments, whose end json_extent finds. Nesting is
/// only counted past a few levels, so the state is fixed-size whatever the input. A `stop`
/// outside a string ends the text where it stands (json_stop: the model closed its call before
/// its JSON).
class json_call_tracker {
public:
    enum class event { none, call_begin, name, arguments_begin, arguments_end, call_end, done, stopped };
    struct step {
        event what = event::none;
        std::size_t boundary = 0;  ///< bytes before it belong to what preceded the event
        std::size_t next = 0;      ///< where to go on reading
    };
    /// What a call's arguments value is, once its first byte was read.
    enum class arguments_kind : std::uint8_t { none, container, string, null, other };

    /// `name_key`: the member that names a call's tool, at most max_key bytes (longer: none).
    void reset(json_call_layout layout, bool keyed = false, std::string_view name_key = "name",
               json_stop stop = {}) noexcept
    {
        layout_ = layout;
        stop_ = stop;
        keyed_ = keyed;
        name_key_ = name_key;
        depth_ = 0;
        in_string_ = escape_ = false;
        capture_ = capture::none;
        done_pending_ = false;
        begin_call();
        name_.clear();
    }

    /// Reads `text[from, limit)` up to and including the next event. `none` means the range ran
    /// out, or ends in a prefix of the stop (from `boundary` on, unread); `done` means the
    /// top-level value closed (nothing after it belongs to the JSON); `stopped`, that the stop
    /// stands at `boundary`, where the JSON ends unclosed.
    /// A container's arguments span its brackets; a string's, the bytes between its quotes.
    step advance(std::string_view text, std::size_t from, std::size_t limit)
    {
        if (done_pending_) {
            done_pending_ = false;
            return {event::done, from, from};
        }
        if (in_arguments_)
            return arguments_bytes(text, from, limit);   // an event returns as soon as they begin
        // Inside a string nobody captures, only `"` and `\` matter: jump to the next of either,
        // so a call's long string (a file's content) costs no step per byte.
        string_skip skip(text, limit);
        for (std::size_t i = from; i < limit; ++i) {
            if (in_string_ && !escape_ && capture_ == capture::none) {
                i = skip.next(i);
                if (i == limit)
                    break;
            }
            const char c = text[i];
            if (in_string_) {
                if (escape_) {
                    escape_ = false;
                    keep(c);
                    continue;
                }
                if (c == '\\') {
                    escape_ = true;
                    has_escape_ = true;
                    keep(c);
                } else if (c == '"') {
                    in_string_ = false;
                    if (end_string())
                        return {event::name, i + 1, i + 1};
                } else {
                    keep(c);
                }
                continue;
            }
            if (c == stop_.first()) {
                if (const auto v = stop_.at(text.substr(0, limit), i); v != json_stop::verdict::none)
                    return {v == json_stop::verdict::stop ? event::stopped : event::none, i, i};
            }
            if (arguments_pending_ && !is_blank(c)) {
                arguments_pending_ = false;
                arguments_ = c == '{' || c == '[' ? arguments_kind::container
                    : c == '"'                    ? arguments_kind::string
                    : c == 'n'                    ? arguments_kind::null
                                                  : arguments_kind::other;
                if (c == '"') {
                    arguments_extent_.reset_inside_string();
                    in_arguments_ = true;
                    return {event::arguments_begin, i + 1, i + 1};
                }
                if (arguments_ == arguments_kind::container) {
                    arguments_extent_.reset();
                    arguments_extent_.scan(text.substr(i, 1));
                    in_arguments_ = true;
                    return {event::arguments_begin, i, i + 1};
                }
            }
            switch (c) {
            case '"': begin_string(); break;
            case '{':
            case '[':
                if (open(c == '{'))
                    return {event::call_begin, i, i + 1};
                break;
            case '}':
            case ']': {
                const role closed = close();
                if (depth_ == 0) {
                    if (closed == role::call) {
                        done_pending_ = true;
                        return {event::call_end, i + 1, i + 1};
                    }
                    return {event::done, i + 1, i + 1};
                }
                if (closed == role::call)
                    return {event::call_end, i + 1, i + 1};
                break;
            }
            case ':':
                if (auto* l = top(); l != nullptr && l->is_object) {
                    l->expect_key = false;
                    arguments_pending_ = l->key == key_kind::arguments && holds_arguments(l->what)
                        && arguments_ == arguments_kind::none;
                }
                break;
            case ',':
                if (auto* l = top(); l != nullptr && l->is_object) {
                    l->expect_key = true;
                    l->key = key_kind::other;
                }
                break;
            default: break;
            }
        }
        return {event::none, limit, limit};
    }

    /// The tool name reported by the last `name` event.
    std::string_view name() const noexcept { return name_; }

    /// The current call's arguments value so far (`none` until its first byte).
    arguments_kind arguments() const noexcept { return arguments_; }

private:
    enum class role : std::uint8_t { none, wrapper, call_list, call, call_tool, call_function };
    enum class key_kind : std::uint8_t { other, name, tool, function, arguments };
    enum class capture : std::uint8_t { none, key, name };

    struct level {
        role what = role::none;
        bool is_object = false;
        bool expect_key = false;
        key_kind key = key_kind::other;
        std::uint32_t keys = 0;
    };

    // The roles that matter sit at most five levels deep (wrapper, list, call, tool, function);
    // the arguments value is json_extent's.
    static constexpr std::size_t tracked_levels = 5;
    static constexpr std::size_t max_name = 1024;
    static constexpr std::size_t max_key = 10;

    level* top() noexcept { return depth_ >= 1 && depth_ <= tracked_levels ? &levels_[depth_ - 1] : nullptr; }

    static bool holds_arguments(role r) noexcept
    {
        return r == role::call || r == role::call_tool || r == role::call_function;
    }

    void begin_call() noexcept
    {
        name_found_ = false;
        arguments_pending_ = in_arguments_ = false;
        arguments_ = arguments_kind::none;
    }

    // The call's arguments value from `text[i]` on: to its end (arguments_end, whose boundary
    // leaves a string's closing quote out), the stop, a prefix of the stop (left unread) or the
    // limit.
    step arguments_bytes(std::string_view text, std::size_t i, std::size_t limit) noexcept
    {
        const std::size_t end = i + arguments_extent_.scan(text.substr(i, limit - i), stop_);
        if (arguments_extent_.closed()) {
            in_arguments_ = false;
            return {event::arguments_end, arguments_ == arguments_kind::string ? end - 1 : end, end};
        }
        return {arguments_extent_.stopped() ? event::stopped : event::none, end, end};
    }

    // Returns true when the new container is a call.
    bool open(bool is_object)
    {
        role r = role::none;
        if (depth_ == 0) {
            r = layout_ == json_call_layout::single ? role::call
                : layout_ == json_call_layout::list ? role::wrapper
                                                    : role::call_list;
        } else if (const level* parent = top()) {
            switch (parent->what) {
            case role::call_list: r = is_object ? role::call : role::none; break;
            case role::wrapper:
                if (parent->keys == 1 && !parent->expect_key)
                    r = is_object ? role::call : role::call_list;
                break;
            case role::call:
                if (is_object && parent->key == key_kind::tool)
                    r = role::call_tool;
                else if (is_object && parent->key == key_kind::function)
                    r = role::call_function;
                break;
            case role::call_tool:
                if (is_object && parent->key == key_kind::function)
                    r = role::call_function;
                break;
            default: break;
            }
        }
        ++depth_;
        if (level* l = top())
            *l = {r, is_object, is_object, key_kind::other, 0};
        if (r == role::call) {
            begin_call();
            return true;
        }
        return false;
    }

    // The role of the container that closed.
    role close() noexcept
    {
        const level* l = top();
        const role r = l != nullptr ? l->what : role::none;
        --depth_;
        return r;
    }

    static bool is_name_path(role r, key_kind k) noexcept
    {
        switch (r) {
        case role::call: return k == key_kind::name || k == key_kind::tool || k == key_kind::function;
        case role::call_tool: return k == key_kind::name || k == key_kind::function;
        case role::call_function: return k == key_kind::name;
        default: return false;
        }
    }

    void begin_string()
    {
        in_string_ = true;
        has_escape_ = false;
        capture_ = capture::none;
        level* l = top();
        if (l == nullptr || !l->is_object || l->what == role::none)
            return;
        if (l->expect_key) {
            capture_ = keyed_ && l->what == role::call && l->keys == 0 ? capture::name : capture::key;
            raw_.clear();
        } else if (!name_found_ && is_name_path(l->what, l->key)) {
            capture_ = capture::name;
            raw_.clear();
        }
    }

    void keep(char c)
    {
        if (capture_ == capture::none)
            return;
        if (raw_.size() == (capture_ == capture::key ? max_key : max_name))
            capture_ = capture::none;   // too long for a key we know or a tool name
        else
            raw_ += c;
    }

    // Returns true when the string was the call's tool name.
    bool end_string()
    {
        level* l = top();
        if (l != nullptr && l->is_object && l->expect_key) {
            l->expect_key = false;
            ++l->keys;
            l->key = keyed_ && l->what == role::call ? (l->keys == 1 ? key_kind::arguments : key_kind::other)
                : capture_ != capture::key || has_escape_ ? key_kind::other
                : raw_ == name_key_                         ? key_kind::name
                : raw_ == "tool"                            ? key_kind::tool
                : raw_ == "function"                        ? key_kind::function
                : raw_ == "arguments" || raw_ == "parameters" || raw_ == "args" ? key_kind::arguments
                                                            : key_kind::other;
        }
        if (capture_ != capture::name)
            return false;
        capture_ = capture::none;
        if (!has_escape_) {
            name_.assign(raw_);
        } else {
            raw_.insert(raw_.begin(), '"');
            raw_ += '"';
            boost::system::error_code ec;
            auto v = boost::json::parse(raw_, ec);
            if (ec || !v.is_string())
                return false;
            name_.assign(v.get_string());
        }
        if (name_.empty())
            return false;
        name_found_ = true;
        return true;
    }

    std::array<level, tracked_levels> levels_{};
    std::size_t depth_ = 0;
    json_call_layout layout_ = json_call_layout::single;
    json_stop stop_;
    bool keyed_ = false;   // a call object's first key is its tool name
    std::string_view name_key_ = "name";
    bool in_string_ = false;
    bool escape_ = false;
    bool has_escape_ = false;
    capture capture_ = capture::none;
    bool done_pending_ = false;
    bool name_found_ = false;
    bool arguments_pending_ = false;   // the next value is the call's arguments
    bool in_arguments_ = false;        // arguments_extent_ reads the bytes
    json_extent arguments_extent_;
    arguments_kind arguments_ = arguments_kind::none;
    std::string raw_;    // the key or name string being read
    std::string name_;
};

} // namespace toolstream::detail
