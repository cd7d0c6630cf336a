#!/bin/sh
# test-jitdump-live.sh - JIT code named from the jitdump the process maps
# (jit-PID.dump), by the code load valid at each sample's time: a program
# loads code at an address, then new code at the same address, then moves
# that code elsewhere, each for the same CPU time (jitdump-target.c).  Its
# /tmp/perf-PID.map names the code too: the dump must win.
#
# usage: tests/live/test-jitdump-live.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! "$CC" -O1 -o "$work/jitdump-target" "$here/jitdump-target.c" 2>"$work/cc.err"; then
	echo "SKIP: cannot build jitdump-target: $(head -n 1 "$work/cc.err")"
	exit 0
fi
mkdir "$work/dumps"
"$BIN" -F 499 -d 60 --collapse --jit -- "$work/jitdump-target" "$work/dumps" \
	0.4 "$work/pid" >"$work/out.folded" 2>"$work/err"
rc=$?
[ -s "$work/pid" ] && rm -f "/tmp/perf-$(cat "$work/pid").map"
if [ "$rc" = 0 ] && ! grep -q . "$work/out.folded" &&
	grep -q 'x86-64 only' "$work/err"; then
	echo "SKIP: jitdump-target runs on x86-64 only"
	exit 0
fi
check "exit 0" [ "$rc" = 0 ]
check "the first code at the address is named as it was then" \
	grep -q ';jit_first_code_\[j\] [0-9]*$' "$work/out.folded"
check "the code that replaced it, and moved, keeps its name" \
	grep -q ';jit_second_code_\[j\] [0-9]*$' "$work/out.folded"
check "the jitdump wins over /tmp/perf-PID.map" \
	sh -c "! grep -q jit_from_map '$work/out.folded'"
# A third of the CPU time in the first code, two thirds in the second
# (before and after its move); within sampling error.
check "the first code: a third of the samples ($(near "$work/out.folded" jit_first_code 33.3 2004008))" \
	near_ok "$work/out.folded" jit_first_code 33.3 2004008
check "the second code: two thirds ($(near "$work/out.folded" jit_second_code 66.7 2004008))" \
	near_ok "$work/out.folded" jit_second_code 66.7 2004008
check "no JIT frame left unnamed" \
	sh -c "! grep -q 'jit-[0-9]*.dump\]' '$work/out.folded'"
[ -n "${VERBOSE:-}" ] && cat "$work/err"
finish
