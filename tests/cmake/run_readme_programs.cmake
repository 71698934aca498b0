# Builds the README's programs (a no-op when the test build already did) and runs each with INPUT
# on its standard input; fails when one does not compile, exits non-zero or times out.
#   cmake -DBUILD_DIR=... -DPROGRAMS=a;b -DINPUT=file -P run_readme_programs.cmake
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BUILD_DIR}" --target toolstream_readme_programs
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "a README.md program does not compile (see the compiler output above)")
endif()
foreach(program IN LISTS PROGRAMS)
    execute_process(COMMAND "${program}" INPUT_FILE "${INPUT}" RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message(STATUS "${program}:\n${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${program} (a README.md program) failed: ${rc}")
    endif()
endforeach()
