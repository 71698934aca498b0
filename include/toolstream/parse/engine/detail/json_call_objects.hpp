// The call objects of a json_call marker format after its opening, laid out as its traits say
// (json_call_list): one object, a JSON array of them, or objects one after another.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_signature.hpp>
#include <toolstream/parse/engine/detail/json_call_block.hpp>
#include <toolstream/parse/engine/format_reader.hpp>
#include <toolstream/parse/engine/format_traits.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// Reads call objects from the first byte after a json_call opening (blanks, then `{`, or `[`
/// for an array), each object one call read by json_call_block:
/// - `single`: one object. Its call ENDs where it closes, or, with `end_at_close` false (a
///   closing marker follows), waits in finished() for the owner's end_finished().
/// - `array`: `[`, objects separated by `,`, `]`, blanks between them syntax. Each call ENDs
///   where its object closes. A byte where an object, `,` or `]` belongs (a number, a string, a
///   nested array) ends the list there, unread: the calls before it stand.
/// - `sequence`: objects with blanks between; after the blanks (at most `max_blanks`, held
///   meanwhile), a byte that does not open an object ends the list, the blanks left unread.
/// With `keyed` calls, an object is `{"NAME": ARGUMENTS}` (its first key the tool name); else
/// its `name_key` member names the tool. With `needs_arguments`, an object without arguments is
/// an invalid call (json_call_block). `stop`, the marker after the objects (json_stop), ends
/// one the model left unclosed where it stands: its call ENDs `invalid_arguments`, and the list
/// ends there.
class json_call_objects {
public:
    void begin(json_call_list list, json_stop stop, bool end_at_close, bool keyed = false,
               std::string_view name_key = "name", bool needs_arguments = false)
    {
        list_ = list;
        needs_arguments_ = needs_arguments;
        stop_ = stop;
        keyed_ = keyed;
        name_key_ = name_key;
        end_at_close_ = list != json_call_list::single || end_at_close;
        state_ = state::before;
    }

    bool done() const noexcept { return state_ == state::done; }

    /// A single object closed and waits for end_finished().
    bool finished() const noexcept { return json_.finished(); }

    template<emitter W>
    void end_finished(block_context<W>& ctx)
    {
        json_.end_finished(ctx);
    }

    template<emitter W>
    bool step(block_context<W>& ctx, std::size_t max_blanks)
    {
        bool progressed = false;
        for (;;) {
            if (state_ == state::object) {
                progressed = json_.step(ctx) || progressed;
                if (!json_.done())
                    return progressed;
                state_ = list_ == json_call_list::single ? state::done
                    : list_ == json_call_list::array     ? state::after_object
                                                         : state::between;
                if (state_ == state::done)
                    return true;
            }
            const std::string_view v = ctx.view();
            const std::size_t limit = state_ == state::between ? max_blanks : v.size();
            std::size_t i = 0;
            while (i < v.size() && i < limit && is_blank(v[i]))
                ++i;
            if (state_ == state::between) {   // the list may be over: its blanks are not taken yet
                if (i == v.size() && i < max_blanks)
                    return progressed;
                if (i == v.size() || v[i] != '{') {
                    state_ = state::done;
                    return true;
                }
                ctx.take(i, byte_role::markup);
                open_object();
                progressed = true;
                continue;
            }
            ctx.take(i, byte_role::markup);   // inside the list: blanks are its syntax
            progressed = progressed || i > 0;
            if (ctx.buf.empty())
                return progressed;
            progressed = true;
            const char c = ctx.view().front();
            if (state_ == state::before && list_ == json_call_list::array) {
                ctx.take(1, byte_role::markup);   // `[`, as the opening found it
                state_ = state::open;
            } else if (state_ == state::before || (state_ == state::open && c == '{')) {
                open_object();
            } else if (c == ']' || (state_ == state::after_object && c == ',')) {
                ctx.take(1, byte_role::markup);
                state_ = c == ']' ? state::done : state::open;
            } else {
                state_ = state::done;   // not a call object: the list ends here
            }
            if (state_ == state::done)
                return true;
        }
    }

    /// End of stream inside an object (json_call_block::finalize): false, the open call is not complete.
    template<emitter W>
    bool finalize(block_context<W>& ctx)
    {
        if (state_ == state::object)
            json_.finalize(ctx);
        return false;
    }

    void reset() noexcept
    {
        state_ = state::done;
        json_.reset();
    }

private:
    enum class state {
        before,         // after the opening
        open,           // array: after `[` or `,`: an object or `]`
        object,         // inside a call object
        after_object,   // array: `,` or `]`
        between,        // sequence: another object, or the end
        done,
    };

    void open_object()
    {
        json_.begin(json_call_layout::single, stop_, end_at_close_, keyed_, name_key_, needs_arguments_);
        state_ = state::object;
    }

    json_call_block json_;
    json_call_list list_ = json_call_list::single;
    json_stop stop_;
    state state_ = state::done;
    bool end_at_close_ = true;
    bool keyed_ = false;
    std::string_view name_key_ = "name";
    bool needs_arguments_ = false;
};

} // namespace toolstream::detail
