#!/bin/sh
# test-newcomer.sh - the first minute of a new user: the first screen says
# "? help  q quit" until a key; the keys a perf or htop user tries (F3,
# Ctrl-F, F4) do what they mean here, and a key with no action says
# "unknown key X: ? for help" with the key named readably; the help says
# F3 and Ctrl-F; copying (y) inside tmux says what tmux needs, and the
# help says it too.  At 80x24 and 200x50.
BIN=${1:?usage: test-newcomer.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

for size in 80x24 200x50; do
	w=${size%x*}
	h=${size#*x}
	tui_start -x "$w" -y "$h" -- samples/flametop-load.perf-script.zst
	tui_wait "CPU" >/dev/null
	tui_settle
	check "$size: the first screen ends with the hint" \
		tui_wait "^all \| .* +\? help  q quit$" 5
	check "$size: the hint is on the last row" \
		sh -c "printf '%s' \"\$1\" | grep -q '? help  q quit\$'" - "$(tui_line "$h")"
	tui_keys j
	check "$size: a key takes the hint away" \
		tui_poll sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q 'q quit'"
	check "$size: and the status line is back" tui_wait "^[^ |]+ \| .*% of all" 5

	# Keys with no action say so, named as the keyboard names them.
	for k in F6:F6 Tab:Tab W:W F5:F5 BTab:Shift-Tab C-g:Ctrl-G F12:F12 IC:Insert; do
		tui_keys "${k%%:*}"
		check "$size: ${k#*:} is an unknown key" \
			tui_wait "^unknown key ${k#*:}: \? for help" 5
	done
	tui_keys j
	check "$size: the message goes with the next key" \
		tui_poll sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q 'unknown key'"

	# What perf and htop users press: F3 and Ctrl-F search, F4 filters.
	tui_keys F3
	check "$size: F3 opens the search prompt" tui_wait "^/ *(\(Up|$)" 5
	tui_keys r e a d Enter
	check "$size: and searches" tui_wait "\| /read/ Matched: " 5
	tui_keys C-f
	check "$size: Ctrl-F opens the search prompt" tui_wait "^/ *(\(Up|$)" 5
	tui_keys Escape F4
	check "$size: F4 opens the keep filter" tui_wait "^filter: keep /" 5
	tui_keys Escape v F3
	check "$size: F3 in the top table filters it" tui_wait "^top filter: /" 5
	tui_keys Escape Escape

	# The help lists them, and what tmux needs for y.
	tui_keys '?'
	check "$size: the help lists F3 and Ctrl-F" tui_wait "/, F3, Ctrl-F +search frames" 5
	for i in 1 2 3 4 5 6 7 8; do tui_keys PPage; done
	found=no
	for i in $(seq 1 40); do
		if tui_screen | grep -q "set -s set-clipboard on"; then found=yes; break; fi
		tui_keys j
	done
	check "$size: the help says what tmux needs for y" [ "$found" = yes ]
	tui_keys Escape

	# y inside tmux (TMUX is set in the pane): the message says how.
	tui_keys j y
	check "$size: y in tmux says set -s set-clipboard on" \
		tui_wait "^copied the name \([0-9]+ bytes\); tmux passes it on with: set -s set-clipboard on" 5
	tui_keys q
	check "$size: exit 0" tui_wait "__EXIT:0" 5
done

# Outside tmux (no TMUX, another TERM) the message is the plain one.
tui_start_sh -x 100 -y 20 "unset TMUX; TERM=xterm-256color '$BIN' samples/sort.folded"
tui_wait "samples" >/dev/null
tui_keys j y
check "outside tmux: copied to the clipboard" tui_wait "^copied the name \([0-9]+ bytes\) to the clipboard" 5
tui_keys q

tui_done
