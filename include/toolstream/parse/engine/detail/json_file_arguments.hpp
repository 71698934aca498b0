// The JSON arguments of a file or shell tool written in model text, decoded as they stream: the
// body string becomes the segment's content, `path` and the tool's options its metadata.
#pragma once

#include <toolstream/detail/ascii.hpp>
#include <toolstream/detail/block_text.hpp>
#include <toolstream/detail/file_arguments_decoder.hpp>
#include <toolstream/parse/engine/call_frame.hpp>
#include <toolstream/tool_syntax.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace toolstream::detail {

/// Feeds a file or shell call's arguments JSON (`{"path":…,"content":…}`, keys in any order) to a
/// file_arguments_decoder. The decoded body goes to the call frame as content; the path (for the
/// tools that require one) and the tool_syntax row's extra options (booleans and numbers) as
/// metadata. The raw text is kept so that a decoding error leaves the same body at any chunking.
class json_file_arguments {
public:
    /// A new call of the file or shell segment `type`.
    void begin(segment_type type, std::size_t max_depth = 64)
    {
        syntax_ = find_tool_syntax(type);
        max_depth_ = max_depth;
        decoder_ = std::make_unique<file_arguments_decoder>(syntax_->content_argument, max_depth);
        raw_.clear();
    }

    /// The next piece of the arguments JSON.
    template<emitter W>
    void write(std::string_view json, call_frame& call, W& out)
    {
        if (!decoder_ || json.empty())
            return;
        // The raw text serves END's verdict (json_call_block) and its error message; a writer that
        // keeps no file body (keep_file_bodies off) does without both, so that nothing grows.
        bool keep = true;
        if constexpr (requires { out.keeps_file_bodies(); })
            keep = out.keeps_file_bodies() || syntax_->type == segment_type::run_bash;
        if (keep)
            raw_.append(json);
        sink<W> s{this, &call, &out};
        decoder_->write(json, callbacks(s));   // the body comes up to the byte in error, at any chunking
    }

    /// Reports the raw `bytes` of the arguments to `call` as call_text and reads them, in pieces
    /// of at most the frame's hold_room(): a path read from a piece is in START whatever the
    /// chunking. `json_of(piece)` is the arguments JSON a raw piece holds (itself, or its decoding
    /// when the arguments are a JSON string).
    template<emitter W, class JsonOf>
    void read(std::string_view bytes, call_frame& call, W& out, JsonOf&& json_of)
    {
        while (!bytes.empty()) {
            const std::size_t n = std::min(bytes.size(), std::max<std::size_t>(call.hold_room(), 1));
            const std::string_view piece = bytes.substr(0, n);
            call.add(byte_role::call_text, piece, out);
            write(json_of(piece), call, out);
            bytes.remove_prefix(n);
        }
    }

    /// The arguments read so far, as written.
    const block_text& raw() const noexcept { return raw_; }

    /// True when the arguments were read to their closing brace without an error.
    bool decoded_cleanly() const noexcept { return decoder_ && decoder_->done() && !decoder_->error(); }

    /// Why the arguments are unusable (empty when they decoded to the end); forgets the call.
    template<emitter W>
    std::string finish(W& out)
    {
        error_code ec = decoder_ ? decoder_->error() : error_code{};
        if (ec && !raw_.empty() && ec.category() == boost::json::make_error_code(boost::json::error::syntax).category()) {
            // Named as a whole parse names it: Boost.JSON 1.81 words some \u errors differently
            // when it resumes inside the escape.
            boost::json::parse_options options;
            options.max_depth = max_depth_;
            error_code whole;
            (void)boost::json::parse(raw_.joined(), whole, {}, options);   // a failed call's only copy
            if (whole)
                ec = whole;
        }
        if (ec == boost::json::error::too_deep) {
            ec = error::nesting_too_deep;
            out.report(ec);
        }
        std::string why = ec ? ec.message() : std::string();
        if (!ec && decoder_ && !decoder_->done())
            why = "arguments JSON ends before its closing brace";
        reset();
        return why;
    }

    void reset() noexcept
    {
        decoder_.reset();
        raw_.clear();
    }

private:
    template<emitter W>
    struct sink {
        json_file_arguments* self;
        call_frame* call;
        W* out;
    };

    template<emitter W>
    static file_argument_callbacks callbacks(sink<W>& s)
    {
        return {&s,
                [](void* p, std::string_view piece) {
                    auto& k = *static_cast<sink<W>*>(p);
                    k.call->add(byte_role::decoded, piece, *k.out);
                },
                [](void* p, std::string_view path) {
                    auto& k = *static_cast<sink<W>*>(p);
                    if (k.self->syntax_->required_metadata == "path")
                        k.call->set("path", boost::json::value(path), *k.out);
                },
                [](void* p, std::string_view key, const boost::json::value& v) {
                    auto& k = *static_cast<sink<W>*>(p);
                    for (std::string_view extra : k.self->syntax_->extra_metadata)
                        if (!extra.empty() && extra == key)
                            k.call->set(key, v, *k.out);
                }};
    }

    std::unique_ptr<file_arguments_decoder> decoder_;   // a pointer keeps readers movable
    const tool_syntax* syntax_ = nullptr;
    std::size_t max_depth_ = 64;
    block_text raw_;   // the arguments so far: beside the body's other copies, never reallocated
};

/// The JSON arguments of a call whose shape waits for their first member
/// (call_frame::shape_pending), read up to the byte that shows that member's key: its closing
/// quote. The JSON read is kept, so that json_file_arguments reads it from its start when the
/// member makes the call a file tool (the frame holds it meanwhile, within its name limit). A
/// first member that is not a plain key (an escape in it, 64 bytes or more, no string where it
/// belongs) is no tool_syntax row's, shown by the first byte that breaks it.
class json_first_member {
public:
    void reset() noexcept
    {
        json_.clear();
        key_.clear();
        state_ = state::before;
    }

    /// Reads the arguments' next bytes up to the one that shows the first member; returns how
    /// many it read (all of them while that member is unknown).
    std::size_t feed(std::string_view json)
    {
        std::size_t i = 0;
        while (i < json.size() && state_ != state::known)
            step(json[i++]);
        json_.append(json.substr(0, i));
        return i;
    }

    bool known() const noexcept { return state_ == state::known; }
    std::string_view key() const noexcept { return key_; }
    /// The arguments' JSON read so far.
    std::string_view json() const noexcept { return json_; }

private:
    enum class state { before, open, key, known };
    static constexpr std::size_t max_key = 64;

    void step(char c)
    {
        const bool blank = is_blank(c);
        switch (state_) {
        case state::before: state_ = c == '{' ? state::open : blank ? state_ : none(); return;
        case state::open: state_ = c == '"' ? state::key : blank ? state_ : none(); return;
        case state::key:
            if (c == '"')
                state_ = state::known;
            else if (c == '\\' || key_.size() == max_key)
                state_ = none();
            else
                key_.push_back(c);
            return;
        case state::known: return;
        }
    }

    state none() noexcept
    {
        key_.clear();
        return state::known;
    }

    std::string json_;
    std::string key_;
    state state_ = state::before;
};

} // namespace toolstream::detail
