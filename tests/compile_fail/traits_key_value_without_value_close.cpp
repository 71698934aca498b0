// expect: key_value format traits lack `value_close`: declare `static constexpr std::string_view value_close
// key_value traits need their parameter markers.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/engine/text_format.hpp>

struct my_format : toolstream::marker_format {
    static constexpr std::string_view name = "mine";
    static constexpr std::string_view call_open = "<call=";
    static constexpr std::string_view header_end = ">";
    static constexpr std::string_view call_close = "</call>";
    static constexpr toolstream::text_arguments arguments = toolstream::text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<p=";
    static constexpr std::string_view parameter_name_end = ">";
};

int main()
{
    toolstream::handler<toolstream::text_format_policy<my_format>> h;
    return h.feed("text") ? 1 : 0;
}
