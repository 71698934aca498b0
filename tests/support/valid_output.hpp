// Test support: is what a writer or an --emit mode produced strict UTF-8 JSON? Used by the
// Catch2 tests and the fuzz targets alike.
#pragma once

#include <toolstream/detail/json_null_handler.hpp>
#include <toolstream/detail/sliced_write.hpp>
#include <toolstream/detail/utf8.hpp>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/error.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::test {

namespace detail_check {

/// Boost 1.81 (#814): the parser is not the first member. Checking a value needs no tree: a DOM
/// of every event a fuzz target writes (each may repeat a long tool name) would cost more than
/// the target itself.
struct checking_parser {
    [[maybe_unused]] unsigned char guard = 0;
    boost::json::basic_parser<detail::json_null_handler> parser{boost::json::parse_options{}};
};

} // namespace detail_check

/// Why `text` is not one JSON value in strict UTF-8; empty when it is. Strict as
/// boost::json::parse is (allow_invalid_utf8 off), without building the value.
inline std::string json_problem(std::string_view text)
{
    detail_check::checking_parser p;
    boost::system::error_code ec;
    const std::size_t used = detail::write_sliced(p.parser, text, false, ec);
    if (!ec && used != text.size())
        ec = boost::json::error::extra_data;
    if (!ec && !p.parser.done())
        ec = boost::json::error::incomplete;
    if (!ec)
        return {};   // a strict parse: its strings are UTF-8, and no other byte can be past ASCII
    if (!detail::is_valid_utf8(text))
        return "not valid UTF-8 at byte " + std::to_string(detail::valid_utf8_prefix(text));
    return "not JSON: " + ec.message();
}

/// Why one SSE event as the OpenAI SSE writer writes it (`data: {…}\n\n`, `data: [DONE]\n\n` or
/// a comment `: …\n\n`) is not valid; empty when it is.
inline std::string sse_event_problem(std::string_view event)
{
    if (event.size() < 2 || event.substr(event.size() - 2) != "\n\n")
        return "not one SSE event (no blank line at its end)";
    const std::string_view line = event.substr(0, event.size() - 2);
    if (line.find('\n') != std::string_view::npos || line.find('\r') != std::string_view::npos)
        return "a line break inside the event";
    if (!detail::is_valid_utf8(line))
        return "not valid UTF-8";
    if (line.substr(0, 2) == ": ")
        return {};
    if (line.substr(0, 6) != "data: ")
        return "not a data line";
    const std::string_view data = line.substr(6);
    return data == "[DONE]" ? std::string() : json_problem(data);
}

/// The first problem of a whole SSE body, events separated by blank lines; empty when none.
inline std::string sse_body_problem(std::string_view body)
{
    for (std::size_t at = 0; at < body.size();) {
        const std::size_t end = body.find("\n\n", at);
        if (end == std::string_view::npos)
            return "bytes after the last event";
        if (auto problem = sse_event_problem(body.substr(at, end + 2 - at)); !problem.empty())
            return problem + ": " + std::string(body.substr(at, end - at));
        at = end + 2;
    }
    return {};
}

/// The first problem of JSON lines (one value per line); empty when none.
inline std::string json_lines_problem(std::string_view lines)
{
    for (std::size_t at = 0; at < lines.size();) {
        std::size_t end = lines.find('\n', at);
        if (end == std::string_view::npos)
            end = lines.size();
        if (auto problem = json_problem(lines.substr(at, end - at)); !problem.empty())
            return problem + ": " + std::string(lines.substr(at, end - at));
        at = end + 1;
    }
    return {};
}

/// Why one named SSE event as the Anthropic Messages and OpenAI Responses writers write it
/// (`event: NAME\ndata: {…}\n\n`, or a comment `: …\n\n`) is not valid: the data must be a JSON
/// object whose `type` is NAME. Empty when it is valid.
inline std::string named_sse_event_problem(std::string_view event)
{
    if (event.size() < 2 || event.substr(event.size() - 2) != "\n\n")
        return "not one SSE event (no blank line at its end)";
    event.remove_suffix(2);
    if (!detail::is_valid_utf8(event))
        return "not valid UTF-8";
    if (event.substr(0, 2) == ": ")
        return event.find_first_of("\r\n") == std::string_view::npos ? std::string() : "a line break inside a comment";
    const std::size_t eol = event.find('\n');
    if (event.substr(0, 7) != "event: " || eol == std::string_view::npos)
        return "no event line";
    const std::string_view name = event.substr(7, eol - 7);
    const std::string_view line = event.substr(eol + 1);
    if (line.find_first_of("\r\n") != std::string_view::npos || line.substr(0, 6) != "data: ")
        return "not one data line after the event line";
    const std::string_view data = line.substr(6);
    if (auto problem = json_problem(data); !problem.empty())
        return problem;
    const std::string type = "{\"type\":\"" + std::string(name) + "\"";
    return data.substr(0, type.size()) == type ? std::string() : "the data's type is not the event's name";
}

/// Checks a named-event SSE stream written in any pieces (a writer may write a long event in
/// slices): each complete event as it ends; the first problem is kept.
class named_sse_check {
public:
    void operator()(std::string_view bytes)
    {
        // The blank line may straddle the pieces; bytes searched before are not searched again.
        std::size_t search = pending_.empty() ? 0 : pending_.size() - 1;
        pending_.append(bytes);
        std::size_t at = 0;
        for (std::size_t end; (end = pending_.find("\n\n", search)) != std::string::npos; at = search = end + 2)
            if (auto found = named_sse_event_problem(std::string_view(pending_).substr(at, end + 2 - at));
                !found.empty() && problem_.empty())
                problem_ = found + ": " + pending_.substr(at, std::min<std::size_t>(end - at, 300));
        pending_.erase(0, at);
    }
    /// The first problem, or bytes left after the last event; empty when none.
    std::string problem() const { return !problem_.empty() || pending_.empty() ? problem_ : "bytes after the last event"; }

private:
    std::string pending_;
    std::string problem_;
};

} // namespace toolstream::test
