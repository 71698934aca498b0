# The libFuzzer targets of fuzz/, one executable per fuzz/fuzz_*.cpp, for the `fuzz` preset (Clang).
# fuzz/run.sh builds the same sources with the same flags on its own and runs the campaign.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TOOLSTREAM_BUILD_FUZZERS needs Clang (libFuzzer); use the fuzz preset")
endif()
set(toolstream_fuzz_flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
file(GLOB toolstream_fuzz_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/fuzz/fuzz_*.cpp)
set(toolstream_fuzz_targets "")
foreach(source IN LISTS toolstream_fuzz_sources)
    get_filename_component(stem ${source} NAME_WE)
    add_executable(toolstream_${stem} ${source})
    target_include_directories(toolstream_${stem} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
    target_link_libraries(toolstream_${stem} PRIVATE toolstream::toolstream toolstream_dev_flags)
    target_compile_options(toolstream_${stem} PRIVATE ${toolstream_fuzz_flags})
    target_link_options(toolstream_${stem} PRIVATE ${toolstream_fuzz_flags})
    list(APPEND toolstream_fuzz_targets toolstream_${stem})
endforeach()
add_custom_target(toolstream_fuzzers DEPENDS ${toolstream_fuzz_targets})
