// A call's arguments written as one raw JSON object after a header that named the tool.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_extent.hpp>
#include <toolstream/parse/engine/detail/json_file_arguments.hpp>
#include <toolstream/parse/engine/format_reader.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Reads `{…}` (blanks before it are syntax) to where its brackets balance outside strings. A
/// tool_call streams it raw as content and argument fragments; a file or shell tool decodes it
/// (json_file_arguments); a call whose shape waits is read as a tool_call up to its first member
/// (json_first_member), which settles it. Any other first byte ends the arguments at once: the
/// call has none and ENDs `invalid_arguments`. So does the `stop` marker outside a string
/// (json_stop): the model closed the call without closing its JSON, and the calls after it are
/// read, as vLLM reads them.
class json_object_reader {
public:
    /// `stop`: the marker that follows the call, if any.
    void begin(const call_frame& call, json_stop stop = {})
    {
        extent_.reset();
        stop_ = stop;
        started_ = done_ = false;
        failure_.clear();
        first_member_.reset();
        file_ = call.is_file_tool();
        if (file_)
            file_arguments_.begin(call.type());
    }

    bool done() const noexcept { return done_; }

    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        const std::string_view v = ctx.view();
        std::size_t i = 0;
        if (!started_) {
            while (i < v.size() && is_blank(v[i]))
                ++i;
            ctx.take(i, byte_role::markup);
            if (i == v.size())
                return i > 0;
            if (ctx.view()[0] != '{') {
                failure_ = "arguments are not a JSON object";
                done_ = true;
                return true;
            }
            started_ = true;
        }
        const std::size_t end = extent_.scan(ctx.view(), stop_);
        done_ = extent_.closed() || extent_.stopped();
        if (extent_.stopped())
            failure_ = "the call closed inside its JSON arguments";
        read(end, ctx);
        return end > 0 || done_;
    }

    /// End of stream inside the object: a prefix of the stop held at the end is the arguments'.
    /// False: they are not complete.
    template<emitter W>
    bool finalize(block_context<W>& ctx)
    {
        if (started_ && !done_)
            read(ctx.view().size(), ctx);
        return false;
    }

    /// ENDs the call: `complete` unless its arguments could not be read.
    template<emitter W>
    void end(block_context<W>& ctx)
    {
        std::string why = file_ ? file_arguments_.finish(ctx.out) : std::string();
        if (!failure_.empty())
            why = failure_;
        ctx.call.end(ctx.out, why.empty() ? segment_status::complete : segment_status::invalid_arguments, why);
    }

    void reset() noexcept { file_arguments_.reset(); }

private:
    // The next `n` bytes are the arguments'.
    template<emitter W>
    void read(std::size_t n, block_context<W>& ctx)
    {
        std::string_view bytes = ctx.view().substr(0, n);
        // A shape that waits: a tool_call's bytes up to the one that shows the first member, in
        // pieces the frame holds (json_call_block::probe); a file tool reads from their start.
        while (!bytes.empty() && ctx.call.shape_pending()) {
            const std::size_t room = std::max<std::size_t>(ctx.call.hold_room(), 1);
            const std::size_t read = first_member_.feed(bytes.substr(0, std::min(bytes.size(), room)));
            ctx.call.add(byte_role::argument_text, bytes.substr(0, read), ctx.out);
            bytes.remove_prefix(read);
            if (first_member_.known() && ctx.call.shape_pending() && ctx.call.member(first_member_.key(), ctx.out)) {
                file_ = true;
                file_arguments_.begin(ctx.call.type());
                file_arguments_.write(first_member_.json(), ctx.call, ctx.out);
            }
        }
        if (file_)
            file_arguments_.read(bytes, ctx.call, ctx.out, [](std::string_view raw) { return raw; });
        else
            ctx.call.add(byte_role::argument_text, bytes, ctx.out);
        ctx.consume(n);
    }

    json_file_arguments file_arguments_;
    json_first_member first_member_;
    std::string failure_;
    json_extent extent_;
    json_stop stop_;
    bool started_ = false;
    bool done_ = false;
    bool file_ = false;
};

} // namespace toolstream::detail
