// A client's request, in whichever dialect its route speaks, as the Chat Completions request the
// chat core sends upstream: read as it is on /v1/chat/completions, translated on /v1/messages and
// /v1/responses (anthropic/request.hpp, responses/request.hpp).
#pragma once

#include "anthropic/request.hpp"
#include "chat_request.hpp"
#include "http_replies.hpp"
#include "observe.hpp"
#include "responses/request.hpp"
#include "responses/tool_table.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gateway {

/// What a translated request leaves for its answer; lives as long as the chat.
struct client_request {
    std::string chat_text;                   // the Chat Completions body a translated request became
    responses::client_tool_table tools;      // a Responses client's custom and namespaced tools
};

/// Tools a client offered that the gateway cannot run (hosted or server tools) are left out of
/// the request, never refused: the log says which.
inline void log_dropped_tools(dialect api, const std::vector<std::string>& dropped)
{
    if (dropped.empty())
        return;
    boost::json::array names;
    for (const auto& d : dropped)
        names.emplace_back(d);
    log_line({{"time", utc_now()},
              {"event", "tools_left_out"},
              {"route", api == dialect::anthropic_messages ? "/v1/messages" : "/v1/responses"},
              {"tools", std::move(names)},
              {"cause", "the upstream cannot run these tools (hosted or server tools); the request went without them"}});
}

/// The text of a Chat message's content: a string, or its text parts joined.
inline std::string content_text(const boost::json::value& content)
{
    if (const auto* text = content.if_string())
        return std::string(*text);
    std::string out;
    if (const auto* parts = content.if_array())
        for (const auto& p : *parts)
            if (const auto* part = p.if_object())
                if (const auto* text = part->if_contains("text"); text != nullptr && text->is_string()) {
                    if (!out.empty())
                        out += "\n\n";
                    out.append(text->get_string());
                }
    return out;
}

/// Every system message of a translated request, joined in order into one that leads: Claude
/// Code puts system messages between the turns, Codex sends `instructions` and a developer
/// message, and most chat templates take one system message, first (vLLM's refuse the request
/// otherwise). The Chat route passes what its client wrote.
inline void gather_system_messages(boost::json::object& body)
{
    auto* messages = body.if_contains("messages");
    if (messages == nullptr || !messages->is_array())
        return;
    const auto is_system = [](const boost::json::value& m) {
        const auto* role = m.is_object() ? m.get_object().if_contains("role") : nullptr;
        return role != nullptr && role->is_string() && role->get_string() == "system";
    };
    auto& list = messages->get_array();
    if (std::none_of(list.begin(), list.end(), is_system))
        return;   // as translated: nothing to gather
    std::string system;
    boost::json::array gathered;
    gathered.reserve(list.size());
    gathered.emplace_back(nullptr);   // the system message, once its text is whole
    for (auto& m : list) {
        if (!is_system(m)) {
            gathered.push_back(std::move(m));
            continue;
        }
        const auto* content = m.get_object().if_contains("content");
        const std::string text = content != nullptr ? content_text(*content) : std::string();
        if (!text.empty() && !system.empty())
            system += "\n\n";
        system += text;
    }
    gathered[0] = boost::json::object{{"role", "system"}, {"content", system}};
    *messages = std::move(gathered);
}

/// The request of `api` as a Chat Completions request, or why it is refused (400). A translated
/// request's text is kept in `kept`, which the chat_request views.
inline std::variant<chat_request, request_error> read_client_request(dialect api, std::string_view body,
                                                                     client_request& kept)
{
    if (api == dialect::openai_chat)
        return read_chat_request(body);
    auto parsed = parse_request_json(body);
    if (auto* bad = std::get_if<request_error>(&parsed))
        return std::move(*bad);
    const auto& request = std::get<boost::json::object>(parsed);
    if (api == dialect::anthropic_messages) {
        auto translated = anthropic::to_chat_body(request);
        if (auto* bad = std::get_if<request_error>(&translated))
            return std::move(*bad);
        auto& t = std::get<anthropic::translated_request>(translated);
        log_dropped_tools(api, t.dropped_tools);
        gather_system_messages(t.body);
        kept.chat_text = boost::json::serialize(t.body);
    } else {
        auto translated = responses::to_chat_body(request);
        if (auto* bad = std::get_if<request_error>(&translated))
            return std::move(*bad);
        auto& t = std::get<responses::translated_request>(translated);
        log_dropped_tools(api, t.dropped_tools);
        kept.tools = std::move(t.tools);
        gather_system_messages(t.body);
        kept.chat_text = boost::json::serialize(t.body);
    }
    return read_chat_request(kept.chat_text);
}

} // namespace gateway
