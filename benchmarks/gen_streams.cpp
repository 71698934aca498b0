// toolstream-gen-stream: writes one generator's bytes (stream_generators.hpp) to a file or
// stdout, so the JS peers and our C++ benchmarks read byte-identical inputs.
//
//   toolstream-gen-stream <kind> <content_bytes> <delta_chars> [out_file]
//
// kinds: openai_chat anthropic openai_responses ollama mistral gemini gemini_partial mixed xml json sentinel.
// For `mixed`, <content_bytes> is the scale; the text kinds (xml, json, sentinel) and `gemini`
// ignore <delta_chars>, as does `mistral` (it sends the call whole).
#include "stream_generators.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

std::optional<std::size_t> parse_size(std::string_view s)
{
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return value;
}

std::optional<std::string> generate(std::string_view kind, std::size_t size, std::size_t delta)
{
    namespace b = toolstream::bench;
    if (kind == "openai_chat") return b::openai_chat_write_file_sse(size, delta);
    if (kind == "anthropic") return b::anthropic_write_file_sse(size, delta);
    if (kind == "openai_responses") return b::openai_responses_write_file_sse(size, delta);
    if (kind == "ollama") return b::ollama_content_ndjson(size, delta);
    if (kind == "gemini") return b::gemini_write_file_sse(size, delta);
    if (kind == "mistral") return b::mistral_write_file_sse(size, delta);
    if (kind == "gemini_partial") return b::gemini_partial_args_write_file_sse(size, delta);
    if (kind == "mixed") return b::mixed_chat_sse(size);
    if (kind == "xml") return b::xml_embedded_text(size);
    if (kind == "json") return b::json_embedded_text(size);
    if (kind == "sentinel") return b::sentinel_embedded_text(size);
    return std::nullopt;
}

int usage()
{
    std::cerr << "usage: toolstream-gen-stream <kind> <content_bytes> <delta_chars> [out_file]\n"
                 "kinds: openai_chat anthropic openai_responses ollama mistral gemini gemini_partial mixed xml json sentinel\n"
                 "(mixed: content_bytes is the scale)\n";
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4 && argc != 5) return usage();
    const auto size = parse_size(argv[2]);
    const auto delta = parse_size(argv[3]);
    if (!size || !delta || *delta == 0) return usage();

    std::optional<std::string> bytes;
    try {
        bytes = generate(argv[1], *size, *delta);
    } catch (const std::exception& e) {
        std::cerr << "toolstream-gen-stream: " << e.what() << '\n';
        return 1;
    }
    if (!bytes) return usage();

    if (argc == 5) {
        std::ofstream out(argv[4], std::ios::binary | std::ios::trunc);
        out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
        if (!out) {
            std::cerr << "toolstream-gen-stream: cannot write " << argv[4] << '\n';
            return 1;
        }
        return 0;
    }
    std::fwrite(bytes->data(), 1, bytes->size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
