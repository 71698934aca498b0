// The calls GLM-4.5 and Hy3 write alike: `<tool_call>NAME…` with `<arg_key>K</arg_key>`,
// `<arg_value>V</arg_value>` parameters, `</tool_call>`.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <optional>
#include <string_view>

namespace toolstream::detail {

/// The traits glm45 and hy_v3 share (a marker_format): the call markers, `<arg_key>` /
/// `<arg_value>` parameters whose values are raw text, and a header that is the name without
/// surrounding blanks (one with blanks or markup inside names nothing, its bytes text).
struct arg_key_value_format : marker_format {
    static constexpr std::string_view call_open = "<tool_call>";
    static constexpr std::string_view call_close = "</tool_call>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<arg_key>";
    static constexpr std::string_view parameter_name_end = "</arg_key>";
    static constexpr std::string_view value_open = "<arg_value>";
    static constexpr std::string_view value_close = "</arg_value>";

    static std::optional<call_header> read_header(std::string_view header)
    {
        return named_call(trim_blanks(header));
    }
};

} // namespace toolstream::detail
