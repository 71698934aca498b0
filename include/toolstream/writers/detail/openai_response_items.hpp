// What the streaming and the non-streaming OpenAI Responses writers share: the output items a
// response is made of (collected from the core's events) and how the response ends (its status).
// Their JSON is openai_response_json.hpp's.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/detail/openai_chunk.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::detail {

enum class response_item_type : unsigned char { message, reasoning, function_call, custom_tool_call };

/// One output item. `content` is its text, reasoning, arguments or custom input as written:
/// valid UTF-8 (a byte that is not becomes U+FFFD) and the one copy the writers keep of it,
/// since both the item's `.done` event and the final response repeat it whole.
struct response_item {
    response_item_type type = response_item_type::message;
    std::string id;        // msg_, rs_, fc_ or ctc_, the response's key and the item's position
    std::string call_id;   // a call's: its segment id
    std::string name;      // a call's tool name; empty until known
    std::string tool_namespace;   // a call's metadata `namespace` (a Responses namespace tool's), if any
    std::string content;
    utf8_carry carry;      // a character split between two deltas, held until whole
    segment_status call_status = segment_status::complete;
    bool open = true;         // more content may come
    bool incomplete = false;  // a message or reasoning cut by the finish

    bool is_call() const noexcept { return type >= response_item_type::function_call; }
    /// A call that never got a name cannot be written: no client takes a call without one.
    bool written() const noexcept { return !is_call() || !name.empty(); }
    std::string_view status() const noexcept
    {
        const bool cut = is_call() ? call_status != segment_status::complete : incomplete;
        return cut ? "incomplete" : "completed";
    }
};

/// Why a call that did not END complete (`status`) cannot be run, naming it.
inline std::string call_failure(const response_item& item, segment_status status, std::string_view error)
{
    std::string why = "the model's tool call '" + (item.name.empty() ? item.call_id : item.name) + "' (call id '"
                      + item.call_id + "') is " + (status == segment_status::incomplete ? "incomplete" : "broken");
    if (item.name.empty() && status != segment_status::incomplete)
        return why + ": it has no name";
    return error.empty() ? why : why.append(": ").append(error);
}

/// The items of choice 0 in order of START, from the core's events. Text and reasoning extend
/// the last item while it is a message (a reasoning item) still open; any other item closes it.
/// A call closes at its END. Other choices and media segments are not collected.
class response_output {
public:
    /// Fixes the key item ids are made of: the response id without its `resp_`.
    void start(std::string_view response_id)
    {
        key_ = response_id.substr(response_id.starts_with("resp_") ? 5 : 0);
    }

    /// Returns the item the event added to or ended, or nullptr.
    response_item* on_segment(const segment_event& e)
    {
        if (e.choice != 0)
            return nullptr;
        const bool text = e.segment_kind == segment_type::text;
        if (text || e.segment_kind == segment_type::reasoning) {
            const auto type = text ? response_item_type::message : response_item_type::reasoning;
            if (e.type == segment_event_type::SEGMENT_CONTENT && !e.delta.empty()) {
                response_item& item = flow_item(type);
                feed(item, e.delta);
                return &item;
            }
            if (e.type != segment_event_type::SEGMENT_END || flow_ >= items_.size() || items_[flow_].type != type)
                return nullptr;
            flush(items_[flow_]);   // what the emitter held back is no character: U+FFFD
            return &items_[flow_];
        }
        if (!is_tool_segment(e.segment_kind))
            return nullptr;   // media: no Responses item
        if (e.type == segment_event_type::SEGMENT_START) {
            close_flow();
            auto& item = add(is_free_form(e) ? response_item_type::custom_tool_call
                                             : response_item_type::function_call);
            item.call_id.assign(e.segment_id);
            item.name.assign(tool_name_of(e));
            item.tool_namespace.assign(metadata_string(e, "namespace"));
            return &item;
        }
        if (e.type != segment_event_type::SEGMENT_END)
            return nullptr;   // a tool segment's CONTENT is what its fragments encode
        response_item* item = find_call(e.segment_id);
        if (item == nullptr)
            return nullptr;
        if (item->name.empty())
            item->name.assign(tool_name_of(e));
        if (item->tool_namespace.empty())
            item->tool_namespace.assign(metadata_string(e, "namespace"));
        // A complete call without arguments takes none: `{}`, the JSON clients parse (as the
        // core's invocation reads it), not an empty string they cannot.
        if (e.status == segment_status::complete && item->type == response_item_type::function_call
            && item->content.find_first_not_of(" \t\r\n") == std::string::npos)
            feed(*item, "{}");   // after any blanks already streamed
        end_call(*item, e.status, e.error);
        return item;
    }

    response_item* on_fragment(const argument_fragment& f)
    {
        if (f.choice != 0)
            return nullptr;
        response_item* item = find_call(f.segment_id);
        if (item != nullptr)
            feed(*item, f.json);
        return item;
    }

    /// Ends every open item: text and reasoning `incomplete` when `cut` (the finish cut them),
    /// calls that never ENDed `incomplete`.
    void close_all(bool cut)
    {
        for (auto& item : items_) {
            if (!item.open)
                continue;
            if (item.is_call()) {
                end_call(item, segment_status::incomplete, ended_inside);
            } else {
                flush(item);
                item.open = false;
                item.incomplete = cut;
            }
        }
    }

    std::vector<response_item>& items() noexcept { return items_; }
    const std::vector<response_item>& items() const noexcept { return items_; }

    /// Why the first call that ENDed broken (invalid arguments, no name) cannot be run, else the
    /// first cut off (ENDed `incomplete`, or still open: the stream would end inside it); empty
    /// when every call completed.
    std::string failed_call() const
    {
        if (!broken_.empty() || !cut_.empty())
            return broken_.empty() ? cut_ : broken_;
        for (const auto& item : items_)
            if (item.is_call() && item.open)
                return call_failure(item, segment_status::incomplete, ended_inside);
        return {};
    }

private:
    void feed(response_item& item, std::string_view delta)
    {
        item.carry.feed(delta, [&](std::string_view piece) { append_valid_utf8(item.content, piece); });
    }
    static void flush(response_item& item)
    {
        item.carry.flush([&](std::string_view rest) { append_valid_utf8(item.content, rest); });
    }

    response_item& add(response_item_type type)
    {
        static constexpr std::string_view prefixes[] = {"msg_", "rs_", "fc_", "ctc_"};
        response_item& item = items_.emplace_back();
        item.type = type;
        item.id = prefixes[static_cast<int>(type)];
        item.id += key_;
        item.id += '_';
        append_integer(item.id, static_cast<std::uint64_t>(items_.size() - 1));
        return item;
    }

    // The open message (reasoning item) at the end, else a new one after the others.
    response_item& flow_item(response_item_type type)
    {
        if (flow_ < items_.size() && flow_ + 1 == items_.size() && items_[flow_].type == type && items_[flow_].open)
            return items_[flow_];
        close_flow();
        add(type);
        flow_ = items_.size() - 1;
        return items_.back();
    }

    void close_flow()
    {
        if (flow_ < items_.size() && items_[flow_].open) {
            flush(items_[flow_]);
            items_[flow_].open = false;
        }
        flow_ = npos;
    }

    void end_call(response_item& item, segment_status status, std::string_view error)
    {
        flush(item);
        item.open = false;
        item.call_status = item.name.empty() && status == segment_status::complete ? segment_status::invalid_arguments
                                                                                   : status;
        if (item.call_status == segment_status::complete)
            return;
        if (std::string& why = item.call_status == segment_status::incomplete ? cut_ : broken_; why.empty())
            why = call_failure(item, item.call_status, error);
    }

    // The open call of that segment id: the one the last fragment went to, else a scan.
    response_item* find_call(std::string_view id)
    {
        auto matches = [&](const response_item& i) { return i.is_call() && i.open && i.call_id == id; };
        if (last_call_ < items_.size() && matches(items_[last_call_]))
            return &items_[last_call_];
        for (std::size_t i = items_.size(); i-- > 0;)
            if (matches(items_[i])) {
                last_call_ = i;
                return &items_[i];
            }
        return nullptr;
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    static constexpr std::string_view ended_inside = "the stream ended inside the call";
    std::vector<response_item> items_;
    std::string key_;
    std::string broken_, cut_;
    std::size_t flow_ = npos;        // the item text or reasoning goes to
    std::size_t last_call_ = npos;   // the call the last fragment went to
};

/// How a response ends: `status`, `incomplete_details.reason` and the error's message.
struct response_end {
    std::string_view status = "completed";   ///< completed, incomplete or failed
    std::string_view incomplete_reason;      ///< max_output_tokens or content_filter
    std::string error;                       ///< failed only
};

/// The end of a response whose choice 0 finished `finish` (none: fed by a handler, no finish
/// known) with the calls `output` collected, unless it failed (`failure`). Never `completed`
/// unless the model finished cleanly: a length finish is `incomplete` (max_output_tokens),
/// whatever it cut (a call cut there is often ENDed `invalid_arguments`, its JSON unfinished);
/// without one, a call that did not END complete fails it.
inline response_end end_of_response(std::optional<finish_kind> finish, std::string_view failure,
                                    const response_output& output)
{
    if (!failure.empty())
        return {"failed", {}, std::string(failure)};
    if (finish == finish_kind::length)
        return {"incomplete", "max_output_tokens", {}};
    if (std::string call = output.failed_call(); !call.empty())
        return {"failed", {}, std::move(call)};
    if (finish == finish_kind::content_filter)
        return {"incomplete", "content_filter", {}};
    return {};
}

/// Why a call held for its name past `max_held_call_bytes` fails the response.
inline std::string held_call_failure(const response_item& item)
{
    return "the model's tool call '" + item.call_id + "' has no name after " + std::to_string(item.content.size())
           + " bytes of arguments (max_held_call_bytes): a Responses call cannot be written before its name";
}

/// Starts `identity` with the caller's id, else the provider's, else `resp_` and 24 random hex
/// digits (a Responses id, where the Chat Completions writers make a `chatcmpl-` one).
inline void start_response_identity(response_identity& identity, std::string_view given_id,
                                    std::string_view given_model, std::int64_t given_created,
                                    std::string_view provider_id, std::string_view provider_model)
{
    if (identity.started)
        return;
    std::string made;
    if (given_id.empty() && provider_id.empty())
        made = "resp_" + generated_completion_id().substr(std::string_view("chatcmpl-").size());
    identity.start(made.empty() ? given_id : std::string_view(made), given_model, given_created, provider_id,
                   provider_model);
}

} // namespace toolstream::detail
