# Turns the viewer page into a C++ header of its bytes (no raw string: no length limits, no
# delimiter to escape).
#   cmake -DIN=viewer.html -DOUT=viewer_page.hpp -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" length)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "// Generated from programs/viewer/viewer.html by embed.cmake: do not edit.\n#pragma once\n\nnamespace toolstream_viewer {\ninline constexpr unsigned char viewer_page_bytes[] = {\n${bytes}\n};\n} // namespace toolstream_viewer\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
