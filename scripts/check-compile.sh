#!/usr/bin/env bash
# Syntax-checks toolstream with one compiler, standard and standard library at a time, warnings as
# errors and nothing but `-I include` (and the Boost include directory when it is not a system one):
# one translation unit that includes every header of include/, then every example program (which
# instantiate the templates). -fsyntax-only needs no linking, so libc++ can be checked although
# Debian's Boost.JSON is built against libstdc++.
#   scripts/check-compile.sh [-j N] CONFIG...     CONFIG: compiler:standard[:libc++]
#   scripts/check-compile.sh clang++-16:c++2b clang++-16:c++20:libc++   (c++2b: C++23, as clang 14/16 spell it)
#   scripts/check-compile.sh ci                    # the CI matrix (below)
# CHECK_COMPILE_WHAT=alone compiles each header alone, detail/ and impl/ included, instead of the
# all-headers TU (slow: ctest's headers_compile_alone.* does that for the public headers with the
# build's compiler). BOOST_INCLUDE_DIR: default
# /usr/include. Prints one line per configuration; on a failure, the compiler's output.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(( $(nproc) < 2 ? 1 : 2 ))
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
[ $# -ge 1 ] || { sed -n '2,13p' "$0" >&2; exit 2; }

# The full builds of CI cover g++ C++20 (ASan+UBSan) and clang++-16 C++20 (tests, examples,
# benchmarks, fuzzers); this matrix covers every other pairing of compiler, standard and library.
ci_matrix=(g++:c++2b clang++-14:c++20 clang++-14:c++2b clang++-16:c++2b
           clang++-16:c++20:libc++ clang++-16:c++2b:libc++)
configs=()
for c in "$@"; do
    if [ "$c" = ci ]; then configs+=("${ci_matrix[@]}"); else configs+=("$c"); fi
done

boost=${BOOST_INCLUDE_DIR:-/usr/include}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tus=()
if [ "${CHECK_COMPILE_WHAT:-}" = alone ]; then
    while IFS= read -r h; do tus+=("header:${h#"$root/include/"}"); done \
        < <(find "$root/include" -name '*.hpp' | LC_ALL=C sort)
else
    find "$root/include" -name '*.hpp' | LC_ALL=C sort | sed "s|^$root/include/\(.*\)|#include <\1>|" \
        >"$work/all_headers.cpp"
    tus+=("source:$work/all_headers.cpp")
fi
while IFS= read -r f; do tus+=("source:$f"); done < <(find "$root/examples" -maxdepth 1 -name '*.cpp' | LC_ALL=C sort)

# One translation unit: `header:<path under include/>` or `source:<file>`. Writes the compiler's
# output to a log named after the TU when it fails.
compile_one() {
    local cxx=$1 std=$2 lib=$3 tu=$4 log
    local flags=(-std="$std" -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I"$root/include")
    [ "$boost" = /usr/include ] || flags+=(-isystem "$boost")
    [ "$lib" = libc++ ] && flags+=(-stdlib=libc++)
    log="$work/$(tr '/:.' '___' <<<"$tu").log"
    case $tu in
        header:*) printf '#include <%s>\n#include <%s>\n' "${tu#header:}" "${tu#header:}" \
                      | "$cxx" "${flags[@]}" -x c++ - >"$log" 2>&1 ;;
        source:*) "$cxx" "${flags[@]}" "${tu#source:}" >"$log" 2>&1 ;;
    esac && rm -f "$log"
}
export -f compile_one
export root boost work

status=0
for config in "${configs[@]}"; do
    IFS=: read -r cxx std lib <<<"$config"
    command -v "$cxx" >/dev/null || { echo "check-compile: $cxx not found" >&2; exit 1; }
    rm -f "$work"/*.log   # a failed TU leaves its log
    start=$SECONDS
    printf '%s\0' "${tus[@]}" | xargs -0 -P "$jobs" -I{} bash -c 'compile_one "$@"' _ "$cxx" "$std" "${lib:-}" {} || true
    failed=("$work"/*.log)
    [ -e "${failed[0]}" ] || failed=()
    echo "check-compile: $cxx -std=$std${lib:+ -stdlib=$lib}: ${#tus[@]} TUs, ${#failed[@]} failed ($((SECONDS - start)) s)"
    for log in "${failed[@]}"; do
        echo "--- $(basename "$log" .log)"
        head -25 "$log"
        status=1
    done
    # libc++ links too, once per library: Debian's libboost_json is built with libstdc++, so the
    # program compiles Boost.JSON itself (<boost/json/src.hpp>, as README.md says), and the usage
    # example runs on the demo stream.
    if [ "$lib" = libc++ ] && [ "$std" = c++20 ]; then
        start=$SECONDS
        printf '#include <boost/json/src.hpp>\n' >"$work/boost_json.cpp"
        boost_flags=()
        [ "$boost" = /usr/include ] || boost_flags=(-isystem "$boost")
        if "$cxx" -std="$std" -stdlib=libc++ -O1 -I"$root/include" "${boost_flags[@]}" "$root/examples/usage.cpp" "$work/boost_json.cpp" \
                -o "$work/usage_libcxx" >"$work/link.log" 2>&1 \
            && "$work/usage_libcxx" <"$root/examples/data/write_file_demo.sse" | grep -q '^run write_file with path content$'; then
            echo "check-compile: $cxx -stdlib=libc++: examples/usage.cpp linked and ran ($((SECONDS - start)) s)"
        else
            echo "check-compile: $cxx -stdlib=libc++: examples/usage.cpp did not link or run"
            head -25 "$work/link.log"
            status=1
        fi
    fi
done
exit $status
