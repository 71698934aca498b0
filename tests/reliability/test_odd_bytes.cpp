// Odd bytes: NUL, lone surrogates in \u escapes, overlong and otherwise invalid UTF-8, in model
// text, in provider payloads and in tool arguments. Each outcome is one of: passed through byte
// for byte, replaced (decoded), or an error; never a crash. docs/errors.md has the table.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/json_calls.hpp>
#include <toolstream/parse/formats/sentinel.hpp>
#include <toolstream/parse/formats/xml.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/providers/ollama.hpp>
#include <toolstream/providers/openai_chat.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace test_odd_bytes {

using namespace toolstream;
using namespace std::literals;

namespace {

// NUL, an overlong '/', a UTF-8-encoded lone surrogate (U+D800), bytes that are never UTF-8,
// a truncated 3-byte sequence, and a JSON-style lone surrogate escape written as text.
const std::string odd = "a\0b \xC0\xAF \xED\xA0\x80 \xFF\xFE \xE2\x82 \\ud800 z"s;

template<class Policy>
std::string text_of(std::string_view input)
{
    handler<Policy> h;
    REQUIRE(!h.feed(input));
    REQUIRE(!h.finalize());
    return test::content_of_type(h.events(), segment_type::text);
}

// One native call, its arguments cut into pieces of `piece` bytes, completed by the provider.
struct native_run {
    tool_invocation call;
    std::string streamed;   // the CONTENT the segment emitted
};

native_run native_call(std::string_view name, std::string_view arguments, std::size_t piece)
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls.push_back({0, "call_1", std::string(name), {}, false});
    for (std::size_t at = 0; at < arguments.size(); at += piece) {
        c.tool_calls[0].arguments_delta.assign(arguments.substr(at, piece));
        REQUIRE(!h.feed(c));
        c.tool_calls[0].name.clear();
    }
    c.tool_calls[0].arguments_delta.clear();
    c.tool_calls[0].is_complete = true;
    REQUIRE(!h.feed(c));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    std::string streamed;
    for (const auto& e : h.events())
        if (e.type == segment_event_type::SEGMENT_CONTENT)
            streamed += e.delta;
    return {h.invocations()[0], streamed};
}

// Every piece size gives the same call; returns it.
native_run native_call_any_split(std::string_view name, std::string_view arguments)
{
    const auto whole = native_call(name, arguments, arguments.size() + 1);
    for (std::size_t piece = 1; piece <= arguments.size(); ++piece) {
        const auto split = native_call(name, arguments, piece);
        INFO(arguments << " in pieces of " << piece);
        REQUIRE(split.call == whole.call);
        REQUIRE(split.streamed == whole.streamed);
    }
    return whole;
}

// One openai_chat stream, written in pieces of `piece` bytes: the text of choice 0 and the errors.
struct chat_run {
    std::string text;
    std::vector<error_code> errors;
    bool operator==(const chat_run&) const = default;
};

template<class Provider>
chat_run stream(std::string_view body, std::size_t piece)
{
    pipeline_options options;
    options.collect_text = true;
    pipeline<Provider> p(recording_sink{}, options);
    chat_run out;
    for (std::size_t at = 0; at < body.size(); at += piece)
        if (const auto ec = p.write(body.substr(at, piece)))
            out.errors.push_back(ec);
    if (const auto ec = p.finish())
        out.errors.push_back(ec);
    out.text = p.summary().choices.at(0).text;
    return out;
}

std::string chat_event(std::string_view json_content)
{
    return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + std::string(json_content) + "\"}}]}\n\n";
}

} // namespace

TEST_CASE("odd bytes: model text passes through byte for byte, whatever the policy", "[reliability][odd-bytes]")
{
    CHECK(text_of<api_tool_call>(odd) == odd);
    CHECK(text_of<xml>(odd) == odd);
    CHECK(text_of<json_calls>(odd) == odd);
    CHECK(text_of<sentinel>(odd) == odd);
    // Split inside every multibyte sequence, next to tag and JSON syntax, too.
    const std::string around = "<" + odd + "{\"" + odd + "[[" + odd;
    test::check_chunk_invariance<xml>(around);
    test::check_chunk_invariance<json_calls>(around);
    test::check_chunk_invariance<sentinel>(around);
    test::check_byte_conservation<xml>(around);
    test::check_byte_conservation<json_calls>(around);
    test::check_byte_conservation<sentinel>(around);
}

TEST_CASE("odd bytes: file bodies and commands in text policies are raw bytes", "[reliability][odd-bytes]")
{
    const std::string body = "x" + odd;
    {
        handler<xml> h;
        REQUIRE(!h.feed("<write_file path=\"a.bin\">" + body + "</write_file>"));
        REQUIRE(!h.finalize());
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].is_complete());
        CHECK(h.invocations()[0].arguments.at("content").as_string() == body);
    }
    {
        handler<sentinel> h;
        REQUIRE(!h.feed("[[SEG_START {\"type\":\"write_file\",\"path\":\"a.bin\"}]]" + body + "[[SEG_END]]"));
        REQUIRE(!h.finalize());
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].is_complete());
        CHECK(h.invocations()[0].arguments.at("content").as_string() == body);
    }
}

TEST_CASE("odd bytes: XML arguments must be UTF-8; entities may give any character", "[reliability][odd-bytes]")
{
    auto call = [](std::string_view args) {
        handler<xml> h;
        REQUIRE(!h.feed("<tool name=\"f\">" + std::string(args) + "</tool>"));
        REQUIRE(!h.finalize());
        REQUIRE(h.invocations().size() == 1);
        return h.invocations()[0];
    };
    for (std::string_view bad : {"\xC0\xAF"sv, "\xED\xA0\x80"sv, "\xFF"sv, "\xE2\x82"sv}) {
        const auto inv = call("<arg name=\"a\">" + std::string(bad) + "</arg>");
        CHECK(inv.status == invocation_status::invalid_arguments);
    }
    const auto nul = call("<arg name=\"a\">x\0y</arg>"s);
    CHECK(nul.is_complete());
    CHECK(nul.arguments.at("a").as_string() == "x\0y"s);
    const auto escaped = call("<arg name=\"a\">&#x1F600;</arg>");
    CHECK(escaped.arguments.at("a").as_string() == "\xF0\x9F\x98\x80");
}

TEST_CASE("odd bytes: JSON arguments follow RFC 8259 as Boost.JSON reads it", "[reliability][odd-bytes]")
{
    // Decoded: escapes, including a surrogate pair split anywhere, and an escaped NUL.
    const auto pair = native_call_any_split("f", R"({"a":"\ud83d\ude00"})");
    CHECK(pair.call.is_complete());
    CHECK(pair.call.arguments.at("a").as_string() == "\xF0\x9F\x98\x80");
    const auto nul = native_call_any_split("f", R"({"a":"x\u0000y"})");
    CHECK(nul.call.is_complete());
    CHECK(nul.call.arguments.at("a").as_string() == "x\0y"s);

    // Errors, raw text kept: lone surrogates, raw control bytes, invalid or overlong UTF-8.
    for (std::string args : {R"({"a":"\ud800"})"s, R"({"a":"\udc00"})"s, R"({"a":"\ud800\u0041"})"s,
                             "{\"a\":\"x\0y\"}"s, "{\"a\":\"\xC0\xAF\"}"s, "{\"a\":\"\xED\xA0\x80\"}"s,
                             "{\"a\":\"\xFF\"}"s, "{\"\xE2\x82\":1}"s}) {
        const auto run = native_call_any_split("f", args);
        INFO(args);
        CHECK(run.call.status == invocation_status::invalid_arguments);
        CHECK(run.call.arguments_raw == args);
        CHECK(run.call.arguments.empty());
    }
}

TEST_CASE("odd bytes: a native write_file body is decoded up to the first bad byte, then invalid",
          "[reliability][odd-bytes]")
{
    const auto nul = native_call_any_split("write_file", R"({"path":"a","content":"x\u0000y"})");
    CHECK(nul.call.is_complete());
    CHECK(nul.streamed == "x\0y"s);
    for (std::string bad : {R"(\ud800)"s, R"(\udc00)"s, "\xC0\xAF"s, "\xFF"s, "\x01"s}) {
        const std::string args = R"({"path":"a","content":"good )" + bad + R"( never"})";
        const auto run = native_call_any_split("write_file", args);
        INFO(args);
        CHECK(run.call.status == invocation_status::invalid_arguments);
        CHECK(run.call.arguments_raw == args);
        CHECK(run.streamed.starts_with("good"));   // shown while it streamed; never complete
        CHECK(run.streamed.find("never") == std::string::npos);
    }
}

TEST_CASE("odd bytes: a provider event whose JSON is not UTF-8 or holds a lone surrogate is skipped",
          "[reliability][odd-bytes]")
{
    // Kept: escaped NUL and a valid pair, decoded. Skipped as invalid_payload, with the stream
    // going on: a raw NUL or control byte inside a string, a lone surrogate, invalid UTF-8.
    const std::string body = chat_event("a\\u0000b") + chat_event("\\ud83d\\ude00") + chat_event("x\0y"s)
        + chat_event("\\ud800") + chat_event("\xC0\xAF") + chat_event("\xED\xA0\x80") + chat_event("\xFF")
        + chat_event(" end");
    const auto whole = stream<openai_chat>(body, body.size());
    CHECK(whole.text == "a\0b\xF0\x9F\x98\x80 end"s);
    CHECK(whole.errors == std::vector<error_code>{error::invalid_payload});   // the first of the write
    for (std::size_t piece = 1; piece < 64; ++piece) {
        const auto split = stream<openai_chat>(body, piece);
        INFO("pieces of " << piece);
        CHECK(split.text == whole.text);
        if (piece == 1)
            CHECK(split.errors.size() == 5);   // one per skipped event
    }
    // NDJSON the same way; a NUL byte outside a JSON string is no JSON either.
    const std::string lines = "{\"message\":{\"content\":\"a\\u0000\"}}\n\0\n{\"message\":{\"content\":\"\xFF\"}}\n"
                              "{\"message\":{\"content\":\"b\"}}\n"s;
    const auto ndjson = stream<ollama>(lines, lines.size());
    CHECK(ndjson.text == "a\0b"s);
    CHECK(ndjson.errors == std::vector<error_code>{error::invalid_payload});
    CHECK(stream<ollama>(lines, 1).errors == std::vector<error_code>(2, error::invalid_payload));
}

TEST_CASE("odd bytes: SSE framing is byte-based: NUL, U+2028 and split UTF-8 do not end lines",
          "[reliability][odd-bytes]")
{
    // U+2028 (E2 80 A8) and U+0085 (C2 85) inside a content string; a lone CR ends a line.
    const std::string body = chat_event("a\xE2\x80\xA8" "b\xC2\x85" "c") + "data: {\"choices\":[{\"index\":0,"
                                                                          "\"delta\":{\"content\":\"d\"}}]}\r\r";
    const auto whole = stream<openai_chat>(body, body.size());
    CHECK(whole.errors.empty());
    CHECK(whole.text == "a\xE2\x80\xA8" "b\xC2\x85" "cd");
    for (std::size_t piece = 1; piece < 8; ++piece)
        CHECK(stream<openai_chat>(body, piece) == whole);
}

} // namespace test_odd_bytes
