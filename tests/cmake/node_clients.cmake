# Runs a Node script of tests/clients with the pinned clients installed.
#
#   cmake -DCLIENTS_DIR=tests/clients -DNODE_SCRIPT=run_writer_clients.mjs "-DSCRIPT_ARGS=--a;x" -P node_clients.cmake
#
# Installs Debian's nodejs and npm when node is missing (root, or sudo), then `npm ci` from the
# committed lockfile when node_modules is missing or older than the lockfile. Only the npm
# registry is reached. A lock keeps two tests from installing at once.
cmake_minimum_required(VERSION 3.20)

find_program(NODE node)
find_program(NPM npm)
if(NOT NODE OR NOT NPM)
    message(STATUS "installing Debian nodejs and npm")
    execute_process(COMMAND ${CMAKE_CURRENT_LIST_DIR}/../../scripts/install-deps.sh nodejs npm
                    RESULT_VARIABLE installed TIMEOUT 900)
    if(NOT installed EQUAL 0)
        message(FATAL_ERROR "could not install nodejs and npm (needs root or sudo)")
    endif()
    find_program(NODE node REQUIRED)
    find_program(NPM npm REQUIRED)
endif()

file(LOCK "${CLIENTS_DIR}/.npm-install.lock" GUARD PROCESS TIMEOUT 900)
set(stamp "${CLIENTS_DIR}/node_modules/.package-lock.json")
if(NOT EXISTS "${stamp}" OR "${CLIENTS_DIR}/package-lock.json" IS_NEWER_THAN "${stamp}")
    message(STATUS "npm ci in ${CLIENTS_DIR}")
    execute_process(COMMAND ${NPM} ci --no-audit --no-fund --loglevel=error
                    WORKING_DIRECTORY "${CLIENTS_DIR}" RESULT_VARIABLE installed TIMEOUT 900)
    if(NOT installed EQUAL 0)
        message(FATAL_ERROR "npm ci failed in ${CLIENTS_DIR}")
    endif()
endif()
file(LOCK "${CLIENTS_DIR}/.npm-install.lock" RELEASE)

execute_process(COMMAND ${NODE} ${NODE_SCRIPT} ${SCRIPT_ARGS}
                WORKING_DIRECTORY "${CLIENTS_DIR}" RESULT_VARIABLE status TIMEOUT 1200)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NODE_SCRIPT} failed (${status})")
endif()
