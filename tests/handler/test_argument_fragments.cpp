// The argument contract: every tool segment's fragments join to the JSON text its END parsed.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/policies/api_tool_call.hpp>
#include <toolstream/runtime/runtime_pipeline.hpp>

#include "catch_compat.hpp"
#include "support/event_log.hpp"
#include "support/events.hpp"
#include "support/fixtures.hpp"

#include <boost/json/parse.hpp>

#include <random>
#include <string>

namespace test_argument_fragments {

using namespace toolstream;

namespace {

// A policy that writes one file or shell segment from scripted content, to drive the writer's
// own fragments: `path` goes in START's metadata, or in END's when `late_path`.
struct scripted_file {
    segment_type type = segment_type::write_file;
    bool late_path = false;
    bool end_it = true;
    boost::json::object extra;
    std::optional<segment_ref> ref;

    template<class W>
    void on_content(std::string_view text, W& out)
    {
        if (!ref) {
            boost::json::object meta = extra;
            if (!late_path && type != segment_type::run_bash)
                meta["path"] = "src/a \"b\".py";
            ref = out.start(type, std::move(meta));
        }
        out.content(*ref, text);
    }
    template<class W>
    void finalize(W& out)
    {
        if (!ref)
            ref = out.start(type, extra);
        if (late_path)
            out.metadata(*ref)["path"] = "late.txt";
        out.end(*ref, end_it ? segment_status::complete : segment_status::incomplete);
    }
    void reset() { ref.reset(); }
};

test::event_log feed_pieces(scripted_file policy, const std::vector<std::string_view>& pieces)
{
    handler<scripted_file, test::event_log> h(test::event_log{}, {}, std::move(policy));
    for (auto piece : pieces)
        REQUIRE(!test::with_exact_copy(piece, [&](std::string_view p) { return h.feed(p); }));
    REQUIRE(!h.finalize());
    return h.sink();
}

} // namespace

TEST_CASE("fragments: a file body is encoded as a JSON string at every split, multi-byte characters too",
          "[fragments]")
{
    const std::string body = "line \"one\"\n\ttab \\ back\x01 caf\xC3\xA9 \xF0\x9F\x98\x80 end";
    std::string first_joined;
    for (const auto& pieces : test::chunkings(body)) {
        const auto log = feed_pieces({}, pieces);
        REQUIRE(log.violations().empty());
        REQUIRE(log.invocations.size() == 1);
        const auto& inv = log.invocations[0];
        CHECK(inv.is_complete());
        CHECK(inv.arguments.at("content").as_string() == body);
        CHECK(inv.arguments.at("path").as_string() == "src/a \"b\".py");
        CHECK(log.fragments.begin()->second == inv.arguments_raw);
        if (first_joined.empty())
            first_joined = inv.arguments_raw;
        CHECK(inv.arguments_raw == first_joined);   // the same text at every chunking
    }
    CHECK(first_joined.rfind(R"({"path":"src/a \"b\".py","content":"line \"one\"\n\t)", 0) == 0);
}

TEST_CASE("fragments: a path that arrives after the body is written after it", "[fragments]")
{
    scripted_file late;
    late.late_path = true;
    const auto log = feed_pieces(late, {"abc", "def"});
    REQUIRE(log.violations().empty());
    REQUIRE(log.invocations.size() == 1);
    CHECK(log.invocations[0].arguments_raw == R"({"content":"abcdef","path":"late.txt"})");
    CHECK(log.invocations[0].is_complete());
}

TEST_CASE("fragments: a shell command, its extra metadata, and a command given only in metadata", "[fragments]")
{
    scripted_file bash;
    bash.type = segment_type::run_bash;
    bash.extra = {{"background", true}, {"timeout_seconds", 30}};
    auto log = feed_pieces(bash, {"ls ", "-la"});
    REQUIRE(log.violations().empty());
    CHECK(log.invocations.at(0).arguments_raw == R"({"command":"ls -la","background":true,"timeout_seconds":30})");

    bash.extra = {{"cmd", "pwd"}};
    log = feed_pieces(bash, {});
    REQUIRE(log.violations().empty());
    CHECK(log.invocations.at(0).arguments == boost::json::object{{"command", "pwd"}});

    bash.extra = {};
    log = feed_pieces(bash, {});
    REQUIRE(log.violations().empty());
    CHECK(log.invocations.at(0).status == invocation_status::invalid_arguments);
    CHECK(log.invocations.at(0).error == "missing required argument 'command'");
}

TEST_CASE("fragments: a file without a path is invalid, an incomplete one is left open", "[fragments]")
{
    scripted_file no_path;
    no_path.late_path = true;
    no_path.extra = {};
    handler<scripted_file, test::event_log> h(test::event_log{}, {}, no_path);
    REQUIRE(!h.feed("body"));
    // finalize() would add the late path: end the segment as the policy would without one.
    h.policy().late_path = false;
    REQUIRE(!h.finalize());
    REQUIRE(h.sink().violations().empty());
    CHECK(h.sink().invocations.at(0).status == invocation_status::invalid_arguments);
    CHECK(h.sink().invocations.at(0).error == "missing required argument 'path'");

    scripted_file cut;
    cut.end_it = false;
    const auto log = feed_pieces(cut, {"partial"});
    REQUIRE(log.violations().empty());
    CHECK(log.invocations.at(0).status == invocation_status::incomplete);
    CHECK(log.invocations.at(0).arguments_raw == R"({"path":"src/a \"b\".py","content":"partial)");
}

TEST_CASE("fragments: every recorded stream, native calls verbatim, identical at every chunking", "[fragments][conformance]")
{
    const auto fixtures = test::load_fixtures();
    if (fixtures.empty()) {
        WARN("TOOLSTREAM_FIXTURES_DIR is not set or holds no fixtures: skipped");
        return;
    }
    std::size_t segments = 0;
    for (const auto& f : fixtures) {
        const std::string bytes = test::read_file(f.stream_path);
        std::map<std::string, std::string> first;
        for (std::size_t piece : {bytes.size() + 1, std::size_t{1}, std::size_t{7}, std::size_t{61}}) {
            auto made = runtime_pipeline<test::event_log>::create(test::provider_of(f), "api_tool_call");
            REQUIRE(made.has_value());
            auto& p = **made;
            for (std::size_t at = 0; at < bytes.size(); at += piece)
                (void)p.write(std::string_view(bytes).substr(at, piece));
            (void)p.finish();
            const auto& log = p.sink();
            INFO(f.name << " in pieces of " << piece);
            CHECK(log.violations().empty());
            for (const auto& inv : log.invocations)
                CHECK(log.fragments.at(inv.id) == inv.arguments_raw);
            if (first.empty())
                first = log.fragments;
            CHECK(log.fragments == first);
            segments += log.fragments.size();
        }
        // Native fragments are the provider's raw text, as the SDK joined it.
        const auto& expected = f.expected.at("choices").as_array();
        for (const auto& choice : expected)
            for (const auto& call : choice.at("tool_calls").as_array())
                if (const auto* raw = call.as_object().if_contains("arguments_raw"); raw && f.provider_dir != "gemini") {
                    const std::string id(call.at("id").as_string());
                    if (first.count(id) != 0)
                        CHECK(first.at(id) == raw->as_string());
                }
    }
    CHECK(segments > 0);
}

} // namespace test_argument_fragments
