// Inputs the fuzz targets (fuzz/) found, reduced, one test each: the behaviour is now fixed.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/gemini.hpp>
#include <toolstream/providers/mistral.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>
#include <toolstream/tools/toolset.hpp>
#include <toolstream/transport/sse.hpp>

#include "catch_compat.hpp"

#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace test_fuzz_regressions {

using namespace toolstream;

namespace {

// Streams one native call: `name` on the first fragment, `arguments` cut into `pieces` of the
// given size (0: whole), completed by the provider.
tool_invocation stream_call(std::string_view name, std::string_view arguments, std::size_t piece = 0)
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls.push_back({0, "call_1", std::string(name), {}, false});
    std::size_t at = 0;
    do {
        const std::size_t n = piece == 0 ? arguments.size() : std::min(piece, arguments.size() - at);
        c.tool_calls[0].arguments_delta.assign(arguments.substr(at, n));
        at += n;
        REQUIRE(!h.feed(c));
        c.tool_calls[0].name.clear();
    } while (at < arguments.size());
    c.tool_calls[0].arguments_delta.clear();
    c.tool_calls[0].is_complete = true;
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    return h.invocations()[0];
}

} // namespace

// fuzz_api_tool_call: `"m<NUL>_` gave "syntax error" whole but "not valid JSON" when split after
// `"m` (the bare string was refused at its first piece, before the NUL was read).
TEST_CASE("fuzz regression: file arguments that are not an object fail alike however split", "[reliability][fuzz]")
{
    for (std::string_view args : {std::string_view("\"m\0_", 4), std::string_view("\"abc\""),
                                  std::string_view(" [1, 2]"), std::string_view("5"), std::string_view("x{")}) {
        const auto whole = stream_call("write_file", args);
        CHECK(whole.status == invocation_status::invalid_arguments);
        CHECK(whole.error == make_error_code(error::invalid_arguments).message());
        for (std::size_t piece : {1, 2, 3})
            CHECK(stream_call("write_file", args, piece) == whole);
    }
}

// fuzz_api_tool_call: `{"path":"a.txt","content":{}}` was a complete write_file with an empty
// body: executing it would have truncated the file.
TEST_CASE("fuzz regression: a file body that is not a string is invalid, never an empty file", "[reliability][fuzz]")
{
    for (std::string_view body : {"{}", "{\"a\":\"b\"}", "[\"x\"]", "5", "true", "null"}) {
        const std::string args = R"({"path":"a.txt","content":)" + std::string(body) + "}";
        for (std::size_t piece : {0, 1}) {
            const auto inv = stream_call("write_file", args, piece);
            INFO(args << " in pieces of " << piece);
            CHECK(inv.status == invocation_status::invalid_arguments);
            CHECK(inv.arguments_raw == args);
        }
    }
    const auto patch = stream_call("patch_file", R"({"path":"a","patch":["@@"]})");
    CHECK(patch.status == invocation_status::invalid_arguments);
    // Other keys may hold anything; a missing body is still a complete call (an empty file), whose
    // arguments are what the provider sent.
    const auto ok = stream_call("write_file", R"({"path":"a","mode":{"x":[1]},"content":"hi"})", 1);
    CHECK(ok.is_complete());
    CHECK(ok.arguments.at("content") == "hi");
    const auto no_body = stream_call("write_file", R"({"path":"a"})");
    CHECK(no_body.is_complete());
    CHECK(no_body.arguments == boost::json::object{{"path", "a"}});
}

// fuzz_api_tool_call: with a key repeated, the streamed body was both values joined and the
// path the first one, while JSON readers (Boost.JSON, Python) take the last: the file shown
// was not the file an executor re-reading arguments_raw would write.
TEST_CASE("fuzz regression: a repeated path or body key makes file arguments invalid", "[reliability][fuzz]")
{
    for (std::string_view args : {R"({"path":"a","content":"x","content":"y"})",
                                  R"({"path":"a","content":"x","path":"/etc/passwd"})",
                                  R"({"path":"a","path":"b","content":"x"})"}) {
        for (std::size_t piece : {0, 1, 5}) {
            INFO(args << " in pieces of " << piece);
            const auto inv = stream_call("write_file", args, piece);
            CHECK(inv.status == invocation_status::invalid_arguments);
            CHECK(inv.arguments_raw == args);
        }
    }
    // A nested key of the same name is no repeat.
    const auto nested = stream_call("write_file", R"({"meta":{"path":"x","content":1},"path":"a","content":"y"})");
    CHECK(nested.is_complete());
    CHECK(nested.arguments.at("path") == "a");
}

// fuzz_ollama, fuzz_mistral, fuzz_openai_responses: a write holding an oversized line and, after
// it, an invalid one reported the invalid one first (transport errors were noted at the end of
// the write), so first_error() and the summary's error depended on how the bytes were split.
TEST_CASE("fuzz regression: pipeline errors are noted in stream order however the bytes are split",
          "[reliability][fuzz]")
{
    const std::string ndjson = std::string(100, 'x') + "\n{not json}\n";
    const std::string sse = "data: " + std::string(100, 'x') + "\n\ndata: {not json}\n\n";
    for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{101}}) {
        INFO("pieces of " << piece);
        pipeline_options options;
        options.ndjson.max_line_size = 64;
        options.sse.max_event_size = 64;
        pipeline<ollama> a(recording_sink{}, options);
        pipeline<mistral> b(recording_sink{}, options);
        const std::size_t step = piece == 0 ? std::string::npos : piece;
        for (std::size_t at = 0; at < ndjson.size(); at += step)
            (void)a.write(std::string_view(ndjson).substr(at, step));
        for (std::size_t at = 0; at < sse.size(); at += step)
            (void)b.write(std::string_view(sse).substr(at, step));
        (void)a.finish();
        (void)b.finish();
        CHECK(a.first_error() == error::line_too_large);
        CHECK(b.first_error() == error::event_too_large);
        // No line was an Ollama event, so the summary names the provider (provider_mismatch); the
        // first error in stream order is still the oversized line.
        REQUIRE(a.summary().error);
        CHECK(a.summary().error->starts_with("the stream is not ollama"));
    }
    // write() returns the first error of its own bytes.
    pipeline_options options;
    options.ndjson.max_line_size = 64;
    pipeline<ollama> p(recording_sink{}, options);
    CHECK(p.write(ndjson) == error::line_too_large);
}

// A choice index is a handler downstream: `"index": 100000000000` in one openai_chat event made
// the pipeline allocate a vector of 10^11 handlers (std::bad_alloc), and smaller ones took
// memory in proportion. Such a choice (or Gemini candidate) is skipped as invalid_payload.
TEST_CASE("fuzz regression: a huge choice index is refused, not allocated", "[reliability][fuzz]")
{
    pipeline<openai_chat> chat;
    CHECK(chat.write(R"(data: {"choices":[{"index":100000000000,"delta":{"content":"x"}},)"
                     R"({"index":1,"delta":{"content":"kept"}}]})"
                     "\n\n")
          == error::invalid_payload);
    CHECK(chat.write("data: {\"choices\":[{\"index\":128,\"delta\":{\"content\":\"x\"}}]}\n\n")
          == error::invalid_payload);
    CHECK(!chat.write("data: {\"choices\":[{\"index\":127,\"delta\":{\"content\":\"y\"}}]}\n\n"));
    CHECK(!chat.finish());
    CHECK(chat.choice_count() == 128);
    CHECK(chat.choice(1).invocations().empty());

    pipeline<gemini> gem;
    CHECK(gem.write(R"(data: {"candidates":[{"index":4000000000,"content":{"parts":[{"text":"x"}]}},)"
                    R"({"index":0,"content":{"parts":[{"text":"kept"}]}}]})"
                    "\n\n")
          == error::invalid_payload);
    CHECK(!gem.finish());
    CHECK(gem.choice_count() == 1);
}

// memory_bound (100000 parallel call indexes): each new index searched every call made so far
// (90 s for 200 MB) and was kept for ever (16 MB for 100,000 indexes); the pipeline also dropped
// the policy's too_many_calls, so write() said nothing while calls were skipped. Now a hash map
// finds calls, a choice holds at most openai_tool_calls::max_calls of them (a fragment opening
// another is dropped as invalid_payload), and write() returns the policy's limit errors.
TEST_CASE("fuzz regression: parallel call indexes are bounded and limit errors reach write()", "[reliability][fuzz]")
{
    auto event = [](std::size_t index) {
        return R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":)" + std::to_string(index)
            + R"(,"id":"c)" + std::to_string(index) + R"(","function":{"name":"f","arguments":"{}"}}]}}]})" + "\n\n";
    };
    native_call_limits limits;
    limits.max_calls = 2;
    pipeline_options options;
    options.native_limits = limits;
    pipeline<openai_chat> p(recording_sink{}, options);
    CHECK(!p.write(event(0) + event(1)));
    CHECK(p.write(event(2)) == error::too_many_calls);
    CHECK(p.first_error() == error::too_many_calls);

    pipeline<openai_chat> q;
    std::string many;
    for (std::size_t i = 0; i < detail::openai_tool_calls::max_calls; ++i)
        many += event(1000 + i);
    CHECK(q.write(many) == error::too_many_calls);   // the policy's own limit, 1024, comes first
    CHECK(q.write(event(7)) == error::invalid_payload);   // the converter's, 4096 calls per choice
    CHECK(!q.write(event(1000)));   // a call it holds still takes fragments
    CHECK(!q.finish());
    // A policy's limit concerns a call or a tag, which says so: it does not break the stream.
    CHECK(!p.finish());
    CHECK(!p.summary().error);
    CHECK(p.summary().choices.at(0).tool_calls.size() == 2);

    pipeline<openai_chat, xml> text;
    CHECK(text.write(R"(data: {"choices":[{"index":0,"delta":{"content":"<tool name=\")" + std::string(5000, 'x')
                     + "\"}}]}\n\n")
          == error::marker_too_long);
    CHECK(text.first_error() == error::marker_too_long);
    CHECK(!text.finish());
    CHECK(!text.summary().error);
}

// test_odd_bytes: Boost.JSON 1.81 names some \u escape errors differently when it resumes in the
// middle of one (a lone \uDC00: "illegal leading" whole, "illegal trailing surrogate" split;
// \uD800\u0041: "illegal trailing surrogate" or "expected hex digit"), so the error of a native
// write_file depended on the fragmentation. It is now the error of the whole text.
TEST_CASE("fuzz regression: a bad \\u escape in a file body gives one error however split", "[reliability][fuzz]")
{
    for (std::string_view escape : {R"(\udc00)", R"(\ud800\u0041)", R"(\udbff\udbff)", R"(\uDC00\uDC00)",
                                    R"(\ud800\udc0)", R"(\ud800x)"}) {
        const std::string args = R"({"path":"a","content":"good )" + std::string(escape) + R"( never"})";
        const auto whole = stream_call("write_file", args);
        CHECK(whole.status == invocation_status::invalid_arguments);
        for (std::size_t piece = 1; piece < args.size(); ++piece) {
            INFO(args << " in pieces of " << piece);
            CHECK(stream_call("write_file", args, piece) == whole);
        }
    }
}

// fuzz_api_tool_call: `{"content":"early \ud83d\ude00 body<FF FE>..."}` streamed "early " whole
// but "early 😀 body" in small fragments: Boost.JSON drops the string it read in a write that
// fails, so the body shown before an invalid call ended depended on the fragmentation. The valid
// body before the error is now always streamed.
TEST_CASE("fuzz regression: a file body streams up to its first bad byte however split", "[reliability][fuzz]")
{
    auto streamed = [](std::string_view args, std::size_t piece) {
        handler<api_tool_call> h;
        chunk_response c;
        c.tool_calls.push_back({0, "call_1", "write_file", {}, false});
        for (std::size_t at = 0; at < args.size(); at += piece) {
            c.tool_calls[0].arguments_delta.assign(args.substr(at, piece));
            REQUIRE(!h.feed(c));
            c.tool_calls[0].name.clear();
        }
        REQUIRE(!h.finalize());
        std::string body;
        for (const auto& e : h.events())
            if (e.type == segment_event_type::SEGMENT_CONTENT)
                body += e.delta;
        return body;
    };
    const std::string big(5000, 'x');
    const std::pair<std::string, std::string> cases[] = {
        {R"({"content":"early \ud83d\ude00 body)" "\xFF\xFE" R"(","path":"p"})", "early \xF0\x9F\x98\x80 body"},
        {R"({"path":"p","content":")" + big + "\x01\"}", big},
        {R"({"path":"p","content":"ab\u00e9\ud800\u0041"})", "ab\xC3\xA9"}};
    for (const auto& [args, body] : cases)
        for (std::size_t piece : {1, 2, 3, 7, 64, 2047, 2049, 10000}) {
            INFO(args.substr(0, 40) << " in pieces of " << piece);
            CHECK(streamed(args, piece) == body);
        }
}

// fuzz_sse: whitespace longer than the line limit before a raw JSON body gave event_too_large
// when it came in an earlier write (it reached the line splitter before the body decided the
// mode) and nothing when it came with the body.
TEST_CASE("fuzz regression: whitespace before a raw JSON body is no error however split", "[reliability][fuzz]")
{
    const std::string spaces(200, ' ');
    // A raw body over the 16-byte limit: one error at every split, whatever came before it.
    for (const std::string& body : {spaces + "[1,2,3,4,5,6,7,8,9]", spaces + "\n\n" + spaces + "{\"error\":{\"m\":1}}"}) {
        for (std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{150}, body.size()}) {
            INFO("pieces of " << piece);
            sse_decoder d({.max_event_size = 16, .flush_at_eof = true});
            std::vector<std::string> events;
            auto visit = [&](const wire_event& ev) { events.emplace_back(ev.data); };
            std::size_t errors = 0;
            for (std::size_t at = 0; at < body.size(); at += piece)
                errors += d.write(std::string_view(body).substr(at, piece), visit) == error::event_too_large;
            errors += d.finish(visit) == error::event_too_large;
            CHECK(errors == 1);
            CHECK(events.empty());
        }
    }
    // ...and overlong whitespace before SSE is an error at every split, one per line (fuzz_sse
    // again: the deferred errors were first counted as one), the event after it kept.
    const std::string sse = spaces + "\n\n" + spaces + "\n" + spaces + "\n\ndata: x\n\n";
    for (std::size_t piece : {std::size_t{1}, std::size_t{100}, sse.size()}) {
        sse_decoder d({.max_event_size = 16, .flush_at_eof = true});
        std::vector<std::string> events;
        auto visit = [&](const wire_event& ev) { events.emplace_back(ev.data); };
        std::size_t errors = 0;
        for (std::size_t at = 0; at < sse.size(); at += piece)
            (void)d.write(std::string_view(sse).substr(at, piece), overloaded{visit, [&](error_code ec) { errors += ec == error::event_too_large; }});
        CHECK(errors == 2);   // the second and third lines are one oversized "event"
        CHECK(events == std::vector<std::string>{"x"});
    }
    // A short raw body after long whitespace: no error at all.
    for (std::size_t piece : {std::size_t{1}, std::size_t{64}, std::size_t{1000}}) {
        sse_decoder d({.max_event_size = 16, .flush_at_eof = true});
        const std::string raw = spaces + "[1]";
        std::vector<std::string> events;
        auto visit = [&](const wire_event& ev) { events.emplace_back(ev.data); };
        for (std::size_t at = 0; at < raw.size(); at += piece)
            CHECK(!d.write(std::string_view(raw).substr(at, piece), visit));
        CHECK(!d.finish(visit));
        CHECK(events == std::vector<std::string>{"[1]"});
    }
}

// fuzz_xml (max_tag_size 100): an end marker behind 99 blanks of indentation ends past the
// 100-byte window that decides it, and reading after it threw std::out_of_range. A marker that
// ends past the window is body text, as any undecided stretch longer than the cap is.
TEST_CASE("fuzz regression: an end marker behind indentation near max_tag_size is body, no throw",
          "[reliability][fuzz][xml]")
{
    xml_options o;
    o.max_tag_size = 100;
    for (std::size_t blanks : {80, 86, 87, 99}) {
        const std::string input = "<tool name=\"patch_file\"><arg name=\"path\">p</arg><arg name=\"patch\">__START_PATCH__\n+x\n"
            + std::string(blanks, ' ') + "__END_PATCH__</arg></tool>";
        // "__END_PATCH__</arg>" is 19 bytes: it closes the body only within the 100-byte window.
        const bool closes = blanks + 19 <= 100;
        for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
            handler<xml> h(recording_sink{}, {}, xml(o));
            for (std::size_t at = 0; at < input.size();) {
                const std::size_t n = piece == 0 ? input.size() : std::min(piece, input.size() - at);
                REQUIRE_NOTHROW((void)h.feed(std::string_view(input).substr(at, n)));
                at += n;
            }
            REQUIRE(!h.finalize());
            REQUIRE(h.invocations().size() == 1);
            INFO("blanks " << blanks << ", piece " << piece);
            CHECK(h.invocations()[0].is_complete());   // a bare </arg></tool> closes it otherwise
            std::string body;
            for (const auto& e : h.events())
                if (e.type == segment_event_type::SEGMENT_CONTENT)
                    body += e.delta;
            CHECK(body == (closes ? std::string("+x\n") : "+x\n" + std::string(blanks, ' ') + "__END_PATCH__"));
        }
    }
}

// fuzz_api_tool_call: Boost.JSON 1.81 reads `-0.0e887` as NaN, which is unequal to itself (the
// same stream compared unequal to itself) and which it serializes as the bare word NaN, making
// the event JSON invalid. A zero with a huge exponent is 0; a number past the double range,
// which Boost reads as Infinity, is refused like the larger exponents Boost refuses itself.
TEST_CASE("fuzz regression: numbers Boost reads as NaN or Infinity never reach the output", "[reliability][fuzz]")
{
    const auto zero = stream_call("f", R"({"a":-0.0e887,"b":[0e400,1]})", 3);
    REQUIRE(zero.is_complete());
    CHECK(boost::json::serialize(zero.arguments) == R"({"a":0E0,"b":[0E0,1]})");
    CHECK(zero == stream_call("f", R"({"a":-0.0e887,"b":[0e400,1]})"));

    for (std::string_view big : {R"({"a":1e400})", R"({"a":{"b":[-1e999]}})"}) {
        const auto inv = stream_call("f", big);
        CHECK(inv.status == invocation_status::invalid_arguments);
        CHECK(inv.error == make_error_code(boost::json::error::exponent_overflow).message());
        CHECK(inv.arguments_raw == big);
    }

    // The text policies read arguments through the same repair.
    handler<json_calls> h;
    REQUIRE(!h.feed(R"({"name":"f","arguments":{"x":0e999}} {"name":"g","arguments":{"x":1e999}})"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 2);
    CHECK(h.invocations()[0].is_complete());
    CHECK(h.invocations()[0].arguments.at("x") == 0.0);
    CHECK(!h.invocations()[1].is_complete());
}

} // namespace test_fuzz_regressions
