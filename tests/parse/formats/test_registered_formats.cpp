// What the registry promises: every registered parser policy is fuzzed (fuzz_formats.cpp takes
// its list from the registry), benchmarked and tested here from its sample
// (support/format_samples.hpp, which bench_formats.cpp times), chosen by name at run time, and
// accepted by toolstream-replay; tests/gateway checks toolstream-gateway's --parser.
#include <toolstream/handler/handler.hpp>
#include <toolstream/runtime/registry.hpp>
#include <toolstream/runtime/runtime_policy.hpp>

#include "catch_compat.hpp"
#include "support/format_samples.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include <sys/wait.h>
#include <unistd.h>

namespace test_registered_formats {

using namespace toolstream;

namespace {

bool reads_text_calls(std::string_view policy)
{
    return std::ranges::find(test::policies_without_text_calls, policy) == std::end(test::policies_without_text_calls);
}

} // namespace

TEST_CASE("registry: every registered policy reads its sample's write_file call at any chunking", "[formats][registry]")
{
    const std::string body = test::sample_body(600);
    for (const std::string_view name : policy_names) {
        INFO("policy " << name);
        if (!reads_text_calls(name))
            continue;
        const auto* sample = test::find_format_sample(name);
        REQUIRE(sample != nullptr);   // a new format adds its sample to support/format_samples.hpp
        const std::string text = test::sample_text(*sample, body);
        for (const std::size_t piece : {text.size(), std::size_t{1}, std::size_t{7}}) {
            INFO("pieces of " << piece);
            auto made = make_policy(name);
            REQUIRE(made.has_value());
            handler<runtime_policy> h(recording_sink{}, {}, std::move(*made));
            for (std::size_t at = 0; at < text.size(); at += piece)
                REQUIRE(!h.feed(std::string_view(text).substr(at, piece)));
            REQUIRE(!h.finalize());
            REQUIRE(h.invocations().size() == 1);
            const auto& call = h.invocations()[0];
            CHECK(call.name == "write_file");
            CHECK(call.status == invocation_status::complete);
            CHECK(call.arguments.at("path").as_string() == test::sample_path);
            CHECK(call.arguments.at("content").as_string() == body);
        }
    }
    for (const auto& sample : test::format_samples) {   // no sample of a name the registry lacks
        INFO("sample " << sample.policy);
        CHECK(detail::index_of(policy_names, sample.policy) < policy_names.size());
    }
}

#ifdef TOOLSTREAM_REPLAY_PATH
TEST_CASE("registry: toolstream-replay --parser takes every registered policy", "[formats][registry][cli]")
{
    const std::string body = test::sample_body(100);
    for (const std::string_view name : policy_names) {
        INFO("policy " << name);
        const auto* sample = test::find_format_sample(name);
        const std::string text = sample != nullptr ? test::sample_text(*sample, body) : "Hello.";
        char input[] = "/tmp/toolstream-registry-XXXXXX";
        const int fd = ::mkstemp(input);
        REQUIRE(fd >= 0);
        REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
        ::close(fd);
        const std::string command = std::string(TOOLSTREAM_REPLAY_PATH) + " --provider text --parser " + std::string(name)
                                    + " --emit invocations " + input + " 2>/dev/null";
        std::string out;
        std::FILE* p = ::popen(command.c_str(), "r");
        REQUIRE(p != nullptr);
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
            out.append(buf, n);
        const int status = ::pclose(p);
        ::unlink(input);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
        if (sample == nullptr) {
            CHECK(out.empty());   // no call in the text
            continue;
        }
        const auto line = boost::json::parse(out);
        CHECK(line.at("name") == "write_file");
        CHECK(line.at("status") == "complete");
        CHECK(line.at("arguments").at("content").as_string() == body);
    }
}
#endif

} // namespace test_registered_formats
