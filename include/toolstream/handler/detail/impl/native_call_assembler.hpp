// Out-of-line members of toolstream::detail::native_call_assembler.
#pragma once

#include <toolstream/handler/detail/native_call_assembler.hpp>

#include <boost/json/error.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>

#include <utility>

namespace toolstream::detail {

inline native_call_assembler::call* native_call_assembler::find_or_add(std::size_t index)
{
    if (last_ != npos && calls_[last_].index == index)
        return &calls_[last_];
    if (auto it = by_index_.find(index); it != by_index_.end()) {
        last_ = it->second;
        return &calls_[last_];
    }
    if (calls_.size() >= limits_.max_calls)
        return nullptr;
    by_index_.emplace(index, calls_.size());
    calls_.emplace_back();
    calls_.back().index = index;
    last_ = calls_.size() - 1;
    return &calls_.back();
}

template<emitter Emitter>
void native_call_assembler::on_tool_call(const tool_call_delta& d, Emitter& out, std::string* takeable)
{
    call* found = find_or_add(d.index);
    if (found == nullptr) {
        out.report(error::too_many_calls);
        return;
    }
    call& c = *found;
    if (c.ended)
        return;   // the provider already completed this call, or a limit ended it
    if (c.call_id.empty())
        c.call_id = d.call_id;
    c.free_form = c.free_form || (d.free_form && c.type == kind::unnamed);
    if (c.type == kind::unnamed && !d.name.empty()) {
        c.name = d.name;
        name_known(c, out);
    }
    if (!d.arguments_delta.empty())
        append_arguments(c, d.arguments_delta, out, takeable);
    if (d.is_complete && !c.ended)
        end_call(c, segment_status::complete, out);
}

template<emitter Emitter>
void native_call_assembler::finalize(Emitter& out)
{
    for (auto& c : calls_)
        if (!c.ended)
            end_call(c, segment_status::incomplete, out);
}

template<emitter Emitter>
void native_call_assembler::name_known(call& c, Emitter& out)
{
    std::string pending = std::move(c.raw);
    c.raw.clear();
    if (!c.free_form && (c.name == "write_file" || c.name == "patch_file")) {
        c.type = kind::file;
        c.decoder = std::make_unique<file_arguments_decoder>(c.name == "write_file" ? "content" : "patch",
                                                             limits_.max_depth);
    } else {
        c.type = kind::generic;
        start_segment(c, out);
    }
    // Fragments that came before the name are replayed exactly once.
    c.received -= pending.size();
    append_arguments(c, pending, out);
}

// The argument text so far: the call's own until its segment starts, then the writer's (the
// writer keeps the fragments it is given, so the call does not keep a second copy).
template<emitter Emitter>
std::string_view native_call_assembler::raw_of(const call& c, Emitter& out)
{
    return c.segment ? out.arguments_of(*c.segment) : std::string_view(c.raw);
}

template<emitter Emitter>
void native_call_assembler::append_arguments(call& c, std::string_view fragment, Emitter& out, std::string* takeable)
{
    if (fragment.size() > limits_.max_argument_bytes - std::min(c.received, limits_.max_argument_bytes)) {
        out.report(error::arguments_too_large);
        end_call(c, segment_status::invalid_arguments, out, error::arguments_too_large);
        return;
    }
    c.received += fragment.size();
    switch (c.type) {
    case kind::unnamed:
        c.raw.append(fragment);
        return;
    case kind::generic:
        out.content(*c.segment, fragment);   // the writer keeps tool content: no second copy
        out.arguments(*c.segment, fragment);
        return;
    case kind::file:
        break;
    }
    const bool started = c.segment.has_value();   // else start_segment passes this fragment on
    if (!started) {
        // A whole file's text, taken: `fragment` views the same bytes, which pass to the writer
        // (start_segment) and stay there while the decoder reads them. Only a kept body: a
        // streamed one's text is not the writer's to keep.
        if (keep_bodies_ && c.raw.empty() && takeable != nullptr && takeable->size() >= large_buffer) {
            c.raw.swap(*takeable);
            fragment = c.raw;
        } else {
            c.raw.append(fragment);
        }
    }
    file_sink<Emitter> ctx{this, &c, &out};
    const file_argument_callbacks callbacks{
        &ctx,
        [](void* p, std::string_view piece) {
            auto& s = *static_cast<file_sink<Emitter>*>(p);
            s.self->body(*s.c, piece, *s.out);
        },
        [](void* p, std::string_view path) {
            auto& s = *static_cast<file_sink<Emitter>*>(p);
            s.c->path.emplace(path);
            s.self->start_segment(*s.c, *s.out);
        }};
    c.decoder->write(fragment, callbacks);   // a failure is kept by the decoder for end_call
    if (started)
        out.arguments(*c.segment, fragment);
}

template<emitter Emitter>
void native_call_assembler::body(call& c, std::string_view piece, Emitter& out)
{
    if (c.segment)
        out.content(*c.segment, piece);
    else
        c.held.append(piece);
}

template<emitter Emitter>
void native_call_assembler::start_segment(call& c, Emitter& out)
{
    boost::json::object metadata;
    if (!c.name.empty())
        metadata["tool_name"] = c.name;
    if (c.path)
        metadata["path"] = *c.path;
    if (c.free_form)
        metadata["free_form"] = true;
    const segment_type type = c.type != kind::file ? segment_type::tool_call
        : c.name == "write_file"                   ? segment_type::write_file
                                                   : segment_type::patch_file;
    c.segment = out.start(type, std::move(metadata), c.call_id);
    out.drop_content(*c.segment);   // the arguments hold it; the sizes are all this reads back
    if (c.type == kind::file) {
        // Room for a body that arrived whole with the bytes received so far (Gemini, Mistral):
        // END takes it as decoded here rather than decoding it again.
        if (keep_bodies_)
            out.keep_decoded_body(*c.segment, c.received);
        out.take_arguments(*c.segment, c.raw);   // the provider's fragments so far, verbatim
        std::string().swap(c.raw);
    }
    if (!c.held.empty()) {
        out.content(*c.segment, c.held);
        std::string().swap(c.held);
    }
}

template<emitter Emitter>
void native_call_assembler::end_call(call& c, segment_status status, Emitter& out, error why)
{
    if (!c.segment)
        start_segment(c, out);   // a file call without a path, or a call that never got a name
    std::string error_text;
    if (c.type == kind::unnamed) {
        out.content(*c.segment, c.raw);
        out.arguments(*c.segment, c.raw);
    }
    if (why != error{}) {
        error_text = make_error_code(why).message();
    } else if (c.type == kind::unnamed) {
        status = segment_status::invalid_arguments;
        error_text = make_error_code(error::missing_tool_name).message();
    } else if (c.type == kind::file && status == segment_status::complete) {
        if (error_code ec = c.decoder->error()) {
            status = segment_status::invalid_arguments;
            // Boost.JSON 1.81 names some errors of a \u escape differently when it resumes
            // inside it (a lone \uDC00: "illegal leading" or "trailing surrogate"): a parse of
            // the whole text names it, so that the error does not depend on the fragmentation.
            if (keep_bodies_ && ec.category() == boost::json::make_error_code(boost::json::error::syntax).category()) {
                boost::json::parse_options options;
                options.max_depth = limits_.max_depth;
                error_code whole;
                (void)boost::json::parse(raw_of(c, out), whole, {}, options);
                if (whole)
                    ec = whole;
            }
            if (ec == boost::json::error::too_deep) {
                ec = error::nesting_too_deep;
                out.report(ec);
            }
            error_text = ec.message();
        } else if (!c.decoder->done()) {
            status = segment_status::invalid_arguments;
            error_text = "arguments JSON ends before its closing brace";
        } else if (const auto body = c.decoder->body_extent()) {
            out.locate_body(*c.segment, body->first, body->second);
        }
    }
    out.end(*c.segment, status, error_text);   // the writer parses the arguments of a complete call
    c.ended = true;
    c.decoder.reset();
    std::string().swap(c.raw);
}

} // namespace toolstream::detail
