# `cmake --install` of the build tree puts the programs in bin/, and the installed
# toolstream-replay runs.   cmake -DBUILD_DIR=... -DPREFIX=... -P install_programs.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE rc
                OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${rc})")
endif()
execute_process(COMMAND "${PREFIX}/bin/toolstream-replay" --version RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^toolstream-replay [0-9]+\\.[0-9]+\\.[0-9]+\n$")
    message(FATAL_ERROR "the installed toolstream-replay --version gave ${rc}: ${out}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
