#!/bin/sh
# test-live-faults.sh - live sampling when the target misbehaves: a
# thousand short-lived children and an exec, the target killed mid-sample,
# its binary deleted and replaced while it runs, and the live view hung up,
# terminated or quit (the terminal must come back).
#
# usage: tests/live/test-live-faults.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"
. "$here/../tui/lib.sh"
trap 'tui_cleanup; rm -rf "$work"' EXIT

HOT='main;run_worker;work_hot;spin_hot'

# ---- a thousand children, then an exec ------------------------------------
"$BIN" -F 197 -d 120 --collapse -- sh -c '
	i=0
	while [ $i -lt 1000 ]; do /bin/true & i=$((i + 1)); done
	wait
	exec "$0" 1' "$TARGET" >"$work/fork.folded" 2>"$work/fork.err"
rc=$?
check "1000 children + exec: status 0 ($(head -n 1 "$work/fork.err"))" [ "$rc" -eq 0 ]
check "1000 children + exec: the exec'd program is named and unwound" \
	grep -q "^live-target;.*$HOT [0-9]*$" "$work/fork.folded"
# The share among the exec'd program's own samples: forking the children
# costs the shell CPU time too, more or less of it with the machine's load,
# so a share of all samples would measure the load, not the sampler.
grep "^live-target;" "$work/fork.folded" >"$work/fork-target.folded"
h=$(near "$work/fork-target.folded" "$HOT" 66.7 5076142)
check "1000 children + exec: hot share after exec $h" \
	near_ok "$work/fork-target.folded" "$HOT" 66.7 5076142

# ---- the target is killed mid-sample ---------------------------------------
"$TARGET" 60 &
tpid=$!
(sleep 1.5; kill -9 "$tpid") &
"$BIN" -p "$tpid" -d 60 --collapse >"$work/kill.folded" 2>"$work/kill.err"
rc=$?
wait "$tpid" 2>/dev/null
check "killed: status 0" [ "$rc" -eq 0 ]
check "killed: says the process exited" grep -q "exited" "$work/kill.err"
check "killed: keeps what was collected" grep -q "$HOT" "$work/kill.folded"

# ---- its binary is deleted, then replaced, while it is sampled -------------
cp "$TARGET" "$work/victim"
"$work/victim" 4 &
vpid=$!
"$BIN" -p "$vpid" -d 60 --collapse >"$work/del.folded" 2>"$work/del.err" &
fpid=$!
sleep 1
rm -f "$work/victim"
cp /bin/true "$work/victim"
wait "$fpid"
rc=$?
wait "$vpid" 2>/dev/null
check "deleted binary: status 0 ($(head -n 1 "$work/del.err"))" [ "$rc" -eq 0 ]
check "deleted binary: frames still named" grep -q "$HOT" "$work/del.folded"

# ---- SIGHUP, SIGTERM and SIGQUIT to the live view restore the terminal ------
for sig in HUP:129 TERM:143 QUIT:131; do
	sname=${sig%%:*}
	code=${sig#*:}
	tui_start -- -F 99 -- "$TARGET" 30
	check "live view SIG$sname: graph shown" tui_wait "spin_hot" 30
	shell=$(tmux_ display-message -p -t ft '#{pane_pid}')
	pid=$(pgrep -P "$shell" | head -n 1)
	check "live view SIG$sname: found the process" [ -n "$pid" ]
	[ -n "$pid" ] && kill -s "$sname" "$pid"
	check "live view SIG$sname: exit $code" tui_wait "__EXIT:$code"
	check "live view SIG$sname: terminal restored" tui_restored
	# "[l]ive" so that pgrep does not find the shell running it.
	check "live view SIG$sname: the command is stopped too" \
		tui_poll sh -c "! pgrep -f '[l]ive-target 30' >/dev/null"
done
tui_done
