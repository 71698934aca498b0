// openai_sse_writer: what a client assembles does not depend on how the input was split; every
// chunk is valid UTF-8 on its own; large inputs.
#include <toolstream/writers/detail/openai_chunk.hpp>
#include <toolstream/writers/openai_sse.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "writers/openai_sse_reader.hpp"
#include "writers/writer_support.hpp"

#include <string>

namespace test_openai_chunking {

using namespace toolstream;

namespace {

struct assembled {
    std::string content;
    std::vector<std::string> calls;   // "id name arguments"
    std::string finish;

    friend bool operator==(const assembled&, const assembled&) = default;
};

assembled assemble(const std::string& sse)
{
    const auto read = test::read_openai_sse(sse);
    INFO(sse.substr(0, 2000));
    for (const auto& v : read.violations)
        FAIL_CHECK(v);
    assembled a;
    a.content = read.choices.at(0).content;
    for (const auto& c : read.calls_of(0))
        a.calls.push_back(c.id + " " + c.name + " " + c.arguments);
    a.finish = read.choices.at(0).finish_reason.value_or("");
    return a;
}

} // namespace

TEST_CASE("openai chunk helpers: the complete UTF-8 prefix and the carry", "[openai-sse]")
{
    using detail::utf8_complete_prefix;
    CHECK(utf8_complete_prefix("abc") == 3);
    CHECK(utf8_complete_prefix("a\xC3") == 1);
    CHECK(utf8_complete_prefix("a\xC3\xA9") == 3);
    CHECK(utf8_complete_prefix("\xE2\x82") == 0);
    CHECK(utf8_complete_prefix("\xF0\x9F\x98") == 0);
    CHECK(utf8_complete_prefix("\xF0\x9F\x98\x80") == 4);
    CHECK(utf8_complete_prefix("\x80\x80\x80\x80") == 4);   // not UTF-8: passed on
    const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z";
    for (const auto& pieces : test::chunkings(text)) {
        detail::utf8_carry carry;
        std::string out;
        std::vector<std::string> emitted;
        for (auto piece : pieces)
            test::with_exact_copy(piece, [&](std::string_view p) { carry.feed(p, [&](std::string_view s) { emitted.emplace_back(s); }); });
        carry.flush([&](std::string_view s) { emitted.emplace_back(s); });
        for (const auto& e : emitted) {
            CHECK(utf8_complete_prefix(e) == e.size());
            out += e;
        }
        CHECK(out == text);
    }
}

TEST_CASE("openai sse: text, calls and files read back the same at every split of the input", "[openai-sse]")
{
    const std::string text =
        "Caf\xC3\xA9 \xF0\x9F\x98\x80 first. <tool name=\"read_file\"><arguments><arg name=\"path\">x.txt</arg>"
        "</arguments></tool> then <write_file path=\"n\xC3\xB8te.md\">\xE2\x82\xAC 5 \"q\"\n</write_file>"
        " and <run_bash>ls -la</run_bash> end \xE2\x9C\x93";
    const auto whole = assemble(test::text_to_sse("xml", {text}));
    REQUIRE(whole.calls.size() == 3);
    CHECK(whole.content == "Caf\xC3\xA9 \xF0\x9F\x98\x80 first.  then  and  end \xE2\x9C\x93");
    CHECK(whole.finish == "tool_calls");
    for (const auto& pieces : test::chunkings(text, 8))
        REQUIRE(assemble(test::text_to_sse("xml", pieces)) == whole);
}

TEST_CASE("openai sse: the json and sentinel policies' calls read back at every split", "[openai-sse]")
{
    const std::pair<std::string_view, std::string_view> cases[] = {
        {"json", R"(Sure: {"tool": {"function": "read_file", "parameters": {"path": "a.py"}}} ok)"},
        {"sentinel", R"(go [[SEG_START {"type":"write_file","path":"b.py"}]]x = "\u00e9"
[[SEG_END]] done)"}};
    for (auto [policy, text] : cases) {
        const auto whole = assemble(test::text_to_sse(policy, {text}));
        REQUIRE(whole.calls.size() == 1);
        for (const auto& pieces : test::chunkings(text, 4))
            REQUIRE(assemble(test::text_to_sse(policy, pieces)) == whole);
    }
}

TEST_CASE("openai sse: a 1 MiB file body and 256 KiB of text, in 13- and 4096-byte pieces", "[openai-sse][large]")
{
    std::string body;
    for (std::size_t i = 0; body.size() < (1u << 20); ++i)
        body += "line " + std::to_string(i) + " \xC3\xA9\t\"quoted\" \\ back\n";
    std::string prose;
    while (prose.size() < (256u << 10))
        prose += "Some prose, \xE2\x82\xAC and \xF0\x9F\x98\x80. ";
    const std::string text = prose + "<write_file path=\"big.txt\">" + body + "</write_file>";
    for (std::size_t piece : {13u, 4096u}) {
        std::vector<std::string_view> pieces;
        for (std::size_t at = 0; at < text.size(); at += piece)
            pieces.push_back(std::string_view(text).substr(at, piece));
        const auto read = test::read_openai_sse(test::text_to_sse("xml", pieces));
        REQUIRE(read.violations.empty());
        CHECK(read.choices.at(0).content == prose);
        const auto calls = read.calls_of(0);
        REQUIRE(calls.size() == 1);
        const auto args = boost::json::parse(calls[0].arguments).as_object();
        CHECK(args.at("path") == "big.txt");
        CHECK(args.at("content").as_string() == body);
    }
}

} // namespace test_openai_chunking
