// Out-of-line parts of the structured outputs policy.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_call_tracker.hpp>
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
        case reading::key: {
            const char c = s[i++];
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"') {
                reading_ = reading::nothing;
                expect_ = expect::colon;
                break;
            }
            key_ += c;   // compared raw: the schema's keys need no escapes
            break;
        }
        case reading::content:
        case reading::name: {
            std::size_t end = i;
            for (; end < s.size(); ++end) {
                if (escaped_)
                    escaped_ = false;
                else if (s[end] == '\\')
                    escaped_ = true;
                else if (s[end] == '"')
                    break;
            }
            decoder_.append(s.substr(i, end - i), reading_ == reading::content ? decoded_ : name_);
            if (reading_ == reading::content && !decoded_.empty()) {
                mark(end);
                w.text(decoded_);
                decoded_.clear();
            }
            i = end;
            if (end == s.size())
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
    std::size_t j = i;
    bool done = false;
    for (; j < s.size() && !done; ++j) {
        const char c = s[j];
        if (in_string_) {
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"') {
                in_string_ = false;
                done = depth_ == 0;
            }
        } else if (scalar_) {
            if (c == ',' || c == '}' || c == ']' || detail::is_blank(c)) {
                done = true;
                --j;   // the delimiter is structure: read again below
            }
        } else if (c == '"') {
            in_string_ = true;
        } else if (c == '{' || c == '[') {
            ++depth_;
        } else if (c == '}' || c == ']') {
            done = --depth_ == 0;
        }
    }
    const bool arguments = reading_ == reading::arguments;
    if (arguments && j > i)
        w.arguments(*call_, s.substr(i, j - i));
    if (done) {
        reading_ = reading::nothing;
        expect_ = expect::comma_or_end;
        if (arguments) {
            arguments_done_ = true;
            call_ready(w);
        }
    }
    return j;
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
    depth_ = 0;
    in_string_ = false;
    escaped_ = false;
    scalar_ = c != '{' && c != '[' && c != '"';
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
