#include <toolstream/concepts.hpp>
#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "support/events.hpp"
#include "support/text_policy_checks.hpp"

#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

namespace test_runtime_policy {

using namespace toolstream;

static_assert(parser_policy<runtime_policy>);

namespace {

constexpr std::string_view mixed =
    "Intro <b>bold</b> {x} [[y]]\n"
    "<tool name=\"read_file\"><arguments><arg name=\"path\">/a</arg></arguments></tool>\n"
    "{\"tool\": {\"function\": \"ls\", \"parameters\": {\"dir\": \".\"}}}\n"
    "[[SEG_START {\"type\":\"run_bash\"}]]echo hi[[SEG_END]] end";

test::policy_run run_named(std::string_view name, const std::vector<std::string_view>& pieces)
{
    auto policy = make_policy(name);
    REQUIRE(policy.has_value());
    handler<runtime_policy> h(recording_sink{}, {}, std::move(*policy));
    CHECK(h.policy().name() == canonical_policy_name(name));   // an alias names its policy
    for (auto piece : pieces)
        REQUIRE(!test::with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); }));
    REQUIRE(!h.finalize());
    return {test::coalesce(h.events()), h.invocations()};
}

template<class Policy>
void check_same_as_static(std::string_view name)
{
    INFO(name);
    const auto expected = test::run_whole<Policy>(mixed);
    for (const auto& pieces : test::chunkings(mixed, 4)) {
        const auto got = run_named(name, pieces);
        REQUIRE(got.events == expected.events);
        REQUIRE(got.invocations == expected.invocations);
    }
}

// Sets or clears TOOLSTREAM_STREAM_PARSER for one scope.
struct scoped_env {
    explicit scoped_env(const char* value)
    {
        if (value != nullptr)
            ::setenv("TOOLSTREAM_STREAM_PARSER", value, 1);
        else
            ::unsetenv("TOOLSTREAM_STREAM_PARSER");
    }
    ~scoped_env() { ::unsetenv("TOOLSTREAM_STREAM_PARSER"); }
    scoped_env(const scoped_env&) = delete;
    scoped_env& operator=(const scoped_env&) = delete;
};

} // namespace

TEST_CASE("runtime_policy: each name behaves as its policy type, at every chunking", "[runtime]")
{
    check_same_as_static<xml>("xml");
    check_same_as_static<toolstream::json_calls>("json_calls");
    check_same_as_static<toolstream::json_calls>("json");   // an alias
    check_same_as_static<sentinel>("sentinel");
    check_same_as_static<api_tool_call>("passthrough");   // an alias
    check_same_as_static<api_tool_call>("api_tool_call");
}

TEST_CASE("registry: a policy's name is its type's; the other names it answers to are aliases", "[runtime]")
{
    STATIC_REQUIRE(toolstream::json_calls::name == "json_calls");
    STATIC_REQUIRE(mistral_calls::name == "mistral_calls");
    STATIC_REQUIRE(harmony::name == "harmony");
    STATIC_REQUIRE(granite_20b_fc::name == "granite_20b_fc");
    const std::pair<std::string_view, std::string_view> aliases[] = {
        {"json", "json_calls"}, {"mistral", "mistral_calls"}, {"openai", "harmony"}, {"granite-20b-fc", "granite_20b_fc"}};
    for (const auto& [alias, name] : aliases) {
        INFO(alias);
        CHECK(canonical_policy_name(alias) == name);
        CHECK(make_policy(alias).value().name() == name);
    }
    for (const auto& [alias, name] : policy_aliases)   // no alias hides a name or names an alias
        CHECK((detail::index_of(policy_names, alias) == policy_names.size()
               && detail::index_of(policy_names, name) < policy_names.size()));
}

TEST_CASE("runtime_policy: each text format is found only by its policy", "[runtime]")
{
    CHECK(run_named("xml", {mixed}).invocations.size() == 1);
    CHECK(run_named("xml", {mixed}).invocations[0].name == "read_file");
    CHECK(run_named("json", {mixed}).invocations.at(0).name == "ls");
    CHECK(run_named("sentinel", {mixed}).invocations.at(0).name == "run_bash");
    CHECK(run_named("passthrough", {mixed}).invocations.empty());
    CHECK(run_named("api_tool_call", {mixed}).invocations.empty());
}

TEST_CASE("runtime_policy: unknown names fail with error::unknown_parser", "[runtime]")
{
    for (std::string_view name : {"", "XML", "native", "json ", "tool"}) {
        auto p = make_policy(name);
        REQUIRE(!p.has_value());
        CHECK(p.error() == error::unknown_parser);
    }
    CHECK(runtime_policy{}.name() == "api_tool_call");
}

TEST_CASE("runtime_policy: TOOLSTREAM_STREAM_PARSER picks the default, like the reference", "[runtime]")
{
    {
        scoped_env env(nullptr);
        CHECK(default_policy_name() == "api_tool_call");
    }
    for (const char* name : {"xml", "json", "sentinel", "passthrough", "api_tool_call"}) {
        scoped_env env(name);
        CHECK(default_policy_name() == canonical_policy_name(name));
        CHECK(make_policy(default_policy_name()).has_value());
    }
    for (const char* bad : {"", "bogus", "native", "JSON"}) {
        scoped_env env(bad);
        CHECK(default_policy_name() == "api_tool_call");
    }
}

TEST_CASE("runtime_policy: the handler assembles native calls whatever the policy", "[runtime]")
{
    chunk_response c;
    c.tool_calls = {{0, "call_1", "lookup", R"({"q":1})", true}};
    for (std::string_view name : {"api_tool_call", "xml", "json", "sentinel", "passthrough"}) {
        handler<runtime_policy> h(recording_sink{}, {}, make_policy(name).value());
        REQUIRE(!h.feed(c));
        REQUIRE(!h.finalize());
        REQUIRE(h.invocations().size() == 1);
        CHECK(h.invocations()[0].id == "call_1");
    }
}

TEST_CASE("runtime_policy: held_bytes and reset reach the chosen policy", "[runtime]")
{
    handler<runtime_policy> h(recording_sink{}, {}, runtime_policy(sentinel{}));
    REQUIRE(!h.feed("text [[SEG_ST"));
    CHECK(h.policy().held_bytes() == 8);
    h.reset();
    CHECK(h.policy().held_bytes() == 0);
    const runtime_policy plain(api_tool_call{});
    CHECK(plain.held_bytes() == 0);
}

} // namespace test_runtime_policy
