#!/bin/sh
# bench-perf-data.sh - reading a large perf.data: flametop against perf.
#
# usage: tests/bench/bench-perf-data.sh BUILDDIR BIN
#
# Records (once, kept under BUILDDIR/bench/) a system-wide perf.data with
# frame-pointer callchains while a few busy programs run:
#     perf record -F 4999 -a -g -- sleep 32
# This is the hard case for flametop against perf report: few programs,
# few symbols and short stacks (two copies of a small C loop of three
# functions and one shell loop, none starting other programs), so perf has
# little to symbolize or print and its time goes into the samples, as
# flametop's does.  About 35 MB and 300,000 samples on 2 CPUs
# (BENCH_PERF_SECONDS changes the length).  On a shared machine the
# recording also holds whatever else ran: the first lines say what it is.
# Then times, best of 3 wall-clock runs with the page cache warm (and the
# user+sys CPU time of the best run, since other work on the machine skews
# wall-clock figures):
#   - BIN --text --width 200 FILE   (read, symbolize, first screen)
#   - BIN --collapse FILE           (read, symbolize, every stack)
#   - perf script -i FILE           (perf's own decoding and symbolizing,
#                                    the first half of the usual pipeline)
#   - perf script -i FILE | BIN --collapse   (the pipeline, with flametop
#                                    in place of stackcollapse-perf.pl)
#   - perf report --stdio -i FILE, beside BIN --text again (issue 16's
#     target: at least 10 times faster)
#   - BIN --annotate HOT --disasm FILE, HOT the hottest function by self
#     (issue 29's target: at most 1.5 times --collapse)
# and prints the ratios.  Reports only: never fails on a slow figure.
# Needs perf and permission to sample all CPUs.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
dir=$build/bench
data=$dir/perf-busy.data
secs=${BENCH_PERF_SECONDS:-32}
runs="1 2 3"
# BENCH_QUICK=1 (make check): a 1 s recording, one run each.
if [ -n "${BENCH_QUICK:-}" ]; then
	dir=$build/bench-quick
	data=$dir/perf-quick.data
	secs=1
	runs=1
fi
export LC_ALL=C

if ! command -v perf >/dev/null 2>&1; then
	echo "   SKIP: perf not installed"
	exit 0
fi
mkdir -p "$dir" || exit 1

if [ ! -s "$data" ]; then
	# A few busy programs with few symbols: a small C program (five
	# functions, recursing 8 to 12 deep) twice, and a shell loop.  Each
	# runs for the whole recording and none starts other programs.
	cat > "$dir/busy.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) static unsigned long step(unsigned long s, unsigned long i)
{
	return s + (i * i ^ (s >> 3));
}
__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s = step(s, i);
	return s;
}
int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atol(argv[1]) : 1);

	while (time(NULL) < end)
		sink += spin(1000000);
	return 0;
}
EOF
	if ! cc -O1 -g -fno-omit-frame-pointer -o "$dir/busy" "$dir/busy.c"; then
		echo "   cannot build the workload"
		exit 1
	fi
	echo "   recording $secs s of perf record -F 4999 -a -g (once) ..."
	(
		"$dir/busy" $(( secs + 1 )) &
		"$dir/busy" $(( secs + 1 )) &
		sh -c 'end=$(( $(date +%s) + $1 )); i=0
			while :; do
				i=$(( i + 1 ))
				[ $(( i % 100000 )) -ne 0 ] || [ "$(date +%s)" -lt "$end" ] || exit 0
			done' busy-loop $(( secs + 1 )) &
		sleep 0.2
		perf record -q -F 4999 -a -g -o "$data.tmp" -- sleep "$secs" \
			>/dev/null 2>"$dir/record.err"
		wait
	)
	if [ ! -s "$data.tmp" ]; then
		echo "   SKIP: perf record failed: $(head -n 1 "$dir/record.err")"
		rm -f "$data.tmp"
		exit 0
	fi
	mv "$data.tmp" "$data"
fi

samples=$(perf report -i "$data" --stats 2>/dev/null |
	awk '/SAMPLE events:/ { print $3; exit }')
printf '   input: %s, %s MB, %s samples with callchains\n' "$data" \
	"$(awk -v b="$(wc -c < "$data")" 'BEGIN { printf "%.1f", b / 1e6 }')" \
	"${samples:-?}"
# What ran while it was recorded: the programs with the most samples.
printf '   programs: %s\n' "$(perf report -i "$data" --stdio --sort comm -g none 2>/dev/null |
	awk '/^ *[0-9.]+%/ && n < 5 { printf "%s%s %s", n++ ? ", " : "", $3, $1 }')"

# best LABEL CMD...: best of 3 wall-clock seconds of sh -c CMD, with the
# user+sys CPU seconds of that run (GNU time, when there is one).
if [ -x /usr/bin/time ]; then timer="/usr/bin/time -f %U+%S -o $dir/bench.cpu"; else timer=; fi
best() {
	label=$1
	shift
	b=
	bcpu=?
	for run in $runs; do
		: > "$dir/bench.cpu"
		t0=$(date +%s%N)
		if ! $timer sh -c "$*" >/dev/null 2>"$dir/bench.err"; then
			echo "   $label: FAILED: $(head -n 1 "$dir/bench.err")"
			return 1
		fi
		t1=$(date +%s%N)
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		cpu=$(awk -F+ 'NF == 2 { printf "%.2f", $1 + $2 }' "$dir/bench.cpu")
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a + 0 < b + 0) }'; then
			b=$t
			bcpu=${cpu:-?}
		fi
	done
	printf '   %-44s %8.3f s  (cpu %s s)\n' "$label" "$b" "$bcpu"
	last=$b
	lastcpu=$bcpu
}

best "flametop --text (first screen)" "'$bin' --text --width 200 '$data'" || exit 1
ft=$last
best "flametop --collapse" "'$bin' --collapse '$data'" || exit 1
fc=$last
best "perf script" "perf script -i '$data'" || exit 1
ps=$last
best "perf script | flametop --collapse" \
	"perf script -i '$data' 2>/dev/null | '$bin' --collapse" || exit 1
awk -v ft="$ft" -v fc="$fc" -v ps="$ps" 'BEGIN {
	printf "   first screen: %.1fx faster than perf script alone ", ps / ft
	printf "(target: 10x faster than perf script | stackcollapse-perf.pl, ~4 s)\n"
	printf "   --collapse:   %.1fx faster than perf script alone\n", ps / fc
}'

# ---- perf report --stdio, side by side (issue 16) ----------------------
# The other reader of the same file: flametop's first screen against perf's
# own report of it, in the same run.  Absolute path: BIN may be relative.
pr_bin=$bin
case $pr_bin in /*) ;; *) pr_bin=$(pwd)/$pr_bin ;; esac
best "flametop --text (again, beside perf report)" \
	"'$pr_bin' --text --width 200 '$data'" || exit 0
ft2=$last
ftc2=$lastcpu
best "perf report --stdio" "perf report --stdio -i '$data'" || exit 0
awk -v ft="$ft2" -v pr="$last" -v ftc="$ftc2" -v prc="$lastcpu" \
	-v load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)" 'BEGIN {
	r = pr / ft
	printf "   first screen: %.1fx faster than perf report --stdio (target >= 20x, issue 32): %s\n",
		r, (r >= 20) ? "ok" : "MISSED"
	if (ftc + 0 > 0 && prc + 0 > 0)
		printf "   in CPU time (user+sys): %.1fx; load average %s\n", prc / ftc, load
}'
# ---- end of the perf report block ---------------------------------------

# ---- --annotate --disasm of the hottest function (issue 29) -------------
hot=$("$pr_bin" --top 1 "$data" 2>/dev/null | awk 'NR == 3 { print $NF }')
if [ -n "$hot" ]; then
	best "flametop --annotate $hot --disasm" \
		"'$pr_bin' --annotate '$hot' --disasm '$data'" || exit 0
	awk -v a="$last" -v c="$fc" 'BEGIN {
		printf "   --annotate --disasm: %.2fx --collapse (target <= 1.5x): %s\n",
			a / c, (a <= 1.5 * c) ? "ok" : "MISSED"
	}'
fi
