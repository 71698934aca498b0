// Shared by the OpenAI Chat converter tests (test_openai_chat.cpp, test_openai_chat_tool_calls.cpp):
// the chunk recorder of support/chunk_recorder.hpp, and events converted in one go.
#pragma once

#include <toolstream/providers/openai_chat.hpp>

#include "support/chunk_recorder.hpp"
#include "support/converter_replay.hpp"

#include <initializer_list>
#include <string_view>
#include <vector>

namespace toolstream::test::openai_chat_support {

using toolstream::chunk_response;
using converter = toolstream::provider_converter<toolstream::openai_chat>;
using recorder = toolstream::test::chunk_recorder;

/// Converts each payload as one SSE event and returns every chunk emitted, for any choice.
inline std::vector<toolstream::test::emitted_chunk> convert_all(std::initializer_list<std::string_view> payloads)
{
    return toolstream::test::convert_all<toolstream::openai_chat>(payloads);
}

} // namespace toolstream::test::openai_chat_support
