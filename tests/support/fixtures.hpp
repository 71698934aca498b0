// Test support: locating and reading the recorded provider streams of ../shared/fixtures.
#pragma once

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace toolstream::test {

/// The fixtures directory from TOOLSTREAM_FIXTURES_DIR, when it is set and exists.
inline std::optional<std::filesystem::path> fixtures_dir()
{
    const char* dir = std::getenv("TOOLSTREAM_FIXTURES_DIR");
    if (dir == nullptr || *dir == '\0' || !std::filesystem::is_directory(dir))
        return std::nullopt;
    return std::filesystem::path(dir);
}

inline std::string read_file(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The JSONTestSuite cases (`*.json` in the fixtures' jsontestsuite/), sorted by name; empty when
/// there are none.
inline std::vector<std::filesystem::path> jsontestsuite_files()
{
    std::vector<std::filesystem::path> out;
    const auto root = fixtures_dir();
    if (!root || !std::filesystem::is_directory(*root / "jsontestsuite"))
        return out;
    for (const auto& entry : std::filesystem::directory_iterator(*root / "jsontestsuite"))
        if (entry.path().extension() == ".json")
            out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

/// A recorded stream and the result its official SDK produced.
struct fixture {
    std::string name;            ///< "anthropic/sdk-tool-use"
    std::string provider_dir;    ///< "anthropic"
    std::filesystem::path stream_path;
    boost::json::value expected;
};

/// The provider (as toolstream names it) that reads the streams of a fixture folder.
inline std::string provider_of(const fixture& f)
{
    const auto& d = f.provider_dir;
    if (d == "deepseek" || d == "groq" || d == "xai" || d == "alibaba")
        return "openai_chat";   // OpenAI-compatible vendors
    return d;
}

/// Every `*.sse` / `*.ndjson` with an `.expected.json` beside it, in the given provider folders
/// (all folders when `dirs` is empty), sorted by name.
inline std::vector<fixture> load_fixtures(const std::vector<std::string>& dirs = {})
{
    std::vector<fixture> out;
    auto root = fixtures_dir();
    if (!root)
        return out;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(*root)) {
        const auto& p = entry.path();
        if (p.extension() != ".sse" && p.extension() != ".ndjson")
            continue;
        const std::string dir = p.parent_path().filename().string();
        if (!dirs.empty() && std::find(dirs.begin(), dirs.end(), dir) == dirs.end())
            continue;
        auto expected_path = p.parent_path() / (p.stem().string() + ".expected.json");
        if (!std::filesystem::exists(expected_path))
            continue;
        out.push_back({dir + "/" + p.stem().string(), dir, p,
                       boost::json::parse(read_file(expected_path))});
    }
    std::sort(out.begin(), out.end(), [](const fixture& a, const fixture& b) { return a.name < b.name; });
    return out;
}

} // namespace toolstream::test
