// Reading one attribute of a marker's header written as `NAME="VALUE"` pairs (DSML's
// ` name="K" string="true"`, Kimi K3's ` key="K" type="string"`).
#pragma once

#include <toolstream/detail/ascii.hpp>

#include <optional>
#include <string_view>

namespace toolstream::detail {

/// The raw value of attribute `name` in `header`: blank-separated `NAME="VALUE"` pairs, no blanks
/// around `=`, no quote inside a value. None when absent, or when the pairs break off before it.
constexpr std::optional<std::string_view> quoted_attribute(std::string_view header, std::string_view name) noexcept
{
    for (std::string_view rest = skip_blanks(header); !rest.empty(); rest = skip_blanks(rest)) {
        const std::size_t equals = rest.find("=\"");
        if (equals == std::string_view::npos)
            return std::nullopt;
        const std::size_t close = rest.find('"', equals + 2);
        if (close == std::string_view::npos)
            return std::nullopt;
        if (rest.substr(0, equals) == name)
            return rest.substr(equals + 2, close - equals - 2);
        rest = rest.substr(close + 1);
    }
    return std::nullopt;
}

} // namespace toolstream::detail
