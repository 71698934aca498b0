// toolstream-typed-tools: tools declared once as described structs. Prints their OpenAI and
// Anthropic definitions, then replays the bundled demo stream (a model calling write_file) and
// runs the call through a typed handler the moment the call is complete.
//
//   toolstream-typed-tools [STREAM.sse]
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/tools/toolset.hpp>

#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#ifndef TOOLSTREAM_DEMO_DATA
#define TOOLSTREAM_DEMO_DATA "write_file_demo.sse"
#endif

enum class write_mode { overwrite, append };
BOOST_DESCRIBE_ENUM(write_mode, overwrite, append)

struct write_file_args {
    std::string path;
    std::string content;
    std::optional<write_mode> mode;
};
BOOST_DESCRIBE_STRUCT(write_file_args, (), (path, content, mode))

struct search_args {
    std::string query;
    std::optional<int> limit;
};
BOOST_DESCRIBE_STRUCT(search_args, (), (query, limit))

struct run_bash_args {
    std::string command;
    std::vector<std::string> env;
};
BOOST_DESCRIBE_STRUCT(run_bash_args, (), (command, env))

template<>
struct toolstream::field_info<write_file_args> {
    static constexpr field_doc fields[] = {
        {.name = "path", .description = "Path relative to the workspace root"},
        {.name = "mode", .description = "overwrite (default) or append"},
    };
};
template<>
struct toolstream::field_info<search_args> {
    static constexpr field_doc fields[] = {{.name = "limit", .description = "Results to return", .minimum = 1, .maximum = 20}};
};

int main(int argc, char** argv)
{
    const auto tools = toolstream::toolset{
        toolstream::tool<write_file_args>("write_file", "Write a file to the workspace"),
        toolstream::tool<search_args>("search", "Search the web"),
        toolstream::tool<run_bash_args>("run_bash", "Run a shell command"),
    };
    std::cout << "OpenAI Chat tools:  " << boost::json::serialize(tools.openai_chat({.strict = true})) << "\n\n";
    std::cout << "Anthropic tools:    " << boost::json::serialize(tools.anthropic()) << "\n\n";

    std::map<std::string, std::string> workspace;   // where write_file writes, in memory
    auto handlers = toolstream::overloaded{
        [&](const write_file_args& a, const toolstream::tool_invocation& call) {
            auto& file = workspace[a.path];
            file = a.mode == write_mode::append ? file + a.content : a.content;
            std::cout << "ran " << call.name << " (" << call.id << "): " << a.path << ", " << a.content.size() << " bytes\n";
        },
        [](const search_args& a) { std::cout << "ran search: " << a.query << "\n"; },
        [](const run_bash_args& a) { std::cout << "ran run_bash: " << a.command << "\n"; },
    };
    auto report = [](const toolstream::tool_invocation& call, const toolstream::dispatch_result<>& r) {
        if (!r)
            std::cout << "refused " << call.name << ": " << boost::describe::enum_to_string(r.status, "?") << " "
                      << r.error << "\n";
    };

    const std::string path = argc > 1 ? argv[1] : TOOLSTREAM_DEMO_DATA;
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in && !in.eof()) {
        std::cerr << "toolstream-typed-tools: cannot read " << path << "\n";
        return 1;
    }
    using sink = decltype(tools.sink(handlers, report));
    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call, sink> stream{tools.sink(handlers, report)};
    for (std::size_t at = 0; at < bytes.size(); at += 512)   // as the HTTP body would arrive
        (void)stream.write(std::string_view(bytes).substr(at, 512));
    (void)stream.finish();

    for (const auto& [file, content] : workspace)
        std::cout << "workspace: " << file << " (" << content.size() << " bytes)\n";
    return workspace.size() == 1 ? 0 : 1;
}
