// The README's usage example, built with the examples so that it cannot rot.
#include <toolstream.hpp>
#include <toolstream/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <iostream>

int main() {
    auto on_event = [](const toolstream::segment_event& e) {
        if (e.type == toolstream::segment_event_type::SEGMENT_CONTENT)
            std::cout << e.delta;                      // the file body, as it is written
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
