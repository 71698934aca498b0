// Shared by the xml policy tests (test_xml_policy.cpp, test_xml_tags.cpp, test_xml_streaming.cpp,
// test_xml_limits.cpp): a run through both stream checks (a run's invocations one per line:
// test::calls, its segments: test::segments).
#pragma once

#include <toolstream/parse/formats/xml.hpp>

#include "parse/formats/format_checks.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <string>
#include <string_view>

namespace toolstream::test::xml_support {

// Every input of these files goes through both stream checks.
inline void check_streaming(std::string_view input, xml_options options = {})
{
    test::check_chunk_invariance<xml>(input, options);
    test::check_byte_conservation<xml>(input, options);
}

inline test::policy_run run(std::string_view input, xml_options options = {})
{
    check_streaming(input, options);
    return test::run_whole<xml>(input, options);
}

// A write_file call opened up to its content.
inline const std::string write_head = "<tool name=\"write_file\"><arguments><arg name=\"path\">/a.py</arg><arg name=\"content\">";

} // namespace toolstream::test::xml_support
