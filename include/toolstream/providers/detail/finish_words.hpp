// A dialect's finish reasons as a table: each converter's normalise_finish names its words.
#pragma once

#include <toolstream/types.hpp>

#include <initializer_list>
#include <string_view>

namespace toolstream::detail {

/// A finish reason as a dialect spells it, and the finish_kind it means.
struct finish_word {
    std::string_view reason;
    finish_kind kind;
};

/// The finish_kind that `reason` spells in `words`, else `otherwise`.
constexpr finish_kind finish_of(std::initializer_list<finish_word> words, std::string_view reason,
                                finish_kind otherwise) noexcept
{
    for (const finish_word& w : words)
        if (w.reason == reason)
            return w.kind;
    return otherwise;
}

} // namespace toolstream::detail
