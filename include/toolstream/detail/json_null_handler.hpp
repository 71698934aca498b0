// A boost::json::basic_parser handler that builds nothing: what a parse that only validates needs.
#pragma once

#include <toolstream/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace toolstream::detail {

/// A basic_parser handler that builds nothing: validation only.
struct json_null_handler {
    static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
    static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
    bool on_document_begin(error_code&) { return true; }
    bool on_document_end(error_code&) { return true; }
    bool on_object_begin(error_code&) { return true; }
    bool on_object_end(std::size_t, error_code&) { return true; }
    bool on_array_begin(error_code&) { return true; }
    bool on_array_end(std::size_t, error_code&) { return true; }
    bool on_key_part(std::string_view, std::size_t, error_code&) { return true; }
    bool on_key(std::string_view, std::size_t, error_code&) { return true; }
    bool on_string_part(std::string_view, std::size_t, error_code&) { return true; }
    bool on_string(std::string_view, std::size_t, error_code&) { return true; }
    bool on_number_part(std::string_view, error_code&) { return true; }
    bool on_int64(std::int64_t, std::string_view, error_code&) { return true; }
    bool on_uint64(std::uint64_t, std::string_view, error_code&) { return true; }
    bool on_double(double, std::string_view, error_code&) { return true; }
    bool on_bool(bool, error_code&) { return true; }
    bool on_null(error_code&) { return true; }
    bool on_comment_part(std::string_view, error_code&) { return true; }
    bool on_comment(std::string_view, error_code&) { return true; }
};

} // namespace toolstream::detail
