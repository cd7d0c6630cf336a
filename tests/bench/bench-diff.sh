#!/bin/sh
# bench-diff.sh - --diff BEFORE AFTER of two large folded files against
# loading both.
#
# usage: tests/bench/bench-diff.sh BUILDDIR BIN
#
# Generates (once) two synthetic folded profiles of 300,000 distinct stacks,
# about 300 MB each, with BUILDDIR/tools/gen-folded and two seeds, then
# runs side by side, three rounds of
#   BIN --text --width 200 A B          both loaded into one profile
#   BIN --diff --text --width 200 A B   the comparison
#   BIN --diff --collapse A B           (its columns are checked)
# and reports the best wall-clock and CPU times of each, the peak resident
# memory, and the ratios (target: --diff <= 1.3 x loading both, issue 32).  With
# BENCH_QUICK=1: 2,000 stacks, one run, no verdict.  Reports; never fails on
# a slow figure.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
. "$(dirname "$0")/folded-common.sh"
a=$dir/diff-a.folded
b=$dir/diff-b.folded
# shellcheck disable=SC2086
gen "$a" $size -s 1
# shellcheck disable=SC2086
gen "$b" $size -s 2
printf '   inputs: %d + %d distinct stacks, %s + %s MB (page cache warm)\n' \
	"$(wc -l < "$a")" "$(wc -l < "$b")" \
	"$(awk -v b="$(wc -c < "$a")" 'BEGIN { printf "%.1f", b / 1e6 }')" \
	"$(awk -v b="$(wc -c < "$b")" 'BEGIN { printf "%.1f", b / 1e6 }')"

# run NAME ARGS...: one run; adds its wall clock and CPU time to NAME's
# best and its peak memory, as NAME_t, NAME_c and NAME_m.
run() {
	name=$1
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$dir/time.out" \
		"$bin" "$@" >"$dir/stdout.out" 2>"$dir/stderr.out"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		printf '   %s: FAILED (exit %d): %s\n' "$name" "$rc" \
			"$(head -n 1 "$dir/stderr.out")"
		exit 1
	fi
	read -r t m u k < "$dir/time.out"
	eval "bt=\${${name}_t:-1e30} bc=\${${name}_c:-1e30} bm=\${${name}_m:-0}"
	eval "${name}_t=$(awk -v x="$t" -v y="$bt" 'BEGIN { print (x + 0 < y + 0) ? x : y }')"
	eval "${name}_c=$(awk -v x="$u" -v s="$k" -v y="$bc" 'BEGIN { c = x + s; print (c < y + 0) ? c : y }')"
	eval "${name}_m=$((m > bm ? m : bm))"
}

# Side by side: each round runs the three commands one after the other, so
# a change in the machine's load weighs on each alike.
for round in $runs; do
	run both --text --width 200 "$a" "$b"
	run diff --diff --text --width 200 "$a" "$b"
	run coll --diff --collapse "$a" "$b"
done
echo "   target: --diff <= 1.3 x loading both (best of $(echo $runs | wc -w) rounds, run side by side)"
printf '   %-34s %8s %8s %9s\n' "" "time" "cpu" "peak RSS"
printf '   %-34s %6.2f s %6.2f s %6d MB\n' "--text, both into one profile" \
	"$both_t" "$both_c" $((both_m / 1024))
printf '   %-34s %6.2f s %6.2f s %6d MB\n' "--diff --text" \
	"$diff_t" "$diff_c" $((diff_m / 1024))
printf '   %-34s %6.2f s %6.2f s %6d MB\n' "--diff --collapse" \
	"$coll_t" "$coll_c" $((coll_m / 1024))
# The merged columns are each file's own total.
sa=$(awk '{ s += $NF } END { printf "%.0f", s }' "$a")
sb=$(awk '{ s += $NF } END { printf "%.0f", s }' "$b")
ga=$(awk '{ s += $(NF-1) } END { printf "%.0f", s }' "$dir/stdout.out")
gb=$(awk '{ s += $NF } END { printf "%.0f", s }' "$dir/stdout.out")
if [ "$sa" = "$ga" ] && [ "$sb" = "$gb" ]; then
	echo "   --diff --collapse columns sum to each file's total: yes"
else
	echo "   --diff --collapse columns sum to each file's total: NO (a bug: $ga $gb, want $sa $sb)"
fi
awk -v dt="$diff_t" -v bt="$both_t" -v dc="$diff_c" -v bc="$both_c" \
	-v quick="${BENCH_QUICK:-}" 'BEGIN {
	rt = bt > 0 ? dt / bt : 0; rc = bc > 0 ? dc / bc : 0
	v = quick != "" ? "" : (rt <= 1.3 ? "ok" : rc <= 1.3 ? "MISSED on wall clock (busy machine?); CPU ok" : "MISSED")
	printf "   --diff / loading both: %.2f x wall clock, %.2f x CPU (target <= 1.3 x)  %s\n", rt, rc, v }'
rm -f "$dir/time.out" "$dir/stdout.out" "$dir/stderr.out"
exit 0
