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
# Configure and install only, as the recipe and the port do: a header-only install needs no build.
run_step(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/lib" -DCMAKE_CXX_COMPILER=${CXX}
         -DTOOLSTREAM_BUILD_TESTS=OFF -DTOOLSTREAM_BUILD_EXAMPLES=OFF -DTOOLSTREAM_BUILD_BENCHMARKS=OFF
         "-DCMAKE_INSTALL_PREFIX=${prefix}")
run_step(${CMAKE_COMMAND} --install "${WORK_DIR}/lib")

foreach(file IN ITEMS include/toolstream.hpp include/toolstream/version.hpp include/toolstream/pipeline.hpp
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
