#!/bin/sh
# test-basic.sh - open a profile in the TUI (tmux) and use it as a person
# would: the root shows 100.00%, the frames on screen are the --text
# layout, moving and zooming (with history and reset) change the status
# line and breadcrumb, resizing redraws at the new size, a tiny terminal
# gets a message, flip, help (over the whole screen), colors, scrolling a deep graph, and q
# restores the terminal.
BIN=${1:?usage: test-basic.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=tests/golden/basic.folded
total=$("$BIN" --collapse "$IN" | awk '{ s += $NF } END { printf "%.0f\n", s }')

# The frame rows of the screen (lines 2..N+1) and of --text, trimmed.
frames_screen() { tui_screen | sed -n "2,$(( $1 + 1 ))p" | sed 's/ *$//'; }
frames_text() { "$BIN" --text -w "$1" "$IN" | sed '/^$/,$d' | sed 's/ *$//'; }
rows=$(frames_text 120 | wc -l)

tui_start NO_COLOR=1 -- "$IN"
check "opens" tui_wait "basic.folded \| $total samples"
check "root 100%" tui_wait "^all \| $total samples \(self 0\) \| 100.00% of all \| 100.00% of zoom"
check "frames = --text" [ "$(frames_screen "$rows")" = "$(frames_text 120)" ]

tui_keys j
check "down to main" tui_wait "^main \| 85 samples \(self 5\) \| 85.00% of all \| 85.00% of zoom"
tui_keys Enter
check "zoom: breadcrumb" tui_wait "zoom: all > main$"
check "zoom: main is full width" [ "$(tui_line 3 | sed 's/ *$//' | wc -c)" -eq 121 ]
check "zoom: % of zoom" tui_wait "^main \| 85 samples \(self 5\) \| 85.00% of all \| 100.00% of zoom"
tui_keys j l
check "to render" tui_wait "^render \| 30 samples \(self 5\) \| 30.00% of all \| 35.29% of zoom"
tui_keys Enter
check "zoom twice" tui_wait "zoom: all > main > render$"
tui_keys BSpace
check "zoom out one level" tui_wait "zoom: all > main$"
tui_keys u
check "zoom out to all" tui_wait "^[^|]*basic.folded \| $total samples$"
tui_keys Enter r
check "r resets" tui_wait "^[^|]*basic.folded \| $total samples$"
tui_keys u
check "no history after reset" tui_wait "not zoomed in"

# Resize: the frames are the --text layout at the new width.
same_frames() { [ "$(frames_screen "$rows")" = "$(frames_text "$1")" ]; }
tmux_ resize-window -t ft -x 80 -y 24
check "resize 80x24" tui_poll same_frames 80
tmux_ resize-window -t ft -x 12 -y 3
check "tiny terminal" tui_wait "^too small"
tmux_ resize-window -t ft -x 200 -y 60
check "resize 200x60" tui_poll same_frames 200

# Flip: the root row moves to the bottom, just above the status line.
root_line() { [ "$(tui_screen | grep -n '^\[all ' | cut -d: -f1)" = "$1" ]; }
tui_keys f
check "flame: root at the bottom" tui_poll root_line 59
tui_keys f
check "icicle: root at the top" tui_poll root_line 2

tui_keys '?'
check "help overlay" tui_wait "Enter +zoom into the selected frame"
check "help: timeline keys" tui_wait "Timeline mode \(after t"
# The overlay covers the screen: no frame ("[name]") shows at its edges.
no_frames() { ! tui_screen | grep -q '[][]'; }
check "help covers the frames" tui_poll no_frames
tui_keys x
no_help() { ! tui_screen | grep -q 'zoom into the selected'; }
check "help closes" tui_poll no_help

tui_keys q
check "q exits 0" tui_wait "__EXIT:0"
check "terminal restored" tui_restored

# Colors: 256-color frames; the same layout drawn with colors.
tui_start -- "$IN"
tui_wait "basic.folded" >/dev/null
check "256 colors used" sh -c "tmux -L '$TUI_SOCK' capture-pane -e -p -t ft | grep -q '48;5;'"
tui_keys c
check "c cycles the theme" tui_wait "^theme [a-z]+: "
tui_keys q
check "colors: exit 0" tui_wait "__EXIT:0"

# Truecolor: COLORTERM=truecolor picks TERM's -direct flavor (24-bit SGR).
if infocmp tmux-direct >/dev/null 2>&1; then
	tui_start COLORTERM=truecolor -- "$IN"
	tui_wait "basic.folded" >/dev/null
	check "24-bit colors used" sh -c "tmux -L '$TUI_SOCK' capture-pane -e -p -t ft | grep -q '48;2;[0-9]*;[0-9]*;[0-9]*m'"
	tui_keys q
	check "truecolor: exit 0" tui_wait "__EXIT:0"
	# Differential input: grown frames red, shrunk blue, unchanged white.
	tui_start COLORTERM=truecolor -- tests/golden/diff.folded
	tui_wait "diff.folded" >/dev/null
	row() { tmux -L "$TUI_SOCK" capture-pane -e -p -t ft | sed -n 4p; }
	has() { row | grep -q "$1"; }
	check "diff: grown is red" tui_poll has '48;2;255;40;40mnew'
	check "diff: shrunk is blue" tui_poll has '48;2;[0-9]*;[0-9]*;255mold'
	check "diff: unchanged is white" tui_poll has '48;2;255;255;255msame'
	tui_keys q
else
	echo "note: no tmux-direct terminfo (ncurses-term): truecolor not checked"
fi

# A deep graph in a short terminal scrolls, with a marker below.
deep=$("$BIN" --text -w 120 samples/sort.folded | sed '/^$/,$d' | wc -l)
pg=$((deep - 10 < 10 ? deep - 10 : 10))
tui_start -y 12 NO_COLOR=1 -- samples/sort.folded
check "deep: rows shown" tui_wait "\| rows 1-10 of $deep"
check "deep: more-below marker" sh -c "tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed -n 11p | grep -q '▼\$'"
tui_keys NPage
check "deep: PgDn" tui_wait "\| rows $((pg + 1))-$((pg + 10)) of $deep"
tui_keys G
check "deep: G to the bottom" tui_wait "\| rows $((deep - 9))-$deep of $deep"
tui_keys g
check "deep: g to the top" tui_wait "\| rows 1-10 of $deep"
check "deep: root selected" tui_wait "^all \| "
tui_keys q
check "deep: exit 0" tui_wait "__EXIT:0"

# --colors with an unknown theme is a usage error, before the screen opens.
tui_start -- --colors no-such-theme "$IN"
check "unknown theme: exit 2" tui_wait "__EXIT:2"
check "unknown theme: message" tui_wait "no theme 'no-such-theme' \(have: .*hot"

# A terminal that cannot move the cursor gets the text view; an unknown
# terminal type is an error that says what to do.
tui_start TERM=dumb -- "$IN"
check "dumb: text instead" tui_wait "cannot move the cursor: printing the flame graph as text"
check "dumb: the text view" tui_wait "^\[all +\]$"
check "dumb: exit 0" tui_wait "__EXIT:0"
tui_start TERM=no-such-terminal -- "$IN"
check "unknown TERM: message" tui_wait "cannot use terminal type 'no-such-terminal'; use --text"
check "unknown TERM: exit 1" tui_wait "__EXIT:1"

tui_done
