// Assembles native (provider API) tool calls from tool_call_delta fragments into segments.
#pragma once

#include <toolstream/detail/file_arguments_decoder.hpp>
#include <toolstream/error.hpp>
#include <toolstream/limits.hpp>
#include <toolstream/parse/segment_emitter.hpp>
#include <toolstream/segment_event.hpp>
#include <toolstream/types.hpp>

#include <boost/json/object.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolstream::detail {

/// One native call per provider `index`. Generic tools become `tool_call` segments whose content
/// is the raw argument text; `write_file`/`patch_file` become file segments whose content is the
/// decoded `content`/`patch` string, with START deferred until `path` is known.
class native_call_assembler {
public:
    /// `keep_bodies` off: a file call's text is not kept once passed on (the writer drops it too).
    explicit native_call_assembler(native_call_limits limits = {}, bool keep_bodies = true)
        : limits_(limits), keep_bodies_(keep_bodies)
    {
    }

    /// `takeable`: `d.arguments_delta` itself, when its owner lets it be taken (a chunk passed by
    /// rvalue): a large file call's text that starts here then moves to the writer uncopied.
    template<emitter Emitter>
    void on_tool_call(const tool_call_delta& d, Emitter& out, std::string* takeable = nullptr);

    /// Ends every call still open as `incomplete`.
    template<emitter Emitter>
    void finalize(Emitter& out);

    void reset()
    {
        calls_.clear();
        by_index_.clear();
        last_ = npos;
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    enum class kind { unnamed, generic, file };

    struct call {
        std::size_t index = 0;
        std::string call_id;
        std::string name;
        kind type = kind::unnamed;
        std::string raw;        // arguments as received, until the segment starts (then the writer's)
        std::size_t received = 0;   // argument bytes so far, kept or not
        std::unique_ptr<file_arguments_decoder> decoder;
        std::string held;       // decoded file body that arrived before the path
        std::optional<std::string> path;
        std::optional<segment_ref> segment;
        bool ended = false;
        bool free_form = false;   // free-form input (never a file call, never parsed)
    };

    template<emitter Emitter>
    struct file_sink {
        native_call_assembler* self;
        call* c;
        Emitter* out;
    };

    /// The call for `index`, or null when a new call would pass `max_calls`.
    call* find_or_add(std::size_t index);

    template<emitter Emitter>
    void name_known(call& c, Emitter& out);
    template<emitter Emitter>
    void append_arguments(call& c, std::string_view fragment, Emitter& out, std::string* takeable = nullptr);
    template<emitter Emitter>
    void start_segment(call& c, Emitter& out);
    template<emitter Emitter>
    void body(call& c, std::string_view piece, Emitter& out);
    template<emitter Emitter>
    static std::string_view raw_of(const call& c, Emitter& out);
    template<emitter Emitter>
    void end_call(call& c, segment_status status, Emitter& out, error why = {});

    native_call_limits limits_;
    bool keep_bodies_ = true;
    std::vector<call> calls_;
    std::unordered_map<std::size_t, std::size_t> by_index_;
    std::size_t last_ = npos;   // consecutive fragments usually share an index
};

} // namespace toolstream::detail

#include <toolstream/handler/detail/impl/native_call_assembler.hpp>
