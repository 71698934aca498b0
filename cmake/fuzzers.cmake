# The libFuzzer targets of fuzz/, one executable per fuzz/fuzz_*.cpp, for the `fuzz` preset (Clang).
# fuzz/run.sh builds the same sources with the same flags on its own and runs the campaign.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TOOLSTREAM_BUILD_FUZZERS needs Clang (libFuzzer); use the fuzz preset")
endif()
# The fuzzers compile the library inline, so that the inputs' every path is instrumented (the fuzz
# preset and fuzz/run.sh do): the compiled part's object is built without the fuzzer's flags.
if(TOOLSTREAM_SEPARATE_COMPILATION)
    message(WARNING "TOOLSTREAM_BUILD_FUZZERS: the library's compiled part is not instrumented; "
                    "configure with -DTOOLSTREAM_SEPARATE_COMPILATION=OFF (the fuzz preset does)")
endif()
set(toolstream_fuzz_flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
# toolstream_fuzz_provider serves every provider of registry.hpp: TOOLSTREAM_FUZZ_PROVIDER=<name>
# in its environment picks one.
file(GLOB toolstream_fuzz_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/fuzz/fuzz_*.cpp)
set(toolstream_fuzz_targets "")
function(toolstream_add_fuzzer name source)
    add_executable(toolstream_${name} ${source})
    target_include_directories(toolstream_${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
    target_link_libraries(toolstream_${name} PRIVATE toolstream::toolstream toolstream_dev_flags)
    target_compile_options(toolstream_${name} PRIVATE ${toolstream_fuzz_flags})
    target_link_options(toolstream_${name} PRIVATE ${toolstream_fuzz_flags})
    set(toolstream_fuzz_targets ${toolstream_fuzz_targets} toolstream_${name} PARENT_SCOPE)
endfunction()
foreach(source IN LISTS toolstream_fuzz_sources)
    get_filename_component(stem ${source} NAME_WE)
    toolstream_add_fuzzer(${stem} ${source})
endforeach()
add_custom_target(toolstream_fuzzers DEPENDS ${toolstream_fuzz_targets})
