// openai_response_builder: the same response as openai_responses_writer streams, built as the
// one `response` object the OpenAI Responses API returns without streaming (`stream: false`).
#pragma once

#include <toolstream/concepts.hpp>
#include <toolstream/detail/valid_json.hpp>
#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>
#include <toolstream/writers/detail/openai_response_items.hpp>
#include <toolstream/writers/detail/openai_response_json.hpp>
#include <toolstream/writers/openai_responses.hpp>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream {

/// An event sink that collects a response and builds its `response` object:
/// `{id, object:"response", created_at, status, error, incomplete_details, model, output, usage}`.
/// The items, their ids and the status are the streaming writer's (openai_responses_writer has
/// the mapping): this object equals the one its terminal event carries. Other choices and media
/// are left out. A failed response (`failed()`) is the object with status `failed` and its
/// `error`; `error_body()` is the error to answer with instead, as the API does.
class openai_response_builder {
public:
    explicit openai_response_builder(openai_responses_options options = {}) : options_(std::move(options)) {}

    void operator()(const response_started& r) { start(r.id, r.model); }

    // After a failure nothing more is collected, as the streaming writer writes nothing more.
    void operator()(const segment_event& e)
    {
        start();
        if (failure_.empty())
            (void)out_.on_segment(e);
    }

    void operator()(const argument_fragment& f)
    {
        start();
        if (!failure_.empty())
            return;
        if (const auto* item = out_.on_fragment(f); item != nullptr && item->name.empty()
                                                    && item->content.size() > options_.max_held_call_bytes)
            failure_ = detail::held_call_failure(*item);
    }

    void operator()(const choice_finished& c)
    {
        start();
        if (c.choice != 0 || !failure_.empty())
            return;
        if (c.kind == finish_kind::error)
            failure_ = detail::error_finish_message(c.reason);
        else if (!finish_)
            finish_ = c.kind;
    }

    void operator()(const usage_reported& u)
    {
        if (failure_.empty())
            usage_ = u.usage;
    }

    void operator()(const provider_failed& p)
    {
        if (failure_.empty())
            failure_ = p.message.empty() ? std::string_view("provider error") : p.message;
    }

    /// True when the response is `failed` (so far): a provider error, or a call that cannot be run.
    bool failed() const { return end().status == "failed"; }
    std::string error_message() const { return end().error; }

    /// `{"error":{"message","type":"server_error","param":null,"code":"server_error"}}`.
    boost::json::object error_body() const
    {
        return {{"error",
                 {{"message", detail::valid_json_string(end().error)},
                  {"type", "server_error"},
                  {"param", nullptr},
                  {"code", "server_error"}}}};
    }

    /// The `response` object of what was collected. Every open item ends here (as done() ends
    /// the stream), so call it once the events are all in.
    boost::json::object response()
    {
        start();
        out_.close_all(!failure_.empty() || finish_ == finish_kind::length || finish_ == finish_kind::content_filter);
        const detail::response_end ended = end();
        // Written as the streaming writer writes its final event, then parsed: the two cannot
        // disagree on a member.
        std::string text;
        detail::append_response_object(text, identity_, ended, out_.items(), usage_, [] {});
        return boost::json::parse(text).as_object();
    }

private:
    void start(std::string_view provider_id = {}, std::string_view provider_model = {})
    {
        if (identity_.started)
            return;
        detail::start_response_identity(identity_, options_.id, options_.model, options_.created_at, provider_id,
                                        provider_model);
        out_.start(identity_.id);
    }

    detail::response_end end() const { return detail::end_of_response(finish_, failure_, out_); }

    openai_responses_options options_;
    detail::response_identity identity_;
    detail::response_output out_;
    std::optional<finish_kind> finish_;
    std::optional<token_usage> usage_;
    std::string failure_;
};

static_assert(event_sink<openai_response_builder>);

} // namespace toolstream
