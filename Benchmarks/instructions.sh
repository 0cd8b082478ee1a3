#!/usr/bin/env bash
# Instructions per call in the host process, counted by valgrind's callgrind: unlike wall time and CPU
# time they hardly move with the machine's load, so two commits can be compared on a busy, shared
# machine. (Hardly: work the host does on a clock — the health file's refresh every 250 ms, the state
# folder's check every 100 ms, the audit log's every second — runs every few calls at valgrind's
# speed, so a worker call's count moves by about ±2 % between runs on a loaded machine; compare
# several runs for changes that small.) Each KIND of `skillhost-bench loop` runs twice (N and 3N calls, after the same warm-up);
# the difference over 2N calls is the cost of one call, without setup. Only user-space instructions
# of this process count: the kernel's work (system calls) and the worker process are not included
# (the worker runs natively, outside valgrind). Callgrind cannot read the debug information of a
# Swift release binary, so stripped copies (strip -g) run from a temporary folder.
#
#   bash Benchmarks/instructions.sh RELEASE_DIR [KIND ...]     (make bench-instructions)
#   KIND: c-trusted-quiet c-trusted swift-trusted-quiet swift-trusted c swift (default: all six)
set -euo pipefail
rel=${1:?usage: instructions.sh RELEASE_DIR [KIND ...]}
shift
kinds=${*:-c-trusted-quiet c-trusted swift-trusted-quiet swift-trusted c swift}
n=${CALLS:-1000}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/skillhost-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
for f in skillhost skillhost-bench skillhost-worker libEchoSkill.so; do
    [ -e "$rel/$f" ] || { echo "instructions.sh: $rel/$f is missing: run swift build -c release first" >&2; exit 2; }
    strip -g -o "$work/$f" "$rel/$f"
done

# The instructions of one run of KIND with CALLS calls.
refs() {
    local log="$work/$1.$2.log"
    if ! SKILLHOST_BIN_DIR=$work SKILLHOST_SOURCE_DIR=$src valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1.$2" \
            "$work/skillhost-bench" loop "$1" --worker-calls "$2" --warmup 200 >"$log" 2>&1; then
        echo "instructions.sh: loop $1 with $2 calls failed under valgrind; its output:" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    grep -o 'refs: *[0-9,]*' "$log" | tr -d ', ' | cut -d: -f2
}

printf '%-22s  %14s\n' "loop KIND" "instructions/call"
for k in $kinds; do
    a=$(refs "$k" "$n")
    b=$(refs "$k" $((3 * n)))
    printf '%-22s  %14d\n' "$k" $(( (b - a) / (2 * n) ))
done
echo "(user-space instructions of the host process per call, by callgrind: (I(3N) − I(N)) / 2N with N = $n; worker and kernel not counted)"
