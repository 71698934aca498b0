// Test support for the OpenAI writers: a string output, fixed identity, and runs of a handler or
// a pipeline whose sink is the writer. The runs are compiled once, in writer_support.cpp: each
// instantiates the handler or pipeline over every registered policy.
#pragma once

#include <toolstream/writers/openai_completion.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test {

/// Appends the writer's bytes to a string it owns; counts the writes.
struct string_output {
    std::string bytes;
    std::size_t writes = 0;
    void operator()(std::string_view b)
    {
        bytes.append(b);
        ++writes;
    }
};

using string_sse_writer = openai_sse_writer<string_output>;

inline openai_sse_options fixed_identity()
{
    openai_sse_options o;
    o.id = "chatcmpl-t";
    o.model = "m";
    o.created = 1;
    return o;
}

/// The start of every chunk of a writer with fixed_identity().
inline const std::string chunk_prefix =
    R"(data: {"id":"chatcmpl-t","object":"chat.completion.chunk","created":1,"model":"m",)";

/// One chunk of choice `index` with `delta` (a JSON object's members) and a finish reason.
inline std::string chunk_of(std::string_view delta, std::string_view finish = "null", int index = 0)
{
    return chunk_prefix + R"("choices":[{"index":)" + std::to_string(index) + R"(,"delta":{)" + std::string(delta)
        + R"(},"finish_reason":)" + std::string(finish) + "}]}\n\n";
}

/// Model text through a handler with `policy`, fed in `pieces`, written as SSE: one choice that
/// finishes with tool_calls when it made a complete call, else stop.
std::string text_to_sse(std::string_view policy, const std::vector<std::string_view>& pieces,
                        openai_sse_options options = fixed_identity());

/// Both writers on one pipeline.
struct both_writers {
    string_sse_writer sse{string_output{}, fixed_identity()};
    openai_completion_builder completion{{"chatcmpl-t", "m", 1}};

    template<class Event>
        requires std::invocable<string_sse_writer&, const Event&>
    void operator()(const Event& e)
    {
        sse(e);
        completion(e);
    }
};

/// A provider stream through a pipeline (`parser` policy) fed in `pieces` of `chunk` bytes
/// (0: whole), into both writers.
both_writers provider_to_openai(std::string_view provider, std::string_view parser, std::string_view bytes,
                                std::size_t chunk = 0);

} // namespace toolstream::test
