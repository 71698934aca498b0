// The signature that opens JSON tool calls in model text (`{"tool":`, `[{"name":`...), matched
// byte by byte as it streams.
#pragma once

#include <toolstream/detail/ascii.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// How the calls sit in a JSON text that opened with a signature.
enum class json_call_layout {
    single,  ///< `{"tool":…}`, `{"function":…}`, `{"name":…}`: the object is the call.
    list,    ///< `{"tool_calls":[…]}`, `{"tools":[…]}`: each object of the first key's array is a call.
    array,   ///< `[{"tool":…}, …]`: each object of the array is a call.
};

/// Matches the opening of a JSON tool call byte by byte, ignoring whitespace between tokens
/// (`{ "tool" :` matches `{"tool":`), so a signature split anywhere still matches.
class json_signature_matcher {
public:
    enum class verdict { more, match, no_match };

    void reset() noexcept
    {
        len_ = 0;
        quotes_ = 0;
        scanned_ = 0;
    }

    /// Bytes of the candidate examined so far (the candidate starts at its `{` or `[`).
    std::size_t scanned() const noexcept { return scanned_; }

    /// Examines `candidate[scanned()..]`, which starts at the candidate's first byte.
    verdict advance(std::string_view candidate) noexcept
    {
        for (; scanned_ < candidate.size(); ++scanned_) {
            const char c = candidate[scanned_];
            if (quotes_ % 2 == 0 && is_blank(c))
                continue;
            compact_[len_++] = c;
            quotes_ += c == '"' ? 1 : 0;
            bool prefix = false;
            for (const auto& s : signatures) {
                const std::string_view sig = s.text;
                if (sig.size() < len_ || sig.compare(0, len_, std::string_view(compact_.data(), len_)) != 0)
                    continue;
                if (sig.size() == len_) {
                    layout_ = s.layout;
                    ++scanned_;
                    return verdict::match;
                }
                prefix = true;
            }
            if (!prefix)
                return verdict::no_match;
        }
        return verdict::more;
    }

    json_call_layout layout() const noexcept { return layout_; }

private:
    struct signature {
        std::string_view text;
        json_call_layout layout;
    };
    static constexpr std::array<signature, 8> signatures{{
        {R"({"tool":)", json_call_layout::single},
        {R"({"function":)", json_call_layout::single},
        {R"({"name":)", json_call_layout::single},
        {R"({"tool_calls":)", json_call_layout::list},
        {R"({"tools":)", json_call_layout::list},
        {R"([{"tool":)", json_call_layout::array},
        {R"([{"function":)", json_call_layout::array},
        {R"([{"name":)", json_call_layout::array},
    }};

    std::array<char, 16> compact_{};  // the non-whitespace bytes so far; a mismatch comes by 15
    std::size_t len_ = 0;
    std::size_t quotes_ = 0;
    std::size_t scanned_ = 0;
    json_call_layout layout_ = json_call_layout::single;
};

} // namespace toolstream::detail
