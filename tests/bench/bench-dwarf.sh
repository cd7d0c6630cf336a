#!/bin/sh
# bench-dwarf.sh - the CPU cost of --call-graph dwarf: flametop sampling
# and unwinding live, against perf record --call-graph dwarf plus the
# perf script that turns its file into stacks.
#
# usage: tests/bench/bench-dwarf.sh BUILDDIR BIN
#
# Workloads, each attached with -p while it runs on one CPU:
#   c       a program built -O2 -g -fomit-frame-pointer (shallow C stacks,
#           one inlined function)
#   python  Debian's /usr/bin/python3 in a busy loop (deep stacks)
# For each, at 99 and 999 Hz, for BENCH_DWARF_SECS seconds (default 10),
# with the same 16 KiB stack copy:
#   flametop -p PID --call-graph dwarf -d SECS --collapse
#   perf record --call-graph dwarf,16384 -p PID -- sleep SECS
#   perf script -i that file           (decoding + unwinding + symbols)
# CPU is user + system from /usr/bin/time; "per sample" divides it by the
# samples each tool saw.  Reports only; never fails on a slow figure.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
secs=${BENCH_DWARF_SECS:-10}
rates="99 999"
# BENCH_QUICK=1 (make check): 1 s at 99 Hz per workload.
if [ -n "${BENCH_QUICK:-}" ]; then
	secs=1
	rates=99
fi
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-bench-dwarf.XXXXXX")
busy=
cleanup() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
export LC_ALL=C

if [ ! -x /usr/bin/time ]; then
	echo "   SKIP: /usr/bin/time not installed"
	exit 0
fi
# (Every page fault of true's start: a command that exits at once gives
# no cpu-clock sample, which is an error of its own.)
if ! "$bin" --call-graph dwarf -e page-faults -c 1 -d 5 --collapse -- true \
	>/dev/null 2>"$work/probe.err"; then
	# No permission to sample is a reason to skip; anything else is a bug.
	if grep -q -i -E 'perf_event|permission|paranoid|not supported' "$work/probe.err"; then
		echo "   SKIP: $(head -n 1 "$work/probe.err")"
		exit 0
	fi
	echo "   FAILED: $bin cannot sample: $(head -n 1 "$work/probe.err")"
	exit 1
fi
cat >"$work/t.c" <<'EOF'
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	return x * 6364136223846793005ul + 1442695040888963407ul;
}
__attribute__((noinline)) void spin(unsigned n)
{
	unsigned long x = sink;
	for (unsigned i = 0; i < n; i++)
		x = mix(x);
	sink = x;
}
__attribute__((noinline)) void work(void) { spin(1000000); sink++; }
int main(void)
{
	for (;;)
		work();
}
EOF
cc -O2 -g -fomit-frame-pointer "$work/t.c" -o "$work/t" || exit 1
have_perf=false
if command -v perf >/dev/null 2>&1 &&
   perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
	have_perf=true
fi

# cpu FILE: user + system seconds from /usr/bin/time -f "%U %S".
cpu() {
	awk '{ printf "%.3f", $1 + $2 }' "$1"
}

# row NAME CPU SAMPLES
row() {
	awk -v n="$1" -v c="$2" -v s="$3" -v d="$secs" 'BEGIN {
		printf "   %-44s %7.3f s CPU  %5.2f %% of a core", n, c, 100 * c / d
		if (s > 0)
			printf "  %6.1f us/sample (%d)", 1e6 * c / s, s
		printf "\n" }'
}

for load in c python; do
	case $load in
	c)	"$work/t" &
		busy=$! ;;
	python)
		if [ ! -x /usr/bin/python3 ]; then
			echo "   python: /usr/bin/python3 not installed"
			continue
		fi
		/usr/bin/python3 -c '
def inner(n):
    return sum(i * i for i in range(n))
while True:
    inner(10000)
' &
		busy=$! ;;
	esac
	sleep 0.5
	for hz in $rates; do
		echo "   $load workload, $hz Hz, ${secs}s:"
		if ! /usr/bin/time -f "%U %S" -o "$work/ft.time" "$bin" -p "$busy" \
			--call-graph dwarf -F "$hz" -d "$secs" --collapse \
			>"$work/ft.folded" 2>"$work/ft.err" || [ ! -s "$work/ft.folded" ]; then
			echo "   flametop --call-graph dwarf FAILED: $(head -n 1 "$work/ft.err")"
			failed=1
			continue
		fi
		n=$(awk -v p=$((1000000000 / hz)) '{ w += $NF } END { printf "%.0f", w / p }' \
			"$work/ft.folded")
		row "flametop --call-graph dwarf" "$(cpu "$work/ft.time")" "$n"
		t=$(grep -o '[0-9]* of [0-9]* DWARF' "$work/ft.err")
		[ -n "$t" ] && echo "      (${t%DWARF}stacks stopped early)"
		if $have_perf; then
			/usr/bin/time -f "%U %S" -o "$work/rec.time" perf record -q \
				--call-graph dwarf,16384 -F "$hz" -p "$busy" \
				-o "$work/p.data" -- sleep "$secs" >/dev/null 2>&1
			/usr/bin/time -f "%U %S" -o "$work/scr.time" perf script \
				-i "$work/p.data" >"$work/p.txt" 2>/dev/null
			n=$(grep -c 'cpu-clock' "$work/p.txt")
			r=$(cpu "$work/rec.time")
			s=$(cpu "$work/scr.time")
			row "perf record --call-graph dwarf,16384" "$r" "$n"
			row "  + perf script" "$s" "$n"
			row "  = perf record + perf script" \
				"$(awk -v a="$r" -v b="$s" 'BEGIN { print a + b }')" "$n"
		fi
	done
	kill "$busy" 2>/dev/null
	wait "$busy" 2>/dev/null
	busy=
done
if ! $have_perf; then
	echo "   perf not available: no comparison"
fi
exit "$failed"
