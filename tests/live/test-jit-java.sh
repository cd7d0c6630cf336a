#!/bin/sh
# test-jit-java.sh - a running JVM's JIT code named through the perf map
# jcmd writes (Compiler.perfmap), sampled with -p: spinMath, where the
# program spends its CPU time (JitHot.java), holds most of the profile.
#
# usage: tests/live/test-jit-java.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! java -version >/dev/null 2>&1 || ! command -v jcmd >/dev/null 2>&1; then
	echo "SKIP: no java and jcmd here"
	exit 0
fi
java -XX:+PreserveFramePointer "$here/JitHot.java" 3 30 "$work/ready" \
	>"$work/java.out" 2>&1 &
jpid=$!
trap 'kill $jpid 2>/dev/null; rm -f "/tmp/perf-$jpid.map"; rm -rf "$work"' EXIT
# Compiling the source and warming up: CPU time, so wait long enough.
if ! poll 1200 [ -s "$work/ready" ]; then
	echo "SKIP: the JVM did not warm up in 120 s: $(head -n 1 "$work/java.out")"
	exit 0
fi
jcmd "$jpid" Compiler.perfmap >"$work/jcmd.out" 2>&1
check "jcmd wrote the perf map" [ -s "/tmp/perf-$jpid.map" ]
"$BIN" -F 499 -d 2 --collapse --jit -p "$jpid" >"$work/out.folded" \
	2>"$work/err"
check "exit 0" [ $? = 0 ]
share=$(share "$work/out.folded" 'JitHot[.:]*spinMath')
check "spinMath named ($share% >= 50%)" within "$share" 50 100
check "marked as JIT code" grep -q 'spinMath[^;]*_\[j\]' "$work/out.folded"
[ -n "${VERBOSE:-}" ] && cat "$work/err" "$work/jcmd.out"
finish
