# Fails when a co_await is an operand of `||` or `&&`. GCC 12 lowers such an expression wrongly
# at -O0: the gateway's upstream reads ran twice, losing and repeating bytes. One co_await per
# statement, its result tested after it. `co_await (a || b)` (Asio's awaitable operators, one
# awaitable made of two) is not that pattern and is allowed.
cmake_policy(SET CMP0007 NEW)   # empty lines stay in the list, so line numbers hold
file(GLOB_RECURSE sources "${SOURCE_DIR}/programs/*.hpp" "${SOURCE_DIR}/programs/*.cpp"
     "${SOURCE_DIR}/tests/*.hpp" "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/examples/*.cpp"
     "${SOURCE_DIR}/include/*.hpp")
set(found "")
foreach(source IN LISTS sources)
    file(READ "${source}" text)
    if(NOT text MATCHES "co_await")
        continue()
    endif()
    string(REPLACE ";" "<semicolon>" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    list(LENGTH lines count)
    set(number 0)
    foreach(line IN LISTS lines)
        math(EXPR number "${number} + 1")
        string(REGEX REPLACE "//.*" "" line "${line}")   # comments are not code
        if(NOT line MATCHES "co_await")
            continue()
        endif()
        set(next "")
        if(number LESS count)
            list(GET lines ${number} next)
        endif()
        # co_await as the right operand: `|| co_await x`, `&& !co_await x`.
        if("${line}" MATCHES "(\\|\\||&&)[ \t!(]*co_await")
            string(APPEND found "\n  ${source}:${number}: ${line}")
            continue()
        endif()
        # co_await as the left operand: the rest of its statement (this line and the next, up to
        # its `;` or `{`) has `||` or `&&`.
        string(REGEX MATCH "co_await[ \t]+[^( \t].*" rest "${line}")
        if(rest STREQUAL "")
            continue()
        endif()
        string(STRIP "${next}" next)
        set(statement "${rest} ${next}")
        string(REGEX REPLACE "(<semicolon>|\\{).*" "" statement "${statement}")
        if(statement MATCHES "\\|\\||&&")
            string(APPEND found "\n  ${source}:${number}: ${line}")
        endif()
    endforeach()
endforeach()
if(NOT found STREQUAL "")
    message(FATAL_ERROR "co_await as an operand of || or && (GCC 12 mislowers it):${found}")
endif()
list(LENGTH sources files)
message(STATUS "checked ${files} files: no co_await inside || or &&")
