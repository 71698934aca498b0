// minimax (MiniMax-M1's `<tool_calls>` JSON lines): the entries vLLM's minimax parser drops are
// flagged here, and the next valid entry is still read. The format's other cases are in
// test_json_call_lists.cpp. Every input runs at every split position, in 1-byte and random
// chunks, with byte conservation and the argument-fragment contract.
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/minimax.hpp>

#include "catch_compat.hpp"
#include "parse/formats/format_checks.hpp"

#include <string_view>

namespace test_minimax {

using namespace toolstream;
using test::calls;

TEST_CASE("minimax: an entry missing its name or its arguments is an invalid call, and reading goes on", "[formats][minimax]")
{
    // vllm-project/vllm tests/tool_parsers/test_minimax_tool_parser.py::test_extract_tool_calls_missing_name_or_arguments:
    // vLLM keeps the two valid calls and drops the two others; here those END `invalid_arguments`
    // ("flag, don't drop"), each with why.
    const auto r = test::run_checked<minimax>("<tool_calls>\n"
                                              "{\"name\": \"valid_tool\", \"arguments\": {\"city\": \"Seattle\"}}\n"
                                              "{\"name\": \"missing_args\"}\n"
                                              "{\"arguments\": {\"city\": \"Portland\"}}\n"
                                              "{\"name\": \"another_valid_tool\", \"arguments\": {\"param\": \"value\"}}\n"
                                              "</tool_calls>");
    CHECK(calls(r) == "seg_1 valid_tool {\"city\":\"Seattle\"}\n"
                      "seg_2 missing_args {} invalid_arguments\n"
                      "seg_3  {} invalid_arguments\n"
                      "seg_4 another_valid_tool {\"param\":\"value\"}\n");
    REQUIRE(r.invocations.size() == 4);
    CHECK(r.invocations[1].error == "tool call has no arguments");
    CHECK(r.invocations[2].error == "tool call has no name");
    // An empty arguments object is arguments: the entry is a call.
    CHECK(calls(test::run_checked<minimax>("<tool_calls>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_calls>")) == "seg_1 f {}\n");
    // The rule is minimax's (its peer's): hermes reads a call without arguments as `{}`.
    CHECK(calls(test::run_checked<hermes>("<tool_call>{\"name\": \"f\"}</tool_call>")) == "seg_1 f {}\n");
}

} // namespace test_minimax
