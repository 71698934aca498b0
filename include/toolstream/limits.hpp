// Bounds on what hostile input can make toolstream hold.
#pragma once

#include <cstddef>

namespace toolstream {

/// Limits of native (provider API) tool-call assembly. Every limit reports its error through
/// the handler's feed(); what was emitted before stays valid, and the stream goes on.
struct native_call_limits {
    /// Distinct calls per stream. Fragments of further calls are skipped (error::too_many_calls).
    std::size_t max_calls = 1024;
    /// Argument bytes of one call. Past it the call ends `invalid_arguments`
    /// (error::arguments_too_large) and its later fragments are ignored.
    std::size_t max_argument_bytes = std::size_t{64} << 20;
    /// JSON nesting of one call's arguments. Deeper arguments make the call `invalid_arguments`
    /// when it completes (error::nesting_too_deep).
    std::size_t max_depth = 64;
};

} // namespace toolstream
