#!/bin/sh
# test-firstuse.sh - what a new user tries first: --text to a pipe takes
# the terminal's width, Ctrl-L repaints, End/F1/F10, the live keys on a
# saved profile, the status line keeps its numbers, the zoom path ends with
# the zoomed frame, the timeline says when its keys are active, search
# feedback, a silent pipe, and the help overlay on a small terminal.
BIN=${1:?usage: test-firstuse.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

ends_with() { case $1 in *"$2") return 0 ;; esac; return 1; }
contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }

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

# A deep zoom: the header's path ends with the zoomed frame (the name the
# status line starts with), cut from the left.
tui_start -x 120 -y 35 -- samples/python.perf-script.zst
tui_wait "CPU" >/dev/null
tui_keys G
tui_settle
sel=$(tui_line 35 | sed 's/ | .*//')
tui_keys Enter
tui_settle
head1=$(tui_line 1 | sed 's/ *$//')
check "deep zoom: the header ends with '$sel'" ends_with "$head1" "> $sel"
check "deep zoom: the path is cut from the left" contains "$head1" "zoom: .."
tui_keys q

tui_done
