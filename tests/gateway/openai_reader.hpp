// Reads what an OpenAI client reads: an SSE body of chat.completion.chunk events assembled the
// way openai-node does (content and arguments concatenated, calls by index), or one
// chat.completion object. Each is turned into the fixtures' `.expected.json` shape.
#pragma once

#include <boost/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gateway_test {

namespace json = boost::json;

struct read_call {
    std::string id, name, arguments;
};
struct read_choice {
    bool role_seen = false;
    std::string content, reasoning;
    std::map<std::int64_t, read_call> calls;
    std::string finish_reason;
};
struct read_response {
    std::vector<std::string> problems;   // malformed chunks, missing fields: must stay empty
    std::map<std::int64_t, read_choice> choices;
    json::value usage;                   // {input_tokens, output_tokens} or null
    json::value error;                   // the `error` object of an error event, or null
    bool done = false;                   // `data: [DONE]` came last
    std::size_t chunks = 0;

    /// The `.expected.json` shape: choices[{index, text, reasoning, tool_calls[{id, name,
    /// arguments}], finish_reason}], usage.
    /// The problems, one a line ("" when there are none), for a readable CHECK.
    std::string problem_list() const
    {
        std::string out;
        for (const auto& p : problems)
            out += p + "\n";
        return out;
    }

    json::object summary() const
    {
        json::array out;
        for (const auto& [index, c] : choices) {
            json::array calls;
            for (const auto& [i, call] : c.calls) {
                boost::system::error_code ec;
                auto args = call.arguments.empty() ? json::value(json::object{}) : json::parse(call.arguments, ec);
                calls.push_back(json::object{{"id", call.id}, {"name", call.name}, {"arguments", ec ? json::value(nullptr) : args}});
            }
            out.push_back(json::object{{"index", index}, {"text", c.content}, {"reasoning", c.reasoning},
                                       {"tool_calls", std::move(calls)},
                                       {"finish_reason", c.finish_reason.empty() ? json::value(nullptr) : json::value(c.finish_reason)}});
        }
        return json::object{{"choices", std::move(out)}, {"usage", usage}};
    }
};

inline json::value usage_of(const json::value& u)
{
    const auto* o = u.if_object();
    if (o == nullptr)
        return nullptr;
    return json::object{{"input_tokens", o->contains("prompt_tokens") ? o->at("prompt_tokens") : json::value(nullptr)},
                        {"output_tokens", o->contains("completion_tokens") ? o->at("completion_tokens") : json::value(nullptr)}};
}

inline std::string string_of(const json::value* v)
{
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

inline read_response read_sse(std::string_view body)
{
    read_response r;
    std::size_t at = 0;
    for (int events = 0; at < body.size() && events < 10'000'000; ++events) {
        auto end = body.find("\n\n", at);
        if (end == std::string_view::npos)
            end = body.size();
        const auto event = body.substr(at, end - at);
        at = end + 2;
        if (event.starts_with(":"))
            continue;   // a comment
        if (r.done || !r.error.is_null()) {
            r.problems.push_back("an event after the end: " + std::string(event.substr(0, 80)));
            continue;
        }
        if (!event.starts_with("data: ")) {
            r.problems.push_back("not a data event: " + std::string(event.substr(0, 80)));
            continue;
        }
        const auto data = event.substr(6);
        if (data == "[DONE]") {
            r.done = true;
            continue;
        }
        boost::system::error_code ec;
        const auto v = json::parse(data, ec);
        if (ec || !v.is_object()) {
            r.problems.push_back("not a JSON object: " + std::string(data.substr(0, 80)));
            continue;
        }
        const auto& chunk = v.get_object();
        if (const auto* e = chunk.if_contains("error")) {
            r.error = *e;
            continue;
        }
        ++r.chunks;
        if (string_of(chunk.if_contains("object")) != "chat.completion.chunk" ||
            string_of(chunk.if_contains("id")).empty() || !chunk.contains("created") ||
            !chunk.contains("model") || !chunk.contains("choices"))
            r.problems.push_back("a chunk without id/object/created/model/choices: " + std::string(data.substr(0, 120)));
        if (const auto* u = chunk.if_contains("usage"); u != nullptr && u->is_object())
            r.usage = usage_of(*u);
        const auto* choices = chunk.if_contains("choices");
        if (choices == nullptr || !choices->is_array())
            continue;
        for (const auto& cv : choices->get_array()) {
            const auto& c = cv.get_object();
            auto& rc = r.choices[c.at("index").to_number<std::int64_t>()];
            const auto& delta = c.at("delta").get_object();
            if (string_of(delta.if_contains("role")) == "assistant")
                rc.role_seen = true;
            else if (!rc.role_seen)
                r.problems.push_back("the first delta of a choice has no role");
            rc.content += string_of(delta.if_contains("content"));
            rc.reasoning += string_of(delta.if_contains("reasoning_content"));
            if (const auto* calls = delta.if_contains("tool_calls"); calls != nullptr && calls->is_array())
                for (const auto& tv : calls->get_array()) {
                    const auto& t = tv.get_object();
                    if (!t.contains("index")) {
                        r.problems.push_back("a tool-call delta without index");
                        continue;
                    }
                    auto& call = rc.calls[t.at("index").to_number<std::int64_t>()];
                    if (const auto id = string_of(t.if_contains("id")); !id.empty())
                        call.id = id;
                    if (const auto* fn = t.if_contains("function"); fn != nullptr && fn->is_object()) {
                        if (const auto name = string_of(fn->get_object().if_contains("name")); !name.empty())
                            call.name = name;
                        call.arguments += string_of(fn->get_object().if_contains("arguments"));
                    }
                }
            if (const auto* f = c.if_contains("finish_reason"); f != nullptr && f->is_string()) {
                if (!rc.finish_reason.empty())
                    r.problems.push_back("a second finish_reason");
                rc.finish_reason = std::string(f->get_string());
            }
        }
    }
    return r;
}

/// One chat.completion object, read into the same shape.
inline read_response read_completion(std::string_view body)
{
    read_response r;
    boost::system::error_code ec;
    const auto v = json::parse(body, ec);
    if (ec || !v.is_object() || string_of(v.get_object().if_contains("object")) != "chat.completion") {
        r.problems.push_back("not a chat.completion: " + std::string(body.substr(0, 120)));
        return r;
    }
    const auto& o = v.get_object();
    if (const auto* u = o.if_contains("usage"))
        r.usage = usage_of(*u);
    for (const auto& cv : o.at("choices").get_array()) {
        const auto& c = cv.get_object();
        auto& rc = r.choices[c.at("index").to_number<std::int64_t>()];
        const auto& m = c.at("message").get_object();
        rc.role_seen = string_of(m.if_contains("role")) == "assistant";
        rc.content = string_of(m.if_contains("content"));
        rc.reasoning = string_of(m.if_contains("reasoning_content"));
        if (const auto* calls = m.if_contains("tool_calls"); calls != nullptr && calls->is_array()) {
            std::int64_t i = 0;
            for (const auto& tv : calls->get_array()) {
                const auto& fn = tv.at("function").get_object();
                rc.calls[i++] = {string_of(tv.get_object().if_contains("id")), string_of(fn.if_contains("name")),
                                 string_of(fn.if_contains("arguments"))};
            }
        }
        rc.finish_reason = string_of(c.if_contains("finish_reason"));
    }
    r.done = true;
    return r;
}

} // namespace gateway_test
