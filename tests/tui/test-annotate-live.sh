#!/bin/sh
# test-annotate-live.sh - live, the annotation (a) is of the graph's window:
# tests/tui/annotate-phases.c spends its CPU time in first_phase until told
# to go on, then in second_phase for longer than the window (1 s), then in
# first_phase again, and exits.  The annotation of first_phase, opened
# while it runs, loses its weight once second_phase has filled the window
# (its lines stay, each "."), and gets it back in the third phase.  When
# the target has exited the window stays on its last samples: there the
# annotation's figures for first_phase (self and total) are those of the
# graph's status line for its frame, not of every sample so far.  Then L
# (by line) resets the counts: a on a line frame opens its function with
# the counts since.
BIN=${1:?usage: test-annotate-live.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'tui_cleanup; rm -rf "$tmp"' EXIT
if ! cc -O1 -g -fno-omit-frame-pointer -o "$tmp/phases" \
	"$(dirname "$0")/annotate-phases.c" 2>"$tmp/cc.err"; then
	echo "SKIP: cannot build annotate-phases: $(head -n 1 "$tmp/cc.err")"
	exit 0
fi
: >"$tmp/go-now"
if ! "$BIN" -F 997 -d 30 --collapse -- "$tmp/phases" "$tmp/go-now" 0 0 \
	>/dev/null 2>&1; then
	echo "SKIP: sampling not permitted here"
	exit 0
fi

# The status line's figures of the selected frame: "AMOUNT (self FIGURE)".
status_figures() {
	tui_screen | tail -n 1 | sed -n 's/^first_phase | \(.* (self [^)]*)\) | .*/\1/p'
}
# The annotation header's: "... hottest by self | AMOUNT (self FIGURE)".
header_figures() {
	tui_screen | head -n 1 | sed -n 's/^ annotate first_phase: .* | \(.* (self [^)]*)\) *$/\1/p'
}

tui_start -x 120 -y 30 NO_COLOR=1 -- -F 199 --window 1 --interval 0.3 \
	-- "$tmp/phases" "$tmp/go" 3 0.5
check "opens on first_phase" tui_wait "first_phase"
tui_keys /
tui_type '^first_phase$'
tui_keys Enter
tui_keys n
check "first_phase selected" tui_wait "match 1 of 1"
tui_keys a
check "a: first_phase's annotation" tui_wait "^ annotate first_phase: self [0-9.]+%, total [0-9.]+%; hottest by self \| "
check "a: its hottest line has weight" tui_wait "^\* +[0-9.]+% +[0-9.]+% +[0-9]+  "
check "a: says it is the window's" tui_wait "live: the window's samples"
: >"$tmp/go"
# second_phase fills the window: first_phase has no sample in it.
check "second phase: first_phase's weight goes to 0" \
	tui_wait "^ annotate first_phase: self \., total \.; hottest by self \| 0 ns CPU \(self 0 ns\)" 60
check "second phase: its lines stay, weightless" \
	tui_wait "^ +\. +\. +[0-9]+  +x = x \* 6364136223846793005ul"
check "second phase: no line has weight" \
	sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -Eq "^[ *] +[0-9.]+%"' sh "$TUI_SOCK"
# The third phase: first_phase in the window again.
check "third phase: first_phase's weight back" \
	tui_wait "^\* +[0-9.]+% +[0-9.]+% +[0-9]+  " 60
tui_keys BSpace
# Exited: the window stays on the last samples, the figures still.
check "the target exits" tui_wait "exited" 60
tui_keys /
tui_type '^first_phase$'
tui_keys Enter
tui_keys n
check "exited: first_phase found" tui_wait "match 1 of 1"
tui_keys C-l   # the message gone: the status line
check "exited: first_phase selected" tui_wait "^first_phase \| "
graph=$(status_figures)
gshare=$(tui_screen | tail -n 1 | sed -n 's/^first_phase | .* | \([0-9.]*\)% of all.*/\1/p')
tui_keys a
check "exited: the annotation" tui_wait "^ annotate first_phase: "
ann=$(header_figures)
ashare=$(tui_screen | head -n 1 | sed -n 's/^ annotate first_phase: self [^,]*, total \([0-9.]*\)%.*/\1/p')
check "the annotation's figures are the graph's ('$ann' = '$graph')" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh "$graph" "$ann"
# Shares of the window's total: 12.34% there, 12.3% here.
check "the annotation's share is the graph's ($ashare% ~ $gshare%)" \
	awk -v a="$ashare" -v g="$gshare" \
	'BEGIN { d = a - g; if (d < 0) d = -d; exit !(a != "" && g != "" && d <= 0.051) }'
tui_keys BSpace q
check "exit 0" tui_wait "__EXIT:0"

# ---- L: the counts start over, the annotation's too -----------------------
# The window is everything here.  Once second_phase has samples, L names
# the frames by line and resets the counts; frozen, a on second_phase's
# line frame opens second_phase, whose total is of the samples since L:
# not above the graph's total (its samples before L would put it above),
# not below its line frame's.
# An amount as the view prints it ("1.24 s CPU", "414.1 ms") in ns.
ns() {
	printf '%s\n' "$1" | awk '{ v = $1; u = $2
		m = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "ns" ? 1 : 1e3
		printf("%.0f\n", v * m) }'
}
rm -f "$tmp/go"
tui_start -x 120 -y 30 NO_COLOR=1 -- -F 199 --window 3600 --interval 0.3 \
	-- "$tmp/phases" "$tmp/go" 60 0
check "L: opens on first_phase" tui_wait "first_phase"
: >"$tmp/go"
check "L: second_phase sampled" tui_wait "second_phase" 60
sleep 1   # more of its samples before L
tui_keys L
check "L: counts reset" tui_wait "frames by source line .* \(counts reset\)"
check "L: second_phase's line frame" tui_wait "second_phase annotate-phases\.c:[0-9]+" 60
tui_keys /
tui_type '^second_phase annotate-phases'
tui_keys Enter
tui_keys n
check "L: the line frame found" tui_wait "match 1 of"
tui_keys Space
check "L: frozen" tui_wait "FROZEN"
# Samples taken just before the freeze, still in the rings, come in at
# the next refresh: until the header stays the same for a second.
settled() {
	h1=$(tui_screen | head -n 1)
	sleep 1
	[ "$h1" = "$(tui_screen | head -n 1)" ]
}
check "L: frozen, settled" tui_poll settled
tui_keys C-l
check "L: the line frame selected" tui_wait "^second_phase annotate-phases\.c:[0-9]+ \| "
line=$(ns "$(tui_screen | tail -n 1 | sed -n 's/^second_phase [^|]* | \([^(|]*\) (self.*/\1/p')")
all=$(ns "$(tui_screen | head -n 1 | sed -n 's/^[^|]* | \([^|]*\) | .*/\1/p')")
tui_keys a
check "L then a: second_phase's annotation" tui_wait "^ annotate second_phase: self [0-9.]+%, total [0-9.]+%; hottest by self \| "
ann=$(ns "$(tui_screen | head -n 1 | sed -n 's/^ annotate second_phase: .* | \([^(]*\) (self [^)]*) *$/\1/p')")
check "L then a: fresh counts (line $line <= function $ann <= all $all ns)" \
	awk -v l="$line" -v a="$ann" -v t="$all" \
	'BEGIN { exit !(l > 0 && a > 0 && t > 0 && l <= a * 1.001 && a <= t * 1.001) }'
tui_keys BSpace q
check "L: exit 0" tui_wait "__EXIT:0"
tui_done
