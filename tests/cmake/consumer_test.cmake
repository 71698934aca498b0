# Installs toolstream into a scratch prefix, checks the layout conanfile.py and the vcpkg port rely
# on, then builds and runs test_package/ against it through a plain find_package.
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DVERSION=x.y.z -P consumer_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
function(run_step)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "step failed (${rc}): ${ARGV}")
    endif()
endfunction()
# Configure and install only, as the README's `cmake -S . -B build && cmake --install build` does
# (default options), on a machine without Catch2: the tests are skipped with a message, not an error.
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/lib" -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON "-DCMAKE_INSTALL_PREFIX=${prefix}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring with the default options and no Catch2 failed:\n${out}")
endif()
if(NOT out MATCHES "Catch2 not found, the tests are skipped")
    message(FATAL_ERROR "without Catch2 the configure step did not say that the tests are skipped:\n${out}")
endif()
run_step(${CMAKE_COMMAND} --install "${WORK_DIR}/lib")
# Asked for explicitly, tests without Catch2 are an error rather than a silent skip.
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/lib-tests" -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DTOOLSTREAM_BUILD_TESTS=ON
                        -DTOOLSTREAM_BUILD_EXAMPLES=OFF
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
    message(FATAL_ERROR "-DTOOLSTREAM_BUILD_TESTS=ON without Catch2 configured without an error")
endif()

foreach(file IN ITEMS include/toolstream.hpp include/toolstream/version.hpp include/toolstream/pipeline/pipeline.hpp
                      share/cmake/toolstream/toolstream-config.cmake
                      share/cmake/toolstream/toolstream-config-version.cmake
                      share/cmake/toolstream/toolstream-targets.cmake)
    if(NOT EXISTS "${prefix}/${file}")
        message(FATAL_ERROR "cmake --install did not produce ${file}")
    endif()
endforeach()
file(STRINGS "${prefix}/include/toolstream/version.hpp" version_line
     REGEX "^#define TOOLSTREAM_VERSION_STRING \"${VERSION}\"$")
if(NOT version_line)
    message(FATAL_ERROR "the installed toolstream/version.hpp does not say ${VERSION}")
endif()
file(GLOB_RECURSE built_binaries "${prefix}/lib/*" "${prefix}/bin/*")
if(built_binaries)
    message(FATAL_ERROR "a header-only install put binaries in the prefix: ${built_binaries}")
endif()

run_step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/test_package" -B "${WORK_DIR}/app"
         -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_PREFIX_PATH=${prefix}"
         -DTOOLSTREAM_EXPECTED_VERSION=${VERSION})
run_step(${CMAKE_COMMAND} --build "${WORK_DIR}/app")
run_step("${WORK_DIR}/app/test_package")
# The installed run-time path: its source compiled into the consumer by toolstream::runtime.
run_step("${WORK_DIR}/app/test_package_runtime")
