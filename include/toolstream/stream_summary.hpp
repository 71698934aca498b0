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

/// The summary as `toolstream-replay --emit summary` prints it (the `.expected.json` shape).
/// Its strings are valid UTF-8: byte sequences that are not are replaced by U+FFFD.
inline boost::json::object to_json(const stream_summary& s, std::string_view provider, std::string_view framing)
{
    boost::json::array choices;
    for (const auto& c : s.choices) {
        boost::json::array calls;
        for (const auto& inv : c.tool_calls)
            calls.push_back(boost::json::object{{"id", inv.id},
                                                {"name", inv.name},
                                                {"arguments", reported_arguments(inv)},
                                                {"arguments_raw", inv.arguments_raw}});
        boost::json::value finish = nullptr;
        if (c.finish_reason)
            finish = *c.finish_reason;
        choices.push_back(boost::json::object{{"index", c.index},
                                              {"text", c.text},
                                              {"reasoning", c.reasoning},
                                              {"tool_calls", std::move(calls)},
                                              {"finish_reason", std::move(finish)}});
    }
    boost::json::value usage = nullptr;
    if (s.usage)
        usage = boost::json::object{{"input_tokens", s.usage->input_tokens}, {"output_tokens", s.usage->output_tokens}};
    boost::json::value error = nullptr;
    if (s.error)
        error = *s.error;
    boost::json::object out{{"provider", provider}, {"framing", framing}, {"choices", std::move(choices)},
                            {"usage", std::move(usage)}, {"error", std::move(error)}};
    detail::make_valid_utf8(out);
    return out;
}

} // namespace toolstream
