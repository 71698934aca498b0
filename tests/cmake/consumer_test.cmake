# Installs toolstream into a scratch prefix and builds tests/consumer against it.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
function(run_step)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "step failed (${rc}): ${ARGV}")
    endif()
endfunction()
run_step(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/lib" -DCMAKE_CXX_COMPILER=${CXX}
         -DTOOLSTREAM_BUILD_TESTS=OFF -DTOOLSTREAM_BUILD_EXAMPLES=OFF "-DCMAKE_INSTALL_PREFIX=${prefix}")
run_step(${CMAKE_COMMAND} --install "${WORK_DIR}/lib")
run_step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/app"
         -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_PREFIX_PATH=${prefix}")
run_step(${CMAKE_COMMAND} --build "${WORK_DIR}/app")
run_step("${WORK_DIR}/app/consumer")
