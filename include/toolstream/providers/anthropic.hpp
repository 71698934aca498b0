// Anthropic Messages streaming (`event: <type>` + JSON data) converted to chunk_responses.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/chunk_builder.hpp>
#include <toolstream/providers/detail/event_fields.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/event_template.hpp>
#include <toolstream/providers/detail/finish_words.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/providers/detail/payload_parser.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// The provider tag: Anthropic Messages streams.
struct anthropic {};

/// Converts Anthropic Messages events. Everything lands in choice 0.
///
/// - `text_delta` is content, `thinking_delta` is reasoning (signatures and redacted thinking
///   are not text). `tool_use` blocks become tool calls keyed by block index; the provider's own
///   `server_tool_use` blocks are not client calls and are not emitted. `partial_json` is passed
///   on raw; `content_block_stop` completes the call. A `tool_use` whose `input` is already
///   filled at its start (programmatic calls) gets that input serialized as its arguments.
/// - `message_start` gives the message's `id` and `model` as `response_id` and `model`.
/// - `message_delta` carries the raw `stop_reason` (normalised in `finish`) and the cumulative
///   usage (input tokens from `message_start` unless the delta has its own); `message_stop`
///   completes the response; `event: error` reports the provider's message, with `finish` error.
/// - A repeated `message_start` with the id of the open message is ignored (proxy replay). One
///   with another id while a message is open is a splice: it is reported in `chunk.error` (with
///   `finish` error) and the rest of the stream is ignored, except further provider errors. A
///   call the splice cut short was already streamed; it just never completes. A message that
///   starts after `message_stop` numbers its calls after the previous message's blocks.
template<>
struct provider_converter<anthropic> : converter_defaults<provider_converter<anthropic>> {
    static constexpr framing wire_framing = framing::sse;
    static constexpr std::string_view name = "anthropic";

    /// A `stop_reason` normalised: `end_turn`, `stop_sequence` and `pause_turn` (a server tool
    /// paused the turn; the client continues it) are stop; `max_tokens` and
    /// `model_context_window_exceeded` are length; `tool_use` is tool_calls; `refusal` is
    /// content_filter; a reason not known here is stop.
    static constexpr finish_kind normalise_finish(std::string_view stop_reason) noexcept
    {
        return detail::finish_of({{"max_tokens", finish_kind::length},
                                  {"model_context_window_exceeded", finish_kind::length},
                                  {"tool_use", finish_kind::tool_calls}, {"refusal", finish_kind::content_filter}},
                                 stop_reason, finish_kind::stop);
    }

    /// Blocks per message beyond which an index is taken as hostile rather than allocated.
    static constexpr std::size_t max_blocks = 4096;

private:
    friend struct converter_defaults<provider_converter<anthropic>>;
    friend struct detail::event_paths_access;

    template<class Emit>
    error_code convert_event(const wire_event& ev, Emit& emit)
    {
        // Block deltas are nearly every event of a stream: read them while parsing, no DOM.
        using detail::equals;
        if (!spliced_ && (ev.name.empty() || equals(ev.name, "content_block_delta") || equals(ev.name, "content_block_stop"))
            && sax_.parse(ev.name, ev.data) == detail::sax_outcome::done) {
            const auto& f = sax_.handler();
            const std::string_view type = ev.name.empty() ? std::string_view(f.type) : ev.name;
            if (equals(type, "content_block_delta") && f.has_delta)
                return on_block_delta(f.index, f.delta_type, f.text, f.thinking, f.partial_json, emit);
            if (equals(type, "content_block_stop"))
                return on_block_stop(f.index, emit);
        }
        return convert_tree(ev, emit);
    }

    // Every event the fast path did not take, from its DOM (converter_defaults::convert_tree).
    template<class Emit>
    error_code convert_object(const boost::json::object& root, std::string_view type, Emit& emit)
    {
        if (type == "error")
            return on_error(root, emit);
        if (spliced_)
            return {};
        if (type == "content_block_delta") {
            const auto* delta = detail::object_field(root, "delta");
            if (delta == nullptr)
                return error::invalid_payload;
            return on_block_delta(detail::count_field(root, "index"), detail::string_field(*delta, "type"),
                                  detail::string_field(*delta, "text"), detail::string_field(*delta, "thinking"),
                                  detail::string_field(*delta, "partial_json"), emit);
        }
        if (type == "content_block_start")
            return on_block_start(root, emit);
        if (type == "content_block_stop")
            return on_block_stop(detail::count_field(root, "index"), emit);
        if (type == "message_delta")
            return on_message_delta(root, emit);
        if (type == "message_start")
            return on_message_start(root, emit);
        if (type == "message_stop") {
            open_ = false;
            out_.begin().is_complete = true;
            emit(std::size_t{0}, std::as_const(out_.chunk()));
            return {};
        }
        if (type.empty())
            return error::invalid_payload;
        return {};   // ping and event types added later are ignored, as the versioning policy asks
    }

    // tool_input_given: a tool_use whose whole input came with its start; deltas are not expected.
    enum class block_kind : unsigned char { unknown, text, thinking, tool_use, tool_input_given, other };

    template<class Emit>
    error_code on_message_start(const boost::json::object& root, Emit& emit)
    {
        const auto* message = detail::object_field(root, "message");
        if (message == nullptr)
            return error::invalid_payload;
        const std::string_view id = detail::string_field(*message, "id");
        if (open_) {
            if (id == message_id_)
                return {};
            spliced_ = true;
            auto& c = out_.begin();
            c.error.append("message_start for message \"").append(id)
                .append("\" while message \"").append(message_id_).append("\" is still open");
            c.finish = finish_kind::error;
            emit(std::size_t{0}, std::as_const(out_.chunk()));
            return {};
        }
        open_ = true;
        message_id_.assign(id);
        // Block indices restart with each message; keep the calls of later messages apart.
        base_index_ += blocks_.size();
        blocks_.clear();
        input_tokens_ = 0;
        output_tokens_ = 0;
        if (const auto* usage = detail::object_field(*message, "usage"))
            input_tokens_ = detail::count_field(*usage, "input_tokens").value_or(0);
        // Usage is reported with message_delta, once output is known.
        auto& c = out_.begin();
        c.response_id.assign(id);
        c.model.assign(detail::string_field(*message, "model"));
        if (!out_.empty())
            emit(std::size_t{0}, std::as_const(c));
        return {};
    }

    template<class Emit>
    error_code on_block_start(const boost::json::object& root, Emit& emit)
    {
        const auto index = block_index(detail::count_field(root, "index"));
        const auto* block = detail::object_field(root, "content_block");
        if (!index || block == nullptr)
            return error::invalid_payload;
        const std::string_view type = detail::string_field(*block, "type");
        auto& c = out_.begin();
        if (type == "text") {
            kind(*index) = block_kind::text;
            c.content.assign(detail::string_field(*block, "text"));
        } else if (type == "thinking") {
            kind(*index) = block_kind::thinking;
            c.reasoning.assign(detail::string_field(*block, "thinking"));
        } else if (type == "tool_use") {
            kind(*index) = block_kind::tool_use;
            auto& d = call_at(*index);
            d.call_id.assign(detail::string_field(*block, "id"));
            d.name.assign(detail::string_field(*block, "name"));
            // Programmatic calls carry their whole input here and no deltas follow.
            const auto* input = detail::object_field(*block, "input");
            if (input != nullptr && !input->empty()) {
                d.arguments_delta = boost::json::serialize(*input);
                kind(*index) = block_kind::tool_input_given;
            }
            emit(std::size_t{0}, std::as_const(out_.chunk()));
            return {};
        } else {
            kind(*index) = block_kind::other;
        }
        if (!c.content.empty() || !c.reasoning.empty())
            emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    // A content_block_delta: its index, `delta.type` and the delta's text fields.
    template<class Emit>
    error_code on_block_delta(std::optional<std::uint64_t> raw_index, std::string_view type, std::string_view text,
                              std::string_view thinking, std::string_view partial_json, Emit& emit)
    {
        const auto index = block_index(raw_index);
        if (!index)
            return error::invalid_payload;
        if (detail::equals(type, "input_json_delta")) {
            block_kind& k = kind(*index);
            // A delta for a block never started is still a call: emitting it lets the missing
            // name surface downstream instead of losing the call silently.
            if (k == block_kind::unknown)
                k = block_kind::tool_use;
            if (k != block_kind::tool_use)
                return {};
            call_at(*index).arguments_delta.assign(partial_json);
            emit(std::size_t{0}, std::as_const(out_.chunk()));   // even when empty: the call exists
            return {};
        }
        auto& c = out_.begin();
        if (detail::equals(type, "text_delta"))
            c.content.assign(text);
        else if (detail::equals(type, "thinking_delta"))
            c.reasoning.assign(thinking);
        if (!c.content.empty() || !c.reasoning.empty())
            emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_block_stop(std::optional<std::uint64_t> raw_index, Emit& emit)
    {
        const auto index = block_index(raw_index);
        if (!index)
            return error::invalid_payload;
        block_kind& k = kind(*index);
        if (k == block_kind::tool_use || k == block_kind::tool_input_given) {
            call_at(*index).is_complete = true;
            emit(std::size_t{0}, std::as_const(out_.chunk()));
        }
        k = block_kind::other;   // a repeated stop completes nothing
        return {};
    }

    template<class Emit>
    error_code on_message_delta(const boost::json::object& root, Emit& emit)
    {
        auto& c = out_.begin();
        if (const auto* delta = detail::object_field(root, "delta"))
            c.finish_reason.assign(detail::string_field(*delta, "stop_reason"));
        if (!c.finish_reason.empty())
            c.finish = normalise_finish(c.finish_reason);
        if (const auto* usage = detail::object_field(root, "usage")) {
            input_tokens_ = detail::count_field(*usage, "input_tokens").value_or(input_tokens_);
            output_tokens_ = detail::count_field(*usage, "output_tokens").value_or(output_tokens_);
            c.usage = token_usage{input_tokens_, output_tokens_};
        }
        if (!c.finish_reason.empty() || c.usage)
            emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_error(const boost::json::object& root, Emit& emit)
    {
        auto& c = out_.begin();
        const auto* nested = detail::object_field(root, "error");
        std::string_view message = nested != nullptr ? detail::string_field(*nested, "message") : detail::string_field(root, "message");
        if (message.empty() && nested != nullptr)
            message = detail::string_field(*nested, "type");
        c.error.assign(message.empty() ? std::string_view("provider error") : message);
        c.finish = finish_kind::error;
        emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    // block_kind for the current message's block `index`; grows the table on first sight.
    block_kind& kind(std::size_t index)
    {
        if (index >= blocks_.size())
            blocks_.resize(index + 1, block_kind::unknown);
        return blocks_[index];
    }

    static std::optional<std::size_t> block_index(std::optional<std::uint64_t> n) noexcept
    {
        if (!n || *n >= max_blocks)
            return std::nullopt;
        return static_cast<std::size_t>(*n);
    }

    // A fresh chunk holding one delta for the call at `block_index` of the current message.
    tool_call_delta& call_at(std::size_t block_index)
    {
        out_.begin();
        return out_.add_call(base_index_ + block_index);
    }

    detail::chunk_builder out_;
    detail::payload_parser parser_;
    detail::shaped_sax_parser<detail::anthropic_block_fields> sax_;
    std::vector<block_kind> blocks_;
    std::size_t base_index_ = 0;   // call index of block 0 of the current message
    std::string message_id_;
    std::uint64_t input_tokens_ = 0;
    std::uint64_t output_tokens_ = 0;
    bool open_ = false;
    bool spliced_ = false;
};

static_assert(provider_traits<anthropic>);

} // namespace toolstream
