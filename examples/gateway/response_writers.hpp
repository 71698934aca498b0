// STUB until the openai-writer branch lands: the sinks the gateway writes its answers with.
#pragma once

#include <toolstream/segment_event.hpp>
#include <toolstream/stream_events.hpp>

#include <boost/json.hpp>

#include <string>
#include <string_view>

namespace gateway {

/// Writes `chat.completion.chunk` SSE into `out` (text only: stub).
class stream_sink {
public:
    explicit stream_sink(std::string& out) : out_(&out) {}
    void operator()(const toolstream::segment_event& e)
    {
        if (e.type == toolstream::segment_event_type::SEGMENT_CONTENT && e.segment_kind == toolstream::segment_type::text)
            chunk(boost::json::object{{"content", e.delta}}, nullptr);
    }
    void operator()(const toolstream::choice_finished& c) { chunk(boost::json::object{}, c.kind == toolstream::finish_kind::length ? "length" : "stop"); }
    void operator()(const toolstream::provider_failed& p)
    {
        out_->append("data: ").append(boost::json::serialize(boost::json::object{{"error", boost::json::object{{"message", p.message}}}})).append("\n\n");
    }
    void end() { out_->append("data: [DONE]\n\n"); }

private:
    void chunk(boost::json::object delta, const char* finish)
    {
        boost::json::object c{{"id", "chatcmpl-stub"}, {"object", "chat.completion.chunk"}, {"created", 0}, {"model", ""}};
        c["choices"] = boost::json::array{boost::json::object{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish ? boost::json::value(finish) : nullptr}}};
        out_->append("data: ").append(boost::json::serialize(c)).append("\n\n");
    }
    std::string* out_;
};

/// Builds one `chat.completion` object (text only: stub).
class completion_sink {
public:
    void operator()(const toolstream::segment_event& e)
    {
        if (e.type == toolstream::segment_event_type::SEGMENT_CONTENT && e.segment_kind == toolstream::segment_type::text)
            text_.append(e.delta);
    }
    void operator()(const toolstream::choice_finished& c) { finish_ = c.kind == toolstream::finish_kind::length ? "length" : "stop"; }
    std::string completion() const
    {
        boost::json::object c{{"id", "chatcmpl-stub"}, {"object", "chat.completion"}, {"created", 0}, {"model", ""}};
        c["choices"] = boost::json::array{boost::json::object{{"index", 0}, {"message", boost::json::object{{"role", "assistant"}, {"content", text_}}}, {"finish_reason", finish_}}};
        return boost::json::serialize(c);
    }

private:
    std::string text_;
    std::string finish_ = "stop";
};

} // namespace gateway
