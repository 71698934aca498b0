// Test support: folds converter output (chunk_responses) into the `.expected.json` shape, so a
// provider converter can be checked against the recordings without the rest of the pipeline.
#pragma once

#include <toolstream/types.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace toolstream::test {

struct summary_call {
    std::size_t index = 0;
    std::string id;
    std::string name;
    std::string raw;
    bool complete = false;
};

struct summary_choice {
    std::string text;
    std::string reasoning;
    std::vector<summary_call> calls;   // in order of first appearance
    std::optional<std::string> finish_reason;
};

/// Accumulates chunks exactly as the fixture README's field rules describe.
class chunk_summary {
public:
    void operator()(std::size_t choice, const chunk_response& c)
    {
        auto& ch = choices_[choice];
        ch.text += c.content;
        ch.reasoning += c.reasoning;
        for (const auto& d : c.tool_calls) {
            summary_call* call = nullptr;
            for (auto& existing : ch.calls)
                if (existing.index == d.index)
                    call = &existing;
            if (call == nullptr) {
                ch.calls.push_back({d.index, {}, {}, {}, false});
                call = &ch.calls.back();
            }
            if (call->id.empty())
                call->id = d.call_id;
            if (call->name.empty())
                call->name = d.name;
            call->raw += d.arguments_delta;
            call->complete = call->complete || d.is_complete;
        }
        if (!c.finish_reason.empty())
            ch.finish_reason = c.finish_reason;
        if (c.usage)
            usage_ = c.usage;
        if (!c.error.empty())
            error_ = c.error;
    }

    const std::map<std::size_t, summary_choice>& choices() const { return choices_; }
    const std::optional<token_usage>& usage() const { return usage_; }
    const std::optional<std::string>& error() const { return error_; }

    /// The `.expected.json` object (without provider, framing, oracle).
    boost::json::object to_json() const
    {
        boost::json::array choices;
        for (const auto& [index, ch] : choices_) {
            boost::json::array calls;
            for (const auto& call : ch.calls) {
                boost::json::value args;
                if (call.raw.empty()) {
                    args = boost::json::object{};
                } else {
                    boost::system::error_code ec;
                    args = boost::json::parse(call.raw, ec);
                    if (ec)
                        args = nullptr;
                }
                calls.push_back(boost::json::object{
                    {"id", call.id.empty() ? boost::json::value(nullptr) : boost::json::value(call.id)},
                    {"name", call.name},
                    {"arguments", args},
                    {"arguments_raw", call.raw}});
            }
            choices.push_back(boost::json::object{
                {"index", index},
                {"text", ch.text},
                {"reasoning", ch.reasoning},
                {"tool_calls", calls},
                {"finish_reason", ch.finish_reason ? boost::json::value(*ch.finish_reason)
                                                   : boost::json::value(nullptr)}});
        }
        boost::json::value usage = nullptr;
        if (usage_)
            usage = boost::json::object{{"input_tokens", usage_->input_tokens},
                                        {"output_tokens", usage_->output_tokens}};
        return {{"choices", choices},
                {"usage", usage},
                {"error", error_ ? boost::json::value(*error_) : boost::json::value(nullptr)}};
    }

private:
    std::map<std::size_t, summary_choice> choices_;
    std::optional<token_usage> usage_;
    std::optional<std::string> error_;
};

/// Compares a summary with an expected file by the README's rules; returns "" when they agree,
/// else a description of the first difference. `compare_raw` is false for dialects whose
/// arguments arrive as objects (Gemini, Ollama), where only `arguments` is compared.
inline std::string compare_with_expected(const boost::json::object& got, const boost::json::value& expected,
                                         bool compare_raw)
{
    const auto& exp = expected.as_object();
    const auto& gc = got.at("choices").as_array();
    const auto& ec = exp.at("choices").as_array();
    if (gc.size() != ec.size())
        return "choice count " + std::to_string(gc.size()) + " != " + std::to_string(ec.size());
    for (std::size_t i = 0; i < ec.size(); ++i) {
        const auto& g = gc[i].as_object();
        const auto& e = ec[i].as_object();
        for (const char* key : {"index", "text", "reasoning", "finish_reason"})
            if (g.at(key) != e.at(key))
                return std::string("choice ") + std::to_string(i) + " " + key + ": got "
                    + boost::json::serialize(g.at(key)) + " expected " + boost::json::serialize(e.at(key));
        const auto& gt = g.at("tool_calls").as_array();
        const auto& et = e.at("tool_calls").as_array();
        if (gt.size() != et.size())
            return "choice " + std::to_string(i) + " tool call count " + std::to_string(gt.size())
                + " != " + std::to_string(et.size());
        for (std::size_t k = 0; k < et.size(); ++k) {
            const auto& gk = gt[k].as_object();
            const auto& ek = et[k].as_object();
            std::vector<const char*> keys{"name", "arguments"};
            if (!ek.at("id").is_null())
                keys.push_back("id");
            if (compare_raw)
                keys.push_back("arguments_raw");
            for (const char* key : keys)
                if (gk.at(key) != ek.at(key))
                    return "call " + std::to_string(k) + " " + key + ": got " + boost::json::serialize(gk.at(key))
                        + " expected " + boost::json::serialize(ek.at(key));
        }
    }
    if (got.at("usage") != exp.at("usage"))
        return "usage: got " + boost::json::serialize(got.at("usage")) + " expected "
            + boost::json::serialize(exp.at("usage"));
    if (got.at("error").is_null() != exp.at("error").is_null())
        return "error: got " + boost::json::serialize(got.at("error")) + " expected "
            + boost::json::serialize(exp.at("error"));
    return {};
}

} // namespace toolstream::test
