#!/bin/sh
# test-jitdump-live.sh - JIT code named from the jitdump the process maps
# (jit-PID.dump), by the code load valid at each sample's time: a program
# loads code at an address, then new code at the same address, then moves
# that code elsewhere, each for the same CPU time (jitdump-target.c).  Its
# /tmp/perf-PID.map names the code too: the dump must win.  Once more
# with the code in a memfd named "doublemapper", as .NET keeps its code.
#
# usage: tests/live/test-jitdump-live.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! "$CC" -O1 -o "$work/jitdump-target" "$here/jitdump-target.c" 2>"$work/cc.err"; then
	echo "SKIP: cannot build jitdump-target: $(head -n 1 "$work/cc.err")"
	exit 0
fi
mkdir "$work/dumps"
# run NAME [memfd]: sample jitdump-target (its code in a memfd with memfd).
run() {
	"$BIN" -F 499 -d 60 --collapse --jit -- "$work/jitdump-target" \
		"$work/dumps" 0.4 "$work/$1.pid" $2 >"$work/$1.folded" \
		2>"$work/$1.err"
	echo $? >"$work/$1.rc"
	[ -s "$work/$1.pid" ] && rm -f "/tmp/perf-$(cat "$work/$1.pid").map"
}
run anon
if [ "$(cat "$work/anon.rc")" = 0 ] && ! grep -q . "$work/anon.folded" &&
	grep -q 'x86-64 only' "$work/anon.err"; then
	echo "SKIP: jitdump-target runs on x86-64 only"
	exit 0
fi
out=$work/anon.folded
check "exit 0" [ "$(cat "$work/anon.rc")" = 0 ]
check "the first code at the address is named as it was then" \
	grep -q ';jit_first_code_\[j\] [0-9]*$' "$out"
check "the code that replaced it, and moved, keeps its name" \
	grep -q ';jit_second_code_\[j\] [0-9]*$' "$out"
check "the jitdump wins over /tmp/perf-PID.map" \
	sh -c "! grep -q jit_from_map '$out'"
# A third of the CPU time in the first code, two thirds in the second
# (before and after its move); within sampling error.
check "the first code: a third of the samples ($(near "$out" jit_first_code 33.3 2004008))" \
	near_ok "$out" jit_first_code 33.3 2004008
check "the second code: two thirds ($(near "$out" jit_second_code 66.7 2004008))" \
	near_ok "$out" jit_second_code 66.7 2004008
check "no JIT frame left unnamed" \
	sh -c "! grep -q 'jit-[0-9]*.dump\]' '$out'"
# .NET's JIT code lies in a memfd "doublemapper", not in anonymous memory.
run memfd memfd
check "code in a memfd doublemapper: exit 0" [ "$(cat "$work/memfd.rc")" = 0 ]
check "code in a memfd doublemapper: named from the dump" \
	grep -q ';jit_second_code_\[j\] [0-9]*$' "$work/memfd.folded"
[ -n "${VERBOSE:-}" ] && cat "$work"/*.err
finish
