// libFuzzer target: a structured-outputs response through handler<structured>.
//
// The content string is decoded into text, so text + markup does not give the input back and
// check_text_policy's byte count does not apply. Checked instead: the input is the consumed markup
// followed by the text after it (every byte of the object is markup, the rest is the input's own
// text); the recorder's life cycles, chunk invariance, every complete call's arguments as its raw
// text parsed, and, when the body is one JSON object whose schema keys each occur once in it, the
// text and the call Boost.JSON reads.
#include <toolstream/parse/policies/structured.hpp>

#include "fuzz_support.hpp"

namespace {

using namespace toolstream;

boost::json::parse_options deep()
{
    boost::json::parse_options options;
    options.max_depth = 1 << 16;
    return options;
}

std::size_t occurrences(std::string_view body, std::string_view key)
{
    const std::string quoted = '"' + std::string(key) + '"';
    std::size_t n = 0;
    for (auto at = body.find(quoted); at != std::string_view::npos; at = body.find(quoted, at + 1))
        ++n;
    return n;
}

std::string text_of(const std::vector<owned_segment_event>& events)
{
    std::string text;
    for (const auto& e : events)
        if (e.type == segment_event_type::SEGMENT_CONTENT && e.segment_kind == segment_type::text)
            text += e.delta;
    return text;
}

// No byte lost or duplicated: the input is the markup, then text the channel carries as is (the
// end of the text; the decoded content string comes before it).
void check_bytes(std::string_view body, const fuzz::recorder& r, const std::string& text)
{
    const std::string_view rest = body.substr(std::min(r.markup.size(), body.size()));
    if (!body.starts_with(r.markup) || !std::string_view(text).ends_with(rest))
        fuzz::fail("the input is not its markup followed by text",
                   "input:\n" + std::string(body) + "\nmarkup:\n" + r.markup + "\ntext:\n" + text);
}

// A complete call's arguments are its raw argument text (the raw bytes of `args`) parsed.
void check_raw_arguments(const tool_invocation& inv)
{
    if (!inv.is_complete())
        return;
    error_code ec;
    const auto parsed = detail::parse_json(inv.arguments_raw, ec, deep());
    if (ec || !parsed.is_object() || parsed.get_object() != inv.arguments)
        fuzz::fail("a complete call's arguments are not its raw text parsed", fuzz::dump({inv}));
}

// What Boost.JSON reads in a body that is the schema's object, each key once: the text and the
// call it must give; nothing when the body is anything else.
void check_against_parse(std::string_view body, const structured_options& keys, const fuzz::outcome& got)
{
    for (std::string_view key : {keys.content_key, keys.tool_call_key, keys.name_key, keys.arguments_key})
        if (occurrences(body, key) > 1)
            return;
    error_code ec;
    const auto parsed = detail::parse_json(body, ec, deep());
    if (ec || !parsed.is_object())
        return;
    const auto& response = parsed.get_object();
    const auto* content = response.if_contains(keys.content_key);
    const std::string expected_text = content != nullptr && content->is_string() ? std::string(content->get_string()) : "";
    if (text_of(got.events) != expected_text)
        fuzz::fail("the text is not the content string", "input:\n" + std::string(body) + "\ntext:\n" + text_of(got.events));
    const auto* call = response.if_contains(keys.tool_call_key);
    if (call == nullptr || !call->is_object()) {
        if (!got.invocations.empty())
            fuzz::fail("a call from a response without a tool call object", fuzz::dump(got.invocations));
        return;
    }
    const auto* name = call->get_object().if_contains(keys.name_key);
    const auto* args = call->get_object().if_contains(keys.arguments_key);
    if (name == nullptr || !name->is_string() || (args != nullptr && !args->is_object()))
        return;   // not the schema's call: its status is the policy's to choose
    if (name->get_string().empty()) {   // a call with no name: never complete
        for (const auto& inv : got.invocations)
            if (inv.is_complete())
                fuzz::fail("a complete call with an empty name", fuzz::dump(got.invocations));
        return;
    }
    const boost::json::object want = args != nullptr ? args->get_object() : boost::json::object{};
    if (got.invocations.size() != 1 || !got.invocations[0].is_complete() || got.invocations[0].name != name->get_string()
        || got.invocations[0].arguments != want)
        fuzz::fail("the call differs from the parsed tool call object",
             "input:\n" + std::string(body) + "\ngot:\n" + fuzz::dump(got.invocations));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto in = fuzz::read_input(data, size);
    if (!in)
        return 0;
    structured_options keys;
    if (in->option(2, 1) != 0)   // header bit 2: other key names
        keys = {"say", "call", "tool", "input"};
    auto run = [&](const std::vector<std::string_view>& pieces) {
        handler<fuzz::guarded<structured>, fuzz::recorder> h(fuzz::recorder{}, {},
                                                             fuzz::guarded<structured>{structured(keys)});
        for (auto piece : pieces)
            (void)h.feed(piece);
        (void)h.finalize();
        h.sink().check_all_ended();
        for (const auto& inv : h.sink().invocations)
            check_raw_arguments(inv);
        check_bytes(in->body, h.sink(), text_of(h.sink().events));
        return fuzz::outcome_of(h.sink());
    };
    const auto whole = run({in->body});
    check_against_parse(in->body, keys, whole);
    if (const auto pieces = fuzz::chunking(in->body, *in); pieces.size() > 1)
        fuzz::check_same(whole, run(pieces));
    return 0;
}
