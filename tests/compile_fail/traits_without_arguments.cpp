// expect: these format traits lack `arguments`: declare `static constexpr text_arguments arguments
// Marker format traits without `arguments`.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

struct my_format : toolstream::marker_format {
    static constexpr std::string_view name = "mine";
    static constexpr std::string_view call_open = "<call>";
    static constexpr std::string_view call_close = "</call>";
};

int main()
{
    toolstream::handler<toolstream::text_format_policy<my_format>> h;
    return h.feed("text") ? 1 : 0;
}
