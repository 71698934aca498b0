// Shared by the text-format engine tests (test_text_format_engine.cpp and its _arrays and _headers
// parts): every input goes through chunk invariance (every split position, 1-byte chunks, random
// chunkings), byte conservation and the argument-fragment contract, and a run prints as one line
// per segment and one per invocation (format_checks.hpp's).
#pragma once

#include "parse/formats/format_checks.hpp"

#include <string_view>

namespace toolstream::test::engine_support {

using toolstream::test::calls;
using toolstream::test::segments;

/// run_checked: chunk invariance, byte conservation, then the whole-input run.
template<class Policy, class... Args>
policy_run run(std::string_view input, const Args&... args)
{
    return run_checked<Policy>(input, args...);
}

/// Options whose schemas give write_file and patch_file the library's file tool shape: a body
/// written before its path is then a file's, which START waits for the path (call_frame).
inline text_format_options file_tools()
{
    return with_tools(R"([{"type":"function","function":{"name":"write_file","parameters":{"type":"object",
        "properties":{"path":{"type":"string"},"content":{"type":"string"}}}}},
      {"type":"function","function":{"name":"patch_file","parameters":{"type":"object",
        "properties":{"path":{"type":"string"},"patch":{"type":"string"}}}}}])");
}

} // namespace toolstream::test::engine_support
