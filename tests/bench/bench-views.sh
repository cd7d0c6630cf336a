#!/bin/sh
# bench-views.sh - the derived views' speed: each view (include, exclude,
# callers, callees, invert, fold recursion, weight order, per-thread
# grouping, CPU and time filters) and the top table on 1M-node trees, by
# BUILDDIR/tools/bench-views (targets: a view <= 150 ms, the top table
# <= 50 ms; each line gives the median and best wall-clock time and the
# median CPU time, the steadier figure on a busy machine, beside its
# target); then `--top 50` against `--collapse` on the 300 MB folded
# file of bench-folded.sh (target: at most 1.3 times as long), best of 3
# wall-clock times each.  Reports; never fails on a slow figure.
#
# usage: tests/bench/bench-views.sh BUILDDIR BIN
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
tool=$build/tools/bench-views
file=$build/bench/synth.folded
export LC_ALL=C

if [ -x "$tool" ]; then
	"$tool" 1000000
else
	echo "   SKIP: $tool not built (make O=... tests-bin)"
fi
if [ ! -s "$file" ]; then
	echo "   SKIP --top: $file missing (bench-folded.sh makes it)"
	exit 0
fi
# best3 ARGS...: the best of 3 wall-clock times of BIN ARGS FILE, in s.
best3() {
	best=
	for i in 1 2 3; do
		t0=$(date +%s%N)
		"$bin" "$@" "$file" >/dev/null || return 1
		t1=$(date +%s%N)
		best=$(awk -v a="$t0" -v b="$t1" -v best="$best" 'BEGIN {
			t = (b - a) / 1e9; if (best == "" || t < best) best = t
			printf "%.3f", best }')
	done
	echo "$best"
}
c=$(best3 --collapse) || exit 1
t=$(best3 --top 50) || exit 1
awk -v c="$c" -v t="$t" 'BEGIN {
	printf "   --collapse      %6.3f s\n", c
	printf "   --top 50        %6.3f s  (%.2f x --collapse; target <= 1.3 x)\n", t, t / c }'
