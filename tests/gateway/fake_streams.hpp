// The made-up streams the fake model server (fake_upstream.hpp) sends, built once each.
#pragma once

#include <boost/json.hpp>

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gateway_test {

namespace json = boost::json;

/// One Chat Completions chunk with a content delta (and a finish reason when given).
inline std::string chat_chunk(std::string_view content, std::string_view finish = {})
{
    json::object delta;
    if (!content.empty())
        delta["content"] = content;
    json::object chunk{{"id", "chatcmpl-fake"}, {"object", "chat.completion.chunk"}, {"created", 1700000000},
                       {"model", "fake-model"}};
    chunk["choices"] = json::array{json::object{{"index", 0}, {"delta", std::move(delta)},
                                                {"finish_reason", finish.empty() ? json::value(nullptr) : json::value(finish)}}};
    return "data: " + json::serialize(chunk) + "\n\n";
}

/// A Chat Completions stream whose text deltas are `pieces`, then `stop` and [DONE].
inline std::string chat_stream(const std::vector<std::string_view>& pieces)
{
    std::string out;
    for (auto p : pieces)
        out += chat_chunk(p);
    out += chat_chunk({}, "stop");
    out += "data: [DONE]\n\n";
    return out;
}

inline const std::string& ollama_stream()
{
    static const std::string s =
        R"({"model":"qwen3:8b","created_at":"2025-06-09T17:58:50Z","message":{"role":"assistant","content":"","thinking":"Weather, so a call."},"done":false})" "\n"
        R"({"model":"qwen3:8b","created_at":"2025-06-09T17:58:51Z","message":{"role":"assistant","content":"Checking "},"done":false})" "\n"
        R"({"model":"qwen3:8b","created_at":"2025-06-09T17:58:51Z","message":{"role":"assistant","content":"Paris."},"done":false})" "\n"
        R"({"model":"qwen3:8b","created_at":"2025-06-09T17:58:52Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris","units":"c"}}}]},"done":false})" "\n"
        R"({"model":"qwen3:8b","created_at":"2025-06-09T17:58:53Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":31,"eval_count":17})" "\n";
    return s;
}

/// The text a model without a tool parser writes, split so markers cross delta boundaries.
inline const std::string& xml_text_stream()
{
    static const std::string s = chat_stream({"Let me look. ", "<tool name=\"get_wea", "ther\"><arguments><arg name=\"ci",
                                              "ty\">Paris</arg></arguments></to", "ol>"});
    return s;
}

inline const std::string& hermes_text_stream()
{
    static const std::string s = chat_stream({"Let me look. ", "<tool_ca", "ll>\n{\"name\": \"get_weather\", \"argu",
                                              "ments\": {\"city\": \"Paris\"}}\n</tool_", "call>"});
    return s;
}

/// A Qwen3-Coder call written as text, its values untyped.
inline const std::string& qwen3_coder_text_stream()
{
    static const std::string s = chat_stream({"<tool_call>\n<function=get_weather>\n<parameter=city>\nPar", "is\n</parameter>\n",
                                              "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"});
    return s;
}

/// A Hermes call whose arguments are not JSON.
inline const std::string& broken_call_stream()
{
    static const std::string s = chat_stream({"Let me look. <tool_call>\n{\"name\": \"get_weather\", ",
                                              "\"arguments\": {\"city\": Paris}}\n</tool_call>"});
    return s;
}

/// Text with reasoning in it, split inside the markers.
inline const std::string& think_stream()
{
    static const std::string s = chat_stream({"<thi", "nk>hmm</th", "ink>Ans", "wer"});
    return s;
}

/// "Hi", then the finish `reason` and [DONE].
inline std::string finish_stream(std::string_view reason)
{
    return chat_chunk("Hi") + chat_chunk({}, reason) + "data: [DONE]\n\n";
}

/// A stream that goes on after its end: a second finish, then [DONE] and a chunk after it.
inline const std::string& ghost_stream()
{
    static const std::string s = chat_chunk("Hi") + chat_chunk({}, "stop") + chat_chunk({}, "length") +
                                 "data: [DONE]\n\n" + chat_chunk("xGHOST", "length");
    return s;
}

/// "Hi", stop, then the usage chunk (`choices: []`) an OpenAI server sends when asked, and [DONE].
inline const std::string& usage_stream()
{
    static const std::string s = chat_chunk("Hi") + chat_chunk({}, "stop") +
                                 R"(data: {"id":"chatcmpl-fake","object":"chat.completion.chunk","created":1700000000,)"
                                 R"("model":"fake-model","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}})"
                                 "\n\ndata: [DONE]\n\n";
    return s;
}

/// `calls` get_weather calls, each whole in one delta with `argument_bytes` bytes of arguments,
/// then tool_calls and [DONE].
inline std::string calls_stream(std::size_t calls, std::size_t argument_bytes)
{
    std::string s;
    const std::string padding(argument_bytes > 20 ? argument_bytes - 20 : 0, 'x');
    for (std::size_t i = 0; i < calls; ++i) {
        json::object call{{"index", i}, {"id", "call_" + std::to_string(i)}, {"type", "function"},
                          {"function", json::object{{"name", "get_weather"}, {"arguments", R"({"city":")" + padding + R"("})"}}}};
        json::object chunk{{"id", "chatcmpl-calls"}, {"object", "chat.completion.chunk"}, {"created", 1700000000}, {"model", "fake"}};
        chunk["choices"] = json::array{json::object{{"index", 0}, {"delta", json::object{{"tool_calls", json::array{call}}}},
                                                    {"finish_reason", nullptr}}};
        s += "data: " + json::serialize(chunk) + "\n\n";
    }
    return s + chat_chunk({}, "tool_calls") + "data: [DONE]\n\n";
}

/// A call, then argument fragments for an index no delta opened (no id, no name).
inline const std::string& unopened_index_stream()
{
    static const std::string s =
        R"(data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[)"
        R"({"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":null}]})"
        "\n\n"
        R"(data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[)"
        R"({"index":1,"function":{"arguments":"{\"city\":\"Rome\"}"}}]},"finish_reason":null}]})"
        "\n\n" + chat_chunk({}, "tool_calls") + "data: [DONE]\n\n";
    return s;
}

/// Two deltas and a clean end, but no finish reason and no [DONE].
inline const std::string& no_finish_stream()
{
    static const std::string s = chat_chunk("Half an") + chat_chunk(" answer");
    return s;
}

/// The body of the /big stream's file: 1 MiB of numbered lines.
inline const std::string& big_file()
{
    static const std::string s = [] {
        std::string out;
        for (int i = 0; out.size() < (1u << 20); ++i)
            out += "line " + std::to_string(i) + " \"quoted\" \\ end\n";
        out.resize(1u << 20);
        return out;
    }();
    return s;
}

inline const std::string& big_stream()
{
    static const std::string s = [] {
        const std::string& file = big_file();
        std::vector<std::string> parts{"Writing it. <tool name=\"write_file\"><arguments><arg name=\"path\">big.txt</arg>"
                                       "<arg name=\"content\">__START_CONTENT__\n"};
        for (std::size_t at = 0; at < file.size(); at += 4096)
            parts.push_back(file.substr(at, 4096));
        parts.emplace_back("__END_CONTENT__</arg></arguments></tool>");
        return chat_stream(std::vector<std::string_view>(parts.begin(), parts.end()));
    }();
    return s;
}

/// The arguments of the /native-call stream's call, in the pieces the upstream sends them.
inline const std::vector<std::string>& native_call_pieces()
{
    static const std::vector<std::string> pieces{R"({"ci)", R"(ty": "Par)", R"(is", "da)", R"(ys": 3})"};
    return pieces;
}

/// One native get_weather call (`call_w1`) whose arguments stream in native_call_pieces(), after
/// a role delta. `ending`: `tool_calls` (every piece, the finish, usage, [DONE]); `length` (half
/// the pieces, then finish `length` mid-arguments, usage, [DONE]); `cut` (half the pieces, then
/// nothing: the server dies mid call).
inline std::string native_call_stream(std::string_view ending)
{
    const auto chunk = [](json::object delta, std::string_view finish) {
        json::object c{{"id", "chatcmpl-nc"}, {"object", "chat.completion.chunk"}, {"created", 1700000000}, {"model", "fake"}};
        c["choices"] = json::array{json::object{{"index", 0}, {"delta", std::move(delta)},
                                                {"finish_reason", finish.empty() ? json::value(nullptr) : json::value(finish)}}};
        return "data: " + json::serialize(c) + "\n\n";
    };
    std::string s = chunk(json::object{{"role", "assistant"}}, {});
    const auto& pieces = native_call_pieces();
    const std::size_t sent = ending == "tool_calls" ? pieces.size() : pieces.size() / 2;
    for (std::size_t i = 0; i < sent; ++i) {
        json::object call{{"index", 0}, {"function", json::object{{"arguments", pieces[i]}}}};
        if (i == 0) {
            call["id"] = "call_w1";
            call["type"] = "function";
            call["function"].as_object()["name"] = "get_weather";
        }
        s += chunk(json::object{{"tool_calls", json::array{std::move(call)}}}, {});
    }
    if (ending == "cut")
        return s;
    s += chunk({}, ending);
    s += R"(data: {"id":"chatcmpl-nc","object":"chat.completion.chunk","created":1700000000,"model":"fake","choices":[],)"
         R"("usage":{"prompt_tokens":21,"completion_tokens":13,"total_tokens":34}})" "\n\n";
    return s + "data: [DONE]\n\n";
}

/// A raw-text model's answer: reasoning, then a Hermes call, every marker split across deltas.
inline const std::string& think_hermes_stream()
{
    static const std::string s = chat_stream({"<thi", "nk>pl", "an</th", "ink>", "<tool_ca", "ll>\n{\"name\": \"get_weather\", \"argu",
                                              "ments\": {\"city\": \"Paris\"}}\n</tool_", "call>"});
    return s;
}

/// A Chat Completions stream of one native call whose arguments are `{"content":"xxx…"}` of
/// `mib` MiB, in 16 KiB deltas (made once per size).
inline const std::string& native_args_stream(std::size_t mib)
{
    static std::mutex m;
    static std::map<std::size_t, std::string> made;
    std::lock_guard lock(m);
    auto& s = made[mib];
    if (!s.empty())
        return s;
    const auto call_chunk = [](json::object fn, std::string_view finish) {
        json::object call{{"index", 0}, {"function", std::move(fn)}};
        json::object delta;
        if (finish.empty())
            delta["tool_calls"] = json::array{std::move(call)};
        json::object chunk{{"id", "chatcmpl-big"}, {"object", "chat.completion.chunk"}, {"created", 1700000000}, {"model", "fake"}};
        chunk["choices"] = json::array{json::object{{"index", 0}, {"delta", std::move(delta)},
                                                    {"finish_reason", finish.empty() ? json::value(nullptr) : json::value(finish)}}};
        return "data: " + json::serialize(chunk) + "\n\n";
    };
    json::object first{{"name", "write_file"}, {"arguments", "{\"path\":\"big.txt\",\"content\":\""}};
    s = call_chunk(first, {});
    s.replace(s.find("\"function\""), 0, R"("id":"call_big","type":"function",)");
    const std::string piece(16 * 1024, 'x');
    for (std::size_t at = 0; at < (mib << 20); at += piece.size())
        s += call_chunk(json::object{{"arguments", piece}}, {});
    s += call_chunk(json::object{{"arguments", "\"}"}}, {});
    s += call_chunk({}, "tool_calls") + "data: [DONE]\n\n";
    return s;
}

} // namespace gateway_test
