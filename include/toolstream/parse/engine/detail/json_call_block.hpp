// A JSON text holding tool calls, read as it streams: each call object becomes a call of the
// frame, its tool name and arguments found by json_call_tracker.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/json_call_tracker.hpp>
#include <toolstream/detail/json_null_handler.hpp>
#include <toolstream/detail/json_string_decoder.hpp>
#include <toolstream/error.hpp>
#include <toolstream/parse/engine/detail/json_file_arguments.hpp>
#include <toolstream/parse/engine/format_reader.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace toolstream::detail {

/// Checks that a text streamed to it (after reset()) is one JSON value; nothing is built or kept.
/// Only finish() tells the verdict, so small writes (a token each) are gathered into a bounded
/// batch first: a parser's write costs a few hundred instructions whatever its size.
class json_validator {
public:
    void reset()
    {
        if (!state_)
            state_ = std::make_unique<state>();
        state_->ec = {};
        state_->parser.reset();
        state_->batch.clear();
    }

    void write(std::string_view bytes)
    {
        auto& batch = state_->batch;
        if (batch.size() + bytes.size() <= batch_size) {
            batch.append(bytes);
            return;
        }
        flush();
        if (bytes.size() < batch_size)
            batch.append(bytes);
        else
            parse(bytes);
    }

    /// True when what was written is one JSON value.
    bool finish()
    {
        flush();
        auto& s = *state_;
        if (!s.ec && !s.parser.done())
            s.parser.write_some(false, nullptr, 0, s.ec);
        return !s.ec && s.parser.done();
    }

private:
    static constexpr std::size_t batch_size = 512;

    void flush()
    {
        parse(state_->batch);
        state_->batch.clear();
    }

    void parse(std::string_view bytes)
    {
        constexpr std::size_t slice = 2048;   // Boost 1.81 #876
        while (!bytes.empty() && !state_->ec) {
            const std::size_t n = std::min(slice, bytes.size());
            bytes.remove_prefix(state_->parser.write_some(true, bytes.data(), n, state_->ec));
        }
    }

    static boost::json::parse_options options()
    {
        boost::json::parse_options o;
        o.max_depth = 1024;
        o.allow_invalid_utf8 = true;   // model text is kept byte for byte, whatever it is
        return o;
    }

    struct state {
        error_code ec;   // Boost 1.81 #814: the parser is not the first member
        boost::json::basic_parser<json_null_handler> parser{options()};
        std::string batch;   // written, not yet parsed: under batch_size bytes
    };
    std::unique_ptr<state> state_;   // a pointer keeps the reader movable (basic_parser is not)
};

/// Reads a JSON text of tool calls from its first byte (`{` or `[`) to its end. The bytes of a
/// call object are the call's (content of a tool_call segment, syntax of a file tool); the bytes
/// around calls are syntax. The call's arguments value streams as argument fragments (raw, or
/// decoded when it is a JSON string holding the object); for a file or shell tool named before
/// its arguments, it is decoded instead (json_file_arguments), and one whose shape waits is read
/// as a tool_call up to its arguments' first member (json_first_member), which settles it, a file
/// tool then decoding the arguments from their start. At the call's end: a call without
/// a name, arguments that are neither an object nor a string holding one (null counts as none),
/// or a call object that is not valid JSON (validated as it streams, file tools too) END
/// `invalid_arguments`. So does a call whose JSON the `stop` marker ends outside a string (the
/// model closed the call before its object): the text ends there, and its owner reads on.
class json_call_block {
public:
    /// `stop`: the marker that follows the JSON (json_stop). `end_at_close`: a call ENDs where
    /// its object closes; else its status waits in `finished()` for the owner's end_finished()
    /// (a format whose closing marker follows). `keyed`: a call object is `{"NAME": ARGUMENTS}`;
    /// else its `name_key` member names the tool (json_call_tracker). `needs_arguments`: a call
    /// object without an arguments member is invalid (else its arguments are `{}`).
    void begin(json_call_layout layout, json_stop stop = {}, bool end_at_close = true, bool keyed = false,
               std::string_view name_key = "name", bool needs_arguments = false)
    {
        tracker_.reset(layout, keyed, name_key, stop);
        needs_arguments_ = needs_arguments;
        in_call_ = done_ = finished_ = false;
        end_at_close_ = end_at_close;
        mode_ = mode::none;
    }

    bool done() const noexcept { return done_; }

    /// A call object closed and waits for end_finished().
    bool finished() const noexcept { return finished_; }

    /// ENDs the call that finished.
    template<emitter W>
    void end_finished(block_context<W>& ctx)
    {
        finished_ = false;
        ctx.call.end(ctx.out, failure_.empty() ? segment_status::complete : segment_status::invalid_arguments,
                     failure_);
    }

    /// Reads the whole buffer, or up to the end of the JSON text.
    template<emitter W>
    bool step(block_context<W>& ctx)
    {
        const std::string_view v = ctx.view();
        std::size_t pos = 0;
        std::size_t mark = 0;
        for (;;) {
            const auto s = tracker_.advance(v, pos, v.size());
            route(v.substr(mark, s.boundary - mark), ctx);
            mark = s.boundary;
            pos = s.next;
            using event = json_call_tracker::event;
            switch (s.what) {
            case event::none: ctx.consume(mark); return mark > 0;
            case event::call_begin:
                in_call_ = true;
                mode_ = mode::none;
                failure_ = {};
                validator_.reset();
                validate_file_ = false;
                ctx.call.begin(segment_type::tool_call, {}, {}, true, ctx.out);
                break;
            case event::name: ctx.call.name(tracker_.name(), ctx.out); break;
            case event::arguments_begin: begin_arguments(ctx); break;
            case event::arguments_end:
                probing_ = false;   // no member: the frame makes an ordinary call
                settle_validator();
                if ((mode_ == mode::string || mode_ == mode::file_string) && !string_.complete())
                    failure_ = "arguments string is not valid JSON";
                file_done_ = mode_ == mode::file || mode_ == mode::file_string;
                mode_ = mode::none;
                break;
            case event::call_end: end_call(ctx); break;
            case event::stopped:
                if (in_call_) {
                    failure_ = "the call closed inside its JSON";
                    end_call(ctx);
                }
                [[fallthrough]];
            case event::done:
                done_ = true;
                ctx.consume(mark);
                return true;
            }
        }
    }

    /// End of stream: a prefix of the stop held at the end is read as what it stands in.
    template<emitter W>
    void finalize(block_context<W>& ctx)
    {
        if (done_)
            return;
        route(ctx.view(), ctx);
        ctx.consume(ctx.view().size());
    }

    void reset() noexcept
    {
        in_call_ = done_ = finished_ = probing_ = false;
        mode_ = mode::none;
        validate_file_ = false;
        file_.reset();
    }

private:
    enum class mode { none, raw, string, file, file_string };

    template<emitter W>
    void begin_arguments(block_context<W>& ctx)
    {
        ctx.call.fix_type();
        const bool file = ctx.call.is_file_tool();
        const bool string = tracker_.arguments() == json_call_tracker::arguments_kind::string;
        mode_ = string ? (file ? mode::file_string : mode::string) : (file ? mode::file : mode::raw);
        file_done_ = false;
        if (string) {
            string_.reset();
            leading_space_ = true;
        }
        if (file)
            file_.begin(ctx.call.type());
        validate_file_ = mode_ == mode::file;
        probing_ = ctx.call.shape_pending();
        if (probing_)
            first_member_.reset();
    }

    // While the shape waits, the arguments go as a tool_call's up to the byte that shows their
    // first member (first_member_), in pieces the frame holds (json_file_arguments::read) and,
    // inside a string, one byte at a time (a decoded byte does not say which raw byte made it):
    // the shape settles at the same input byte whatever the chunking. A file tool then decodes
    // the arguments from their start; what came is held, a file's syntax as a tool_call's content.
    // Returns the bytes left, read as the settled call's.
    template<emitter W>
    std::string_view probe(std::string_view bytes, block_context<W>& ctx)
    {
        while (!bytes.empty() && ctx.call.shape_pending()) {
            const bool string = mode_ == mode::string;
            std::size_t n = string ? 1 : std::min(bytes.size(), std::max<std::size_t>(ctx.call.hold_room(), 1));
            const std::string_view json = string ? decode(bytes.substr(0, 1)) : bytes.substr(0, n);
            const std::size_t read = first_member_.feed(json);
            if (!string)
                n = read;   // up to the byte that shows the member
            validator_.write(bytes.substr(0, n));
            ctx.call.add(string ? byte_role::call_text : byte_role::argument_text, bytes.substr(0, n), ctx.out);
            if (string)
                ctx.call.add(byte_role::argument, json, ctx.out);
            bytes.remove_prefix(n);
            if (first_member_.known() && ctx.call.shape_pending() && ctx.call.member(first_member_.key(), ctx.out)) {
                mode_ = string ? mode::file_string : mode::file;   // the validator reads on as it began
                file_.begin(ctx.call.type());
                file_.write(first_member_.json(), ctx.call, ctx.out);
            }
        }
        probing_ = ctx.call.shape_pending();   // the member may come in the next bytes
        return bytes;
    }

    // A file tool's arguments object is parsed by its decoder, which is stricter than the
    // validator: when it read them cleanly the validator reads `{}` in their place (the verdict
    // on the call object is the same), else their raw text, so the verdict never depends on it.
    void settle_validator()
    {
        if (!std::exchange(validate_file_, false))
            return;
        if (file_.decoded_cleanly())
            validator_.write("{}");
        else
            file_.raw().for_each_piece([this](std::string_view piece) { validator_.write(piece); });
    }

    template<emitter W>
    void route(std::string_view bytes, block_context<W>& ctx)
    {
        if (bytes.empty())
            return;
        if (!in_call_) {
            ctx.out.markup(bytes);
            return;
        }
        if (probing_ && (bytes = probe(bytes, ctx)).empty())
            return;
        if (mode_ != mode::file || !validate_file_)   // see settle_validator()
            validator_.write(bytes);
        switch (mode_) {
        case mode::none: ctx.call.add(byte_role::call_text, bytes, ctx.out); return;
        case mode::raw: ctx.call.add(byte_role::argument_text, bytes, ctx.out); return;
        case mode::file: file_.read(bytes, ctx.call, ctx.out, [](std::string_view raw) { return raw; }); return;
        case mode::file_string:
            file_.read(bytes, ctx.call, ctx.out, [this](std::string_view raw) { return decode(raw); });
            return;
        case mode::string:
            ctx.call.add(byte_role::call_text, bytes, ctx.out);
            ctx.call.add(byte_role::argument, decode(bytes), ctx.out);
            return;
        }
    }

    // The arguments JSON a piece of a JSON string holding it decodes to.
    std::string_view decode(std::string_view raw)
    {
        decoded_.clear();
        string_.append(raw, decoded_);
        std::string_view d = decoded_;
        if (leading_space_) {   // the arguments' JSON starts at its first non-blank character
            d = skip_blanks(d);
            leading_space_ = d.empty();
        }
        return d;
    }

    template<emitter W>
    void end_call(block_context<W>& ctx)
    {
        in_call_ = probing_ = false;
        using kind = json_call_tracker::arguments_kind;
        settle_validator();
        if (failure_.empty() && !validator_.finish())
            failure_ = "tool call is not valid JSON";
        if (failure_.empty() && tracker_.arguments() == kind::other)
            failure_ = "arguments are not a JSON object";
        if (failure_.empty() && needs_arguments_ && tracker_.arguments() == kind::none)
            failure_ = "tool call has no arguments";
        if (std::exchange(file_done_, false)) {
            std::string why = file_.finish(ctx.out);
            if (failure_.empty())
                failure_ = std::move(why);
        } else {
            file_.reset();
            const segment_ref ref = ctx.call.ensure_started(ctx.out);
            if (failure_.empty() && !ctx.out.metadata(ref).contains("tool_name"))
                failure_ = make_error_code(error::missing_tool_name).message();
        }
        finished_ = true;
        if (end_at_close_)
            end_finished(ctx);
    }

    json_call_tracker tracker_;
    json_validator validator_;
    json_string_decoder string_;
    json_file_arguments file_;
    json_first_member first_member_;
    std::string decoded_;   // scratch: a decoded piece of arguments written as a string
    std::string failure_;   // why the current call's arguments are unusable
    mode mode_ = mode::none;
    bool in_call_ = false;
    bool done_ = false;
    bool file_done_ = false;      // a file tool's arguments were read by its decoder
    bool finished_ = false;
    bool end_at_close_ = true;
    bool leading_space_ = false;
    bool validate_file_ = false;  // a file tool's arguments, not yet told to the validator
    bool probing_ = false;        // the arguments are read up to their first member (probe())
    bool needs_arguments_ = false;  // a call without arguments is invalid
};

} // namespace toolstream::detail
