// JSON text for a Vertex AI streamed function call, built from its `partialArgs` pieces.
#pragma once

#include <toolstream/detail/compact_json.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace toolstream::detail {

/// Turns the `partialArgs` of one streamed Gemini call (`{jsonPath, stringValue | numberValue |
/// boolValue | nullValue, willContinue}`) into text deltas whose concatenation is the compact
/// JSON of the final arguments.
///
/// It keeps the chain of containers left open by the previous leaf and writes only the way from
/// there to the next leaf: closing what the new path leaves, then `,`, `"key":`, `{` or `[` for
/// what it enters. Each piece costs time in its path and value only; nothing written is re-read.
///
/// - A string leaf leaves its closing quote pending. A later `stringValue` for the same
///   `jsonPath` continues it (Gemini streams a string as pieces that end with a `""` piece); the
///   quote is written before the next leaf, or by close().
/// - Array indexes only mark element boundaries: a different index starts the next element.
/// - A path that revisits a closed container reopens it (a duplicate key in the text): the
///   wire never does this, and streamed text cannot be taken back.
class gemini_partial_args {
public:
    /// Appends the text for one `partialArgs` element to `out`. Elements without a value, or
    /// whose path is `$` itself, malformed, or starts with an index, are ignored.
    void add(const boost::json::object& arg, std::string& out)
    {
        const auto* path_value = arg.if_contains("jsonPath");
        if (path_value == nullptr || !path_value->is_string())
            return;
        const std::string_view path = path_value->get_string();

        const boost::json::value* value = nullptr;
        bool is_string = false;
        if (const auto* s = arg.if_contains("stringValue"); s != nullptr && s->is_string()) {
            value = s;
            is_string = true;
        } else if (const auto* n = arg.if_contains("numberValue"); n != nullptr && n->is_number()) {
            value = n;
        } else if (const auto* b = arg.if_contains("boolValue"); b != nullptr && b->is_bool()) {
            value = b;
        } else if (const auto* z = arg.if_contains("nullValue"); z != nullptr) {
            value = z;   // `nullValue` holds the enum NULL_VALUE, or null: either way a JSON null
        }
        if (value == nullptr)
            return;
        add_leaf(path, is_string ? std::string_view(value->get_string()) : std::string_view(), is_string,
                 [value](std::string& o) {
                     if (value->is_number())
                         append_json_number(o, *value);
                     else if (value->is_bool())
                         o += value->get_bool() ? "true" : "false";
                     else
                         o += "null";
                 },
                 out);
    }

    /// As add(), for a piece already read: its path, and its string value (`is_string`) or a
    /// writer of its scalar's JSON text (a number as append_json_number writes it, true, false
    /// or null).
    template<class WriteScalar>
    void add_leaf(std::string_view path, std::string_view string_value, bool is_string, WriteScalar&& write_scalar,
                  std::string& out)
    {
        if (is_string && string_open_ && path == string_path_) {
            append_json_escaped(out, string_value);
            return;
        }
        if (!parse_path(path))
            return;
        if (string_open_) {
            out += '"';
            string_open_ = false;
        }
        if (depth_ == 0) {
            out += '{';
            push_frame(false);
        }

        // frames_[i] (i >= 1) was entered through segs_[i - 1]; keep those still on the path.
        const std::size_t leaf = segs_.size() - 1;
        std::size_t keep = 1;
        while (keep < depth_ && keep - 1 < leaf && enters(frames_[keep], segs_[keep - 1], segs_[keep]))
            ++keep;
        while (depth_ > keep) {
            --depth_;
            out += frames_[depth_].is_array ? ']' : '}';
        }
        for (std::size_t i = keep - 1; i < leaf; ++i) {
            open_member(segs_[i], out);
            auto& f = push_frame(segs_[i + 1].is_index);
            f.key.assign(segs_[i].key);
            f.index = segs_[i].index;
            out += f.is_array ? '[' : '{';
        }
        open_member(segs_[leaf], out);

        if (is_string) {
            out += '"';
            append_json_escaped(out, string_value);
            string_open_ = true;
            string_path_.assign(path);
        } else {
            write_scalar(out);
        }
    }

    /// Appends the closing text (`{}` when nothing was written) and resets for the next call.
    void close(std::string& out)
    {
        if (string_open_) {
            out += '"';
            string_open_ = false;
        }
        if (depth_ == 0)
            out += "{}";
        while (depth_ > 0) {
            --depth_;
            out += frames_[depth_].is_array ? ']' : '}';
        }
    }

private:
    /// One step of a path: an object member or an array element.
    struct segment {
        std::string_view key;
        std::size_t index = 0;
        bool is_index = false;
    };

    /// An open container and the step that entered it from its parent.
    struct frame {
        std::string key;
        std::size_t index = 0;
        bool is_array = false;
        bool has_children = false;
    };

    /// Splits `$.a.b[0]['c d']` into segs_ (names are views into `path`). Quoted names with
    /// escapes are not supported.
    bool parse_path(std::string_view path)
    {
        segs_.clear();
        if (path.empty() || path[0] != '$')
            return false;
        std::size_t i = 1;
        while (i < path.size()) {
            if (path[i] == '.') {
                std::size_t j = i + 1;
                while (j < path.size() && path[j] != '.' && path[j] != '[')
                    ++j;
                if (j == i + 1)
                    return false;
                segs_.push_back({path.substr(i + 1, j - i - 1), 0, false});
                i = j;
            } else if (path[i] == '[' && i + 1 < path.size() && (path[i + 1] == '\'' || path[i + 1] == '"')) {
                const std::size_t end = path.find(path[i + 1], i + 2);
                if (end == std::string_view::npos || end + 1 >= path.size() || path[end + 1] != ']')
                    return false;
                const auto name = path.substr(i + 2, end - i - 2);
                if (name.find('\\') != std::string_view::npos)
                    return false;
                segs_.push_back({name, 0, false});
                i = end + 2;
            } else if (path[i] == '[') {
                std::size_t index = 0;
                const auto [end, ec] = std::from_chars(path.data() + i + 1, path.data() + path.size(), index);
                if (ec != std::errc{} || end == path.data() + path.size() || *end != ']')
                    return false;
                segs_.push_back({{}, index, true});
                i = static_cast<std::size_t>(end - path.data()) + 1;
            } else {
                return false;
            }
        }
        return !segs_.empty() && !segs_.front().is_index;   // the arguments are an object
    }

    /// Whether open frame `f` is the container that `step` enters, of the kind `next` needs.
    static bool enters(const frame& f, const segment& step, const segment& next)
    {
        if (f.is_array != next.is_index)
            return false;
        return step.is_index ? f.index == step.index : f.key == step.key;
    }

    /// Writes the separator and, inside an object, the key for a new child of the innermost frame.
    void open_member(const segment& step, std::string& out)
    {
        auto& parent = frames_[depth_ - 1];
        if (parent.has_children)
            out += ',';
        parent.has_children = true;
        if (!parent.is_array) {
            out += '"';
            append_json_escaped(out, step.key);
            out += "\":";
        }
    }

    /// Opens the next frame, reusing a slot (and its key's capacity) left by an earlier one.
    frame& push_frame(bool is_array)
    {
        if (depth_ == frames_.size())
            frames_.emplace_back();
        auto& f = frames_[depth_++];
        f.key.clear();
        f.index = 0;
        f.is_array = is_array;
        f.has_children = false;
        return f;
    }

    std::vector<segment> segs_;   // scratch for the path being added
    std::vector<frame> frames_;   // frames_[0] is the root object; the first depth_ are open
    std::size_t depth_ = 0;
    std::string string_path_;     // jsonPath of the last leaf, when it is a string
    bool string_open_ = false;    // that string's closing quote is still to be written
};

} // namespace toolstream::detail
