// The custom mutator of the libFuzzer targets (fuzz_support.hpp): libFuzzer's own mutations, and
// now and then a grower's, which grows an input into large events and long streams of them.
#pragma once

#include "fuzz_input.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::fuzz {

/// Grows the body of a fuzz input (the header is kept) to a size drawn log-uniformly from
/// 64 KiB to `max_size`, the way large provider events look: one slice of a payload repeated
/// (a long string), one event repeated (a long stream), or both (many long events, which is what
/// broke the payload parser's arena in issue 10). Events end at a blank line, or at a line end
/// in a body without blank lines (NDJSON, model text).
class grower {
public:
    static constexpr std::size_t min_size = std::size_t{64} << 10;

    explicit grower(unsigned seed) noexcept : state_(seed | 1u) {}

    /// The grown input, or an empty string when there is nothing to grow or no room.
    std::string grow(std::string_view input, std::size_t max_size)
    {
        if (input.size() <= header_size || max_size < min_size || input.size() >= max_size)
            return {};
        const std::size_t target = log_uniform(std::max(min_size, input.size() + 1), max_size);
        std::string out(input.substr(0, header_size));
        const std::string_view body = input.substr(header_size);
        const std::size_t budget = target - header_size;
        const std::size_t at = next() % body.size();
        switch (next() % 3) {
        case 0: out += widen(body, at, budget); break;
        case 1: out += repeat_event(body, at, budget); break;
        default: {
            // Events of 4 KiB to a quarter of the budget, repeated to fill it.
            const auto [first, last] = event_around(body, at);
            const std::string event = widen(body.substr(first, last - first), at - first,
                                            log_uniform(4096, std::max<std::size_t>(4097, budget / 4)));
            std::string grown(body.substr(0, first));
            grown += event;
            grown += body.substr(last);
            out += repeat_event(grown, first, budget);
        }
        }
        if (out.size() > max_size)
            out.resize(max_size);
        return out;
    }

private:
    std::uint32_t next() noexcept
    {
        state_ ^= state_ << 13;   // xorshift32
        state_ ^= state_ >> 17;
        state_ ^= state_ << 5;
        return state_;
    }

    std::size_t log_uniform(std::size_t low, std::size_t high) noexcept
    {
        if (high <= low)
            return low;
        const double span = std::log(static_cast<double>(high) / static_cast<double>(low));
        const double u = static_cast<double>(next()) / 4294967296.0;
        return std::min(high, static_cast<std::size_t>(static_cast<double>(low) * std::exp(u * span)));
    }

    /// [first, last) of the event holding `at`, its end marker included.
    static std::pair<std::size_t, std::size_t> event_around(std::string_view body, std::size_t at)
    {
        const std::string_view end = body.find("\n\n") != std::string_view::npos ? "\n\n" : "\n";
        const std::size_t before = at == 0 ? std::string_view::npos : body.rfind(end, at - 1);
        // `at` may lie inside the end marker found (on the second byte of "\n\n"): the event
        // then starts at `at`, never after it.
        const std::size_t first = std::min(at, before == std::string_view::npos ? 0 : before + end.size());
        const std::size_t after = body.find(end, at);
        const std::size_t last = after == std::string_view::npos ? body.size() : after + end.size();
        return {first, std::max(last, first + 1)};
    }

    /// `body` with a slice of up to 16 bytes at `at` (moved onto a letter or digit nearby, so
    /// that it most often lies inside a JSON string) repeated until the whole is `size` bytes.
    std::string widen(std::string_view body, std::size_t at, std::size_t size)
    {
        for (std::size_t step = 0; step < 64 && at + 1 < body.size() && !std::isalnum(static_cast<unsigned char>(body[at])); ++step)
            ++at;
        const std::size_t length = std::min<std::size_t>(1 + next() % 16, body.size() - at);
        const std::string_view slice = body.substr(at, length);
        std::string out(body.substr(0, at));
        out.reserve(size);
        while (out.size() + slice.size() + (body.size() - at) <= size)
            out += slice;
        out += body.substr(at);
        return out;
    }

    /// `body` with the event holding `at` repeated until the whole is about `size` bytes.
    std::string repeat_event(std::string_view body, std::size_t at, std::size_t size)
    {
        const auto [first, last] = event_around(body, at);
        const std::string_view event = body.substr(first, last - first);
        std::string out(body.substr(0, last));
        out.reserve(size);
        while (out.size() + event.size() + (body.size() - last) <= size)
            out += event;
        out += body.substr(last);
        return out;
    }

    std::uint32_t state_;
};

} // namespace toolstream::fuzz

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

/// libFuzzer's own mutations, and one time in eight (when -max_len allows 64 KiB or more) a
/// grower's. Runs capped at 4 KiB (the default pass) are unchanged.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed)
{
    if (seed % 8 == 0 && max_size >= toolstream::fuzz::grower::min_size) {
        const std::string grown = toolstream::fuzz::grower(seed).grow(
            std::string_view(reinterpret_cast<const char*>(data), size), max_size);
        if (!grown.empty()) {
            std::memcpy(data, grown.data(), grown.size());
            return grown.size();
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
