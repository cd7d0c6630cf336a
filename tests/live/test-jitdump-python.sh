#!/bin/sh
# test-jitdump-python.sh - python3.13 -X perf_jit recorded here and now
# with `perf record -k 1 --call-graph dwarf`: its jitdump's unwinding info
# lets the DWARF unwinder step through the trampolines python puts below
# each Python function, so that the script's functions (py::py_sort,
# py::py_math of tests/data/jitdump/work.py, 1.5 s of CPU time) hold at
# least 80 % of the profile, each under py::<module> and the interpreter's
# start (Py_BytesMain), and few stacks stop early.
#
# usage: tests/live/test-jitdump-python.sh FLAMETOP_BINARY
BIN=${1:?usage: $0 FLAMETOP_BINARY}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-jitpy.XXXXXX")
dump=
trap 'rm -rf "$work"; [ -n "$dump" ] && rm -f "$dump"' EXIT
export LC_ALL=C
. "$here/../lib/checks.sh"

py=$(command -v python3.13 2>/dev/null)
[ -x "$py" ] && "$py" -c 'pass' 2>/dev/null ||
	py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13 2>/dev/null | head -n 1)
if [ -z "$py" ] || ! "$py" -X perf_jit -c 'pass' 2>/dev/null; then
	echo "SKIP: no python3.13 with -X perf_jit"
	exit 0
fi
if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed"
	exit 0
fi
if ! perf record -q -k 1 --call-graph dwarf -o "$work/probe.data" -- true \
	>/dev/null 2>"$work/probe.err"; then
	echo "SKIP: perf record --call-graph dwarf does not work here: $(head -n 1 "$work/probe.err")"
	exit 0
fi

cp "$here/../data/jitdump/work.py" "$work/"
(cd "$work" && perf record -q -k 1 --call-graph dwarf -F 199 -o rec.data -- \
	"$py" -X perf_jit work.py 1.5 >/dev/null 2>"$work/perf.err")
pid=$(perf script -i "$work/rec.data" -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$pid" ] && dump=/tmp/jit-$pid.dump
check "python3.13 wrote its jitdump" test -n "$pid" -a -f "$dump"

"$BIN" --collapse "$work/rec.data" >"$work/py.folded" 2>"$work/py.err"
check "status 0" [ $? -eq 0 ]
share=$(awk '{ w = $NF; t += w; if ($0 ~ /py::py_(sort|math):/) m += w }
	END { if (t) printf "%.1f\n", 100 * m / t; else print 0 }' "$work/py.folded")
echo "py::py_sort and py::py_math: $share % of the profile"
check "the script's functions named: $share % (>= 80)" \
	awk -v s="$share" 'BEGIN { exit !(s >= 80) }'
check "unwound through the trampolines to the interpreter's start" \
	grep -q 'Py_BytesMain;.*py::<module>:[^;]*;.*py::py_sort:' "$work/py.folded"
# "N of M DWARF-unwound stacks stopped early": at most a tenth.
check "few stacks stop early: $(grep 'stopped early' "$work/py.err")" \
	awk '/stopped early/ { if ($3 * 10 > $5) bad = 1 } END { exit bad }' "$work/py.err"
summary
