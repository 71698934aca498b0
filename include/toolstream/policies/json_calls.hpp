// The json_calls policy (CLI name "json"): tool calls written as JSON objects in the model's text.
#pragma once

#include <toolstream/policies/detail/json_call_extract.hpp>
#include <toolstream/policies/detail/json_call_tracker.hpp>
#include <toolstream/policies/detail/marker_scanner.hpp>
#include <toolstream/error.hpp>
#include <toolstream/segment_writer.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream {

struct json_calls_options {
    /// The most bytes the policy holds back: a `{`/`[` whose signature is still being read (past
    /// it, the `{` is text), or a call whose tool name is not known yet (past it, the call STARTs
    /// without `tool_name`, which its END then carries). At least 16.
    std::size_t max_held = 4096;
};

/// Finds JSON tool calls in content. A `{` or `[` opens one when the JSON starts with a signature,
/// compared with whitespace between tokens ignored: `{"tool":`, `{"function":`, `{"name":`
/// (the object is one call), `{"tool_calls":`, `{"tools":` (each object of that array is a call),
/// `[{"tool":`, `[{"function":`, `[{"name":` (each object of the array is a call). Any other `{`
/// or `[` stays text, byte for byte. The JSON ends where its brackets balance, strings (with
/// escapes) skipped.
///
/// Each call is one `tool_call` segment whose content is the call object's raw JSON; the bytes
/// around calls (`{"tool_calls":[`, commas, `]}`) are consumed markup. START waits until the
/// call's tool name has been read (its metadata is then `{tool_name}`), the call ends, or
/// `max_held` bytes are held. At the end of the call its JSON is parsed (detail::extract_json_call)
/// and END carries `{tool_name, arguments}`; invalid JSON or arguments END `invalid_arguments`
/// (with `arguments: {}`); a stream ending inside a call ENDs it `incomplete`, its content flushed.
/// A half-read signature at the end of the stream is text.
class json_calls {
public:
    static constexpr std::string_view name = "json";   ///< As the registry and the CLI spell it.

    json_calls() = default;
    explicit json_calls(json_calls_options options) : options_(options)
    {
        options_.max_held = std::max(options_.max_held, min_held);
    }

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        if (buf_.empty()) {
            buf_.append(text.substr(process(text, out)));
        } else {
            buf_.append(text);
            buf_.consume(process(buf_.view(), out));
        }
    }


    template<class Writer>
    void finalize(Writer& out)
    {
        if (!in_json_) {
            out.text(buf_.view());
        } else if (in_call_) {
            if (!started_)
                start_call(out, {});
            out.end(ref_, segment_status::incomplete, make_error_code(error::incomplete_call).message());
        }
        clear_state();
    }

    void reset()
    {
        clear_state();
    }

    /// Bytes received but not yet emitted; never more than `max_held` after a feed.
    std::size_t held_bytes() const noexcept { return buf_.size() + pending_.size(); }

private:
    static constexpr std::size_t min_held = 16;
    static constexpr std::array<std::string_view, 2> triggers{"{", "["};

    void clear_state() noexcept
    {
        buf_.clear();
        pending_.clear();
        candidate_ = in_json_ = in_call_ = started_ = false;
    }

    // Emits what `v` allows and returns how many bytes of it are used; the rest is held.
    template<class Writer>
    std::size_t process(std::string_view v, Writer& out)
    {
        std::size_t pos = 0;
        while (pos < v.size()) {
            if (in_json_) {
                pos = process_json(v, pos, out);
                continue;
            }
            if (!candidate_) {
                const auto m = detail::find_marker(v.substr(pos), triggers);
                out.text(v.substr(pos, m.position));
                pos += m.position;
                if (pos == v.size())
                    break;
                candidate_ = true;
                signature_.reset();
            }
            const auto verdict = signature_.advance(v.substr(pos, options_.max_held));
            if (verdict == detail::json_signature_matcher::verdict::more && signature_.scanned() < options_.max_held)
                return pos;   // the signature may still complete: hold from its first byte
            candidate_ = false;
            if (verdict == detail::json_signature_matcher::verdict::more)
                out.report(error::marker_too_long);   // released as text, unread past max_held
            if (verdict == detail::json_signature_matcher::verdict::match) {
                in_json_ = true;
                tracker_.reset(signature_.layout());
            } else {
                out.text(v.substr(pos, 1));   // later bytes may open a call themselves
                ++pos;
            }
        }
        return v.size();
    }

    // Reads the JSON from `pos` until `v` runs out or the JSON ends; returns where it stopped.
    template<class Writer>
    std::size_t process_json(std::string_view v, std::size_t pos, Writer& out)
    {
        using event = detail::json_call_tracker::event;
        std::size_t mark = pos;   // bytes before it are emitted (or pending)
        auto flush = [&](std::size_t upto) {
            const auto bytes = v.substr(mark, upto - mark);
            mark = upto;
            if (!in_call_)
                out.markup(bytes);
            else if (started_)
                out.content(ref_, bytes);
            else
                pending_.append(bytes);
        };
        for (;;) {
            std::size_t limit = v.size();
            if (in_call_ && !started_) {
                flush(pos);
                if (pending_.size() >= options_.max_held)
                    start_call(out, {});
                else
                    limit = std::min(limit, pos + (options_.max_held - pending_.size()));
            }
            const auto s = tracker_.advance(v, pos, limit);
            switch (s.what) {
            case event::none:
                flush(s.position);
                pos = s.position;
                if (pos == v.size())
                    return pos;
                break;
            case event::call_begin:
                flush(s.position);
                in_call_ = true;
                started_ = false;
                pending_.clear();
                pos = s.position + 1;
                break;
            case event::name:
                pos = s.position;
                if (in_call_ && !started_) {
                    flush(pos);
                    start_call(out, tracker_.name());
                }
                break;
            case event::call_end:
                pos = s.position;
                flush(pos);
                end_call(out);
                break;
            case event::done:
                flush(s.position);
                in_json_ = false;
                return s.position;
            }
        }
    }

    template<class Writer>
    void start_call(Writer& out, std::string_view name)
    {
        boost::json::object metadata;
        if (!name.empty())
            metadata["tool_name"] = name;
        ref_ = out.start(segment_type::tool_call, std::move(metadata));
        started_ = true;
        out.content(ref_, pending_);
        pending_.clear();
    }

    template<class Writer>
    void end_call(Writer& out)
    {
        auto call = detail::extract_json_call(started_ ? out.content_of(ref_) : std::string_view(pending_));
        if (!started_)
            start_call(out, call.name);
        if (call.error.empty() && call.name.empty())
            call.error = make_error_code(error::missing_tool_name).message();
        auto& metadata = out.metadata(ref_);
        if (!call.name.empty())
            metadata["tool_name"] = call.name;
        metadata["arguments"] = std::move(call.arguments);
        out.end(ref_, call.error.empty() ? segment_status::complete : segment_status::invalid_arguments, call.error);
        in_call_ = started_ = false;
    }

    json_calls_options options_;
    detail::scan_buffer buf_;          // a signature candidate being read (text mode only)
    std::string pending_;              // a call's JSON read before its START
    detail::json_signature_matcher signature_;
    detail::json_call_tracker tracker_;
    segment_ref ref_{};
    bool candidate_ = false;   // buf_ starts with a `{`/`[` whose signature is being read
    bool in_json_ = false;     // inside JSON that opened with a signature
    bool in_call_ = false;     // inside one call object of it
    bool started_ = false;     // that call's START was emitted
};

} // namespace toolstream
