#!/bin/sh
# test-live-header.sh - the live header names what is sampled: --wall
# samples cpu-clock at the rate (99 Hz, or -F) and every context switch,
# and says both ("cpu-clock 99 Hz + context-switches"), not the switch
# event alone; --off-cpu takes every switch and times the waits, and says
# so, not a period; plain sampling says its event and rate.  At 80x24 the
# header's figures are cut, so the view is 200 columns wide.
#
# usage: tests/live/test-live-header.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux not installed"
	exit 0
fi
n=0
T="tmux -L fthead$$-$n -f /dev/null"
# End the server, and remove the socket file tmux leaves behind.
stop() {
	sock=$($T display-message -p '#{socket_path}' 2>/dev/null)
	$T kill-server 2>/dev/null
	case $sock in /*) rm -f "$sock" ;; esac
}
trap 'stop; rm -rf "$work"' EXIT

header() { $T capture-pane -p -t live 2>/dev/null | head -n 1; }
has() { header | grep -q -- "$1"; }

# run ARGS...: the view of "flametop ARGS -- sleep 30" in a 200x50 pane.
run() {
	stop
	n=$((n + 1))   # a server of its own: a new one on the old socket races
	T="tmux -L fthead$$-$n -f /dev/null"
	$T new-session -d -s live -x 200 -y 50 \
		"TERM=xterm-256color '$BIN' $* -- sleep 30; echo FLAMETOP-EXITED \$?; sleep 30"
	poll 100 has "lost "
}

if run --wall; then
	check "--wall: the header says both parts ($(header))" \
		poll 50 has "| cpu-clock 99 Hz + context-switches |"
	$T send-keys -t live q
	run --wall -F 49
	check "--wall -F 49: at its rate ($(header))" \
		poll 50 has "| cpu-clock 49 Hz + context-switches |"
	$T send-keys -t live q
else
	echo "note: --wall cannot sample here ($(header)); not checked"
fi
if run --off-cpu; then
	check "--off-cpu: every switch, each wait timed ($(header))" \
		poll 50 has "| context-switches (all, timed) |"
	$T send-keys -t live q
else
	echo "note: --off-cpu cannot sample here ($(header)); not checked"
fi
run -F 49
check "cpu-clock alone: event and rate ($(header))" \
	poll 50 has "| cpu-clock 49 Hz |"
$T send-keys -t live q
finish
