#!/bin/sh
# test-jitdump-node.sh - node's JIT code named live from its jitdump
# (node --perf-prof writes jit-PID.dump in its folder) as it is from its
# perf map (--perf-basic-prof): the share of sortWork, which spends most
# of the CPU time (tests/data/jitdump/sort.js), within 5 points of each other, and --jit
# marks the frames.  The shares are of the stacks that run JavaScript (a
# JS: frame): writing the dump costs node start-up time of its own, more
# on a busy machine, which moved sortWork's share of the whole run by
# itself (77 % against 86 % under two busy loops); and JIT code left
# unnamed ([jit-PID.dump]) is at most 5 % of the run.  Even so, node's
# own work among those stacks (its GC) moved the two shares up to 7
# points apart once in four pairs with five busy processes on 2 CPUs: a
# pair more than 5 points apart is run once more, and the second pair
# decides.
#
# usage: tests/live/test-jitdump-node.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! node -e 0 >/dev/null 2>&1; then
	echo "SKIP: no node here"
	exit 0
fi

# run NAME FLAG: sample node FLAG sort.js (in $work: the dump's folder).
# Compiled on node's own thread, not on others that a busy machine may
# starve (until its code is optimized sortWork runs in the interpreter,
# whose frames do not name it): the shares no longer depend on the load.
# Without inlining: when the driver loop was compiled on the stack with
# sortWork inlined into it, that time was named after the script's top
# level (sort.js:1:1), in one run of a pair and not the other (70 % against
# 95 % twice in a row under the sanitizers); kept as its own frame,
# sortWork's shares were 93-94 % in every run.
run() {
	(cd "$work" && "$BIN" -F 999 -d 60 --collapse --jit -- sh -c \
		'echo $$ >"$0"; exec "$@"' "$work/$1.pid" node "$2" \
		--no-concurrent-recompilation --no-concurrent-sparkplug --no-turbo-inlining \
		"$here/../data/jitdump/sort.js" 2 >"$work/$1.folded" 2>"$work/$1.err")
	echo $? >"$work/$1.rc"
	[ -s "$work/$1.pid" ] && rm -f "/tmp/perf-$(cat "$work/$1.pid").map"
}

# sortWork's share of the stacks that run JavaScript.
js_share() {
	grep 'JS:' "$1" >"$1.js"
	share "$1.js" 'sortWork'
}
pair() {
	run map --perf-basic-prof
	run dump --perf-prof
	map=$(js_share "$work/map.folded")
	dump=$(js_share "$work/dump.folded")
}
pair
if ! within "$(awk -v a="$dump" -v b="$map" 'BEGIN { print a - b }')" -5 5; then
	echo "note: sortWork $dump% vs $map%: one more pair"
	pair
fi
check "--perf-basic-prof: exit 0" [ "$(cat "$work/map.rc")" = 0 ]
check "--perf-prof: exit 0" [ "$(cat "$work/dump.rc")" = 0 ]
check "--perf-prof: the dump was written in its folder" \
	[ -s "$work/jit-$(cat "$work/dump.pid").dump" ]
check "--perf-basic-prof names sortWork ($map%)" within "$map" 30 100
check "--perf-prof names sortWork as much ($dump% vs $map%)" \
	within "$(awk -v a="$dump" -v b="$map" 'BEGIN { print a - b }')" -5 5
unnamed=$(share "$work/dump.folded" '\[jit-[0-9]+\.dump\]')
check "--perf-prof: JIT code left unnamed at most 5 % ($unnamed%)" \
	within "$unnamed" 0 5
check "--perf-prof: JIT frames marked" \
	grep -q ';JS:[*^~]sortWork [^;]*_\[j\]' "$work/dump.folded"
[ -n "${VERBOSE:-}" ] && cat "$work"/*.err
finish
