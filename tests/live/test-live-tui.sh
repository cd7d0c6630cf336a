#!/bin/sh
# test-live-tui.sh - the live view in a private tmux server: the graph
# appears and refreshes, space freezes it while sampling goes on, w, +, s
# and x do what they say, q quits and stops the command.
#
# usage: tests/live/test-live-tui.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux not installed"
	exit 0
fi
T="tmux -L ftlive$$ -f /dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$work"' EXIT

screen() { $T capture-pane -p -t live; }
# The header's own part (before the live status), which moves on refresh.
head_part() { screen | head -n 1 | sed 's/ | FROZEN.*//; s/ | cpu-clock.*//'; }
# What a frozen view must keep: the total and the frames drawn.
frozen_part() { screen | sed -n '1s/ | FROZEN.*//p; 2,$p'; }
# wait_for PATTERN [TRIES]: poll the screen (0.1 s steps).
on_screen() { screen | grep -q -- "$1"; }
wait_for() { poll "${2:-100}" on_screen "$1"; }
key() { $T send-keys -t live "$@"; }

cd "$work" || exit 1
$T new-session -d -s live -x 170 -y 30 \
	"TERM=xterm-256color '$BIN' --interval 0.3 -- '$TARGET' 60; echo FLAMETOP-EXITED \$?; sleep 30"

check "the graph shows the hot path" wait_for "spin_hot"
check "and the cold path" wait_for "spin_cold"
check "the header shows the event and rate" wait_for "cpu-clock 99 Hz"
check "the header shows lost samples" wait_for "lost 0"
check "the header shows flametop's CPU" wait_for "CPU [0-9.]*%"
fpid=$(pgrep -f -- "--interval 0.3 -- $TARGET" | head -n 1)
tpid=$(pgrep -P "$fpid" | head -n 1)
check "the command runs as flametop's child" [ -n "$tpid" ]

# Refreshing: the header's totals move.
a=$(head_part)
sleep 1.2
b=$(head_part)
check "the view refreshes ($a / $b)" [ "$a" != "$b" ]

# Freeze: the view stays put while sampling goes on.
key Space
check "space freezes" wait_for "frozen"
sleep 0.5
a=$(frozen_part)
sleep 1.2
b=$(frozen_part)
check "frozen view does not change" [ "$a" = "$b" ]
b=$(head_part)
check "the header says FROZEN" wait_for "FROZEN"
key Space
check "space resumes" wait_for "resumed"
sleep 1.2
c=$(head_part)
check "resumed view moves again" [ "$b" != "$c" ]

# Window, rate, save, reset.
key w
check "w cycles the window" wait_for "window: last 30 s"
key w
check "w again: everything" wait_for "window: everything"
key +
check "+ raises the rate" wait_for "sampling at 497 Hz"
check "header follows the rate" wait_for "cpu-clock 497 Hz"
key -
check "- lowers it" wait_for "sampling at 99 Hz"
key s
check "s saves and says where" wait_for "saved [0-9]* stacks to $work/flametop-live-"
saved=$(ls "$work"/flametop-live-*.folded 2>/dev/null | head -n 1)
check "the saved file exists" [ -s "$saved" ]
check "the saved file is folded stacks of the view" \
	grep -q "^live-target;.*work_hot;spin_hot [0-9]*$" "$saved"
key x
check "x resets the counts" wait_for "counts reset"

# q quits; the command flametop started is stopped with it.
key q
check "q quits" wait_for "FLAMETOP-EXITED 0"
sleep 0.3
check "the command is gone" sh -c "! kill -0 $tpid 2>/dev/null"

# A command that exits: the view says so and keeps its graph, even once
# the window (1 s here) has passed.
$T new-session -d -s short -x 170 -y 30 \
	"TERM=xterm-256color '$BIN' --window 1 --interval 0.3 -- '$TARGET' 1; sleep 30"
short() { $T capture-pane -p -t short; }
n=300
while [ "$n" -gt 0 ] && ! short | head -n 1 | grep -q "exited"; do
	sleep 0.1
	n=$((n - 1))
done
check "exited command: the header says exited" sh -c "$T capture-pane -p -t short | head -n 1 | grep -q exited"
sleep 2.5
check "exited command: the graph stays after the window" sh -c \
	"$T capture-pane -p -t short | grep -q spin_hot"
$T send-keys -t short q

# A rate change on -p: the busy thread is started after flametop attached
# (inherited events), and every sample after "+" must weigh the new period.
# The window's CPU total then stays near window x busy threads (5 s, never
# 25 s), and the measured rate (samples/s) follows the new rate.
"$TARGET" -t 1 600 &
rtp=$!
$T new-session -d -s rate -x 200 -y 20 \
	"TERM=xterm-256color '$BIN' --interval 0.3 -p $rtp; sleep 30"
rate_head() { $T capture-pane -p -t rate | head -n 1; }
# The window's CPU in seconds ("4.988 s CPU", or "414.141 ms CPU" when the
# machine is so busy that the thread ran less than a second).
cpu_total() {
	rate_head | sed -n 's/.* | \([0-9.]*\) \(m*s\) CPU | .*/\1 \2/p' |
		awk '{ printf "%.3f\n", $2 == "ms" ? $1 / 1000 : $1 }'
}
measured() { rate_head | sed -n 's/.* Hz | \([0-9]*\)\/s | .*/\1/p'; }
n=200
while [ "$n" -gt 0 ] && ! rate_head | grep -q "s CPU"; do sleep 0.1; n=$((n - 1)); done
sleep 6.5
r1=$(measured)
t1=$(cpu_total)
$T send-keys -t rate +
n=100
while [ "$n" -gt 0 ] && ! $T capture-pane -p -t rate | grep -q "sampling at 497 Hz"; do
	sleep 0.1; n=$((n - 1))
done
check "+ on -p: sampling at 497 Hz" [ "$n" -gt 0 ]
check "+ on -p: the header says 497 Hz" sh -c "$T capture-pane -p -t rate | head -n 1 | grep -q 'cpu-clock 497 Hz'"
sleep 6.5
r2=$(measured)
t2=$(cpu_total)
echo "rate change: $t1 s CPU at $r1/s, then $t2 s CPU at $r2/s (5 s window, one busy thread)"
check "before +: the window holds about 5 s of one thread ($t1 s)" within "${t1:-0}" 0.2 6.5
check "after +: still about 5 s of one thread, not 25 s ($t2 s)" within "${t2:-99}" 0.2 6.5
check "after +: the measured rate follows ($r1/s -> $r2/s)" \
	awk -v a="${r1:-0}" -v b="${r2:-0}" 'BEGIN { exit !(a > 0 && b >= 2.5 * a) }'
$T send-keys -t rate -
n=100
while [ "$n" -gt 0 ] && ! $T capture-pane -p -t rate | grep -q "sampling at 99 Hz"; do
	sleep 0.1; n=$((n - 1))
done
sleep 6.5
r3=$(measured)
t3=$(cpu_total)
echo "back down: $t3 s CPU at $r3/s"
check "after -: still about 5 s of one thread ($t3 s)" within "${t3:-99}" 0.2 6.5
check "after -: the measured rate drops ($r2/s -> $r3/s)" \
	awk -v a="${r2:-0}" -v b="${r3:-0}" 'BEGIN { exit !(b > 0 && a >= 2.5 * b) }'
$T send-keys -t rate q
kill "$rtp" 2>/dev/null
wait "$rtp" 2>/dev/null

# A command's time range: seconds since sampling began (a command that
# sleeps has no samples, which once left the range on the boot clock).
$T new-session -d -s cmd -x 170 -y 20 \
	"TERM=xterm-256color '$BIN' --interval 0.3 -- sleep 30; sleep 30"
n=100
while [ "$n" -gt 0 ] && ! $T capture-pane -p -t cmd | head -n 1 | grep -q "time "; do
	sleep 0.1; n=$((n - 1))
done
sleep 1
h=$($T capture-pane -p -t cmd | head -n 1)
end=$(printf '%s\n' "$h" | sed -n 's/.*| time [0-9.]*-\([0-9.]*\) s of \([0-9.]*\) s.*/\1 \2/p')
echo "command header: $h"
check "command: the time range is seconds since sampling began ($end)" \
	sh -c "set -- $end; [ \$# -eq 2 ] && awk -v b=\$1 -v o=\$2 'BEGIN { exit !(b > 0.5 && b < 60 && o >= b - 0.001 && o < 60) }'"
$T send-keys -t cmd x
sleep 1
h=$($T capture-pane -p -t cmd | head -n 1)
end=$(printf '%s\n' "$h" | sed -n 's/.*| time [0-9.]*-\([0-9.]*\) s.*/\1/p')
check "command: after x too ($end)" within "${end:-0}" 0.5 60
$T send-keys -t cmd q

# At 80 columns the live header shows the window, the lost count and
# flametop's CPU.
"$TARGET" 600 &
ntp=$!
$T new-session -d -s narrow -x 80 -y 20 \
	"TERM=xterm-256color '$BIN' --interval 0.3 -p $ntp; sleep 30"
n=150
while [ "$n" -gt 0 ] && ! $T capture-pane -p -t narrow | grep -q "spin_hot"; do
	sleep 0.1; n=$((n - 1))
done
sleep 1
h=$($T capture-pane -p -t narrow | head -n 1)
echo "80 columns: $h"
check "80 columns: the window shows" sh -c "printf '%s' '$h' | grep -q 'last 5 s'"
check "80 columns: the lost count shows" sh -c "printf '%s' '$h' | grep -q 'lost [0-9]'"
check "80 columns: flametop's CPU shows" sh -c "printf '%s' '$h' | grep -q 'CPU [0-9.]*%'"
$T send-keys -t narrow q
kill "$ntp" 2>/dev/null
wait "$ntp" 2>/dev/null

finish
