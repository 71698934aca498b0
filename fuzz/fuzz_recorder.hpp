// The recording sink of the libFuzzer targets (fuzz_support.hpp): it checks event life cycles as
// they come; a failed check prints what differs and aborts, so libFuzzer saves the input as a
// crash. Also what one run produced, and the comparison of two runs.
#pragma once

#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/tool_syntax.hpp>

#include "fuzz_output.hpp"
#include "support/events.hpp"   // test::dump

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::fuzz {

[[noreturn]] inline void fail(std::string_view what, const std::string& details = {})
{
    std::fprintf(stderr, "\n==== toolstream fuzz check failed: %.*s\n", static_cast<int>(what.size()), what.data());
    std::fwrite(details.data(), 1, details.size(), stderr);   // not %s: details may hold NUL bytes
    std::fputc('\n', stderr);
    std::abort();
}

inline std::string dump(const std::vector<tool_invocation>& invocations)
{
    std::string s;
    for (const auto& inv : invocations)
        s += boost::json::serialize(boost::json::value_from(inv)) + "\n";
    return s;
}

/// One visitor made of several lambdas.
template<class... F>
struct visitors : F... {
    using F::operator()...;
};
template<class... F>
visitors(F...) -> visitors<F...>;

/// Set while a policy's finalize() runs (libFuzzer runs one input at a time, on one thread).
inline bool finalizing = false;

/// Wraps a policy to raise `finalizing` during its finalize(), so a sink can tell the segments
/// that finalize() ended from those the stream itself ended.
template<class Policy>
struct guarded {
    Policy inner;

    template<toolstream::emitter Emitter>
    void on_content(std::string_view text, Emitter& out)
    {
        inner.on_content(text, out);
    }
    template<toolstream::emitter Emitter>
    void finalize(Emitter& out)
    {
        finalizing = true;
        inner.finalize(out);
        finalizing = false;
    }
    void reset() { inner.reset(); }
};

/// Says whether a tool segment may END `complete`, from what preceded its END: `bytes` (text,
/// content and markup so far, when the policy reports markup) and `markup_run` (the markup
/// reported since the last CONTENT). Text policies check that the closing syntax was consumed.
using closing_rule = bool (*)(std::string_view bytes, std::string_view markup_run);

/// Records everything a run produces and checks, as events come:
/// - every CONTENT and END belongs to a segment that STARTed and has not ENDed (ids may repeat
///   across segments: a provider may reuse a call id, so open segments are counted per id);
/// - every tool END gives exactly one invocation, with the END's id and status;
/// - nothing that finalize() ended is `complete`, unless `complete_at_end` (a model-native
///   format whose closing marker a stop sequence stripped: complete arguments make it complete);
/// - with a closing rule, a tool segment ENDs `complete` only right after its closing syntax.
struct recorder {
    std::vector<owned_segment_event> events;   // coalesced as they come
    std::vector<tool_invocation> invocations;
    std::string bytes;        // text, content and markup, in emission order
    std::string markup_run;   // markup since the last CONTENT
    closing_rule closing = nullptr;
    std::map<std::string, int, std::less<>> open;
    std::optional<owned_segment_event> awaiting;   // a tool END whose invocation is due
    /// The policy decodes file bodies out of JSON strings and reports their raw bytes as markup
    /// (`decodes_file_bodies`): a file or shell segment's content is then not input bytes.
    bool decoded_bodies = false;
    bool complete_at_end = false;
    std::string markup;   // all consumed markup, in order
    output_check output;  // every writer's output is strict UTF-8 JSON
    /// When set, says decoded_bodies at each event instead: a policy that chooses its format as
    /// it reads (auto) decodes as the chosen format does.
    std::function<bool()> decoded_now;

    void operator()(const segment_event& e)
    {
        output(e);
        if (awaiting)
            fail("a tool END without its invocation", to_json_string(awaiting->view()));
        auto it = open.find(e.segment_id);
        switch (e.type) {
        case segment_event_type::SEGMENT_START:
            if (it == open.end())
                it = open.emplace(std::string(e.segment_id), 0).first;
            ++it->second;
            break;
        case segment_event_type::SEGMENT_CONTENT:
            if (it == open.end() || it->second == 0)
                fail("CONTENT of a segment that is not open", to_json_string(e));
            if (e.delta.empty())
                fail("an empty CONTENT delta", to_json_string(e));
            if (!((decoded_now ? decoded_now() : decoded_bodies) && find_tool_syntax(e.segment_kind) != nullptr)) {
                bytes += e.delta;
                markup_run.clear();
            }
            // Coalesced: adjacent CONTENT of one segment is one event, however it was split.
            if (!events.empty() && events.back().type == e.type && events.back().segment_id == e.segment_id) {
                events.back().delta += e.delta;
                return;
            }
            break;
        case segment_event_type::SEGMENT_END:
            if (it == open.end() || it->second-- == 0)
                fail("END of a segment that is not open", to_json_string(e));
            if (is_tool_segment(e.segment_kind)) {
                if (e.status == segment_status::complete && finalizing && !complete_at_end)
                    fail("finalize() ended a tool segment as complete", to_json_string(e));
                if (e.status == segment_status::complete && closing != nullptr && !closing(bytes, markup_run))
                    fail("a tool segment ended complete without its closing syntax",
                         to_json_string(e) + "\nlast bytes: " + tail(bytes) + "\nmarkup run: " + markup_run);
                awaiting.emplace(e);
            }
            break;
        }
        events.emplace_back(e);
    }

    void operator()(const tool_invocation& inv)
    {
        if (!awaiting || awaiting->segment_id != inv.id)
            fail("an invocation without its tool END", boost::json::serialize(boost::json::value_from(inv)));
        // The adapter may lower a complete segment (invalid arguments), never raise one.
        if (inv.is_complete() && awaiting->status != segment_status::complete)
            fail("a complete invocation from a segment that is not", dump({inv}));
        if (inv.is_complete() && inv.name.empty())
            fail("a complete invocation without a name", dump({inv}));
        awaiting.reset();
        invocations.push_back(inv);
        output(inv);
    }

    // The writers' other inputs (argument fragments, the response-level events).
    template<class Event>
        requires std::invocable<output_check&, const Event&>
    void operator()(const Event& e)
    {
        output(e);
    }

    void operator()(consumed_markup m)
    {
        bytes += m.bytes;
        markup += m.bytes;
        markup_run += m.bytes;
    }

    /// After the stream is finalized: every segment has ended, and all output was valid.
    void check_all_ended()
    {
        output.close();
        if (!output.problem().empty())
            fail("output that is not strict UTF-8 JSON", output.problem());
        for (const auto& [id, n] : open)
            if (n != 0)
                fail("a segment never ENDed", id);
        if (awaiting)
            fail("a tool END without its invocation", to_json_string(awaiting->view()));
    }

    static std::string tail(std::string_view s) { return std::string(s.substr(s.size() > 80 ? s.size() - 80 : 0)); }
};

/// What one run produced, in the form two runs are compared in.
struct outcome {
    std::vector<owned_segment_event> events;   // coalesced
    std::vector<tool_invocation> invocations;
    std::string extra;                         // target-specific facts (a summary, errors)
};

inline outcome outcome_of(recorder& r, std::string extra = {})
{
    return {std::move(r.events), std::move(r.invocations), std::move(extra)};
}

/// Chunk invariance: the chunked run gives what the whole run gives.
inline void check_same(const outcome& whole, const outcome& chunked, std::string_view what = "chunked")
{
    if (whole.events == chunked.events && whole.invocations == chunked.invocations && whole.extra == chunked.extra)
        return;
    fail(std::string(what) + " input gives other output than whole input",
         "whole:\n" + test::dump(whole.events) + dump(whole.invocations) + whole.extra + "\n" + std::string(what)
             + ":\n" + test::dump(chunked.events) + dump(chunked.invocations) + chunked.extra);
}

} // namespace toolstream::fuzz
