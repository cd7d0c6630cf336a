#!/bin/sh
# quick.sh - every benchmark in quick mode, as a test group of make check:
# tiny inputs, one run, nothing timed is asserted.
#
# usage: tests/bench/quick.sh BUILDDIR BIN
#
# Runs each tests/bench/bench-*.sh with BENCH_QUICK=1.  A script passes when
# it exits 0, prints no failure line (FAILED, "NO (a bug)", "exited early")
# and prints at least one figure line (a number with a unit: s, ms, MB/s,
# % of one core); a script that says SKIP (no perf permission, say) passes
# without figures.  So `make bench` cannot break silently again.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
case $build in /*) ;; *) build=$top/$build ;; esac
case $bin in /*) ;; *) bin=$top/$bin ;; esac
export LC_ALL=C BENCH_QUICK=1
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for b in tests/bench/bench-*.sh; do
	[ -e "$b" ] || continue
	name=$(basename "$b" .sh)
	sh "$b" "$build" "$bin" >"$log" 2>&1
	rc=$?
	figures=$(grep -c -E '[0-9.]+ *(s|ms|us|MB/s|MB|% of one core)([ ,)]|$)' "$log")
	why=
	if [ "$rc" -ne 0 ]; then
		why="exit status $rc"
	elif grep -q -E 'FAILED|NO \(a bug\)|exited early|cannot' "$log"; then
		why="a failure line"
	elif [ "$figures" -eq 0 ] && ! grep -q -i -E '^ *skip' "$log"; then
		why="no figure line"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "ok   $name ($figures figure lines)"
	else
		fail=$((fail + 1))
		echo "FAIL $name: $why"
		sed 's/^/     /' "$log" | tail -n 20
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
