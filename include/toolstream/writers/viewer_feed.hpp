// The viewer feed: one JSON object per event, made for a page that shows a stream live
// (docs/viewer.md has the format). Everything a UI shows comes from toolstream's events: it
// never has to read provider JSON, tool markup or argument text itself.
//
//   {"type":"start","id":"call_1","kind":"tool_call","choice":0,"name":"get_weather","metadata":{…}}
//   {"type":"args","id":"call_1","json":"{\"city\":\"Zü","preview":{"city":"Zü"}}
//   {"type":"end","id":"call_1","kind":"tool_call","name":"get_weather","status":"complete","bytes":0,"arguments":{…}}
//   {"type":"done"}                      (done(): the stream is over; with "error" after an error line)
//
// A sink: tee it beside any other sink; a pipeline without it does none of this work.
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/partial_json.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_syntax.hpp>
#include <toolstream/writers/byte_output.hpp>
#include <toolstream/writers/detail/utf8_repair.hpp>

#include <boost/describe/enum_to_string.hpp>

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

struct viewer_feed_options {
    /// When not empty, every line carries `"stream":"…"` right after its type (a gateway tells
    /// its requests apart with it).
    std::string stream;
    /// A call's argument preview is sent with every fragment while its JSON is smaller than
    /// this; beyond, once the fragments since the last one add up to half its size, so that a
    /// large preview costs amortised O(1) per argument byte, never a copy per fragment.
    std::size_t preview_every_fragment_below = 256;
};

/// Turns every event of a pipeline or handler into a line of the viewer feed, handed to
/// `on_line` (a `std::string_view` valid during the call, no newline), in stream order:
///
/// - `response` (response_started), `start`, `delta` (the content of text, reasoning and file
///   and shell segments: the decoded file body, never JSON), `args` (a generic `tool_call`'s
///   argument fragment, and its `partial_json` preview; such a call has no `delta`), `end` (status, error, final arguments),
///   `finish` (choice_finished), `usage`, `error` (provider_failed); and `done` when the
///   program calls done(): the stream is over.
/// - A UTF-8 character split between two deltas or fragments waits for the next; bytes that are
///   not UTF-8 at all become U+FFFD. Every line is valid UTF-8 JSON.
template<byte_output F>
class viewer_feed_sink {
public:
    explicit viewer_feed_sink(F on_line, viewer_feed_options options = {})
        : on_line_(std::move(on_line)), options_(std::move(options))
    {
    }

    void operator()(const response_started& r)
    {
        begin("response");
        field_string("id", r.id);
        field_string("model", r.model);
        end_line();
    }

    void operator()(const segment_event& e)
    {
        switch (e.type) {
        case segment_event_type::SEGMENT_START: start(e); break;
        case segment_event_type::SEGMENT_CONTENT: content(e); break;
        case segment_event_type::SEGMENT_END: finish_segment(e); break;
        }
    }

    void operator()(const argument_fragment& f)
    {
        const auto it = find(f.segment_id);
        if (it == open_.end() || it->kind != segment_type::tool_call || f.json.empty())
            return;
        auto& s = *it;
        s.preview->feed(f.json);
        s.since_preview += f.json.size();
        const bool send_preview = !s.preview->failed()
            && (s.preview_size < options_.preview_every_fragment_below || 2 * s.since_preview >= s.preview_size);
        whole_.clear();
        s.carry.feed(f.json, [&](std::string_view piece) { whole_.append(piece); });
        if (whole_.empty() && !send_preview)
            return;
        begin("args");
        field_string("id", s.id);
        field_string("json", whole_);
        if (send_preview) {
            line_ += R"(,"preview":)";
            const std::size_t at = line_.size();
            detail::append_compact_json(line_, s.preview->preview());
            s.preview_size = line_.size() - at;
            s.since_preview = 0;
        }
        end_line();
    }

    void operator()(const choice_finished& c)
    {
        begin("finish");
        field_number("choice", c.choice);
        field_string("reason", c.reason);
        field_string("kind", boost::describe::enum_to_string(c.kind, "stop"));
        end_line();
    }

    void operator()(const usage_reported& u)
    {
        begin("usage");
        field_number("input_tokens", u.usage.input_tokens);
        field_number("output_tokens", u.usage.output_tokens);
        end_line();
    }

    void operator()(const provider_failed& p)
    {
        if (!failed_) {
            failed_ = true;
            first_error_.assign(p.message);
        }
        begin("error");
        field_string("message", p.message);
        end_line();
    }

    /// Ends the stream: one `done` line (later calls do nothing), with `error`, the first `error`
    /// line's message, when the stream had one. The feed's end of a stream: call it once nothing
    /// more will come (after a pipeline's finish(), a handler's finalize(), and any error line).
    void done()
    {
        if (std::exchange(done_, true))
            return;
        begin("done");
        if (failed_)
            field_string("error", first_error_);
        end_line();
    }

    F& callback() noexcept { return on_line_; }

private:
    struct open_segment {
        std::string id;
        segment_type kind = segment_type::text;
        std::string name;
        std::size_t bytes = 0;
        detail::utf8_carry carry;   // a delta's or fragment's unfinished UTF-8 character
        std::unique_ptr<partial_json> preview;   // generic tool calls only (not movable)
        std::size_t preview_size = 0;
        std::size_t since_preview = 0;
    };

    typename std::vector<open_segment>::iterator find(std::string_view id)
    {
        // Few segments are open at once (parallel calls): a linear search beats hashing.
        return std::find_if(open_.begin(), open_.end(), [id](const open_segment& s) { return s.id == id; });
    }

    void start(const segment_event& e)
    {
        open_segment s;
        s.id = std::string(e.segment_id);
        s.kind = e.segment_kind;
        if (is_tool_segment(e.segment_kind))
            s.name = tool_name_of(e);
        if (e.segment_kind == segment_type::tool_call)
            s.preview = std::make_unique<partial_json>();
        begin("start");
        field_string("id", s.id);
        field_string("kind", boost::describe::enum_to_string(s.kind, "text"));
        field_number("choice", e.choice);
        if (is_tool_segment(s.kind))
            field_string("name", s.name);
        if (e.metadata != nullptr && !e.metadata->empty())
            field_object("metadata", *e.metadata, {});
        end_line();
        open_.push_back(std::move(s));
    }

    void content(const segment_event& e)
    {
        const auto it = find(e.segment_id);
        // A generic call's content is its argument text, which its `args` lines carry.
        if (it == open_.end() || e.delta.empty() || it->kind == segment_type::tool_call)
            return;
        it->bytes += e.delta.size();
        whole_.clear();
        it->carry.feed(e.delta, [&](std::string_view piece) { whole_.append(piece); });
        if (!whole_.empty())
            delta_line(*it, whole_);
    }

    void delta_line(const open_segment& s, std::string_view text)
    {
        begin("delta");
        field_string("id", s.id);
        field_string("kind", boost::describe::enum_to_string(s.kind, "text"));
        field_string("text", text);
        end_line();
    }

    void finish_segment(const segment_event& e)
    {
        const auto it = find(e.segment_id);
        if (it == open_.end())
            return;
        auto& s = *it;
        if (s.kind == segment_type::tool_call) {
            // A call that ends broken gets the preview of all its text, however far behind the
            // last one was: what arrived is what a page shows of it.
            const bool preview = e.status != segment_status::complete && s.since_preview > 0 && !s.preview->failed();
            whole_.clear();
            s.carry.flush([&](std::string_view piece) { whole_.append(piece); });
            if (!whole_.empty() || preview) {
                begin("args");
                field_string("id", s.id);
                field_string("json", whole_);
                if (preview) {
                    line_ += R"(,"preview":)";
                    detail::append_compact_json(line_, s.preview->preview());
                }
                end_line();
            }
        } else
            s.carry.flush([&](std::string_view piece) { delta_line(s, piece); });
        if (is_tool_segment(s.kind) && s.name.empty())
            s.name = tool_name_of(e);
        begin("end");
        field_string("id", s.id);
        field_string("kind", boost::describe::enum_to_string(s.kind, "text"));
        if (is_tool_segment(s.kind))
            field_string("name", s.name);
        field_string("status", boost::describe::enum_to_string(e.status, "complete"));
        if (e.status != segment_status::complete)
            field_string("error", e.error);
        field_number("bytes", s.bytes);
        if (e.arguments != nullptr) {
            // A file's body is what its deltas carried: not repeated here.
            const auto* syntax = find_tool_syntax(s.kind);
            const bool is_file = s.kind == segment_type::write_file || s.kind == segment_type::patch_file;
            field_object("arguments", *e.arguments, is_file && syntax != nullptr ? syntax->content_argument : "");
        }
        end_line();
        open_.erase(it);
    }

    void begin(std::string_view type)
    {
        line_.assign(R"({"type":")");
        line_ += type;
        line_ += '"';
        if (!options_.stream.empty())
            field_string("stream", options_.stream);
    }

    void field_string(std::string_view key, std::string_view value)
    {
        key_of(key);
        detail::append_json_string(line_, value);
    }

    void field_number(std::string_view key, std::uint64_t value)
    {
        key_of(key);
        char digits[24];
        line_.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    }

    // `skip` names a member left out (empty: none).
    void field_object(std::string_view key, const boost::json::object& o, std::string_view skip)
    {
        key_of(key);
        line_ += '{';
        bool first = true;
        for (const auto& member : o) {
            if (!skip.empty() && member.key() == skip)
                continue;
            if (!first)
                line_ += ',';
            first = false;
            detail::append_json_string(line_, member.key());
            line_ += ':';
            detail::append_compact_json(line_, member.value());
        }
        line_ += '}';
    }

    void key_of(std::string_view key)
    {
        line_ += ",\"";
        line_ += key;
        line_ += "\":";
    }

    void end_line()
    {
        line_ += '}';
        detail::repair_utf8(line_);
        on_line_(std::string_view(line_));
    }

    F on_line_;
    viewer_feed_options options_;
    std::vector<open_segment> open_;
    std::string whole_;   // a delta or fragment less its unfinished character, with the held one
    std::string line_;   // reused: no allocation per event once it has grown
    std::string first_error_;   // the first provider_failed's message, for `done`
    bool failed_ = false;
    bool done_ = false;
};

static_assert(event_sink<viewer_feed_sink<detail::byte_output_archetype>>);

} // namespace toolstream
