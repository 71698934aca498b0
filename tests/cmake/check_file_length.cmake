# Fails when a source file has 400 lines or more: every file stays readable in one sitting. Code
# only: files with a code extension under the project's source directories, not the installed
# node_modules, build trees or benchmarks/results/ (generated); data files (tests/data, fixtures)
# have other extensions. -DSOURCE_DIR=<the project's root>.
set(max_lines 400)
set(directories include src programs examples tests benchmarks fuzz scripts)
set(extensions hpp cpp h cmake sh py js mjs awk)

set(patterns "")
foreach(directory IN LISTS directories)
    foreach(extension IN LISTS extensions)
        list(APPEND patterns "${SOURCE_DIR}/${directory}/*.${extension}")
    endforeach()
endforeach()
file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}" ${patterns})
# On paths relative to SOURCE_DIR, so that a checkout under a directory called build-... still counts.
list(FILTER files EXCLUDE REGEX "(^|/)(node_modules|CMakeFiles|build([-_][^/]*)?)/")
list(FILTER files EXCLUDE REGEX "^benchmarks/results/")
list(SORT files)

set(too_long "")
foreach(file IN LISTS files)
    # Not file(STRINGS), which drops empty lines: every line end counts, and a last line without one.
    file(READ "${SOURCE_DIR}/${file}" content)
    string(REPLACE "\n" "" joined "${content}")
    string(LENGTH "${content}" length)
    string(LENGTH "${joined}" joined_length)
    math(EXPR lines "${length} - ${joined_length}")
    if(NOT content STREQUAL "" AND NOT content MATCHES "\n$")
        math(EXPR lines "${lines} + 1")
    endif()
    if(lines GREATER_EQUAL max_lines)
        string(APPEND too_long "\n  ${file}: ${lines} lines")
    endif()
endforeach()

list(LENGTH files count)
if(too_long)
    message(FATAL_ERROR "source files of ${max_lines} lines or more (split them by theme):${too_long}")
endif()
message(STATUS "checked ${count} source files: all under ${max_lines} lines")
