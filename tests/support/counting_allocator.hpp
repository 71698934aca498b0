// Test support: what the replaced global operator new and delete of counting_allocator_impl.hpp
// count. They see every allocation of the process, so a program using them is one of its own.
#pragma once

#include <atomic>
#include <cstddef>

namespace toolstream::test::heap {

/// The `fail_at` that makes no allocation fail.
inline constexpr std::size_t never = static_cast<std::size_t>(-1);

/// The counters, updated by the replaced operators; read them through the functions below.
namespace state {
inline std::atomic<bool> counting{false};
inline std::atomic<std::size_t> allocations{0};   // made while `counting`
inline std::atomic<std::size_t> failing{never};   // the counted allocation (from 0) that fails
inline std::atomic<std::size_t> live{0};          // bytes held, by malloc_usable_size: what malloc reserved
inline std::atomic<std::size_t> peak{0};          // the most `live` reached since reset_peak()
} // namespace state

/// Bytes of heap held now.
inline std::size_t live_bytes() noexcept
{
    return state::live.load();
}

/// The most bytes of heap held since the last reset_peak().
inline std::size_t peak_bytes() noexcept
{
    return state::peak.load();
}

/// Restarts the peak from the bytes held now, and returns them.
inline std::size_t reset_peak() noexcept
{
    const std::size_t now = state::live.load();
    state::peak = now;
    return now;
}

/// Counts allocations, from zero, between its construction and stop() (or its end). The counted
/// allocation number `fail_at` (from 0) fails as if memory ran out: null from the nothrow forms,
/// std::bad_alloc from the others.
class counting_scope {
public:
    explicit counting_scope(std::size_t fail_at = never) noexcept
    {
        state::failing = fail_at;
        state::allocations = 0;
        state::counting = true;
    }
    ~counting_scope() { stop(); }
    counting_scope(const counting_scope&) = delete;
    counting_scope& operator=(const counting_scope&) = delete;

    void stop() noexcept
    {
        state::counting = false;
        state::failing = never;
    }

    /// Allocations counted so far; after stop(), all of them.
    std::size_t allocations() const noexcept { return state::allocations.load(); }
};

} // namespace toolstream::test::heap
