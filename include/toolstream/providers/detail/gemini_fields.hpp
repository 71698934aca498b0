// The fields of a Gemini `GenerateContentResponse` that the conversion rules read, and the
// tree-less reader that fills them while the event parses (the DOM fills them for the shapes it
// does not read). A call's `args` object is written as compact JSON while it parses.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
#include <toolstream/types.hpp>

#include <boost/json/array.hpp>

#include <array>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {

/// One element of `partialArgs`, as gemini_event_sax reads it (the DOM path reads the elements
/// in place): the value gemini_partial_args::add would take, stringValue first.
struct gemini_arg_piece {
    bool has_path = false;   ///< `jsonPath` is a string
    bool has_string = false, has_number = false, has_bool = false, has_null = false;
    bool boolean = false;
    std::string path;
    std::string string_value;
    std::string number_text;   ///< `numberValue` as append_json_number writes it

    void clear() noexcept
    {
        has_path = has_string = has_number = has_bool = has_null = boolean = false;
        path.clear();
        string_value.clear();
        number_text.clear();
    }
};

/// The fields of one element of `content.parts`.
struct gemini_part_fields {
    bool has_text = false;          ///< `text` is a string
    bool thought = false;           ///< `thought` is true
    bool has_call = false;          ///< `functionCall` is an object
    bool has_args = false;          ///< `functionCall.args` is present and not null
    bool will_continue = false;     ///< `functionCall.willContinue` is true
    std::string text;
    std::string name;               ///< `functionCall.name`, when a string
    std::string id;                 ///< `functionCall.id`, when a string
    std::string args;               ///< `functionCall.args` as compact JSON
    const boost::json::array* partial_args = nullptr;   ///< DOM path: `partialArgs`
    const gemini_arg_piece* pieces = nullptr;           ///< fast path: its elements
    std::size_t first_piece = 0;
    std::size_t piece_count = 0;

    void clear() noexcept
    {
        has_text = thought = has_call = has_args = will_continue = false;
        text.clear();
        name.clear();
        id.clear();
        args.clear();
        partial_args = nullptr;
        pieces = nullptr;
        first_piece = piece_count = 0;
    }
};

/// The fields of one element of `candidates` (an object).
struct gemini_candidate_fields {
    std::size_t position = 0;             ///< its place in `candidates`
    std::optional<std::uint64_t> index;   ///< `index`, when a count
    std::string finish_reason;            ///< `finishReason`, when a string
    std::size_t first_part = 0;           ///< its parts in the reader's part pool
    std::size_t part_count = 0;

    void clear() noexcept
    {
        index.reset();
        finish_reason.clear();
        first_part = part_count = 0;
    }
};

/// The response-level fields.
struct gemini_response_fields {
    std::string response_id;
    std::string model;
    std::optional<token_usage> usage;   ///< `usageMetadata` with at least one count

    void clear() noexcept
    {
        response_id.clear();
        model.clear();
        usage.reset();
    }
};

/// Fills the fields from a response's DOM, as gemini_event_sax does while it parses.
class gemini_dom_fields {
public:
    void read(const boost::json::object& response)
    {
        candidates_used_ = parts_used_ = 0;
        const auto* candidates = response.if_contains("candidates");
        if (candidates == nullptr || !candidates->is_array())
            return;
        std::size_t position = 0;
        for (const auto& c : candidates->get_array()) {
            const std::size_t at = position++;
            const auto* candidate = c.if_object();
            if (candidate == nullptr)
                continue;
            auto& f = next_pooled(candidates_, candidates_used_);
            f.position = at;
            f.index = count_field(*candidate, "index");
            f.first_part = parts_used_;
            if (const auto* reason = candidate->if_contains("finishReason"); reason != nullptr && reason->is_string())
                f.finish_reason.assign(reason->get_string());
            const auto* content = candidate->if_contains("content");
            const auto* parts = content != nullptr && content->is_object() ? content->get_object().if_contains("parts") : nullptr;
            if (parts == nullptr || !parts->is_array())
                continue;
            for (const auto& p : parts->get_array())
                if (const auto* part = p.if_object()) {
                    read_part(*part, next_pooled(parts_, parts_used_));
                    ++f.part_count;
                }
        }
    }

    const gemini_candidate_fields* candidates_begin() const noexcept { return candidates_.data(); }
    const gemini_candidate_fields* candidates_end() const noexcept { return candidates_.data() + candidates_used_; }
    gemini_part_fields* part_pool() noexcept { return parts_.data(); }

private:
    static void read_part(const boost::json::object& part, gemini_part_fields& f)
    {
        if (const auto* text = part.if_contains("text"); text != nullptr && text->is_string()) {
            f.has_text = true;
            f.text.assign(text->get_string());
            f.thought = true_field(part, "thought");
        }
        const auto* c = part.if_contains("functionCall");
        if (c == nullptr || !c->is_object())
            return;
        const auto& call = c->get_object();
        f.has_call = true;
        f.name.assign(string_field(call, "name"));
        f.id.assign(string_field(call, "id"));
        if (const auto* args = call.if_contains("args"); args != nullptr && !args->is_null()) {
            f.has_args = true;
            append_compact_json(f.args, *args);
        }
        f.will_continue = true_field(call, "willContinue");
        if (const auto* pieces = call.if_contains("partialArgs"); pieces != nullptr && pieces->is_array())
            f.partial_args = &pieces->get_array();
    }


    std::vector<gemini_candidate_fields> candidates_;
    std::vector<gemini_part_fields> parts_;
    std::size_t candidates_used_ = 0;
    std::size_t parts_used_ = 0;
};

} // namespace toolstream::detail
