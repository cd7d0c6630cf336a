#!/bin/sh
# test-jitdump-python.sh - Python's JIT trampolines named live, with
# --call-graph dwarf: python3.13 -X perf_jit writes a jitdump (names and
# the trampolines' unwinding info, buffered until it flushes), python3.12
# -X perf a /tmp/perf-PID.map.  The Python functions must hold at least
# 80 % of the profile, and with the dump's unwinding info the stacks go
# on through the trampolines: the script's frame above py_math's.
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

# run NAME PYTHON FLAG: sample PYTHON -X FLAG work.py, DWARF stacks.
run() {
	"$BIN" -F 499 -d 60 --collapse --call-graph dwarf -- sh -c \
		'echo $$ >"$0"; exec "$@"' "$work/$1.pid" "$2" -X "$3" \
		"$here/../data/jitdump/work.py" 1 >"$work/$1.folded" 2>"$work/$1.err"
	echo $? >"$work/$1.rc"
	if [ -s "$work/$1.pid" ]; then
		rm -f "/tmp/jit-$(cat "$work/$1.pid").dump" \
			"/tmp/perf-$(cat "$work/$1.pid").map"
	fi
}

# try VERSION FLAG: sample python3.VERSION -X FLAG where it runs; the
# Python functions must hold at least 80 %.
ran=0
try() {
	py=$(python "$1")
	[ -n "$py" ] && "$py" -X "$2" -c pass 2>/dev/null || return 1
	ran=1
	run "py$1" "$py" "$2"
	share=$(share "$work/py$1.folded" 'py::')
	check "python$1 -X $2: exit 0" [ "$(cat "$work/py$1.rc")" = 0 ]
	check "python$1 -X $2: Python functions named ($share% >= 80%)" \
		within "$share" 80 100
	return 0
}
if try 3.13 perf_jit; then
	check "python3.13 -X perf_jit: unwound through the trampolines" \
		grep -q ';py::<module>:[^;]*work.py;.*;py::py_math:' \
		"$work/py3.13.folded"
fi
try 3.12 perf
if [ "$ran" = 0 ]; then
	echo "SKIP: no python3.13 with -X perf_jit nor python3.12 with -X perf"
	exit 0
fi
[ -n "${VERBOSE:-}" ] && cat "$work"/*.err
finish
