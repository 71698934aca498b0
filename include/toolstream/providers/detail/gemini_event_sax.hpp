// Reading a Gemini `GenerateContentResponse` while it parses, into gemini_fields.hpp's fields,
// with no DOM. A call's `args` object is written as compact JSON from the parser's events, with
// compact_json.hpp's escaping, so the text is the DOM path's to the byte.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/providers/detail/event_sax.hpp>
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

/// Reads a Gemini response while it parses. Falls back to the DOM for: a payload that is not an
/// object (Gemini's array of responses), a non-null `error`, a candidate that is not an object,
/// `partialArgs`, `args` that is not an object or null, a repeated key (also inside `args`, where
/// the DOM keeps one), an `args` object of more than `max_args_keys` keys, and more than
/// `max_candidates` candidates or `max_parts` parts in one event.
class gemini_event_sax : public event_sax<gemini_event_sax> {
    using base = event_sax<gemini_event_sax>;

public:
    static constexpr std::size_t max_candidates = 16;
    static constexpr std::size_t max_parts = 64;
    static constexpr std::size_t max_args_keys = 64;

    enum place : sax_place {
        skip = sax_skip, root, response_id, model_version, error, usage, prompt_count, candidates_count,
        thoughts_count, candidates, candidate, candidate_index, finish_reason, content, parts, part, text,
        thought, function_call, name, id, args, will_continue, partial_args,
    };
    static constexpr sax_place root_place = root;

    /// Empties the fields for the next event, keeping every buffer.
    void reset(bool identified = false) noexcept
    {
        identified_ = identified;
        response_.clear();
        candidates_used_ = parts_used_ = 0;
        usage_object_ = false;
        counts_ = {};
        levels_.clear();
        keys_used_ = 0;
        key_.clear();
        in_string_ = false;
    }

    const gemini_response_fields& response() noexcept
    {
        if (usage_object_ && (counts_[0] || counts_[1] || counts_[2]))
            response_.usage = token_usage{counts_[0].value_or(0), counts_[1].value_or(0) + counts_[2].value_or(0)};
        return response_;
    }
    const gemini_candidate_fields* candidates_begin() const noexcept { return candidates_.data(); }
    const gemini_candidate_fields* candidates_end() const noexcept { return candidates_.data() + candidates_used_; }
    gemini_part_fields* part_pool() noexcept { return parts_.data(); }

    // Inside `args`, every event is written out as compact JSON; elsewhere the base reads.
    bool on_object_begin(ec_type& ec) { return capturing() ? open_raw(true, ec) : base::on_object_begin(ec); }
    bool on_array_begin(ec_type& ec) { return capturing() ? open_raw(false, ec) : base::on_array_begin(ec); }
    bool on_object_end(std::size_t n, ec_type& ec)
    {
        if (!capturing())
            return base::on_object_end(n, ec);
        out() += '}';
        keys_used_ = levels_.back().first_key;
        levels_.pop_back();
        return capturing() || base::on_object_end(n, ec);   // `args` itself closed
    }
    bool on_array_end(std::size_t n, ec_type& ec)
    {
        if (!capturing())
            return base::on_array_end(n, ec);
        out() += ']';
        levels_.pop_back();
        return true;   // `args` is an object, so this is never its end
    }
    bool on_key_part(std::string_view s, std::size_t n, ec_type& ec)
    {
        if (!capturing())
            return base::on_key_part(s, n, ec);
        key_.append(s);
        return true;
    }
    bool on_key(std::string_view s, std::size_t n, ec_type& ec)
    {
        if (!capturing())
            return base::on_key(s, n, ec);
        if (!key_.empty()) {
            key_.append(s);
            s = key_;
        }
        level& l = levels_.back();
        if (keys_used_ - l.first_key == max_args_keys)
            return fail(ec);
        for (std::size_t i = l.first_key; i < keys_used_; ++i)
            if (keys_[i] == s)
                return fail(ec);   // a repeated key: the DOM keeps one of them
        if (keys_used_ == keys_.size())
            keys_.emplace_back();
        keys_[keys_used_++].assign(s);
        std::string& o = out();
        if (!l.first)
            o += ',';
        l.first = false;
        o += '"';
        append_json_escaped(o, s);
        o += "\":";
        key_.clear();
        return true;
    }
    bool on_string_part(std::string_view s, std::size_t n, ec_type& ec)
    {
        if (!capturing())
            return base::on_string_part(s, n, ec);
        if (!in_string_) {
            before_value();
            out() += '"';
            in_string_ = true;
        }
        append_json_escaped(out(), s);
        return true;
    }
    bool on_string(std::string_view s, std::size_t n, ec_type& ec)
    {
        if (!capturing())
            return base::on_string(s, n, ec);
        if (!in_string_) {
            before_value();
            out() += '"';
        }
        in_string_ = false;
        append_json_escaped(out(), s);
        out() += '"';
        return true;
    }
    bool on_int64(std::int64_t v, std::string_view s, ec_type& ec)
    {
        return capturing() ? raw_integer(v) : base::on_int64(v, s, ec);
    }
    bool on_uint64(std::uint64_t v, std::string_view s, ec_type& ec)
    {
        return capturing() ? raw_integer(v) : base::on_uint64(v, s, ec);
    }
    bool on_double(double v, std::string_view s, ec_type& ec)
    {
        if (!capturing())
            return base::on_double(v, s, ec);
        before_value();
        append_js_number(out(), v);
        return true;
    }
    bool on_bool(bool v, ec_type& ec)
    {
        if (!capturing())
            return base::on_bool(v, ec);
        before_value();
        out() += v ? "true" : "false";
        return true;
    }
    bool on_null(ec_type& ec)
    {
        if (!capturing())
            return base::on_null(ec);
        before_value();
        out() += "null";
        return true;
    }

    // The event_sax hooks.
    sax_place key(sax_place parent, std::string_view k) const noexcept
    {
        switch (parent) {
        case root:
            if (k == "candidates") return candidates;
            if (k == "usageMetadata") return usage;
            if (k == "error") return error;
            if (k == "responseId") return identified_ ? skip : response_id;
            if (k == "modelVersion") return identified_ ? skip : model_version;
            return skip;
        case usage:
            if (k == "promptTokenCount") return prompt_count;
            if (k == "candidatesTokenCount") return candidates_count;
            if (k == "thoughtsTokenCount") return thoughts_count;
            return skip;
        case candidate:
            if (k == "content") return content;
            if (k == "finishReason") return finish_reason;
            if (k == "index") return candidate_index;
            return skip;
        case content: return k == "parts" ? parts : skip;
        case part:
            if (k == "text") return text;
            if (k == "functionCall") return function_call;
            if (k == "thought") return thought;
            return skip;
        case function_call:
            if (k == "args") return args;
            if (k == "name") return name;
            if (k == "id") return id;
            if (k == "willContinue") return will_continue;
            if (k == "partialArgs") return partial_args;
            return skip;
        default: return skip;
        }
    }

    static sax_place element(sax_place array) noexcept
    {
        return array == candidates ? candidate : array == parts ? part : skip;
    }

    sax_open open(sax_place p, bool is_object)
    {
        switch (p) {
        case root: return is_object ? sax_open::enter : sax_open::fallback;
        case error:
        case partial_args: return sax_open::fallback;
        case candidates:
        case parts: return is_object ? sax_open::skip : sax_open::enter;
        case candidate:
            if (!is_object || candidates_used_ == max_candidates)
                return sax_open::fallback;
            next(candidates_, candidates_used_);
            current_candidate().position = candidates_used_ - 1;
            current_candidate().first_part = parts_used_;
            return sax_open::enter;
        case part:
            if (!is_object)
                return sax_open::skip;
            if (parts_used_ == max_parts)
                return sax_open::fallback;
            next(parts_, parts_used_);
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
            current_part().args += '{';
            levels_.push_back({true, 0});
            levels_.back().first_key = keys_used_;
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
        default: return nullptr;
        }
    }

    static bool string_end(sax_place p) noexcept
    {
        return p != root && p != candidate && p != error && p != args && p != partial_args;
    }

    bool number(sax_place p, const sax_number& n)
    {
        switch (p) {
        case root:
        case candidate:
        case error:
        case args:
        case partial_args: return false;
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
        case args:
        case partial_args: return l == sax_literal::null;
        case thought: current_part().thought = l == sax_literal::true_; return true;
        case will_continue: current_part().will_continue = l == sax_literal::true_; return true;
        default: return true;
        }
    }

private:
    struct level {
        bool first = true;           // no member or element written yet
        std::size_t first_key = 0;   // objects: their keys in keys_ from here
    };

    bool capturing() const noexcept { return !levels_.empty(); }
    std::string& out() noexcept { return current_part().args; }

    // A comma before every array element but the first (object members get theirs in on_key).
    void before_value()
    {
        level& l = levels_.back();
        if (l.first_key == npos) {
            if (!l.first)
                out() += ',';
            l.first = false;
        }
    }

    bool open_raw(bool is_object, ec_type& ec)
    {
        if (levels_.size() == max_raw_depth)
            return fail(ec);
        before_value();
        out() += is_object ? '{' : '[';
        levels_.push_back({true, is_object ? keys_used_ : npos});
        return true;
    }

    template<class Int>
    bool raw_integer(Int v)
    {
        before_value();
        char buf[24];
        out().append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
        return true;
    }

    // A shape the fast path does not write: the DOM decides.
    bool fail(ec_type& ec)
    {
        levels_.clear();
        return request_fallback(ec);
    }

    template<class T>
    static T& next(std::vector<T>& pool, std::size_t& used)
    {
        if (used == pool.size())
            pool.emplace_back();
        T& t = pool[used++];
        t.clear();
        return t;
    }

    gemini_candidate_fields& current_candidate() noexcept { return candidates_[candidates_used_ - 1]; }
    gemini_part_fields& current_part() noexcept { return parts_[parts_used_ - 1]; }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_raw_depth = 64;

    gemini_response_fields response_;
    std::vector<gemini_candidate_fields> candidates_;
    std::vector<gemini_part_fields> parts_;
    std::size_t candidates_used_ = 0;
    std::size_t parts_used_ = 0;
    std::array<std::optional<std::uint64_t>, 3> counts_{};   // prompt, candidates, thoughts
    std::vector<level> levels_;          // the containers open inside `args`, itself first
    std::vector<std::string> keys_;      // the keys of the objects open inside `args`
    std::size_t keys_used_ = 0;
    std::string key_;                    // a key split across writes inside `args`
    bool in_string_ = false;             // a string inside `args` is open
    bool identified_ = false;
    bool usage_object_ = false;
};

} // namespace toolstream::detail
