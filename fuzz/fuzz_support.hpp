// Shared by the libFuzzer targets: the input layout, the chunking taken from the fuzz bytes, a
// recording sink that checks event life cycles as they come, the run comparisons, and a custom
// mutator that grows inputs to large events.
//
// A failed check prints what differs and aborts, so libFuzzer saves the input as a crash.
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/handler.hpp>
#include <toolstream/limits.hpp>
#include <toolstream/pipeline.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_syntax.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/types.hpp>

#include "fuzz_output.hpp"
#include "support/events.hpp"   // test::dump

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolstream::fuzz {

/// A fuzz input: a 4-byte header, then the body the target decodes. Header byte 0 holds options
/// (bits 0-1 the largest piece of the chunking; higher bits are the target's own), bytes 1-3
/// seed the piece sizes. run.sh puts such a header before every seed file.
struct input {
    std::uint8_t options = 0;
    std::uint32_t seed = 0;
    std::string_view body;

    /// `bits` bits of the options from bit `first` (targets use bits 2-7).
    unsigned option(unsigned first, unsigned bits) const noexcept
    {
        return (options >> first) & ((1u << bits) - 1);
    }
};

inline constexpr std::size_t header_size = 4;

/// Piece sizes drawn from the header's seed, 1 to 1, 7, 64 or 1024 bytes (header bits 0-1).
class piece_sizes {
public:
    explicit piece_sizes(const input& in) : state_(in.seed * 2654435761u | 1u), largest_(largest[in.options & 3]) {}

    std::size_t next() noexcept
    {
        state_ ^= state_ << 13;   // xorshift32
        state_ ^= state_ >> 17;
        state_ ^= state_ << 5;
        return 1 + state_ % largest_;
    }

private:
    static constexpr std::uint32_t largest[] = {1, 7, 64, 1024};
    std::uint32_t state_;
    std::uint32_t largest_;
};

/// `bytes` cut into pieces of the sizes `in` gives. Past 64 KiB every piece is longer by
/// 1/65536 of the input, so a grown input is cut into at most about 65536 pieces and runs in
/// seconds; smaller inputs are cut as the header says.
inline std::vector<std::string_view> chunking(std::string_view bytes, const input& in)
{
    piece_sizes sizes(in);
    const std::size_t extra = bytes.size() >> 16;
    std::vector<std::string_view> pieces;
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t n = std::min(bytes.size() - at, extra + sizes.next());
        pieces.push_back(bytes.substr(at, n));
        at += n;
    }
    return pieces;
}

/// Grows the body of a fuzz input (the header is kept) to a size drawn log-uniformly from
/// 64 KiB to `max_size`, the way large provider events look: one slice of a payload repeated
/// (a long string), one event repeated (a long stream), or both (many long events, which is what
/// broke the payload parser's arena in issue 10). Events end at a blank line, or at a line end
/// in a body without blank lines (NDJSON, model text).
class grower {
public:
    static constexpr std::size_t min_size = std::size_t{64} << 10;

    explicit grower(unsigned seed) noexcept : state_(seed | 1u) {}

    /// The grown input, or an empty string when there is nothing to grow or no room.
    std::string grow(std::string_view input, std::size_t max_size)
    {
        if (input.size() <= header_size || max_size < min_size || input.size() >= max_size)
            return {};
        const std::size_t target = log_uniform(std::max(min_size, input.size() + 1), max_size);
        std::string out(input.substr(0, header_size));
        const std::string_view body = input.substr(header_size);
        const std::size_t budget = target - header_size;
        const std::size_t at = next() % body.size();
        switch (next() % 3) {
        case 0: out += widen(body, at, budget); break;
        case 1: out += repeat_event(body, at, budget); break;
        default: {
            // Events of 4 KiB to a quarter of the budget, repeated to fill it.
            const auto [first, last] = event_around(body, at);
            const std::string event = widen(body.substr(first, last - first), at - first,
                                            log_uniform(4096, std::max<std::size_t>(4097, budget / 4)));
            std::string grown(body.substr(0, first));
            grown += event;
            grown += body.substr(last);
            out += repeat_event(grown, first, budget);
        }
        }
        if (out.size() > max_size)
            out.resize(max_size);
        return out;
    }

private:
    std::uint32_t next() noexcept
    {
        state_ ^= state_ << 13;   // xorshift32
        state_ ^= state_ >> 17;
        state_ ^= state_ << 5;
        return state_;
    }

    std::size_t log_uniform(std::size_t low, std::size_t high) noexcept
    {
        if (high <= low)
            return low;
        const double span = std::log(static_cast<double>(high) / static_cast<double>(low));
        const double u = static_cast<double>(next()) / 4294967296.0;
        return std::min(high, static_cast<std::size_t>(static_cast<double>(low) * std::exp(u * span)));
    }

    /// [first, last) of the event holding `at`, its end marker included.
    static std::pair<std::size_t, std::size_t> event_around(std::string_view body, std::size_t at)
    {
        const std::string_view end = body.find("\n\n") != std::string_view::npos ? "\n\n" : "\n";
        const std::size_t before = at == 0 ? std::string_view::npos : body.rfind(end, at - 1);
        // `at` may lie inside the end marker found (on the second byte of "\n\n"): the event
        // then starts at `at`, never after it.
        const std::size_t first = std::min(at, before == std::string_view::npos ? 0 : before + end.size());
        const std::size_t after = body.find(end, at);
        const std::size_t last = after == std::string_view::npos ? body.size() : after + end.size();
        return {first, std::max(last, first + 1)};
    }

    /// `body` with a slice of up to 16 bytes at `at` (moved onto a letter or digit nearby, so
    /// that it most often lies inside a JSON string) repeated until the whole is `size` bytes.
    std::string widen(std::string_view body, std::size_t at, std::size_t size)
    {
        for (std::size_t step = 0; step < 64 && at + 1 < body.size() && !std::isalnum(static_cast<unsigned char>(body[at])); ++step)
            ++at;
        const std::size_t length = std::min<std::size_t>(1 + next() % 16, body.size() - at);
        const std::string_view slice = body.substr(at, length);
        std::string out(body.substr(0, at));
        out.reserve(size);
        while (out.size() + slice.size() + (body.size() - at) <= size)
            out += slice;
        out += body.substr(at);
        return out;
    }

    /// `body` with the event holding `at` repeated until the whole is about `size` bytes.
    std::string repeat_event(std::string_view body, std::size_t at, std::size_t size)
    {
        const auto [first, last] = event_around(body, at);
        const std::string_view event = body.substr(first, last - first);
        std::string out(body.substr(0, last));
        out.reserve(size);
        while (out.size() + event.size() + (body.size() - last) <= size)
            out += event;
        out += body.substr(last);
        return out;
    }

    std::uint32_t state_;
};

/// The largest input run so far is printed at each new power of two (run.sh reports the last).
inline void note_size(std::size_t size)
{
    static std::size_t reported = 0;
    if (size < 2 * reported || size < 1024)
        return;
    reported = size;
    std::fprintf(stderr, "toolstream fuzz: largest input so far %zu bytes\n", size);
}

inline std::optional<input> read_input(const std::uint8_t* data, std::size_t size)
{
    note_size(size);
    if (size < header_size)
        return std::nullopt;
    input in;
    in.options = data[0];
    in.seed = std::uint32_t{data[1]} | std::uint32_t{data[2]} << 8 | std::uint32_t{data[3]} << 16;
    in.body = {reinterpret_cast<const char*>(data) + header_size, size - header_size};
    return in;
}

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

    template<class Writer>
    void on_content(std::string_view text, Writer& out)
    {
        inner.on_content(text, out);
    }
    template<class Writer>
    void finalize(Writer& out)
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
            if (!(decoded_bodies && find_tool_syntax(e.segment_kind) != nullptr)) {
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

/// ASCII lower case, for case-insensitive syntax checks.
inline std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// Checks a complete native call against Boost.JSON's reading of its raw arguments (a free-form
/// call, an OpenAI Responses custom tool, has none): a generic
/// call's arguments are that object; a file call's path and body are its strings (the file body
/// was streamed by a separate incremental decoder).
inline void check_native_invocation(const tool_invocation& inv)
{
    if (inv.free_form) {   // a custom tool's input is text, never parsed
        if (!inv.arguments.empty())
            fail("a free-form call with parsed arguments", dump({inv}));
        return;
    }
    if (!inv.is_complete())
        return;
    boost::json::parse_options deep;
    deep.max_depth = 1 << 16;
    error_code ec;
    const bool blank = inv.arguments_raw.find_first_not_of(" \t\r\n") == std::string::npos;
    auto parsed = blank ? boost::json::value(boost::json::object()) : boost::json::parse(inv.arguments_raw, ec, {}, deep);
    if (ec || !parsed.is_object())
        fail("a complete call whose raw arguments are not a JSON object", dump({inv}));
    // Boost.JSON 1.81 reads 0e400 as NaN and 1e400 as Infinity: the documented repair.
    if (!detail::repair_non_finite(parsed))
        fail("a complete call with a number past the double range", dump({inv}));
    const auto& raw = parsed.get_object();
    if (inv.name != "write_file" && inv.name != "patch_file") {
        if (raw != inv.arguments)
            fail("a complete call's arguments differ from its raw text parsed", dump({inv}));
        return;
    }
    const char* body_key = inv.name == "write_file" ? "content" : "patch";
    for (const char* key : {"path", body_key}) {
        const auto* want = raw.if_contains(key);
        const auto* got = inv.arguments.if_contains(key);
        if (want == nullptr && key == body_key && (got == nullptr || *got == ""))
            continue;   // no body at all: an empty file or patch
        if (want == nullptr || !want->is_string() || got == nullptr || *got != *want)
            fail(std::string("a complete file call's ") + key + " differs from its raw text parsed", dump({inv}));
    }
}

/// Whether `Policy` decodes file bodies out of JSON strings (json_calls, text_format_policy).
template<class Policy>
constexpr bool decodes_file_bodies() noexcept
{
    if constexpr (requires { Policy::decodes_file_bodies; })
        return Policy::decodes_file_bodies;
    else
        return false;
}

/// Text policies: runs `body` whole and in the input's chunking through handler<Policy>, each run
/// with a policy from `make_policy()`, and checks chunk invariance, byte conservation (text +
/// content + markup == input; `decoded_bodies`: see recorder), the life cycle checks of `recorder`
/// with `closing` and `complete_at_end`, and, when `held_bound` is not 0, that `held_bytes()` stays
/// within it after every feed.
template<class Policy, class MakePolicy>
void check_made_policy(const input& in, MakePolicy make_policy, bool decoded_bodies, closing_rule closing,
                       std::size_t held_bound, bool complete_at_end)
{
    auto run = [&](const std::vector<std::string_view>& pieces) {
        handler<guarded<Policy>, recorder> h(
            recorder{{}, {}, {}, {}, closing, {}, {}, decoded_bodies, complete_at_end, {}, {}}, {},
            guarded<Policy>{make_policy()});
        error_code first;
        for (auto piece : pieces) {
            if (const auto ec = h.feed(piece); ec && !first)
                first = ec;
            if (held_bound != 0 && h.policy().inner.held_bytes() > held_bound)
                fail("held_bytes() " + std::to_string(h.policy().inner.held_bytes()) + " passes its bound "
                     + std::to_string(held_bound));
        }
        if (const auto ec = h.finalize(); ec && !first)
            first = ec;
        auto& r = h.sink();
        r.check_all_ended();
        if (r.bytes != in.body)
            fail("text + content + markup does not reconstruct the input",
                 "input:\n" + std::string(in.body) + "\nreconstructed:\n" + r.bytes);
        return outcome_of(r, first ? first.message() : std::string());
    };
    const auto whole = run({in.body});
    if (const auto pieces = chunking(in.body, in); pieces.size() > 1)
        check_same(whole, run(pieces));
}

/// check_made_policy with `Policy(options)`.
template<class Policy, class Options>
void check_text_policy(const input& in, const Options& options, closing_rule closing, std::size_t held_bound,
                       bool complete_at_end = false)
{
    check_made_policy<Policy>(in, [&] { return Policy(options); }, decodes_file_bodies<Policy>(), closing, held_bound,
                              complete_at_end);
}

/// Provider pipelines: runs `body` whole and in the input's chunking through
/// pipeline<Provider, api_tool_call> and checks chunk invariance of the events, the invocations,
/// the summary and the first error; the life cycle checks of `recorder`; and each complete call
/// against its raw arguments. Header bits 2-3 pick the transport limit (SSE event or NDJSON
/// line: 16 MiB, 64, 512, 4096 bytes), bits 4-6 small native call limits.
template<class Provider>
void check_provider(const input& in)
{
    using converter = provider_converter<Provider>;
    static constexpr std::size_t transport_limits[] = {16u << 20, 64, 512, 4096};
    pipeline_options options;
    options.collect_text = true;
    options.sse.max_event_size = transport_limits[in.option(2, 2)];
    options.ndjson.max_line_size = transport_limits[in.option(2, 2)];
    native_call_limits limits;
    if (in.option(4, 1))
        limits.max_calls = 2;
    if (in.option(5, 1))
        limits.max_argument_bytes = 64;
    if (in.option(6, 1))
        limits.max_depth = 3;
    options.native_limits = limits;
    using policy = guarded<api_tool_call>;

    auto run = [&](const std::vector<std::string_view>& pieces) {
        pipeline<Provider, policy, recorder> p(recorder{}, options);
        for (auto piece : pieces)
            (void)p.write(piece);
        (void)p.finish();
        auto& r = p.sink();
        r.check_all_ended();
        for (const auto& inv : r.invocations)
            check_native_invocation(inv);
        const auto framing = converter::wire_framing == framing::sse ? "sse" : "ndjson";
        auto summary = boost::json::serialize(to_json(p.summary(), converter::name, framing));
        r.output.check_json(summary, "summary");
        if (!r.output.problem().empty())
            fail("output that is not strict UTF-8 JSON", r.output.problem());
        return outcome_of(r, summary + "\n" + p.first_error().message());
    };
    const auto whole = run({in.body});
    if (const auto pieces = chunking(in.body, in); pieces.size() > 1)
        check_same(whole, run(pieces));
}

} // namespace toolstream::fuzz

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

/// libFuzzer's own mutations, and one time in eight (when -max_len allows 64 KiB or more) a
/// grower's. Runs capped at 4 KiB (the default pass) are unchanged.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed)
{
    if (seed % 8 == 0 && max_size >= toolstream::fuzz::grower::min_size) {
        const std::string grown = toolstream::fuzz::grower(seed).grow(
            std::string_view(reinterpret_cast<const char*>(data), size), max_size);
        if (!grown.empty()) {
            std::memcpy(data, grown.data(), grown.size());
            return grown.size();
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
