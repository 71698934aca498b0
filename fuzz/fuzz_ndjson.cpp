// libFuzzer target: the NDJSON decoder, against chunked runs and a plain reference decoder.
#include <toolstream/transport/ndjson.hpp>

#include "fuzz_support.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace toolstream;

struct seen {
    std::vector<std::string> lines;   // errors as "\x02" and their message
    bool error = false;

    bool operator==(const seen&) const = default;

    std::string dump() const
    {
        std::string s;
        for (const auto& l : lines)
            s += "[" + l + "]\n";
        return s + (error ? "error" : "");
    }
};

// Lines end at LF, one CR before it is stripped, a line longer than `max_line` is dropped with
// an error, blank lines are skipped; a leading BOM is dropped; the last line needs no LF.
seen reference(std::string_view body, std::size_t max_line)
{
    seen out;
    if (body.starts_with("\xEF\xBB\xBF"))
        body.remove_prefix(3);
    while (!body.empty()) {
        const std::size_t eol = body.find('\n');
        std::string_view line = body.substr(0, eol);
        body.remove_prefix(eol == std::string_view::npos ? body.size() : eol + 1);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line.size() > max_line) {
            out.error = true;
            out.lines.emplace_back("\x02" + make_error_code(error::line_too_large).message());
        }
        else if (line.find_first_not_of(" \t\r\n") != std::string_view::npos)
            out.lines.emplace_back(line);
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    static constexpr std::size_t limits[] = {64u << 20, 0, 16, 200};   // header bits 2-3
    ndjson_options options;
    options.max_line_size = limits[in->option(2, 2)];

    auto run = [&](const std::vector<std::string_view>& pieces) {
        ndjson_decoder decoder(options);
        seen out;
        // Errors are recorded where the decoder reports them among the lines.
        fuzz::visitors visit{[&](const wire_event& ev) { out.lines.emplace_back(ev.data); },
                             [&](error_code ec) { out.lines.emplace_back("\x02" + ec.message()); }};
        for (auto piece : pieces) {
            out.error |= static_cast<bool>(decoder.write(piece, visit));
            if (decoder.buffered_bytes() > options.max_line_size + 1)
                fuzz::fail("ndjson_decoder buffers " + std::to_string(decoder.buffered_bytes()) + " bytes");
        }
        out.error |= static_cast<bool>(decoder.finish(visit));
        return out;
    };
    const seen whole = run({in->body});
    const auto pieces = fuzz::chunking(in->body, *in);
    const seen chunked = pieces.size() > 1 ? run(pieces) : whole;
    if (chunked != whole)
        fuzz::fail("chunked input gives other NDJSON lines", "whole:\n" + whole.dump() + "\nchunked:\n" + chunked.dump());
    const seen expected = reference(in->body, options.max_line_size);
    if (whole != expected)
        fuzz::fail("NDJSON lines differ from the reference decoder",
                   "decoder:\n" + whole.dump() + "\nreference:\n" + expected.dump());
    return 0;
}
