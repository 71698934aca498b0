// Out-of-line parts of the structured outputs policy.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/policies/structured.hpp>

namespace toolstream {

template<emitter Emitter>
void structured::on_content(std::string_view s, Emitter& w)
{
    // The response object's bytes, before the text decoded from them, are consumed markup.
    std::size_t marked = 0;
    const auto mark = [&](std::size_t upto) {
        if (upto > marked)
            w.markup(s.substr(marked, upto - marked));
        marked = upto;
    };
    for (std::size_t i = 0; i < s.size();) {
        if (expect_ == expect::text) {
            mark(i);
            w.text(s.substr(i));
            return;
        }
        switch (reading_) {
        case reading::nothing:
            if (structural(s[i], w))
                ++i;
            break;
        case reading::key:
        case reading::content:
        case reading::name: {
            // The string runs to its closing quote (extent_ began inside it), or past this feed.
            const std::size_t n = extent_.scan(s.substr(i));
            const bool closed = extent_.closed();
            const std::size_t end = closed ? i + n - 1 : s.size();
            if (reading_ == reading::key) {
                key_ += s.substr(i, end - i);   // compared raw: the schema's keys need no escapes
                i = closed ? end + 1 : end;
                if (closed) {
                    reading_ = reading::nothing;
                    expect_ = expect::colon;
                }
                break;
            }
            decoder_.append(s.substr(i, end - i), reading_ == reading::content ? decoded_ : name_);
            if (reading_ == reading::content && !decoded_.empty()) {
                mark(end);
                w.text(decoded_);
                decoded_.clear();
            }
            i = end;
            if (!closed)
                break;
            ++i;   // the closing quote
            if (reading_ == reading::name)
                name_done_ = true;
            reading_ = reading::nothing;
            expect_ = expect::comma_or_end;
            if (name_done_ && !call_ended_) {
                if (call_)
                    w.metadata(*call_)["tool_name"] = name_;
                call_ready(w);
            }
            break;
        }
        case reading::arguments:
        case reading::skipped: i = value_bytes(s, i, w); break;
        }
    }
    mark(s.size());
}

template<emitter Emitter>
std::size_t structured::value_bytes(std::string_view s, std::size_t i, Emitter& w)
{
    const std::size_t n = extent_.scan(s.substr(i));
    const bool arguments = reading_ == reading::arguments;
    if (arguments && n > 0)
        w.arguments(*call_, s.substr(i, n));
    if (extent_.closed()) {
        reading_ = reading::nothing;
        expect_ = expect::comma_or_end;
        if (arguments) {
            arguments_done_ = true;
            call_ready(w);
        }
    }
    return i + n;
}

template<emitter Emitter>
bool structured::structural(char c, Emitter& w)
{
    if (detail::is_blank(c))
        return true;
    switch (expect_) {
    case expect::start:
        if (c == '{') {
            expect_ = expect::key_or_end;
            return true;
        }
        break;
    case expect::key_or_end:
        if (c == '}') {
            close_object(w);
            return true;
        }
        [[fallthrough]];
    case expect::key:
        if (c == '"') {
            key_.clear();
            reading_ = reading::key;
            extent_.reset_inside_string();
            return true;
        }
        break;
    case expect::colon:
        if (c == ':') {
            expect_ = expect::value;
            return true;
        }
        break;
    case expect::value:
        if (c != ',' && c != '}' && c != ']' && c != ':')
            return begin_value(c, w);
        break;
    case expect::comma_or_end:
        if (c == ',') {
            expect_ = expect::key;
            return true;
        }
        if (c == '}') {
            close_object(w);
            return true;
        }
        break;
    case expect::after:
    case expect::text: break;
    }
    // Not the schema's object: what is left of the channel is text, this byte included.
    expect_ = expect::text;
    return false;
}

template<emitter Emitter>
bool structured::begin_value(char c, Emitter& w)
{
    const bool top = place_ == place::response;
    if (top && c == '"' && key_ == options_.content_key) {
        reading_ = reading::content;
        decoder_.reset();
        extent_.reset_inside_string();
        return true;
    }
    if (top && c == '{' && key_ == options_.tool_call_key && !call_ && !name_done_) {
        place_ = place::tool_call;
        expect_ = expect::key_or_end;
        return true;
    }
    if (!top && c == '"' && key_ == options_.name_key && !name_done_) {
        reading_ = reading::name;
        decoder_.reset();
        extent_.reset_inside_string();
        return true;
    }
    reading_ = reading::skipped;
    if (!top && key_ == options_.arguments_key && !arguments_done_ && !call_) {
        reading_ = reading::arguments;
        boost::json::object metadata;
        if (name_done_)
            metadata["tool_name"] = name_;
        call_ = w.start(segment_type::tool_call, std::move(metadata));
    }
    extent_.reset();
    return false;   // value_bytes() reads the value from this byte on, with what follows it
}

template<emitter Emitter>
void structured::close_object(Emitter& w)
{
    if (place_ == place::response) {
        expect_ = expect::after;
        return;
    }
    place_ = place::response;
    expect_ = expect::comma_or_end;
    if (call_ended_ || (!call_ && !name_done_))
        return;
    if (!name_done_) {
        w.end(*call_, segment_status::invalid_arguments, "the tool call has no name");
        call_ended_ = true;
        return;
    }
    if (!call_) {   // a call without arguments: they are {}
        call_ = w.start(segment_type::tool_call, boost::json::object{{"tool_name", name_}});
        w.arguments(*call_, "{}");
    }
    arguments_done_ = true;
    call_ready(w);
}

template<emitter Emitter>
void structured::call_ready(Emitter& w)
{
    if (call_ && name_done_ && arguments_done_ && !call_ended_) {
        w.end(*call_);
        call_ended_ = true;
    }
}

template<emitter Emitter>
void structured::finalize(Emitter& w)
{
    if (call_ && !call_ended_) {
        w.end(*call_, segment_status::incomplete, "the stream ended inside the tool call");
        call_ended_ = true;
    }
}

} // namespace toolstream
