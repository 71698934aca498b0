// segment_emitter<event_target>: the emitter the run-time path and auto's trials share delivers
// what a segment_emitter of the target's own type delivers, kind by kind.
#include <toolstream/handler/handler.hpp>
#include <toolstream/parse/event_target.hpp>
#include <toolstream/parse/policies/auto_detect.hpp>
#include <toolstream/parse/formats/hermes.hpp>
#include <toolstream/parse/formats/qwen3_coder.hpp>
#include <toolstream/parse/segment_emitter.hpp>

#include "catch_compat.hpp"
#include "support/event_log.hpp"

#include <string>
#include <vector>

namespace test_event_target {

using namespace toolstream;

namespace {

// Takes segment events and markup, not argument fragments.
struct no_fragments {
    std::vector<std::string> lines;
    void operator()(const segment_event& e) { lines.push_back(to_json_string(e)); }
    void operator()(const consumed_markup& m) { lines.push_back("MARKUP " + std::string(m.bytes)); }
};

// The same calls on any emitter: text, markup, a tool call with argument fragments, a file
// whose fragments the writer generates, and a flow of reasoning cut by the end.
template<class Emitter>
void write_sample(Emitter& out)
{
    out.text("before ");
    out.markup("<tool_call>");
    const segment_ref call = out.start(segment_type::tool_call, {{"tool_name", "get_weather"}});
    out.content(call, R"({"city":)");
    out.arguments(call, R"({"city":)");
    out.content(call, R"("Paris"})");
    out.arguments(call, R"("Paris"})");
    out.end(call);
    out.markup("</tool_call>");
    const segment_ref file = out.start(segment_type::write_file, {{"path", "a.txt"}});
    out.content(file, "line \"one\"\n");
    out.end(file);
    out.reasoning("caf\xc3");   // a character split at the end of the delta
    out.reasoning("\xa9");
    out.end_flow();
}

} // namespace

TEST_CASE("event_target: an erased emitter delivers every kind its target takes, as the target's own emitter does",
          "[emitter]")
{
    test::event_log direct_log, erased_log;
    segment_emitter<test::event_log> direct(direct_log);
    segment_emitter<event_target> erased(erased_log);
    write_sample(direct);
    write_sample(erased);
    REQUIRE(direct_log.lines.size() > 8);
    CHECK(erased_log.lines == direct_log.lines);
    CHECK(erased_log.fragments == direct_log.fragments);
    CHECK(erased_log.markup == "<tool_call></tool_call>");
    CHECK(erased_log.violations().empty());
}

TEST_CASE("event_target: a kind the target does not take is dropped, the rest delivered in order", "[emitter]")
{
    no_fragments direct_target, erased_target;
    segment_emitter<no_fragments> direct(direct_target);
    segment_emitter<event_target> erased(erased_target);
    write_sample(direct);
    write_sample(erased);
    REQUIRE(!direct_target.lines.empty());
    CHECK(erased_target.lines == direct_target.lines);
    for (const auto& line : erased_target.lines)
        CHECK(line.find("FRAGMENT") == std::string::npos);
}

namespace {

// A sink that says its type erases its events, as the run-time path's does: its handler writes
// through segment_emitter<event_target>.
struct erasing_log : test::event_log {
    static constexpr bool event_types_erased = true;
};
static_assert(erases_event_types<erasing_log>);
static_assert(!erases_event_types<test::event_log>);

} // namespace

TEST_CASE("event_target: a handler for a sink that erases its events delivers what any handler does", "[emitter]")
{
    const std::string text = "Let me look.<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}\n"
                             "</tool_call><tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"b\", "
                             "\"content\": \"x\\ny\"}}</tool_call>done";
    using two_formats = auto_policy<text_format_policy<hermes_format>, text_format_policy<qwen3_coder_format>>;
    handler<two_formats, test::event_log> plain;
    handler<two_formats, erasing_log> erasing;
    for (const char c : text) {
        REQUIRE(!plain.feed(std::string_view(&c, 1)));
        REQUIRE(!erasing.feed(std::string_view(&c, 1)));
    }
    REQUIRE(!plain.finalize());
    REQUIRE(!erasing.finalize());
    REQUIRE(plain.invocations().size() == 2);
    CHECK(erasing.policy().format() == "hermes");
    CHECK(erasing.sink().lines == plain.sink().lines);
    CHECK(erasing.sink().fragments == plain.sink().fragments);
    CHECK(erasing.sink().markup == plain.sink().markup);
    REQUIRE(erasing.invocations().size() == 2);
    for (std::size_t i = 0; i < 2; ++i)
        CHECK(erasing.invocations()[i].arguments == plain.invocations()[i].arguments);
    CHECK(erasing.sink().violations().empty());
}

} // namespace test_event_target
