// The ground of the benchmark stream generators (stream_generators.hpp): the names, ids and seeds
// every stream uses, the fixed-seed PRNG, JSON escaping, SSE framing, and the `write_file` content
// and arguments. Standard library only.
#pragma once

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

} // namespace toolstream::bench
