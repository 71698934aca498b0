#!/usr/bin/env bash
# Builds the libFuzzer targets with clang++-14 (ASan+UBSan) and runs each for SECONDS.
#   fuzz/run.sh SECONDS [-jobs N] [-runs N] [-large] [TARGET...]   (TARGET: sse, xml, openai_chat..., default all)
# -runs N stops each target after N executions instead (SECONDS is then only a cap): the local
# campaign is `FUZZ_MAX_LEN=512 fuzz/run.sh 14400 -runs 10000000`.
# -large lets inputs reach 17 MiB so that the custom mutator of fuzz_support.hpp grows payloads
# into large events and long streams of them (1 MiB for the text and api_tool_call targets, whose
# run time grows with the number of calls in the input; FUZZ_MAX_LEN overrides both); it keeps
# its own corpora and logs (corpus-large/, logs-large/) so the small-input corpora stay small.
# Environment: FUZZ_WORK (scratch dir: binaries, seeds, corpora, crashes; default
# ${TMPDIR:-/tmp}/toolstream-fuzz, kept between runs so corpora grow), FUZZ_MAX_LEN (4096),
# TOOLSTREAM_FIXTURES_DIR (seed streams; default ../shared/fixtures beside the repository).
# Seeds are copied and generated into FUZZ_WORK at run time; nothing is written to the repository.
# fuzz/regressions/TARGET/ keeps the inputs that once failed, each with its header, as seeds.
# Prints executions per target; exits non-zero on any crash, sanitizer report or failed check,
# naming the input that caused it.
set -euo pipefail

usage() { echo "usage: $0 SECONDS [-jobs N] [-runs N] [TARGET...]" >&2; exit 2; }
[ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]] || usage
seconds=$1; shift
jobs=$(( $(nproc) < 2 ? 1 : 2 ))   # the machine is shared: two fuzzers at most by default
runs=-1   # libFuzzer's default: no limit
large=0
targets=()
while [ $# -gt 0 ]; do
    case $1 in
        -jobs|--jobs) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; jobs=$2; shift 2 ;;
        -jobs=*|--jobs=*) jobs=${1#*=}; shift ;;
        -runs|--runs) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; runs=$2; shift 2 ;;
        -large|--large) large=1; shift ;;
        *) targets+=("$1"); shift ;;
    esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
# One target per registered provider (registry.hpp), all run by fuzz_provider.cpp's binary.
read -r -a providers <<<"$(tr '\n' ' ' <"$repo/include/toolstream/runtime/registry.hpp" \
    | grep -o 'registered_providers = type_list<[^>]*>' | sed 's/.*type_list<//; s/>$//' | tr -d ' ' | tr ',' ' ')"
[ ${#providers[@]} -gt 0 ] || { echo "no providers found in registry.hpp" >&2; exit 2; }
all=(sse ndjson "${providers[@]}" xml json sentinel structured api_tool_call formats)
is_provider() { local p; for p in "${providers[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
source_of() { if is_provider "$1"; then echo "$repo/fuzz/fuzz_provider.cpp"; else echo "$repo/fuzz/fuzz_$1.cpp"; fi; }
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
    [ -f "$(source_of "$t")" ] || { echo "unknown target: $t" >&2; usage; }
done

fixtures=${TOOLSTREAM_FIXTURES_DIR:-$repo/../shared/fixtures}
work=${FUZZ_WORK:-${TMPDIR:-/tmp}/toolstream-fuzz}
if [ "$large" = 1 ]; then
    max_len=${FUZZ_MAX_LEN:-$((17 << 20))}
    policy_max_len=${FUZZ_MAX_LEN:-$((1 << 20))}
    pass=-large
    extra=(-len_control=0)   # grow inputs from the start rather than after many runs
else
    max_len=${FUZZ_MAX_LEN:-4096}
    policy_max_len=$max_len
    pass=
    extra=()
fi
corpora=$work/corpus$pass logs=$work/logs$pass
mkdir -p "$work"/{bin,seeds,artifacts} "$corpora" "$logs"

# --- toolchain ---------------------------------------------------------------------------------
cxx=clang++-14
if ! command -v "$cxx" >/dev/null || ! command -v ld.lld >/dev/null || [ ! -e /usr/include/boost/json.hpp ] \
    || ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    "$repo/scripts/install-deps.sh" clang-14 libclang-rt-14-dev lld libboost-json1.81-dev
fi

# --- build (skipped for a target whose binary is newer than every header and its source) ---------
flags=(-std=c++20 -O2 -g1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -Wall -Wextra -Wpedantic -Werror -fuse-ld=lld
       -I"$repo/include" -I"$repo/tests")
build() {   # build NAME: fuzz/fuzz_NAME.cpp into $work/bin/fuzz_NAME
    local src=fuzz_$1.cpp bin=$work/bin/fuzz_$1
    if [ -x "$bin" ] && [ -z "$(find "$repo/include" "$repo/fuzz" "$repo/tests/support" -newer "$bin" \
            \( -name '*.hpp' -o -name "$src" \) -print -quit)" ]; then
        return 0
    fi
    "$cxx" "${flags[@]}" "$repo/fuzz/$src" -o "$bin.tmp" -lboost_json && mv "$bin.tmp" "$bin"
}
export -f build
export cxx repo work
export flags_str="${flags[*]}"
binary_of() { if is_provider "$1"; then echo provider; else echo "$1"; fi; }   # the providers share one
binaries=()
while IFS= read -r b; do binaries+=("$b"); done < <(for t in "${targets[@]}"; do binary_of "$t"; done | awk '!seen[$0]++')
echo "building ${#binaries[@]} binaries for ${#targets[@]} targets with $cxx ..." >&2
printf '%s\n' "${binaries[@]}" | xargs -P "$jobs" -I{} bash -c 'flags=($flags_str); build {}' \
    || { echo "build failed" >&2; exit 1; }

# --- seeds: a 4-byte header (chunking and limits, see fuzz_support.hpp) before each -------------
seed() {   # seed TARGET NAME < bytes: two copies, cut in pieces of up to 7 and up to 64 bytes
    local dir=$work/seeds/$1 body
    body=$(mktemp)
    cat >"$body"
    { printf '\001\052\000\000'; cat "$body"; } >"$dir/$2.a"
    { printf '\002\021\007\000'; cat "$body"; } >"$dir/$2.b"
    rm -f "$body"
}
seed_files() {   # seed_files TARGET FILE...
    local t=$1 f; shift
    for f in "$@"; do [ -f "$f" ] && seed "$t" "$(basename "$(dirname "$f")")_$(basename "$f")" <"$f"; done
    return 0
}
op() { printf "\\$(printf '%03o' "$1")"; }   # one api_tool_call record op byte

make_seeds() {
    local t=$1 f i=0
    rm -rf "$work/seeds/$t"; mkdir -p "$work/seeds/$t"
    shopt -s nullglob
    case $t in
    sse) seed_files sse "$fixtures"/*/*.sse "$repo"/examples/data/*.sse ;;
    openai_chat) seed_files "$t" "$fixtures"/{openai_chat,deepseek,groq,alibaba,xai}/*.sse \
                     "$repo"/examples/data/*.sse ;;
    openai_responses|anthropic|gemini|mistral) seed_files "$t" "$fixtures/$t"/*.sse ;;
    ollama|ndjson)
        seed "$t" chat <<'EOF'
{"model":"m","created_at":"t","message":{"role":"assistant","content":"","thinking":"The user wants"},"done":false}
{"model":"m","message":{"role":"assistant","content":"Checking \u003cb\u003enow\u003c/b\u003e"},"done":false}
{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"weather","arguments":{"city":"Zürich","days":2}}},{"function":{"index":1,"name":"search","arguments":{"q":"x"}}}]},"done":false}
{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"name":"write_file","arguments":{"path":"a.py","content":"print(1)\n"}}}]},"done":false}
{"model":"m","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":167,"eval_count":306}
EOF
        printf '{"error":"model not found"}\n' | seed "$t" error
        printf '\xEF\xBB\xBF{"message":{"content":"a"}}\r\n\r\n  \n{"message":{"content":"b"}}' | seed "$t" bom_crlf
        if [ "$t" = ndjson ]; then
            for f in "$fixtures"/jsontestsuite/y_*.json; do seed "$t" "$(basename "$f")" <"$f"; done
        fi ;;
    formats)   # header byte 3 picks the format, bits 2-5 (and byte 2) the reasoning parser (fuzz_formats.cpp)
        local f r name text
        local -A texts=(
            [deepseek]='<think>plan <tool_call> x</think>Hi <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_file\n```json\n{"path":"a","content":"b\\n"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
            [kimi]='<|channel|>analysis<|message|>x<|end|><|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a":[1]}<|tool_call_end|><|tool_calls_section_end|>'
            [mistral]='Hi [TOOL_CALLS]write_file[CALL_ID]a1[ARGS]{"path":"a","content":"b\\n"}[TOOL_CALLS][{"name":"f","arguments":{"x":"[TOOL_CALLS]"}}]'
            [llama3]='<|python_tag|>{"name":"write_file","parameters":{"path":"a","content":"{;}"}}; {"name":"f","parameters":{}} {x}'
            [qwen3_coder]='Plan <tool_call> x</think>Use <function=f>\n<parameter=a>\n1\n<parameter=b>\nx <parameter=c>\n</function>\n<tool_call>\n<function=write_file>\n<parameter=path>\na\n</parameter>\n<parameter=content>\nb\n</function> c\n</parameter>\n</function>\n</tool_call>'
            [harmony_role]=' to=functions.f<|channel|>commentary json<|message|>{"a":1}<|call|><|start|>assistant to=functions.g<|channel|>commentary<|message|>{} to=x'
            [openai]='<|channel|>analysis<|message|>x<|end|><|start|>assistant to=functions.write_file<|channel|>commentary json<|message|>{"path":"a","content":"<|call|>"}<|call|><|start|>assistant<|channel|>final<|message|>ok<|return|>'
            [hermes]='<tool_call>\n{"name": "write_file", "arguments": {"path": "a", "content": "x</tool_call>"}}\n</tool_call><tool_call>{"name":"f"'
            [glm45]='<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>[1, "x"]</arg_value>\n</tool_call><tool_call>write_file\n<arg_key>path</arg_key><arg_value>a</arg_value><arg_key>content</arg_key><arg_value>b</arg_value_x'
            [minimax]='<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">1</parameter>\n</invoke>\n<invoke name="write_file"><parameter name="path">a</parameter><parameter name="content">b</parameter>'
            [seed_oss]='<seed:think>x</seed:think><seed:tool_call>\n<function=f>\n<parameter=a>1</parameter>\n</function>\n</seed:tool_call>'
        )
        # Every format (byte 3 up to 63: the registry has fewer) alone and behind one reasoning parser.
        for f in $(seq 0 63); do
            for r in 0 $((f % 8)); do
                for name in "${!texts[@]}"; do
                    text=${texts[$name]}
                    { op $((1 | r << 2)); printf '\052\000'; op "$f"; printf '%b' "$text"; } \
                        >"$work/seeds/$t/${name}_${f}_$r"
                done
            done
        done ;;
    xml)
        seed xml generic <<'EOF'
Hello <tool name="get_weather"><arg name="city">Paris &amp; co</arg><arg name="days">2</arg></tool> done.
a < b <div> <tool name="ping"/> <tool>no name</tool> <TOOL NAME='x'><![CDATA[ </tool> ]]><!-- </tool> --></tool>
EOF
        seed xml files <<'EOF'
<tool name="write_file"><arg name="path">src/a.py</arg><arg name="content">__START_CONTENT__
print("hi </tool>")
    __END_CONTENT__</arg></tool>
<tool name="patch_file"><arg name="patch">__START_PATCH__
--- a
+++ b
__END_PATCH__</arg><arg name="path">b.txt</arg></tool>
<write_file path="x.txt">body</write_file><run_bash timeout_seconds="5">echo hi</run_bash>
<tool name="run_bash" background="true"><arg name="command">ls -la</arg></tool>
EOF
        printf '<tool name="' | seed xml unterminated ;;
    json)
        seed json calls <<'EOF'
Sure: {"tool": "get_weather", "arguments": {"city": "Paris"}} ok if (x) { y(); } [1, 2]
{"tool_calls":[{"function":{"name":"f","arguments":"{\"a\":1}"}},{"name":"g","arguments":{}}]}
[{"name":"write_file","arguments":{"path":"a","content":"x\ny \"}\" "}}] {"to": 1} [[x]]
EOF
        for f in "$fixtures"/jsontestsuite/[yn]_*.json; do
            i=$((i + 1)); [ $((i % 4)) -eq 0 ] || continue   # a sample: the cases are alike
            { printf '{"name":"f","arguments":'; cat "$f"; printf '}'; } | seed json "$(basename "$f")"
        done ;;
    sentinel)
        seed sentinel blocks <<'EOF'
Hi [[SEG_START {"type":"write_file","path":"/a.py"}]]print("hi")[[SEG_END]] then
[[SEG_START {"type":"tool","tool_name":"get_weather","arguments":{"city":"Paris"}}]][[seg_end]]
[[SEG_START {"type":"run_bash"}]]ls[[SEG_END]] [[wiki]] [[SEG_START {"type":"text"}]]t[[SEG_END]]
[[SEG_START  {"type":"tool","tool_name":"f","x":"]]"} ]]<arguments><arg name="a">1</arg></arguments>[[SEG_END]]
[[SEG_START {"type":"patch_file","path":"p"}]]--- a
EOF
        ;;
    structured)   # header bit 2 set: the keys say, call, tool, input (fuzz_structured.cpp)
        seed structured agent_tars <<'EOF'
{"content": "Let me check \"it\"\n\u00e9\ud83d\ude00.", "toolCall": {"name": "getWeather", "args": {"city": "a}b", "n": [1, {"x": null}]}}}
EOF
        seed structured any_order <<'EOF'
 {"toolCall": {"args": {"name": "inner"}, "id": 7, "name": "outer"}, "extra": [{"}": "]"}], "content": "after"}
EOF
        printf '{"content": "", "toolCall": {"name": "now"}}' | seed structured no_args
        printf '{"toolCall": {"name": "write", "args": {"text": "ab' | seed structured cut
        printf 'Sorry, plain text {"content": 1}' | seed structured text
        printf '\005\052\000\000{"say": "hi", "call": {"input": {"a": [true, 1.5e3]}, "tool": "t"}}' \
            >"$work/seeds/$t/other_keys"
        for f in "$fixtures"/jsontestsuite/y_*.json; do
            i=$((i + 1)); [ $((i % 4)) -eq 0 ] || continue   # a sample: the cases are alike
            { printf '{"toolCall": {"name": "f", "args": {"v": '; cat "$f"; printf '}}}'; } | seed "$t" "$(basename "$f")"
        done ;;
    api_tool_call)
        # Every JSONTestSuite case as a generic call's arguments and inside a write_file call.
        for f in "$fixtures"/jsontestsuite/[yni]_*.json; do
            { op $((0x78)); head -c 1500 "$f"; } | seed "$t" "generic_$(basename "$f")"
            { op $((0x49)); printf '{"path":"a.txt","content":'; head -c 1500 "$f"
              printf '\037'; op $((0x61)); printf '}'; } | seed "$t" "file_$(basename "$f")"
        done
        # Parallel calls interleaved: a write_file whose \uD83D\uDE00 pair and path come in
        # separate fragments, a generic call, and a patch_file the stream never completes.
        { op $((0x48)); printf '{"content":"early \\ud83d'; printf '\037'
          op $((0x59)); printf '{"q":'; printf '\037'
          op $((0x00)); printf '\\ude00 body","path":"p"}'; printf '\037'
          op $((0x52)); printf '{"patch":"@@"'; printf '\037'
          op $((0x21)); printf '1}'; printf '\037'
          op $((0x20)); } | seed "$t" interleaved ;;
    esac
    # Inputs that once failed (header included), replayed first by every run of their target.
    for f in "$repo/fuzz/regressions/$t"/*; do cp "$f" "$work/seeds/$t/regression_$(basename "$f")"; done
    shopt -u nullglob
}

# --- run -----------------------------------------------------------------------------------------
run_target() {
    local t=$1 log=$logs/$1.log
    rm -f "$logs/$t.status"
    make_seeds "$t"
    mkdir -p "$corpora/$t" "$work/artifacts/$t"
    local status=0 len=$max_len
    case $t in xml|json|sentinel|structured|api_tool_call) len=$policy_max_len ;; esac
    TOOLSTREAM_FUZZ_PROVIDER=$t "$work/bin/fuzz_$(binary_of "$t")" -max_total_time="$seconds" -runs="$runs" -max_len="$len" -timeout=30 -rss_limit_mb=2048 \
        "${extra[@]}" -print_final_stats=1 -artifact_prefix="$work/artifacts/$t/" \
        "$corpora/$t" "$work/seeds/$t" >"$log" 2>&1 || status=$?
    echo "$status" >"$logs/$t.status"
}

start=$(date +%s)
running=0
for t in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    echo "fuzzing $t for ${seconds}s ..." >&2
    run_target "$t" &
    running=$((running + 1))
done
wait || true

failed=0
printf '\n%-18s %14s %10s %8s %10s  %s\n' target executions exec/s corpus "largest" result
for t in "${targets[@]}"; do
    log=$logs/$t.log
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
    execs=${execs:-0}
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    corpus=$(find "$corpora/$t" -type f | wc -l)
    largest=$(grep -ao 'largest input so far [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    result=ok
    if [ "$(cat "$logs/$t.status" 2>/dev/null || echo missing)" != 0 ]; then
        failed=1
        crash=$(grep -o 'Test unit written to .*' "$log" | tail -1 | sed 's/Test unit written to //')
        result="FAILED: ${crash:-see $log} (log: $log)"
    fi
    printf '%-18s %14s %10s %8s %10s  %s\n' "$t" "$execs" "${rate:-0}" "$corpus" "${largest:-0}" "$result"
done
echo "total time: $(( $(date +%s) - start ))s; logs in $logs (largest: bytes of the largest input run)"
if [ "$failed" -ne 0 ]; then
    for t in "${targets[@]}"; do
        [ "$(cat "$logs/$t.status" 2>/dev/null || echo missing)" = 0 ] && continue
        echo "---- $t ----"
        grep -a -E -A12 'toolstream fuzz check failed|ERROR: (AddressSanitizer|libFuzzer|UndefinedBehavior)|runtime error' \
            "$logs/$t.log" | head -40
    done
    exit 1
fi
