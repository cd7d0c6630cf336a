#!/bin/sh
# test-live-events.sh - -e EVENT with perf's names and -c N, live: page
# faults land in the function that touches fresh pages, a switch tracepoint
# and the context-switches event count one switch per blocking call, every
# weight says what it counts, and missing events or bad combinations get a
# message with the fix; --off-cpu weighs where the thread blocked by how
# long.
#
# The target (events-target.c) runs ROUNDS rounds of: 5 ms of CPU time in
# burn, nanosleep 7 ms in snooze, a 3 ms timerfd read in wait_timer, 64
# fresh pages touched in fault_pages.  Counts, not times, are asserted, so
# a loaded machine changes nothing.
#
# usage: tests/live/test-live-events.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! "$CC" -O1 -g -fno-omit-frame-pointer -pthread "$here/events-target.c" \
	-o "$work/events-target" 2>"$work/cc2.err"; then
	echo "SKIP: cannot build events-target: $(head -n 1 "$work/cc2.err")"
	exit 0
fi
EV=$work/events-target
R=20
PAGES=64

# weight FILE PATTERN: the weight of the lines matching PATTERN.
weight() {
	awk -v pat="$2" '$0 ~ pat { w += $NF } END { print w + 0 }' "$1"
}

# ---- page faults -------------------------------------------------------------
"$BIN" -e page-faults --collapse -- "$EV" $R $PAGES >"$work/pf.folded" 2>"$work/pf.err"
rc=$?
check "page-faults: status 0 ($(head -n 1 "$work/pf.err"))" [ "$rc" -eq 0 ]
f=$(weight "$work/pf.folded" ';main;run;fault_pages [0-9]+$')
want=$((R * PAGES))
check "page-faults: $f of the $want fresh-page faults in main;run;fault_pages" \
	within "$f" $((want * 95 / 100)) $((want + 8))
"$BIN" -e faults --text -- "$EV" 2 4 >"$work/pf.txt" 2>&1
check "page-faults: the --text footer says page-faults" \
	grep -q '[0-9][kMGT]\? page-faults, ' "$work/pf.txt"
# -c 2: one sample every second fault, each weighing its period (the
# kernel's count since the last sample): the weights still add up to the
# faults, where counting samples would give half.
"$BIN" -e page-faults -c 2 --collapse -- "$EV" $R $PAGES >"$work/pf2.folded" 2>&1
f2=$(weight "$work/pf2.folded" ';main;run;fault_pages [0-9]+$')
check "page-faults -c 2: $f2 of $want faults, weighed 2 each" \
	within "$f2" $((want * 95 / 100)) $((want + 8))
n2=$(grep -c ';main;run;fault_pages [0-9]*$' "$work/pf2.folded")
check "page-faults -c 2: one stack line for them ($n2): weights, not samples, make $f2" \
	[ "$n2" -eq 1 ]

# ---- one switch per blocking call ------------------------------------------
# context-switches counts every switch of the target's thread: the blocking
# ones land where it blocked.  On a loaded machine a timer may fire before
# its read (the thread was preempted in between, in libc's frameless
# timerfd_settime), so a call may block one time less.
"$BIN" -e cs --collapse -- "$EV" $R 0 >"$work/cs.folded" 2>"$work/cs.err"
s=$(weight "$work/cs.folded" ';main;run;snooze;')
t=$(weight "$work/cs.folded" ';main;run;wait_timer;')
check "context-switches: $s in snooze, $t in wait_timer, one per call ($R)" \
	sh -c "[ $s -ge $((R - R / 10)) ] && [ $s -le $((R + R / 4)) ] && [ $t -ge $((R - R / 10)) ] && [ $t -le $((R + R / 4)) ]"
"$BIN" -e cs --text -- "$EV" 2 0 >"$work/cs.txt" 2>&1
check "context-switches: the --text footer says context-switches" \
	grep -q '[0-9][kMGT]\? context-switches, ' "$work/cs.txt"

"$BIN" -e sched:sched_switch --collapse -- "$EV" $R 0 >"$work/ss.folded" 2>"$work/ss.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q -E 'tracefs|permission' "$work/ss.err"; then
	echo "note: tracepoints not available here: $(head -n 1 "$work/ss.err")"
	check "sched:sched_switch: the refusal names the fix" \
		grep -q -E 'mount -t tracefs|run as root|chmod|perf_event_paranoid' "$work/ss.err"
else
	check "sched:sched_switch: status 0 ($(head -n 1 "$work/ss.err"))" [ "$rc" -eq 0 ]
	s=$(weight "$work/ss.folded" ';main;run;snooze;')
	t=$(weight "$work/ss.folded" ';main;run;wait_timer;')
	check "sched:sched_switch: $s in snooze, $t in wait_timer, one per call ($R)" \
		sh -c "[ $s -ge $((R - R / 10)) ] && [ $s -le $((R + R / 4)) ] && [ $t -ge $((R - R / 10)) ] && [ $t -le $((R + R / 4)) ]"
	"$BIN" -e sched:sched_switch --text -- "$EV" 2 0 >"$work/ss.txt" 2>&1
	check "sched:sched_switch: the --text footer says sched:sched_switch events" \
		grep -q '[0-9][kMGT]\? sched:sched_switch events, ' "$work/ss.txt"
fi
"$BIN" -e sched:no_such_tracepoint -- "$EV" 1 0 >/dev/null 2>"$work/nt.err"
rc=$?
check "unknown tracepoint: status 2 and a message ($(head -n 1 "$work/nt.err"))" \
	sh -c "[ $rc -eq 2 ] && grep -q -E 'no such tracepoint|tracefs|permission' '$work/nt.err'"

# ---- hardware events: sampled, or a clear message ----------------------------
"$BIN" -e instructions --text -- "$EV" 2 0 >"$work/hw.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	check "instructions: the footer says instructions" \
		grep -q '[0-9][kMGT]\? instructions, ' "$work/hw.txt"
else
	check "instructions: no counter here, and the message says so" \
		grep -q 'no hardware counter for it' "$work/hw.txt"
fi

# ---- -c N with the clock: the rate is fixed, weights are ns ------------------
"$BIN" -c 1000000 --text -- "$EV" 4 0 >"$work/clk.txt" 2>&1
check "-c 1000000: cpu-clock weights are CPU time" \
	grep -q -E '[0-9] m?s CPU, ' "$work/clk.txt"
"$BIN" -c 1000000 --collapse -- "$EV" 4 0 >"$work/clk.folded" 2>&1
check "-c 1000000: every weight is a multiple of 1000000 ns" \
	awk '$NF % 1000000 { exit 1 }' "$work/clk.folded"

# ---- off-CPU: where the thread was blocked, for how long ---------------------
# A thread that blocked weighs, where it blocked, the ns from its
# switch-out to its switch-in: the blocking itself, then its wait for a
# CPU once woken.  The target runs SCHED_FIFO where it may (it says so
# when it may not), so that wait is a few microseconds even beside busy
# loops, and it is never preempted while it burns.  snooze blocks 7 ms a
# round, wait_timer 3 ms: 70/30 (checked with SCHED_FIFO only: an ordinary
# thread's waits for a CPU are in them, as long as the load makes them).
# Under any load each weighs at least its blocked time (the switch-in
# comes after the timer fired; less 0.5%: the few us between arming a
# timer and switching out), and the total at most what the target
# measured around its blocking syscalls ("events-target: blocked N ns").
# Shares and total count the rounds' stacks only (not the start, which
# may block and, before the target turns SCHED_FIFO, wait for a CPU).
RO=80
"$BIN" --off-cpu --collapse -- "$EV" $RO 0 >"$work/off.folded" 2>"$work/off.err"
rc=$?
check "--off-cpu: status 0 ($(head -n 1 "$work/off.err"))" [ "$rc" -eq 0 ]
fifo=true
if grep -q 'not SCHED_FIFO' "$work/off.err"; then
	fifo=false
	echo "note: the target could not run SCHED_FIFO ($(grep -m 1 'not SCHED_FIFO' "$work/off.err" | sed 's/^events-target: not SCHED_FIFO: //; s/ (.*//')):"
	echo "note: on a loaded machine its waits for a CPU then count where it blocked and"
	echo "note: in its wall time, as long as the load makes them: the --off-cpu and --wall"
	echo "note: shares and the preemption check are skipped; the bounds that hold under"
	echo "note: any load are checked (blocked time, CPU time, what the target measured)"
fi
grep -E ';main;run;(snooze|wait_timer);' "$work/off.folded" >"$work/off-run.folded"
a=$(share "$work/off-run.folded" ';main;run;snooze;')
b=$(share "$work/off-run.folded" ';main;run;wait_timer;')
tot=$(weight "$work/off-run.folded" '')
meas=$(sed -n 's/^events-target: blocked \([0-9]*\) ns$/\1/p' "$work/off.err")
if $fifo; then
	check "--off-cpu: snooze $a% (70 +- 6)" within "$a" 64 76
	check "--off-cpu: wait_timer $b% (30 +- 6)" within "$b" 24 36
else
	echo "note: --off-cpu shares not checked ($a/$b: not SCHED_FIFO, the waits for a CPU are in them)"
fi
sn=$(weight "$work/off-run.folded" ';main;run;snooze;')
wt=$(weight "$work/off-run.folded" ';main;run;wait_timer;')
check "--off-cpu: snooze $sn ns, wait_timer $wt ns, at least their $((RO * 7)) and $((RO * 3)) ms" \
	sh -c "[ $sn -ge $((RO * 7 * 1000000 * 995 / 1000)) ] && [ $wt -ge $((RO * 3 * 1000000 * 995 / 1000)) ]"
check "--off-cpu: $tot ns in all, not below the $((RO * 10)) ms blocked" \
	within "$tot" $((RO * 10 * 1000000 * 995 / 1000)) "${meas:-0}"
check "--off-cpu: $tot ns in all, not above the ${meas:-?} ns the target measured" \
	within "$tot" 0 "${meas:-0}"
check "--off-cpu: the stacks hold the kernel's blocking path" \
	grep -q ';main;run;snooze;.*schedule' "$work/off.folded"
check "--off-cpu: burn (never blocked) weighs nothing" \
	sh -c "! grep -q ';burn' '$work/off.folded'"
# A thread still blocked when sampling ends (-d 1, in a 10 s sleep)
# counts up to the end: about 1 s (more if flametop is late to stop on a
# loaded machine), neither nothing nor the whole sleep.
"$BIN" --off-cpu -d 1 --collapse -- sleep 10 >"$work/end.folded" 2>"$work/end.err"
e=$(weight "$work/end.folded" 'nanosleep')
check "--off-cpu -d 1: the sleep still blocked at the end weighs $e ns, up to the end" \
	within "$e" 500000000 3000000000
"$BIN" --off-cpu --text -- "$EV" 4 0 >"$work/off.txt" 2>&1
check "--off-cpu: the --text footer says off-CPU" \
	grep -q -E '[0-9] m?s off-CPU, ' "$work/off.txt"
# --wall: burn's 5 ms of CPU (cpu-clock at 999 Hz), snooze's 7 ms and
# wait_timer's 3 ms off the CPU: 33/47/20 of the thread's wall time in
# the rounds (its start, before it turns SCHED_FIFO, is left out).
# Measured 32.3-32.9/46.5-47.4/20.3-20.9, also beside two busy loops.  An
# ordinary thread's waits for a CPU (after each wake-up, and preempted in
# burn) are wall time too, as long as the load makes them: without
# SCHED_FIFO the shares are not checked.  What holds under any load is
# checked either way: burn's on-CPU weight is its CPU time, and the
# rounds' off-CPU weight lies between the blocked time and what the
# target measured around its blocking calls.
"$BIN" --wall -F 999 --collapse -- "$EV" $RO 0 >"$work/wall.folded" 2>"$work/wall.err"
rc=$?
check "--wall: status 0 ($(head -n 1 "$work/wall.err"))" [ "$rc" -eq 0 ]
grep -E ';main;run;(burn|snooze;|wait_timer;)' "$work/wall.folded" >"$work/wall-run.folded"
if $fifo; then
	a=$(share "$work/wall-run.folded" ';main;run;burn')
	b=$(share "$work/wall-run.folded" ';main;run;snooze;')
	c=$(share "$work/wall-run.folded" ';main;run;wait_timer;')
	check "--wall: burn $a% (33 +- 6)" within "$a" 27 39
	check "--wall: snooze $b% (47 +- 6)" within "$b" 41 53
	check "--wall: wait_timer $c% (20 +- 6)" within "$c" 14 26
else
	echo "note: --wall shares not checked (not SCHED_FIFO: the waits for a CPU are in them)"
fi
on=$(awk '/;main;run;burn/ && !/\[off-cpu\]/ { w += $NF } END { print w + 0 }' "$work/wall.folded")
check "--wall: burn on its CPU $on ns, its $((RO * 5)) ms of CPU time (+-15%)" \
	within "$on" $((RO * 5 * 1000000 * 85 / 100)) $((RO * 5 * 1000000 * 115 / 100))
off=$(awk '/;main;run;(snooze|wait_timer);.*\[off-cpu\] [0-9]+$/ && !/\[preempted\]/ { w += $NF }
	END { print w + 0 }' "$work/wall.folded")
meas=$(sed -n 's/^events-target: blocked \([0-9]*\) ns$/\1/p' "$work/wall.err")
check "--wall: snooze and wait_timer blocked $off ns, between $((RO * 10)) ms and the ${meas:-?} ns measured" \
	within "$off" $((RO * 10 * 1000000 * 995 / 1000)) "${meas:-0}"
check "--wall: off-CPU stacks end in [off-cpu], burn's on-CPU ones do not" \
	sh -c "grep -q ';snooze;.*;\[off-cpu\] [0-9]*\$' '$work/wall.folded' &&
	       ! grep ';burn' '$work/wall.folded' | grep -v '\[preempted\];\[off-cpu\] [0-9]*\$' | grep -q '\[off-cpu\]'"
"$BIN" --wall --text -- "$EV" 4 0 >"$work/wall.txt" 2>&1
check "--wall: the --text footer says wall" \
	grep -q -E '[0-9] m?s wall, ' "$work/wall.txt"
# Preemption: an ordinary thread (hogged) and a SCHED_FIFO one (hog) on
# one CPU; hog sleeps 3 ms then burns 2 ms of CPU, RP times, preempting
# hogged each time it wakes.  hogged never blocks: --off-cpu gives it
# nothing, --wall gives it at least hog's RP * 2 ms under [preempted].
RP=60
if $fifo; then
	"$BIN" --wall -F 999 --collapse -- "$EV" -p $RP >"$work/pre.folded" 2>"$work/pre.err"
	rc=$?
	check "--wall, preempted: status 0 ($(head -n 1 "$work/pre.err"))" [ "$rc" -eq 0 ]
	p=$(weight "$work/pre.folded" ';hogged;.*\[preempted\];\[off-cpu\] [0-9]+$')
	h=$(weight "$work/pre.folded" ';hog_main;hog;')
	check "--wall: hogged preempted $p ns, at least hog's $((RP * 2)) ms of CPU ($h ns sampled)" \
		sh -c "[ $p -ge $((RP * 2 * 1000000 * 95 / 100)) ] && [ $h -gt 0 ]"
	"$BIN" --off-cpu --collapse -- "$EV" -p $RP >"$work/pre-off.folded" 2>"$work/pre-off.err"
	rc=$?
	check "--off-cpu, preempted: status 0 ($(head -n 1 "$work/pre-off.err"))" [ "$rc" -eq 0 ]
	check "--off-cpu: hogged (preempted, never blocked) weighs nothing" \
		sh -c "! grep -q ';hogged' '$work/pre-off.folded' && grep -q ';hog_sleep;' '$work/pre-off.folded'"
else
	echo "note: preemption in --wall not checked (it needs SCHED_FIFO)"
fi
"$BIN" --off-cpu -e page-faults -- true >/dev/null 2>"$work/u0.err"
rc=$?
check "--off-cpu with -e: usage error" [ "$rc" -eq 2 ]

# ---- usage --------------------------------------------------------------------
"$BIN" -F 99 -c 5 -- true >/dev/null 2>"$work/u1.err"
rc=$?
check "-F with -c: usage error" sh -c "[ $rc -eq 2 ] && grep -q 'do not go together' '$work/u1.err'"
"$BIN" -e bogus -- true >/dev/null 2>"$work/u2.err"
rc=$?
check "-e bogus: usage error listing the events" \
	sh -c "[ $rc -eq 2 ] && grep -q 'page-faults' '$work/u2.err' && grep -q 'SUBSYSTEM:NAME' '$work/u2.err'"
printf 'a;b 1\n' >"$work/x.folded"
"$BIN" --colors mem --text "$work/x.folded" >/dev/null 2>"$work/u3.err"
check "--colors keeps its long name" [ $? -eq 0 ]
for v in mem 0 5M -1; do
	"$BIN" -c "$v" --text "$work/x.folded" >/dev/null 2>"$work/u4.err"
	rc=$?
	check "-c $v: usage error asking for a period ($(head -n 1 "$work/u4.err"))" \
		sh -c "[ $rc -eq 2 ] && grep -q 'a period: the number of events' '$work/u4.err' && ! grep -q size '$work/u4.err'"
done
finish
