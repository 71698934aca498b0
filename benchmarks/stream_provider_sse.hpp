// The benchmark streams of one `write_file` call as each provider puts it on the wire (SSE, or
// NDJSON for Ollama), built on stream_content.hpp; part of stream_generators.hpp. Standard
// library only.
#pragma once

#include "stream_content.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::bench {

namespace detail {

// The `chat.completion.chunk` object OpenAI Chat and Mistral both send: id, object, created and
// model, then `fields` (members one provider adds, each with its leading comma), the `choices`
// array holding `choices`, then `tail` (the usage member with its leading comma, or nothing).
inline std::string chat_completion_chunk(std::string_view id, std::string_view model, std::string_view fields,
                                         std::string_view choices, std::string_view tail)
{
    std::string out = "{\"id\":\"";
    out += id;
    out += "\",\"object\":\"chat.completion.chunk\",\"created\":";
    out += std::to_string(created_unix);
    out += ",\"model\":\"";
    out += model;
    out += '"';
    out += fields;
    out += ",\"choices\":[";
    out += choices;
    out += ']';
    out += tail;
    out += '}';
    return out;
}

// OpenAI sends system_fingerprint; Mistral does not.
inline constexpr std::string_view openai_chunk_fields = ",\"system_fingerprint\":\"fp_bench\"";

inline std::string openai_chunk(std::string_view delta_json, std::string_view finish_reason = "null")
{
    std::string choice = "{\"index\":0,\"delta\":";
    choice += delta_json;
    choice += ",\"logprobs\":null,\"finish_reason\":";
    choice += finish_reason;
    choice += '}';
    return chat_completion_chunk(openai_completion_id, openai_model, openai_chunk_fields, choice, ",\"usage\":null");
}

inline std::string openai_usage_chunk(std::size_t completion_tokens)
{
    const std::string usage = ",\"usage\":{\"prompt_tokens\":" + std::to_string(prompt_tokens) +
                              ",\"completion_tokens\":" + std::to_string(completion_tokens) +
                              ",\"total_tokens\":" + std::to_string(prompt_tokens + completion_tokens) + "}";
    return chat_completion_chunk(openai_completion_id, openai_model, openai_chunk_fields, {}, usage);
}

// One `delta.tool_calls` entry; `id`/`name` are set only on a call's first fragment.
inline std::string openai_tool_delta(std::size_t index, std::string_view id, std::string_view name,
                                     std::string_view arguments)
{
    std::string out = "{\"tool_calls\":[{\"index\":" + std::to_string(index);
    if (!id.empty()) {
        out += ",\"id\":\"";
        out += id;
        out += "\",\"type\":\"function\",\"function\":{\"name\":\"";
        out += name;
        out += "\",\"arguments\":";
    } else {
        out += ",\"function\":{\"arguments\":";
    }
    out += json_quoted(arguments);
    out += "}}]}";
    return out;
}

inline void append_openai_trailer(std::string& out, std::size_t completion_tokens)
{
    append_sse(out, {}, openai_chunk("{}", "\"tool_calls\""));
    append_sse(out, {}, openai_usage_chunk(completion_tokens));
    append_sse(out, {}, "[DONE]");
}

inline std::string gemini_usage(std::size_t candidates_tokens)
{
    return "{\"promptTokenCount\":" + std::to_string(prompt_tokens) +
           ",\"candidatesTokenCount\":" + std::to_string(candidates_tokens) +
           ",\"totalTokenCount\":" + std::to_string(prompt_tokens + candidates_tokens) + "}";
}

inline std::string gemini_chunk(std::string_view model, std::string_view part_json,
                                std::size_t candidates_tokens, bool finished)
{
    std::string out = "{\"candidates\":[{\"content\":{\"parts\":[";
    out += part_json;
    out += "],\"role\":\"model\"},";
    if (finished) out += "\"finishReason\":\"STOP\",";
    out += "\"index\":0}],\"usageMetadata\":";
    out += gemini_usage(candidates_tokens);
    out += ",\"modelVersion\":\"";
    out += model;
    out += "\",\"responseId\":\"";
    out += gemini_response_id;
    out += "\"}";
    return out;
}

inline std::string gemini_partial_string_part(std::string_view json_path, std::string_view piece,
                                              bool will_continue)
{
    std::string out = "{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"";
    out += json_path;
    out += "\",\"stringValue\":";
    out += json_quoted(piece);
    out += will_continue ? ",\"willContinue\":true}]" : "}]";
    out += ",\"willContinue\":true}}";
    return out;
}

} // namespace detail

/// OpenAI Chat Completions stream with one `write_file` call: a role chunk, the arguments in
/// `delta_chars`-code-point deltas (the first also carrying id, type and name), a
/// `finish_reason:"tool_calls"` chunk, a usage chunk (`choices:[]`) and `data: [DONE]`.
inline std::string openai_chat_write_file_sse(std::size_t content_bytes, std::size_t delta_chars)
{
    const std::string arguments = write_file_arguments_json(content_bytes);
    const auto pieces = detail::split_code_points(arguments, delta_chars);
    std::string out;
    out.reserve(arguments.size() * 2 + pieces.size() * 220);
    detail::append_sse(out, {}, detail::openai_chunk("{\"role\":\"assistant\",\"content\":null}"));
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const std::string delta = i == 0
            ? detail::openai_tool_delta(0, openai_tool_call_id, write_file_tool_name, pieces[i])
            : detail::openai_tool_delta(0, {}, {}, pieces[i]);
        detail::append_sse(out, {}, detail::openai_chunk(delta));
    }
    detail::append_openai_trailer(out, pieces.size());
    return out;
}

/// Anthropic Messages stream of the same call: message_start, content_block_start (tool_use),
/// one input_json_delta per `delta_chars` code points, content_block_stop, message_delta
/// (stop_reason tool_use, usage), message_stop; every event has its `event:` line.
inline std::string anthropic_write_file_sse(std::size_t content_bytes, std::size_t delta_chars)
{
    const std::string arguments = write_file_arguments_json(content_bytes);
    const auto pieces = detail::split_code_points(arguments, delta_chars);
    std::string out;
    out.reserve(arguments.size() * 2 + pieces.size() * 140);
    detail::append_sse(out, "message_start",
        "{\"type\":\"message_start\",\"message\":{\"id\":\"" + std::string(anthropic_message_id) +
        "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + std::string(anthropic_model) +
        "\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":" +
        std::to_string(prompt_tokens) + ",\"output_tokens\":1}}}");
    detail::append_sse(out, "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"" +
        std::string(anthropic_tool_use_id) + "\",\"name\":\"" + std::string(write_file_tool_name) +
        "\",\"input\":{}}}");
    for (const auto piece : pieces) {
        detail::append_sse(out, "content_block_delta",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
            "\"partial_json\":" + detail::json_quoted(piece) + "}}");
    }
    detail::append_sse(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
    detail::append_sse(out, "message_delta",
        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},"
        "\"usage\":{\"output_tokens\":" + std::to_string(pieces.size()) + "}}");
    detail::append_sse(out, "message_stop", "{\"type\":\"message_stop\"}");
    return out;
}

/// OpenAI Responses stream of the same call: response.created, output_item.added (function_call),
/// one function_call_arguments.delta per `delta_chars` code points, .done with the whole
/// arguments, output_item.done, response.completed with usage; every event has its `event:` line.
inline std::string openai_responses_write_file_sse(std::size_t content_bytes, std::size_t delta_chars)
{
    const std::string arguments = write_file_arguments_json(content_bytes);
    const auto pieces = detail::split_code_points(arguments, delta_chars);
    const std::string response = "{\"id\":\"resp_bench_0001\",\"object\":\"response\",\"model\":\"" +
                                 std::string(openai_model) + "\",\"status\":\"";
    const std::string item = "{\"id\":\"fc_bench_0001\",\"type\":\"function_call\",\"call_id\":\"" +
                             std::string(openai_tool_call_id) + "\",\"name\":\"" + std::string(write_file_tool_name) + "\",";
    std::string out;
    out.reserve(arguments.size() * 3 + pieces.size() * 150);
    detail::append_sse(out, "response.created", "{\"type\":\"response.created\",\"sequence_number\":0,\"response\":" +
                                                    response + "in_progress\",\"output\":[]}}");
    detail::append_sse(out, "response.output_item.added",
                       "{\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":" + item +
                           "\"arguments\":\"\",\"status\":\"in_progress\"}}");
    std::size_t sequence = 2;
    for (const auto piece : pieces) {
        detail::append_sse(out, "response.function_call_arguments.delta",
            "{\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":" + std::to_string(sequence++) +
            ",\"item_id\":\"fc_bench_0001\",\"output_index\":0,\"delta\":" + detail::json_quoted(piece) + "}");
    }
    const std::string whole = detail::json_quoted(arguments);
    detail::append_sse(out, "response.function_call_arguments.done",
        "{\"type\":\"response.function_call_arguments.done\",\"sequence_number\":" + std::to_string(sequence++) +
        ",\"item_id\":\"fc_bench_0001\",\"output_index\":0,\"arguments\":" + whole + "}");
    detail::append_sse(out, "response.output_item.done",
        "{\"type\":\"response.output_item.done\",\"sequence_number\":" + std::to_string(sequence++) +
        ",\"output_index\":0,\"item\":" + item + "\"arguments\":" + whole + ",\"status\":\"completed\"}}");
    detail::append_sse(out, "response.completed",
        "{\"type\":\"response.completed\",\"sequence_number\":" + std::to_string(sequence) + ",\"response\":" + response +
        "completed\",\"usage\":{\"input_tokens\":" + std::to_string(prompt_tokens) + ",\"output_tokens\":" +
        std::to_string(pieces.size()) + "}}}");
    return out;
}

/// Ollama `/api/chat` NDJSON: the model writes the file as content, one line per `delta_chars`
/// code points of the decoded content (Ollama streams text, not tool-call arguments), then the
/// `done:true` line with done_reason and counts.
inline std::string ollama_content_ndjson(std::size_t content_bytes, std::size_t delta_chars)
{
    const std::string content = write_file_content(content_bytes);
    const auto pieces = detail::split_code_points(content, delta_chars);
    const std::string head = "{\"model\":\"qwen3:8b\",\"created_at\":\"2026-01-01T00:00:00.000000Z\","
                             "\"message\":{\"role\":\"assistant\",\"content\":";
    std::string out;
    out.reserve(content.size() * 2 + pieces.size() * 110);
    for (const auto piece : pieces) {
        out += head;
        detail::append_json_escaped(out += '"', piece);
        out += "\"},\"done\":false}\n";
    }
    out += head + "\"\"},\"done\":true,\"done_reason\":\"stop\",\"total_duration\":1000,"
                  "\"prompt_eval_count\":" + std::to_string(prompt_tokens) + ",\"eval_count\":" +
           std::to_string(pieces.size()) + "}\n";
    return out;
}

/// Mistral chat stream of the same call, as Mistral sends it (fixtures mistral/tool-call.sse): a
/// role chunk with `content:""`, then the call whole in one chunk (9-character id, no `index`,
/// `arguments` a JSON string) carrying `finish_reason:"tool_calls"` and `usage`, then `[DONE]`.
/// `delta_chars` is accepted for a uniform signature and ignored.
inline std::string mistral_write_file_sse(std::size_t content_bytes, std::size_t delta_chars)
{
    (void)delta_chars;
    const std::string arguments = write_file_arguments_json(content_bytes);
    const auto chunk = [](std::string_view choice, std::string_view tail) {
        const std::string choices = "{\"index\":0," + std::string(choice) + ",\"logprobs\":null}";
        return detail::chat_completion_chunk(mistral_completion_id, mistral_model, {}, choices, tail);
    };
    std::string out;
    out.reserve(arguments.size() * 2 + 1024);
    detail::append_sse(out, {}, chunk("\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null", ""));
    const std::string call = "\"delta\":{\"content\":null,\"tool_calls\":[{\"id\":\"" + std::string(mistral_tool_call_id) +
                             "\",\"function\":{\"name\":\"" + std::string(write_file_tool_name) +
                             "\",\"arguments\":" + detail::json_quoted(arguments) +
                             "}}]},\"finish_reason\":\"tool_calls\"";
    const std::uint64_t completion = arguments.size() / 4 + 1;
    detail::append_sse(out, {}, chunk(call, ",\"usage\":{\"prompt_tokens\":" + std::to_string(prompt_tokens) +
                                                ",\"total_tokens\":" + std::to_string(prompt_tokens + completion) +
                                                ",\"completion_tokens\":" + std::to_string(completion) + "}"));
    detail::append_sse(out, {}, "[DONE]");
    return out;
}

/// Gemini `streamGenerateContent?alt=sse`: without argument streaming Gemini sends the call
/// whole, so this is a single event holding `functionCall.args` as an object, with
/// `finishReason:"STOP"`. `delta_chars` is accepted for a uniform signature and ignored.
inline std::string gemini_write_file_sse(std::size_t content_bytes, std::size_t delta_chars)
{
    (void)delta_chars;
    const std::string arguments = write_file_arguments_json(content_bytes);
    std::string part = "{\"functionCall\":{\"name\":\"";
    part += write_file_tool_name;
    part += "\",\"args\":";
    part += arguments;
    part += "}}";
    std::string out;
    detail::append_sse(out, {}, detail::gemini_chunk(gemini_model, part, 1, true));
    return out;
}

/// Vertex AI Gemini 3 with `streamFunctionCallArguments`: a `{name, willContinue:true}` part,
/// `$.path` as one piece plus its closing `stringValue:""`, `$.content` as `stringValue` pieces of
/// `delta_chars` code points of the decoded content with `willContinue:true`, its closing
/// `stringValue:""`, then the `{"functionCall":{}}` terminator carrying `finishReason:"STOP"`.
/// CRLF framing, as Vertex sends; cumulative usageMetadata on every event.
inline std::string gemini_partial_args_write_file_sse(std::size_t content_bytes, std::size_t delta_chars)
{
    const std::string content = write_file_content(content_bytes);
    const auto pieces = detail::split_code_points(content, delta_chars);
    constexpr std::string_view crlf = "\r\n";
    std::string out;
    out.reserve(content.size() * 2 + pieces.size() * 280);
    std::size_t tokens = 0;
    const auto emit = [&](const std::string& part, bool finished) {
        detail::append_sse(out, {}, detail::gemini_chunk(vertex_model, part, ++tokens, finished), crlf);
    };
    emit("{\"functionCall\":{\"name\":\"" + std::string(write_file_tool_name) + "\",\"willContinue\":true}}",
         false);
    emit(detail::gemini_partial_string_part("$.path", write_file_path, true), false);
    emit(detail::gemini_partial_string_part("$.path", "", false), false);
    for (const auto piece : pieces) emit(detail::gemini_partial_string_part("$.content", piece, true), false);
    emit(detail::gemini_partial_string_part("$.content", "", false), false);
    emit("{\"functionCall\":{}}", true);
    return out;
}

} // namespace toolstream::bench
