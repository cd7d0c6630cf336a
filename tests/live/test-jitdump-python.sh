#!/bin/sh
# test-jitdump-python.sh - Python's JIT trampolines named live, with
# --call-graph dwarf: python3.13 -X perf_jit writes a jitdump (names and
# the trampolines' unwinding info, buffered until it flushes), python3.12
# -X perf a /tmp/perf-PID.map.  The Python functions must hold at least
# 80 % of the profile, and with the dump's unwinding info the stacks go
# on through the trampolines: main's frame above py_math's.
#
# usage: tests/live/test-jitdump-python.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

# python VERSION: a python3.VERSION that runs (PATH, then pyenv's), or "".
python() {
	for p in "python$1" "$(pyenv root 2>/dev/null)"/versions/"$1".*/bin/"python$1" \
		"$HOME"/.pyenv/versions/"$1".*/bin/"python$1"; do
		if "$p" -c 'pass' >/dev/null 2>&1; then
			echo "$p"
			return
		fi
	done
}

# run NAME PYTHON FLAG: sample PYTHON -X FLAG jit-work.py, DWARF stacks.
run() {
	"$BIN" -F 499 -d 60 --collapse --call-graph dwarf -- sh -c \
		'echo $$ >"$0"; exec "$@"' "$work/$1.pid" "$2" -X "$3" \
		"$here/jit-work.py" 1 >"$work/$1.folded" 2>"$work/$1.err"
	echo $? >"$work/$1.rc"
	if [ -s "$work/$1.pid" ]; then
		rm -f "/tmp/jit-$(cat "$work/$1.pid").dump" \
			"/tmp/perf-$(cat "$work/$1.pid").map"
	fi
}

ran=0
p13=$(python 3.13)
if [ -n "$p13" ] && "$p13" -X perf_jit -c pass 2>/dev/null; then
	ran=1
	run py13 "$p13" perf_jit
	share=$(share "$work/py13.folded" 'py::')
	check "python3.13 -X perf_jit: exit 0" [ "$(cat "$work/py13.rc")" = 0 ]
	check "python3.13 -X perf_jit: Python functions named ($share% >= 80%)" \
		within "$share" 80 100
	check "python3.13 -X perf_jit: unwound through the trampolines" \
		grep -q ';py::main:[^;]*jit-work.py;.*;py::py_math:' "$work/py13.folded"
fi
p12=$(python 3.12)
if [ -n "$p12" ] && "$p12" -X perf -c pass 2>/dev/null; then
	ran=1
	run py12 "$p12" perf
	share=$(share "$work/py12.folded" 'py::')
	check "python3.12 -X perf: exit 0" [ "$(cat "$work/py12.rc")" = 0 ]
	check "python3.12 -X perf: Python functions named ($share% >= 80%)" \
		within "$share" 80 100
fi
if [ "$ran" = 0 ]; then
	echo "SKIP: no python3.13 with -X perf_jit nor python3.12 with -X perf"
	exit 0
fi
[ -n "${VERBOSE:-}" ] && cat "$work"/*.err
finish
