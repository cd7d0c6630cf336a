#!/bin/sh
# test-live-collapse.sh - live sampling printed with --collapse / --text:
# known call paths and shares, -p on a running process (threads started
# later too), -a, a command that exits early, a pid that does not exist,
# usage errors, and lost samples counted.
#
# usage: tests/live/test-live-collapse.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

HOT='main;run_worker;work_hot;spin_hot'
COLD='main;run_worker;work_cold;spin_cold'

# ---- a command: paths, shares, root frame -------------------------------
"$BIN" -F 497 -d 120 --collapse -- "$TARGET" 2 >"$work/cmd.folded" \
	2>"$work/cmd.err"
rc=$?
check "command: exit status 0 ($(cat "$work/cmd.err"))" [ "$rc" -eq 0 ]
check "command: hot path present" grep -q "^live-target;.*$HOT [0-9]*$" \
	"$work/cmd.folded"
check "command: cold path present" grep -q "^live-target;.*$COLD [0-9]*$" \
	"$work/cmd.folded"
# 497 Hz: a period of 2012072 ns.
h=$(near "$work/cmd.folded" "$HOT" 66.7 2012072)
check "command: hot share $h" near_ok "$work/cmd.folded" "$HOT" 66.7 2012072
c=$(near "$work/cmd.folded" "$COLD" 33.3 2012072)
check "command: cold share $c" near_ok "$work/cmd.folded" "$COLD" 33.3 2012072
# Lines are "stack weight", sorted, weights are periods (ns) of 497 Hz.
check "command: output sorted" sh -c "LC_ALL=C sort -c '$work/cmd.folded'"
check "command: weights are multiples of the period" awk \
	'{ if ($NF % 2012072 != 0) bad = 1 } END { exit bad }' "$work/cmd.folded"

# ---- the command exits long before -d: we stop early ----------------------
start=$(date +%s)
"$BIN" -d 60 --collapse -- "$TARGET" 0.5 >"$work/early.folded" 2>"$work/early.err"
rc=$?
secs=$(( $(date +%s) - start ))
check "early exit: status 0" [ "$rc" -eq 0 ]
check "early exit: stopped after ${secs}s, not 60" [ "$secs" -le 20 ]
check "early exit: kept the samples" grep -q "$HOT" "$work/early.folded"

# A command that fails: its status is reported.
"$BIN" -d 5 --collapse -- sh -c 'exit 3' >/dev/null 2>"$work/st.err"
check "failing command: status reported" grep -q "status 3" "$work/st.err"
"$BIN" -d 5 --collapse -- /nonexistent/prog >/dev/null 2>"$work/ne.err"
rc=$?
check "missing command: exit 1" [ "$rc" -eq 1 ]
check "missing command: message" grep -q "cannot run '/nonexistent/prog'" \
	"$work/ne.err"

# ---- -p on a running process whose threads start later -------------------
"$TARGET" -t 2 4 &
tpid=$!
"$BIN" -p "$tpid" -F 497 -d 2 --collapse --tid >"$work/pid.folded" 2>"$work/pid.err"
rc=$?
check "-p: exit status 0" [ "$rc" -eq 0 ]
check "-p: threads started later are sampled" grep -q \
	"^live-target-$tpid/[0-9]*;start_thread;worker_main;run_worker;work_hot;spin_hot " \
	"$work/pid.folded"
nthreads=$(cut -d';' -f1 "$work/pid.folded" | sort -u | wc -l)
check "-p --tid: two worker threads ($nthreads)" [ "$nthreads" -ge 2 ]
h=$(near "$work/pid.folded" "work_hot;spin_hot" 66.7 2012072)
check "-p: hot share $h" near_ok "$work/pid.folded" "work_hot;spin_hot" 66.7 2012072

# The process exits while sampled: a message, and what was collected.
"$BIN" -p "$tpid" -d 120 --collapse >"$work/exit.folded" 2>"$work/exit.err"
rc=$?
check "-p exiting: status 0" [ "$rc" -eq 0 ]
check "-p exiting: message" grep -q "the process exited after" "$work/exit.err"
check "-p exiting: samples kept" grep -q "work_hot" "$work/exit.folded"
wait "$tpid" 2>/dev/null

# ---- -a: the target shows among everything else --------------------------
"$TARGET" 4 &
tpid=$!
sleep 0.3
"$BIN" -a -F 497 -d 2 --collapse >"$work/all.folded" 2>"$work/all.err"
rc=$?
check "-a: exit status 0" [ "$rc" -eq 0 ]
check "-a: target path present" grep -q "^live-target;.*$HOT " "$work/all.folded"
check "-a: other processes present" sh -c \
	"cut -d';' -f1 '$work/all.folded' | sort -u | grep -qv '^live-target\$'"
grep '^live-target;' "$work/all.folded" >"$work/all-target.folded"
h=$(near "$work/all-target.folded" "$HOT" 66.7 2012072)
check "-a: hot share within the target $h" near_ok "$work/all-target.folded" \
	"$HOT" 66.7 2012072
# --text draws the same profile
"$BIN" -a -d 1 --text --width 100 >"$work/all.txt" 2>/dev/null
check "-a --text: a flame graph" grep -q "all" "$work/all.txt"
kill "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null

# ---- failures and usage -----------------------------------------------------
"$BIN" -p 2147483 -d 1 --collapse >/dev/null 2>"$work/nopid.err"
rc=$?
check "missing pid: exit 1" [ "$rc" -eq 1 ]
check "missing pid: message" grep -q "process 2147483 does not exist" \
	"$work/nopid.err"
"$BIN" -p 12x -d 1 --collapse >/dev/null 2>"$work/u1.err"
rc=$?
check "bad pid: usage error" [ "$rc" -eq 2 ]
"$BIN" -a -p 1 -d 1 --collapse >/dev/null 2>"$work/u2.err"
rc=$?
check "two targets: usage error" [ "$rc" -eq 2 ]
"$BIN" -a --call-graph lbr -d 1 --collapse >/dev/null 2>"$work/u3.err"
rc=$?
check "unknown call graph mode: usage error" [ "$rc" -eq 2 ]
check "unknown call graph mode: says so" grep -q "unknown mode 'lbr'" \
	"$work/u3.err"
"$BIN" -a --collapse >/dev/null 2>"$work/u4.err"
rc=$?
check "-a without -d and no terminal: usage error" [ "$rc" -eq 2 ]
"$BIN" -e no-such-event -a -d 1 --collapse >/dev/null 2>"$work/u5.err"
rc=$?
check "unknown event: usage error" [ "$rc" -eq 2 ]

# cycles falls back to cpu-clock where there is no PMU, with a message.
"$BIN" -e cycles -d 5 --collapse -- "$TARGET" 0.3 >"$work/cyc.folded" \
	2>"$work/cyc.err"
rc=$?
check "cycles: status 0" [ "$rc" -eq 0 ]
check "cycles: samples" grep -q "$HOT" "$work/cyc.folded"
if grep -q "cycles are not available" "$work/cyc.err"; then ok; else
	# a machine with a PMU samples cycles and says nothing
	check "cycles: no fallback message only with a PMU" [ ! -s "$work/cyc.err" ]
fi

# ---- lost samples are counted, not fatal ------------------------------------
# Sampling starts once kallsyms is read (up to half a second on a busy
# machine): flametop is stopped well after that.
"$TARGET" 4 &
tpid=$!
"$BIN" -a -F 9999 -d 3.5 --collapse >/dev/null 2>"$work/lost.err" &
fpid=$!
sleep 1.5
kill -STOP "$fpid"
sleep 1.2
kill -CONT "$fpid"
wait "$fpid"
rc=$?
check "lost: status 0" [ "$rc" -eq 0 ]
check "lost: counted ($(head -n 1 "$work/lost.err"))" \
	grep -q "samples lost" "$work/lost.err"
kill "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null

# ---- no permission (as nobody) ----------------------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BIN" -a -d 1 --collapse >/dev/null 2>"$work/perm.err"
	rc=$?
	check "nobody -a: exit 1" [ "$rc" -eq 1 ]
	check "nobody -a: names the fix" grep -q \
		"perf_event_paranoid.*CAP_PERFMON" "$work/perm.err"
	sleep 5 &
	spid=$!
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BIN" -p "$spid" -d 1 --collapse >/dev/null 2>"$work/perm2.err"
	rc=$?
	check "nobody -p root's process: exit 1" [ "$rc" -eq 1 ]
	check "nobody -p root's process: says whose" grep -q \
		"owned by another user" "$work/perm2.err"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
fi

finish
