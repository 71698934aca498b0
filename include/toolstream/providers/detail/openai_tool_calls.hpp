// Assembly of Chat-Completions-style `delta.tool_calls` fragments (OpenAI and every dialect that
// copies it), tolerant of the ways vendors deviate from OpenAI's own streams.
#pragma once

#include <toolstream/detail/compact_json.hpp>
#include <toolstream/detail/growth.hpp>
#include <toolstream/providers/detail/chunk_builder.hpp>
#include <toolstream/providers/detail/json_fields.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolstream::detail {

/// The fields of one `delta.tool_calls` fragment that the rules below read, whichever way they
/// were read (event_sax while parsing, or from a DOM).
struct tool_call_fields {
    std::size_t position = 0;              ///< its place in the `tool_calls` array
    std::optional<std::uint64_t> index;    ///< `index`, when a count
    std::string id;                        ///< `id`, when a string
    std::string name;                      ///< `function.name`, when a string
    std::string arguments;                 ///< `function.arguments`: a string as it is, an object as compact JSON

    void clear() noexcept
    {
        index.reset();
        id.clear();
        name.clear();
        arguments.clear();
    }

    /// Reads `fragment`, found at `at` in a DOM `tool_calls` array, into these fields.
    void read(const boost::json::object& fragment, std::size_t at)
    {
        clear();
        position = at;
        index = count_field(fragment, "index");
        id.assign(string_field(fragment, "id"));
        const boost::json::object* fn = object_field(fragment, "function");
        if (fn == nullptr)
            return;
        name.assign(string_field(*fn, "name"));
        if (const auto* a = fn->if_contains("arguments")) {
            if (const auto* text = a->if_string())
                arguments.assign(text->data(), text->size());
            else if (a->is_object())
                append_compact_json(arguments, *a);
        }
    }
};

/// One choice's tool calls, numbered 0, 1, 2... in order of first appearance: that number is
/// the `index` of the deltas, whatever the wire's `index` values are.
///
/// Rules (each seen in real traffic): a fragment's slot is its `index`, or its position in the
/// `tool_calls` array when it has none (Mistral); the first non-empty `id` and `name` win and
/// are emitted once, so empty (Qwen `id:""`, GLM `name:""`) and resent (MiniMax) values add
/// nothing; a different id with no name continues the call (LM Studio), while a different id
/// *with* a name is a new call on a reused index (Ollama sends every parallel call at index 0);
/// arguments are passed on exactly as received, and an object as its compact JSON.
///
/// A hostile stream may name a new index in every fragment: calls are found through a hash map,
/// and past `max_calls` calls per choice a fragment opening another one is dropped.
class openai_tool_calls {
public:
    /// Calls per choice beyond which a new index is taken as hostile (as Anthropic's blocks and
    /// Responses' output items are).
    static constexpr std::size_t max_calls = 4096;

    /// Applies `fragment`, adding a delta to `out` when it contributes something. Arguments in a
    /// large buffer are moved into the delta, leaving `fragment.arguments` empty. False when it
    /// was dropped: it would open a call past `max_calls`.
    bool apply(tool_call_fields& fragment, chunk_builder& out)
    {
        const std::uint64_t wire = fragment.index.value_or(fragment.position);
        const std::string_view id = fragment.id;
        const std::string_view name = fragment.name;

        std::size_t slot = find(wire);
        const bool fresh = slot == npos
            || (!name.empty() && !id.empty() && !calls_[slot].id.empty() && id != calls_[slot].id);
        if (fresh) {
            if (calls_.size() == max_calls)
                return false;
            if (slot != npos)
                calls_[slot].shadowed = true;
            slot = calls_.size();
            calls_.push_back({wire, {}, {}, false});
            live_[wire] = slot;
        }
        last_ = slot;
        call& c = calls_[slot];

        const bool new_id = c.id.empty() && !id.empty();
        const bool new_name = c.name.empty() && !name.empty();
        if (!fresh && !new_id && !new_name && fragment.arguments.empty())
            return true;

        tool_call_delta& d = out.add_call(slot);
        if (new_id) {
            c.id = id;
            d.call_id.assign(id);
        }
        if (new_name) {
            c.name = name;
            d.name.assign(name);
        }
        if (fragment.arguments.capacity() >= large_buffer) {
            // A whole call in one event (or the room reserved for one) is handed on, not
            // copied, without the slack of its decoding: the event's bytes are freed by now.
            shrink_to_size(fragment.arguments);
            d.arguments_delta.swap(fragment.arguments);   // `fragment` gets add_call()'s empty string
        } else {
            d.arguments_delta.assign(fragment.arguments);
        }
        return true;
    }

    /// No fragment opened a call.
    bool empty() const noexcept { return calls_.empty(); }

    /// The choice finished: adds a completion delta for every call not yet complete.
    void complete_all(chunk_builder& out)
    {
        for (; first_open_ < calls_.size(); ++first_open_)
            out.add_call(first_open_).is_complete = true;
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    struct call {
        std::uint64_t wire_index = 0;
        std::string id;
        std::string name;
        bool shadowed = false;   // a later call reused its wire index
    };

    /// The live call at `wire`: the previous fragment's call first, as most fragments continue it.
    std::size_t find(std::uint64_t wire) const noexcept
    {
        if (last_ < calls_.size() && calls_[last_].wire_index == wire && !calls_[last_].shadowed)
            return last_;
        const auto it = live_.find(wire);
        return it == live_.end() ? npos : it->second;
    }

    std::vector<call> calls_;
    std::unordered_map<std::uint64_t, std::size_t> live_;   // wire index -> its live call
    std::size_t last_ = 0;
    std::size_t first_open_ = 0;   // calls before it are complete; only a finish completes calls
};

} // namespace toolstream::detail
