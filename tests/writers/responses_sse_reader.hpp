// Test support for the OpenAI Responses writer: reads its stream back as a strict client would
// (openai-node's accumulator is the model), checking the dialect's invariants on the way (`event:`
// names its data's `type`, sequence numbers count from 0, created and in_progress first, items
// added in order and one open at a time, every delta aimed at the open item, each `.done`
// repeating what the deltas built, one terminal event last carrying every item as done); and runs
// a provider stream through a pipeline into the writer and the builder.
#pragma once

#include <toolstream/pipeline/pipeline.hpp>
#include <toolstream/writers/openai_response_builder.hpp>
#include <toolstream/writers/openai_responses.hpp>

#include "support/valid_output.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstddef>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::test {

/// Appends the writer's bytes to a string it owns; counts the writes and keeps the largest.
struct responses_output {
    std::string bytes;
    std::size_t writes = 0;
    std::size_t largest = 0;
    void operator()(std::string_view b)
    {
        bytes.append(b);
        ++writes;
        largest = std::max(largest, b.size());
    }
};

struct read_item {
    std::string type;                  // message, reasoning, function_call, custom_tool_call
    std::string id, call_id, name;
    std::string text;                  // what its deltas built
    boost::json::object done;          // its output_item.done item
    bool closed = false;
};

struct read_responses {
    std::vector<std::string> types;            // every event's type, in order
    std::vector<read_item> items;              // by output_index
    std::string terminal;                      // response.completed, .incomplete or .failed
    boost::json::object response;              // the terminal event's response
    std::vector<std::string> violations;       // broken invariants, empty when all hold

    /// The terminal response's error message, or "".
    std::string error() const
    {
        const auto* e = response.if_contains("error");
        return e != nullptr && e->is_object() ? std::string(e->at("message").as_string()) : "";
    }
    std::size_t count(std::string_view type) const
    {
        return static_cast<std::size_t>(std::count(types.begin(), types.end(), type));
    }
    /// What a client assembles: `type name call_id status text` per item, then the terminal event.
    std::vector<std::string> lines() const
    {
        std::vector<std::string> out;
        for (const auto& i : items)
            out.push_back(i.type + " " + i.name + " " + i.call_id + " "
                          + (i.closed ? std::string(i.done.at("status").as_string()) : "open") + " " + i.text);
        out.push_back(terminal);
        return out;
    }
};

namespace detail_read {

inline void check_item_event(read_responses& r, const boost::json::object& data, std::string_view type,
                             std::string_view item_type)
{
    auto& v = r.violations;
    if (r.items.empty() || r.items.back().closed) {
        v.push_back(std::string(type) + " with no open item");
        return;
    }
    const auto& item = r.items.back();
    if (data.at("output_index").to_number<std::size_t>() != r.items.size() - 1 || data.at("item_id") != item.id.c_str())
        v.push_back(std::string(type) + " aimed at another item than the open one");
    if (item.type != item_type)
        v.push_back(std::string(type) + " on a " + item.type + " item");
}

inline void read_event(read_responses& r, std::string_view name, const boost::json::object& data)
{
    auto& v = r.violations;
    auto str = [&](std::string_view key) { return std::string(data.at(key).as_string()); };
    if (name == "response.output_item.added") {
        if (!r.items.empty() && !r.items.back().closed)
            v.push_back("an item added while another is open");
        if (data.at("output_index").to_number<std::size_t>() != r.items.size())
            v.push_back("output_index does not count the items");
        const auto& item = data.at("item").as_object();
        read_item ri;
        ri.type = item.at("type").as_string();
        ri.id = item.at("id").as_string();
        for (const auto& other : r.items)
            if (other.id == ri.id)
                v.push_back("two items with id " + ri.id);
        if (ri.type == "function_call" || ri.type == "custom_tool_call") {
            ri.call_id = item.at("call_id").as_string();
            ri.name = item.at("name").as_string();
            if (ri.name.empty() || ri.call_id.empty())
                v.push_back("a call added without name or call_id");
        } else if (ri.type != "message" && ri.type != "reasoning") {
            v.push_back("an item of type " + ri.type);
        }
        r.items.push_back(std::move(ri));
    } else if (name == "response.output_text.delta" || name == "response.reasoning_text.delta") {
        check_item_event(r, data, name, name == "response.output_text.delta" ? "message" : "reasoning");
        if (!r.items.empty())
            r.items.back().text += str("delta");
    } else if (name == "response.function_call_arguments.delta" || name == "response.custom_tool_call_input.delta") {
        const bool function = name.find("function") != std::string_view::npos;
        check_item_event(r, data, name, function ? "function_call" : "custom_tool_call");
        if (!r.items.empty())
            r.items.back().text += str("delta");
    } else if (name == "response.output_text.done" || name == "response.reasoning_text.done") {
        check_item_event(r, data, name, name == "response.output_text.done" ? "message" : "reasoning");
        if (!r.items.empty() && str("text") != r.items.back().text)
            v.push_back(std::string(name) + " differs from its deltas");
    } else if (name == "response.function_call_arguments.done" || name == "response.custom_tool_call_input.done") {
        const bool function = name.find("function") != std::string_view::npos;
        check_item_event(r, data, name, function ? "function_call" : "custom_tool_call");
        if (!r.items.empty() && str(function ? "arguments" : "input") != r.items.back().text)
            v.push_back(std::string(name) + " differs from its deltas");
    } else if (name == "response.content_part.added" || name == "response.content_part.done") {
        if (!r.items.empty())
            check_item_event(r, data, name, r.items.back().type == "reasoning" ? "reasoning" : "message");
        if (data.at("content_index") != 0)
            v.push_back("a content_index other than 0");
    } else if (name == "response.output_item.done") {
        if (r.items.empty() || r.items.back().closed
            || data.at("output_index").to_number<std::size_t>() != r.items.size() - 1) {
            v.push_back("output_item.done of no open item");
            return;
        }
        auto& item = r.items.back();
        item.closed = true;
        item.done = data.at("item").as_object();
        if (item.done.at("id") != item.id.c_str() || item.done.at("type") != item.type.c_str())
            v.push_back("output_item.done of another item");
        const auto& whole = item.type == "function_call" ? item.done.at("arguments")
                          : item.type == "custom_tool_call" ? item.done.at("input")
                                                            : item.done.at("content").at(0).at("text");
        if (whole != item.text.c_str())
            v.push_back("output_item.done differs from the deltas of " + item.id);
    } else {
        v.push_back("an unknown event " + std::string(name));
    }
}

} // namespace detail_read

/// Reads a whole stream the writer produced.
inline read_responses read_responses_sse(std::string_view sse)
{
    read_responses r;
    auto& v = r.violations;
    std::int64_t sequence = 0;
    for (std::size_t at = 0; at < sse.size();) {
        const std::size_t end = sse.find("\n\n", at);
        if (end == std::string_view::npos) {
            v.push_back("bytes after the last event");
            break;
        }
        const std::string_view event = sse.substr(at, end - at);
        at = end + 2;
        const std::size_t line = event.find('\n');
        if (!event.starts_with("event: ") || line == std::string_view::npos
            || event.substr(line + 1).find('\n') != std::string_view::npos
            || !event.substr(line + 1).starts_with("data: ")) {
            v.push_back("not an event line and a data line: " + std::string(event.substr(0, 120)));
            continue;
        }
        const std::string_view name = event.substr(7, line - 7);
        const std::string_view json = event.substr(line + 7);
        if (auto problem = json_problem(json); !problem.empty()) {
            v.push_back(problem + ": " + std::string(json.substr(0, 200)));
            continue;
        }
        const auto data = boost::json::parse(json).as_object();
        r.types.emplace_back(name);
        if (data.at("type") != std::string(name).c_str())
            v.push_back("event " + std::string(name) + " whose type differs");
        if (data.at("sequence_number") != sequence++)
            v.push_back("sequence_number out of order at " + std::string(name));
        if (!r.terminal.empty())
            v.push_back("an event after " + r.terminal);
        const std::size_t n = r.types.size();
        if ((n == 1) != (name == "response.created") || (n == 2) != (name == "response.in_progress"))
            v.push_back("response.created and response.in_progress are not first: " + std::string(name));
        if (name.starts_with("response.") && data.contains("response")) {
            const auto& response = data.at("response").as_object();
            if (n <= 2) {
                if (response.at("status") != "in_progress" || !response.at("output").as_array().empty())
                    v.push_back("the first response is not in_progress with no output");
                continue;
            }
            r.terminal = name;
            r.response = response;
            if ("response." + std::string(response.at("status").as_string()) != name)
                v.push_back("a terminal event whose status differs: " + std::string(name));
            const auto& output = response.at("output").as_array();
            if (output.size() != r.items.size())
                v.push_back("the response's output does not list every item");
            for (std::size_t i = 0; i < output.size() && i < r.items.size(); ++i)
                if (!r.items[i].closed || output[i] != r.items[i].done)
                    v.push_back("the response's item " + std::to_string(i) + " is not the item as done");
            continue;
        }
        detail_read::read_event(r, name, data);
    }
    if (r.terminal.empty())
        v.push_back("no terminal event");
    return r;
}

using responses_writer = openai_responses_writer<responses_output>;

inline openai_responses_options fixed_response_identity() { return {"resp_t", "m", 1, 256 * 1024}; }

/// The writer and the builder on one stream, and choice 0's finish as the core delivered it.
struct responses_pair {
    responses_writer w{responses_output{}, fixed_response_identity()};
    openai_response_builder builder{fixed_response_identity()};
    std::optional<finish_kind> finish;

    template<class Event>
        requires std::invocable<responses_writer&, const Event&>
    void operator()(const Event& e)
    {
        w(e);
        builder(e);
        if constexpr (std::same_as<Event, choice_finished>)
            finish = e.choice == 0 ? std::optional(e.kind) : finish;
    }
};

struct responses_run {
    stream_summary summary;   // with text
    responses_pair sink;      // done() ran
};

/// `bytes` through a compile-time pipeline of `Provider`, in pieces of `chunk` bytes (0: whole).
template<class Provider>
responses_run run_responses(std::string_view bytes, std::size_t chunk = 0)
{
    pipeline_options options;
    options.collect_text = true;
    pipeline<Provider, api_tool_call, responses_pair> p(responses_pair{}, options);
    const std::size_t step = chunk == 0 ? bytes.size() + 1 : chunk;
    for (std::size_t at = 0; at < bytes.size(); at += step)
        (void)p.write(bytes.substr(at, step));
    (void)p.finish();
    p.sink().w.done();
    return {p.summary(), std::move(p.sink())};
}

/// One Chat Completions chunk of choice 0, for an openai_chat upstream.
inline std::string chat(std::string_view delta, std::string_view finish = "null")
{
    return R"(data: {"id":"c","model":"m","choices":[{"index":0,"delta":)" + std::string(delta) + R"(,"finish_reason":)"
           + std::string(finish) + "}]}\n\n";
}

/// A delta of the call `call_1` (`get_weather`, named on the `first`).
inline std::string call_delta(std::string_view arguments, bool first)
{
    std::string args;
    detail::append_json_string(args, arguments);
    return std::string(R"({"tool_calls":[{"index":0,)") + (first ? R"("id":"call_1","type":"function",)" : "")
           + R"("function":{)" + (first ? R"("name":"get_weather",)" : "") + R"("arguments":)" + args + "}}]}";
}

} // namespace toolstream::test
