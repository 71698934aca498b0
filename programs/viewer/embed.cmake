# Turns the viewer page into a C++ header of its bytes (no raw string: no length limits, no
# delimiter to escape). The page's `<script src="viewer.js"></script>` becomes the script itself:
# the page served is one file.
#   cmake -DIN=viewer.html -DSCRIPT=viewer.js -DOUT=viewer_page.hpp -P embed.cmake
set(tag "<script src=\"viewer.js\"></script>")
file(READ "${IN}" page)
file(READ "${SCRIPT}" script)
string(FIND "${page}" "${tag}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${IN} has no ${tag}")
endif()
string(REPLACE "${tag}" "<script>\n${script}</script>" page "${page}")
file(WRITE "${OUT}.html" "${page}")
file(READ "${OUT}.html" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "// Generated from programs/viewer/viewer.html and viewer.js by embed.cmake: do not edit.\n#pragma once\n\nnamespace toolstream_viewer {\ninline constexpr unsigned char viewer_page_bytes[] = {\n${bytes}\n};\n} // namespace toolstream_viewer\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp" "${OUT}.html")
