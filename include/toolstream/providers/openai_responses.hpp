// OpenAI Responses API streaming (`event: <type>` + JSON data) converted to chunk_responses.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/chunk_builder.hpp>
#include <toolstream/providers/detail/event_fields.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/event_template.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/providers/detail/payload_parser.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream {

/// The provider tag: OpenAI Responses API streams.
struct openai_responses {};

/// Converts OpenAI Responses API events (also LM Studio's). Everything lands in choice 0.
///
/// - Client calls are `function_call` and `custom_tool_call` output items. Their index is the
///   item's `output_index`; `output_item.added` gives `call_id` (not the `fc_` item id) and name.
///   Argument (or custom input) deltas are appended raw; `.done` completes the call and, when no
///   delta carried any text, supplies the arguments; `output_item.done` is the last fallback.
///   A custom tool's input is free-form text (a grammar's, not JSON): its deltas say
///   `free_form`, and the call completes with that text as its input, unparsed.
///   Items the provider runs itself (`web_search_call`, ...) are not emitted.
/// - `output_text.delta` is content, `refusal.delta` is refusal, `reasoning_summary_text.delta`
///   and `reasoning_text.delta` are reasoning.
/// - The first event naming a response (`response.created`, else any with a `response` object)
///   gives its `id` and `model` as `response_id` and `model`; so does each later response of the
///   stream (an agent run), once.
/// - `response.completed` / `.incomplete` / `.failed` give `response.status` as finish reason
///   (normalised in `finish`), `response.usage` and completion; `error` events and a failed
///   response's error give the provider's message (nested `{"error":{"message"}}` or flat
///   `{"message"}`), and an `error` event gives `finish` error.
template<>
struct provider_converter<openai_responses> : converter_defaults<provider_converter<openai_responses>> {
    static constexpr framing wire_framing = framing::sse;
    static constexpr std::string_view name = "openai_responses";

    /// A response's end normalised from its `status` and, when it is `incomplete`, from
    /// `incomplete_details.reason`: `completed` is stop; `incomplete` is content_filter for that
    /// reason and otherwise length (`max_output_tokens`, or another cut); `failed` and
    /// `cancelled` are error; any other status is stop.
    static constexpr finish_kind normalise_finish(std::string_view status, std::string_view incomplete_reason = {}) noexcept
    {
        if (status == "incomplete")
            return incomplete_reason == "content_filter" ? finish_kind::content_filter : finish_kind::length;
        if (status == "failed" || status == "cancelled")
            return finish_kind::error;
        return finish_kind::stop;
    }

    /// Output items per response beyond which an `output_index` is taken as hostile.
    static constexpr std::size_t max_items = 4096;

private:
    friend struct converter_defaults<provider_converter<openai_responses>>;
    friend struct detail::event_paths_access;

    template<class Emit>
    error_code convert_event(const wire_event& ev, Emit& emit)
    {
        // Text and argument deltas are nearly every event of a stream: read them while parsing.
        if ((ev.name.empty() || delta_kind(ev.name) != delta_target::none) && sax_.parse(ev.name, ev.data) == detail::sax_outcome::done) {
            const auto& f = sax_.handler();
            const std::string_view type = ev.name.empty() ? std::string_view(f.type) : ev.name;
            if (const delta_target target = delta_kind(type); target != delta_target::none)
                return on_delta(target, f.output_index, f.item_id, f.call_id, f.delta, emit);
        }
        return convert_tree(ev, emit);
    }

    // Every event the fast path did not take, from its DOM (converter_defaults::convert_tree).
    template<class Emit>
    error_code convert_object(const boost::json::object& root, std::string_view type, Emit& emit)
    {
        if (const auto* response = detail::object_field(root, "response"))
            announce_response(*response, emit);

        if (const delta_target target = delta_kind(type); target != delta_target::none)
            return on_delta(target, detail::count_field(root, "output_index"), detail::string_field(root, "item_id"),
                            detail::string_field(root, "call_id"), detail::string_field(root, "delta"), emit);
        if (type == "response.function_call_arguments.done")
            return on_arguments_done(root, "arguments", emit);
        if (type == "response.custom_tool_call_input.done")
            return on_arguments_done(root, "input", emit);
        if (type == "response.output_item.added")
            return on_item_added(root, emit);
        if (type == "response.output_item.done")
            return on_item_done(root, emit);
        if (type == "response.completed" || type == "response.incomplete" || type == "response.failed")
            return on_response_end(root, type.substr(type.find('.') + 1), emit);
        if (type == "error")
            return on_error(root, emit);
        if (type == "response.created") {
            // One stream may hold several responses (an agent run); output indices restart with
            // each, so later calls are numbered after the earlier ones.
            base_index_ += items_.size();
            items_.clear();
        } else if (type.empty()) {
            return error::invalid_payload;
        }
        return {};   // bookkeeping events (in_progress, content_part.*, *.done texts) carry nothing new
    }

    // The events that carry one `delta`, and where it goes.
    enum class delta_target : unsigned char { none, content, reasoning, refusal, arguments, custom_input };

    static delta_target delta_kind(std::string_view type) noexcept
    {
        using detail::equals;
        if (equals(type, "response.output_text.delta"))
            return delta_target::content;
        if (equals(type, "response.function_call_arguments.delta"))
            return delta_target::arguments;
        if (equals(type, "response.reasoning_summary_text.delta") || equals(type, "response.reasoning_text.delta"))
            return delta_target::reasoning;
        if (equals(type, "response.refusal.delta"))
            return delta_target::refusal;
        if (equals(type, "response.custom_tool_call_input.delta"))
            return delta_target::custom_input;
        return delta_target::none;
    }

    template<class Emit>
    error_code on_delta(delta_target target, std::optional<std::uint64_t> output_index, std::string_view item_id,
                        std::string_view call_id, std::string_view delta, Emit& emit)
    {
        switch (target) {
        case delta_target::content: return send_text(out_.begin().content, delta, emit);
        case delta_target::reasoning: return send_text(out_.begin().reasoning, delta, emit);
        case delta_target::refusal: return send_text(out_.begin().refusal, delta, emit);
        default:
            return on_arguments_delta(output_index, item_id, call_id, delta, target == delta_target::custom_input, emit);
        }
    }

    enum class item_kind : unsigned char { unknown, client_call, other };

    struct item_state {
        std::string id;                // the item's own id (`fc_...`), for events without output_index
        item_kind kind = item_kind::unknown;
        bool announced = false;        // call_id and name were emitted
        bool has_arguments = false;    // argument text was emitted
        bool complete = false;
        bool free_form = false;        // a custom tool's input: text, not JSON
    };

    static bool is_client_call(std::string_view item_type)
    {
        return item_type == "function_call" || item_type == "custom_tool_call";
    }

    template<class Emit>
    error_code send_text(std::string& field, std::string_view delta, Emit& emit)
    {
        field.assign(delta);
        if (!field.empty())
            emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_item_added(const boost::json::object& root, Emit& emit)
    {
        const auto index = item_index(detail::count_field(root, "output_index"));
        const auto* item = detail::object_field(root, "item");
        if (!index || item == nullptr)
            return error::invalid_payload;
        auto& state = slot(*index);
        state.id.assign(detail::string_field(*item, "id"));
        if (!is_client_call(detail::string_field(*item, "type"))) {
            state.kind = item_kind::other;
            return {};
        }
        state.kind = item_kind::client_call;
        state.free_form = detail::string_field(*item, "type") == "custom_tool_call";
        announce(state, *item, call_at(*index));
        emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_arguments_delta(std::optional<std::uint64_t> output_index, std::string_view item_id,
                                  std::string_view call_id, std::string_view delta, bool custom, Emit& emit)
    {
        const auto index = locate(output_index, item_id);
        if (!index)
            return error::invalid_payload;
        auto& state = items_[*index];
        if (state.kind == item_kind::other)
            return {};
        state.kind = item_kind::client_call;   // a compat server may skip output_item.added
        state.free_form = state.free_form || custom;
        auto& d = call_at(*index);
        d.free_form = state.free_form;
        d.call_id.assign(call_id);
        d.arguments_delta.assign(delta);
        state.has_arguments = state.has_arguments || !d.arguments_delta.empty();
        emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_arguments_done(const boost::json::object& root, std::string_view field, Emit& emit)
    {
        const auto index = locate(detail::count_field(root, "output_index"), detail::string_field(root, "item_id"));
        if (!index)
            return error::invalid_payload;
        auto& state = items_[*index];
        if (state.kind == item_kind::other || state.complete)
            return {};
        state.kind = item_kind::client_call;
        state.free_form = state.free_form || field == "input";
        auto& d = call_at(*index);
        d.free_form = state.free_form;
        complete(state, root, field, d);
        emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_item_done(const boost::json::object& root, Emit& emit)
    {
        const auto index = item_index(detail::count_field(root, "output_index"));
        const auto* item = detail::object_field(root, "item");
        if (!index || item == nullptr)
            return error::invalid_payload;
        const std::string_view item_type = detail::string_field(*item, "type");
        auto& state = slot(*index);
        if (!is_client_call(item_type) || (state.complete && state.announced))
            return {};
        state.kind = item_kind::client_call;
        state.id.assign(detail::string_field(*item, "id"));
        state.free_form = state.free_form || item_type == "custom_tool_call";
        auto& d = call_at(*index);
        d.free_form = state.free_form;
        announce(state, *item, d);   // a compat server may have sent no output_item.added
        const std::string_view field = item_type == "custom_tool_call" ? "input" : "arguments";
        if (detail::string_field(*item, "status") == "incomplete") {
            // Cut off (max_output_tokens): what it holds is passed on, and the call stays open,
            // so the response's end reports it incomplete rather than complete.
            if (!state.complete && !state.has_arguments) {
                d.arguments_delta.assign(detail::string_field(*item, field));
                state.has_arguments = true;
            }
        } else if (!state.complete) {
            complete(state, *item, field, d);
        }
        emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_response_end(const boost::json::object& root, std::string_view event_status, Emit& emit)
    {
        auto& c = out_.begin();
        c.is_complete = true;
        c.finish_reason.assign(event_status);
        std::string_view incomplete_reason;
        if (const auto* response = detail::object_field(root, "response")) {
            if (const std::string_view status = detail::string_field(*response, "status"); !status.empty())
                c.finish_reason.assign(status);
            if (const auto* details = detail::object_field(*response, "incomplete_details"))
                incomplete_reason = detail::string_field(*details, "reason");
            if (const auto* usage = detail::object_field(*response, "usage"))
                c.usage = token_usage{detail::count_field(*usage, "input_tokens").value_or(0),
                                      detail::count_field(*usage, "output_tokens").value_or(0)};
            if (const auto* failure = response->if_contains("error"); failure != nullptr && !failure->is_null())
                c.error.assign(detail::error_value_message(*failure));
        }
        c.finish = normalise_finish(c.finish_reason, incomplete_reason);
        emit(std::size_t{0}, std::as_const(out_.chunk()));
        return {};
    }

    template<class Emit>
    error_code on_error(const boost::json::object& root, Emit& emit)
    {
        const auto* nested = root.if_contains("error");
        auto& c = out_.begin();
        c.error.assign(nested != nullptr && !nested->is_null() ? detail::error_value_message(*nested)
                                                              : detail::error_object_message(root));
        c.finish = finish_kind::error;
        emit(std::size_t{0}, std::as_const(c));
        return {};
    }

    // Emits the id and model of a response not announced yet.
    template<class Emit>
    void announce_response(const boost::json::object& response, Emit& emit)
    {
        const std::string_view id = detail::string_field(response, "id");
        const std::string_view model = detail::string_field(response, "model");
        if (id.empty() ? announced_ || model.empty() : announced_ && id == response_id_)
            return;
        announced_ = true;
        response_id_.assign(id);
        auto& c = out_.begin();
        c.response_id.assign(id);
        c.model.assign(model);
        emit(std::size_t{0}, std::as_const(c));
    }

    static void announce(item_state& state, const boost::json::object& item, tool_call_delta& d)
    {
        if (state.announced)
            return;
        d.call_id.assign(detail::string_field(item, "call_id"));
        d.name.assign(detail::string_field(item, "name"));
        d.free_form = state.free_form;
        state.announced = true;
    }

    // Completes the call; `source[field]` is its whole argument text, used only if no delta had any.
    static void complete(item_state& state, const boost::json::object& source, std::string_view field,
                         tool_call_delta& d)
    {
        if (!state.has_arguments) {
            d.arguments_delta.assign(detail::string_field(source, field));
            state.has_arguments = true;
        }
        if (d.name.empty() && !state.announced)
            d.name.assign(detail::string_field(source, "name"));
        d.is_complete = true;
        state.complete = true;
    }

    item_state& slot(std::size_t index)
    {
        if (index >= items_.size())
            items_.resize(index + 1);
        return items_[index];
    }

    // The item an argument event refers to: by output_index, else by item_id (newest first).
    std::optional<std::size_t> locate(std::optional<std::uint64_t> output_index, std::string_view id)
    {
        if (const auto index = item_index(output_index)) {
            slot(*index);
            return index;
        }
        for (std::size_t i = items_.size(); !id.empty() && i-- > 0;)
            if (items_[i].id == id)
                return i;
        return std::nullopt;
    }

    static std::optional<std::size_t> item_index(std::optional<std::uint64_t> n) noexcept
    {
        if (!n || *n >= max_items)
            return std::nullopt;
        return static_cast<std::size_t>(*n);
    }

    // A fresh chunk holding one delta for the call at `output_index` of the current message.
    tool_call_delta& call_at(std::size_t output_index)
    {
        out_.begin();
        return out_.add_call(base_index_ + output_index);
    }

    detail::chunk_builder out_;
    detail::payload_parser parser_;
    detail::shaped_sax_parser<detail::responses_delta_fields> sax_;
    std::vector<item_state> items_;   // by output_index, for the current response
    std::size_t base_index_ = 0;      // call index of output_index 0 of the current response
    std::string response_id_;         // the last response announced
    bool announced_ = false;
};

static_assert(provider_traits<openai_responses>);

} // namespace toolstream
