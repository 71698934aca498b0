// openai_completion_builder: the same response as openai_sse_writer streams, built as one
// non-streaming `chat.completion` object (for a gateway answering `stream: false`).
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/detail/valid_json.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/detail/openai_chunk.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream {

struct openai_completion_options {
    std::string id;             ///< Empty: the provider's, else `chatcmpl-` + random.
    std::string model;          ///< Empty: the provider's.
    std::int64_t created = 0;   ///< Unix seconds; 0: the time the response starts.
};

/// An event sink that collects a response and builds its `chat.completion` object:
/// `choices[{index, message{role, content, reasoning_content?, tool_calls?}, finish_reason}]`
/// and `usage` when the stream reported it. Tool calls are the same as the streaming writer's
/// (id = segment id, the full arguments text as the core's fragments joined it); a call that never
/// got a name is left out. A provider error makes `failed()` true and `error_body()` the error
/// object to answer with instead.
class openai_completion_builder {
public:
    explicit openai_completion_builder(openai_completion_options options = {}) : options_(std::move(options)) {}

    void operator()(const response_started& r) { start(r.id, r.model); }

    void operator()(const segment_event& e)
    {
        start();
        auto& ch = choice(e.choice);
        if (e.type == segment_event_type::SEGMENT_CONTENT) {
            if (e.segment_kind == segment_type::text)
                ch.content.append(e.delta);
            else if (e.segment_kind == segment_type::reasoning)
                ch.reasoning.append(e.delta);
            return;
        }
        if (!is_tool_segment(e.segment_kind))
            return;
        if (e.type == segment_event_type::SEGMENT_START) {
            ch.calls.push_back({std::string(e.segment_id), std::string(tool_name_of(e)), {}, true});
        } else if (call* c = find(ch, e.segment_id)) {   // END
            if (c->name.empty())
                c->name = tool_name_of(e);
            c->open = false;
        }
    }

    void operator()(const argument_fragment& f)
    {
        if (call* c = find(choice(f.choice), f.segment_id))
            c->arguments.append(f.json);
    }

    void operator()(const choice_finished& f)
    {
        start();
        choice(f.choice).finish = f.kind;
        if (f.kind == finish_kind::error && !error_)
            error_ = detail::error_finish_message(f.reason);
    }

    void operator()(const usage_reported& u) { usage_ = u.usage; }

    void operator()(const provider_failed& p)
    {
        if (!error_)
            error_ = std::string(p.message);
    }

    bool failed() const noexcept { return error_.has_value(); }
    std::string_view error_message() const noexcept { return error_ ? std::string_view(*error_) : std::string_view{}; }

    /// `{"error":{"message","type":"server_error","param":null,"code":null}}`.
    boost::json::object error_body() const
    {
        return {{"error",
                 {{"message", detail::valid_json_string(error_message())},
                  {"type", "server_error"},
                  {"param", nullptr},
                  {"code", nullptr}}}};
    }

    /// The `chat.completion` object of what was collected.
    boost::json::object completion()
    {
        start();
        boost::json::array choices;
        for (std::size_t i = 0; i < choices_.size(); ++i) {
            const auto& ch = choices_[i];
            boost::json::object message{{"role", "assistant"}};
            if (ch.content.empty())
                message["content"] = nullptr;
            else
                message["content"] = ch.content;
            if (!ch.reasoning.empty())
                message["reasoning_content"] = ch.reasoning;
            boost::json::array calls;
            for (const auto& c : ch.calls)
                if (!c.name.empty())
                    calls.push_back({{"id", c.id},
                                     {"type", "function"},
                                     {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
            if (!calls.empty())
                message["tool_calls"] = std::move(calls);
            choices.push_back({{"index", i},
                               {"message", std::move(message)},
                               {"logprobs", nullptr},
                               {"finish_reason", detail::openai_finish_reason(ch.finish.value_or(finish_kind::stop))}});
        }
        boost::json::object out{{"id", identity_.id},
                                {"object", "chat.completion"},
                                {"created", identity_.created},
                                {"model", identity_.model},
                                {"choices", std::move(choices)}};
        if (usage_)
            out["usage"] = {{"prompt_tokens", usage_->input_tokens},
                            {"completion_tokens", usage_->output_tokens},
                            {"total_tokens", usage_->input_tokens + usage_->output_tokens}};
        detail::make_valid_utf8(out);   // model text may hold any bytes: U+FFFD in the JSON
        return out;
    }

private:
    struct call {
        std::string id;
        std::string name;
        std::string arguments;
        bool open = false;
    };
    struct choice_state {
        std::string content;
        std::string reasoning;
        std::vector<call> calls;
        std::optional<finish_kind> finish;
        std::size_t last = 0;   // the call the last fragment went to
    };

    void start(std::string_view provider_id = {}, std::string_view provider_model = {})
    {
        identity_.start(options_.id, options_.model, options_.created, provider_id, provider_model);
    }

    choice_state& choice(std::size_t index)
    {
        if (index >= choices_.size())
            choices_.resize(index + 1);
        return choices_[index];
    }

    // The open call of that id: the one the last fragment went to, else a scan from the newest.
    static call* find(choice_state& ch, std::string_view id)
    {
        if (ch.last < ch.calls.size() && ch.calls[ch.last].open && ch.calls[ch.last].id == id)
            return &ch.calls[ch.last];
        for (std::size_t i = ch.calls.size(); i-- > 0;)
            if (ch.calls[i].open && ch.calls[i].id == id) {
                ch.last = i;
                return &ch.calls[i];
            }
        return nullptr;
    }

    openai_completion_options options_;
    detail::response_identity identity_;
    std::vector<choice_state> choices_;
    std::optional<token_usage> usage_;
    std::optional<std::string> error_;
};

static_assert(event_sink<openai_completion_builder>);

} // namespace toolstream
