// Test support: provider streams of large events (issue 10, §1), made without holding a whole
// stream in memory, and a check of converter output against what they carry.
//
// A stream is a prologue, `count` copies of one repeated event, and an epilogue. Each copy
// carries a tag, `[event 000042]`, then the same body, so every event's content differs and a
// lost, repeated or reordered event shows. The tag's digits are rewritten in place between copies.
#pragma once

#include <toolstream/providers/provider.hpp>
#include <toolstream/transport/ndjson.hpp>
#include <toolstream/transport/sse.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace toolstream::test::large {

inline constexpr std::string_view tag_template = "[event 000000]";

/// The tag of event `i`.
inline std::string tag(std::size_t i)
{
    std::string t(tag_template);
    std::snprintf(t.data() + 7, 7, "%06zu", i % 1000000);
    t[13] = ']';
    return t;
}

/// JSON string escape (without quotes) of text made of printable ASCII, `"`, `\`, tab, newline
/// and multibyte UTF-8: what JSON.stringify writes, and what the converters write.
inline std::string escaped(std::string_view s)
{
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default: out += c;
        }
    }
    return out;
}

/// `size` bytes of text (fewer by up to 3, to end on a whole UTF-8 character) with quotes,
/// backslashes, tabs and non-ASCII characters, as code in a file tool's body has.
inline std::string body(std::size_t size)
{
    std::string out;
    out.reserve(size + 96);
    char number[16];
    for (std::size_t line = 0; out.size() < size; ++line) {
        std::snprintf(number, sizeof number, "%07zu", line);
        out.append("line ").append(number).append(": print(\"héllo → 世界\")\t# C:\\tmp {a: [1, 2]}\n");
    }
    out.resize(size);
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
        out.pop_back();   // a continuation byte: drop it and its lead byte
    if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0)
        out.pop_back();
    return out;
}

/// The wire bytes of a stream; `repeated` holds tag_template at `tag_at`.
struct stream_shape {
    std::string prologue;
    std::string repeated;
    std::size_t tag_at = 0;
    std::string epilogue;
};

/// Builds a shape from its events' JSON, framed for `Provider`. `repeated` must contain
/// tag_template once. SSE events are `event: <name>` (when named) and `data: <json>`.
template<class Provider>
class shape_builder {
public:
    shape_builder& prologue(std::string_view json, std::string_view name = {}) { return add(shape_.prologue, json, name); }
    shape_builder& epilogue(std::string_view json, std::string_view name = {}) { return add(shape_.epilogue, json, name); }
    shape_builder& repeated(std::string_view json, std::string_view name = {})
    {
        add(shape_.repeated, json, name);
        shape_.tag_at = shape_.repeated.find(tag_template);
        return *this;
    }
    stream_shape done() { return std::move(shape_); }

private:
    shape_builder& add(std::string& out, std::string_view json, std::string_view name)
    {
        if constexpr (provider_converter<Provider>::wire_framing == framing::sse) {
            if (!name.empty())
                out.append("event: ").append(name).append("\n");
            out.append("data: ").append(json).append("\n\n");
        } else {
            out.append(json).append("\n");
        }
        return *this;
    }

    stream_shape shape_;
};

/// Feeds `count` events of `shape` through the dialect's decoder and `provider_converter`, in
/// writes of at most `write_size` bytes; `emit` gets the chunks, `on_error` every error_code a
/// decoder or converter returns. Returns the wire bytes fed.
template<class Provider, class Emit, class OnError>
std::size_t feed(stream_shape& shape, std::size_t count, std::size_t write_size, Emit& emit, OnError&& on_error)
{
    using converter_type = provider_converter<Provider>;
    constexpr bool sse = converter_type::wire_framing == framing::sse;
    std::conditional_t<sse, sse_decoder, ndjson_decoder> decoder;
    converter_type converter;
    const auto visit = [&](const wire_event& ev) {
        if (const auto ec = converter.convert(ev, emit))
            on_error(ec);
    };
    std::size_t fed = 0;
    const auto write = [&](std::string_view bytes) {
        for (std::size_t at = 0; at < bytes.size(); at += write_size)
            if (const auto ec = decoder.write(bytes.substr(at, write_size), visit))
                on_error(ec);
        fed += bytes.size();
    };
    write(shape.prologue);
    for (std::size_t i = 0; i < count; ++i) {
        const std::string t = tag(i);
        std::memcpy(shape.repeated.data() + shape.tag_at, t.data(), t.size());
        write(shape.repeated);
    }
    write(shape.epilogue);
    if (const auto ec = decoder.finish(visit))
        on_error(ec);
    converter.finish(emit);
    return fed;
}

/// Checks output that arrives in pieces against `prefix`, then `count` units of tag(first + k)
/// followed by `unit`, then `suffix`, without building that text.
class expected_output {
public:
    expected_output(std::string_view prefix, std::string_view unit, std::size_t count, std::string_view suffix,
                    std::size_t first = 0)
        : prefix_(prefix), unit_(unit), suffix_(suffix), count_(count), first_(first)
    {
    }

    /// Matches the next piece; false (for good) at the first byte that differs or runs past the end.
    bool take(std::string_view got)
    {
        while (ok_ && !got.empty()) {
            const std::string_view want = current();
            if (want.empty()) {
                ok_ = false;   // more output than expected
                break;
            }
            const std::size_t n = std::min(want.size(), got.size());
            ok_ = std::memcmp(want.data(), got.data(), n) == 0;
            got.remove_prefix(n);
            at_ += n;
        }
        return ok_;
    }

    /// Everything expected arrived, and nothing else.
    bool complete() { return ok_ && current().empty(); }

    /// Bytes matched so far, for failure messages.
    std::size_t matched() const noexcept { return at_; }

private:
    // The rest of the part that position at_ falls in (empty at the end).
    std::string_view current()
    {
        std::size_t at = at_;
        if (at < prefix_.size())
            return prefix_.substr(at);
        at -= prefix_.size();
        const std::size_t unit_size = tag_template.size() + unit_.size();
        if (at < count_ * unit_size) {
            const std::size_t k = at / unit_size;
            const std::size_t offset = at % unit_size;
            if (offset >= tag_template.size())
                return unit_.substr(offset - tag_template.size());
            tag_ = tag(first_ + k);
            return std::string_view(tag_).substr(offset);
        }
        at -= count_ * unit_size;
        return at < suffix_.size() ? suffix_.substr(at) : std::string_view();
    }

    std::string_view prefix_, unit_, suffix_;
    std::size_t count_, first_;
    std::size_t at_ = 0;
    std::string tag_;
    bool ok_ = true;
};

} // namespace toolstream::test::large
