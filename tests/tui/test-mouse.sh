#!/bin/sh
# test-mouse.sh - the mouse in the TUI, with X10 mouse reports typed into
# the pane (what a terminal sends for tmux-256color's kmous): a click
# selects a frame, a double click zooms into it, the wheel scrolls, and
# two clicks on the timeline strip select a time range.
BIN=${1:?usage: test-mouse.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

report() { tui_mouse "$@"; }
click() { tui_click "$@"; }
dblclick() { tui_dblclick "$@"; }

tui_start NO_COLOR=1 -- tests/golden/basic.folded
tui_wait "basic.folded" >/dev/null
click 100 3
check "click selects" tui_wait "^render \| 30 samples \(self 5\)"
dblclick 40 4
check "double click zooms" tui_wait "zoom: all > main > parse > read_line$"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

deep=$("$BIN" --text -w 120 samples/sort.folded | sed '/^$/,$d' | wc -l)
tui_start -y 12 NO_COLOR=1 -- samples/sort.folded
tui_wait "rows 1-10 of $deep" >/dev/null
report 97 50 5
check "wheel down scrolls" tui_wait "\| rows 4-13 of $deep"
report 96 50 5
check "wheel up scrolls" tui_wait "\| rows 1-10 of $deep"
tui_keys q
check "wheel: exit 0" tui_wait "__EXIT:0"

IN=samples/python.perf-script.zst
tui_start NO_COLOR=1 -- "$IN"
tui_wait "zst \| [0-9.]+ m?s CPU" >/dev/null
tui_keys t
tui_wait "timeline: Left/Right" >/dev/null
click 0 1
check "click on the strip marks" tui_wait "range starts at 0.000 s"
click 59 1
check "second click: range" tui_wait "\| time 0.000-[0-9.]+ s of [0-9.]+ s"
tui_keys q
check "timeline: exit 0" tui_wait "__EXIT:0"

tui_done
