# The live viewer (programs/viewer): its page (viewer.html, with viewer.js written into it),
# embedded at build time as viewer_page.hpp.
# toolstream_use_viewer(target) lets a program include "viewer_server.hpp" / "replay_serve.hpp".
set(TOOLSTREAM_VIEWER_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
set(TOOLSTREAM_VIEWER_BINARY_DIR ${PROJECT_BINARY_DIR}/programs/viewer)
add_custom_command(
    OUTPUT ${TOOLSTREAM_VIEWER_BINARY_DIR}/viewer_page.hpp
    COMMAND ${CMAKE_COMMAND} -DIN=${TOOLSTREAM_VIEWER_SOURCE_DIR}/viewer.html
            -DSCRIPT=${TOOLSTREAM_VIEWER_SOURCE_DIR}/viewer.js
            -DOUT=${TOOLSTREAM_VIEWER_BINARY_DIR}/viewer_page.hpp -P ${TOOLSTREAM_VIEWER_SOURCE_DIR}/embed.cmake
    DEPENDS ${TOOLSTREAM_VIEWER_SOURCE_DIR}/viewer.html ${TOOLSTREAM_VIEWER_SOURCE_DIR}/viewer.js
            ${TOOLSTREAM_VIEWER_SOURCE_DIR}/embed.cmake
    COMMENT "Embedding the viewer page")
if(NOT TARGET toolstream_viewer_page)
    add_custom_target(toolstream_viewer_page DEPENDS ${TOOLSTREAM_VIEWER_BINARY_DIR}/viewer_page.hpp)
endif()

find_package(Threads REQUIRED)
function(toolstream_use_viewer target)
    target_include_directories(${target} PRIVATE ${TOOLSTREAM_VIEWER_SOURCE_DIR} ${TOOLSTREAM_VIEWER_BINARY_DIR})
    target_link_libraries(${target} PRIVATE Threads::Threads)
    add_dependencies(${target} toolstream_viewer_page)
endfunction()
