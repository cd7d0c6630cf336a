#!/bin/sh
# test-live-baseline.sh - comparing live: b takes the window as the
# baseline, then the view shows the live window against it (the header
# says so, frames carry +/- marks without colors, the root's status line
# gives before and after, and it keeps refreshing; the top table
# compares too); b again drops it.
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
# The root's "before" and "after" amounts in the status line.
after_amount() { screen | sed -n 's/^all | .*, after \([0-9.]* m*s\) (.*/\1/p' | head -n 1; }
before_amount() { screen | sed -n 's/^all | .*before \([0-9.]* m*s\) (.*/\1/p' | head -n 1; }
# A "1.23 s" / "56.7 ms" figure in ns.
ns() { echo "$1" | awk '{ print $1 * ($2 == "ms" ? 1e6 : 1e9) }'; }

cd "$work" || exit 1
$T new-session -d -s live -x 170 -y 30 \
	"NO_COLOR=1 TERM=xterm-256color '$BIN' --interval 0.3 --window 3600 -- '$TARGET' 60; echo FLAMETOP-EXITED \$?; sleep 30"

check "the graph shows the hot path" wait_for "spin_hot"
key b
check "b takes the baseline" wait_for "baseline taken"
check "the header says compare" wait_for "view: compare against the baseline"
key g
check "root: before and after" wait_for "^all \| .*before [0-9.]+ m?s \([0-9.]+%\), after [0-9.]+ m?s \("
check "the comparison draws the hot path" wait_for "\[[+-]?spin_hot"
# The window is all time here: after grows, the baseline stays.
a=$(after_amount)
pa=$(before_amount)
sleep 1.5
b=$(after_amount)
pb=$(before_amount)
grew() { [ -n "$1" ] && [ -n "$2" ] && awk -v x="$(ns "$1")" -v y="$(ns "$2")" 'BEGIN { exit !(y > x) }'; }
same_nonempty() { [ -n "$1" ] && [ "$1" = "$2" ]; }
check "the comparison refreshes: after grows ($a / $b)" grew "$a" "$b"
check "the baseline stays ($pa / $pb)" same_nonempty "$pa" "$pb"
check "still compared after refreshes" wait_for "view: compare against the baseline"
# The top table of the comparison: before, after and the change.
key v
check "top table: the comparison's columns" wait_for "^ +self:b +self:a +change +total:b +total:a +change +function"
check "top table: spin_hot compared" wait_for "^ +[0-9.]+% +[0-9.]+% +(new|gone|0\.00|[-+][0-9.]+) +[0-9.]+% +[0-9.]+% +(new|gone|0\.00|[-+][0-9.]+)  spin_hot"
key BSpace
check "top table left" wait_for "view: compare against the baseline$"
key b
check "b again drops the baseline" wait_for "no baseline"
check "the header no longer compares" sh -c "! $T capture-pane -p -t live | head -n 1 | grep -q compare"
key q
check "q quits" wait_for "FLAMETOP-EXITED 0"
finish
