// expect: this sink takes choice_finished only by non-const or rvalue reference.*declare operator\(\)\(const choice_finished&\)
// A pipeline's sink: the response-level events are checked too.
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/openai_chat.hpp>

struct sink {
    void operator()(const toolstream::segment_event&) {}
    void operator()(toolstream::choice_finished&) {}
};

int main()
{
    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call, sink> p;
    return p.finish() ? 1 : 0;
}
