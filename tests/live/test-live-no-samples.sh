#!/bin/sh
# test-live-no-samples.sh - live sampling that gathers nothing is an error,
# as an input without a sample is: a command that exits at once, or a
# process that never runs, prints no profile, says what ran for how long
# and what would sample it (-F or -c), and exits 1; the view's header
# says so.
#
# usage: tests/live/test-live-no-samples.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

# ---- a command that exits at once ----------------------------------------
for mode in --collapse --text; do
	"$BIN" -d 5 $mode -- /bin/true >"$work/out" 2>"$work/err"
	rc=$?
	check "/bin/true $mode: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "/bin/true $mode: nothing on stdout" [ ! -s "$work/out" ]
	check "/bin/true $mode: says it exited after N ms with no samples" \
		grep -Eq '^flametop: the command exited after [0-9.]+ ms with no samples' \
		"$work/err"
	check "/bin/true $mode: suggests -F and -c" \
		grep -q -- '-F HZ.*-c N' "$work/err"
done
# A failing command: its status too.
"$BIN" -d 5 --collapse -- sh -c 'exit 3' >/dev/null 2>"$work/err"
rc=$?
check "exit 3 at once: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "exit 3 at once: no samples and the status" sh -c \
	"grep -q 'with no samples' '$work/err' && grep -q 'status 3' '$work/err'"

# ---- a process that never runs while sampled -------------------------------
sleep 30 &
spid=$!
"$BIN" -p "$spid" -d 0.5 --collapse >"$work/out" 2>"$work/err"
rc=$?
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
check "-p of a sleeping process: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "-p of a sleeping process: nothing on stdout" [ ! -s "$work/out" ]
check "-p of a sleeping process: says no samples of it" \
	grep -q "^flametop: no samples of pid $spid in " "$work/err"

# ---- the view: its header says why it is empty ----------------------------
if command -v tmux >/dev/null 2>&1; then
	T="tmux -L ftnosamples$$ -f /dev/null"
	$T new-session -d -s v -x 120 -y 12 \
		"TERM=xterm-256color '$BIN' -- /bin/true; sleep 60"
	on_header() { $T capture-pane -p -t v | head -n 1 | grep -q -- "$1"; }
	check "the view of /bin/true: the header says no samples, -F or -c" \
		poll 100 on_header "exited with no samples (try -F HZ or -c N)"
	$T kill-server 2>/dev/null
else
	echo "(no tmux: the view's header not checked)"
fi

# ---- a command that runs long enough: sampled, no such message -------------
"$BIN" -F 997 -d 30 --collapse -- "$TARGET" 0.2 >"$work/out" 2>"$work/err"
rc=$?
check "a command with CPU time: exit 0 (got $rc: $(head -c 160 "$work/err"))" \
	[ "$rc" -eq 0 ]
check "a command with CPU time: a profile" grep -q spin_hot "$work/out"
check "a command with CPU time: no 'no samples'" \
	sh -c "! grep -q 'no samples' '$work/err'"
finish
