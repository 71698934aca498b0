// What a whole response came to: per-choice text, reasoning and calls, finish reason, usage, error.
#pragma once

#include <toolstream/detail/valid_json.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace toolstream {

struct choice_summary {
    std::size_t index = 0;
    std::string text;                         ///< Kept only when the pipeline collects text.
    std::string reasoning;                    ///< Likewise.
    std::string refusal;
    std::optional<std::string> finish_reason; ///< The provider's raw value.
    /// In order of first appearance. When the stream carries an error, calls it left
    /// unfinished are not listed (they stay in the handler's invocations as `incomplete`).
    std::vector<tool_invocation> tool_calls;

    /// The calls, by the name the handler gives them (handler::invocations()).
    const std::vector<tool_invocation>& invocations() const noexcept { return tool_calls; }
};

struct stream_summary {
    std::vector<choice_summary> choices;
    std::optional<token_usage> usage;         ///< The last usage the stream reported.
    std::optional<std::string> error;         ///< A provider error, or why the stream was broken.
};

namespace detail {

// The one body of both to_json overloads: `Summary` is a stream_summary, const (the complete
// calls' arguments copied) or not (moved out of it). Built by emplace, not initializer lists, which
// copy every nested array and object: a call of many MB would be copied once per level.
template<class Summary>
boost::json::object summary_json(Summary& s, std::string_view provider, std::string_view framing)
{
    boost::json::array choices;
    for (auto& c : s.choices) {
        boost::json::array calls;
        for (auto& inv : c.tool_calls) {
            boost::json::object call;
            call.emplace("id", inv.id);
            call.emplace("name", inv.name);
            call.emplace("arguments", reported_arguments(std::move(inv)));
            call.emplace("arguments_raw", inv.arguments_raw);
            calls.emplace_back(std::move(call));
        }
        boost::json::object choice;
        choice.emplace("index", c.index);
        choice.emplace("text", c.text);
        choice.emplace("reasoning", c.reasoning);
        choice.emplace("tool_calls", std::move(calls));
        choice.emplace("finish_reason", c.finish_reason ? boost::json::value(*c.finish_reason) : boost::json::value(nullptr));
        choices.emplace_back(std::move(choice));
    }
    boost::json::value usage = nullptr;
    if (s.usage)
        usage = boost::json::object{{"input_tokens", s.usage->input_tokens}, {"output_tokens", s.usage->output_tokens}};
    boost::json::object out;
    out.emplace("provider", provider);
    out.emplace("framing", framing);
    out.emplace("choices", std::move(choices));
    out.emplace("usage", std::move(usage));
    out.emplace("error", s.error ? boost::json::value(*s.error) : boost::json::value(nullptr));
    make_valid_utf8(out);
    return out;
}

} // namespace detail

/// The summary as `toolstream-replay --emit summary` prints it (the `.expected.json` shape).
/// Its strings are valid UTF-8: byte sequences that are not are replaced by U+FFFD.
inline boost::json::object to_json(const stream_summary& s, std::string_view provider, std::string_view framing)
{
    return detail::summary_json(s, provider, framing);
}

/// The same, moving each complete call's parsed arguments out of `s` rather than copying them:
/// for a summary that holds a call of many MB.
inline boost::json::object to_json(stream_summary&& s, std::string_view provider, std::string_view framing)
{
    return detail::summary_json(s, provider, framing);
}

} // namespace toolstream
