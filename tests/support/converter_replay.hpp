// Test support: driving one provider converter directly, by hand-written events or by a recorded
// SSE stream, without the rest of the pipeline.
#pragma once

#include "catch_compat.hpp"
#include "support/chunk_summary.hpp"

#include <toolstream/error.hpp>
#include <toolstream/providers/provider.hpp>
#include <toolstream/transport/sse.hpp>
#include <toolstream/types.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace toolstream::test {

/// Keeps a copy of every chunk a single-choice converter emits; those that only announce a
/// response (its id and model) go to `starts`, so `chunks` indexes only the ones with content.
struct chunk_recorder {
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

/// Converts one payload as an SSE event named `name`.
template<provider_traits Provider>
error_code feed(provider_converter<Provider>& conv, chunk_recorder& out, std::string_view name, std::string_view data)
{
    return conv.convert(wire_event{name, data}, out);
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
