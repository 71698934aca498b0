# Passes only when SOURCE fails to compile and the first error line matches the regular expression
# on SOURCE's first line (`// expect: REGEX`): the mistake is caught, and the message names it.
#   cmake -DCXX=... -DSTD=c++20 -DINCLUDE_DIR=... [-DBOOST_INCLUDE_DIR=...] -DSOURCE=... -P compile_fails.cmake
file(STRINGS "${SOURCE}" first_line LIMIT_COUNT 1)
if(NOT first_line MATCHES "^// expect: (.+)$")
    message(FATAL_ERROR "${SOURCE} does not start with `// expect: REGEX`")
endif()
set(expect "${CMAKE_MATCH_1}")
set(flags -std=${STD} -fsyntax-only "-I${INCLUDE_DIR}")
if(BOOST_INCLUDE_DIR AND NOT BOOST_INCLUDE_DIR STREQUAL "/usr/include")
    list(APPEND flags -isystem "${BOOST_INCLUDE_DIR}")
endif()
execute_process(COMMAND "${CXX}" ${flags} "${SOURCE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled; it must not")
endif()
string(REGEX MATCH "[^\n]*error[^\n]*" first_error "${out}")
if(NOT first_error MATCHES "${expect}")
    message(FATAL_ERROR "${SOURCE} failed to compile, but its first error is not the expected one\n"
                        "expected: ${expect}\nfirst error: ${first_error}\n--- output:\n${out}")
endif()
message("${SOURCE}: rejected as expected: ${first_error}")
