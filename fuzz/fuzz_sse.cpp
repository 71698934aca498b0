// libFuzzer target: the SSE decoder, against chunked runs and a plain reference decoder.
#include <toolstream/transport/sse.hpp>

#include "fuzz_support.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace toolstream;

// What a run saw: events (comments as name "\x01", errors as "\x02"), whether [DONE] came,
// whether write() or finish() returned an error.
struct seen {
    std::vector<std::pair<std::string, std::string>> events;
    bool done = false;
    bool error = false;

    bool operator==(const seen&) const = default;

    std::string dump() const
    {
        std::string s;
        for (const auto& [name, data] : events)
            s += "[" + name + "] " + data + "\n";
        return s + (done ? "done " : "") + (error ? "error" : "");
    }
};

// The WHATWG event-stream rules plus the decoder's documented extras (BOM, raw JSON bodies,
// [DONE], whitespace-only data, `error:` lines), written for clarity over whole input.
seen reference(std::string_view body, bool flush_at_eof)
{
    seen out;
    if (body.starts_with("\xEF\xBB\xBF"))
        body.remove_prefix(3);
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (body[first] == '{' || body[first] == '[')) {
        out.events.emplace_back("", std::string(body.substr(first)));
        return out;
    }
    std::string name, data;
    bool has_data = false;
    auto dispatch = [&] {
        if (has_data) {
            const std::string_view trimmed = detail::trim_blanks(data);
            if (trimmed == "[DONE]")
                out.done = true;
            else if (!trimmed.empty())
                out.events.emplace_back(name, data);
        }
        name.clear();
        data.clear();
        has_data = false;
    };
    auto line = [&](std::string_view l) {
        if (l.empty())
            return dispatch();
        if (l.front() == ':')
            return out.events.emplace_back("\x01", std::string(l.substr(1))), void();
        const std::size_t colon = l.find(':');
        const std::string_view field = l.substr(0, colon);
        std::string_view value = colon == std::string_view::npos ? std::string_view() : l.substr(colon + 1);
        if (value.starts_with(' '))
            value.remove_prefix(1);
        if (field == "error")   // llama.cpp's server: the data of an event named error
            name = "error";
        if (field == "data" || field == "error") {
            if (has_data)
                data += '\n';
            data += value;
            has_data = true;
        } else if (field == "event") {
            name = value;
        }
    };
    std::size_t at = 0;
    for (;;) {
        const std::size_t eol = body.find_first_of("\r\n", at);
        if (eol == std::string_view::npos)
            break;
        line(body.substr(at, eol - at));
        at = eol + (body.substr(eol, 2) == "\r\n" ? 2 : 1);
    }
    if (flush_at_eof) {
        if (at < body.size())
            line(body.substr(at));
        dispatch();
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t limits[] = {16u << 20, 16, 100, 1000};   // header bits 2-3
    sse_options options;
    options.max_event_size = limits[in->option(2, 2)];
    options.flush_at_eof = in->option(4, 1) == 0;
    // A line holds `data: ` and an event's worth of value; the decoder holds a line, the
    // event's data and its name.
    const std::size_t held_bound = 3 * (options.max_event_size + 7);

    auto run = [&](const std::vector<std::string_view>& pieces) {
        sse_decoder decoder(options);
        seen out;
        // Errors are recorded where the decoder reports them among the events.
        auto visit = [&](const auto& ev) {
            using type = std::decay_t<decltype(ev)>;
            if constexpr (std::is_same_v<type, sse_keep_alive>)
                out.events.emplace_back("\x01", std::string(ev.comment));
            else if constexpr (std::is_same_v<type, error_code>)
                out.events.emplace_back("\x02", ev.message());
            else
                out.events.emplace_back(std::string(ev.name), std::string(ev.data));
        };
        for (auto piece : pieces) {
            out.error |= static_cast<bool>(decoder.write(piece, visit));
            if (decoder.buffered_bytes() > held_bound)
                fuzz::fail("sse_decoder buffers " + std::to_string(decoder.buffered_bytes()) + " bytes");
        }
        out.error |= static_cast<bool>(decoder.finish(visit));
        out.done = decoder.done();
        return out;
    };
    const seen whole = run({in->body});
    const auto pieces = fuzz::chunking(in->body, *in);
    const seen chunked = pieces.size() > 1 ? run(pieces) : whole;
    if (chunked != whole)
        fuzz::fail("chunked input gives other SSE events", "whole:\n" + whole.dump() + "\nchunked:\n" + chunked.dump());
    // The reference has no size limit: it applies where the limit cannot be reached, the largest
    // limit and a body no longer than it (the large-input pass grows bodies past 16 MiB).
    if (in->option(2, 2) == 0 && in->body.size() <= options.max_event_size) {
        const seen expected = reference(in->body, options.flush_at_eof);
        if (whole != expected)
            fuzz::fail("SSE events differ from the reference decoder",
                       "decoder:\n" + whole.dump() + "\nreference:\n" + expected.dump());
    }
    return 0;
}
