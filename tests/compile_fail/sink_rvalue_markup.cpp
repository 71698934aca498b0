// expect: this sink takes consumed_markup only by non-const or rvalue reference.*declare operator\(\)\(const consumed_markup&\)
// Through callback_sink: an overload set whose markup overload takes an rvalue reference.
#include <toolstream/sinks.hpp>

struct callbacks {
    void operator()(const toolstream::segment_event&) {}
    void operator()(toolstream::consumed_markup&&) {}
};

int main()
{
    toolstream::callback_sink<callbacks> s{callbacks{}};
    s(toolstream::segment_event{});
}
