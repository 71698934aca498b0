// Heap allocations of a whole openai_chat pipeline run, counted by a replaced operator new.
// Its own executable: the replacement must not count allocations of unrelated tests.
#include <toolstream/pipeline.hpp>
#include <toolstream/policies/api_tool_call.hpp>
#include <toolstream/providers/openai_chat.hpp>

#include "../../benchmarks/stream_generators.hpp"
#include "catch_compat.hpp"
#include "providers/large_streams.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

// GCC pairs the replaced operator new with free() and cannot see that they match.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<bool> counting{false};
std::atomic<std::size_t> allocations{0};
} // namespace

// Every replaceable form that can pair with another (plain and array, throwing and nothrow):
// mixing ours with the runtime's would hand malloc'd memory to a different deallocator.
namespace {
void* counted_allocate(std::size_t n) noexcept
{
    if (counting.load(std::memory_order_relaxed))
        allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n == 0 ? 1 : n);
}
void* counted_allocate_or_throw(std::size_t n)
{
    if (void* p = counted_allocate(n))
        return p;
    throw std::bad_alloc();
}
} // namespace

void* operator new(std::size_t n) { return counted_allocate_or_throw(n); }
void* operator new[](std::size_t n) { return counted_allocate_or_throw(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

// Streams `sse` through a fresh pipeline in `write_size` pieces; returns the allocations made
// from the first write to the end of finish().
std::size_t allocations_for(const std::string& sse, std::size_t write_size, std::size_t& invocations)
{
    toolstream::pipeline<toolstream::openai_chat, toolstream::api_tool_call, toolstream::null_sink> p;
    allocations = 0;
    counting = true;
    for (std::size_t at = 0; at < sse.size(); at += write_size)
        (void)p.write(std::string_view(sse).substr(at, write_size));
    (void)p.finish();
    counting = false;
    invocations = p.choice(0).invocations().size();
    return allocations;
}

} // namespace

TEST_CASE("openai_chat pipeline: 10,000 argument deltas make fewer than 100 allocations", "[alloc]")
{
    // One write_file call whose arguments arrive as ~10,000 four-character deltas.
    const std::string sse = toolstream::bench::openai_chat_write_file_sse(40'000, 4);
    std::size_t events = 0;
    for (std::size_t at = 0; (at = sse.find("\n\ndata:", at)) != std::string::npos; ++at)
        ++events;
    REQUIRE(events >= 10'000);
    for (std::size_t write_size : {std::size_t{1} << 12, std::size_t{64}, std::size_t{1}}) {
        std::size_t invocations = 0;
        const std::size_t count = allocations_for(sse, write_size, invocations);
        INFO("writes of " << write_size << " bytes: " << count << " allocations for " << events << " events");
        CHECK(invocations == 1);
        CHECK(count < 100);
    }
}

TEST_CASE("openai_chat converter: a stream of events over 4 KiB stops allocating after the first", "[alloc]")
{
    // The payload parser's arena outgrows its 4 KiB first block on every such event; the next
    // payload gets a first block that holds it (issue 10).
    namespace large = toolstream::test::large;
    const std::string json = R"({"choices":[{"index":0,"delta":{"content":")" + std::string(large::tag_template)
        + large::escaped(large::body(5000)) + R"("}}]})";
    for (const std::size_t write_size : {std::size_t{1} << 16, std::size_t{1000}}) {
        auto shape = large::shape_builder<toolstream::openai_chat>{}.repeated(json).done();
        std::size_t bytes = 0;
        std::size_t errors = 0;
        auto emit = [&](std::size_t, const toolstream::chunk_response& c) { bytes += c.content.size(); };
        allocations = 0;
        counting = true;
        large::feed<toolstream::openai_chat>(shape, 1000, write_size, emit, [&](toolstream::error_code) { ++errors; });
        counting = false;
        INFO("writes of " << write_size << " bytes: " << allocations << " allocations for 1000 events");
        CHECK(errors == 0);
        CHECK(bytes > 1000 * 5000);
        CHECK(allocations < 50);
    }
}
