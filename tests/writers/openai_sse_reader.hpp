// Test support: reads OpenAI Chat Completions SSE back, as a strict client would, and checks the
// encoding's invariants on the way (every chunk's identity, role first, index on every tool delta,
// id/type/name on a call's first delta, one finish per choice, nothing after [DONE] or an error).
#pragma once

#include <boost/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test {

struct read_call {
    std::string id;
    std::string name;
    std::string arguments;
    int name_deltas = 0;   // deltas that carried a name
};

struct read_choice {
    bool role_seen = false;
    std::string content;
    std::string reasoning;
    std::map<std::size_t, read_call> calls;   // by index
    std::optional<std::string> finish_reason;
    std::size_t chunks = 0;
};

struct read_stream {
    std::string id;
    std::string model;
    std::int64_t created = 0;
    std::map<std::size_t, read_choice> choices;
    std::optional<boost::json::object> usage;
    std::optional<boost::json::object> error;
    std::vector<boost::json::object> progress;   // tool_progress members, chunk or comment
    std::vector<boost::json::object> results;    // tool_result members, chunk or comment
    std::vector<std::string> comments;           // other comment lines
    bool done = false;
    std::vector<std::string> violations;         // broken invariants, empty when all hold

    /// Calls in index order.
    std::vector<read_call> calls_of(std::size_t choice) const
    {
        std::vector<read_call> out;
        if (auto it = choices.find(choice); it != choices.end())
            for (const auto& [index, call] : it->second.calls)
                out.push_back(call);
        return out;
    }
};

namespace detail_read {

inline boost::json::value parse_strict(std::string_view json, std::vector<std::string>& violations)
{
    boost::json::error_code ec;
    auto v = boost::json::parse(json, ec);   // validates UTF-8 as well
    if (ec)
        violations.push_back("invalid JSON (" + ec.message() + "): " + std::string(json.substr(0, 200)));
    return v;
}

inline void read_delta(read_stream& s, const boost::json::object& choice_obj)
{
    auto& v = s.violations;
    const auto index = static_cast<std::size_t>(choice_obj.at("index").as_int64());
    auto& ch = s.choices[index];
    ++ch.chunks;
    if (ch.finish_reason)
        v.push_back("a chunk after the finish of choice " + std::to_string(index));
    const auto& delta = choice_obj.at("delta").as_object();
    if (!ch.role_seen) {
        if (!delta.contains("role") || delta.at("role") != "assistant")
            v.push_back("the first delta of choice " + std::to_string(index) + " has no role");
        ch.role_seen = true;
    } else if (delta.contains("role")) {
        v.push_back("a role after the first delta");
    }
    if (auto* c = delta.if_contains("content"))
        ch.content += c->as_string();
    if (auto* r = delta.if_contains("reasoning_content"))
        ch.reasoning += r->as_string();
    if (auto* calls = delta.if_contains("tool_calls")) {
        for (const auto& item : calls->as_array()) {
            const auto& call = item.as_object();
            if (!call.contains("index")) {
                v.push_back("a tool call delta without index");
                continue;
            }
            const auto at = static_cast<std::size_t>(call.at("index").as_int64());
            const bool first = !ch.calls.contains(at);
            auto& rc = ch.calls[at];
            if (first && (!call.contains("id") || call.at("type") != "function"))
                v.push_back("the first delta of a call lacks id or type");
            if (!first && (call.contains("id") || call.contains("type")))
                v.push_back("id or type repeated after a call's first delta");
            if (first)
                rc.id = call.at("id").as_string();
            const auto& fn = call.at("function").as_object();
            if (auto* name = fn.if_contains("name")) {
                rc.name += name->as_string();   // concatenated, as openai-python does: must stay right
                ++rc.name_deltas;
            }
            if (auto* args = fn.if_contains("arguments"))
                rc.arguments += args->as_string();
        }
    }
    const auto& finish = choice_obj.at("finish_reason");
    if (!finish.is_null())
        ch.finish_reason = std::string(finish.as_string());
}

} // namespace detail_read

/// Reads a whole SSE body the writer produced.
inline read_stream read_openai_sse(std::string_view sse)
{
    read_stream s;
    auto& v = s.violations;
    bool identity_known = false;
    bool closed = false;
    std::size_t at = 0;
    while (at < sse.size()) {
        const std::size_t end = sse.find("\n\n", at);
        if (end == std::string_view::npos) {
            v.push_back("an event without its blank line: " + std::string(sse.substr(at, 80)));
            break;
        }
        const std::string_view event = sse.substr(at, end - at);
        at = end + 2;
        if (event.find('\n') != std::string_view::npos || event.find('\r') != std::string_view::npos)
            v.push_back("an event of several lines");
        if (closed)
            v.push_back("an event after [DONE] or an error");
        if (event.starts_with(": ")) {
            const std::string_view text = event.substr(2);
            for (std::string_view kind : {"tool_progress ", "tool_result "})
                if (text.starts_with(kind)) {
                    auto obj = detail_read::parse_strict(text.substr(kind.size()), v);
                    (kind == "tool_progress " ? s.progress : s.results).push_back(obj.as_object());
                    goto next;
                }
            s.comments.emplace_back(text);
            continue;
        }
        if (!event.starts_with("data: ")) {
            v.push_back("a line that is neither data nor comment");
            continue;
        }
        if (event == "data: [DONE]") {
            s.done = closed = true;
            continue;
        }
        {
            auto value = detail_read::parse_strict(event.substr(6), v);
            if (!value.is_object())
                continue;
            const auto& chunk = value.as_object();
            if (auto* error = chunk.if_contains("error")) {
                s.error = error->as_object();
                closed = true;
                continue;
            }
            if (chunk.at("object") != "chat.completion.chunk")
                v.push_back("a chunk whose object is not chat.completion.chunk");
            if (!identity_known) {
                identity_known = true;
                s.id = chunk.at("id").as_string();
                s.model = chunk.at("model").as_string();
                s.created = chunk.at("created").as_int64();
            } else if (chunk.at("id") != s.id.c_str() || chunk.at("model") != s.model.c_str()
                       || chunk.at("created") != s.created) {
                v.push_back("chunks with different id, model or created");
            }
            const auto& choices = chunk.at("choices").as_array();
            if (auto* usage = chunk.if_contains("usage"))
                s.usage = usage->as_object();
            if (auto* p = chunk.if_contains("tool_progress"))
                s.progress.push_back(p->as_object());
            if (auto* r = chunk.if_contains("tool_result"))
                s.results.push_back(r->as_object());
            if (choices.size() > 1)
                v.push_back("a chunk with several choices");
            for (const auto& c : choices)
                detail_read::read_delta(s, c.as_object());
        }
    next:;
    }
    if (!closed)
        v.push_back("the stream ends without [DONE] or an error");
    for (const auto& [index, ch] : s.choices)
        if (!ch.finish_reason && !s.error)
            v.push_back("choice " + std::to_string(index) + " has no finish_reason");
    return s;
}

} // namespace toolstream::test
