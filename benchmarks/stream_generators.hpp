// Deterministic synthetic inputs for the toolstream benchmarks.
//
// Each generator returns the exact bytes a provider puts on the wire (SSE), or the raw model
// text for the text-embedded formats. The output depends only on the arguments: a fixed-seed
// PRNG drives the file content and the escaping choices, so inputs (and their checksums) are
// identical across runs and platforms. Standard library only, so the peer runner's generator
// CLI builds without toolstream or Boost.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::bench {

inline constexpr std::string_view write_file_tool_name = "write_file";
inline constexpr std::string_view write_file_path = "src/generated.txt";
inline constexpr std::string_view read_file_path = "src/old.txt";
inline constexpr std::string_view openai_tool_call_id = "call_bench_0001";
inline constexpr std::string_view anthropic_tool_use_id = "toolu_bench_0001";
inline constexpr std::string_view openai_completion_id = "chatcmpl-bench0001";
inline constexpr std::string_view anthropic_message_id = "msg_bench_0001";
inline constexpr std::string_view gemini_response_id = "bench0001";
inline constexpr std::string_view mistral_tool_call_id = "gSIMJiOkT";
inline constexpr std::string_view mistral_completion_id = "b3999b8c93e04e11bcbff7bcab829667";
inline constexpr std::string_view mistral_model = "mistral-small-latest";
inline constexpr std::string_view openai_model = "gpt-4.1-2025-04-14";
inline constexpr std::string_view anthropic_model = "claude-sonnet-4-20250514";
inline constexpr std::string_view gemini_model = "gemini-2.5-pro";
// partialArgs streaming exists only on Vertex and only for Gemini 3+.
inline constexpr std::string_view vertex_model = "gemini-3-pro-preview";
inline constexpr std::int64_t created_unix = 1767225600;
inline constexpr std::uint64_t prompt_tokens = 512;

inline constexpr std::uint64_t content_seed = 0x7001'57ea'0c0d'e5eeULL;
inline constexpr std::uint64_t escape_seed = 0x5eed'0000'e5ca'9e00ULL;
inline constexpr std::uint64_t mixed_seed = 0x0d0e'5eed'a11c'a115ULL;
// Argument/text pieces per SSE event in mixed_chat_sse (it has no delta_chars parameter).
inline constexpr std::size_t mixed_delta_chars = 5;

inline constexpr std::string_view xml_content_start = "__START_CONTENT__";
inline constexpr std::string_view xml_content_end = "__END_CONTENT__";
inline constexpr std::string_view sentinel_start = "[[SEG_START";
inline constexpr std::string_view sentinel_end = "[[SEG_END]]";

namespace detail {

// splitmix64: tiny, fully specified, so the bytes do not depend on the standard library's engines.
class splitmix64 {
public:
    explicit constexpr splitmix64(std::uint64_t seed) noexcept : state_(seed) {}

    constexpr std::uint64_t next() noexcept
    {
        std::uint64_t z = (state_ += 0x9e37'79b9'7f4a'7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58'476d'1ce4'e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d0'49bb'1331'11ebULL;
        return z ^ (z >> 31);
    }

    constexpr std::size_t below(std::size_t n) noexcept { return static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t state_;
};

constexpr std::size_t utf8_sequence_length(unsigned char lead) noexcept
{
    if (lead < 0x80) return 1;
    if (lead < 0xE0) return 2;
    if (lead < 0xF0) return 3;
    return 4;
}

inline char32_t decode_code_point(std::string_view s, std::size_t pos, std::size_t len) noexcept
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[pos + i]); };
    switch (len) {
    case 1: return byte(0);
    case 2: return (char32_t(byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    case 3: return (char32_t(byte(0) & 0x0F) << 12) | (char32_t(byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    default:
        return (char32_t(byte(0) & 0x07) << 18) | (char32_t(byte(1) & 0x3F) << 12) |
               (char32_t(byte(2) & 0x3F) << 6) | (byte(3) & 0x3F);
    }
}

inline void append_u_escape(std::string& out, unsigned unit)
{
    static constexpr char hex[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(unit >> shift) & 0xF];
}

// JSON string body. When `rng` is given, each non-ASCII code point is written as \uXXXX (a
// surrogate pair above the BMP) half of the time, as providers that ASCII-escape arguments do,
// so deltas also get split inside \u escapes.
inline void append_json_escaped(std::string& out, std::string_view s, splitmix64* rng = nullptr)
{
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t len = utf8_sequence_length(c);
        if (len > 1) {
            if (rng != nullptr && rng->below(2) == 0) {
                const char32_t cp = decode_code_point(s, i, len);
                if (cp > 0xFFFF) {
                    append_u_escape(out, 0xD800 + ((cp - 0x10000) >> 10));
                    append_u_escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
                } else {
                    append_u_escape(out, static_cast<unsigned>(cp));
                }
            } else {
                out.append(s, i, len);
            }
            i += len;
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c < 0x20) append_u_escape(out, c);
            else out += static_cast<char>(c);
        }
        ++i;
    }
}

inline std::string json_quoted(std::string_view s)
{
    std::string out = "\"";
    append_json_escaped(out, s);
    out += '"';
    return out;
}

// Pieces of at most `chars` code points each; never splits a UTF-8 sequence (providers cut at
// token boundaries, which are whole code points), but does split JSON escape sequences.
inline std::vector<std::string_view> split_code_points(std::string_view s, std::size_t chars)
{
    if (chars == 0) throw std::invalid_argument("toolstream::bench: delta_chars must be at least 1");
    std::vector<std::string_view> pieces;
    std::size_t start = 0;
    std::size_t pos = 0;
    std::size_t count = 0;
    while (pos < s.size()) {
        pos += utf8_sequence_length(static_cast<unsigned char>(s[pos]));
        if (++count == chars || pos >= s.size()) {
            pieces.push_back(s.substr(start, pos - start));
            start = pos;
            count = 0;
        }
    }
    return pieces;
}

inline void append_sse(std::string& out, std::string_view event, std::string_view data,
                       std::string_view eol = "\n")
{
    if (!event.empty()) {
        out += "event: ";
        out += event;
        out += eol;
    }
    out += "data: ";
    out += data;
    out += eol;
    out += eol;
}

inline constexpr std::array<std::string_view, 24> words = {
    "alpha", "buffer", "cache", "delta", "event", "frame", "glyph", "handle",
    "index", "json", "kernel", "lexer", "module", "node", "offset", "parser",
    "queue", "reader", "stream", "token", "value", "writer", "yield", "zone"};
inline constexpr std::array<std::string_view, 6> accented_words = {
    "café", "naïve", "résumé", "Zürich", "façade", "über"};

// Expands a pattern left to right: {w} a word, {a} an accented word, {n} a number below 1000,
// {id} and {num} the given strings. PRNG draws happen in pattern order, never as several
// operands of one expression, whose evaluation order is unspecified (it differs between g++
// and clang++).
inline std::string expand(splitmix64& rng, std::string_view pattern, std::string_view id = {},
                          std::string_view num = {})
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size();) {
        const std::string_view rest = pattern.substr(i);
        if (rest.starts_with("{w}")) {
            out += words[rng.below(words.size())];
            i += 3;
        } else if (rest.starts_with("{a}")) {
            out += accented_words[rng.below(accented_words.size())];
            i += 3;
        } else if (rest.starts_with("{n}")) {
            out += std::to_string(rng.below(1000));
            i += 3;
        } else if (rest.starts_with("{id}")) {
            out += id;
            i += 4;
        } else if (rest.starts_with("{num}")) {
            out += num;
            i += 5;
        } else {
            out += pattern[i++];
        }
    }
    return out;
}

// One line of C++-like source, newline included: real tabs, quotes, literal backslash escapes
// (\" \\ \n \t as source text), `<`/`>`, and 2-, 3- and (rarely) 4-byte UTF-8.
inline std::string source_line(splitmix64& rng)
{
    static constexpr std::array<std::string_view, 9> patterns = {
        "int {id} = {num};  // é {w}",
        R"(std::string {id} = "{w} \"{a}\"\n";)",
        "if ({id} < {num} && {id} > 0) { return {id}; }  // → next",
        R"(const char* path = "C:\\Users\\{a}\\{w}.txt";)",
        "// TODO({w}): {a} → {a}",
        R"(std::printf("%s\t%d\n", {id}.c_str(), {num});)",
        "auto {id} = std::vector<int>{{num}, {n}};",
        "",
        "}",
    };
    std::string line(rng.below(4), '\t');
    std::string id = expand(rng, "{w}_");
    id += std::to_string(rng.below(100));
    const std::string num = std::to_string(rng.below(100000));
    const std::size_t kind = rng.below(patterns.size() + 1);
    if (kind < patterns.size()) {
        if (patterns[kind].empty()) line.clear();
        line += expand(rng, patterns[kind], id, num);
    } else {
        const bool emoji = rng.below(4) == 0;
        line += expand(rng, emoji ? R"(log("done 😀 {id}");)" : "return {id} >= {num};", id, num);
    }
    line += '\n';
    return line;
}

} // namespace detail

/// The decoded `write_file` content: exactly `content_bytes` bytes of valid UTF-8 pseudo source
/// code, ending in '\n' when non-empty. It never contains the XML or sentinel end markers.
inline std::string write_file_content(std::size_t content_bytes)
{
    detail::splitmix64 rng(content_seed);
    std::string out;
    out.reserve(content_bytes);
    while (out.size() < content_bytes) {
        std::string line = detail::source_line(rng);
        const std::size_t room = content_bytes - out.size();
        if (line.size() <= room) {
            out += line;
            continue;
        }
        // Last line: cut at a code-point boundary, pad with spaces so the size is exact.
        std::size_t keep = 0;
        while (keep < line.size() - 1) {
            const std::size_t len = detail::utf8_sequence_length(static_cast<unsigned char>(line[keep]));
            if (keep + len > room - 1) break;
            keep += len;
        }
        out.append(line, 0, keep);
        out.append(room - 1 - keep, ' ');
        out += '\n';
    }
    return out;
}

/// The `write_file` arguments JSON text every argument-delta stream carries:
/// `{"path":"src/generated.txt","content":"<content>"}`, non-ASCII half raw, half \u-escaped.
inline std::string write_file_arguments_json(std::size_t content_bytes)
{
    const std::string content = write_file_content(content_bytes);
    detail::splitmix64 rng(escape_seed);
    std::string out = "{\"path\":\"";
    out += write_file_path;
    out += "\",\"content\":\"";
    out.reserve(out.size() + content.size() + content.size() / 4 + 2);
    detail::append_json_escaped(out, content, &rng);
    out += "\"}";
    return out;
}

namespace detail {

inline std::string openai_chunk(std::string_view delta_json, std::string_view finish_reason = "null")
{
    std::string out = "{\"id\":\"";
    out += openai_completion_id;
    out += "\",\"object\":\"chat.completion.chunk\",\"created\":";
    out += std::to_string(created_unix);
    out += ",\"model\":\"";
    out += openai_model;
    out += "\",\"system_fingerprint\":\"fp_bench\",\"choices\":[{\"index\":0,\"delta\":";
    out += delta_json;
    out += ",\"logprobs\":null,\"finish_reason\":";
    out += finish_reason;
    out += "}],\"usage\":null}";
    return out;
}

inline std::string openai_usage_chunk(std::size_t completion_tokens)
{
    std::string out = "{\"id\":\"";
    out += openai_completion_id;
    out += "\",\"object\":\"chat.completion.chunk\",\"created\":";
    out += std::to_string(created_unix);
    out += ",\"model\":\"";
    out += openai_model;
    out += "\",\"system_fingerprint\":\"fp_bench\",\"choices\":[],\"usage\":{\"prompt_tokens\":";
    out += std::to_string(prompt_tokens);
    out += ",\"completion_tokens\":";
    out += std::to_string(completion_tokens);
    out += ",\"total_tokens\":";
    out += std::to_string(prompt_tokens + completion_tokens);
    out += "}}";
    return out;
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
        std::string out = "{\"id\":\"";
        out += mistral_completion_id;
        out += "\",\"object\":\"chat.completion.chunk\",\"created\":";
        out += std::to_string(created_unix);
        out += ",\"model\":\"";
        out += mistral_model;
        out += "\",\"choices\":[{\"index\":0,";
        out += choice;
        out += ",\"logprobs\":null}]";
        out += tail;
        out += '}';
        return out;
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

/// One generic call of mixed_chat_sse, as the benchmark should see it after the stream.
struct mixed_call {
    std::string_view id;
    std::string_view name;
    std::string arguments;
};

/// What mixed_chat_sse(scale) carries, decoded, so benchmarks can verify their output.
struct mixed_chat_expected {
    std::string reasoning;
    std::string text;
    std::array<mixed_call, 3> calls;
};

inline mixed_chat_expected mixed_chat_expected_output(std::size_t scale)
{
    detail::splitmix64 rng(mixed_seed);
    mixed_chat_expected e;
    for (std::size_t i = 0; i < 8 * scale; ++i) {
        e.reasoning += detail::expand(rng, "The {w} {w} looks {a}; check {w} → {w} before touching \"{w}\".\n");
    }
    for (std::size_t i = 0; i < 4 * scale; ++i) {
        e.text += detail::expand(rng, "I'll search for \"{w}\", read src/{w}.cpp and run the {a} tests (a < b, c > d).\n");
    }

    std::string search = detail::expand(rng, "{\"query\":\"TODO({w})\",\"paths\":[");
    for (std::size_t i = 0; i < scale; ++i) search += detail::expand(rng, i ? ",\"src/{w}.cpp\"" : "\"src/{w}.cpp\"");
    search += "],\"max_results\":25,\"case_sensitive\":false}";

    std::string read = detail::expand(rng, "{\"path\":\"src/{w}.cpp\",\"ranges\":[");
    for (std::size_t i = 0; i < scale; ++i) {
        read += (i ? ",{\"start\":" : "{\"start\":") + std::to_string(i * 40 + 1) +
                ",\"end\":" + std::to_string(i * 40 + 40) + "}";
    }
    read += "],\"encoding\":\"utf-8\"}";

    std::string run = "{\"command\":\"make -j2 test\",\"args\":[";
    for (std::size_t i = 0; i < scale; ++i) run += detail::expand(rng, i ? ",\"--{w}\"" : "\"--{w}\"");
    run += detail::expand(rng, "],\"env\":{\"CC\":\"g++\",\"CFLAGS\":\"-O2 -Wall\"},\"timeout_s\":30.5,"
                               "\"dry_run\":false,\"notes\":null,\"label\":\"{a} \\\"quoted\\\" \\u2192 ok\\n\"}");

    e.calls = {mixed_call{"call_bench_mix_0", "search_code", std::move(search)},
               mixed_call{"call_bench_mix_1", "read_file", std::move(read)},
               mixed_call{"call_bench_mix_2", "run_command", std::move(run)}};
    return e;
}

/// OpenAI Chat Completions stream exercising everything but a big string: `reasoning_content`
/// deltas, then `content` deltas, then three parallel generic calls whose argument deltas
/// interleave by index (0,1,2,0,1,2,…). Pieces are `mixed_delta_chars` code points; `scale`
/// multiplies the text lengths and the arrays inside the arguments (scale ≥ 1).
inline std::string mixed_chat_sse(std::size_t scale)
{
    const mixed_chat_expected e = mixed_chat_expected_output(scale);
    std::string out;
    std::size_t tokens = 0;
    const auto emit = [&](const std::string& delta) {
        detail::append_sse(out, {}, detail::openai_chunk(delta));
        ++tokens;
    };
    emit("{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\"}");
    for (const auto piece : detail::split_code_points(e.reasoning, mixed_delta_chars)) {
        emit("{\"reasoning_content\":" + detail::json_quoted(piece) + "}");
    }
    for (const auto piece : detail::split_code_points(e.text, mixed_delta_chars)) {
        emit("{\"content\":" + detail::json_quoted(piece) + "}");
    }
    std::array<std::vector<std::string_view>, 3> pieces;
    std::size_t longest = 0;
    for (std::size_t k = 0; k < 3; ++k) {
        pieces[k] = detail::split_code_points(e.calls[k].arguments, mixed_delta_chars);
        longest = std::max(longest, pieces[k].size());
    }
    for (std::size_t i = 0; i < longest; ++i) {
        for (std::size_t k = 0; k < 3; ++k) {
            if (i >= pieces[k].size()) continue;
            emit(i == 0 ? detail::openai_tool_delta(k, e.calls[k].id, e.calls[k].name, pieces[k][i])
                        : detail::openai_tool_delta(k, {}, {}, pieces[k][i]));
        }
    }
    detail::append_openai_trailer(out, tokens);
    return out;
}

/// Model text in the XML tool syntax: prose with bare `<`/`>`, a `write_file` call whose content
/// sits raw between `__START_CONTENT__\n` and `__END_CONTENT__` (the content's own final '\n'
/// precedes the end marker), then a generic `read_file` call and closing prose.
inline std::string xml_embedded_text(std::size_t content_bytes)
{
    std::string out = "I'll replace the generator; the old loop ran while i < n and stopped once i > limit.\n\n"
                      "<tool name=\"write_file\">\n<arguments>\n<arg name=\"path\">";
    out += write_file_path;
    out += "</arg>\n<arg name=\"content\">";
    out += xml_content_start;
    out += '\n';
    out += write_file_content(content_bytes);
    out += xml_content_end;
    out += "</arg>\n</arguments>\n</tool>\n\nNow let me compare it with the previous version (a -> b):\n\n"
           "<tool name=\"read_file\"><arguments><arg name=\"path\">";
    out += read_file_path;
    out += "</arg></arguments></tool>\n\nDone.\n";
    return out;
}

/// Model text in the JSON tool syntax: prose, then
/// `{"tool":{"function":"write_file","parameters":{"path":…,"content":…}}}` on its own line.
inline std::string json_embedded_text(std::size_t content_bytes)
{
    const std::string arguments = write_file_arguments_json(content_bytes);
    std::string out = "I'll write the generated file now (it replaces the old one).\n";
    out += "{\"tool\":{\"function\":\"";
    out += write_file_tool_name;
    out += "\",\"parameters\":";
    out += arguments;
    out += "}}\nThe file is written; next I'll run the tests.\n";
    return out;
}

/// Model text in the sentinel syntax: prose, then
/// `[[SEG_START {"type":"write_file","path":…}]]<raw content>[[SEG_END]]`, then prose.
inline std::string sentinel_embedded_text(std::size_t content_bytes)
{
    std::string out = "Writing the generated file now.\n";
    out += sentinel_start;
    out += " {\"type\":\"write_file\",\"path\":\"";
    out += write_file_path;
    out += "\"}]]";
    out += write_file_content(content_bytes);
    out += sentinel_end;
    out += "\nAll done.\n";
    return out;
}

} // namespace toolstream::bench
