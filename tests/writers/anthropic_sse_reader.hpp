// Test support: reads Anthropic Messages SSE back as a strict client would (assembling the
// message as @anthropic-ai/sdk's MessageStream does) and checks the encoding's invariants on the
// way: event name = data type, message_start first, block indexes in order with one block open
// at a time, deltas of the open block's kind, a signature on every thinking block, no empty text
// or thinking block, message_delta then message_stop, nothing after message_stop or an error.
#pragma once

#include <toolstream/partial_json.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test {

struct anthropic_read {
    boost::json::object message;           // the assembled message (content, stop_reason, usage…)
    std::vector<std::string> json_texts;   // per block: a tool_use's partial_json joined, else ""
    std::vector<bool> stopped;             // per block: content_block_stop came
    std::optional<std::string> error;      // an error event's message
    bool message_stopped = false;
    std::size_t events = 0;
    std::vector<std::string> violations;   // broken invariants, empty when all hold

    const boost::json::array& content() const { return message.at("content").as_array(); }

    /// Every block of `type` joined (`text` of text blocks, `thinking` of thinking blocks).
    std::string joined(std::string_view type) const
    {
        std::string out;
        if (message.contains("content"))
            for (const auto& b : content())
                if (b.at("type").as_string() == type)
                    out += b.at(type).as_string();
        return out;
    }
    std::string stop_reason() const
    {
        const auto* r = message.if_contains("stop_reason");
        return r != nullptr && r->is_string() ? std::string(r->as_string()) : std::string();
    }
};

/// Reads a whole SSE body the writer produced.
inline anthropic_read read_anthropic_sse(std::string_view sse)
{
    anthropic_read r;
    auto& v = r.violations;
    bool closed = false;
    bool delta_seen = false;
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    std::size_t open = none;   // the open block
    for (std::size_t at = 0; at < sse.size();) {
        const std::size_t end = sse.find("\n\n", at);
        if (end == std::string_view::npos) {
            v.push_back("an event without its blank line");
            break;
        }
        const std::string_view event = sse.substr(at, end - at);
        at = end + 2;
        if (event.starts_with(": "))
            continue;   // a comment
        if (closed)
            v.push_back("an event after message_stop or an error");
        const std::size_t nl = event.find('\n');
        if (!event.starts_with("event: ") || nl == std::string_view::npos || event.substr(nl + 1, 6) != "data: "
            || event.find('\n', nl + 1) != std::string_view::npos || event.find('\r') != std::string_view::npos) {
            v.push_back("not one event line and one data line: " + std::string(event.substr(0, 120)));
            continue;
        }
        ++r.events;
        const std::string name(event.substr(7, nl - 7));
        boost::json::error_code ec;
        auto parsed = boost::json::parse(event.substr(nl + 7), ec);   // strict: validates UTF-8 too
        if (ec || !parsed.is_object()) {
            v.push_back("data is not a JSON object (" + ec.message() + "): " + std::string(event.substr(nl + 7, 200)));
            continue;
        }
        const auto& data = parsed.as_object();
        if (data.at("type") != name.c_str())
            v.push_back("event " + name + " whose data has another type");
        if (name == "error") {
            r.error = std::string(data.at("error").at("message").as_string());
            if (data.at("error").at("type") != "api_error")
                v.push_back("an error whose type is not api_error");
            closed = true;
            continue;
        }
        if (name == "message_start") {
            if (r.message.contains("id"))
                v.push_back("a second message_start");
            r.message = data.at("message").as_object();
            if (!r.message.at("content").as_array().empty() || !r.message.at("stop_reason").is_null()
                || r.message.at("role") != "assistant" || r.message.at("type") != "message")
                v.push_back("a message_start that is not an empty assistant message");
            continue;
        }
        if (!r.message.contains("id")) {
            v.push_back("Unexpected event order, got " + name + " before \"message_start\"");
            continue;
        }
        auto& content = r.message.at("content").as_array();
        if (name == "content_block_start") {
            const auto index = data.at("index").to_number<std::size_t>();
            if (open != none)
                v.push_back("a block starts while block " + std::to_string(open) + " is open");
            if (index != content.size())
                v.push_back("block index " + std::to_string(index) + " out of order");
            const auto& block = data.at("content_block").as_object();
            const auto& type = block.at("type");
            if (type == "tool_use" && (block.at("id").as_string().empty() || block.at("name").as_string().empty()
                                       || !block.at("input").as_object().empty()))
                v.push_back("a tool_use block without id or name, or with input");
            if ((type == "text" && block.at("text") != "") || (type == "thinking" && block.at("thinking") != ""))
                v.push_back("a block that starts with content");
            content.push_back(block);
            r.json_texts.emplace_back();
            r.stopped.push_back(false);
            open = index;
        } else if (name == "content_block_delta" || name == "content_block_stop") {
            const auto index = data.at("index").to_number<std::size_t>();
            if (open == none || index != open) {
                v.push_back(name + " for block " + std::to_string(index) + ", which is not the open block");
                continue;
            }
            auto& block = content.at(index).as_object();
            const std::string type(block.at("type").as_string());
            if (name == "content_block_stop") {
                if (type == "thinking" && block.at("signature").as_string().empty())
                    v.push_back("a thinking block stops without a signature");
                if ((type == "text" || type == "thinking") && block.at(type).as_string().empty())
                    v.push_back("an empty " + type + " block");
                if (type == "tool_use") {
                    const auto& text = r.json_texts[index];
                    if (text.empty()) {
                        block["input"] = boost::json::object();
                    } else {
                        auto input = boost::json::parse(text, ec);
                        if (ec || !input.is_object())
                            v.push_back("a stopped tool_use whose input is not a JSON object: " + text.substr(0, 200));
                        else
                            block["input"] = input;
                    }
                }
                r.stopped[index] = true;
                open = none;
                continue;
            }
            const auto& delta = data.at("delta").as_object();
            const auto& dt = delta.at("type");
            if (dt == "text_delta" && type == "text")
                block["text"].as_string().append(delta.at("text").as_string());
            else if (dt == "thinking_delta" && type == "thinking")
                block["thinking"].as_string().append(delta.at("thinking").as_string());
            else if (dt == "signature_delta" && type == "thinking")
                block["signature"] = delta.at("signature");
            else if (dt == "input_json_delta" && type == "tool_use")
                r.json_texts[index] += delta.at("partial_json").as_string();
            else
                v.push_back("a " + std::string(dt.as_string()) + " in a " + type + " block");
        } else if (name == "message_delta") {
            // Only a tool_use cut by max_tokens may stay open, as Anthropic's own stream leaves it.
            if (open != none && !(data.at("delta").at("stop_reason") == "max_tokens"
                                  && content.at(open).at("type") == "tool_use"))
                v.push_back("message_delta while a block is open");
            if (open != none) {
                partial_json preview;
                preview.feed(r.json_texts[open]);
                if (preview.preview().is_object())
                    content.at(open).as_object()["input"] = preview.preview();
                open = none;
            }
            const auto& reason = data.at("delta").at("stop_reason");
            if (!reason.is_string())
                v.push_back("message_delta without a stop_reason");
            r.message["stop_reason"] = reason;
            auto& usage = r.message["usage"].as_object();
            const auto& given = data.at("usage").as_object();
            usage["output_tokens"] = given.at("output_tokens");
            if (const auto* input = given.if_contains("input_tokens"))
                usage["input_tokens"] = *input;
            delta_seen = true;
        } else if (name == "message_stop") {
            if (!delta_seen)
                v.push_back("message_stop before message_delta");
            r.message_stopped = closed = true;
        } else if (name != "ping") {
            v.push_back("an unknown event " + name);
        }
    }
    if (!closed)
        v.push_back("the stream ends without message_stop or an error");
    return r;
}

} // namespace toolstream::test
