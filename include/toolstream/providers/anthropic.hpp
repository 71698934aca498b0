// Anthropic Messages streaming (`event: <type>` + JSON data) converted to chunk_responses.
#pragma once

#include <toolstream/detail/payload_parser.hpp>
#include <toolstream/error.hpp>
#include <toolstream/provider.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// Converts Anthropic Messages events. Everything lands in choice 0.
///
/// - `text_delta` is content, `thinking_delta` is reasoning (signatures and redacted thinking
///   are not text). `tool_use` blocks become tool calls keyed by block index; the provider's own
///   `server_tool_use` blocks are not client calls and are not emitted. `partial_json` is passed
///   on raw; `content_block_stop` completes the call. A `tool_use` whose `input` is already
///   filled at its start (programmatic calls) gets that input serialized as its arguments.
/// - `message_delta` carries the raw `stop_reason` and the cumulative usage (input tokens from
///   `message_start` unless the delta has its own); `message_stop` completes the response;
///   `event: error` reports the provider's message.
/// - A repeated `message_start` with the id of the open message is ignored (proxy replay). One
///   with another id while a message is open is a splice: it is reported in `chunk.error` and
///   the rest of the stream is ignored, except further provider errors. A call the splice cut
///   short was already streamed; it just never completes. A message that starts after
///   `message_stop` numbers its calls after the previous message's blocks.
template<>
struct provider_converter<anthropic> {
    static constexpr framing wire_framing = framing::sse;
    static constexpr std::string_view name = "anthropic";

    /// Blocks per message beyond which an index is taken as hostile rather than allocated.
    static constexpr std::size_t max_blocks = 4096;

    template<chunk_consumer Emit>
    error_code convert(const stream_event& ev, Emit& emit)
    {
        auto parsed = parser_.parse(ev.data);
        if (!parsed)
            return error::invalid_payload;
        const auto* root = (*parsed)->if_object();
        if (root == nullptr)
            return error::invalid_payload;
        const std::string_view type = ev.name.empty() ? string_at(*root, "type") : ev.name;

        if (type == "error")
            return on_error(*root, emit);
        if (spliced_)
            return {};
        if (type == "content_block_delta")
            return on_block_delta(*root, emit);
        if (type == "content_block_start")
            return on_block_start(*root, emit);
        if (type == "content_block_stop")
            return on_block_stop(*root, emit);
        if (type == "message_delta")
            return on_message_delta(*root, emit);
        if (type == "message_start")
            return on_message_start(*root, emit);
        if (type == "message_stop") {
            open_ = false;
            begin_chunk().is_complete = true;
            send(emit);
            return {};
        }
        if (type.empty())
            return error::invalid_payload;
        return {};   // ping and event types added later are ignored, as the versioning policy asks
    }

    /// Nothing is held back: every delta was emitted when it arrived.
    template<chunk_consumer Emit>
    void finish(Emit&)
    {
    }

private:
    // tool_input_given: a tool_use whose whole input came with its start; deltas are not expected.
    enum class block_kind : unsigned char { unknown, text, thinking, tool_use, tool_input_given, other };

    template<class Emit>
    error_code on_message_start(const boost::json::object& root, Emit& emit)
    {
        const auto* message = object_at(root, "message");
        if (message == nullptr)
            return error::invalid_payload;
        const std::string_view id = string_at(*message, "id");
        if (open_) {
            if (id == message_id_)
                return {};
            spliced_ = true;
            auto& c = begin_chunk();
            c.error.append("message_start for message \"").append(id)
                .append("\" while message \"").append(message_id_).append("\" is still open");
            send(emit);
            return {};
        }
        open_ = true;
        message_id_.assign(id);
        // Block indices restart with each message; keep the calls of later messages apart.
        base_index_ += blocks_.size();
        blocks_.clear();
        input_tokens_ = 0;
        output_tokens_ = 0;
        if (const auto* usage = object_at(*message, "usage"))
            input_tokens_ = count_at(*usage, "input_tokens").value_or(0);
        return {};   // usage is reported with message_delta, once output is known
    }

    template<class Emit>
    error_code on_block_start(const boost::json::object& root, Emit& emit)
    {
        const auto index = index_at(root);
        const auto* block = object_at(root, "content_block");
        if (!index || block == nullptr)
            return error::invalid_payload;
        const std::string_view type = string_at(*block, "type");
        auto& c = begin_chunk();
        if (type == "text") {
            kind(*index) = block_kind::text;
            c.content.assign(string_at(*block, "text"));
        } else if (type == "thinking") {
            kind(*index) = block_kind::thinking;
            c.reasoning.assign(string_at(*block, "thinking"));
        } else if (type == "tool_use") {
            kind(*index) = block_kind::tool_use;
            auto& d = begin_call(*index);
            d.call_id.assign(string_at(*block, "id"));
            d.name.assign(string_at(*block, "name"));
            // Programmatic calls carry their whole input here and no deltas follow.
            const auto* input = object_at(*block, "input");
            if (input != nullptr && !input->empty()) {
                d.arguments_delta = boost::json::serialize(*input);
                kind(*index) = block_kind::tool_input_given;
            }
            send(emit);
            return {};
        } else {
            kind(*index) = block_kind::other;
        }
        if (!c.content.empty() || !c.reasoning.empty())
            send(emit);
        return {};
    }

    template<class Emit>
    error_code on_block_delta(const boost::json::object& root, Emit& emit)
    {
        const auto index = index_at(root);
        const auto* delta = object_at(root, "delta");
        if (!index || delta == nullptr)
            return error::invalid_payload;
        const std::string_view type = string_at(*delta, "type");
        auto& c = begin_chunk();
        if (type == "text_delta") {
            c.content.assign(string_at(*delta, "text"));
        } else if (type == "thinking_delta") {
            c.reasoning.assign(string_at(*delta, "thinking"));
        } else if (type == "input_json_delta") {
            block_kind& k = kind(*index);
            // A delta for a block never started is still a call: emitting it lets the missing
            // name surface downstream instead of losing the call silently.
            if (k == block_kind::unknown)
                k = block_kind::tool_use;
            if (k != block_kind::tool_use)
                return {};
            begin_call(*index).arguments_delta.assign(string_at(*delta, "partial_json"));
            send(emit);   // even when empty: the call exists
            return {};
        }
        if (!c.content.empty() || !c.reasoning.empty())
            send(emit);
        return {};
    }

    template<class Emit>
    error_code on_block_stop(const boost::json::object& root, Emit& emit)
    {
        const auto index = index_at(root);
        if (!index)
            return error::invalid_payload;
        block_kind& k = kind(*index);
        if (k == block_kind::tool_use || k == block_kind::tool_input_given) {
            begin_call(*index).is_complete = true;
            send(emit);
        }
        k = block_kind::other;   // a repeated stop completes nothing
        return {};
    }

    template<class Emit>
    error_code on_message_delta(const boost::json::object& root, Emit& emit)
    {
        auto& c = begin_chunk();
        if (const auto* delta = object_at(root, "delta"))
            c.finish_reason.assign(string_at(*delta, "stop_reason"));
        if (const auto* usage = object_at(root, "usage")) {
            input_tokens_ = count_at(*usage, "input_tokens").value_or(input_tokens_);
            output_tokens_ = count_at(*usage, "output_tokens").value_or(output_tokens_);
            c.usage = token_usage{input_tokens_, output_tokens_};
        }
        if (!c.finish_reason.empty() || c.usage)
            send(emit);
        return {};
    }

    template<class Emit>
    error_code on_error(const boost::json::object& root, Emit& emit)
    {
        auto& c = begin_chunk();
        const auto* nested = object_at(root, "error");
        std::string_view message = nested != nullptr ? string_at(*nested, "message") : string_at(root, "message");
        if (message.empty() && nested != nullptr)
            message = string_at(*nested, "type");
        c.error.assign(message.empty() ? std::string_view("provider error") : message);
        send(emit);
        return {};
    }

    // block_kind for the current message's block `index`; grows the table on first sight.
    block_kind& kind(std::size_t index)
    {
        if (index >= blocks_.size())
            blocks_.resize(index + 1, block_kind::unknown);
        return blocks_[index];
    }

    std::optional<std::size_t> index_at(const boost::json::object& o) const
    {
        auto n = count_at(o, "index");
        if (!n || *n >= max_blocks)
            return std::nullopt;
        return static_cast<std::size_t>(*n);
    }

    // chunk_response::clear() would destroy the tool-call delta and its strings' buffers: it is
    // parked in spare_ instead, so steady-state conversion does not allocate.
    chunk_response& begin_chunk()
    {
        if (!chunk_.tool_calls.empty())
            spare_ = std::move(chunk_.tool_calls.front());
        chunk_.clear();
        return chunk_;
    }

    tool_call_delta& begin_call(std::size_t block_index)
    {
        begin_chunk();
        auto& d = chunk_.tool_calls.emplace_back(std::move(spare_));
        d.index = base_index_ + block_index;
        d.call_id.clear();
        d.name.clear();
        d.arguments_delta.clear();
        d.is_complete = false;
        return d;
    }

    template<class Emit>
    void send(Emit& emit)
    {
        emit(std::size_t{0}, std::as_const(chunk_));
    }

    static const boost::json::object* object_at(const boost::json::object& o, std::string_view key)
    {
        const auto* v = o.if_contains(key);
        return v != nullptr ? v->if_object() : nullptr;
    }

    static std::string_view string_at(const boost::json::object& o, std::string_view key)
    {
        const auto* v = o.if_contains(key);
        const auto* s = v != nullptr ? v->if_string() : nullptr;
        return s != nullptr ? std::string_view(*s) : std::string_view();
    }

    static std::optional<std::uint64_t> count_at(const boost::json::object& o, std::string_view key)
    {
        const auto* v = o.if_contains(key);
        if (v == nullptr)
            return std::nullopt;
        if (const auto* u = v->if_uint64())
            return *u;
        if (const auto* i = v->if_int64(); i != nullptr && *i >= 0)
            return static_cast<std::uint64_t>(*i);
        if (const auto* d = v->if_double(); d != nullptr && *d >= 0 && *d < 1.8e19 && std::trunc(*d) == *d)
            return static_cast<std::uint64_t>(*d);
        return std::nullopt;
    }

    chunk_response chunk_;
    tool_call_delta spare_;
    detail::payload_parser parser_;
    std::vector<block_kind> blocks_;
    std::size_t base_index_ = 0;   // call index of block 0 of the current message
    std::string message_id_;
    std::uint64_t input_tokens_ = 0;
    std::uint64_t output_tokens_ = 0;
    bool open_ = false;
    bool spliced_ = false;
};

} // namespace toolstream
