// One include for Catch2 v2 (Debian) and v3 (vcpkg, Conan); scripts/check-catch2-v3.sh builds and runs
// the tests against v3 (CI does too).
#pragma once
#if !defined(TOOLSTREAM_CATCH2_MAJOR)
#  if __has_include(<catch2/catch_test_macros.hpp>)
#    define TOOLSTREAM_CATCH2_MAJOR 3
#  else
#    define TOOLSTREAM_CATCH2_MAJOR 2
#  endif
#endif
#if TOOLSTREAM_CATCH2_MAJOR >= 3
#  include <catch2/catch_test_macros.hpp>
#  include <catch2/catch_template_test_macros.hpp>
#  include <catch2/generators/catch_generators.hpp>
#  include <catch2/matchers/catch_matchers_string.hpp>
#else
#  include <catch2/catch.hpp>
#endif
