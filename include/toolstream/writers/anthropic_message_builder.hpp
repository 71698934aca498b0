// anthropic_message_builder: the same message as anthropic_sse_writer streams, built as one
// non-streaming Anthropic Messages `message` object (for a gateway answering without `stream`).
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/detail/valid_json.hpp>
#include <toolstream/partial_json.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/anthropic_messages.hpp>
#include <toolstream/writers/detail/anthropic_blocks.hpp>
#include <toolstream/writers/detail/anthropic_message.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// An event sink that collects a response and builds its Anthropic `message`:
/// `{id, type:"message", role:"assistant", model, content:[…], stop_reason, stop_sequence:null,
/// usage:{input_tokens, output_tokens}}`. The blocks, their order, the stop reason and the
/// honest terminal states are anthropic_sse_writer's (one state machine decides both): a
/// stream read back from the writer assembles to this object. A tool_use's `input` is its
/// arguments parsed; a call cut by the length limit (left unstopped) gets the object its
/// partial arguments show so far, as the SDKs' partial parse does. Usage is 0 when the stream
/// reported none.
///
/// When the stream failed (a provider error, an error finish, a broken tool call: see
/// anthropic_sse_writer), `failed()` is true and `error_body()` is the Anthropic error object to
/// answer with instead. A broken call is known for certain only at the end: call `done()` after
/// the pipeline's finish (message() calls it) before asking.
class anthropic_message_builder {
public:
    explicit anthropic_message_builder(anthropic_options options = {})
        : options_(std::move(options)), blocks_(options_.max_held_bytes)
    {
    }

    void operator()(const response_started& r)
    {
        detail::start_message_identity(identity_, options_.id, options_.model, r.id, r.model);
        blocks_.start(*this);
    }
    void operator()(const segment_event& e) { blocks_.segment(e, *this); }
    void operator()(const argument_fragment& f) { blocks_.fragment(f, *this); }
    void operator()(const choice_finished& c) { blocks_.finish(c, *this); }
    void operator()(const usage_reported& u) { usage_ = u.usage; }
    void operator()(const provider_failed& p) { blocks_.fail(p.message, *this); }

    /// The end of the stream: decides how the message ends (see anthropic_sse_writer::done()).
    void done() { blocks_.done(*this); }

    bool failed() const noexcept { return error_.has_value(); }
    std::string_view error_message() const noexcept { return error_ ? std::string_view(*error_) : std::string_view{}; }

    /// `{"type":"error","error":{"type":"api_error","message":…}}`.
    boost::json::object error_body() const
    {
        return {{"type", "error"},
                {"error", {{"type", "api_error"}, {"message", detail::valid_json_string(error_message())}}}};
    }

    /// The `message` of what was collected (calls done() first). After a failure it holds what
    /// came before the error, with `stop_reason` null: answer with error_body() instead.
    boost::json::object message()
    {
        done();
        boost::json::array content;
        for (const auto& b : blocks_built_) {
            switch (b.type) {
            case detail::anthropic_block_type::text: content.push_back({{"type", "text"}, {"text", b.text}}); break;
            case detail::anthropic_block_type::thinking:
                content.push_back({{"type", "thinking"},
                                   {"thinking", b.text},
                                   {"signature", detail::anthropic_thinking_signature}});
                break;
            case detail::anthropic_block_type::tool_use:
                content.push_back({{"type", "tool_use"}, {"id", b.id}, {"name", b.name}, {"input", input_of(b)}});
                break;
            }
        }
        boost::json::object out{{"id", identity_.id},
                                {"type", "message"},
                                {"role", "assistant"},
                                {"model", identity_.model},
                                {"content", std::move(content)},
                                {"stop_reason", nullptr},
                                {"stop_sequence", nullptr},
                                {"usage",
                                 {{"input_tokens", usage_ ? usage_->input_tokens : 0},
                                  {"output_tokens", usage_ ? usage_->output_tokens : 0}}}};
        if (!stop_reason_.empty())
            out["stop_reason"] = stop_reason_;
        detail::make_valid_utf8(out);   // ids and names come from the stream: any bytes
        return out;
    }

    const std::string& id() const noexcept { return identity_.id; }
    const std::string& model() const noexcept { return identity_.model; }

private:
    friend class detail::anthropic_block_sequencer;

    struct block {
        detail::anthropic_block_type type = detail::anthropic_block_type::text;
        std::string id;
        std::string name;
        std::string text;   // text, thinking, or the tool's JSON input text (all valid UTF-8)
        bool stopped = false;
    };

    // The sequencer's target (detail/anthropic_blocks.hpp).
    void message_start() { detail::start_message_identity(identity_, options_.id, options_.model, {}, {}); }
    void block_start(detail::anthropic_block_type type, std::uint32_t, std::string_view id, std::string_view name)
    {
        blocks_built_.push_back({type, std::string(id), std::string(name), {}, false});
    }
    void block_delta(detail::anthropic_block_type, std::uint32_t, std::string_view piece)
    {
        detail::append_valid_utf8(blocks_built_.back().text, piece);   // as the writer's escape does
    }
    void block_stop(detail::anthropic_block_type, std::uint32_t) { blocks_built_.back().stopped = true; }
    void message_end(std::string_view stop_reason) { stop_reason_ = stop_reason; }
    void error_event(std::string_view message) { error_ = std::string(message); }

    // A call's arguments as every output reads them (parse_arguments_raw). A call cut inside its
    // JSON, which they read as null, gets what the SDKs' partial parse shows: `input` is an object.
    static boost::json::object input_of(const block& b)
    {
        auto read = parse_arguments_raw(b.text);
        if (read.is_object())
            return std::move(read.get_object());
        if (b.stopped)
            return {};
        partial_json preview;
        preview.feed(b.text);
        const auto& v = preview.preview();
        return v.is_object() ? v.get_object() : boost::json::object{};
    }

    anthropic_options options_;
    detail::response_identity identity_;
    std::optional<token_usage> usage_;
    std::vector<block> blocks_built_;
    std::string stop_reason_;
    std::optional<std::string> error_;
    detail::anthropic_block_sequencer blocks_;
};

static_assert(event_sink<anthropic_message_builder>);

} // namespace toolstream
