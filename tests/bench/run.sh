#!/bin/sh
# run.sh - run every benchmark and print its figures.
#
# usage: tests/bench/run.sh BUILDDIR BIN
#
# Runs each tests/bench/bench-*.sh BUILDDIR BIN in name order, after a
# header naming the machine.  Figures are reported, never asserted: a slow
# figure or a failing benchmark script is printed and the run goes on, and
# the exit status is 0 (make bench must not fail a build on a busy machine).
# A script exits non-zero only on a real failure (flametop failed, wrong
# output), never on a slow figure; tests/bench/quick.sh (make check) runs
# them all with BENCH_QUICK=1 and fails on that.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
# Absolute paths: "flametop" alone would be looked up in PATH.
case $build in /*) ;; *) build=$top/$build ;; esac
case $bin in /*) ;; *) bin=$top/$bin ;; esac
export LC_ALL=C

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
mem=$(awk '/^MemTotal:/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
echo "flametop benchmarks"
echo "  machine: $(nproc) CPUs, ${cpu:-unknown CPU}, ${mem:-? GB} RAM"
echo "  kernel:  $(uname -sr)"
echo "  binary:  $bin ($("$bin" --version 2>/dev/null | head -n 1))"
echo "  date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
# Other work on the machine skews every figure: say how busy it was.
echo "  load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (1, 5, 15 min; figures are best of 3 but suffer above ~0.5)"
for b in tests/bench/bench-*.sh; do
	[ -e "$b" ] || continue
	echo
	echo "== $(basename "$b" .sh)"
	start=$(date +%s)
	if [ -x "$b" ]; then
		"$b" "$build" "$bin"
	else
		sh "$b" "$build" "$bin"
	fi
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ "$rc" -ne 0 ]; then
		echo "   ($(basename "$b") exited with status $rc after ${secs}s)"
	else
		echo "   (${secs}s)"
	fi
done
exit 0
