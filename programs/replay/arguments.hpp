// The command line of toolstream-replay (docs/replay.md): its flags, the help text, and a usage
// error for every bad argument that names the argument and why. The provider, parser and
// reasoning-parser names come from the registry.
#pragma once

#include <toolstream/parse/policies/reasoning_parsers.hpp>
#include <toolstream/parse/raw_parameters.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include "../common/names.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace replay {

namespace ts = toolstream;
using toolstream_programs::joined;

enum class emit_mode { summary, events, invocations, openai_sse, anthropic_sse, openai_responses_sse, tarko };

inline constexpr std::array<std::pair<std::string_view, emit_mode>, 7> emit_modes{{
    {"summary", emit_mode::summary},
    {"events", emit_mode::events},
    {"invocations", emit_mode::invocations},
    {"openai-sse", emit_mode::openai_sse},
    {"anthropic-sse", emit_mode::anthropic_sse},
    {"openai-responses-sse", emit_mode::openai_responses_sse},
    {"tarko", emit_mode::tarko},
}};

/// The modes that write a client API's stream through a writer sink.
constexpr bool writes_api_stream(emit_mode m) noexcept
{
    return m == emit_mode::openai_sse || m == emit_mode::anthropic_sse || m == emit_mode::openai_responses_sse;
}
inline constexpr std::array<std::pair<std::string_view, ts::extension_encoding>, 2> extension_encodings{{
    {"chunk", ts::extension_encoding::chunk},
    {"comment", ts::extension_encoding::comment},
}};

/// --chunk's range: one byte to the largest read buffer worth allocating.
inline constexpr std::size_t max_chunk = std::size_t{64} << 20;

struct arguments {
    std::string provider;
    std::string parser;
    std::string reasoning_parser;
    std::optional<bool> thinking_open;                 // --thinking-open yes|no
    std::shared_ptr<const ts::tool_schemas> schemas;   // --tools
    std::size_t chunk = 64 * 1024;
    emit_mode emit = emit_mode::summary;
    bool tool_events = false;
    ts::extension_encoding extensions = ts::extension_encoding::chunk;
    std::string input = "-";
};

/// What the command line asks for: a run, the help or the version; or a usage error.
struct command_line {
    enum class action { run, help, version };
    action what = action::run;
    arguments args;
    std::string error;   ///< non-empty: the bad argument and why
};

inline std::string provider_list() { return joined(ts::provider_names, ", ") + ", text"; }
inline std::string parser_list()
{
    std::string out = joined(ts::policy_names, ", ");
    for (const auto& [alias, target] : ts::policy_aliases)
        out.append(", ").append(alias).append(" (= ").append(target).append(")");
    return out;
}

inline std::string usage_text()
{
    return "usage: toolstream-replay --provider " + joined(ts::provider_names, "|") + "|text\n"
           "                         [--parser NAME] [--reasoning-parser NAME] [--thinking-open yes|no]\n"
           "                         [--tools FILE.json]\n"
           "                         [--chunk N] [--emit " + joined(emit_modes, "|") + "]\n"
           "                         [--tool-events] [--extensions chunk|comment] [FILE|-]\n"
           "       toolstream-replay --serve [--listen ADDR] [--pace MS] [--no-wait] --provider NAME FILE\n"
           "       toolstream-replay --help | --version\n";
}

// `text` broken at spaces into lines of at most 100 columns, continuation lines indented to
// the description column of the help text.
inline std::string wrapped(std::string_view text, std::size_t column)
{
    constexpr std::size_t width = 100;
    std::string out;
    std::size_t line = column;
    while (!text.empty()) {
        const std::size_t space = text.find(' ');
        const std::string_view word = text.substr(0, space);
        if (line > column && line + 1 + word.size() > width) {
            out.append("\n").append(column, ' ');
            line = column;
        } else if (line > column) {
            out.push_back(' ');
            ++line;
        }
        out.append(word);
        line += word.size();
        text.remove_prefix(space == std::string_view::npos ? text.size() : space + 1);
    }
    return out;
}

inline std::string help_text()
{
    return usage_text() +
           "\nReplays a recorded provider response body (or, with --provider text, plain model output)\n"
           "through toolstream and prints what it found. FILE defaults to standard input (-).\n"
           "\n"
           "  --provider NAME          " + wrapped("the body's dialect: " + provider_list(), 27) + "\n"
           "  --parser NAME            " + wrapped("the policy for the content channel (default: $TOOLSTREAM_STREAM_PARSER, else " +
                                                   std::string(ts::policy_names[0]) + "): " + parser_list(), 27) + "\n"
           "  --reasoning-parser NAME  " + wrapped("split reasoning out first: " + joined(ts::reasoning_parsers, ", "), 27) + "\n"
           "  --thinking-open yes|no   whether the prompt left a reasoning region open (default: the\n"
           "                           reasoning parser's own; see docs/text_formats.md)\n"
           "  --tools FILE.json        an OpenAI tools array whose schemas type key/value formats' values\n"
           "  --chunk N                feed N-byte pieces, 1 to " + std::to_string(max_chunk) + " (default 65536)\n"
           "  --emit MODE              summary (default): one JSON object; events: one segment event per line;\n"
           "                           invocations: one tool call per line; openai-sse: OpenAI Chat\n"
           "                           Completions SSE; anthropic-sse: Anthropic Messages SSE;\n"
           "                           openai-responses-sse: OpenAI Responses SSE; tarko: Agent TARS\n"
           "                           tool-call events, one per line\n"
           "  --tool-events            with --emit openai-sse: the progress and result a host would add\n"
           "  --extensions ENCODING    with --tool-events: chunk (default) or comment\n"
           "  --serve                  serve the live viewer and replay FILE into it (--listen ADDR,\n"
           "                           default 127.0.0.1:8765; --pace MS between events, default 20): docs/viewer.md\n"
           "  --help, --version        print this help or the version, and exit\n"
           "\nExit status: 0 the stream was processed; 1 an input or output failure, or a stream that is not\n"
           "the provider's or is empty; 2 bad usage.\n"
           "Details: docs/replay.md.\n";
}

/// The schemas of the OpenAI `tools` array in `path`, or why there are none (`error`).
inline std::shared_ptr<const ts::tool_schemas> read_tools(const std::string& path, std::string& error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) {
        error = "cannot open --tools file '" + path + "': " + std::strerror(errno);
        return nullptr;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        error = "cannot read --tools file '" + path + "'";
        return nullptr;
    }
    boost::system::error_code ec;
    const boost::json::value tools = boost::json::parse(text, ec);
    if (ec) {
        error = "--tools file '" + path + "' is not JSON: " + ec.message();
        return nullptr;
    }
    if (!tools.is_array()) {
        error = "--tools file '" + path + "' is not a JSON array of tools (an OpenAI `tools` array)";
        return nullptr;
    }
    return std::make_shared<const ts::tool_schemas>(tools.get_array());
}

/// `value` if it is a decimal number in [1, max_chunk], else nothing and `error` says why.
inline std::size_t parse_chunk(std::string_view value, std::string& error)
{
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec == std::errc::invalid_argument || end != value.data() + value.size())
        error = "--chunk '" + std::string(value) + "' is not a whole number of bytes";
    else if (ec == std::errc::result_out_of_range || n == 0 || n > max_chunk)
        error = "--chunk '" + std::string(value) + "' is out of range: 1 to " + std::to_string(max_chunk);
    return error.empty() ? n : 0;
}

template<class Table>
bool pick(const Table& table, std::string_view value, auto& out)
{
    for (const auto& [name, mode] : table)
        if (name == value) {
            out = mode;
            return true;
        }
    return false;
}

inline command_line parse_arguments(int argc, char** argv)
{
    command_line c;
    arguments& a = c.args;
    a.parser = std::string(ts::default_policy_name());
    bool input_given = false;
    bool tool_events_flags = false;
    auto fail = [&c](std::string why) {
        c.error = std::move(why);
        return c;
    };
    static constexpr std::array<std::string_view, 8> with_value{
        "--provider", "--parser", "--reasoning-parser", "--thinking-open", "--tools", "--chunk", "--emit", "--extensions"};
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            c.what = command_line::action::help;
            return c;
        }
        if (arg == "--version") {
            c.what = command_line::action::version;
            return c;
        }
        bool takes_value = false;
        for (auto flag : with_value)
            takes_value = takes_value || arg == flag;
        if (takes_value && i + 1 >= argc)
            return fail(std::string(arg) + " needs a value");
        const std::string_view v = takes_value ? std::string_view(argv[++i]) : std::string_view{};
        if (arg == "--provider") {
            a.provider = v;
        } else if (arg == "--parser") {
            a.parser = v;
        } else if (arg == "--reasoning-parser") {
            a.reasoning_parser = v;
        } else if (arg == "--thinking-open") {
            if (v != "yes" && v != "no")
                return fail("--thinking-open takes yes or no, not '" + std::string(v) + "'");
            a.thinking_open = v == "yes";
        } else if (arg == "--tools") {
            std::string why;
            if (a.schemas = read_tools(std::string(v), why); a.schemas == nullptr)
                return fail(why);
        } else if (arg == "--chunk") {
            std::string why;
            if (a.chunk = parse_chunk(v, why); !why.empty())
                return fail(why);
        } else if (arg == "--emit") {
            if (!pick(emit_modes, v, a.emit))
                return fail("unknown --emit '" + std::string(v) + "'; known: " + joined(emit_modes, ", "));
        } else if (arg == "--extensions") {
            if (!pick(extension_encodings, v, a.extensions))
                return fail("unknown --extensions '" + std::string(v) + "'; known: " + joined(extension_encodings, ", "));
            tool_events_flags = true;
        } else if (arg == "--tool-events") {
            a.tool_events = true;
            tool_events_flags = true;
        } else if (arg == "-" || (!arg.empty() && arg[0] != '-')) {
            if (input_given)
                return fail("two inputs given ('" + a.input + "' and '" + std::string(arg) +
                            "'): a run replays one stream; join the files first if they are one");
            a.input = arg;
            input_given = true;
        } else {
            return fail("unknown option '" + std::string(arg) + "'");
        }
    }
    if (a.provider.empty())
        return fail("--provider is required; known: " + provider_list());
    if (a.provider != "text" && std::ranges::find(ts::provider_names, a.provider) == ts::provider_names.end())
        return fail("unknown provider '" + a.provider + "'; known: " + provider_list());
    if (ts::canonical_policy_name(a.parser).empty())
        return fail("unknown parser '" + a.parser + "'; known: " + parser_list());
    if (!a.reasoning_parser.empty() && ts::find_reasoning_parser(a.reasoning_parser) == nullptr)
        return fail("unknown reasoning parser '" + a.reasoning_parser + "'; known: " +
                    joined(ts::reasoning_parsers, ", "));
    if (tool_events_flags && a.emit != emit_mode::openai_sse)
        return fail("--tool-events and --extensions apply to --emit openai-sse only");
    return c;
}

} // namespace replay
