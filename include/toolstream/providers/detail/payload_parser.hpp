// Parses one complete JSON payload (an SSE data field, an NDJSON line) into a reusable DOM, and
// reads the type of the event it carries.
#pragma once

#include <toolstream/error.hpp>
#include <toolstream/providers/detail/json_fields.hpp>

#include <boost/json/memory_resource.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/object.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// The type of an event that names it: its SSE `event:` name when the wire sent one, else the
/// payload's "type" field; empty when neither is there.
inline std::string_view event_type(std::string_view event_name, const boost::json::object& root) noexcept
{
    return event_name.empty() ? string_field(root, "type") : event_name;
}

/// Parses each payload into a fresh DOM: a small one into a monotonic arena built over one
/// reused first block, a large one into the heap.
///
/// Boost 1.81's monotonic_resource::release() frees the arena's blocks but keeps doubling the
/// size of the next one, so an arena reused across payloads asks for ever larger blocks until
/// one fails (23 events over 4 KiB are enough for std::bad_alloc). A new arena per payload
/// starts its growth afresh; constructing one is a few stores and allocates nothing.
///
/// - Payloads of up to `max_arena_text` bytes use the arena. Its first block starts as 4 KiB
///   inside the parser; after a payload that overflowed it, the next parse gets a heap block as
///   large as that whole arena was (up to `max_first_block`), so a stream of payloads of similar
///   size stops allocating after the first one.
/// - Larger payloads parse into the heap, where each string takes its own size rather than the
///   arena's next power of two; the few allocations are nothing beside the parse itself.
///
/// Memory stays within a small multiple of the largest payload: its DOM, the partial strings
/// Boost gathers across writes (that buffer keeps its capacity), and a first block of at most
/// `max_first_block`.
///
/// Boost 1.81 workarounds: the parser is never the first member (#814) and is fed at most
/// 2 KiB per write (#876).
class payload_parser {
public:
    static constexpr std::size_t max_write = 2048;
    /// Payloads longer than this parse into the heap rather than the arena.
    static constexpr std::size_t max_arena_text = std::size_t{64} << 10;
    /// The largest first block the arena keeps between payloads.
    static constexpr std::size_t max_first_block = std::size_t{256} << 10;

    payload_parser() = default;
    payload_parser(const payload_parser&) = delete;
    payload_parser& operator=(const payload_parser&) = delete;

    /// Parses `text`; error::invalid_payload when it is not one JSON value. The returned value
    /// lives until the next call. Throws std::bad_alloc when memory runs out (the converters
    /// return that as error::out_of_memory); the next call starts clean.
    result<const boost::json::value*> parse(std::string_view text)
    {
        value_.reset();
        parser_.reset();   // lets go of the previous arena before it is replaced
        arena_.reset();
        boost::json::storage_ptr storage;   // the heap
        if (text.size() <= max_arena_text) {
            fit_first_block();
            arena_.emplace(first_block(), first_size_, boost::json::storage_ptr(&upstream_));
            storage = boost::json::storage_ptr(&*arena_);
        }
        parser_.reset(std::move(storage));
        error_code ec;
        for (std::size_t at = 0; at < text.size() && !ec; at += max_write) {
            const std::size_t n = std::min(max_write, text.size() - at);
            parser_.write(text.data() + at, n, ec);
        }
        if (!ec)
            parser_.finish(ec);
        if (ec)
            return error_code(error::invalid_payload);
        value_.emplace(parser_.release());
        return &*value_;
    }

    /// parse() for a payload that must be a JSON object (every provider's but Gemini's, which may
    /// be an array): any other JSON value is error::invalid_payload too.
    result<const boost::json::object*> parse_object(std::string_view text)
    {
        auto parsed = parse(text);
        if (!parsed)
            return parsed.error();
        if (const auto* root = (*parsed)->if_object())
            return root;
        return error_code(error::invalid_payload);
    }

    /// An event's payload parsed as an object, with its type (`event_type`): where a converter's
    /// DOM path starts.
    struct typed_object {
        const boost::json::object* root;
        std::string_view type;
    };

    /// parse_object() for the payload of an event named `event_name` (empty when the wire named
    /// none), with the type that names the event.
    result<typed_object> parse_typed(std::string_view event_name, std::string_view text)
    {
        auto parsed = parse_object(text);
        if (!parsed)
            return parsed.error();
        return typed_object{*parsed, event_type(event_name, **parsed)};
    }

private:
    /// Allocates the blocks the arena adds to its first one, and counts their bytes.
    class counted_upstream final : public boost::json::memory_resource {
    public:
        std::size_t taken = 0;   ///< bytes handed out since the count was last cleared

    private:
        void* do_allocate(std::size_t n, std::size_t) override
        {
            void* p = ::operator new(n);
            taken += n;
            return p;
        }
        void do_deallocate(void* p, std::size_t, std::size_t) override { ::operator delete(p); }
        bool do_is_equal(const boost::json::memory_resource& other) const noexcept override { return this == &other; }
    };

    unsigned char* first_block() noexcept { return grown_ ? grown_.get() : initial_.data(); }

    // After a payload that overflowed the first block, takes one that would have held it all.
    // Called with no arena alive, so the old block is no longer in use.
    void fit_first_block()
    {
        const std::size_t used = first_size_ + upstream_.taken;
        upstream_.taken = 0;
        if (used == first_size_ || first_size_ == max_first_block)
            return;
        const std::size_t size = std::min(std::bit_ceil(used), max_first_block);
        grown_.reset();
        first_size_ = initial_.size();   // in case the allocation below fails
        grown_.reset(new unsigned char[size]);
        first_size_ = size;
    }

    std::array<unsigned char, 4096> initial_{};
    std::unique_ptr<unsigned char[]> grown_;   // the first block, once payloads outgrew initial_
    std::size_t first_size_ = initial_.size();
    counted_upstream upstream_;
    std::optional<boost::json::monotonic_resource> arena_;   // rebuilt for every small payload
    boost::json::stream_parser parser_;
    std::optional<boost::json::value> value_;   // declared last: destroyed before the arena
};

} // namespace toolstream::detail
