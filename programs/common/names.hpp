// Lists of names in both programs' usage text and errors: the registry's, the flags' values.
#pragma once

#include <string>
#include <string_view>

namespace toolstream_programs {

/// The names joined by `separator`: strings, or pairs (their first) and syntaxes (their `name`).
template<class Names>
std::string joined(const Names& names, std::string_view separator)
{
    std::string out;
    for (const auto& name : names) {
        if (!out.empty())
            out.append(separator);
        if constexpr (requires { name.first; })
            out.append(name.first);
        else if constexpr (requires { name.name; })
            out.append(name.name);
        else
            out.append(name);
    }
    return out;
}

} // namespace toolstream_programs
