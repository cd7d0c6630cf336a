#!/bin/sh
# test-jitdump-perf.sh - perf.data of node recorded here and now with
# `perf record -k 1 -g -- node --perf-prof` (no perf inject): flametop
# finds node's jit-PID.dump beside the recording and names the JIT frames
# from it, so that sortWork (tests/data/jitdump/sort.js, 2 s of CPU time)
# has the share it has when node writes a perf map instead
# (--perf-basic-prof), within 5 points; its frames carry the JIT mark
# (--jit) and --lines gives them sort.js lines; a copy of the recording
# without the dump says so once.  Both runs pass --no-turbo-inlining: the
# loop around sortWork is optimized (OSR) at a moment that varies from run
# to run, and sortWork inlined there has no frame of its own, which would
# move its share more than the naming does; 2 s make node's start-up
# (about 0.2 s) a small part of either profile.
#
# usage: tests/live/test-jitdump-perf.sh FLAMETOP_BINARY
BIN=${1:?usage: $0 FLAMETOP_BINARY}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-jitdump.XXXXXX")
trap 'rm -rf "$work"; [ -n "$mapfile" ] && rm -f "$mapfile"' EXIT
mapfile=
export LC_ALL=C
. "$here/../lib/checks.sh"

for cmd in perf node; do
	if ! command -v $cmd >/dev/null 2>&1; then
		echo "SKIP: $cmd is not installed"
		exit 0
	fi
done
if ! perf record -q -k 1 -g -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
	echo "SKIP: perf record -k 1 does not work here: $(head -n 1 "$work/probe.err")"
	exit 0
fi

# share FILE PATTERN: percent of the weight in stacks matching PATTERN.
share() {
	awk -v pat="$2" '{ w = $NF; t += w; if ($0 ~ pat) m += w }
		END { if (t == 0) print -1; else printf "%.1f\n", 100 * m / t }' "$1"
}

mkdir "$work/dump" "$work/map" "$work/nodump"
cp "$here/../data/jitdump/sort.js" "$work/dump/"
cp "$here/../data/jitdump/sort.js" "$work/map/"
(cd "$work/dump" && perf record -q -k 1 -g -F 499 -o rec.data -- \
	node --no-turbo-inlining --perf-prof sort.js 2 >/dev/null 2>"$work/dump.perr")
(cd "$work/map" && perf record -q -k 1 -g -F 499 -o rec.data -- \
	node --no-turbo-inlining --perf-basic-prof sort.js 2 >/dev/null 2>"$work/map.perr")
pid=$(ls "$work/dump" | sed -n 's/^jit-\([0-9]*\)\.dump$/\1/p')
check "node --perf-prof wrote jit-PID.dump" [ -n "$pid" ]
mpid=$(perf script -i "$work/map/rec.data" -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$mpid" ] && mapfile=/tmp/perf-$mpid.map

"$BIN" --collapse --jit "$work/dump/rec.data" >"$work/dump.folded" 2>"$work/dump.err"
check "the dump's recording: status 0" [ $? -eq 0 ]
"$BIN" --collapse "$work/map/rec.data" >"$work/map.folded" 2>"$work/map.err"
sd=$(share "$work/dump.folded" 'sortWork')
sm=$(share "$work/map.folded" 'sortWork')
echo "sortWork: $sd % from the jitdump, $sm % from the perf map"
check "sortWork from the dump ($sd %) as from the perf map ($sm %), within 5 points" \
	awk -v a="$sd" -v b="$sm" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 30 && d <= 5) }'
check "its frames marked JIT" grep -q 'JS:\*sortWork [^;]*_\[j\]' "$work/dump.folded"
check "no message about the dump" sh -c "! grep -q 'jit-$pid.dump' '$work/dump.err'"

"$BIN" --collapse --lines "$work/dump/rec.data" >"$work/lines.folded" 2>/dev/null
check "--lines: sortWork's lines in sort.js" \
	grep -q 'JS:\*sortWork [^;]* sort\.js:[45][;  ]' "$work/lines.folded"

# (Not beside it, nor where node wrote it.)
cp "$work/dump/rec.data" "$work/nodump/"
rm -f "$work/dump/jit-$pid.dump"
"$BIN" --collapse "$work/nodump/rec.data" >"$work/nodump.folded" 2>"$work/nodump.err"
check "without the dump: said once" \
	[ "$(grep -c "jit-$pid.dump of process $pid not found" "$work/nodump.err")" -eq 1 ]

summary
