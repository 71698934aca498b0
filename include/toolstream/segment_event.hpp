// Segment events: the kinds, events and end states of a segment, a cheap view handed to sinks,
// an owning form for storage, and the event JSON.
#pragma once

#include <toolstream/detail/valid_json.hpp>
#include <toolstream/tool_invocation.hpp>

#include <boost/describe/enum.hpp>
#include <boost/describe/enum_to_string.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream {

/// The kind of a segment. Names are the wire names.
enum class segment_type { text, tool_call, write_file, patch_file, run_bash, reasoning, media };
BOOST_DESCRIBE_ENUM(segment_type, text, tool_call, write_file, patch_file, run_bash, reasoning, media)

/// The three events of a segment's life. Names are the wire names.
enum class segment_event_type { SEGMENT_START, SEGMENT_CONTENT, SEGMENT_END };
BOOST_DESCRIBE_ENUM(segment_event_type, SEGMENT_START, SEGMENT_CONTENT, SEGMENT_END)

/// How a segment ended. Only `complete` segments yield executable invocations.
enum class segment_status {
    complete,           ///< The segment's closing syntax (or the provider's completion signal) arrived.
    incomplete,         ///< The stream ended first (finalize() closed it).
    invalid_arguments,  ///< It ended, but its arguments could not be parsed or miss a required field.
};
BOOST_DESCRIBE_ENUM(segment_status, complete, incomplete, invalid_arguments)

/// True for segments that become tool invocations.
constexpr bool is_tool_segment(segment_type t) noexcept
{
    return t == segment_type::tool_call || t == segment_type::write_file
        || t == segment_type::patch_file || t == segment_type::run_bash;
}

/// One event of a segment's life, as a view. Every view member is valid only during the sink
/// call that receives it; copy into `owned_segment_event` to keep it.
struct segment_event {
    segment_event_type type = segment_event_type::SEGMENT_START;
    std::string_view segment_id;
    segment_type segment_kind = segment_type::text;    ///< Set on every event; serialized on START.
    std::string_view delta;                            ///< SEGMENT_CONTENT: the new content.
    const boost::json::object* metadata = nullptr;     ///< START and END: the segment's metadata so far.
    segment_status status = segment_status::complete;  ///< END: how the segment ended.
    std::string_view error;                            ///< END: why it is not complete.
    /// END of a tool segment: its arguments, parsed once from `arguments_text`; null unless the
    /// segment is `complete`.
    const boost::json::object* arguments = nullptr;
    std::string_view arguments_text;  ///< END of a tool segment: its argument fragments, joined.
    std::size_t choice = 0;           ///< The choice of a pipeline the segment belongs to.
};

/// One fragment of a tool segment's arguments as JSON text, after its START and before its END.
/// The fragments of a segment concatenate to the JSON text its END parsed into `arguments`:
/// a native call's fragments are the provider's, verbatim; a file or shell tool's encode the
/// decoded content as a JSON string. Delivered only to sinks that take it.
struct argument_fragment {
    std::string_view segment_id;
    segment_type segment_kind = segment_type::tool_call;
    std::string_view json;
    std::size_t choice = 0;
};

/// Bytes a text policy consumed as syntax (tags, markers, a tool's path value...): neither text
/// nor content. Delivered only to sinks that accept it, in input order, so that text + content +
/// markup reconstructs the input exactly.
struct consumed_markup {
    std::string_view bytes;
};

/// True at the END of a tool segment that is not complete: its event JSON reports its arguments.
inline bool reports_cut_arguments(const segment_event& e) noexcept
{
    return e.type == segment_event_type::SEGMENT_END && is_tool_segment(e.segment_kind)
        && e.status != segment_status::complete;
}

/// An owning copy of a segment_event (without the END arguments, which invocations carry; the
/// argument text only of a tool segment that did not complete, which its JSON reports).
struct owned_segment_event {
    segment_event_type type = segment_event_type::SEGMENT_START;
    std::string segment_id;
    segment_type segment_kind = segment_type::text;
    std::string delta;
    boost::json::object metadata;
    segment_status status = segment_status::complete;
    std::string error;
    std::string arguments_text;

    owned_segment_event() = default;
    explicit owned_segment_event(const segment_event& e)
        : type(e.type), segment_id(e.segment_id), segment_kind(e.segment_kind), delta(e.delta),
          metadata(e.metadata != nullptr ? *e.metadata : boost::json::object{}), status(e.status),
          error(e.error), arguments_text(reports_cut_arguments(e) ? e.arguments_text : std::string_view{})
    {
    }

    segment_event view() const noexcept
    {
        segment_event e;
        e.type = type;
        e.segment_id = segment_id;
        e.segment_kind = segment_kind;
        e.delta = delta;
        e.metadata = &metadata;
        e.status = status;
        e.error = error;
        e.arguments_text = arguments_text;
        return e;
    }

    friend bool operator==(const owned_segment_event&, const owned_segment_event&) = default;
};

/// The event JSON of AutoByteus's streaming parser (autobyteus-ts `SegmentEvent`):
///   {"type":"SEGMENT_START","segment_id":"…","segment_type":"write_file","payload":{"metadata":{…}}}
///   {"type":"SEGMENT_CONTENT","segment_id":"…","payload":{"delta":"…"}}
///   {"type":"SEGMENT_END","segment_id":"…","payload":{"metadata":{…}}}
/// Empty metadata gives `"payload":{}`. An END that is not complete also carries
/// `"status"` (`incomplete` or `invalid_arguments`) and `"error"` in its payload, and, for a tool
/// segment, `"arguments"`: its argument text read as every output reports such a call's
/// (parse_arguments_raw: `{}` when empty, null when not JSON).
/// Every string of the result is valid UTF-8: a byte sequence that is not (model text may hold
/// any bytes) is replaced by U+FFFD. A segment_emitter never splits a character between two
/// deltas, so a valid character is never replaced.
inline boost::json::object to_json(const segment_event& e)
{
    boost::json::object out;
    out["type"] = boost::json::value_from(e.type);
    out["segment_id"] = detail::valid_json_string(e.segment_id);
    if (e.type == segment_event_type::SEGMENT_START)
        out["segment_type"] = boost::json::value_from(e.segment_kind);
    boost::json::object payload;
    if (e.type == segment_event_type::SEGMENT_CONTENT) {
        payload["delta"] = detail::valid_json_string(e.delta);
    } else if (e.metadata != nullptr && !e.metadata->empty()) {
        boost::json::value& metadata = payload["metadata"] = *e.metadata;
        detail::make_valid_utf8(metadata);
    }
    if (e.type == segment_event_type::SEGMENT_END && e.status != segment_status::complete) {
        payload["status"] = boost::json::value_from(e.status);
        payload["error"] = detail::valid_json_string(e.error);
    }
    if (reports_cut_arguments(e)) {
        boost::json::value& arguments = payload["arguments"] = parse_arguments_raw(e.arguments_text);
        detail::make_valid_utf8(arguments);
    }
    out["payload"] = std::move(payload);
    return out;
}

/// The string `key` of a START's or END's metadata (`tool_name`, `namespace`), or empty.
inline std::string_view metadata_string(const segment_event& e, std::string_view key) noexcept
{
    const auto* v = e.metadata != nullptr ? e.metadata->if_contains(key) : nullptr;
    return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view{};
}

/// True when a tool segment's input is free-form text rather than JSON arguments (metadata
/// `"free_form": true`, set by the provider's call, as OpenAI Responses custom tools are): its
/// argument text is the input, verbatim, and END does not parse it.
inline bool is_free_form(const boost::json::object& metadata) noexcept
{
    const auto* v = metadata.if_contains("free_form");
    return v != nullptr && v->is_bool() && v->get_bool();
}
inline bool is_free_form(const segment_event& e) noexcept
{
    return e.metadata != nullptr && is_free_form(*e.metadata);
}

inline std::string to_json_string(const segment_event& e)
{
    return boost::json::serialize(to_json(e));
}

/// The same for a recorded event (recording_sink::events), as its view() serializes.
inline boost::json::object to_json(const owned_segment_event& e)
{
    return to_json(e.view());
}
inline std::string to_json_string(const owned_segment_event& e)
{
    return to_json_string(e.view());
}

inline void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const owned_segment_event& e)
{
    v = to_json(e.view());
}

/// What takes every segment event: a segment_emitter's target, a sink that records segments.
template<class S>
concept segment_event_sink = std::invocable<S&, const segment_event&>;

} // namespace toolstream
