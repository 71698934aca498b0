// The runs of writer_support.hpp, compiled once for the test executable.
#include "writers/writer_support.hpp"

#include "support/events.hpp"

#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

namespace toolstream::test {

std::string text_to_sse(std::string_view policy, const std::vector<std::string_view>& pieces,
                        openai_sse_options options)
{
    handler<runtime_policy, string_sse_writer> h(string_sse_writer{string_output{}, std::move(options)}, {},
                                                 make_policy(policy).value());
    for (auto piece : pieces)
        (void)with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); });
    (void)h.finalize();
    bool made_calls = false;
    for (const auto& inv : h.invocations())
        made_calls = made_calls || inv.is_complete();
    h.sink()(choice_finished{0, {}, made_calls ? finish_kind::tool_calls : finish_kind::stop});
    h.sink().done();
    return std::move(h.sink().output().bytes);
}

both_writers provider_to_openai(std::string_view provider, std::string_view parser, std::string_view bytes,
                                std::size_t chunk)
{
    auto made = runtime_pipeline<both_writers>::create(provider, parser);
    auto& p = **made;
    const std::size_t step = chunk == 0 ? bytes.size() + 1 : chunk;
    for (std::size_t at = 0; at < bytes.size(); at += step)
        (void)p.write(bytes.substr(at, step));
    (void)p.finish();
    p.sink().sse.done();
    return std::move(p.sink());
}

} // namespace toolstream::test
