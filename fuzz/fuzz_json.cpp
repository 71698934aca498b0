// libFuzzer target: model text through handler<json_calls>.
#include <toolstream/policies/json_calls.hpp>
#include <toolstream/tool_syntax.hpp>

#include "fuzz_support.hpp"

namespace {

using namespace toolstream;

// A call ends complete only where its object closes: the last byte before its END (content of a
// tool_call, syntax of a file tool) is the `}`.
bool closed(std::string_view bytes, std::string_view)
{
    return bytes.ends_with('}');
}

// json_calls decodes file bodies out of JSON strings and reports their raw bytes as markup
// (json_calls::decodes_file_bodies): the recorder reconstructs the input from everything else,
// and the decoded bodies are compared between runs on their own.
struct decoded_bodies {
    fuzz::recorder inner;
    std::string bodies;

    void operator()(const segment_event& e)
    {
        if (e.type == segment_event_type::SEGMENT_CONTENT && find_tool_syntax(e.segment_kind) != nullptr)
            bodies.append(e.delta).push_back('\0');   // the recorder checks its text, not its bytes
        else
            inner(e);
    }
    void operator()(const tool_invocation& inv) { inner(inv); }
    void operator()(consumed_markup m) { inner(m); }
};

void check(const fuzz::input& in, const json_calls_options& options)
{
    static_assert(json_calls::decodes_file_bodies);
    auto run = [&](const std::vector<std::string_view>& pieces) {
        handler<fuzz::guarded<json_calls>, decoded_bodies> h(
            decoded_bodies{fuzz::recorder{{}, {}, {}, {}, closed, {}, {}}, {}}, {},
            fuzz::guarded<json_calls>{json_calls(options)});
        error_code first;
        for (auto piece : pieces) {
            if (const auto ec = h.feed(piece); ec && !first)
                first = ec;
            if (h.policy().inner.held_bytes() > options.max_held + options.max_held_body)
                fuzz::fail("held_bytes() " + std::to_string(h.policy().inner.held_bytes()) + " passes its bound");
        }
        if (const auto ec = h.finalize(); ec && !first)
            first = ec;
        auto& r = h.sink().inner;
        r.check_all_ended();
        if (r.bytes != in.body)
            fuzz::fail("text + markup + tool_call content does not reconstruct the input",
                       "input:\n" + std::string(in.body) + "\nreconstructed:\n" + r.bytes);
        return fuzz::outcome_of(r, h.sink().bodies + (first ? first.message() : std::string()));
    };
    const auto whole = run({in.body});
    if (const auto pieces = fuzz::chunking(in.body, in); pieces.size() > 1)
        fuzz::check_same(whole, run(pieces));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t caps[] = {4096, 16, 64, 300};   // header bits 2-3
    static constexpr std::size_t held_bodies[] = {std::size_t{1} << 20, 0, 64, 300};   // header bits 4-5
    json_calls_options options;
    options.max_held = caps[in->option(2, 2)];
    options.max_held_body = held_bodies[in->option(4, 2)];
    check(*in, options);
    return 0;
}
