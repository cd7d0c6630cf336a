#!/bin/sh
# test-live-burst.sh - counting events live, against perf: a burst of page
# faults is sampled whole, -c N takes every Nth software event and weighs
# it N, a tracepoint is taken at every hit whatever -c says (and flametop
# says so), and lost samples name the setting that would help.
#
# The target (burst-target.c) touches A fresh pages in fault_a, then B in
# fault_b, as fast as the CPU takes the faults: one fault a page, so the
# counts are known whatever the machine's load.  Where perf is installed,
# perf record of the same target is the reference as well.
#
# usage: tests/live/test-live-burst.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! "$CC" -O1 -g -fno-omit-frame-pointer "$here/burst-target.c" \
	-o "$work/burst-target" 2>"$work/cc2.err"; then
	echo "SKIP: cannot build burst-target: $(head -n 1 "$work/cc2.err")"
	exit 0
fi
BT=$work/burst-target

# weight FILE PATTERN: the weight of the lines matching PATTERN.
weight() {
	awk -v pat="$2" '$0 ~ pat { w += $NF } END { print w + 0 }' "$1"
}
# near2 GOT WANT: GOT within 1% (and 20) of WANT.
near2() {
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d
		exit !(d <= w / 100 + 20) }'
}
A_RE=';main;fault_a [0-9]+$'
B_RE=';main;fault_b [0-9]+$'

# ---- a burst of 12,000 then 4,000 faults, sampled whole ---------------------
# Every fault is a sample (period 1), some 16,000 in a tenth of a second:
# far more than a ring holds, so the rings must be drained as it fills.
"$BIN" -e page-faults -d 30 --collapse -- "$BT" 12000 4000 \
	>"$work/b.folded" 2>"$work/b.err"
rc=$?
ca=$(weight "$work/b.folded" "$A_RE")
cb=$(weight "$work/b.folded" "$B_RE")
check "burst: status 0 ($(head -n 1 "$work/b.err"))" [ "$rc" -eq 0 ]
check "burst: fault_a $ca of 12000 faults" near2 "$ca" 12000
check "burst: fault_b $cb of 4000 faults" near2 "$cb" 4000
check "burst: no samples lost ($(grep lost "$work/b.err"))" \
	sh -c "! grep -q 'samples lost' '$work/b.err'"

# The same burst in a process attached with -p.  It starts once flametop
# samples: flametop holds its events and waits for their records in its
# main loop (the thread's wchan is a poll), not in its start-up, which a
# busy machine can stretch past any fixed delay.  Where wchan says nothing,
# 2 s.
sampling() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perf_event' &&
		grep -q 'poll\|select' "/proc/$1/wchan" 2>/dev/null
}
# Does this kernel name a sleeping thread's wait in wchan, or keep it
# hidden ("0")?  Asked of a sleep until it names one, for up to 5 s: a
# thread still starting (running, or asleep for a moment in the loader)
# shows "0" too, and the answer, so the checks that run, must not depend
# on how fast it got to its sleep.
wchan_named() {
	sleep 30 &
	sl=$!
	n=0
	named=1
	while [ "$n" -lt 250 ]; do
		if grep -q '[a-z]' "/proc/$sl/wchan" 2>/dev/null; then
			named=0
			break
		fi
		sleep 0.02
		n=$((n + 1))
	done
	kill "$sl" 2>/dev/null
	wait "$sl" 2>/dev/null
	return "$named"
}
sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec "$0" 12000 4000' \
	"$BT" "$work/go" 2>/dev/null &
bpid=$!
"$BIN" -e page-faults -p "$bpid" -d 30 --collapse >"$work/bp.folded" \
	2>"$work/bp.err" &
fpid=$!
if wchan_named; then
	check "burst, -p: flametop samples within 60 s" poll 600 sampling "$fpid"
else
	sleep 2
fi
: >"$work/go"
wait "$fpid"
wait "$bpid"
a=$(weight "$work/bp.folded" "$A_RE")
b=$(weight "$work/bp.folded" "$B_RE")
check "burst, -p: fault_a $a of 12000 faults" near2 "$a" 12000
check "burst, -p: fault_b $b of 4000 faults" near2 "$b" 4000

# ---- perf record -c 1 (every fault) of the same burst ---------------------
if command -v perf >/dev/null 2>&1 &&
	perf record -q -e page-faults -c 1 -g -o "$work/p.data" "$BT" 12000 4000 \
		>/dev/null 2>&1; then
	"$BIN" --collapse "$work/p.data" >"$work/p.folded" 2>/dev/null
	pa=$(weight "$work/p.folded" "$A_RE")
	pb=$(weight "$work/p.folded" "$B_RE")
	check "burst: fault_a $ca live, $pa by perf record" near2 "$ca" "$pa"
	check "burst: fault_b $cb live, $pb by perf record" near2 "$cb" "$pb"
	perf stat -x, -e page-faults -o "$work/stat.txt" "$BT" 12000 4000 \
		>/dev/null 2>&1
	ps=$(awk -F, '/page-faults/ { print $1 }' "$work/stat.txt")
	t=$(weight "$work/b.folded" '.')
	check "burst: $t faults live, ${ps:-?} by perf stat" near2 "$t" "${ps:-0}"
else
	echo "note: perf record not available, compared with the known counts only"
fi

# ---- -c 10: every 10th fault, weighing 10 ------------------------------------
# fault_b touches 5 pages: at most one sample of 10 there, where sampling
# every fault would give 5.
"$BIN" -e page-faults -c 10 -d 30 --collapse -- "$BT" 12000 5 \
	>"$work/c.folded" 2>"$work/c.err"
a=$(weight "$work/c.folded" "$A_RE")
b=$(weight "$work/c.folded" "$B_RE")
check "-c 10: fault_a weighs $a, about 12000" near2 "$a" 12000
check "-c 10: fault_b's 5 faults weigh $b: 0 or 10" \
	sh -c "[ '$b' -eq 0 ] || [ '$b' -eq 10 ]"
odd=$(awk '$NF % 10' "$work/c.folded" | head -n 1)
check "-c 10: every weight a multiple of 10 (${odd:-all are})" [ -z "$odd" ]
if [ -f "$work/p.data" ] &&
	perf record -q -e page-faults -c 10 -g -o "$work/pc.data" "$BT" 12000 5 \
		>/dev/null 2>&1; then
	"$BIN" --collapse "$work/pc.data" >"$work/pc.folded" 2>/dev/null
	pa=$(weight "$work/pc.folded" "$A_RE")
	check "-c 10: fault_a $a live, $pa by perf record -c 10" near2 "$a" "$pa"
fi

# -e cs -c 10 -a (the README's example): context switches system-wide. A
# shell sleeping 10 ms at a time beside it switches at least twice a round,
# so there are switches to sample on a machine that is otherwise idle.
(i=0; while [ "$i" -lt 400 ]; do sleep 0.01; i=$((i + 1)); done) &
sw=$!
sleep 0.2
"$BIN" -e cs -c 10 -a -d 1 --collapse >"$work/cs.folded" 2>"$work/cs.err"
kill "$sw" 2>/dev/null
wait "$sw" 2>/dev/null
odd=$(awk '$NF % 10' "$work/cs.folded" | head -n 1)
check "-e cs -c 10 -a: switches sampled ($(wc -l <"$work/cs.folded") stacks)" \
	[ -s "$work/cs.folded" ]
check "-e cs -c 10 -a: every weight a multiple of 10 (${odd:-all are})" [ -z "$odd" ]

# ---- a tracepoint: every hit, whatever -c -------------------------------------
# Four execs (the shell's, then three of true): -c 100 cannot thin them.
"$BIN" -e sched:sched_process_exec -c 100 -d 30 --collapse -- \
	sh -c '/bin/true; /bin/true; exec /bin/true' \
	>"$work/tp.folded" 2>"$work/tp.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'tracefs\|tracepoint' "$work/tp.err"; then
	echo "note: no tracepoints here: $(head -n 1 "$work/tp.err")"
else
	t=$(weight "$work/tp.folded" '.')
	check "tracepoint -c 100: the 4 execs weigh $t" [ "$t" -eq 4 ]
	check "tracepoint -c 100: says -c cannot thin it" \
		grep -q -- '-c 100 cannot thin a tracepoint' "$work/tp.err"
	check "tracepoint -c 100: says it once" \
		[ "$(grep -c 'cannot thin' "$work/tp.err")" -eq 1 ]
fi

# ---- lost samples name the setting that applies ------------------------------
# DWARF stacks copy 8 KiB a sample: a burst of 40,000 faults overflows any
# ring.  Counted events are thinned by -c, not by a rate.
"$BIN" -e page-faults --call-graph dwarf -d 30 --collapse -- "$BT" 40000 1 \
	>/dev/null 2>"$work/l.err"
lost=$(grep 'samples lost' "$work/l.err")
check "lost, page-faults: said ($lost)" [ -n "$lost" ]
check "lost, page-faults: the hint names -c, not -F" \
	sh -c "printf '%s\n' '$lost' | grep -q -- 'try -c N' &&
		! printf '%s\n' '$lost' | grep -q -- '-F'"
finish
