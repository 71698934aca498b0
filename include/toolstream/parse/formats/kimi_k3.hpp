// kimi_k3: Kimi K3 tool calls (XTML), as vLLM's --tool-call-parser kimi_k3 reads them:
// <|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|><|open|>argument key="K" type="string"<|sep|>V
// <|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>, the answer between
// <|open|>response<|sep|> and <|close|>response<|sep|>.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/quoted_attribute.hpp>
#include <toolstream/parse/engine/text_format.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream {

/// Traits of the kimi_k3 format (text_format_traits):
/// - A `tools` channel `<|open|>tools<|sep|>` … `<|close|>tools<|sep|>` of calls
///   `<|open|>call tool="NAME" …<|sep|>` … `<|close|>call<|sep|>`, blanks between them; anything
///   else ends the channel. A call header without a blank after `call` or without a `tool`
///   attribute makes the opener text.
/// - Arguments `<|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>`: `type="string"`
///   (or no type) keeps V as raw text, streamed as JSON string fragments (`write_file` streams its
///   body live); any other type holds V to its close and JSON-decodes it, a string when it does
///   not parse. With `options.schemas`, a value the tool's schema types follows the schema.
///   `&quot;` and `&amp;` in the tool name and keys are `"` and `&`.
/// - `<|close|>argument<|sep|>` ends a value only when blanks and then the next argument or
///   `<|close|>call<|sep|>` follow (lookahead of 64 blanks); elsewhere it is part of the value.
/// - `<|open|>response<|sep|>`, `<|close|>response<|sep|>` and `<|close|>message<|sep|>` are
///   markup wherever they stand outside a call; the answer between them is text. The `think`
///   channel belongs to the reasoning parser of the same name.
/// - A stream that ends after `<|close|>call<|sep|>` (the channel's close cut off) ENDs the call
///   `complete`; before it, `incomplete`.
struct kimi_k3_format : marker_format {
    static constexpr std::string_view name = "kimi_k3";
    static constexpr std::string_view section_open = "<|open|>tools<|sep|>";
    static constexpr std::string_view section_close = "<|close|>tools<|sep|>";
    static constexpr std::string_view call_open = "<|open|>call";
    static constexpr std::string_view header_end = "<|sep|>";
    static constexpr text_arguments arguments = text_arguments::key_value;
    static constexpr std::string_view parameter_open = "<|open|>argument";
    static constexpr std::string_view parameter_name_end = "<|sep|>";
    static constexpr std::string_view value_close = "<|close|>argument<|sep|>";
    static constexpr std::string_view parameters_close = "<|close|>call<|sep|>";
    static constexpr value_type_attribute typed_value_attribute{"type", "string"};
    static constexpr std::array<std::string_view, 3> markup_markers{
        "<|open|>response<|sep|>", "<|close|>response<|sep|>", "<|close|>message<|sep|>"};

    /// ` tool="NAME" index="1"`: the tool name.
    static std::optional<call_header> read_header(std::string_view header)
    {
        if (header.empty() || !detail::is_blank(header.front()))
            return std::nullopt;
        const auto tool = detail::quoted_attribute(header, "tool");
        if (!tool || tool->empty())
            return std::nullopt;
        return call_header{unescape(*tool), {}};
    }

    /// ` key="K" type="string"`: the key.
    static std::string read_parameter_name(std::string_view raw)
    {
        return unescape(detail::quoted_attribute(raw, "key").value_or(""));
    }

private:
    // The template escapes `&` and `"` in attribute values.
    static std::string unescape(std::string_view value)
    {
        std::string out;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string_view rest = value.substr(i);
            if (rest.starts_with("&quot;")) {
                out.push_back('"');
                i += 5;
            } else if (rest.starts_with("&amp;")) {
                out.push_back('&');
                i += 4;
            } else {
                out.push_back(value[i]);
            }
        }
        return out;
    }
};

using kimi_k3 = text_format_policy<kimi_k3_format>;
static_assert(text_format_traits<kimi_k3_format> && parser_policy<kimi_k3>);

} // namespace toolstream
