#!/bin/sh
# test-live-perf.sh - flametop's own sampling agrees with perf: the same
# program sampled at the same time by `flametop -a -d N --collapse` and by
# `perf record -a -g` + `perf script` (folded by flametop's perf script
# reader) gives the same paths with the same shares, up to sampling error.
#
# usage: tests/live/test-live-perf.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf not installed"
	exit 0
fi
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
	echo "SKIP: perf record does not work here"
	exit 0
fi

# The paths of one program with at least 3% of its weight, and their
# shares of it: "path share" lines, sorted.
paths() {
	grep "^$2;" "$1" | awk '{ w = $NF; sub(/ [0-9.]+$/, ""); s[$0] += w; t += w }
		END { for (k in s) if (100 * s[k] / t >= 3)
			printf "%s %.1f\n", k, 100 * s[k] / t }' | LC_ALL=C sort
}

"$TARGET" 6 &
tpid=$!
sleep 0.3
perf record -q -N -a -g -F 497 -o "$work/perf.data" -- sleep 4 \
	>/dev/null 2>"$work/perf.err" &
ppid=$!
"$BIN" -a -F 497 -d 4 --collapse >"$work/live.folded" 2>"$work/live.err"
rc=$?
wait "$ppid"
check "flametop -a: status 0" [ "$rc" -eq 0 ]
perf script -i "$work/perf.data" >"$work/perf.txt" 2>/dev/null
"$BIN" --collapse "$work/perf.txt" >"$work/perf.folded" 2>"$work/read.err"
check "perf script folded by flametop" [ -s "$work/perf.folded" ]
kill "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null

paths "$work/live.folded" live-target >"$work/live.paths"
# perf itself now and then leaves a few frames of the program unresolved
# ("[live-target]"); those are perf's, not ours, and are left out.
grep -v '\[live-target\]' "$work/perf.folded" >"$work/perf.resolved"
paths "$work/perf.resolved" live-target >"$work/perf.paths"
cut -d' ' -f1 "$work/live.paths" >"$work/live.names"
cut -d' ' -f1 "$work/perf.paths" >"$work/perf.names"
check "same paths as perf: $(tr '\n' ' ' <"$work/live.names") vs $(tr '\n' ' ' <"$work/perf.names")" \
	cmp -s "$work/live.names" "$work/perf.names"
check "the hot path is among them" grep -q "work_hot;spin_hot" "$work/live.names"
join "$work/live.paths" "$work/perf.paths" >"$work/both"
# Samples of the program on each side (497 Hz: 2012072 ns each); two
# independent estimates of a share differ by sampling error only: allow 4.5
# standard errors of the difference plus 2 points.
nl=$(awk '/^live-target;/ { t += $NF } END { printf "%d", t / 2012072 }' "$work/live.folded")
np=$(awk '/^live-target;/ { t += $NF } END { printf "%d", t / 2012072 }' "$work/perf.resolved")
check "enough samples of the program ($nl and $np)" [ "$nl" -ge 100 -a "$np" -ge 100 ]
check "shares agree: $(tr '\n' ' ' <"$work/both")" \
	awk -v n1="$nl" -v n2="$np" '{ p = $2 / 100; d = $2 - $3; if (d < 0) d = -d
		tol = 100 * 4.5 * sqrt(p * (1 - p) * (1 / n1 + 1 / n2)) + 2
		if (d > tol) bad = 1 } END { exit bad }' "$work/both"

# The whole machine: the share of the program itself agrees as well, more
# loosely: each tool's own CPU shows differently in the other's view (the
# time perf spends writing perf.data appears under "perf" only in ours).
lt=$(share "$work/live.folded" "^live-target;")
pt=$(share "$work/perf.folded" "^live-target;")
d=$(awk -v a="$lt" -v b="$pt" 'BEGIN { d = a - b; if (d < 0) d = -d; print d }')
check "live-target's share of the machine: $lt% vs perf $pt%" within "$d" 0 10

finish
