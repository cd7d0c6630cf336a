#!/bin/sh
# bench-offcpu.sh - flametop's own CPU with --off-cpu -a on a machine doing
# about 20k context switches a second, beside perf doing the same job.
#
# usage: tests/bench/bench-offcpu.sh BUILDDIR BIN
#
# tests/bench/switcher.c passes a byte between two threads through pipes,
# paced to BENCH_SWITCH_RATE (default 20000) switches a second; the rate
# the whole machine reached (/proc/stat ctxt) is printed.  Each sampler
# runs for BENCH_OFFCPU_SECS (default 10) seconds; its CPU (all threads,
# /proc/PID/task/*/schedstat) is measured after a 2 s warm-up.  Figures
# are percent of one core.  Compared:
#   flametop --off-cpu -a -d N --collapse   every switch with its stack,
#                                           paired and symbolized
#   perf record -e sched:sched_switch -a -g perf writing every switch to
#                                           perf.data, then perf script
# The target is 5 % of one core or less for flametop.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
secs=${BENCH_OFFCPU_SECS:-10}
warm=2
rate=${BENCH_SWITCH_RATE:-20000}
# BENCH_QUICK=1 (make check): 1 s measured after 1 s.
if [ -n "${BENCH_QUICK:-}" ]; then
	secs=1
	warm=1
fi
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-bench-offcpu.XXXXXX")
cleanup() {
	[ -n "$sw" ] && kill "$sw" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

if ! "$bin" --off-cpu -a -d 0.2 --collapse >/dev/null 2>"$work/probe.err"; then
	if grep -q -i -E 'perf_event|permission|paranoid|not supported' "$work/probe.err"; then
		echo "   SKIP: $(head -n 1 "$work/probe.err")"
		exit 0
	fi
	echo "   FAILED: $bin --off-cpu -a: $(head -n 1 "$work/probe.err")"
	exit 1
fi
cc -O1 -pthread tests/bench/switcher.c -o "$work/switcher" || exit 1
total=$((secs + warm + 2))
"$work/switcher" "$rate" $((total * 2 + 10)) &
sw=$!

ticks() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null |
		awk '{ t += $1 } END { if (NR) printf "%.0f\n", t }'
}
ctxt() { awk '/^ctxt/ { print $2 }' /proc/stat; }

# measure NAME PID: CPU % of one core after the warm-up, and the machine's
# switch rate meanwhile.
measure() {
	name=$1
	pid=$2
	sleep "$warm"
	t0=$(ticks "$pid")
	c0=$(ctxt)
	s0=$(date +%s.%N)
	sleep "$secs"
	t1=$(ticks "$pid")
	c1=$(ctxt)
	s1=$(date +%s.%N)
	if [ -z "$t0" ] || [ -z "$t1" ]; then
		printf '   %-40s (exited early)\n' "$name"
		return
	fi
	awk -v n="$name" -v a="$t0" -v b="$t1" -v s0="$s0" -v s1="$s1" \
	    -v c0="$c0" -v c1="$c1" 'BEGIN {
		printf "   %-40s %6.3f %% of one core  (machine: %.0f switches/s)\n",
			n, 100 * (b - a) / 1e9 / (s1 - s0), (c1 - c0) / (s1 - s0) }'
}

echo "   $(nproc) CPUs, switcher paced to $rate switches/s, ${secs}s measured after ${warm}s"
"$bin" --off-cpu -a -d "$total" --collapse >"$work/out.folded" 2>/dev/null &
p=$!
measure "flametop --off-cpu -a --collapse" "$p"
if ! wait "$p" || ! grep -q '^switcher;' "$work/out.folded"; then
	echo "   flametop --off-cpu -a FAILED: no stacks of the switcher"
	failed=1
fi
awk '/^switcher;/ { t += $NF } END { printf "   %-40s %6.3f s off-CPU in the switcher\n", "  (what it saw)", t / 1e9 }' \
	"$work/out.folded"

if command -v perf >/dev/null 2>&1; then
	perf record -q -e sched:sched_switch -a -g -o "$work/perf.data" -- \
		sleep "$total" >/dev/null 2>&1 &
	p=$!
	measure "perf record -e sched:sched_switch -a -g" "$p"
	wait "$p" 2>/dev/null
	if [ -x /usr/bin/time ] && [ -s "$work/perf.data" ]; then
		/usr/bin/time -f "%U %S" -o "$work/script.time" \
			perf script -i "$work/perf.data" >/dev/null 2>&1
		awk -v d="$total" '{ printf "   %-40s %6.3f %% of one core  (%.2f s CPU for %d s of switches)\n",
			"  + perf script afterwards", 100 * ($1 + $2) / d, $1 + $2, d }' \
			"$work/script.time"
	fi
else
	echo "   perf not installed: no comparison"
fi
exit "$failed"
