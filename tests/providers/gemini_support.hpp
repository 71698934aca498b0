// Shared by the Gemini converter tests (test_gemini.cpp, test_gemini_partial_args.cpp): the chunk
// recorder of support/chunk_recorder.hpp, one event fed to it, and a one-candidate response.
#pragma once

#include "support/chunk_recorder.hpp"

#include <toolstream/providers/gemini.hpp>

#include <boost/json.hpp>

#include <string>
#include <string_view>

namespace toolstream::test::gemini_support {

namespace json = boost::json;
using toolstream::chunk_response;
using toolstream::error;
using toolstream::error_code;
using toolstream::gemini;
using toolstream::wire_event;
using converter = toolstream::provider_converter<gemini>;

using recorder = toolstream::test::chunk_recorder;

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
