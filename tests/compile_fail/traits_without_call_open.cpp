// expect: these format traits lack `call_open`: declare `static constexpr std::string_view call_open
// Marker format traits without `call_open`.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

struct my_format : toolstream::marker_format {
    static constexpr std::string_view name = "mine";
    static constexpr toolstream::text_arguments arguments = toolstream::text_arguments::json_object;
};

int main()
{
    toolstream::handler<toolstream::text_format_policy<my_format>> h;
    return h.feed("text") ? 1 : 0;
}
