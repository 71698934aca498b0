// The Chat Completions chunk conversion shared by the OpenAI-style dialects (openai_chat,
// mistral): choices, deltas, finish reasons, usage and in-stream errors.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/chunk_builder.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/event_template.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/providers/detail/openai_chat_fields.hpp>
#include <toolstream/providers/detail/openai_tool_calls.hpp>
#include <toolstream/providers/detail/payload_parser.hpp>
#include <toolstream/transport/wire_event.hpp>
#include <toolstream/types.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::detail {

/// True for data that is no chunk: the `[DONE]` sentinel, or the empty and whitespace-only
/// keep-alives some gateways send.
inline bool is_chat_sentinel(std::string_view data) noexcept
{
    constexpr std::string_view space = " \t\r\n";
    const std::size_t first = data.find_first_not_of(space);
    if (first == std::string_view::npos)
        return true;
    data = data.substr(first, data.find_last_not_of(space) - first + 1);
    return data == "[DONE]";
}

/// `usage` (or Groq's `x_groq.usage`) of a chunk, when it carries token counts.
inline std::optional<token_usage> read_chat_usage(const boost::json::object& root) noexcept
{
    const boost::json::value* usage = root.if_contains("usage");
    if (usage == nullptr || !usage->is_object()) {
        const boost::json::value* groq = root.if_contains("x_groq");
        usage = groq != nullptr && groq->is_object() ? groq->get_object().if_contains("usage") : nullptr;
    }
    if (usage == nullptr || !usage->is_object())
        return std::nullopt;
    const auto input = count_field(usage->get_object(), "prompt_tokens");
    const auto output = count_field(usage->get_object(), "completion_tokens");
    if (!input && !output)
        return std::nullopt;
    return token_usage{input.value_or(0), output.value_or(0)};
}

/// Writes into `out` the error a chunk reports, if any: OpenAI's `{"error":{...}}` (also
/// OpenRouter's, beside `finish_reason:"error"`) or vLLM's `{"object":"error","message":...}`.
/// An error without a message is reported as its JSON, which says more than a stock text.
inline void read_chat_error(const boost::json::value& payload, std::string& out)
{
    const boost::json::object& root = payload.get_object();
    const boost::json::value* source = root.if_contains("error");
    std::string_view message;
    if (source != nullptr && !source->is_null() && !(source->is_string() && source->get_string().empty())) {
        if (const auto* text = source->if_string())
            message = *text;
        else if (const auto* o = source->if_object())
            message = string_field(*o, "message");
    } else if (string_field(root, "object") == "error") {
        source = &payload;
        message = string_field(root, "message");
    } else {
        return;
    }
    if (message.empty())
        append_compact_json(out, *source);
    else
        out.assign(message);
}

/// Converts Chat Completions chunks into one `chunk_response` per choice touched.
///
/// Each event is read into plain fields (chat_event_fields, chat_choice_fields,
/// tool_call_fields) and converted from them by the one set of rules below. The usual shapes
/// are read while they parse (chat_event_sax, no DOM), and an event that repeats the last one
/// but for its text or arguments is not parsed at all (shaped_sax_parser); the rare shapes
/// chat_event_sax declines are parsed into a DOM and read from it.
///
/// The `delta.content` shape is the dialect's: `read_content(const boost::json::value&,
/// std::string& content, std::string& reasoning)` appends what a DOM content value holds
/// (OpenAI: a string; Mistral: typed parts); a string content never reaches it. So are the
/// finish reasons, which `normalise` maps. The response's `id` and `model`, repeated on every
/// chunk, are given once: on the first chunk emitted that can carry them. A chunk that reports
/// an error has `finish` error. A choice whose `index` is `max_choices` or more is skipped and
/// the event reports error::invalid_payload: each index costs a handler downstream.
class chat_stream {
public:
    /// OpenAI's own limit on `n`.
    static constexpr std::size_t max_choices = 128;

    explicit chat_stream(finish_kind (*normalise)(std::string_view) noexcept) noexcept : normalise_(normalise) {}

    /// error::out_of_memory when an allocation fails: the rest of the event is dropped, and
    /// later events still convert.
    template<class Emit, class ReadContent>
    error_code convert(const wire_event& ev, Emit& emit, ReadContent&& read_content)
    {
        return guard_allocation([&] { return convert_event(ev, emit, read_content); });
    }

    /// An event named `error` (llama.cpp's server ends a failed stream with `error: {"code",
    /// "message","type"}`): the response's error, in read_chat_error's words, else the object's
    /// `message`, else its data (at most 1 KiB). One that holds `choices` is a chunk like any.
    template<class Emit, class ReadContent>
    error_code convert_error_event(const wire_event& ev, Emit& emit, ReadContent&& read_content)
    {
        return guard_allocation([&] {
            const std::string_view data = ev.data;
            dom_event_.clear();
            auto parsed = parser_.parse(data);
            if (parsed && (*parsed)->is_object() && (*parsed)->get_object().contains("choices"))
                return convert_event(ev, emit, read_content);
            if (parsed && (*parsed)->is_object()) {
                read_chat_error(**parsed, dom_event_.error);
                if (dom_event_.error.empty())
                    dom_event_.error.assign(string_field((*parsed)->get_object(), "message"));
            }
            if (dom_event_.error.empty())
                dom_event_.error.assign(data.substr(0, 1024));
            if (dom_event_.error.empty())
                dom_event_.error.assign("the provider reported an error");
            return emit_event(dom_event_, emit, [](auto&&) {});
        });
    }

private:
    template<class Emit, class ReadContent>
    error_code convert_event(const wire_event& ev, Emit& emit, ReadContent& read_content)
    {
        if (is_chat_sentinel(ev.data))
            return {};
        switch (sax_.parse({}, ev.data, [&](chat_event_sax& f) { f.reset(identified_, ev.data.size()); })) {
        case sax_outcome::done: {
            ev.release();   // the fields hold their own copies
            chat_event_sax& sax = sax_.handler();
            return emit_event(sax.event(), emit, [&](auto&& visit) {
                for (const chat_choice_fields* c = sax.choices_begin(); c != sax.choices_end(); ++c)
                    visit(*c, [&](auto&& apply) {
                        for (std::size_t k = 0; k < c->call_count; ++k)
                            apply(sax.call_at(c->first_call + k));
                    });
            });
        }
        case sax_outcome::invalid:
            return error::invalid_payload;
        case sax_outcome::fallback:
            break;
        }
        return convert_dom(ev, emit, read_content);
    }

    // The shapes chat_event_sax declines, read from a DOM one choice and one fragment at a time.
    template<class Emit, class ReadContent>
    error_code convert_dom(const wire_event& ev, Emit& emit, ReadContent& read_content)
    {
        auto parsed = parser_.parse(ev.data);
        if (!parsed)
            return parsed.error();
        ev.release();   // the tree holds its own copies
        const boost::json::object* root = (*parsed)->if_object();
        if (root == nullptr)
            return error::invalid_payload;
        const boost::json::array* choices = nullptr;
        if (const auto* v = root->if_contains("choices"); v != nullptr && !v->is_null()) {
            choices = v->if_array();
            if (choices == nullptr)
                return error::invalid_payload;
        }
        dom_event_.clear();
        dom_event_.id.assign(string_field(*root, "id"));
        dom_event_.model.assign(string_field(*root, "model"));
        dom_event_.usage = read_chat_usage(*root);
        read_chat_error(**parsed, dom_event_.error);
        return emit_event(dom_event_, emit, [&](auto&& visit) {
            for (std::size_t i = 0; choices != nullptr && i < choices->size(); ++i)
                if (const boost::json::object* choice = (*choices)[i].if_object())
                    visit(read_dom_choice(*choice, i, read_content), [&](auto&& apply) {
                        const boost::json::object* delta = object_field(*choice, "delta");
                        const auto* tc = delta != nullptr ? delta->if_contains("tool_calls") : nullptr;
                        if (tc == nullptr || !tc->is_array())
                            return;
                        const boost::json::array& fragments = tc->get_array();
                        for (std::size_t k = 0; k < fragments.size(); ++k)
                            if (const auto* fragment = fragments[k].if_object()) {
                                dom_call_.read(*fragment, k);
                                apply(dom_call_);
                            }
                    });
        });
    }

    template<class ReadContent>
    const chat_choice_fields& read_dom_choice(const boost::json::object& choice, std::size_t position,
                                              ReadContent& read_content)
    {
        chat_choice_fields& c = dom_choice_;
        c.clear();
        c.position = position;
        c.index = count_field(choice, "index");
        c.finish_reason.assign(string_field(choice, "finish_reason"));
        // Azure content-filter chunks and finish-only chunks have no delta.
        if (const boost::json::object* delta = object_field(choice, "delta")) {
            if (const auto* content = delta->if_contains("content"))
                read_content(*content, c.content, c.content_reasoning);
            c.reasoning_content.assign(string_field(*delta, "reasoning_content"));
            c.reasoning.assign(string_field(*delta, "reasoning"));
            c.refusal.assign(string_field(*delta, "refusal"));
        }
        return c;
    }

    // The rules, whichever way the fields were read. `each_choice(visit)` calls
    // `visit(const chat_choice_fields&, each_call)` per choice object, in order, and
    // `each_call(apply)` calls `apply(tool_call_fields&)` per fragment object of that choice.
    template<class Emit, class EachChoice>
    error_code emit_event(const chat_event_fields& event, Emit& emit, EachChoice&& each_choice)
    {
        // Usage and errors belong to the response, not to a choice: they ride on choice 0.
        bool response_level_pending = true;
        const auto add_response_level = [&](chunk_response& chunk) {
            chunk.usage = event.usage;
            chunk.error.assign(event.error);
            if (!chunk.error.empty())
                chunk.finish = finish_kind::error;
            response_level_pending = false;
        };

        bool hostile = false;
        each_choice([&](const chat_choice_fields& choice, auto&& each_call) {
            const std::uint64_t index = choice.index.value_or(choice.position);
            if (index >= max_choices) {
                hostile = true;
                return;
            }
            chunk_response& chunk = builder_.begin();
            hostile = !read_choice(choice, chunk, calls_of(index), each_call) || hostile;
            if (index == 0 && response_level_pending)
                add_response_level(chunk);
            add_identity(event, chunk);
            if (!builder_.empty())
                emit(static_cast<std::size_t>(index), std::move(chunk));   // begin() renews what the handler takes
        });
        if (response_level_pending) {
            chunk_response& chunk = builder_.begin();
            add_response_level(chunk);
            add_identity(event, chunk);
            if (!builder_.empty())
                emit(std::size_t{0}, std::move(chunk));
        }
        return hostile ? error::invalid_payload : error_code{};
    }

    struct choice_state {
        std::size_t index = 0;
        openai_tool_calls calls;
    };

    // False when a tool-call fragment was dropped (openai_tool_calls::max_calls).
    template<class EachCall>
    bool read_choice(const chat_choice_fields& choice, chunk_response& chunk, openai_tool_calls& calls,
                     EachCall& each_call)
    {
        chunk.content.append(choice.content);
        chunk.reasoning.append(choice.content_reasoning);
        // Vendors name reasoning `reasoning_content` or `reasoning`; a server sending both
        // sends the same text, so the first non-empty one is taken.
        chunk.reasoning.append(choice.reasoning_content.empty() ? choice.reasoning : choice.reasoning_content);
        chunk.refusal.assign(choice.refusal);
        bool ok = true;
        each_call([&](tool_call_fields& fragment) { ok = calls.apply(fragment, builder_) && ok; });
        // Any finish reason ends the choice, and with it every call it opened: parallel calls
        // may interleave, so a call is never closed just because another one started.
        if (!choice.finish_reason.empty()) {
            chunk.finish_reason.assign(choice.finish_reason);
            chunk.finish = normalise_(choice.finish_reason);
            // The legacy `function_call` says the choice made a call: without one it is no clean end.
            if (chunk.finish == finish_kind::tool_calls && calls.empty() && choice.finish_reason == "function_call")
                chunk.finish = finish_kind::error;
            chunk.is_complete = true;
            calls.complete_all(builder_);
        }
        return ok;
    }

    // The first chunk that can carry the response's id and model gets them.
    void add_identity(const chat_event_fields& event, chunk_response& chunk)
    {
        if (identified_)
            return;
        chunk.response_id.assign(event.id);
        chunk.model.assign(event.model);
        identified_ = !chunk.response_id.empty() || !chunk.model.empty();
    }

    openai_tool_calls& calls_of(std::size_t choice)
    {
        if (last_choice_ < choices_.size() && choices_[last_choice_].index == choice)
            return choices_[last_choice_].calls;
        for (last_choice_ = 0; last_choice_ < choices_.size(); ++last_choice_)
            if (choices_[last_choice_].index == choice)
                return choices_[last_choice_].calls;
        choices_.push_back({choice, {}});
        return choices_.back().calls;
    }

    finish_kind (*normalise_)(std::string_view) noexcept;
    shaped_sax_parser<chat_event_sax> sax_;
    payload_parser parser_;
    chat_event_fields dom_event_;
    chat_choice_fields dom_choice_;
    tool_call_fields dom_call_;
    chunk_builder builder_;
    std::vector<choice_state> choices_;
    std::size_t last_choice_ = 0;
    bool identified_ = false;   // the response's id and model were emitted
};

} // namespace toolstream::detail
