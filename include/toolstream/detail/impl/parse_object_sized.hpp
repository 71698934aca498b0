// parse_json_sized's body (parse_object_sized.hpp): inline in every TU, or compiled once by
// <toolstream/src.hpp> with TOOLSTREAM_SEPARATE_COMPILATION.
#pragma once

#include <toolstream/detail/parse_json.hpp>
#include <toolstream/detail/parse_object_sized.hpp>
#include <toolstream/detail/sliced_write.hpp>

#include <boost/json/basic_parser_impl.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toolstream::detail {


/// The basic_parser handler: each value goes straight into its container; a repeated key keeps
/// the last value, as boost::json::parse does.
class sized_object_builder {
public:
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

    sized_object_builder(std::string_view sized_key, std::size_t sized_bytes)
        : sized_key_(sized_key), sized_bytes_(sized_bytes)
    {
    }

    boost::json::value& root() noexcept { return root_; }

    bool on_document_begin(error_code&) { return true; }
    bool on_document_end(error_code&) { return true; }
    bool on_object_begin(error_code&)
    {
        open_.push_back(place(boost::json::object()));
        return true;
    }
    bool on_object_end(std::size_t, error_code&) { return close(); }
    bool on_array_begin(error_code&)
    {
        open_.push_back(place(boost::json::array()));
        return true;
    }
    bool on_array_end(std::size_t, error_code&) { return close(); }
    bool on_key_part(std::string_view s, std::size_t, error_code&)
    {
        key_.append(s);
        return true;
    }
    bool on_key(std::string_view s, std::size_t, error_code&)
    {
        key_.append(s);
        keyed_ = true;
        return true;
    }
    bool on_string_part(std::string_view s, std::size_t, error_code&)
    {
        string_piece(s);
        return true;
    }
    bool on_string(std::string_view s, std::size_t, error_code&)
    {
        string_piece(s);
        in_string_ = false;
        place(boost::json::value(std::move(string_)));
        string_ = boost::json::string();
        return true;
    }
    bool on_number_part(std::string_view, error_code&) { return true; }
    bool on_int64(std::int64_t i, std::string_view, error_code&) { return scalar(i); }
    bool on_uint64(std::uint64_t u, std::string_view, error_code&) { return scalar(u); }
    bool on_double(double d, std::string_view, error_code&) { return scalar(d); }
    bool on_bool(bool b, error_code&) { return scalar(b); }
    bool on_null(error_code&) { return scalar(nullptr); }
    bool on_comment_part(std::string_view, error_code&) { return true; }
    bool on_comment(std::string_view, error_code&) { return true; }

private:
    template<class T>
    bool scalar(T v)
    {
        place(boost::json::value(v));
        return true;
    }

    void string_piece(std::string_view s)
    {
        if (!in_string_) {
            in_string_ = true;
            // The body: its decoded size is known, so it is allocated once, exactly.
            if (open_.size() == 1 && keyed_ && key_ == sized_key_ && sized_bytes_ > 0)
                string_.reserve(sized_bytes_);
        }
        string_.append(s);
    }

    // A child is placed only after its previous siblings closed, so the containers on open_
    // never move while they are open.
    boost::json::value* place(boost::json::value v)
    {
        if (open_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        boost::json::value& parent = *open_.back();
        if (parent.is_array()) {
            auto& a = parent.get_array();
            a.push_back(std::move(v));
            return &a.back();
        }
        auto& member = parent.get_object()[key_];
        member = std::move(v);
        key_.clear();
        keyed_ = false;
        return &member;
    }

    bool close()
    {
        open_.pop_back();
        return true;
    }

    std::string_view sized_key_;
    std::size_t sized_bytes_;
    boost::json::value root_;
    std::vector<boost::json::value*> open_;
    std::string key_;
    boost::json::string string_;
    bool keyed_ = false;
    bool in_string_ = false;
};

/// parse_json(), with the top-level string member `sized_key` allocated at `sized_bytes` (its
/// decoded size, when the caller knows it) instead of grown and copied.
TOOLSTREAM_DECL boost::json::value parse_json_sized(std::string_view text, error_code& ec,
                                           const boost::json::parse_options& options,
                                           std::string_view sized_key, std::size_t sized_bytes)
{
    boost::json::basic_parser<sized_object_builder> p(options, sized_key, sized_bytes);
    const std::size_t used = write_sliced(p, text, false, ec);
    if (!ec && used < text.size())
        ec = boost::json::error::extra_data;
    if (ec)
        return nullptr;
    boost::json::value v = std::move(p.handler().root());
    if (!repair_non_finite(v)) {
        ec = boost::json::error::exponent_overflow;
        return nullptr;
    }
    return v;
}

} // namespace toolstream::detail
