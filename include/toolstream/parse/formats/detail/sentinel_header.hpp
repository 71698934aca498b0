// The opening of a sentinel block, `[[SEG_START {json header}]]`: reading it byte by byte with a
// JSON-aware end, and turning its header into a segment type and metadata.
#pragma once

#include <toolstream/detail/json_extent.hpp>
#include <toolstream/detail/json_signature.hpp>
#include <toolstream/detail/parse_json.hpp>
#include <toolstream/segment_event.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream::detail {

inline constexpr std::string_view sentinel_start_marker = "[[SEG_START";
inline constexpr std::string_view sentinel_end_marker = "[[SEG_END]]";

/// Reads `[[SEG_START`, optional whitespace, a JSON object, optional whitespace and `]]`. The
/// object ends where its brackets balance outside strings, so `]]` inside the header (a string,
/// `[[1]]`) does not end it.
class sentinel_opening_reader {
public:
    enum class verdict { more, done, no_match };

    void reset() noexcept
    {
        phase_ = phase::before_header;
        scanned_ = sentinel_start_marker.size();
        extent_.reset();
    }

    /// Bytes examined (done: the whole opening; no_match: those before the byte that broke it).
    std::size_t scanned() const noexcept { return scanned_; }

    /// The header JSON, within an opening read to `done`.
    std::string_view header(std::string_view opening) const noexcept
    {
        return opening.substr(header_begin_, header_end_ - header_begin_);
    }

    /// Examines `opening[scanned()..]`; `opening` starts with the start marker.
    verdict advance(std::string_view opening) noexcept
    {
        for (; scanned_ < opening.size(); ++scanned_) {
            const char c = opening[scanned_];
            switch (phase_) {
            case phase::before_header:
                if (is_blank(c))
                    continue;
                if (c != '{')
                    return verdict::no_match;
                header_begin_ = scanned_;
                phase_ = phase::header;
                [[fallthrough]];
            case phase::header: {
                // The header runs to where its brackets balance; the loop's ++ steps past it.
                const std::size_t n = extent_.scan(opening.substr(scanned_));
                scanned_ += n - 1;
                if (extent_.closed()) {
                    header_end_ = scanned_ + 1;
                    phase_ = phase::after_header;
                }
                break;
            }
            case phase::after_header:
                if (is_blank(c))
                    continue;
                if (c != ']')
                    return verdict::no_match;
                phase_ = phase::closing;
                break;
            case phase::closing:
                if (c != ']')
                    return verdict::no_match;
                ++scanned_;
                return verdict::done;
            }
        }
        return verdict::more;
    }

private:
    enum class phase { before_header, header, after_header, closing };

    phase phase_ = phase::before_header;
    std::size_t scanned_ = 0;
    std::size_t header_begin_ = 0;
    std::size_t header_end_ = 0;
    json_extent extent_;
};

/// What a valid header opens.
struct sentinel_block {
    segment_type type = segment_type::text;
    boost::json::object metadata;  ///< The header without `type`.
    std::string error;             ///< Set when a tool's header `arguments` are unusable.
};

/// The segment a header opens, or nothing when the header is not a JSON object with a known
/// string `type`: text; tool, tool_call; write_file; patch_file; run_bash, run_terminal_cmd.
/// A tool's `arguments` given as a JSON string holding an object become that object.
inline std::optional<sentinel_block> read_sentinel_header(std::string_view header)
{
    struct type_name {
        std::string_view name;
        segment_type type;
    };
    static constexpr std::array<type_name, 7> types{{
        {"text", segment_type::text},
        {"tool", segment_type::tool_call},
        {"tool_call", segment_type::tool_call},
        {"write_file", segment_type::write_file},
        {"patch_file", segment_type::patch_file},
        {"run_bash", segment_type::run_bash},
        {"run_terminal_cmd", segment_type::run_bash},
    }};

    boost::system::error_code ec;
    auto v = parse_json(header, ec);
    if (ec || !v.is_object())
        return std::nullopt;
    auto& o = v.get_object();
    const auto* t = o.if_contains("type");
    if (t == nullptr || !t->is_string())
        return std::nullopt;
    sentinel_block block;
    bool known = false;
    for (const auto& entry : types)
        if (t->get_string() == entry.name) {
            block.type = entry.type;
            known = true;
        }
    if (!known)
        return std::nullopt;
    // Copied key by key: object::erase would move the last key into the erased slot.
    block.metadata.reserve(o.size() - 1);
    for (auto& kv : o)
        if (kv.key() != "type")
            block.metadata.emplace(kv.key(), std::move(kv.value()));

    auto* args = block.metadata.if_contains("arguments");
    if (block.type != segment_type::tool_call || args == nullptr || args->is_object())
        return block;
    if (args->is_string()) {
        auto parsed = parse_json(args->get_string(), ec);
        if (!ec && parsed.is_object()) {
            *args = std::move(parsed);
            return block;
        }
    }
    block.error = "header arguments are not a JSON object";
    return block;
}

} // namespace toolstream::detail
