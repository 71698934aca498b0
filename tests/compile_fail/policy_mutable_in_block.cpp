// expect: a parser policy's in_block\(\) must be callable as `bool in_block\(\) const`
// A policy whose in_block() is not const: a reasoning parser in front of it could not ask, and
// would open regions inside its calls.
#include <toolstream/parse/policies/reasoning.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/sinks.hpp>

struct policy {
    template<class Emitter>
    void on_content(std::string_view text, Emitter& out)
    {
        out.text(text);
    }
    template<class Emitter>
    void finalize(Emitter&)
    {
    }
    void reset() {}
    bool in_block() { return false; }
};

int main()
{
    toolstream::reasoning_policy<policy, toolstream::mistral_reasoning> p;
    toolstream::recording_sink sink;
    toolstream::segment_emitter<toolstream::recording_sink> out(sink);
    p.on_content("a[THINK]b", out);
    return 0;
}
