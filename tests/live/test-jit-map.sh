#!/bin/sh
# test-jit-map.sh - JIT maps (/tmp/perf-PID.map) are believed only from
# their owner: a program runs generated code named in its map; owned by
# root (we are root) the name shows, owned by nobody it is ignored with a
# message, as a root flametop -a must not believe a map anyone can write.
#
# usage: tests/live/test-jit-map.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: not root (the test gives a map to another user)"
	exit 0
fi
if ! "$CC" -O1 -o "$work/jit-target" "$here/jit-target.c" 2>"$work/cc.err"; then
	echo "SKIP: cannot build jit-target: $(head -n 1 "$work/cc.err")"
	exit 0
fi
nobody=$(id -u nobody 2>/dev/null || echo 65534)

# run NAME OWNER: sample jit-target whose map OWNER owns.
run() {
	"$BIN" -F 499 -d 60 --collapse --jit -- "$work/jit-target" "$2" 0.3 \
		"$work/$1.pid" >"$work/$1.folded" 2>"$work/$1.err"
	echo $? >"$work/$1.rc"
	[ -s "$work/$1.pid" ] && rm -f "/tmp/perf-$(cat "$work/$1.pid").map"
}

run root 0
if [ "$(cat "$work/root.rc")" = 0 ] && ! grep -q . "$work/root.folded" &&
	grep -q 'x86-64 only' "$work/root.err"; then
	echo "SKIP: jit-target runs on x86-64 only"
	exit 0
fi
check "root's map: exit 0" [ "$(cat "$work/root.rc")" = 0 ]
check "root's map: its name shows" grep -q ';jit_planted_spin_\[j\] [0-9]*$' \
	"$work/root.folded"
check "root's map: no message about it" sh -c "! grep -q 'ignored /tmp/perf-' '$work/root.err'"

run nobody "$nobody"
pid=$(cat "$work/nobody.pid")
check "nobody's map: exit 0" [ "$(cat "$work/nobody.rc")" = 0 ]
check "nobody's map: its name is not believed" sh -c \
	"! grep -q jit_planted_spin '$work/nobody.folded'"
check "nobody's map: the JIT code still shows, unnamed" grep -q \
	"\[perf-$pid.map\]_\[j\] [0-9]*\$" "$work/nobody.folded"
check "nobody's map: the message says whose it is" grep -q \
	"ignored /tmp/perf-$pid.map: owned by uid $nobody, and only maps owned by root or by this user (uid 0) are read" \
	"$work/nobody.err"
finish
