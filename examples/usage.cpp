// The README's usage example (also benchmarks/compile_time.sh's translation unit). The README's
// copy is built and run by the ctest readme_programs.
#include <toolstream/writers/sinks.hpp>  // callback_sink; <toolstream.hpp> would add every policy
#include <toolstream/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <iostream>

int main() {
    auto on_event = [](const toolstream::segment_event& e) {
        if (e.type == toolstream::segment_event_type::SEGMENT_CONTENT)
            std::cout << e.delta;   // every CONTENT: the text, and a write_file's body as it is written
    };
    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call,
                         toolstream::callback_sink<decltype(on_event)>>
        stream{toolstream::callback_sink{on_event}};

    for (std::string body; std::getline(std::cin, body);)  // bytes of the HTTP response body
        stream.write(body + "\n");
    stream.finish();

    for (const auto& call : stream.choice(0).invocations())
        if (call.is_complete())                       // never run a truncated call
            std::cout << "\nrun " << call.name << " " << call.arguments << "\n";
}
