#!/usr/bin/env bash
# CI's second build: the whole tree with GCC 12 (Debug, without sanitizers, -Werror) against
# Catch2 v3, as a Conan or vcpkg user would get it, then the ctest suite but for what the Clang
# suite (scripts/test.sh, ASan+UBSan) already runs or needs no second compiler for: the clients
# reading the writers and the Anthropic and Responses routes (node) and the headers compiled alone. The OpenAI
# clients reading the gateway, the peak-heap and the memory-bound measures run here only: the
# sanitized build leaves them out (their many processes and multi-MiB inputs are several times
# slower under ASan and check nothing more there).
# Debian bookworm ships Catch2 v2 only; bookworm-backports has v3 built for bookworm. This script
# downloads that package with apt's ordinary client into a private apt state (the system's Debian
# mirror, suite bookworm-backports) and unpacks it under the build directory: nothing is installed
# on the system, and the v2 the other builds use stays as it is.
#   scripts/check-catch2-v3.sh    # CATCH2_V3_BUILD_DIR (default build/catch2-v3), CXX (default g++)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${CATCH2_V3_BUILD_DIR:-$root/build/catch2-v3}"
prefix="$build/catch2"
config_dir="$prefix/usr/lib/cmake/Catch2"
"$root/scripts/install-deps.sh" cmake make g++ lld libboost-json1.81-dev
cxx=${CXX:-g++}

if [ ! -f "$config_dir/Catch2Config.cmake" ]; then
    apt_dir="$build/apt"
    rm -rf "$apt_dir" "$prefix"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
    bookworm_mirror() { apt-get indextargets --format '$(REPO_URI)' 'Release: bookworm' 'Identifier: Packages' | head -1; }
    if [ -z "$(bookworm_mirror)" ]; then   # apt lists not fetched yet on this machine
        sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update -qq
    fi
    mirror=$(bookworm_mirror)
    [ -n "$mirror" ] || { echo "check-catch2-v3: no bookworm entry in the apt sources" >&2; exit 1; }
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm-backports main" \
        >"$apt_dir/sources.list"
    apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
                 -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
                 -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
    apt-get "${apt_options[@]}" -qq update
    (cd "$apt_dir/debs" && apt-get "${apt_options[@]}" -qq download libcatch2-dev)
    dpkg-deb -x "$apt_dir"/debs/libcatch2-dev_*.deb "$prefix"
fi
version=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$config_dir/Catch2ConfigVersion.cmake")
case "$version" in
    3.*) echo "check-catch2-v3: Catch2 $version from $prefix" ;;
    *) echo "check-catch2-v3: expected Catch2 3.x, found '$version'" >&2; exit 1 ;;
esac

fixtures="${TOOLSTREAM_FIXTURES_DIR:-}"
if [ -z "$fixtures" ] && [ -d "$root/../shared/fixtures" ]; then
    fixtures=$(cd "$root/../shared/fixtures" && pwd)
fi
# Debug (Boost's assertions on) without debug information: the sanitized suite is the one to debug;
# this build proves GCC 12 and Catch2 v3 take every file, and -g0 makes it faster; so does LLVM's linker.
# It builds the plain header-only library (every function inline); the sanitized suite builds with
# the CMake default, the out-of-line functions compiled once (TOOLSTREAM_SEPARATE_COMPILATION).
cmake -S "$root" -B "$build/tree" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g0 -D_GLIBCXX_ASSERTIONS" \
      -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
      -DTOOLSTREAM_WARNINGS_AS_ERRORS=ON -DTOOLSTREAM_SEPARATE_COMPILATION=OFF \
      -DCMAKE_CXX_COMPILER="$cxx" -DTOOLSTREAM_BUILD_TESTS=ON -DTOOLSTREAM_BUILD_EXAMPLES=ON \
      -DTOOLSTREAM_HEADER_CHECK_COMPILERS= \
      -DCatch2_DIR="$config_dir" -DTOOLSTREAM_FIXTURES_DIR="$fixtures" >/dev/null
# The tests must see v3: its include directory, and the major version the compatibility header keys on.
flags="$build/tree/tests/CMakeFiles/toolstream_tests.dir/flags.make"
grep -q "TOOLSTREAM_CATCH2_MAJOR=3" "$flags" && grep -q -- "-isystem $prefix/usr/include" "$flags" \
    || { echo "check-catch2-v3: CMake did not take Catch2 from $config_dir" >&2; exit 1; }
grep -q "^CMAKE_CXX_COMPILER:.*$cxx" "$build/tree/CMakeCache.txt" \
    || { echo "check-catch2-v3: the build does not use $cxx" >&2; exit 1; }
cmake --build "$build/tree" -j "$(nproc)"
export TOOLSTREAM_FIXTURES_DIR="$fixtures"
echo "== ctest, $("$cxx" --version | head -1), Catch2 $version"
ctest --test-dir "$build/tree" --output-on-failure -j "$(nproc)" -E '^(openai_clients_read_writer_sse|api_clients_)'
