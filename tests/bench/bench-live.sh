#!/bin/sh
# bench-live.sh - flametop's own CPU while sampling every CPU at 99 Hz,
# beside perf doing the same job.
#
# usage: tests/bench/bench-live.sh BUILDDIR BIN
#
# A busy program (tests/live/live-target.c) runs throughout so that there
# are user stacks to symbolize.  Each sampler runs for BENCH_LIVE_SECS
# (default 20) seconds; its CPU (user+system, all threads, from
# /proc/PID/task/*/schedstat) is measured after a 3 s warm-up, so start-up (reading
# kallsyms, the first symbol tables) is reported apart.  Figures are
# percent of one core.  Compared:
#   flametop -a -d N --collapse    sampling, symbolizing, no view
#   flametop -a  (TUI in tmux)     the same plus a refresh every second
#   perf top -g -F 99              perf's live view (--stdio)
#   perf record -a -g -F 99        perf writing perf.data, and then what
#                                  perf script costs to turn it into text
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
secs=${BENCH_LIVE_SECS:-20}
warm=3
# BENCH_QUICK=1 (make check): 1 s measured after 1 s.
if [ -n "${BENCH_QUICK:-}" ]; then
	secs=1
	warm=1
fi
failed=0
tck=$(getconf CLK_TCK)
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-bench-live.XXXXXX")
T="tmux -L ftbench$$ -f /dev/null"
cleanup() {
	$T kill-server 2>/dev/null
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# (Every page fault of true's start: a command that exits at once gives
# no cpu-clock sample, which is an error of its own.)
if ! "$bin" -e page-faults -c 1 -d 5 --collapse -- true >/dev/null \
	2>"$work/probe.err"; then
	# No permission to sample is a reason to skip; anything else is a bug.
	if grep -q -i -E 'perf_event|permission|paranoid|not supported' "$work/probe.err"; then
		echo "   SKIP: $(head -n 1 "$work/probe.err")"
		exit 0
	fi
	echo "   FAILED: $bin cannot sample: $(head -n 1 "$work/probe.err")"
	exit 1
fi
cc -O1 -g -fno-omit-frame-pointer -pthread tests/live/live-target.c \
	-o "$work/live-target" || exit 1
"$work/live-target" 100000 &
busy=$!

# ticks PID: CPU time of the process's threads so far, in ns (schedstat),
# or in clock ticks from /proc/PID/stat where schedstat is missing.
ticks() {
	if [ -r "/proc/$1/schedstat" ]; then
		cat /proc/"$1"/task/*/schedstat 2>/dev/null |
			awk '{ t += $1 } END { if (NR) printf "%.0f\n", t }'
	else
		awk -v hz="$tck" '{ sub(/^.*\) /, "");
			printf "%.0f\n", ($12 + $13) * 1e9 / hz }' "/proc/$1/stat" 2>/dev/null
	fi
}

# measure NAME PID: CPU % of one core over the run after the warm-up, and
# the ticks spent before it.
measure() {
	name=$1
	pid=$2
	sleep "$warm"
	t0=$(ticks "$pid")
	s0=$(date +%s.%N)
	sleep "$secs"
	t1=$(ticks "$pid")
	s1=$(date +%s.%N)
	if [ -z "$t0" ] || [ -z "$t1" ]; then
		printf '   %-34s (exited early)\n' "$name"
		return
	fi
	awk -v n="$name" -v a="$t0" -v b="$t1" -v s0="$s0" -v s1="$s1" \
	    -v w="$warm" 'BEGIN {
		printf "   %-34s %6.3f %% of one core  (first %ds: %.3f s CPU)\n",
			n, 100 * (b - a) / 1e9 / (s1 - s0), w, a / 1e9 }'
}

total=$((secs + warm + 2))
echo "   $(nproc) CPUs, 99 Hz, ${secs}s measured after ${warm}s, a busy program running"

"$bin" -a -F 99 -d "$total" --collapse >"$work/out.folded" 2>/dev/null &
p=$!
measure "flametop -a --collapse" "$p"
if ! wait "$p" || [ ! -s "$work/out.folded" ]; then
	echo "   flametop -a --collapse FAILED: no stacks"
	failed=1
fi

if command -v tmux >/dev/null 2>&1; then
	$T new-session -d -x 150 -y 40 "exec '$bin' -a -F 99"
	sleep 0.5
	p=$(pgrep -f -- "^$bin -a -F 99\$" | head -n 1)
	if [ -n "$p" ]; then
		measure "flametop -a (TUI, 1 s refresh)" "$p"
	fi
	$T kill-server 2>/dev/null
fi

if command -v perf >/dev/null 2>&1; then
	perf top -g -F 99 --stdio -d 1 >/dev/null 2>&1 </dev/null &
	p=$!
	measure "perf top -g -F 99 --stdio" "$p"
	kill -INT "$p" 2>/dev/null
	wait "$p" 2>/dev/null

	perf record -q -a -g -F 99 -o "$work/perf.data" -- sleep "$total" \
		>/dev/null 2>&1 &
	p=$!
	measure "perf record -a -g -F 99" "$p"
	wait "$p" 2>/dev/null
	# What it takes afterwards to get the stacks as text.
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%U %S" -o "$work/script.time" \
			perf script -i "$work/perf.data" >/dev/null 2>&1
		awk -v d="$total" '{ printf "   %-34s %6.3f %% of one core  (%.2f s CPU for %d s of samples)\n",
			"  + perf script afterwards", 100 * ($1 + $2) / d, $1 + $2, d }' \
			"$work/script.time"
	fi
else
	echo "   perf not installed: no comparison"
fi
exit "$failed"
