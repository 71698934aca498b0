// The spellings of a reasoning parser's marker (reasoning_syntax's alternatives), the longer one
// winning where one begins another.
#pragma once

#include <toolstream/parse/engine/detail/marker_scanner.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace toolstream::detail {

/// A reasoning marker and its other spellings (reasoning_syntax), the empty ones left out.
class marker_spellings {
public:
    marker_spellings(std::string_view marker, const std::array<std::string_view, 3>& others) noexcept
    {
        add(marker);
        for (const std::string_view other : others)
            add(other);
    }

    std::span<const std::string_view> view() const noexcept { return {markers_.data(), count_}; }

    struct match {
        std::size_t length = 0;       ///< The longest spelling `text` starts with; 0: none.
        bool longer_pending = false;  ///< `text` is a proper prefix of a spelling (longer than `length`).
    };
    match at(std::string_view text) const noexcept
    {
        match m;
        for (const std::string_view spelling : view()) {
            const std::size_t n = scan::common_prefix(text, spelling, false);
            if (n == spelling.size())
                m.length = std::max(m.length, n);
            else if (n == text.size())
                m.longer_pending = true;
        }
        return m;
    }

private:
    void add(std::string_view marker) noexcept
    {
        if (!marker.empty())
            markers_[count_++] = marker;
    }

    std::array<std::string_view, 4> markers_{};
    std::size_t count_ = 0;
};

} // namespace toolstream::detail
