// boost::json::parse for untrusted argument text, without the non-finite numbers Boost.JSON
// 1.81 can produce from valid JSON. JSON has neither NaN nor Infinity, and Boost's serializer
// writes them as the bare words `NaN` and `Infinity`, so such a value would make every event
// and invocation that carries it invalid JSON (and, NaN being unequal to itself, outputs that
// should be equal would differ).
//
// - A zero with an exponent past 308 (`0e400`, `-0.0e887`) is read as NaN: it is 0, and becomes 0.
// - A number past the double range (`1e400`) is read as ±Infinity: the text is refused with
//   boost::json::error::exponent_overflow, the error Boost itself gives for larger exponents.
#pragma once

#include <toolstream/detail/config.hpp>

#include <boost/json/error.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/value.hpp>

#include <string_view>

namespace toolstream::detail {

/// Sets every NaN in `v` to 0; false if `v` holds an infinity. Iterative: the depth is the
/// caller's max_depth, which may be large.
TOOLSTREAM_DECL bool repair_non_finite(boost::json::value& v);

/// boost::json::parse, then repair_non_finite(); a value holding an infinity is an error.
TOOLSTREAM_DECL boost::json::value parse_json(std::string_view text, boost::system::error_code& ec,
                                              const boost::json::parse_options& options = {});

} // namespace toolstream::detail

#if !defined(TOOLSTREAM_SEPARATE_COMPILATION)
#include <toolstream/detail/impl/parse_json.hpp>
#endif
