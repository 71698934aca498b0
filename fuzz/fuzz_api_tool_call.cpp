// libFuzzer target: native tool-call fragments through handler<api_tool_call>, with
// write_file/patch_file body decoding, generic calls, parallel indexes and the call limits.
//
// Body: records separated by 0x1F. A record's first byte says what its fragment is; the rest is
// the argument text:
//   bits 0-2 call index (0-7), bit 7 adds 2^40 (indexes are not dense);
//   bits 3-4 name: none, write_file, patch_file, get_weather;
//   bit 5 is_complete; bit 6 carries the call id "c<index>".
// The chunked run splits every record's argument text into several fragments (name and id on
// the first, is_complete on the last), as providers split arguments arbitrarily.
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "fuzz_support.hpp"

#include <set>
#include <string>
#include <vector>

namespace {

using namespace toolstream;

struct record {
    std::size_t index;
    std::string_view name;
    std::string_view arguments;
    bool complete;
    bool with_id;
};

std::vector<record> read_records(std::string_view body)
{
    static constexpr std::string_view names[] = {"", "write_file", "patch_file", "get_weather"};
    std::vector<record> out;
    while (!body.empty()) {
        const std::size_t end = body.find('\x1f');
        const std::string_view r = body.substr(0, end);
        body.remove_prefix(end == std::string_view::npos ? body.size() : end + 1);
        if (r.empty())
            continue;
        const auto op = static_cast<unsigned char>(r[0]);
        out.push_back({(op & 7u) + ((op & 0x80u) != 0 ? std::size_t{1} << 40 : 0), names[(op >> 3) & 3u],
                       r.substr(1), (op & 0x20u) != 0, (op & 0x40u) != 0});
    }
    return out;
}

tool_call_delta delta(const record& r, std::string_view arguments, bool first, bool last)
{
    tool_call_delta d;
    d.index = r.index;
    if (first) {
        d.name = r.name;
        if (r.with_id)
            d.call_id = "c" + std::to_string(r.index);
    }
    d.arguments_delta = arguments;
    d.is_complete = last && r.complete;
    return d;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    native_call_limits limits;
    if (in->option(2, 1))
        limits.max_calls = 3;
    if (in->option(3, 1))
        limits.max_argument_bytes = 100;
    if (in->option(4, 1))
        limits.max_depth = 4;
    const auto records = read_records(in->body);
    std::set<std::string> completed;   // ids of the calls the stream completed
    for (const auto& r : records)
        if (r.complete)
            completed.insert("c" + std::to_string(r.index));

    using policy = fuzz::guarded<api_tool_call>;
    bool too_large = false;
    auto run = [&](bool split) {
        handler<policy, fuzz::recorder> h(fuzz::recorder{},
                                          handler_options{.segment_id_prefix = {}, .choice = 0, .native_limits = limits});
        std::set<int> errors;
        auto feed = [&](const tool_call_delta& d) {
            chunk_response chunk;
            chunk.tool_calls.push_back(d);
            if (const auto ec = h.feed(chunk)) {
                errors.insert(ec.value());
                too_large |= ec == error::arguments_too_large;
            }
        };
        fuzz::piece_sizes sizes(*in);
        for (const auto& r : records) {
            if (!split || r.arguments.empty()) {
                feed(delta(r, r.arguments, true, true));
                continue;
            }
            for (std::size_t at = 0; at < r.arguments.size();) {
                const std::size_t n = std::min(r.arguments.size() - at, sizes.next());
                feed(delta(r, r.arguments.substr(at, n), at == 0, at + n == r.arguments.size()));
                at += n;
            }
        }
        if (h.finalize())
            fuzz::fail("api_tool_call finalize() reported an error");
        auto& rec = h.sink();
        rec.check_all_ended();
        for (const auto& inv : rec.invocations) {
            fuzz::check_native_invocation(inv);
            // Ids "c<index>" name the call's index; a call no record completed is never complete.
            if (inv.is_complete() && inv.id.starts_with('c') && !completed.contains(inv.id))
                fuzz::fail("a call the stream never completed is complete", fuzz::dump({inv}));
        }
        std::string extra;
        for (int e : errors)
            extra += std::to_string(e) + " ";
        return fuzz::outcome_of(rec, extra);
    };
    const auto whole = run(false);
    const auto chunked = run(true);
    // Past max_argument_bytes the fragment that crossed it is dropped whole, so where the cut
    // falls depends on the fragmentation; everything else must not.
    if (!too_large)
        fuzz::check_same(whole, chunked, "fragmented");
    return 0;
}
