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
# For c and swift (a skill in its worker) the worker's side is counted too, in runs of their own: the
# host then runs natively and `skillhost-worker serve` under callgrind (a wrapper script in the
# temporary folder stands in for the worker binary).
set -euo pipefail
rel=${1:?usage: instructions.sh RELEASE_DIR [KIND ...]}
shift
kinds=${*:-c-trusted-quiet c-trusted swift-trusted-quiet swift-trusted c swift}
n=${CALLS:-1000}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/skillhost-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
for f in skillhost skillhost-bench skillhost-worker skillhost-scan libEchoSkill.so; do
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

# The worker's instructions in one run of KIND with CALLS calls (the host runs natively).
worker_refs() {
    local dir="$work/w.$1.$2" log="$work/w.$1.$2.log"
    mkdir -p "$dir"
    for f in skillhost skillhost-bench skillhost-scan libEchoSkill.so; do ln -sf "$work/$f" "$dir/$f"; done
    cat >"$dir/skillhost-worker" <<WRAP
#!/bin/sh
[ "\$1" = serve ] && exec valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" "$work/skillhost-worker" "\$@" 2>>"$dir/valgrind.log"
exec "$work/skillhost-worker" "\$@"
WRAP
    chmod +x "$dir/skillhost-worker"
    if ! SKILLHOST_BIN_DIR=$dir SKILLHOST_SOURCE_DIR=$src "$dir/skillhost-bench" loop "$1" --worker-calls "$2" --warmup 200 >"$log" 2>&1; then
        echo "instructions.sh: loop $1 with $2 calls (worker under valgrind) failed; its output:" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    # One worker serves the whole loop (a second one would mean a restart: then the count is wrong).
    local outs
    outs=$(ls "$dir"/cg.* 2>/dev/null | wc -l)
    [ "$outs" = 1 ] || { echo "instructions.sh: loop $1 started $outs workers, expected 1" >&2; exit 1; }
    grep -o 'refs: *[0-9,]*' "$dir/valgrind.log" | tr -d ', ' | cut -d: -f2
}

printf '%-22s  %14s  %14s\n' "loop KIND" "host/call" "worker/call"
for k in $kinds; do
    a=$(refs "$k" "$n")
    b=$(refs "$k" $((3 * n)))
    w="—"
    case $k in c|swift)
        wa=$(worker_refs "$k" "$n")
        wb=$(worker_refs "$k" $((3 * n)))
        w=$(( (wb - wa) / (2 * n) ));;
    esac
    printf '%-22s  %14d  %14s\n' "$k" $(( (b - a) / (2 * n) )) "$w"
done
echo "(user-space instructions per call, by callgrind: (I(3N) − I(N)) / 2N with N = $n; host: this process, in-process skill code included; worker: the worker process of c and swift; the kernel's not counted)"
