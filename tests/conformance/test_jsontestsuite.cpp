// JSONTestSuite cases as streamed tool-call arguments, in 1-byte and random fragments:
// y_* must give exactly Boost.JSON's parse, n_* invalid_arguments with the raw text kept,
// i_* either outcome, consistently, and nothing may crash.
//
// One documented exception: argument text that is empty or only whitespace means "no
// arguments" (`{}`), the wire convention of every provider for tools without parameters (the
// SDK oracles of the recorded streams agree). It covers n_structure_no_data and n_single_space.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/fixtures.hpp"
#include "support/valid_output.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <random>

namespace test_jsontestsuite {

using namespace toolstream;

namespace {

struct streamed {
    tool_invocation invocation;
    std::string content;   // concatenated CONTENT of the call's segment
};

streamed stream_arguments(std::string_view name, std::string_view args, bool one_byte)
{
    handler<api_tool_call> h;
    chunk_response c;
    c.tool_calls.resize(1);
    c.tool_calls[0] = {0, "call_j", std::string(name), "", false};
    REQUIRE(!h.feed(c));
    std::mt19937 rng(static_cast<unsigned>(args.size()));
    for (std::size_t at = 0; at < args.size();) {
        const std::size_t n = one_byte ? 1 : std::min<std::size_t>(args.size() - at, 1 + rng() % 13);
        c.tool_calls[0] = {0, "", "", std::string(args.substr(at, n)), false};
        (void)h.feed(c);
        at += n;
    }
    c.tool_calls[0] = {0, "", "", "", true};
    (void)h.feed(c);
    (void)h.finalize();
    REQUIRE(h.invocations().size() == 1);
    streamed out{h.invocations()[0], {}};
    for (const auto& e : h.events())
        if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_id == "call_j")
            out.content += e.delta;
    return out;
}

std::optional<boost::json::value> reference_parse(std::string_view text)
{
    boost::json::parse_options options;
    options.max_depth = native_call_limits{}.max_depth;
    boost::system::error_code ec;
    auto v = boost::json::parse(text, ec, {}, options);
    if (ec)
        return std::nullopt;
    return v;
}

} // namespace

TEST_CASE("JSONTestSuite: every case as generic and write_file arguments at two chunkings", "[conformance][json]")
{
    const auto files = test::jsontestsuite_files();
    if (files.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR has no jsontestsuite/: skipped");
        return;
    }
    std::size_t cases = 0, as_object = 0, as_file_body = 0;
    for (const auto& path : files) {
        const std::string file = path.filename().string();
        const char kind = file[0];
        const std::string text = test::read_file(path);
        const auto reference = reference_parse(text);
        ++cases;
        if (kind == 'y')
            REQUIRE(reference);   // the reference parser itself conforms
        if (kind == 'n')
            REQUIRE(!reference);
        for (bool one_byte : {true, false}) {
            INFO(file << (one_byte ? " in 1-byte fragments" : " in random fragments"));
            // As the arguments of a generic call: complete exactly when they are a JSON object.
            const auto generic = stream_arguments("f", text, one_byte);
            CHECK(generic.invocation.arguments_raw == text);
            CHECK(generic.content == text);
            const bool no_arguments = text.find_first_not_of(" \t\r\n") == std::string::npos;
            if (no_arguments) {
                CHECK(generic.invocation.status == invocation_status::complete);
                CHECK(generic.invocation.arguments.empty());
            } else if (reference && reference->is_object()) {
                CHECK(generic.invocation.status == invocation_status::complete);
                CHECK(boost::json::value(generic.invocation.arguments) == *reference);
                as_object += one_byte;
            } else {
                CHECK(generic.invocation.status == invocation_status::invalid_arguments);
                CHECK(generic.invocation.arguments.empty());
            }
            // As the content value of a write_file: its decoded body is the parsed string.
            if (!text.empty() && text.front() == '"') {
                const auto file_call = stream_arguments("write_file", R"({"path":"p","content":)" + text + "}", one_byte);
                if (reference && reference->is_string()) {
                    CHECK(file_call.invocation.status == invocation_status::complete);
                    CHECK(file_call.content == std::string_view(reference->as_string()));
                    as_file_body += one_byte;
                } else {
                    CHECK(file_call.invocation.status == invocation_status::invalid_arguments);
                }
            }
        }
    }
    CHECK(cases >= 300);
    CHECK(as_object > 0);
    CHECK(as_file_body > 0);
}

TEST_CASE("JSONTestSuite: test::json_problem, which checks every writer's output, agrees with boost::json::parse",
          "[conformance][json]")
{
    const auto files = test::jsontestsuite_files();
    if (files.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR has no jsontestsuite/: skipped");
        return;
    }
    std::size_t valid = 0, invalid = 0;
    for (const auto& path : files) {
        const std::string text = test::read_file(path);
        INFO(path.filename().string());
        boost::system::error_code ec;
        (void)boost::json::parse(text, ec);   // the default options, as the checker's
        const bool ok = test::json_problem(text).empty();
        CHECK(ok == !ec);
        ++(ok ? valid : invalid);
    }
    CHECK(valid >= 95);
    CHECK(invalid >= 185);
}

} // namespace test_jsontestsuite
