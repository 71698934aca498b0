// What the gateway's test files share: the binary, a chat body, starting the gateway in front
// of a fake upstream, and reading an OpenAI error.
#pragma once

#include "gateway/fake_upstream.hpp"
#include "gateway/gateway_process.hpp"
#include "gateway/http_client.hpp"
#include "gateway/openai_reader.hpp"
#include "support/fixtures.hpp"

#include <boost/json.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace gateway_test {

inline const std::string gateway_binary = TOOLSTREAM_GATEWAY_PATH;

inline std::filesystem::path fixtures_root()
{
    return toolstream::test::fixtures_dir().value_or(std::filesystem::path{});
}

inline std::string chat_body(std::string_view model, bool stream, std::string_view extra = {})
{
    return std::string(R"({"model":")") + std::string(model) +
           R"(","messages":[{"role":"user","content":"What is the weather in Paris?"}],"stream":)" +
           (stream ? "true" : "false") + std::string(extra) + "}";
}

/// One chat through the gateway at `port` (model "m", `extra` members added), and what a client
/// reads of it: the SSE stream, or the chat.completion.
struct chat_answer {
    http_answer http;
    read_response read;
};
inline chat_answer chat(unsigned short port, bool stream, std::string_view extra = {})
{
    auto a = post(port, "/v1/chat/completions", chat_body("m", stream, extra));
    auto r = stream ? read_sse(a.body) : read_completion(a.body);
    return {std::move(a), std::move(r)};
}

inline gateway_process start_gateway(const fake_upstream& up, std::string_view path, std::string provider,
                                     std::vector<std::string> more = {})
{
    std::vector<std::string> args{"--upstream", up.url(path), "--provider", std::move(provider)};
    args.insert(args.end(), more.begin(), more.end());
    return gateway_process(gateway_binary, args);
}

inline json::value parse(const std::string& s)
{
    boost::system::error_code ec;
    auto v = json::parse(s, ec);
    return ec ? json::value(nullptr) : v;
}

inline std::string read_text(const std::string& path)
{
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The access-log lines (JSON objects with a status) of a gateway's stderr written to `path`.
inline std::vector<json::object> access_log(const std::string& path)
{
    const std::string text = read_text(path);
    std::vector<json::object> lines;
    for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
        if (auto v = parse(text.substr(at, end - at)); v.is_object() && v.as_object().contains("status"))
            lines.push_back(v.as_object());
    return lines;
}

inline std::string error_code_of(const http_answer& a)
{
    const auto v = parse(a.body);
    const auto* e = v.is_object() ? v.get_object().if_contains("error") : nullptr;
    if (e == nullptr || !e->is_object() || !e->get_object().contains("message") || !e->get_object().contains("type"))
        return "(not an OpenAI error object: " + a.body + ")";
    return string_of(e->get_object().if_contains("code"));
}

} // namespace gateway_test
