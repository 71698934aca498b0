// Shared by the Gemini converter tests (test_gemini.cpp, test_gemini_partial_args.cpp): a recorder
// of the chunks the converter emits, one event fed to it, and a one-candidate response.
#pragma once

#include <toolstream/providers/gemini.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::test::gemini_support {

namespace json = boost::json;
using toolstream::chunk_response;
using toolstream::error;
using toolstream::error_code;
using toolstream::gemini;
using toolstream::wire_event;
using converter = toolstream::provider_converter<gemini>;

// Keeps a copy of every chunk the converter emits, with its choice.
struct recorder {
    std::vector<std::pair<std::size_t, chunk_response>> chunks;
    void operator()(std::size_t choice, const chunk_response& c) { chunks.emplace_back(choice, c); }

    // Every tool-call delta of a choice, in order.
    std::vector<toolstream::tool_call_delta> deltas(std::size_t choice = 0) const
    {
        std::vector<toolstream::tool_call_delta> out;
        for (const auto& [ch, c] : chunks)
            if (ch == choice)
                out.insert(out.end(), c.tool_calls.begin(), c.tool_calls.end());
        return out;
    }

    // Concatenated arguments of one call.
    std::string arguments(std::size_t call, std::size_t choice = 0) const
    {
        std::string s;
        for (const auto& d : deltas(choice))
            if (d.index == call)
                s += d.arguments_delta;
        return s;
    }
};

inline error_code feed(converter& conv, recorder& out, std::string_view data)
{
    return conv.convert(wire_event{{}, data}, out);
}

// A one-candidate response holding `parts` (a JSON array's inner text).
inline std::string response(std::string_view parts, std::string_view extra = {})
{
    return R"({"candidates":[{"content":{"role":"model","parts":[)" + std::string(parts) + "]}" + std::string(extra)
        + "}]}";
}

} // namespace toolstream::test::gemini_support
