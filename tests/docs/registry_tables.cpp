// docs/registry.md, written from the registry: every parser policy with its aliases and opening
// markers, every reasoning parser with its markers, and the counts. The docs cannot go stale:
//
//   toolstream_registry_tables --write docs/registry.md
//   toolstream_registry_tables --check docs/registry.md README.md docs/*.md
//
// --check (the ctest docs_from_registry) fails when the committed page differs from what the
// registry gives now, or when a count written in the other files ("48 parser policies",
// "32 reasoning parsers", "47 named policies", "6 providers") is not the registry's.
#include <toolstream/parse/policies/detail/auto_formats.hpp>
#include <toolstream/parse/policies/reasoning_parsers.hpp>
#include <toolstream/runtime/registry.hpp>

#include <cstddef>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace ts = toolstream;

// A marker as a Markdown code span in a table cell: control bytes written as C escapes, `|`
// escaped (it would end the cell), and a marker holding a backtick fenced by two.
std::string code(std::string_view marker)
{
    if (marker.empty())
        return "";
    std::string s;
    for (const char c : marker) {
        switch (c) {
        case '\n': s += "\\n"; break;
        case '\r': s += "\\r"; break;
        case '\t': s += "\\t"; break;
        case '|': s += "\\|"; break;
        default: s += c;
        }
    }
    return marker.find('`') == std::string_view::npos ? "`" + s + "`" : "`` " + s + " ``";
}

std::string joined(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

std::string aliases_of(std::string_view name)
{
    std::vector<std::string> a;
    for (const auto& [alias, target] : ts::policy_aliases)
        if (target == name)
            a.push_back(code(alias));
    return joined(a);
}

template<class P>
std::string policy_row()
{
    std::string kind = "native calls only";
    std::vector<std::string> openers;
    if constexpr (std::string_view(P::name) == "auto") {
        kind = "finds the format from the text";
    } else if constexpr (requires { typename P::reader_type; }) {
        kind = P::traits_type::agent_syntax ? "text format (agents' syntax)" : "text format";
        for (const std::string_view o : ts::detail::format_openers<P>())
            openers.push_back(code(o));
    } else if constexpr (std::string_view(P::name) != "api_tool_call") {
        kind = "one JSON object (structured outputs)";
    }
    return "| `" + std::string(P::name) + "` | " + aliases_of(P::name) + " | " + kind + " | " + joined(openers) + " |\n";
}

template<class... P>
std::string policy_rows(ts::type_list<P...>)
{
    return (std::string() + ... + policy_row<P>());
}

std::string reasoning_row(const ts::reasoning_syntax& r)
{
    std::vector<std::string> also;
    for (const auto alt : r.open_alternatives)
        if (!alt.empty())
            also.push_back("open " + code(alt));
    for (const auto alt : r.close_alternatives)
        if (!alt.empty())
            also.push_back("close " + code(alt));
    const auto yes = [](bool b) { return std::string(b ? "yes" : ""); };
    std::string ends = r.yields_to_calls ? "the format's call" : code(r.yields_to);
    if (!r.ends_implicit_at.empty() && !r.yields_to_calls)
        ends += (ends.empty() ? "" : ", ") + code(r.ends_implicit_at) + " (a region open from the start)";
    return "| `" + std::string(r.name) + "` | " + code(r.open) + " | " + code(r.close) + " | " + joined(also) + " | "
        + yes(r.open_at_start) + " | " + ends + " | " + yes(r.recurs) + " |\n";
}

std::map<std::string, std::size_t> counts()
{
    return {{"parser policies", ts::policy_names.size()},
            {"named policies", ts::named_policies::size},
            {"reasoning parsers", ts::reasoning_parsers.size()},
            {"providers", ts::provider_names.size()}};
}

std::string page()
{
    const auto n = counts();
    std::ostringstream out;
    out << "# The registry\n\n"
        << "Generated from the registry by `tests/docs/registry_tables.cpp` (`toolstream_registry_tables --write "
           "docs/registry.md`); the ctest `docs_from_registry` fails when this page, or a count written in README.md "
           "or docs/, differs from it. What each format's calls look like is in [formats.md](formats.md); how each is "
           "read, and what happens to invalid entries, in [text_formats.md](text_formats.md).\n\n"
        << "There are " << n.at("parser policies") << " parser policies (" << n.at("named policies")
        << " named policies, then `auto`), " << n.at("reasoning parsers") << " reasoning parsers and "
        << n.at("providers") << " providers.\n\n"
        << "## Parser policies (`--parser`)\n\n"
        << "In the registry's order, which is `auto`'s order of preference. The opening markers are where a "
           "format's block may open (`auto` tries the formats at each of them).\n\n"
        << "| name | aliases | reads | opening markers |\n|---|---|---|---|\n"
        << policy_rows(ts::registered_policies{})
        << "\n## Reasoning parsers (`--reasoning-parser`)\n\n"
        << "A region is `open … close`. *Starts open*: text before the closing marker is reasoning without an "
           "opening one (`--thinking-open` sets it either way). *Ends at*: what ends a region and is left to the "
           "format. *Recurs*: regions may open again later in the stream.\n\n"
        << "| name | open | close | other spellings | starts open | ends at | recurs |\n|---|---|---|---|---|---|---|\n";
    for (const auto& r : ts::reasoning_parsers)
        out << reasoning_row(r);
    out << "\n## Providers (`--provider`)\n\n";
    for (std::size_t i = 0; i < ts::provider_names.size(); ++i)
        out << (i == 0 ? "" : ", ") << '`' << ts::provider_names[i] << '`';
    out << ".\n";
    return out.str();
}

std::string read(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every "N <counted thing>" in `text` that is not the registry's count; one line each.
std::vector<std::string> wrong_counts(const std::string& path, const std::string& text)
{
    static const std::regex phrase(R"((\d+)\s+(parser|named|reasoning)?\s*(policies|parsers|providers)\b)");
    const auto n = counts();
    std::vector<std::string> wrong;
    for (std::sregex_iterator it(text.begin(), text.end(), phrase), end; it != end; ++it) {
        const std::string what = (*it)[2].matched ? (*it)[2].str() + " " + (*it)[3].str() : (*it)[3].str();
        const auto counted = n.find(what);   // a line break may stand between the words
        if (counted != n.end() && std::stoul((*it)[1].str()) != counted->second)
            wrong.push_back(path + ": \"" + it->str() + "\", the registry has " + std::to_string(counted->second));
    }
    return wrong;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() < 2 || (args[0] != "--write" && args[0] != "--check")) {
        std::cerr << "usage: toolstream_registry_tables --write PAGE | --check PAGE [FILE...]\n";
        return 2;
    }
    const std::string generated = page();
    if (args[0] == "--write") {
        std::ofstream(args[1], std::ios::binary) << generated;
        return 0;
    }
    int status = 0;
    if (read(args[1]) != generated) {
        std::cerr << args[1] << " differs from the registry: run toolstream_registry_tables --write " << args[1] << "\n";
        status = 1;
    }
    for (std::size_t i = 1; i < args.size(); ++i)
        for (const auto& w : wrong_counts(args[i], read(args[i]))) {
            std::cerr << w << "\n";
            status = 1;
        }
    return status;
}
