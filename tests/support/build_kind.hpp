// What kind of build the tests run in, for the few tests that must act on it.
#pragma once

namespace toolstream::test {

/// True under AddressSanitizer (GCC defines __SANITIZE_ADDRESS__, Clang answers __has_feature).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif
#else
inline constexpr bool sanitized_build = false;
#endif

} // namespace toolstream::test
