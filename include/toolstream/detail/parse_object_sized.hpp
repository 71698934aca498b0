// Parses a tool's argument text into a boost::json::object whose one large string (a file body)
// is built in place, at its known size: boost::json::parse gathers an escaped string's pieces on
// its own stack and then copies them into the value, so a body of N bytes costs 2N to 3N there
// on top of the text and the result.
#pragma once

#include <toolstream/detail/config.hpp>
#include <toolstream/error.hpp>

#include <boost/json/parse_options.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <string_view>

namespace toolstream::detail {

/// parse_json(), with the top-level string member `sized_key` allocated at `sized_bytes` (its
/// decoded size, when the caller knows it) instead of grown and copied.
TOOLSTREAM_DECL boost::json::value parse_json_sized(std::string_view text, error_code& ec,
                                           const boost::json::parse_options& options,
                                           std::string_view sized_key, std::size_t sized_bytes);

} // namespace toolstream::detail

#if !defined(TOOLSTREAM_SEPARATE_COMPILATION)
#include <toolstream/detail/impl/parse_object_sized.hpp>
#endif
