// expect: this sink takes argument_fragment only by non-const or rvalue reference.*declare operator\(\)\(const argument_fragment&\)
// A sink whose fragment overload takes a non-const reference: it would never be called.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/xml.hpp>

struct sink {
    void operator()(const toolstream::segment_event&) {}
    void operator()(toolstream::argument_fragment&) {}
};

int main()
{
    toolstream::handler<toolstream::xml, sink> h;
    return h.feed("text") ? 1 : 0;
}
