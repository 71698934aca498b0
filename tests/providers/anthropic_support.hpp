// Shared by the Anthropic converter tests (test_anthropic.cpp, test_anthropic_messages.cpp): a
// recorder of the chunks the converter emits, one named event fed to it, and a message_start.
#pragma once

#include "catch_compat.hpp"

#include <toolstream/providers/anthropic.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace toolstream::test::anthropic_support {

using toolstream::anthropic;
using toolstream::chunk_response;
using toolstream::error;
using toolstream::error_code;
using toolstream::wire_event;
using converter = toolstream::provider_converter<anthropic>;

// Keeps a copy of every chunk the converter emits; those that only announce a response (its
// id and model) apart.
struct recorder {
    std::vector<chunk_response> chunks;
    std::vector<chunk_response> starts;
    void operator()(std::size_t choice, const chunk_response& c)
    {
        CHECK(choice == 0);
        chunk_response rest = c;
        rest.response_id.clear();
        rest.model.clear();
        (rest == chunk_response{} ? starts : chunks).push_back(c);
    }
};

inline error_code feed(converter& conv, recorder& out, std::string_view name, std::string_view data)
{
    return conv.convert(wire_event{name, data}, out);
}

inline constexpr std::string_view message_start =
    R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],)"
    R"("usage":{"input_tokens":25,"output_tokens":1}}})";

} // namespace toolstream::test::anthropic_support
