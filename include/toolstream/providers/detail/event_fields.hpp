// The fields the anthropic, openai_responses and ollama converters read while parsing their most
// frequent events (event_sax.hpp): each converter's fast path, whose rules live in the converter.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/providers/detail/event_sax.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Declared only: a test defines it to run a converter's DOM path (`convert_tree`) and its fast
/// parse (`sax_`) apart, and so to compare the two. Converters with a fast path befriend it.
struct event_paths_access;

/// Hooks shared by the dialects below: objects are entered only where named, everything else at
/// a named place that its dialect does not accept sends the event to the DOM.
template<class Dialect>
struct event_fields_base : event_sax<Dialect> {
    static constexpr sax_place root_place = 1;

    sax_place element(sax_place) const noexcept { return sax_skip; }
    bool close(sax_place) const noexcept { return true; }
    bool literal(sax_place, sax_literal) const noexcept { return false; }
    sax_open open(sax_place p, bool is_object) noexcept
    {
        return is_object && static_cast<Dialect&>(*this).is_object_place(p) ? sax_open::enter : sax_open::fallback;
    }
    std::string* string_target(sax_place p) noexcept { return static_cast<Dialect&>(*this).text_at(p); }
    bool string_end(sax_place p) noexcept { return static_cast<Dialect&>(*this).text_at(p) != nullptr; }
    // A count under count_field's rule; any other number where a count belongs takes the DOM path.
    bool number(sax_place p, const sax_number& n) noexcept
    {
        const auto v = n.count();
        return v && static_cast<Dialect&>(*this).count_at(p, *v);
    }
};

/// Anthropic `content_block_delta` / `content_block_stop`: `type`, `index`, and the delta's
/// `type`, `text`, `thinking` and `partial_json`.
struct anthropic_block_fields : event_fields_base<anthropic_block_fields> {
    static constexpr sax_place type_slot = 2, index_slot = 3, delta_slot = 4, delta_type_slot = 5, text_slot = 6,
                               thinking_slot = 7, json_slot = 8;

    std::string type, delta_type, text, thinking, partial_json;
    std::optional<std::uint64_t> index;
    bool has_delta = false;   // `delta` is an object

    /// The strings a shape may vary (shaped_sax_parser).
    static constexpr std::array<std::string_view, 3> shape_keys = {"\"partial_json\"", "\"text\"", "\"thinking\""};
    static constexpr std::array<std::string_view, 0> ignored_keys = {};
    std::string* shape_field(std::size_t slot) noexcept { return slot == 0 ? &partial_json : slot == 1 ? &text : &thinking; }

    void begin() noexcept
    {
        for (std::string* s : {&type, &delta_type, &text, &thinking, &partial_json})
            s->clear();
        index.reset();
        has_delta = false;
        event_sax::begin();
    }
    sax_place key(sax_place parent, std::string_view key) const noexcept
    {
        if (parent == root_place)
            return equals(key, "type") ? type_slot : equals(key, "index") ? index_slot : equals(key, "delta") ? delta_slot : sax_skip;
        return equals(key, "type") ? delta_type_slot : equals(key, "text") ? text_slot : equals(key, "thinking") ? thinking_slot
               : equals(key, "partial_json") ? json_slot : sax_skip;
    }
    bool is_object_place(sax_place p) noexcept
    {
        has_delta = has_delta || p == delta_slot;
        return p == root_place || p == delta_slot;
    }
    std::string* text_at(sax_place p) noexcept
    {
        switch (p) {
        case type_slot: return &type;
        case delta_type_slot: return &delta_type;
        case text_slot: return &text;
        case thinking_slot: return &thinking;
        case json_slot: return &partial_json;
        default: return nullptr;
        }
    }
    bool count_at(sax_place p, std::uint64_t v) noexcept
    {
        if (p == index_slot)
            index = v;
        return p == index_slot;
    }
};

/// OpenAI Responses events that carry one `delta`: `type`, `output_index`, `item_id`, `call_id`
/// and `delta`. An event with a `response` member takes the DOM path, which announces it.
struct responses_delta_fields : event_fields_base<responses_delta_fields> {
    static constexpr sax_place type_slot = 2, index_slot = 3, item_slot = 4, call_slot = 5, delta_slot = 6,
                               response_slot = 7;

    std::string type, item_id, call_id, delta;
    std::optional<std::uint64_t> output_index;

    /// The string a shape may vary (shaped_sax_parser), and the values it skips that change.
    static constexpr std::array<std::string_view, 1> shape_keys = {"\"delta\""};
    static constexpr std::array<std::string_view, 2> ignored_keys = {"\"sequence_number\"", "\"obfuscation\""};
    std::string* shape_field(std::size_t) noexcept { return &delta; }

    void begin() noexcept
    {
        for (std::string* s : {&type, &item_id, &call_id, &delta})
            s->clear();
        output_index.reset();
        event_sax::begin();
    }
    sax_place key(sax_place, std::string_view key) const noexcept   // only the root is entered
    {
        return equals(key, "type") ? type_slot : equals(key, "output_index") ? index_slot : equals(key, "item_id") ? item_slot
               : equals(key, "call_id") ? call_slot : equals(key, "delta") ? delta_slot : equals(key, "response") ? response_slot
               : sax_skip;
    }
    bool is_object_place(sax_place p) const noexcept { return p == root_place; }
    std::string* text_at(sax_place p) noexcept
    {
        switch (p) {
        case type_slot: return &type;
        case item_slot: return &item_id;
        case call_slot: return &call_id;
        case delta_slot: return &delta;
        default: return nullptr;
        }
    }
    bool count_at(sax_place p, std::uint64_t v) noexcept
    {
        if (p == index_slot)
            output_index = v;
        return p == index_slot;
    }
};

/// An Ollama `/api/chat` line without tool calls or an error: `model`, `message.content`,
/// `message.thinking`, `done`, `done_reason`, `prompt_eval_count`, `eval_count`. A null
/// `error` is no error; `tool_calls` and any other `error` take the DOM path.
struct ollama_line_fields : event_fields_base<ollama_line_fields> {
    static constexpr sax_place model_slot = 2, message_slot = 3, content_slot = 4, thinking_slot = 5, done_slot = 6,
                               reason_slot = 7, input_slot = 8, output_slot = 9, error_slot = 10, calls_slot = 11;

    std::string model, content, thinking, done_reason;
    std::optional<std::uint64_t> input, output;
    bool done = false;

    /// The strings a shape may vary (shaped_sax_parser), and the value it skips that changes.
    static constexpr std::array<std::string_view, 2> shape_keys = {"\"content\"", "\"thinking\""};
    static constexpr std::array<std::string_view, 1> ignored_keys = {"\"created_at\""};
    std::string* shape_field(std::size_t slot) noexcept { return slot == 0 ? &content : &thinking; }

    void begin() noexcept
    {
        for (std::string* s : {&model, &content, &thinking, &done_reason})
            s->clear();
        input.reset();
        output.reset();
        done = false;
        event_sax::begin();
    }
    sax_place key(sax_place parent, std::string_view key) const noexcept
    {
        if (parent == message_slot)
            return equals(key, "content") ? content_slot : equals(key, "thinking") ? thinking_slot
                   : equals(key, "tool_calls") ? calls_slot : sax_skip;
        return equals(key, "model") ? model_slot : equals(key, "message") ? message_slot : equals(key, "done") ? done_slot
               : equals(key, "done_reason") ? reason_slot : equals(key, "prompt_eval_count") ? input_slot
               : equals(key, "eval_count") ? output_slot : equals(key, "error") ? error_slot : sax_skip;
    }
    bool is_object_place(sax_place p) const noexcept { return p == root_place || p == message_slot; }
    std::string* text_at(sax_place p) noexcept
    {
        switch (p) {
        case model_slot: return &model;
        case content_slot: return &content;
        case thinking_slot: return &thinking;
        case reason_slot: return &done_reason;
        default: return nullptr;
        }
    }
    bool count_at(sax_place p, std::uint64_t v) noexcept
    {
        if (p == input_slot)
            input = v;
        else if (p == output_slot)
            output = v;
        return p == input_slot || p == output_slot;
    }
    bool literal(sax_place p, sax_literal l) noexcept
    {
        if (p == done_slot && l != sax_literal::null)
            done = l == sax_literal::true_;
        return (p == done_slot && l != sax_literal::null) || (p == error_slot && l == sax_literal::null);
    }
};

} // namespace toolstream::detail
