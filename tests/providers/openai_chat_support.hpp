// Shared by the OpenAI Chat converter tests (test_openai_chat.cpp, test_openai_chat_tool_calls.cpp):
// a recorder of the chunks the converter emits, and events converted in one go.
#pragma once

#include <toolstream/providers/openai_chat.hpp>

#include "catch_compat.hpp"

#include <cstddef>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace toolstream::test::openai_chat_support {

using toolstream::chunk_response;
using converter = toolstream::provider_converter<toolstream::openai_chat>;

struct emitted {
    std::size_t choice;
    chunk_response chunk;
};

struct recorder {
    std::vector<emitted> out;
    void operator()(std::size_t choice, const chunk_response& c) { out.push_back({choice, c}); }
};

/// Converts each payload as one SSE event and returns every chunk emitted.
inline std::vector<emitted> convert_all(converter& conv, std::initializer_list<std::string_view> payloads)
{
    recorder rec;
    for (const std::string_view data : payloads)
        REQUIRE_FALSE(conv.convert(toolstream::wire_event{{}, data}, rec));
    conv.finish(rec);
    return rec.out;
}

inline std::vector<emitted> convert_all(std::initializer_list<std::string_view> payloads)
{
    converter conv;
    return convert_all(conv, payloads);
}

} // namespace toolstream::test::openai_chat_support
