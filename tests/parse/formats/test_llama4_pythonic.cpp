// llama4_pythonic: inputs written from vLLM's documented behaviour (llama4_pythonic_tool_parser.py:
// pythonic's list, `<|python_start|>` and `<|python_end|>` around it stripped) and SGLang's
// PythonicDetector, which strips both tokens wherever they are. Every case runs at every split
// position, in 1-byte and random chunks, with byte conservation.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/formats/llama4_pythonic.hpp>
#include <toolstream/runtime/registry.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <string_view>

namespace test_llama4_pythonic {

using namespace toolstream;
using test::calls;
using test::segments;

static_assert(test::registered_text_format<llama4_pythonic> && llama4_pythonic::decodes_file_bodies);

namespace {

test::policy_run run(std::string_view input) { return test::run_checked<llama4_pythonic>(input); }

} // namespace

TEST_CASE("llama4_pythonic: the list in python tokens, or bare", "[formats][llama4_pythonic]")
{
    const auto r = run("<|python_start|>[get_weather(city='LA', metric='C'),register_user(name='Doe',age=9)]<|python_end|>");
    CHECK(calls(r) == "seg_1 get_weather {\"city\":\"LA\",\"metric\":\"C\"}\nseg_2 register_user {\"name\":\"Doe\",\"age\":9}\n");
    CHECK(test::content_of_type(r.events, segment_type::text).empty());   // the tokens are markup
    CHECK(calls(run("[get_weather(city='LA'), get_weather(), do_something_cool(steps=[])]"))
          == "seg_1 get_weather {\"city\":\"LA\"}\nseg_2 get_weather {}\nseg_3 do_something_cool {\"steps\":[]}\n");
    // Blanks around the list inside the tokens, and no <|python_end|> (a stop token): the same calls.
    CHECK(calls(run("<|python_start|>\n[f(a=None)]\n<|python_end|>")) == "seg_1 f {\"a\":null}\n");
    CHECK(calls(run("<|python_start|>[f(a=None)]")) == "seg_1 f {\"a\":null}\n");
}

TEST_CASE("llama4_pythonic: text around calls; the tokens around anything else are text", "[formats][llama4_pythonic]")
{
    const auto r = run("Checking.<|python_start|>[get_weather(city=\"Paris\")]<|python_end|> Done.");
    CHECK(segments(r) == "text \"Checking.\"\n"
                         "tool_call {\"tool_name\":\"get_weather\"} \"get_weather(city=\\\"Paris\\\")\"\n"
                         "text \" Done.\"\n");
    for (std::string_view input : {"<|python_start|>print('hi')<|python_end|>", "<|python_start|>[1, 2]",
                                   "[print(x)]", "<|python_end|>", "<|python_sta"}) {
        INFO(input);
        const auto t = run(input);
        CHECK(t.invocations.empty());
        CHECK(test::content_of_type(t.events, segment_type::text) == input);
    }
    // <|python_end|> closes only a list that <|python_start|> opened.
    const auto t = run("[f(a=1)]<|python_end|>");
    CHECK(calls(t) == "seg_1 f {\"a\":1}\n");
    CHECK(test::content_of_type(t.events, segment_type::text) == "<|python_end|>");
}

TEST_CASE("llama4_pythonic: write_file streams its decoded body live", "[formats][llama4_pythonic]")
{
    handler<llama4_pythonic> h;
    REQUIRE(!h.feed("<|python_start|>[write_file(path='a.md', content=\"# Title\\n"));
    CHECK(test::content_of_type(h.events(), segment_type::write_file) == "# Title\n");
    REQUIRE(!h.feed("<|python_end|> is text here\")]<|python_end|>"));
    REQUIRE(!h.finalize());
    REQUIRE(h.invocations().size() == 1);
    CHECK(h.invocations()[0].arguments
          == boost::json::parse(R"({"path":"a.md","content":"# Title\n<|python_end|> is text here"})"));
    CHECK(segments(run("<|python_start|>[write_file(path='a.md', content='x\\ty')]<|python_end|>"))
          == "write_file {\"tool_name\":\"write_file\",\"path\":\"a.md\"} \"x\\ty\"\n");
}

TEST_CASE("llama4_pythonic: cut off, invalid calls, generated inputs", "[formats][llama4_pythonic][finalize]")
{
    CHECK(calls(run("<|python_start|>[f(a='x")) == "seg_1 f {} incomplete\n");
    CHECK(calls(run("<|python_start|>[bad(x=b'z'), get_weather(city='LA')]<|python_end|>"))
          == "seg_1 bad {} invalid_arguments\nseg_2 get_weather {\"city\":\"LA\"}\n");
    CHECK(calls(run("<|python_start|>[foo(x=1])]<|python_end|>")) == "seg_1 foo {} invalid_arguments\n");
    constexpr std::string_view pieces[] = {
        "<|python_start|>[get_weather(city='LA')]<|python_end|>", "[f(a=(1, 2), b={'k': [True]})]",
        "<|python_start|>[write_file(path='x', content='''a\n]''')]<|python_end|>", "<|python_start|>oops",
    };
    for (const std::string& input : test::mixed_inputs(pieces, 30)) {
        INFO(input);
        test::check_chunk_invariance<llama4_pythonic>(input);
        test::check_byte_conservation<llama4_pythonic>(input);
    }
}

} // namespace test_llama4_pythonic
