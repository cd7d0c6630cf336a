#!/bin/sh
# test-live-baseline.sh - comparing live: b takes the window as the
# baseline, then the view shows the live window against it (the header
# says so, frames carry +/- marks without colors, the root's status line
# gives before and after, and it keeps refreshing); b again drops it.
#
# usage: tests/live/test-live-baseline.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux not installed"
	exit 0
fi
T="tmux -L ftbase$$ -f /dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$work"' EXIT

screen() { $T capture-pane -p -t live; }
wait_for() {
	n=${2:-100}
	while [ "$n" -gt 0 ]; do
		if screen | grep -q -E -- "$1"; then return 0; fi
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
key() { $T send-keys -t live "$@"; }
# The root's "after" amount in the status line.
after_amount() { screen | sed -n 's/^all | .*, after \([0-9.]* m*s CPU\) (.*/\1/p' | head -n 1; }

cd "$work" || exit 1
$T new-session -d -s live -x 170 -y 30 \
	"NO_COLOR=1 TERM=xterm-256color '$BIN' --interval 0.3 --window 1 -- '$TARGET' 60; echo FLAMETOP-EXITED \$?; sleep 30"

check "the graph shows the hot path" wait_for "spin_hot"
key b
check "b takes the baseline" wait_for "baseline taken"
check "the header says compare" wait_for "view: compare against the baseline"
key g
check "root: before and after" wait_for "^all \| .*before [0-9.]+ m?s CPU \([0-9.]+%\), after [0-9.]+ m?s CPU"
check "the comparison draws the hot path" wait_for "\[[+-]?spin_hot"
a=$(after_amount)
sleep 1.5
b=$(after_amount)
check "the comparison refreshes ($a / $b)" [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]
check "still compared after refreshes" wait_for "view: compare against the baseline"
key b
check "b again drops the baseline" wait_for "no baseline"
check "the header no longer compares" sh -c "! $T capture-pane -p -t live | head -n 1 | grep -q compare"
key q
check "q quits" wait_for "FLAMETOP-EXITED 0"
finish
