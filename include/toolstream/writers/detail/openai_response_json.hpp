// The JSON of an OpenAI Responses response, as both writers write it: items, usage and the
// response object, long texts written in slices.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/utf8.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/detail/openai_response_items.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::detail {

/// Appends `text` (valid UTF-8) JSON-escaped, in slices cut between characters, calling
/// `spill()` after each: the streaming writer hands its buffer to the output there, so that a
/// 16 MiB text is written in pieces and never copied whole into the buffer.
template<class Spill>
void append_escaped_sliced(std::string& out, std::string_view text, Spill&& spill)
{
    constexpr std::size_t slice = 4096;
    while (text.size() > slice) {
        std::size_t cut = slice;
        while (cut > 1 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut;   // not inside a character
        append_json_escaped(out, text.substr(0, cut));
        text.remove_prefix(cut);
        spill();
    }
    append_json_escaped(out, text);
    spill();
}

/// `{"input_tokens":…,"output_tokens":…,"total_tokens":…}`, or `null` when none was reported.
inline void append_response_usage(std::string& out, const std::optional<token_usage>& usage)
{
    if (!usage) {
        out += "null";
        return;
    }
    out += "{\"input_tokens\":";
    append_integer(out, usage->input_tokens);
    out += ",\"output_tokens\":";
    append_integer(out, usage->output_tokens);
    out += ",\"total_tokens\":";
    append_integer(out, usage->input_tokens + usage->output_tokens);
    out += '}';
}

/// A call's `"name"` member, and its `"namespace"` when it has one.
inline void append_call_name(std::string& out, const response_item& item)
{
    out += ",\"name\":";
    append_json_string_valid(out, item.name);
    if (!item.tool_namespace.empty()) {
        out += ",\"namespace\":";
        append_json_string_valid(out, item.tool_namespace);
    }
}

/// An item as `response.output_item.done` and the response's `output` carry it.
template<class Spill>
void append_response_item(std::string& out, const response_item& item, Spill&& spill)
{
    static constexpr std::string_view types[] = {"message", "reasoning", "function_call", "custom_tool_call"};
    out += "{\"type\":\"";
    out += types[static_cast<int>(item.type)];
    out += "\",\"id\":";
    append_json_string_valid(out, item.id);
    if (item.is_call()) {
        out += ",\"call_id\":";
        append_json_string_valid(out, item.call_id);
        append_call_name(out, item);
        out += item.type == response_item_type::function_call ? ",\"arguments\":\"" : ",\"input\":\"";
        append_escaped_sliced(out, item.content, spill);
        out += "\",\"status\":\"";
        out += item.status();
        out += "\"}";
        return;
    }
    out += ",\"status\":\"";
    out += item.status();
    out += item.type == response_item_type::message
               ? "\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\""
               : "\",\"summary\":[],\"content\":[{\"type\":\"reasoning_text\",\"text\":\"";
    append_escaped_sliced(out, item.content, spill);
    out += item.type == response_item_type::message ? "\",\"annotations\":[],\"logprobs\":[]}]}" : "\"}]}";
}

/// The response object: `output` lists the written items of `items` (pass none while it is in
/// progress); `error` and `incomplete_details` follow `end`.
template<class Spill>
void append_response_object(std::string& out, const response_identity& identity, const response_end& end,
                            const std::vector<response_item>& items, const std::optional<token_usage>& usage,
                            Spill&& spill)
{
    out += "{\"id\":";
    append_json_string_valid(out, identity.id);
    out += ",\"object\":\"response\",\"created_at\":";
    append_integer(out, identity.created);
    out += ",\"status\":\"";
    out += end.status;
    out += "\",\"error\":";
    if (end.status == "failed") {
        out += "{\"code\":\"server_error\",\"message\":";
        append_json_string_valid(out, end.error);
        out += '}';
    } else {
        out += "null";
    }
    out += ",\"incomplete_details\":";
    if (end.incomplete_reason.empty()) {
        out += "null";
    } else {
        out += "{\"reason\":\"";
        out += end.incomplete_reason;
        out += "\"}";
    }
    out += ",\"model\":";
    append_json_string_valid(out, identity.model);
    out += ",\"output\":[";
    bool first = true;
    for (const auto& item : items) {
        if (!item.written())
            continue;
        if (!std::exchange(first, false))
            out += ',';
        append_response_item(out, item, spill);
    }
    out += "],\"usage\":";
    append_response_usage(out, usage);
    out += '}';
}

} // namespace toolstream::detail
