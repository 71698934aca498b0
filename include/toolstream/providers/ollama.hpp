// Ollama native `/api/chat` streaming (NDJSON).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
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
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace toolstream {

/// The provider tag: Ollama `/api/chat` NDJSON streams.
struct ollama {};

/// Each NDJSON line is one `ChatResponse`, always choice 0.
///
/// - `message.content` is content, `message.thinking` reasoning.
/// - `message.tool_calls[]` arrive whole: each becomes one complete delta, numbered in order of
///   appearance over the stream (`function.index` is not sent consistently), with `id` when the
///   wire has one and `function.arguments` in compact JSON (`{}` when absent; a string, as some
///   proxies send, is kept as it is).
/// - `done: true` completes the chunk, with `done_reason` as the raw finish reason (normalised
///   in `finish`); `prompt_eval_count` / `eval_count` give the usage.
/// - `model`, repeated on every line, comes once, with the first chunk emitted (there is no id).
/// - An `{"error": "..."}` line sets `error`, with `finish` error.
template<>
struct provider_converter<ollama> : converter_defaults<provider_converter<ollama>> {
    static constexpr framing wire_framing = framing::ndjson;
    static constexpr std::string_view name = "ollama";

    /// A `done_reason` normalised: `stop` (also after tool calls) is stop, `length` is length.
    /// Any other (`load`, `unload`: no answer was generated) is error: an end not known to be a
    /// clean one never reads as one.
    static constexpr finish_kind normalise_finish(std::string_view done_reason) noexcept
    {
        return detail::finish_of({{"stop", finish_kind::stop}, {"length", finish_kind::length}}, done_reason,
                                 finish_kind::error);
    }

private:
    friend struct converter_defaults<provider_converter<ollama>>;
    friend struct detail::event_paths_access;

    template<class Emit>
    error_code convert_event(const wire_event& ev, Emit& emit)
    {
        if (detail::all_blank(ev.data))
            return {};   // blank line
        // A line of text or thinking is nearly every line of a stream: read it while parsing.
        if (sax_.parse(ev.name, ev.data) == detail::sax_outcome::done) {
            const auto& f = sax_.handler();
            builder_.begin();
            return finish_line({f.content, f.thinking, f.model, f.done_reason, f.done, f.input, f.output}, emit);
        }
        return convert_tree(ev, emit);
    }

    // What a line gives besides its error and tool calls, whichever path read it.
    struct line_values {
        std::string_view content, thinking, model, done_reason;
        bool done = false;
        std::optional<std::uint64_t> input, output;
    };

    // Every line the fast path did not take, from its DOM.
    template<class Emit>
    error_code convert_tree(const wire_event& ev, Emit& emit)
    {
        auto parsed = parser_.parse_object(ev.data);
        if (!parsed)
            return parsed.error();
        ev.release();   // the tree holds its own copies
        const auto& line = **parsed;
        auto& chunk = builder_.begin();

        if (const auto* err = line.if_contains("error"); err != nullptr && !err->is_null()) {
            const auto* obj = err->if_object();
            const auto message = obj != nullptr ? detail::string_field(*obj, "message") : std::string_view();
            if (err->is_string())
                chunk.error.assign(err->get_string());
            else if (!message.empty())
                chunk.error.assign(message);
            else
                detail::append_compact_json(chunk.error, *err);
            chunk.finish = finish_kind::error;
        }
        line_values v{{}, {}, detail::string_field(line, "model"), detail::string_field(line, "done_reason"),
                      detail::true_field(line, "done"), detail::count_field(line, "prompt_eval_count"),
                      detail::count_field(line, "eval_count")};
        if (const auto* message = detail::object_field(line, "message")) {
            v.content = detail::string_field(*message, "content");
            v.thinking = detail::string_field(*message, "thinking");
            convert_tool_calls(*message);
        }
        return finish_line(v, emit);
    }

    template<class Emit>
    error_code finish_line(const line_values& v, Emit& emit)
    {
        auto& chunk = builder_.chunk();
        chunk.content.assign(v.content);
        chunk.reasoning.assign(v.thinking);
        if (v.done) {
            chunk.is_complete = true;
            chunk.finish_reason.assign(v.done_reason);
            if (!chunk.finish_reason.empty())
                chunk.finish = normalise_finish(chunk.finish_reason);
        }
        if (v.input || v.output)
            chunk.usage = token_usage{v.input.value_or(0), v.output.value_or(0)};
        if (!identified_) {
            chunk.model.assign(v.model);
            identified_ = !chunk.model.empty();
        }
        if (!builder_.empty())
            emit(std::size_t{0}, std::move(chunk));   // begin() renews what the handler takes
        return {};
    }

    void convert_tool_calls(const boost::json::object& message)
    {
        const auto* calls = message.if_contains("tool_calls");
        if (calls == nullptr || !calls->is_array())
            return;
        for (const auto& c : calls->get_array()) {
            const auto* call = c.if_object();
            const auto* function = call != nullptr ? call->if_contains("function") : nullptr;
            if (function == nullptr || !function->is_object())
                continue;
            const auto& fn = function->get_object();
            auto& d = builder_.add_call(next_call_++);
            d.call_id.assign(detail::string_field(*call, "id"));
            d.name.assign(detail::string_field(fn, "name"));
            const auto* args = fn.if_contains("arguments");
            if (args == nullptr || args->is_null())
                d.arguments_delta.assign("{}");
            else if (args->is_string())
                d.arguments_delta.assign(args->get_string());
            else
                detail::append_compact_json(d.arguments_delta, *args);
            d.is_complete = true;
        }
    }

    detail::payload_parser parser_;
    detail::shaped_sax_parser<detail::ollama_line_fields> sax_;
    detail::chunk_builder builder_;
    std::size_t next_call_ = 0;
    bool identified_ = false;   // the model was emitted
};

static_assert(provider_traits<ollama>);

} // namespace toolstream
