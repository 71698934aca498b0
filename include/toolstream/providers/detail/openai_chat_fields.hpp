// The fields of a Chat Completions chunk that the conversion rules read, and the tree-less reader
// that fills them while the event parses (the DOM fills them for the shapes it does not read).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/openai_tool_calls.hpp>
#include <toolstream/types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// The fields of one element of `choices`.
struct chat_choice_fields {
    std::size_t position = 0;             ///< its place in the `choices` array
    std::optional<std::uint64_t> index;   ///< `index`, when a count
    std::string content;                  ///< `delta.content`'s text, as the dialect reads it
    std::string content_reasoning;        ///< reasoning the dialect found inside `delta.content`
    std::string reasoning_content;        ///< `delta.reasoning_content`, when a string
    std::string reasoning;                ///< `delta.reasoning`, when a string
    std::string refusal;                  ///< `delta.refusal`, when a string
    std::string finish_reason;            ///< `finish_reason`, when a string
    std::size_t first_call = 0;           ///< fast path: its fragments in chat_event_sax::calls()
    std::size_t call_count = 0;

    void clear() noexcept
    {
        index.reset();
        content.clear();
        content_reasoning.clear();
        reasoning_content.clear();
        reasoning.clear();
        refusal.clear();
        finish_reason.clear();
        first_call = 0;
        call_count = 0;
    }
};

/// The response-level fields of one chunk.
struct chat_event_fields {
    std::string id;                     ///< `id`, when a string
    std::string model;                  ///< `model`, when a string
    std::string error;                  ///< the error it reports, as read_chat_error words it
    std::optional<token_usage> usage;   ///< as read_chat_usage reads it

    void clear() noexcept
    {
        id.clear();
        model.clear();
        error.clear();
        usage.reset();
    }
};

/// Reads a Chat Completions chunk while it parses: the response's id, model, usage and string
/// error, and per choice its index, finish reason, string deltas and tool-call fragments.
///
/// Falls back to the DOM for what is rare and needs more than a field: a payload that is not an
/// object, `choices` that is neither an array nor null, `content` that is an object or array
/// (Mistral's typed parts), `arguments` that is an object (serialized as compact JSON), an
/// `error` that is not a string or null, vLLM's `"object":"error"`, a repeated key, and more
/// than `max_choices` choices or `max_calls` fragments in one event (their fields would be
/// kept until the end of the event).
class chat_event_sax : public event_sax<chat_event_sax> {
public:
    static constexpr std::size_t max_choices = 16;
    static constexpr std::size_t max_calls = 64;

    enum place : sax_place {
        skip = sax_skip, root, id, model, object, error, choices, usage, x_groq, groq_usage,
        prompt_tokens, completion_tokens, groq_prompt_tokens, groq_completion_tokens,
        choice, choice_index, delta, finish_reason,
        content, reasoning_content, reasoning, refusal, tool_calls,
        call, call_index, call_id, function, name, arguments,
    };
    static constexpr sax_place root_place = root;

    /// Empties the fields for the next event (keeping every buffer). Once the response is
    /// `identified` (its id and model were emitted), they are no longer read. `payload_size`: the
    /// size of the event's payload.
    void reset(bool identified = false, std::size_t payload_size = 0) noexcept
    {
        identified_ = identified;
        arguments_room_ = payload_size >= large_buffer ? payload_size : 0;
        event_.clear();
        choices_used_ = 0;
        calls_used_ = 0;
        choice_positions_ = 0;
        call_positions_ = 0;
        usage_object_ = groq_usage_object_ = false;
        usage_counts_ = {};
        object_.clear();
    }

    /// The response-level fields read, once a parse is done.
    const chat_event_fields& event() noexcept
    {
        // `usage` when it is an object, else `x_groq.usage` (read_chat_usage's rule).
        const auto& u = usage_object_ ? usage_counts_[0] : usage_counts_[1];
        if ((usage_object_ || groq_usage_object_) && (u[0] || u[1]))
            event_.usage = token_usage{u[0].value_or(0), u[1].value_or(0)};
        return event_;
    }
    const chat_choice_fields* choices_begin() const noexcept { return choices_.data(); }
    const chat_choice_fields* choices_end() const noexcept { return choices_.data() + choices_used_; }
    tool_call_fields& call_at(std::size_t i) noexcept { return calls_[i]; }

    /// The strings a shape may vary (shaped_sax_parser): the arguments of one choice's one
    /// tool-call fragment, or its content or reasoning when it has no fragment; and the random
    /// padding OpenAI adds to each chunk, which no place reads.
    static constexpr std::array<std::string_view, 4> shape_keys = {"\"arguments\"", "\"content\"",
                                                                   "\"reasoning_content\"", "\"reasoning\""};
    static constexpr std::array<std::string_view, 1> ignored_keys = {"\"obfuscation\""};
    std::string* shape_field(std::size_t slot) noexcept
    {
        if (choices_used_ != 1 || choices_[0].call_count != (slot == 0 ? 1u : 0u))
            return nullptr;
        chat_choice_fields& c = choices_[0];
        switch (slot) {
        case 0: return &calls_[c.first_call].arguments;
        case 1: return &c.content;
        case 2: return &c.reasoning_content;
        default: return &c.reasoning;
        }
    }

    // The event_sax hooks.
    sax_place key(sax_place parent, std::string_view k) const noexcept
    {
        switch (parent) {
        case root:
            if (equals(k, "choices")) return choices;
            if (equals(k, "id")) return identified_ ? skip : id;
            if (equals(k, "model")) return identified_ ? skip : model;
            if (equals(k, "object")) return place::object;
            if (equals(k, "usage")) return usage;
            if (equals(k, "error")) return error;
            if (equals(k, "x_groq")) return x_groq;
            return skip;
        case choice:
            if (equals(k, "delta")) return delta;
            if (equals(k, "index")) return choice_index;
            if (equals(k, "finish_reason")) return finish_reason;
            return skip;
        case delta:
            if (equals(k, "tool_calls")) return tool_calls;
            if (equals(k, "content")) return content;
            if (equals(k, "reasoning_content")) return reasoning_content;
            if (equals(k, "reasoning")) return reasoning;
            if (equals(k, "refusal")) return refusal;
            return skip;
        case call:
            if (equals(k, "function")) return function;
            if (equals(k, "index")) return call_index;
            if (equals(k, "id")) return call_id;
            return skip;
        case function:
            if (equals(k, "arguments")) return arguments;
            if (equals(k, "name")) return name;
            return skip;
        case usage:
            return equals(k, "prompt_tokens") ? prompt_tokens : equals(k, "completion_tokens") ? completion_tokens : skip;
        case x_groq:
            return equals(k, "usage") ? groq_usage : skip;
        case groq_usage:
            return equals(k, "prompt_tokens") ? groq_prompt_tokens : equals(k, "completion_tokens") ? groq_completion_tokens : skip;
        default:
            return skip;
        }
    }

    static sax_place element(sax_place array) noexcept
    {
        return array == choices ? choice : array == tool_calls ? call : skip;
    }

    sax_open open(sax_place p, bool is_object)
    {
        switch (p) {
        case root:
            return is_object ? sax_open::enter : sax_open::fallback;
        case choices:
            return is_object ? sax_open::fallback : sax_open::enter;
        case tool_calls:
            call_positions_ = 0;
            return is_object ? sax_open::skip : sax_open::enter;
        case choice:
            if (!is_object || choices_used_ == max_choices)
                return element_done(p, is_object);
            next_pooled(choices_, choices_used_).position = choice_positions_++;
            return sax_open::enter;
        case call:
            if (!is_object || calls_used_ == max_calls)
                return element_done(p, is_object);
            next_pooled(calls_, calls_used_).position = call_positions_++;
            if (current_choice().call_count++ == 0)
                current_choice().first_call = calls_used_ - 1;
            return sax_open::enter;
        case usage:
            usage_object_ = usage_object_ || is_object;
            return is_object ? sax_open::enter : sax_open::skip;
        case groq_usage:
            groq_usage_object_ = groq_usage_object_ || is_object;
            return is_object ? sax_open::enter : sax_open::skip;
        case delta:
        case x_groq:
        case function:
            return is_object ? sax_open::enter : sax_open::skip;
        case content:
        case error:
            return sax_open::fallback;
        case arguments:
            return is_object ? sax_open::fallback : sax_open::skip;
        default:
            return sax_open::skip;
        }
    }

    static bool close(sax_place) noexcept { return true; }

    std::string* string_target(sax_place p)
    {
        switch (p) {
        case id: return &event_.id;
        case model: return &event_.model;
        case place::object: return &object_;
        case error: return &event_.error;
        case finish_reason: return &current_choice().finish_reason;
        case content: return &current_choice().content;
        case reasoning_content: return &current_choice().reasoning_content;
        case reasoning: return &current_choice().reasoning;
        case refusal: return &current_choice().refusal;
        case call_id: return &current_call().id;
        case name: return &current_call().name;
        case arguments: return &arguments_target();
        default: return nullptr;
        }
    }

    bool string_end(sax_place p) noexcept
    {
        switch (p) {
        case root:
        case choices:
            return false;   // not an object, or not an array: the DOM path says so
        case place::object:
            return object_ != "error";   // vLLM's error shape
        case choice:
        case call:
            return element_done(p, false) != sax_open::fallback;
        default:
            return true;
        }
    }

    bool number(sax_place p, const sax_number& n)
    {
        switch (p) {
        case root:
        case choices:
        case error:
            return false;
        case choice:
        case call:
            return element_done(p, false) != sax_open::fallback;
        case choice_index: current_choice().index = n.count(); return true;
        case call_index: current_call().index = n.count(); return true;
        case prompt_tokens: usage_counts_[0][0] = n.count(); return true;
        case completion_tokens: usage_counts_[0][1] = n.count(); return true;
        case groq_prompt_tokens: usage_counts_[1][0] = n.count(); return true;
        case groq_completion_tokens: usage_counts_[1][1] = n.count(); return true;
        default: return true;
        }
    }

    bool literal(sax_place p, sax_literal l)
    {
        switch (p) {
        case root:
            return false;
        case choices:
            return l == sax_literal::null;
        case error:
            return l == sax_literal::null;
        case choice:
        case call:
            return element_done(p, false) != sax_open::fallback;
        default:
            return true;
        }
    }

private:


    // An element of `choices` or `tool_calls` that is no object (or one past the fast path's
    // capacity) takes a position and is otherwise skipped.
    sax_open element_done(sax_place p, bool is_object)
    {
        if (p == choice && choices_used_ == max_choices && is_object)
            return sax_open::fallback;
        if (p == call && calls_used_ == max_calls && is_object)
            return sax_open::fallback;
        ++(p == choice ? choice_positions_ : call_positions_);
        return sax_open::skip;
    }

    // A large event's first `arguments`: room for all of it, so that a whole call's arguments
    // are decoded without growing (decoded, they are no longer than the payload). The converter
    // gives back the rest once the event is freed.
    std::string& arguments_target()
    {
        std::string& target = current_call().arguments;
        if (arguments_room_ != 0) {
            reserve_exactly(target, arguments_room_);
            arguments_room_ = 0;
        }
        return target;
    }

    chat_choice_fields& current_choice() noexcept { return choices_[choices_used_ - 1]; }
    tool_call_fields& current_call() noexcept { return calls_[calls_used_ - 1]; }

    chat_event_fields event_;
    std::vector<chat_choice_fields> choices_;   // the first choices_used_ are this event's
    std::vector<tool_call_fields> calls_;       // the first calls_used_ are this event's
    std::size_t choices_used_ = 0;
    std::size_t calls_used_ = 0;
    std::size_t choice_positions_ = 0;   // elements of `choices` seen
    std::size_t call_positions_ = 0;     // elements of the current `tool_calls` seen
    std::string object_;                 // the root's `object`
    // [usage, x_groq.usage][prompt, completion]
    std::array<std::array<std::optional<std::uint64_t>, 2>, 2> usage_counts_{};
    bool identified_ = false;   // the id and model are no longer needed
    std::size_t arguments_room_ = 0;   // what the event's first `arguments` string reserves
    bool usage_object_ = false;
    bool groq_usage_object_ = false;
};

} // namespace toolstream::detail
