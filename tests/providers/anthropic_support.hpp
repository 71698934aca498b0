// Shared by the Anthropic converter tests (test_anthropic.cpp, test_anthropic_messages.cpp): the
// converter, the chunk recorder and feed() of support/converter_replay.hpp, and a message_start.
#pragma once

#include "support/converter_replay.hpp"

#include <toolstream/providers/anthropic.hpp>

#include <string_view>

namespace toolstream::test::anthropic_support {

using toolstream::anthropic;
using toolstream::chunk_response;
using toolstream::error;
using toolstream::wire_event;
using converter = toolstream::provider_converter<anthropic>;

using recorder = toolstream::test::chunk_recorder;
using toolstream::test::feed;

inline constexpr std::string_view message_start =
    R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],)"
    R"("usage":{"input_tokens":25,"output_tokens":1}}})";

} // namespace toolstream::test::anthropic_support
