// Google Gemini `streamGenerateContent?alt=sse` (Gemini API and Vertex AI).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/chunk_builder.hpp>
#include <toolstream/providers/detail/gemini_partial_args.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/providers/detail/payload_parser.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/types.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream {

/// The provider tag: Gemini and Vertex AI `streamGenerateContent` streams.
struct gemini {};

/// Each SSE event is one `GenerateContentResponse`; `candidates[i]` becomes choice i (its
/// `index`, else its position).
///
/// - `text` parts are content, or reasoning when `thought: true`; thought signatures are ignored.
/// - A `functionCall` with `args` (or with neither `args` nor `willContinue`) is a whole call:
///   one complete delta, arguments in compact JSON (`{}` when absent), `id` when the wire has one.
/// - Vertex streamed arguments: a `functionCall {name, willContinue: true}` opens a call, and the
///   `partialArgs` of the following parts become argument text (gemini_partial_args). The call
///   completes at a part without `willContinue` (such as the `{functionCall: {}}` terminator), at
///   the next call's start, or at `finishReason`. Continuation parts carry no id: they belong to
///   the call most recently opened in their candidate. One left open when the input ends gets
///   its closing text from finish(), but not `is_complete`: the provider never said it was done.
/// - Calls are numbered per choice in order of appearance.
/// - `finishReason` is the raw finish reason (normalised in `finish`) and completes the chunk.
///   `usageMetadata` (cumulative) gives input = `promptTokenCount`, output =
///   `candidatesTokenCount + thoughtsTokenCount`.
/// - `responseId` and `modelVersion`, repeated on every response, come once, with the first
///   chunk emitted.
/// - An `{"error": {"message": ...}}` body, alone or in a JSON array as Gemini sends it outside
///   SSE framing, sets `error` on choice 0, with `finish` error.
template<>
struct provider_converter<gemini> : converter_defaults<provider_converter<gemini>> {
    static constexpr framing wire_framing = framing::sse;
    static constexpr std::string_view name = "gemini";

    /// A `finishReason` normalised: `STOP` is stop (also after function calls: Gemini has no
    /// reason of its own for them); `MAX_TOKENS` is length; `SAFETY`, `RECITATION`, `BLOCKLIST`,
    /// `PROHIBITED_CONTENT`, `SPII` and the `IMAGE_` ones of these are content_filter; every other
    /// (`MALFORMED_FUNCTION_CALL`, `OTHER`, `LANGUAGE`, `UNEXPECTED_TOOL_CALL`, unknown) is error.
    static constexpr finish_kind normalise_finish(std::string_view reason) noexcept
    {
        if (reason == "STOP")
            return finish_kind::stop;
        if (reason == "MAX_TOKENS")
            return finish_kind::length;
        if (reason.starts_with("IMAGE_"))
            reason.remove_prefix(6);
        for (const std::string_view filtered : {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"})
            if (reason == filtered)
                return finish_kind::content_filter;
        return finish_kind::error;
    }
    /// Candidates per response beyond which an `index` is taken as hostile (each costs a
    /// handler downstream); such a candidate is skipped with error::invalid_payload.
    static constexpr std::size_t max_candidates = 128;

    /// Gives each call still streaming its closing text (never `is_complete`). Should memory run
    /// out, that text is dropped: such a call ends incomplete either way.
    template<chunk_consumer Emit>
    void finish(Emit& emit)
    {
        (void)detail::guard_allocation([&] {
            for (auto& st : choices_) {
                if (!st.streaming)
                    continue;
                st.streaming = false;
                builder_.begin();
                st.args.close(open_delta(st).arguments_delta);
                emit(st.choice, builder_.chunk());
            }
            return error_code();
        });
        choices_.clear();
    }

private:
    friend struct converter_defaults<provider_converter<gemini>>;

    template<class Emit>
    error_code convert_event(const wire_event& ev, Emit& emit)
    {
        if (detail::all_blank(ev.data))
            return {};   // keep-alive
        auto parsed = parser_.parse(ev.data);
        if (!parsed)
            return parsed.error();
        const boost::json::value& root = **parsed;
        if (const auto* responses = root.if_array()) {
            for (const auto& r : *responses)
                if (!r.is_object())
                    return error::invalid_payload;
            bool ok = true;
            for (const auto& r : *responses)
                ok = convert_response(r.get_object(), emit) && ok;
            return ok ? error_code{} : error::invalid_payload;
        }
        if (!root.is_object())
            return error::invalid_payload;
        return convert_response(root.get_object(), emit) ? error_code{} : error::invalid_payload;
    }

    struct choice_state {
        std::size_t choice = 0;
        std::size_t next_call = 0;   // index of the next call in this choice
        bool streaming = false;      // a call with streamed arguments is open
        std::size_t open_call = 0;   // its index
        detail::gemini_partial_args args;
    };

    // False when a candidate was skipped for an `index` of max_candidates or more.
    template<class Emit>
    bool convert_response(const boost::json::object& response, Emit& emit)
    {
        bool ok = true;
        std::optional<token_usage> usage = read_usage(response);
        if (const auto* err = response.if_contains("error"); err != nullptr && !err->is_null()) {
            set_error(builder_.begin().error, *err);
            builder_.chunk().finish = finish_kind::error;
            builder_.chunk().usage = usage;
            usage.reset();
            add_identity(response);
            emit(std::size_t{0}, builder_.chunk());
        }
        if (const auto* candidates = response.if_contains("candidates"); candidates != nullptr && candidates->is_array()) {
            std::size_t position = 0;
            for (const auto& c : candidates->get_array()) {
                const std::size_t at = position++;
                const auto* candidate = c.if_object();
                if (candidate == nullptr)
                    continue;
                const std::uint64_t choice = detail::count_field(*candidate, "index").value_or(at);
                if (choice >= max_candidates) {
                    ok = false;
                    continue;
                }
                builder_.begin();
                convert_candidate(*candidate, state_for(choice));
                builder_.chunk().usage = usage;   // reported once, with the first candidate
                usage.reset();
                add_identity(response);
                if (!builder_.empty())
                    emit(choice, builder_.chunk());
            }
        }
        if (usage) {
            builder_.begin().usage = usage;
            add_identity(response);
            emit(std::size_t{0}, builder_.chunk());
        }
        return ok;
    }

    void convert_candidate(const boost::json::object& candidate, choice_state& st)
    {
        auto& chunk = builder_.chunk();
        const auto* content = candidate.if_contains("content");
        const auto* parts = content != nullptr && content->is_object() ? content->get_object().if_contains("parts") : nullptr;
        if (parts != nullptr && parts->is_array()) {
            for (const auto& p : parts->get_array()) {
                if (!p.is_object())
                    continue;
                const auto& part = p.get_object();
                if (const auto* text = part.if_contains("text"); text != nullptr && text->is_string())
                    (detail::true_field(part, "thought") ? chunk.reasoning : chunk.content).append(text->get_string());
                if (const auto* call = part.if_contains("functionCall"); call != nullptr && call->is_object())
                    on_function_call(call->get_object(), st);
            }
        }
        if (const auto* reason = candidate.if_contains("finishReason"); reason != nullptr && reason->is_string()
            && !reason->get_string().empty()) {
            if (st.streaming)
                complete(st);
            chunk.finish_reason.assign(reason->get_string());
            chunk.finish = normalise_finish(chunk.finish_reason);
            chunk.is_complete = true;
        }
    }

    void on_function_call(const boost::json::object& call, choice_state& st)
    {
        const std::string_view call_name = detail::string_field(call, "name");
        const std::string_view call_id = detail::string_field(call, "id");
        const auto* args = call.if_contains("args");
        if (args != nullptr && args->is_null())
            args = nullptr;
        const bool continues = detail::true_field(call, "willContinue");

        // A name or whole args start a call. An id alone does not: should continuation parts
        // ever repeat their call's id, they must not split it.
        if (!call_name.empty() || args != nullptr) {
            if (st.streaming)
                complete(st);   // its terminator never came
            auto& d = builder_.add_call(st.next_call++);
            d.name.assign(call_name);
            d.call_id.assign(call_id);
            if (args != nullptr) {
                detail::append_compact_json(d.arguments_delta, *args);
                d.is_complete = true;
                return;
            }
            st.streaming = true;
            st.open_call = d.index;
        } else if (st.streaming && !call_id.empty()) {
            open_delta(st).call_id.assign(call_id);
        }
        if (!st.streaming)
            return;   // a terminator or stray piece with no open call
        if (const auto* pieces = call.if_contains("partialArgs"); pieces != nullptr && pieces->is_array()) {
            scratch_.clear();
            for (const auto& piece : pieces->get_array())
                if (piece.is_object())
                    st.args.add(piece.get_object(), scratch_);
            if (!scratch_.empty())
                open_delta(st).arguments_delta.append(scratch_);
        }
        if (!continues)
            complete(st);
    }

    /// Puts the response's id and model on the current chunk, if no chunk had them yet.
    void add_identity(const boost::json::object& response)
    {
        if (identified_)
            return;
        auto& chunk = builder_.chunk();
        chunk.response_id.assign(detail::string_field(response, "responseId"));
        chunk.model.assign(detail::string_field(response, "modelVersion"));
        identified_ = !chunk.response_id.empty() || !chunk.model.empty();
    }

    /// Closes the open call's text and marks it complete.
    void complete(choice_state& st)
    {
        auto& d = open_delta(st);
        st.args.close(d.arguments_delta);
        d.is_complete = true;
        st.streaming = false;
    }

    /// The current chunk's delta for the open call, added on first use.
    tool_call_delta& open_delta(const choice_state& st)
    {
        auto& calls = builder_.chunk().tool_calls;
        if (!calls.empty() && calls.back().index == st.open_call && !calls.back().is_complete)
            return calls.back();
        return builder_.add_call(st.open_call);
    }

    choice_state& state_for(std::size_t choice)
    {
        for (auto& st : choices_)
            if (st.choice == choice)
                return st;
        auto& st = choices_.emplace_back();
        st.choice = choice;
        return st;
    }

    /// Token counts of `usageMetadata`, when it has any (Vertex also sends count-less ones).
    static std::optional<token_usage> read_usage(const boost::json::object& response)
    {
        const auto* meta = response.if_contains("usageMetadata");
        if (meta == nullptr || !meta->is_object())
            return std::nullopt;
        const auto& m = meta->get_object();
        const auto prompt = detail::count_field(m, "promptTokenCount");
        const auto candidates = detail::count_field(m, "candidatesTokenCount");
        const auto thoughts = detail::count_field(m, "thoughtsTokenCount");
        if (!prompt && !candidates && !thoughts)
            return std::nullopt;
        return token_usage{prompt.value_or(0), candidates.value_or(0) + thoughts.value_or(0)};
    }

    /// Google's `{code, message, status}`; a bare string or other shape is kept as text.
    static void set_error(std::string& out, const boost::json::value& err)
    {
        if (err.is_string()) {
            out.assign(err.get_string());
            return;
        }
        if (const auto* obj = err.if_object()) {
            if (const auto message = detail::string_field(*obj, "message"); !message.empty()) {
                out.assign(message);
                return;
            }
        }
        detail::append_compact_json(out, err);
    }

    detail::payload_parser parser_;
    detail::chunk_builder builder_;
    std::vector<choice_state> choices_;
    std::string scratch_;   // text of one part's pieces, appended only when non-empty
    bool identified_ = false;   // the response's id and model were emitted
};

static_assert(provider_traits<gemini>);

} // namespace toolstream
