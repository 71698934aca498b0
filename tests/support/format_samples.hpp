// One write_file call in the text of each registered parser policy (registry.hpp), between prose:
// the benchmarks time every registered format with it, and a test checks that every registered
// name has one, that it gives one complete write_file call, and that both programs accept the name.
// A new format adds its line here.
#pragma once

#include <toolstream/detail/compact_json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolstream::test {

inline constexpr std::string_view sample_path = "src/app.py";

/// The text around a write_file call's body. `json`: the body is a JSON string (escaped), in
/// arguments `{"path": "src/app.py", "content": "…"}` that come right after `open`.
struct format_sample {
    std::string_view policy;
    std::string_view open;    ///< up to the body (the arguments' start too when `json`)
    std::string_view close;   ///< after the body
    bool json = false;
    bool prose = true;        ///< prose before and after the call (not for a whole-JSON answer)
};

// Arguments in JSON up to the body's opening quote.
#define TOOLSTREAM_SAMPLE_ARGS R"({"path": "src/app.py", "content": ")"

inline constexpr format_sample format_samples[] = {
    {"xml", R"(<tool name="write_file"><arg name="path">src/app.py</arg><arg name="content">)", "</arg></tool>"},
    {"json_calls", R"({"tool": "write_file", "arguments": )" TOOLSTREAM_SAMPLE_ARGS, "\"}}", true},
    {"sentinel", R"([[SEG_START {"type":"write_file","path":"src/app.py"}]])", "[[SEG_END]]"},
    {"structured", R"({"content": "I will write the file.", "toolCall": {"name": "write_file", "args": )" TOOLSTREAM_SAMPLE_ARGS,
     "\"}}}", true, false},
    {"hermes", "<tool_call>\n{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}\n</tool_call>", true},
    {"qwen3_coder", "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n<parameter=content>\n",
     "\n</parameter>\n</function>\n</tool_call>"},
    {"glm45", "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>src/app.py</arg_value>\n<arg_key>content</arg_key>\n<arg_value>",
     "</arg_value>\n</tool_call>"},
    {"minimax_m2", "<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">src/app.py</parameter>\n<parameter name=\"content\">",
     "\n</parameter>\n</invoke>\n</minimax:tool_call>"},   // a line break before a close is syntax
    {"deepseek_v31", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>write_file<｜tool▁sep｜>" TOOLSTREAM_SAMPLE_ARGS,
     "\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", true},
    {"deepseek_v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_file\n```json\n" TOOLSTREAM_SAMPLE_ARGS,
     "\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", true},
    {"kimi_k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0<|tool_call_argument_begin|>" TOOLSTREAM_SAMPLE_ARGS,
     "\"}<|tool_call_end|><|tool_calls_section_end|>", true},
    {"mistral_calls", "[TOOL_CALLS]write_file[ARGS]" TOOLSTREAM_SAMPLE_ARGS, "\"}", true},
    {"llama3_json", "<|python_tag|>{\"name\": \"write_file\", \"parameters\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}", true},
    {"harmony", "<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>" TOOLSTREAM_SAMPLE_ARGS,
     "\"}<|call|>", true},
    {"seed_oss", "<seed:tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n<parameter=content>\n",
     "\n</parameter>\n</function>\n</seed:tool_call>"},
    {"deepseek_v32",
     "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">src/app.py</｜DSML｜parameter>\n"
     "<｜DSML｜parameter name=\"content\" string=\"true\">",
     "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>"},
    {"longcat", "<longcat_tool_call>{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}</longcat_tool_call>", true},
    {"ernie45", "<tool_call>{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}</tool_call>", true},
    {"internlm", "<|action_start|><|plugin|>{\"name\": \"write_file\", \"parameters\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}<|action_end|>", true},
    {"step3",
     "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"write_file\">"
     "<steptml:parameter name=\"path\">src/app.py</steptml:parameter><steptml:parameter name=\"content\">",
     "\n</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"},   // as minimax_m2
    {"qwen3_xml", "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n<parameter=content>\n",
     "\n</parameter>\n</function>\n</tool_call>"},
    {"deepseek_v4",
     "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">src/app.py</｜DSML｜parameter>\n"
     "<｜DSML｜parameter name=\"content\" string=\"true\">",
     "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"},
    {"deepseek_v41",
     "<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"write_file\">\n<｜DSML｜ parameter name=\"path\" string=\"true\">src/app.py</｜DSML｜ parameter>\n"
     "<｜DSML｜ parameter name=\"content\" string=\"true\">",
     "</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>"},
    {"gemma4", "<|tool_call>call:write_file{path:<|\"|>src/app.py<|\"|>,content:<|\"|>", "<|\"|>}<tool_call|>"},
    {"functiongemma", "<start_function_call>call:write_file{path:<escape>src/app.py<escape>,content:<escape>", "<escape>}<end_function_call>"},
    {"step3p5", "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n<parameter=content>\n", "\n</parameter>\n</function>\n</tool_call>"},
    {"hy_v3", "<tool_calls>\n<tool_call>write_file<tool_sep>\n<arg_key>path</arg_key>\n<arg_value>src/app.py</arg_value>\n<arg_key>content</arg_key>\n<arg_value>", "</arg_value>\n</tool_call>\n</tool_calls>"},
    {"poolside_v1", "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>src/app.py</arg_value>\n<arg_key>content</arg_key>\n<arg_value>", "</arg_value>\n</tool_call>"},
    {"ling3", "<tool_call>write_file<arg_key>path</arg_key><arg_value>src/app.py</arg_value><arg_key>content</arg_key><arg_value>", "</arg_value></tool_call>"},
    {"inkling", "<|content_invoke_tool_json|>{\"name\": \"write_file\", \"args\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}<|end_message|>", true},
    {"granite", "<|tool_call|>[{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]", true},
    {"granite_20b_fc", "<function_call> {\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}", true},
    {"hunyuan_a13b", "<tool_calls>[{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]</tool_calls>", true},
    {"jamba", "<tool_calls>[{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]</tool_calls>", true},
    {"phi4_mini_json", "functools[{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]", true},
    {"xlam", "[{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]", true, false},   // the answer is the array
    {"minimax", "<tool_calls>\n{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}\n</tool_calls>", true},
    {"apertus", "<|tools_prefix|>[{\"write_file\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]<|tools_suffix|>", true},
    {"gigachat3", "function call<|role_sep|>\n{\"name\": \"write_file\", \"arguments\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}", true},
    {"cohere_command3", "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"write_file\", \"parameters\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]<|END_ACTION|>", true},
    {"cohere_command4", "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"write_file\", \"parameters\": " TOOLSTREAM_SAMPLE_ARGS, "\"}}]<|END_ACTION|>", true},
    {"kimi_k3",
     "<|open|>tools<|sep|><|open|>call tool=\"write_file\" index=\"1\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>src/app.py"
     "<|close|>argument<|sep|><|open|>argument key=\"content\" type=\"string\"<|sep|>",
     "<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"},
    // Python strings: the JSON escape of the body is also a valid double-quoted Python string.
    {"pythonic", R"([write_file(path="src/app.py", content=")", "\")]", true},
    {"llama4_pythonic", R"(<|python_start|>[write_file(path="src/app.py", content=")", "\")]<|python_end|>", true},
    {"olmo3", R"(<function_calls>write_file(path="src/app.py", content=")", "\")\n</function_calls>", true},
    {"lfm2", R"(<|tool_call_start|>[write_file(path="src/app.py", content=")", "\")]<|tool_call_end|>", true},
    // auto: the registry's last policy; Qwen3-Coder's calls, whose `<tool_call>` hermes opens too
    {"auto", "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n<parameter=content>\n",
     "\n</parameter>\n</function>\n</tool_call>"},
};

#undef TOOLSTREAM_SAMPLE_ARGS

/// The registered policies that read no call from the text (native calls only).
inline constexpr std::string_view policies_without_text_calls[] = {"api_tool_call"};

/// The sample of `policy`, or null.
constexpr const format_sample* find_format_sample(std::string_view policy) noexcept
{
    for (const auto& s : format_samples)
        if (s.policy == policy)
            return &s;
    return nullptr;
}

/// Source-like lines of about `size` bytes: quotes, a non-ASCII letter, no markup.
inline std::string sample_body(std::size_t size)
{
    std::string out;
    for (std::size_t i = 0; out.size() < size; ++i)
        out += "    if (x > " + std::to_string(i) + ") { return \"caf\xc3\xa9\"; }\n";
    return out;
}

/// The whole model text of `s` writing `body`.
inline std::string sample_text(const format_sample& s, std::string_view body)
{
    std::string text = s.prose ? "I will write the file now.\n" : "";
    text += s.open;
    if (s.json)
        detail::append_json_escaped(text, body);
    else
        text += body;
    text += s.close;
    if (s.prose)
        text += "\nDone: the file is written.";
    return text;
}

} // namespace toolstream::test
