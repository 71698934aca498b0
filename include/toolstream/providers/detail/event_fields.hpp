// The fields the anthropic, openai_responses and ollama converters read while parsing their most
// frequent events (event_sax.hpp): each converter's fast path, whose rules live in the converter.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/providers/detail/event_sax.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// The slots met in one event, as bits: a key read twice takes the DOM path, whose objects say
/// which of the two counts.
struct seen_slots {
    unsigned bits = 0;

    sax_slot once(sax_slot s) noexcept
    {
        if (s == sax_slots::ignored)
            return s;
        if ((bits >> s) & 1U)
            return sax_slots::reject;
        bits |= 1U << s;
        return s;
    }
};

/// Anthropic `content_block_delta` / `content_block_stop`: `type`, `index`, and the delta's
/// `type`, `text`, `thinking` and `partial_json`.
struct anthropic_block_fields : event_sax<anthropic_block_fields> {
    static constexpr sax_slot type_slot = 2, index_slot = 3, delta_slot = 4, delta_type_slot = 5, text_slot = 6,
                              thinking_slot = 7, json_slot = 8;

    std::string type, delta_type, text, thinking, partial_json;
    std::optional<std::uint64_t> index;
    bool has_delta = false;   // `delta` is an object
    seen_slots seen;

    bool on_document_begin(error_code& ec)
    {
        for (std::string* s : {&type, &delta_type, &text, &thinking, &partial_json})
            s->clear();
        index.reset();
        has_delta = false;
        seen = {};
        return event_sax::on_document_begin(ec);
    }
    sax_slot child(sax_slot parent, std::string_view key) noexcept
    {
        if (parent == sax_slots::root)
            return seen.once(key == "type" ? type_slot : key == "index" ? index_slot
                             : key == "delta" ? delta_slot : sax_slots::ignored);
        return seen.once(key == "type" ? delta_type_slot : key == "text" ? text_slot : key == "thinking" ? thinking_slot
                         : key == "partial_json" ? json_slot : sax_slots::ignored);
    }
    bool object_at(sax_slot s) noexcept
    {
        has_delta = has_delta || s == delta_slot;
        return s == delta_slot;
    }
    std::string* text_at(sax_slot s) noexcept
    {
        switch (s) {
        case type_slot: return &type;
        case delta_type_slot: return &delta_type;
        case text_slot: return &text;
        case thinking_slot: return &thinking;
        case json_slot: return &partial_json;
        default: return nullptr;
        }
    }
    bool count_at(sax_slot s, std::uint64_t v) noexcept
    {
        if (s == index_slot)
            index = v;
        return s == index_slot;
    }
};

/// OpenAI Responses events that carry one `delta`: `type`, `output_index`, `item_id`, `call_id`
/// and `delta`. An event with a `response` member takes the DOM path, which announces it.
struct responses_delta_fields : event_sax<responses_delta_fields> {
    static constexpr sax_slot type_slot = 2, index_slot = 3, item_slot = 4, call_slot = 5, delta_slot = 6;

    std::string type, item_id, call_id, delta;
    std::optional<std::uint64_t> output_index;
    seen_slots seen;

    bool on_document_begin(error_code& ec)
    {
        for (std::string* s : {&type, &item_id, &call_id, &delta})
            s->clear();
        output_index.reset();
        seen = {};
        return event_sax::on_document_begin(ec);
    }
    sax_slot child(sax_slot, std::string_view key) noexcept   // only the root is read
    {
        if (key == "response")
            return sax_slots::reject;
        return seen.once(key == "type" ? type_slot : key == "output_index" ? index_slot : key == "item_id" ? item_slot
                         : key == "call_id" ? call_slot : key == "delta" ? delta_slot : sax_slots::ignored);
    }
    std::string* text_at(sax_slot s) noexcept
    {
        switch (s) {
        case type_slot: return &type;
        case item_slot: return &item_id;
        case call_slot: return &call_id;
        case delta_slot: return &delta;
        default: return nullptr;
        }
    }
    bool count_at(sax_slot s, std::uint64_t v) noexcept
    {
        if (s == index_slot)
            output_index = v;
        return s == index_slot;
    }
};

/// An Ollama `/api/chat` line without tool calls or an error: `model`, `message.content`,
/// `message.thinking`, `done`, `done_reason`, `prompt_eval_count`, `eval_count`. A null
/// `error` is no error; `tool_calls` and any other `error` take the DOM path.
struct ollama_line_fields : event_sax<ollama_line_fields> {
    static constexpr sax_slot model_slot = 2, message_slot = 3, content_slot = 4, thinking_slot = 5, done_slot = 6,
                              reason_slot = 7, input_slot = 8, output_slot = 9, error_slot = 10;

    std::string model, content, thinking, done_reason;
    std::optional<std::uint64_t> input, output;
    bool done = false;
    seen_slots seen;

    bool on_document_begin(error_code& ec)
    {
        for (std::string* s : {&model, &content, &thinking, &done_reason})
            s->clear();
        input.reset();
        output.reset();
        done = false;
        seen = {};
        return event_sax::on_document_begin(ec);
    }
    sax_slot child(sax_slot parent, std::string_view key) noexcept
    {
        if (parent == message_slot)
            return key == "tool_calls" ? sax_slots::reject
                : seen.once(key == "content" ? content_slot : key == "thinking" ? thinking_slot : sax_slots::ignored);
        return seen.once(key == "model" ? model_slot : key == "message" ? message_slot : key == "done" ? done_slot
                         : key == "done_reason" ? reason_slot : key == "prompt_eval_count" ? input_slot
                         : key == "eval_count" ? output_slot : key == "error" ? error_slot : sax_slots::ignored);
    }
    bool object_at(sax_slot s) const noexcept { return s == message_slot; }
    std::string* text_at(sax_slot s) noexcept
    {
        switch (s) {
        case model_slot: return &model;
        case content_slot: return &content;
        case thinking_slot: return &thinking;
        case reason_slot: return &done_reason;
        default: return nullptr;
        }
    }
    bool count_at(sax_slot s, std::uint64_t v) noexcept
    {
        if (s == input_slot)
            input = v;
        else if (s == output_slot)
            output = v;
        return s == input_slot || s == output_slot;
    }
    bool bool_at(sax_slot s, bool v) noexcept
    {
        if (s == done_slot)
            done = v;
        return s == done_slot;
    }
    bool null_at(sax_slot s) const noexcept { return s == error_slot; }
};

} // namespace toolstream::detail
