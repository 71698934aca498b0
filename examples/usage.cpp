// The README's usage example (also benchmarks/compile_time.sh's translation unit). The README's
// copy is built and run by the ctest readme_programs.
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/sinks.hpp>  // callback_sink; <toolstream.hpp> would add every policy
#include <iostream>

int main() {
    auto on_event = [](const toolstream::segment_event& e) {
        using toolstream::segment_event_type, toolstream::segment_type;
        if (e.type == segment_event_type::SEGMENT_START && toolstream::is_tool_segment(e.segment_kind))
            std::cout << "\n[" << toolstream::tool_name_of(e) << "]\n";   // a call begins
        if (e.type == segment_event_type::SEGMENT_CONTENT
            && (e.segment_kind == segment_type::text || e.segment_kind == segment_type::write_file))
            std::cout << e.delta;   // the answer, and a file's body as it is written
    };
    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call,
                         toolstream::callback_sink<decltype(on_event)>>
        stream{toolstream::callback_sink{on_event}};

    for (std::string body; std::getline(std::cin, body);)  // bytes of the HTTP response body
        stream.write(body + "\n");
    stream.finish();

    for (const auto& call : stream.choice(0).invocations())
        if (call.is_complete()) {                     // never run a truncated call
            std::cout << "\nrun " << call.name << " with";
            for (const auto& argument : call.arguments)   // a boost::json::object
                std::cout << " " << argument.key();
            std::cout << "\n";
        }
}
