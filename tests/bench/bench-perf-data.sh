#!/bin/sh
# bench-perf-data.sh - reading a large perf.data: flametop against perf.
#
# usage: tests/bench/bench-perf-data.sh BUILDDIR BIN
#
# Records (once, kept under BUILDDIR/bench/) a system-wide perf.data with
# frame-pointer callchains while a busy workload runs on every CPU:
#     perf record -F 4999 -a -g -- sleep 30
# (about 300,000 samples on 2 CPUs), then times, best of 3 wall-clock
# runs with the page cache warm:
#   - BIN --text --width 200 FILE   (read, symbolize, first screen)
#   - BIN --collapse FILE           (read, symbolize, every stack)
#   - perf script -i FILE           (perf's own decoding and symbolizing,
#                                    the first half of the usual pipeline)
#   - perf script -i FILE | BIN --collapse   (the pipeline, with flametop
#                                    in place of stackcollapse-perf.pl)
# and prints the ratios.  The target is a first screen at least 10 times
# faster than `perf script | stackcollapse-perf.pl` (about 4 s here); perf
# script alone is a lower bound of that pipeline.  Reports only: never
# fails on a slow figure.  Needs perf and permission to sample all CPUs.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
dir=$build/bench
data=$dir/perf-300k.data
secs=${BENCH_PERF_SECONDS:-30}
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
	# A workload with real call paths: compiling C, compressing, hashing.
	cat > "$dir/busy.c" <<'EOF'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) static void touch(void) { sink++; }
__attribute__((noinline)) static unsigned long leaf(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	touch();
	return s;
}
__attribute__((noinline)) static unsigned long walk(int depth, unsigned long n)
{
	unsigned long s = depth ? walk(depth - 1, n) + walk(depth - 2 > 0 ? depth - 2 : 0, n / 2) : leaf(n);

	touch();
	return s;
}
int main(int argc, char **argv)
{
	long secs = argc > 1 ? atol(argv[1]) : 1;

	for (long k = 0; k < secs * 40; k++)
		sink += walk(8 + (int)(k % 5), 2000);
	return 0;
}
EOF
	if ! cc -O1 -g -fno-omit-frame-pointer -o "$dir/busy" "$dir/busy.c"; then
		echo "   cannot build the workload"
		exit 1
	fi
	echo "   recording $secs s of perf record -F 4999 -a -g (once) ..."
	(
		end=$(( $(date +%s) + secs ))
		"$dir/busy" "$secs" &
		while [ "$(date +%s)" -lt "$end" ]; do
			head -c 20000000 /dev/urandom | gzip -1 | sha256sum >/dev/null
		done &
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

# best LABEL CMD...: best of 3 wall-clock seconds of sh -c CMD.
best() {
	label=$1
	shift
	b=
	for run in $runs; do
		t0=$(date +%s%N)
		if ! sh -c "$*" >/dev/null 2>"$dir/bench.err"; then
			echo "   $label: FAILED: $(head -n 1 "$dir/bench.err")"
			return 1
		fi
		t1=$(date +%s%N)
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		b=$(awk -v a="$t" -v b="${b:-1e30}" 'BEGIN { print (a + 0 < b + 0) ? a : b }')
	done
	printf '   %-44s %8.3f s\n' "$label" "$b"
	last=$b
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
best "perf report --stdio" "perf report --stdio -i '$data'" || exit 0
awk -v ft="$ft2" -v pr="$last" 'BEGIN {
	r = pr / ft
	printf "   first screen: %.1fx faster than perf report --stdio (target >= 10x): %s\n",
		r, (r >= 10) ? "ok" : "MISSED"
}'
# ---- end of the perf report block ---------------------------------------
