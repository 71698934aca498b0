// Reading a Gemini `GenerateContentResponse` while it parses, into gemini_fields.hpp's fields,
// with no DOM. A call's `args` object is written as compact JSON from the parser's events, with
// compact_json.hpp's escaping, so the text is the DOM path's to the byte.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/providers/detail/gemini_args_writer.hpp>
#include <toolstream/providers/detail/gemini_fields.hpp>
#include <toolstream/types.hpp>

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// Reads a Gemini response while it parses: text parts, whole calls (`args` written by
/// gemini_args_writer), Vertex's `partialArgs` pieces, finish reasons, usage and identity. Falls
/// back to the DOM for: a payload that is not an object (Gemini's array of responses), a non-null
/// `error`, a candidate that is not an object, `args` that is not an object or null, a repeated
/// key (also inside `args`, where the DOM keeps one), what gemini_args_writer declines, and more
/// than `max_candidates` candidates, `max_parts` parts or `max_pieces` pieces in one event.
class gemini_event_sax : public event_sax<gemini_event_sax> {
    using base = event_sax<gemini_event_sax>;

public:
    static constexpr std::size_t max_candidates = 16;
    static constexpr std::size_t max_parts = 64;
    static constexpr std::size_t max_pieces = 256;

    enum place : sax_place {
        skip = sax_skip, root, response_id, model_version, error, usage, prompt_count, candidates_count,
        thoughts_count, candidates, candidate, candidate_index, finish_reason, content, parts, part, text,
        thought, function_call, name, id, args, will_continue, partial_args, arg_piece, piece_path,
        piece_string, piece_number, piece_bool, piece_null,
    };
    static constexpr sax_place root_place = root;

    /// Empties the fields for the next event, keeping every buffer. `payload_size`: the size of
    /// the event's payload.
    void reset(bool identified = false, std::size_t payload_size = 0) noexcept
    {
        identified_ = identified;
        args_room_ = payload_size >= large_buffer ? payload_size : 0;
        response_.clear();
        candidates_used_ = parts_used_ = pieces_used_ = 0;
        usage_object_ = false;
        counts_ = {};
        args_.reset();
    }

    const gemini_response_fields& response() noexcept
    {
        if (usage_object_ && (counts_[0] || counts_[1] || counts_[2]))
            response_.usage = token_usage{counts_[0].value_or(0), counts_[1].value_or(0) + counts_[2].value_or(0)};
        for (std::size_t i = 0; i < parts_used_; ++i)   // the pool no longer grows
            if (parts_[i].piece_count != 0)
                parts_[i].pieces = pieces_.data() + parts_[i].first_piece;
        return response_;
    }
    const gemini_candidate_fields* candidates_begin() const noexcept { return candidates_.data(); }
    const gemini_candidate_fields* candidates_end() const noexcept { return candidates_.data() + candidates_used_; }
    gemini_part_fields* part_pool() noexcept { return parts_.data(); }

    // Inside `args`, every event goes to the writer; elsewhere the base reads.
    bool on_object_begin(ec_type& ec)
    {
        return !args_.active() ? base::on_object_begin(ec) : args_.open(true) || fail(ec);
    }
    bool on_array_begin(ec_type& ec)
    {
        return !args_.active() ? base::on_array_begin(ec) : args_.open(false) || fail(ec);
    }
    bool on_object_end(std::size_t n, ec_type& ec)
    {
        return (args_.active() && !args_.close()) || base::on_object_end(n, ec);   // else `args` itself closed
    }
    bool on_array_end(std::size_t n, ec_type& ec)
    {
        return (args_.active() && !args_.close()) || base::on_array_end(n, ec);
    }
    bool on_key_part(std::string_view s, std::size_t n, ec_type& ec)
    {
        return !args_.active() ? base::on_key_part(s, n, ec) : (args_.key_part(s), true);
    }
    bool on_key(std::string_view s, std::size_t n, ec_type& ec)
    {
        return !args_.active() ? base::on_key(s, n, ec) : args_.key(s) || fail(ec);
    }
    bool on_string_part(std::string_view s, std::size_t n, ec_type& ec)
    {
        return !args_.active() ? base::on_string_part(s, n, ec) : (args_.string_part(s), true);
    }
    bool on_string(std::string_view s, std::size_t n, ec_type& ec)
    {
        return !args_.active() ? base::on_string(s, n, ec) : (args_.string(s), true);
    }
    bool on_int64(std::int64_t v, std::string_view s, ec_type& ec)
    {
        return !args_.active() ? base::on_int64(v, s, ec) : (args_.integer(v), true);
    }
    bool on_uint64(std::uint64_t v, std::string_view s, ec_type& ec)
    {
        return !args_.active() ? base::on_uint64(v, s, ec) : (args_.integer(v), true);
    }
    bool on_double(double v, std::string_view s, ec_type& ec)
    {
        return !args_.active() ? base::on_double(v, s, ec) : (args_.floating(v), true);
    }
    bool on_bool(bool v, ec_type& ec)
    {
        return !args_.active() ? base::on_bool(v, ec) : (args_.literal(v ? "true" : "false"), true);
    }
    bool on_null(ec_type& ec) { return !args_.active() ? base::on_null(ec) : (args_.literal("null"), true); }

    // The event_sax hooks.
    sax_place key(sax_place parent, std::string_view k) const noexcept
    {
        switch (parent) {
        case root:
            if (equals(k, "candidates")) return candidates;
            if (equals(k, "usageMetadata")) return usage;
            if (equals(k, "error")) return error;
            if (equals(k, "responseId")) return identified_ ? skip : response_id;
            if (equals(k, "modelVersion")) return identified_ ? skip : model_version;
            return skip;
        case usage:
            if (equals(k, "promptTokenCount")) return prompt_count;
            if (equals(k, "candidatesTokenCount")) return candidates_count;
            if (equals(k, "thoughtsTokenCount")) return thoughts_count;
            return skip;
        case candidate:
            if (equals(k, "content")) return content;
            if (equals(k, "finishReason")) return finish_reason;
            if (equals(k, "index")) return candidate_index;
            return skip;
        case content: return equals(k, "parts") ? parts : skip;
        case part:
            if (equals(k, "text")) return text;
            if (equals(k, "functionCall")) return function_call;
            if (equals(k, "thought")) return thought;
            return skip;
        case function_call:
            if (equals(k, "args")) return args;
            if (equals(k, "name")) return name;
            if (equals(k, "id")) return id;
            if (equals(k, "willContinue")) return will_continue;
            if (equals(k, "partialArgs")) return partial_args;
            return skip;
        case arg_piece:
            if (equals(k, "jsonPath")) return piece_path;
            if (equals(k, "stringValue")) return piece_string;
            if (equals(k, "numberValue")) return piece_number;
            if (equals(k, "boolValue")) return piece_bool;
            if (equals(k, "nullValue")) return piece_null;
            return skip;
        default: return skip;
        }
    }

    static sax_place element(sax_place array) noexcept
    {
        return array == candidates ? candidate : array == parts ? part : array == partial_args ? arg_piece : skip;
    }

    sax_open open(sax_place p, bool is_object)
    {
        switch (p) {
        case root: return is_object ? sax_open::enter : sax_open::fallback;
        case error: return sax_open::fallback;
        case candidates:
        case parts: return is_object ? sax_open::skip : sax_open::enter;
        case partial_args:
            if (is_object)
                return sax_open::skip;
            current_part().first_piece = pieces_used_;
            return sax_open::enter;
        case arg_piece:
            if (!is_object)
                return sax_open::skip;
            if (pieces_used_ == max_pieces)
                return sax_open::fallback;
            next_pooled(pieces_, pieces_used_);
            ++current_part().piece_count;
            return sax_open::enter;
        case piece_null:
            current_piece().has_null = true;   // any value is a JSON null here
            return sax_open::skip;
        case candidate:
            if (!is_object || candidates_used_ == max_candidates)
                return sax_open::fallback;
            next_pooled(candidates_, candidates_used_);
            current_candidate().position = candidates_used_ - 1;
            current_candidate().first_part = parts_used_;
            return sax_open::enter;
        case part:
            if (!is_object)
                return sax_open::skip;
            if (parts_used_ == max_parts)
                return sax_open::fallback;
            next_pooled(parts_, parts_used_);
            ++current_candidate().part_count;
            return sax_open::enter;
        case function_call:
            if (!is_object)
                return sax_open::skip;
            current_part().has_call = true;
            return sax_open::enter;
        case args:
            if (!is_object)
                return sax_open::fallback;
            current_part().has_args = true;
            if (args_room_ != 0) {
                // A large event's first `args`: room for all of it, so that a whole file's
                // arguments are written without growing (re-escaped, they are no longer than their
                // text here but for rare spellings of numbers). The converter gives back the rest.
                reserve_exactly(current_part().args, args_room_);
                args_room_ = 0;
            }
            args_.start(current_part().args);
            return sax_open::enter;
        case usage:
            usage_object_ = usage_object_ || is_object;
            return is_object ? sax_open::enter : sax_open::skip;
        case content: return is_object ? sax_open::enter : sax_open::skip;
        default: return sax_open::skip;
        }
    }

    static bool close(sax_place) noexcept { return true; }

    std::string* string_target(sax_place p) noexcept
    {
        switch (p) {
        case response_id: return &response_.response_id;
        case model_version: return &response_.model;
        case finish_reason: return &current_candidate().finish_reason;
        case text: current_part().has_text = true; return &current_part().text;
        case name: return &current_part().name;
        case id: return &current_part().id;
        case piece_path: return &current_piece().path;
        case piece_string: return &current_piece().string_value;
        default: return nullptr;
        }
    }

    bool string_end(sax_place p) noexcept
    {
        switch (p) {
        case root:
        case candidate:
        case error:
        case args: return false;
        case piece_path: current_piece().has_path = true; return true;
        case piece_string: current_piece().has_string = true; return true;
        case piece_null: current_piece().has_null = true; return true;
        default: return true;
        }
    }

    bool number(sax_place p, const sax_number& n)
    {
        switch (p) {
        case root:
        case candidate:
        case error:
        case args: return false;
        case piece_number: {
            auto& piece = current_piece();
            piece.has_number = true;
            write_number(piece.number_text, n);
            return true;
        }
        case piece_null: current_piece().has_null = true; return true;
        case candidate_index: current_candidate().index = n.count(); return true;
        case prompt_count: counts_[0] = n.count(); return true;
        case candidates_count: counts_[1] = n.count(); return true;
        case thoughts_count: counts_[2] = n.count(); return true;
        default: return true;
        }
    }

    bool literal(sax_place p, sax_literal l)
    {
        switch (p) {
        case root:
        case candidate: return false;
        case error:
        case args: return l == sax_literal::null;
        case piece_bool:
            if (l != sax_literal::null) {
                current_piece().has_bool = true;
                current_piece().boolean = l == sax_literal::true_;
            }
            return true;
        case piece_null: current_piece().has_null = true; return true;
        case thought: current_part().thought = l == sax_literal::true_; return true;
        case will_continue: current_part().will_continue = l == sax_literal::true_; return true;
        default: return true;
        }
    }

private:
    // A shape the fast path does not write: the DOM decides.
    bool fail(ec_type& ec)
    {
        args_.reset();
        return request_fallback(ec);
    }

    gemini_candidate_fields& current_candidate() noexcept { return candidates_[candidates_used_ - 1]; }
    gemini_part_fields& current_part() noexcept { return parts_[parts_used_ - 1]; }
    gemini_arg_piece& current_piece() noexcept { return pieces_[pieces_used_ - 1]; }

    static void write_number(std::string& out, const sax_number& n)
    {
        char buf[24];
        switch (n.type) {
        case sax_number::kind::int64: out.append(buf, std::to_chars(buf, buf + sizeof buf, n.i).ptr); break;
        case sax_number::kind::uint64: out.append(buf, std::to_chars(buf, buf + sizeof buf, n.u).ptr); break;
        case sax_number::kind::floating: append_js_number(out, n.d); break;
        }
    }

    gemini_response_fields response_;
    std::vector<gemini_candidate_fields> candidates_;
    std::vector<gemini_part_fields> parts_;
    std::size_t candidates_used_ = 0;
    std::size_t parts_used_ = 0;
    std::vector<gemini_arg_piece> pieces_;
    std::size_t pieces_used_ = 0;
    std::array<std::optional<std::uint64_t>, 3> counts_{};   // prompt, candidates, thoughts
    gemini_args_writer args_;   // active while `args` parses
    std::size_t args_room_ = 0;   // what the event's first `args` reserves
    bool identified_ = false;
    bool usage_object_ = false;
};

} // namespace toolstream::detail
