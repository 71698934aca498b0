// client_tool_calls<Inner>: an event-sink adaptor between a pipeline reading a Chat Completions
// upstream and a Responses writer, which turns the model's calls of the functions the gateway
// offered for a client's tools back into calls of those tools: a free-form `custom` tool's
// `{"input": "…"}` arguments into its raw input text, a namespaced tool's flattened name into its
// own name and namespace.
#pragma once

#include "tool_table.hpp"

#include <toolstream/concepts.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/error.hpp>
#include <toolstream/segment_event.hpp>

#include <boost/json/object.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace gateway::responses {

namespace detail {

/// Reads the JSON text `{"input": "…"}` as it arrives, split at any byte, and appends the decoded
/// string to the caller's output: each byte is looked at once, and what is held between two
/// pieces is the string decoder's pending escape or UTF-8 character (and the first bytes of a
/// wrong key, to name it).
class input_member_reader {
public:
    /// Reads the next bytes of the text, appending what they decode of `input` to `out`.
    void feed(std::string_view json, std::string& out)
    {
        fed_ = fed_ || !json.empty();
        std::size_t i = 0;
        while (i < json.size() && state_ != state::failed) {
            if (state_ == state::key || state_ == state::value) {
                i += read_string(json.substr(i), out);
                continue;
            }
            const char c = json[i++];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                continue;
            switch (state_) {
            case state::open: expect(c == '{', state::key_start, "the arguments are not a JSON object"); break;
            case state::key_start:
                expect(c == '"', state::key, c == '}' ? "it has no member 'input'" : not_json);
                key_.clear();
                key_cut_ = false;
                break;
            case state::colon: expect(c == ':', state::value_start, not_json); break;
            case state::value_start: expect(c == '"', state::value, "'input' is not a string"); break;
            case state::close:
                expect(c == '}', state::after, c == ',' ? "it has members besides 'input'" : not_json);
                break;
            default: fail("there are bytes after the object"); break;   // state::after
            }
        }
    }

    /// After the last bytes: empty when the text was exactly one object whose one member is the
    /// string `input`, else what was wrong.
    std::string problem() const
    {
        switch (state_) {
        case state::after: return {};
        case state::failed: return why_;
        case state::open: return "the arguments are empty";
        default: return "the arguments end inside the object";
        }
    }

    /// True once any byte was read.
    bool fed() const noexcept { return fed_; }

private:
    enum class state : std::uint8_t { open, key_start, key, colon, value_start, value, close, after, failed };
    static constexpr std::string_view not_json = "the arguments are not valid JSON";
    static constexpr std::size_t key_kept = 64;   // bytes of a wrong key kept to name it

    // The inside of the key or of the value, up to its closing quote: the bytes used.
    std::size_t read_string(std::string_view json, std::string& out)
    {
        toolstream::error_code ec;
        const bool value = state_ == state::value;
        const std::size_t kept = key_.size();
        const std::size_t used = strings_.read(json, value ? out : key_, ec);
        if (!value && key_cut_) {
            key_.resize(kept);
        } else if (!value && key_.size() > key_kept) {   // whole characters: cut at one
            key_.resize(toolstream::detail::utf8_complete_prefix(std::string_view(key_).substr(0, key_kept)));
            key_cut_ = true;
        }
        if (ec) {
            fail(value ? "'input' is not a valid JSON string (" + ec.message() + ")" : std::string(not_json));
        } else if (strings_.closed()) {
            strings_.reset_string();
            if (value)
                state_ = state::close;
            else if (key_ == "input")
                state_ = state::colon;
            else
                fail("it has the member '" + key_ + (key_cut_ ? "...'" : "'") + " where 'input' was expected");
        }
        return used;
    }

    void expect(bool ok, state next, std::string_view why)
    {
        if (ok)
            state_ = next;
        else
            fail(why);
    }

    void fail(std::string_view why)
    {
        state_ = state::failed;
        why_.assign(why);
    }

    toolstream::detail::json_string_decoder strings_;
    std::string key_;
    std::string why_;
    state state_ = state::open;
    bool key_cut_ = false;   // key_ holds only the key's first bytes
    bool fed_ = false;
};

} // namespace detail

/// Sits in front of `Inner` (a Responses writer, or any event sink) and rewrites the events of
/// the calls whose chat function name is in `tools` (see client_tool_table):
/// - A `custom` tool's segment: START and END carry metadata `free_form: true` and `tool_name`
///   the client's name (and `namespace` when it has one). Its argument fragments, which the
///   model wrote as the JSON text `{"input": "…"}`, are decoded as they come: each fragment
///   forwarded carries the raw input text its bytes decode to (none when they decode to
///   nothing), which is what a writer's free-form path writes. Its CONTENT deltas likewise. END
///   carries `arguments_text` the whole decoded input and `arguments` an empty object (null
///   unless complete), as free-form calls do; when the JSON text was not exactly one object
///   whose one member is the string `input`, a complete END becomes `invalid_arguments`, its
///   error naming the tool and what was wrong. An END already not complete keeps its status.
/// - A namespaced `function` tool's segment: START and END carry `tool_name` the client's name
///   and `namespace`; fragments and content are passed on as they are.
/// - Every other event, of every kind `Inner` takes, is passed on unchanged (tool invocations
///   too: they keep the chat name and arguments).
/// A call is recognised by its START's `tool_name` (a native call's START always has it); several
/// may be open at once. Memory: about 200 bytes per open custom call (the readers of its
/// fragments and of its CONTENT, each holding at most an escape or a character and a wrong key's
/// first 64 bytes), plus one buffer the size of the current fragment's decoding. Linear time.
/// A complete END's decoded text is a view into its parsed arguments; only an END the adaptor
/// got no fragments for, or a broken one, is decoded again from its `arguments_text`, briefly.
/// `tools` must outlive the adaptor; null maps nothing.
template<class Inner>
class client_tool_calls {
public:
    client_tool_calls(Inner inner, const client_tool_table* tools)
        : inner_(static_cast<Inner&&>(inner)), tools_(tools)
    {
    }

    void operator()(const toolstream::segment_event& e)
        requires std::invocable<Inner&, const toolstream::segment_event&>
    {
        if (!toolstream::is_tool_segment(e.segment_kind) || tools_ == nullptr || tools_->empty()) {
            inner_(e);
            return;
        }
        switch (e.type) {
        case toolstream::segment_event_type::SEGMENT_START: start(e); return;
        case toolstream::segment_event_type::SEGMENT_CONTENT: content(e); return;
        case toolstream::segment_event_type::SEGMENT_END: end(e); return;
        }
    }

    void operator()(const toolstream::argument_fragment& f)
        requires std::invocable<Inner&, const toolstream::argument_fragment&>
    {
        call_state* call = find_call(f.segment_id);
        if (call == nullptr) {
            inner_(f);
            return;
        }
        if (const auto text = decoded(call->arguments, f.json); !text.empty()) {
            toolstream::argument_fragment out = f;
            out.json = text;
            inner_(out);
        }
        trim_scratch();
    }

    /// Every other kind of event `Inner` takes, unchanged.
    template<class E>
        requires std::invocable<Inner&, const E&>
    void operator()(const E& e)
    {
        inner_(e);
    }

    /// The end of the stream, for a writer that has one.
    void done()
        requires requires(Inner& i) { i.done(); }
    {
        inner_.done();
    }

    Inner& inner() noexcept { return inner_; }
    const Inner& inner() const noexcept { return inner_; }

    /// Custom calls open now (started, not ended).
    std::size_t open_calls() const noexcept { return calls_.size(); }

private:
    struct call_state {
        const client_tool* tool = nullptr;
        detail::input_member_reader arguments;   // the argument fragments
        detail::input_member_reader content;     // the CONTENT deltas
    };

    // The client tool a tool segment's name maps to, when there is anything to undo.
    const client_tool* find_tool(const toolstream::segment_event& e) const
    {
        const std::string_view name = toolstream::metadata_string(e, "tool_name");
        if (name.empty())
            return nullptr;
        const auto it = tools_->find(std::string(name));
        if (it == tools_->end())
            return nullptr;
        const client_tool& t = it->second;
        const bool same = t.kind == tool_kind::function && t.namespace_name.empty() && t.name == name;
        return same ? nullptr : &t;
    }

    call_state* find_call(std::string_view segment_id)
    {
        if (calls_.empty())
            return nullptr;
        const auto it = calls_.find(segment_id);
        return it == calls_.end() ? nullptr : &it->second;
    }

    void start(const toolstream::segment_event& e)
    {
        const client_tool* tool = find_tool(e);
        if (tool == nullptr) {
            inner_(e);
            return;
        }
        if (tool->kind == tool_kind::custom)
            calls_.insert_or_assign(std::string(e.segment_id), call_state{tool, {}, {}});
        forward_renamed(e, *tool);
    }

    void content(const toolstream::segment_event& e)
    {
        call_state* call = find_call(e.segment_id);
        if (call == nullptr) {
            inner_(e);
            return;
        }
        if (const auto text = decoded(call->content, e.delta); !text.empty()) {
            toolstream::segment_event out = e;
            out.delta = text;
            inner_(out);
        }
        trim_scratch();
    }

    void end(const toolstream::segment_event& e)
    {
        const auto it = calls_.find(e.segment_id);
        if (it == calls_.end()) {
            const client_tool* tool = find_tool(e);
            if (tool == nullptr)
                inner_(e);
            else
                forward_renamed(e, *tool);
            return;
        }
        call_state call = std::move(it->second);
        calls_.erase(it);

        toolstream::segment_event out = e;
        scratch_.clear();
        bool decoded = false;
        if (!call.arguments.fed()) {   // no fragments came (a sink that takes none): END's text
            call.arguments.feed(e.arguments_text, scratch_);
            decoded = true;
        }
        if (const std::string problem = call.arguments.problem();
            !problem.empty() && e.status == toolstream::segment_status::complete) {
            error_ = "custom tool '" + call.tool->name + "' expects {\"input\": string}: " + problem;
            out.status = toolstream::segment_status::invalid_arguments;
            out.error = error_;
        }
        const bool complete = out.status == toolstream::segment_status::complete;
        out.arguments = complete ? &no_arguments_ : nullptr;
        const boost::json::value* input = e.arguments != nullptr ? e.arguments->if_contains("input") : nullptr;
        if (decoded) {
            out.arguments_text = scratch_;
        } else if (complete && input != nullptr && input->is_string()) {
            out.arguments_text = input->get_string();   // the same decoding, already made
        } else {
            detail::input_member_reader again;   // a broken call: what its text decodes to
            again.feed(e.arguments_text, scratch_);
            out.arguments_text = scratch_;
        }
        forward_renamed(out, *call.tool);
        trim_scratch();
    }

    // `e` with metadata `tool_name` the client's name, `namespace`, and `free_form` for a custom
    // tool (whose metadata drops `arguments`, as a free-form segment's has none).
    void forward_renamed(const toolstream::segment_event& e, const client_tool& tool)
    {
        const bool custom = tool.kind == tool_kind::custom;
        metadata_.clear();
        if (e.metadata != nullptr)
            for (const auto& member : *e.metadata)
                if (!custom || member.key() != "arguments")
                    metadata_.emplace(member.key(), member.value());
        metadata_["tool_name"] = tool.name;
        if (!tool.namespace_name.empty())
            metadata_["namespace"] = tool.namespace_name;
        if (custom)
            metadata_["free_form"] = true;
        toolstream::segment_event out = e;
        out.metadata = &metadata_;
        inner_(out);
        if (metadata_.capacity() > 64)
            boost::json::object().swap(metadata_);
        else
            metadata_.clear();   // no copy of a call's arguments stays behind
    }

    // What `reader` decodes of the next `json` bytes of its call (held in scratch_).
    std::string_view decoded(detail::input_member_reader& reader, std::string_view json)
    {
        scratch_.clear();
        reader.feed(json, scratch_);
        return scratch_;
    }

    void trim_scratch()
    {
        if (scratch_.capacity() > (std::size_t{64} << 10))
            std::string().swap(scratch_);
    }

    Inner inner_;
    const client_tool_table* tools_;
    std::map<std::string, call_state, std::less<>> calls_;   // open custom calls by segment id
    std::string scratch_;                 // the decoding of the current fragment (or END)
    std::string error_;                   // the error of the END being forwarded
    boost::json::object metadata_;        // the metadata of the START or END being forwarded
    boost::json::object no_arguments_;      // a complete custom call's END arguments: none
};

template<class Inner>
client_tool_calls(Inner, const client_tool_table*) -> client_tool_calls<Inner>;

} // namespace gateway::responses
