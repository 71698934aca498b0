# Header-only: one release build, no debug/ tree.
set(VCPKG_BUILD_TYPE release)

# Used as an overlay port from a clone of toolstream (vcpkg install toolstream --overlay-ports=ports),
# the port builds the tree it sits in. Copied into a registry, it downloads the release tag.
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../../include/toolstream.hpp")
    get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
else()
    vcpkg_from_github(
        OUT_SOURCE_PATH SOURCE_PATH
        REPO toolstream/toolstream   # the public repository's owner/name, fixed at the first release
        REF "v${VERSION}"
        SHA512 0                     # vcpkg prints the archive's real hash on the first run
        HEAD_REF main
    )
endif()

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DTOOLSTREAM_BUILD_TESTS=OFF
        -DTOOLSTREAM_BUILD_EXAMPLES=OFF
        -DTOOLSTREAM_BUILD_BENCHMARKS=OFF
        -DTOOLSTREAM_BUILD_FUZZERS=OFF
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/toolstream)

vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
