// Test support: driving one provider converter directly, by hand-written events or by a recorded
// SSE stream, without the rest of the pipeline.
#pragma once

#include "catch_compat.hpp"
#include "support/chunk_recorder.hpp"
#include "support/chunk_summary.hpp"

#include <toolstream/error.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/transport/sse.hpp>
#include <toolstream/types.hpp>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace toolstream::test {

/// Converts one payload as an SSE event named `name`.
template<provider_traits Provider>
error_code feed(provider_converter<Provider>& conv, chunk_recorder& out, std::string_view name, std::string_view data)
{
    return conv.convert(wire_event{name, data}, out);
}

/// Converts each payload as an unnamed SSE event, then finishes; every chunk emitted, of any choice.
template<provider_traits Provider>
std::vector<emitted_chunk> convert_all(std::initializer_list<std::string_view> payloads)
{
    provider_converter<Provider> conv;
    chunk_recorder out{.last_choice = std::nullopt};
    for (const std::string_view data : payloads)
        REQUIRE_FALSE(conv.convert(wire_event{{}, data}, out));
    conv.finish(out);
    return out.emitted;
}

/// Decodes an SSE recording and folds the converter's output; every event must convert without error.
template<provider_traits Provider>
chunk_summary replay_sse(std::string_view body)
{
    static_assert(provider_converter<Provider>::wire_framing == framing::sse, "replay_sse decodes SSE only");
    provider_converter<Provider> conv;
    chunk_summary summary;
    std::size_t rejected = 0;
    auto visit = [&](const wire_event& ev) {
        if (conv.convert(ev, summary))
            ++rejected;
    };
    sse_decoder sse;
    CHECK(!sse.write(body, visit));
    CHECK(!sse.finish(visit));
    conv.finish(summary);
    CHECK(rejected == 0);
    return summary;
}

} // namespace toolstream::test
