// The output property of every fuzz target: whatever a writer or --emit mode produces is strict
// UTF-8 JSON. One output_check sees a run's events and writes them every way toolstream can:
// each event and invocation through to_json (the --emit events / invocations lines), the Agent
// TARS writer's lines, and the OpenAI Chat, Anthropic Messages and OpenAI Responses writers'
// events; the first problem is kept for the recorder to report.
#pragma once

#include <toolstream/response_events.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/tool_invocation.hpp>
#include <toolstream/writers/anthropic_messages.hpp>
#include <toolstream/writers/openai_responses.hpp>
#include <toolstream/writers/openai_sse.hpp>
#include <toolstream/writers/tarko_events.hpp>

#include "support/valid_output.hpp"

#include <boost/json/serialize.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace toolstream::fuzz {

class output_check {
public:
    output_check()
    {
        state* st = state_.get();
        st->tarko.emplace(line_fn([st](std::string_view line) { st->note(test::json_problem(line), "Agent TARS line"); }));
        st->sse.emplace(line_fn([st](std::string_view event) { st->note(test::sse_event_problem(event), "OpenAI SSE event"); }));
        st->anthropic.emplace(line_fn([st](std::string_view bytes) { st->anthropic_events(bytes); }));
        st->responses.emplace(line_fn([st](std::string_view bytes) { st->responses_events(bytes); }));
    }

    void operator()(const segment_event& e)
    {
        state_->note(test::json_problem(to_json_string(e)), "event");
        (*state_->tarko)(e);
        state_->to_api_writers(e);
    }
    void operator()(const argument_fragment& f)
    {
        (*state_->tarko)(f);
        state_->to_api_writers(f);
    }
    void operator()(const tool_invocation& inv)
    {
        state_->note(test::json_problem(boost::json::serialize(to_json(inv))), "invocation");
    }
    template<class Event>
        requires std::invocable<openai_sse_writer<std::function<void(std::string_view)>>&, const Event&>
    void operator()(const Event& e)
    {
        state_->to_api_writers(e);
    }

    /// Ends the writers' streams (done()): each finishes its choices, whatever fed it.
    void close()
    {
        state_->sse->done();
        state_->anthropic->done();
        state_->responses->done();
        state_->note(state_->anthropic_events.problem(), "Anthropic Messages event");
        state_->note(state_->responses_events.problem(), "OpenAI Responses event");
    }

    /// Checks a whole JSON text the run produced (the summary).
    void check_json(std::string_view text, std::string_view what) { state_->note(test::json_problem(text), what); }

    /// The first problem, with what produced it; empty when none.
    const std::string& problem() const noexcept { return state_->problem; }

private:
    using line_fn = std::function<void(std::string_view)>;

    // On the heap: the writers call back into it, and the handler moves its sink.
    struct state {
        std::string problem;
        std::optional<tarko_event_sink<line_fn>> tarko;
        std::optional<openai_sse_writer<line_fn>> sse;
        std::optional<anthropic_sse_writer<line_fn>> anthropic;
        std::optional<openai_responses_writer<line_fn>> responses;
        test::named_sse_check anthropic_events, responses_events;

        template<class Event>
        void to_api_writers(const Event& e)
        {
            (*sse)(e);
            (*anthropic)(e);
            (*responses)(e);
        }

        void note(const std::string& found, std::string_view what)
        {
            if (!found.empty() && problem.empty())
                problem = std::string(what) + ": " + found;
        }
    };
    std::unique_ptr<state> state_ = std::make_unique<state>();
};

} // namespace toolstream::fuzz
