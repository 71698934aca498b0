// Test support: the replaced global operator new and delete that counting_allocator.hpp reads.
// Include this file in exactly one translation unit of the program (a second copy of the operators
// does not link), after the other includes.
#pragma once

#include "counting_allocator.hpp"

#include <malloc.h>

#include <cstddef>
#include <cstdlib>
#include <new>

// GCC pairs the replaced operator new with free() and cannot see that they match.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {

void* counted_allocate(std::size_t n) noexcept
{
    namespace state = toolstream::test::heap::state;
    if (state::counting.load(std::memory_order_relaxed)
        && state::allocations.fetch_add(1, std::memory_order_relaxed) == state::failing.load(std::memory_order_relaxed))
        return nullptr;
    void* p = std::malloc(n == 0 ? 1 : n);
    if (p == nullptr)
        return nullptr;
    const std::size_t size = malloc_usable_size(p);
    const std::size_t now = state::live.fetch_add(size, std::memory_order_relaxed) + size;
    std::size_t seen = state::peak.load(std::memory_order_relaxed);
    while (now > seen && !state::peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
    return p;
}

void* counted_allocate_or_throw(std::size_t n)
{
    if (void* p = counted_allocate(n))
        return p;
    throw std::bad_alloc();
}

void counted_free(void* p) noexcept
{
    if (p == nullptr)
        return;
    toolstream::test::heap::state::live.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
    std::free(p);
}

} // namespace

// Every replaceable form that can pair with another (plain and array, throwing and nothrow):
// mixing ours with the runtime's would hand malloc'd memory to a different deallocator.
void* operator new(std::size_t n) { return counted_allocate_or_throw(n); }
void* operator new[](std::size_t n) { return counted_allocate_or_throw(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_allocate(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
