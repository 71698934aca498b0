// Google Gemini `streamGenerateContent?alt=sse` (Gemini API and Vertex AI).
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/error.hpp>
#include <toolstream/providers/detail/chunk_builder.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/gemini_event_sax.hpp>
#include <toolstream/providers/detail/gemini_fields.hpp>
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

    // The usual shapes are read while they parse (gemini_event_sax, no DOM); the rest, from a DOM.
    // Both fill the same fields, which one set of rules converts.
    template<class Emit>
    error_code convert_event(const wire_event& ev, Emit& emit)
    {
        if (detail::all_blank(ev.data))
            return {};   // keep-alive
        auto& sax = sax_.handler();
        sax.reset(identified_, ev.data.size());
        switch (sax_.parse(ev.data)) {
        case detail::sax_outcome::done: {
            ev.release();   // the fields hold their own copies
            const auto& r = sax.response();
            return convert_fields(r.response_id, r.model, r.usage, sax.candidates_begin(), sax.candidates_end(),
                                  sax.part_pool(), emit)
                ? error_code{}
                : error::invalid_payload;
        }
        case detail::sax_outcome::invalid:
            return error::invalid_payload;
        case detail::sax_outcome::fallback:
            break;
        }
        auto parsed = parser_.parse(ev.data);
        if (!parsed)
            return parsed.error();
        ev.release();   // the tree holds its own copies
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

    // A response from its DOM: its error here, its candidates through the fields' rules.
    template<class Emit>
    bool convert_response(const boost::json::object& response, Emit& emit)
    {
        std::optional<token_usage> usage = read_usage(response);
        const std::string_view response_id = detail::string_field(response, "responseId");
        const std::string_view model = detail::string_field(response, "modelVersion");
        if (const auto* err = response.if_contains("error"); err != nullptr && !err->is_null()) {
            set_error(builder_.begin().error, *err);
            builder_.chunk().finish = finish_kind::error;
            builder_.chunk().usage = usage;
            usage.reset();
            add_identity(response_id, model);
            emit(std::size_t{0}, builder_.chunk());
        }
        dom_.read(response);
        return convert_fields(response_id, model, usage, dom_.candidates_begin(), dom_.candidates_end(),
                              dom_.part_pool(), emit);
    }

    // False when a candidate was skipped for an `index` of max_candidates or more.
    template<class Emit>
    bool convert_fields(std::string_view response_id, std::string_view model, std::optional<token_usage> usage,
                        const detail::gemini_candidate_fields* begin, const detail::gemini_candidate_fields* end,
                        detail::gemini_part_fields* parts, Emit& emit)
    {
        bool ok = true;
        for (const auto* c = begin; c != end; ++c) {
            const std::uint64_t choice = c->index.value_or(c->position);
            if (choice >= max_candidates) {
                ok = false;
                continue;
            }
            builder_.begin();
            convert_candidate(*c, parts + c->first_part, state_for(choice));
            builder_.chunk().usage = usage;   // reported once, with the first candidate
            usage.reset();
            add_identity(response_id, model);
            if (!builder_.empty())
                emit(choice, std::move(builder_.chunk()));   // begin() renews what the handler takes
        }
        if (usage) {
            builder_.begin().usage = usage;
            add_identity(response_id, model);
            emit(std::size_t{0}, builder_.chunk());
        }
        return ok;
    }

    void convert_candidate(const detail::gemini_candidate_fields& candidate, detail::gemini_part_fields* parts,
                           choice_state& st)
    {
        auto& chunk = builder_.chunk();
        for (std::size_t k = 0; k < candidate.part_count; ++k) {
            auto& part = parts[k];
            if (part.has_text)
                (part.thought ? chunk.reasoning : chunk.content).append(part.text);
            if (part.has_call)
                on_function_call(part, st);
        }
        if (!candidate.finish_reason.empty()) {
            if (st.streaming)
                complete(st);
            chunk.finish_reason.assign(candidate.finish_reason);
            chunk.finish = normalise_finish(chunk.finish_reason);
            chunk.is_complete = true;
        }
    }

    void on_function_call(detail::gemini_part_fields& call, choice_state& st)
    {
        // A name or whole args start a call. An id alone does not: should continuation parts
        // ever repeat their call's id, they must not split it.
        if (!call.name.empty() || call.has_args) {
            if (st.streaming)
                complete(st);   // its terminator never came
            auto& d = builder_.add_call(st.next_call++);
            d.name.assign(call.name);
            d.call_id.assign(call.id);
            if (call.has_args) {
                if (d.arguments_delta.empty()) {
                    detail::shrink_to_size(call.args);   // the event's bytes are freed by now
                    d.arguments_delta.swap(call.args);   // no copy of a whole call's arguments
                } else {
                    d.arguments_delta.append(call.args);
                }
                d.is_complete = true;
                return;
            }
            st.streaming = true;
            st.open_call = d.index;
        } else if (st.streaming && !call.id.empty()) {
            open_delta(st).call_id.assign(call.id);
        }
        if (!st.streaming)
            return;   // a terminator or stray piece with no open call
        if (call.partial_args != nullptr) {
            scratch_.clear();
            for (const auto& piece : *call.partial_args)
                if (piece.is_object())
                    st.args.add(piece.get_object(), scratch_);
            if (!scratch_.empty())
                open_delta(st).arguments_delta.append(scratch_);
        } else if (call.piece_count != 0) {
            scratch_.clear();
            for (std::size_t k = 0; k < call.piece_count; ++k)
                add_piece(st.args, call.pieces[k]);
            if (!scratch_.empty())
                open_delta(st).arguments_delta.append(scratch_);
        }
        if (!call.will_continue)
            complete(st);
    }

    /// One `partialArgs` element read by the fast path, taken as gemini_partial_args::add takes
    /// the DOM's (stringValue, else numberValue, else boolValue, else nullValue).
    void add_piece(detail::gemini_partial_args& args, const detail::gemini_arg_piece& p)
    {
        if (!p.has_path || !(p.has_string || p.has_number || p.has_bool || p.has_null))
            return;
        args.add_leaf(p.path, p.string_value, p.has_string,
                      [&p](std::string& o) {
                          if (p.has_number)
                              o += p.number_text;
                          else if (p.has_bool)
                              o += p.boolean ? "true" : "false";
                          else
                              o += "null";
                      },
                      scratch_);
    }

    /// Puts the response's id and model on the current chunk, if no chunk had them yet.
    void add_identity(std::string_view response_id, std::string_view model)
    {
        if (identified_)
            return;
        auto& chunk = builder_.chunk();
        chunk.response_id.assign(response_id);
        chunk.model.assign(model);
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

    detail::event_sax_parser<detail::gemini_event_sax> sax_;
    detail::payload_parser parser_;
    detail::gemini_dom_fields dom_;
    detail::chunk_builder builder_;
    std::vector<choice_state> choices_;
    std::string scratch_;   // text of one part's pieces, appended only when non-empty
    bool identified_ = false;   // the response's id and model were emitted
};

static_assert(provider_traits<gemini>);

} // namespace toolstream
