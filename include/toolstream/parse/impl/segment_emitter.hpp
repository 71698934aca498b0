// Out-of-line members of toolstream::segment_emitter: content, argument fragments and END.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/parse_object_sized.hpp>
#include <toolstream/parse/segment_emitter.hpp>

#include <algorithm>

namespace toolstream {

template<class Target>
void segment_emitter<Target>::content(segment_ref r, std::string_view delta)
{
    if (delta.empty())
        return;
    auto& s = slot(r);
    s.content_size += delta.size();
    if (s.type == segment_type::tool_call && s.keep_content)
        s.content.append(delta);   // all of it, held bytes too: policies read it back
    if (s.keeps_decoded_body)
        keep_body_piece(s, delta);
    if (s.carry.empty() && detail::utf8_complete_prefix(delta) == delta.size()) {
        emit_content(s, delta);   // the common case
        return;
    }
    holding_ -= s.carry.empty() ? 0 : 1;
    s.carry.feed(delta, [&](std::string_view piece) { emit_content(s, piece); });
    holding_ += s.carry.empty() ? 0 : 1;
}

template<class Target>
void segment_emitter<Target>::keep_body_piece(open_segment& s, std::string_view delta)
{
    if (delta.size() <= s.decoded_body_room - s.decoded_body.size()) {
        // Allocated once the body comes, not beside the text the policy may still hold.
        if (s.decoded_body.capacity() < s.decoded_body_room)
            s.decoded_body.reserve(s.decoded_body_room);
        s.decoded_body.append(delta);
        return;
    }
    s.keeps_decoded_body = false;   // past its room: END decodes the body from the text
    boost::json::string().swap(s.decoded_body);
}

template<class Target>
void segment_emitter<Target>::emit_content(open_segment& s, std::string_view delta)
{
    std::size_t from = std::string::npos;
    if (is_tool_segment(s.type)) {
        if (s.writer != fragments::policy && find_tool_syntax(s.type) != nullptr) {
            from = s.arguments.size();
            if (s.writer == fragments::none)
                generate_opening(s);
            detail::append_json_escaped(s.arguments, delta);
        }
    }
    auto e = event_of(segment_event_type::SEGMENT_CONTENT, s);
    e.delta = delta;
    target()(e);
    if (from != std::string::npos)
        emit_fragment(s, from);
}

// Releases every held character start: what follows in the input is not its continuation.
template<class Target>
void segment_emitter<Target>::release_held()
{
    for (std::size_t i = 0; holding_ > 0 && i < slots_.size(); ++i) {
        auto& s = slots_[i];
        if (s.open)
            flush_held(s);
    }
}

// Emits the bytes `s` holds back, as they are.
template<class Target>
void segment_emitter<Target>::flush_held(open_segment& s)
{
    if (s.carry.empty())
        return;
    --holding_;
    s.carry.flush([&](std::string_view rest) { emit_content(s, rest); });
}

template<class Target>
void segment_emitter<Target>::arguments(segment_ref r, std::string_view json)
{
    if (json.empty())
        return;
    auto& s = slot(r);
    s.writer = fragments::policy;   // after generated fragments this is no JSON: END says so
    const std::size_t from = s.arguments.size();
    detail::append_growing(s.arguments, json);
    emit_fragment(s, from);
}

template<class Target>
void segment_emitter<Target>::take_arguments(segment_ref r, std::string& json)
{
    auto& s = slot(r);
    if (!s.arguments.empty() || s.streamed) {
        arguments(r, json);
        return;
    }
    s.writer = fragments::policy;
    s.arguments.swap(json);   // `json` gets the segment's empty string
    emit_fragment(s, 0);
}

template<class Target>
void segment_emitter<Target>::emit_fragment(open_segment& s, std::size_t from)
{
    if (from >= s.arguments.size())
        return;
    argument_fragment f;
    f.segment_id = s.id;
    f.segment_kind = s.type;
    f.json = std::string_view(s.arguments).substr(from);
    f.choice = options_.choice;
    deliver(f);
    if (s.streamed)
        s.arguments.clear();   // delivered: a streamed body is not kept
}

// `{"path":"…","content":"` (the path only when known by now).
template<class Target>
void segment_emitter<Target>::generate_opening(open_segment& s)
{
    const tool_syntax& syntax = *find_tool_syntax(s.type);
    s.writer = fragments::generated;
    s.arguments.push_back('{');
    if (!syntax.required_metadata.empty()) {
        auto it = s.metadata.find(syntax.required_metadata);
        if (it != s.metadata.end() && it->value().is_string()) {
            detail::append_json_string(s.arguments, syntax.required_metadata);
            s.arguments.push_back(':');
            detail::append_json_string(s.arguments, it->value().get_string());
            s.arguments.push_back(',');
        } else {
            s.late_required = true;
        }
    }
    detail::append_json_string(s.arguments, syntax.content_argument);
    s.arguments.append(":\"");
    s.body_begin = s.arguments.size();
}

template<class Target>
void segment_emitter<Target>::finish_fragments(open_segment& s, segment_status status)
{
    if (status == segment_status::incomplete || s.writer == fragments::policy)
        return;
    const std::size_t from = s.arguments.size();
    const tool_syntax* syntax = find_tool_syntax(s.type);
    if (syntax == nullptr) {
        auto it = s.metadata.find("arguments");
        if (it != s.metadata.end() && it->value().is_object())
            detail::append_compact_json(s.arguments, it->value());
        emit_fragment(s, from);
        return;
    }
    if (s.writer == fragments::none) {
        generate_opening(s);
        // A command may come in the metadata instead of the content (a sentinel header, say).
        for (std::string_view key : {syntax->content_argument, std::string_view("cmd")})
            if (auto it = s.metadata.find(key); syntax->type == segment_type::run_bash && it != s.metadata.end()
                                                 && it->value().is_string()) {
                detail::append_json_escaped(s.arguments, it->value().get_string());
                break;
            }
    }
    s.body_end = s.arguments.size();
    s.arguments.push_back('"');
    auto append_member = [&](std::string_view key) {
        if (auto it = s.metadata.find(key); it != s.metadata.end()) {
            s.arguments.push_back(',');
            detail::append_json_string(s.arguments, key);
            s.arguments.push_back(':');
            detail::append_compact_json(s.arguments, it->value());
        }
    };
    if (s.late_required)
        append_member(syntax->required_metadata);
    for (auto key : syntax->extra_metadata)
        if (!key.empty())
            append_member(key);
    s.arguments.push_back('}');
    emit_fragment(s, from);
}

template<class Target>
segment_status segment_emitter<Target>::parse_arguments(open_segment& s, segment_status status)
{
    if (status != segment_status::complete)
        return status;
    if (is_free_form(s.metadata)) {
        s.end_arguments = &s.parsed;   // empty: the text is the input, nothing to parse
        return status;
    }
    const tool_syntax* syntax = find_tool_syntax(s.type);
    if (s.streamed) {
        // No text to parse: the arguments are what the metadata holds, without the body.
        s.parsed = {};
        for (auto key : {syntax->required_metadata, syntax->extra_metadata[0], syntax->extra_metadata[1]})
            if (auto it = key.empty() ? s.metadata.end() : s.metadata.find(key); it != s.metadata.end())
                s.parsed[key] = it->value();
    }
    boost::json::parse_options options;
    options.max_depth = options_.max_depth;
    // A body the writer encoded is model text, kept byte for byte whatever it is; JSON a policy
    // passed on is held to RFC 8259.
    options.allow_invalid_utf8 = s.writer == fragments::generated;
    error_code ec;
    const bool blank = detail::all_blank(s.arguments);
    boost::json::value v;
    if (s.streamed) {
        v = std::move(s.parsed);
    } else if (blank) {
        v = boost::json::object();
    } else if (syntax != nullptr) {
        // The text goes to the invocation: at its size, before the body is allocated.
        detail::shrink_to_size(s.arguments);
        if (s.writer == fragments::generated || s.body_located)
            v = parse_body_apart(s, *syntax, ec, options);
        else
            v = detail::parse_json_sized(s.arguments, ec, options, syntax->content_argument,
                                         std::min(s.content_size, s.arguments.size()));
    } else {
        v = detail::parse_json(s.arguments, ec, options);
    }
    if (ec == boost::json::error::too_deep) {
        ec = error::nesting_too_deep;
        report(ec);   // a limit, reported like the others; bad JSON is only a status
    } else if (!ec && !v.is_object()) {
        ec = error::invalid_arguments;
    }
    if (ec) {
        s.error = ec.message();
        return segment_status::invalid_arguments;
    }
    s.parsed = std::move(v.get_object());
    if (syntax != nullptr) {
        for (auto key : {syntax->required_metadata, syntax->content_argument}) {
            if (key.empty() || (key == syntax->content_argument && syntax->type != segment_type::run_bash))
                continue;
            auto it = s.parsed.find(key);
            if (it == s.parsed.end() || !it->value().is_string() || it->value().get_string().empty()) {
                s.error = "missing required argument '" + std::string(key) + "'";
                return segment_status::invalid_arguments;
            }
        }
        s.end_arguments = &s.parsed;
    } else {
        // The event shows them in the metadata too: one object, not a copy.
        auto& in_metadata = s.metadata["arguments"];
        in_metadata = std::move(s.parsed);
        s.end_arguments = &in_metadata.get_object();
    }
    return segment_status::complete;
}

// Arguments whose body string is located: this emitter wrote them, or the policy's decoder read
// them. Boost.JSON parses them without the body, which is short, and the body is decoded straight
// into its string rather than parsed again: this emitter's own escaping by its inverse, a policy's
// text strictly, as Boost.JSON reads a string.
template<class Target>
boost::json::value segment_emitter<Target>::parse_body_apart(open_segment& s, const tool_syntax& syntax,
                                                             error_code& ec, const boost::json::parse_options& options)
{
    const std::string_view text = s.arguments;
    std::string frame;
    frame.reserve(text.size() - (s.body_end - s.body_begin));
    frame.append(text.substr(0, s.body_begin)).append(text.substr(s.body_end));
    boost::json::value v = detail::parse_json(frame, ec, options);
    if (ec || !v.is_object())
        return v;
    const std::string_view escaped = text.substr(s.body_begin, s.body_end - s.body_begin);
    boost::json::string& body = v.get_object()[syntax.content_argument].emplace_string();
    if (s.writer == fragments::generated) {
        body.reserve(escaped.size());   // the decoding is never longer; grow() does not zero-fill
        body.grow(detail::decode_json_escaped(escaped, body.data()));
    } else if (s.keeps_decoded_body) {
        body = std::move(s.decoded_body);   // the content was this decoding, strictly
    } else {
        detail::json_string_decoder decoder;
        const std::string_view quoted = text.substr(s.body_begin, escaped.size() + 1);   // to the closing quote
        body.reserve(detail::json_string_decoder::read_room(quoted.size()));   // one allocation
        decoder.read(quoted, body, ec);
    }
    return v;
}

template<class Target>
void segment_emitter<Target>::end(segment_ref r, segment_status status, std::string_view error)
{
    auto& s = slot(r);
    flush_held(s);
    s.error.clear();
    auto e = event_of(segment_event_type::SEGMENT_END, s);
    if (is_tool_segment(s.type)) {
        finish_fragments(s, status);
        const segment_status given = status;
        status = parse_arguments(s, status);
        if (status != given)
            error = s.error;
        if (status == segment_status::complete)
            e.arguments = s.end_arguments;
        e.arguments_text = s.arguments;
    }
    // Every segment that is not complete says why; a policy that gave no reason for an
    // incomplete one was cut by the end of the stream.
    if (status == segment_status::incomplete && error.empty())
        error = error_category().message(static_cast<int>(toolstream::error::incomplete_call), nullptr, 0);
    e.metadata = &s.metadata;
    e.status = status;
    e.error = error;
    ending_ = is_tool_segment(s.type) ? &s : nullptr;
    target()(e);
    ending_ = nullptr;
    s.open = false;
    // A large body is not kept alive by a free slot, nor, when bodies are not kept, the room a
    // large fragment took.
    const std::size_t keep = s.streamed ? std::size_t{4} << 10 : std::size_t{1} << 20;
    for (std::string* buffer : {&s.content, &s.arguments})
        if (buffer->capacity() > keep)
            std::string().swap(*buffer);
    s.parsed = {};
    boost::json::string().swap(s.decoded_body);
    s.keeps_decoded_body = false;
    s.end_arguments = nullptr;
    free_.push_back(index(r));
}

template<class Target>
segment_ref segment_emitter<Target>::open(segment_type type, boost::json::object metadata, std::string_view id)
{
    std::uint32_t i;
    if (!free_.empty()) {
        i = free_.back();
        free_.pop_back();
    } else {
        i = static_cast<std::uint32_t>(slots_.size());
        slots_.emplace_back();
    }
    auto& s = slots_[i];
    if (id.empty())
        s.id.assign(options_.id_prefix).append("seg_").append(std::to_string(++counter_));
    else
        s.id.assign(id);
    s.type = type;
    s.metadata = std::move(metadata);
    s.content.clear();
    s.content_size = 0;
    s.keep_content = true;
    s.streamed = !options_.keep_file_bodies && (type == segment_type::write_file || type == segment_type::patch_file);
    s.arguments.clear();
    s.carry = {};
    s.writer = fragments::none;
    s.late_required = false;
    s.body_located = false;
    s.keeps_decoded_body = false;
    s.open = true;
    auto e = event_of(segment_event_type::SEGMENT_START, s);
    e.metadata = &s.metadata;
    target()(e);
    return segment_ref{i};
}

} // namespace toolstream
