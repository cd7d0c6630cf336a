#!/bin/sh
# test-heatmap.sh - the timeline's sub-second heat map (t, then m): on a
# perf script fixture with a known pattern (tests/data/make-heatmap.sh)
# the grid shows the periodic work in one row, the stall as an empty
# column and the scale's characters without colors; the cell under the
# cursor is named with its samples; a range of cells is applied as the
# strip's ranges are; two ranges compare (the header names both, the
# frames carry the marks), Backspace goes back; m returns to the strip.
# The header says HEAT MAP while the map is shown, TIMELINE on the strip.
BIN=${1:?usage: test-heatmap.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=tests/data/heatmap.perf-script
# Row R of the screen (1-based) matches the extended regex.
row_is() { tui_line "$1" | grep -E -q -- "$2"; }
# Screen rows A to B, plain or with attributes (-e).
rows() { tmux -L "$TUI_SOCK" capture-pane -p -t ft | sed -n "$1,$2p"; }
rows_e() { tmux -L "$TUI_SOCK" capture-pane -e -N -p -t ft | sed -n "$1,$2p"; }
ESC=$(printf '\033')
# Rows A to B hold nothing but the labels given (an extended regex).
rows_blank() { [ -z "$(rows "$1" "$2" | grep -E -v "^($3)? *\$")" ]; }
on_screen() { tmux -L "$TUI_SOCK" capture-pane -p -t ft | grep -q -F -- "$1"; }
not_on_row() { ! rows "$1" "$1" | grep -q -E -- "$2"; }
same_grid() { [ "$(rows 3 54)" = "$1" ]; }
# Keys repeated: rep N KEY.
rep() { i=0; while [ "$i" -lt "$1" ]; do printf '%s ' "$2"; i=$((i + 1)); done; }

# 60 rows: room for 50 rows of 20 ms (the header, the cell line, the axis,
# the scale and the status line around them).
tui_start -x 100 -y 60 NO_COLOR=1 -- "$IN"
check "opens" tui_wait "heatmap.perf-script \| 51.0 ms CPU"
tui_keys t m
check "heat map shown" tui_wait "^heat map \| 0.000-0.020 s: 1 sample, 1.00 ms CPU \| cells 1 s x 20 ms, most 4.00 ms CPU"
check "header: the heat map's mode" row_is 1 "^HEAT MAP \| "
check "axis: seconds" row_is 3 "^offset 0s        5s *$"
# Row r of the grid is screen row 4 + r.
check "row 0: the first sample only" row_is 4 "^   0ms -- *$"
check "rows 1-9 empty" rows_blank 5 13 " 100ms"
check "row 10: the periodic work, second 4 stalled" row_is 14 "^ 200ms @@@@@@@@  @@@@@@@@@@ *$"
check "row 11 empty" row_is 15 "^ *$"
check "row 35: bg (1 sample) then io (2)" row_is 39 "^ 700ms --------  \+{10} *$"
check "row 49 is the last" row_is 53 "^ *$"
check "scale" row_is 54 "^scale   \.:-=\+\*#%@ empty to 4.00 ms CPU a cell"
# Deterministic: the same grid after a resize round trip.
grid=$(rows 3 54)
tmux -L "$TUI_SOCK" resize-window -t ft -x 90 -y 60 2>/dev/null
tmux -L "$TUI_SOCK" resize-window -t ft -x 100 -y 60 2>/dev/null
tui_settle
check "same grid again" same_grid "$grid"

# The cursor: column 1, row 10.
tui_keys l $(rep 10 j)
check "cell under the cursor" tui_wait "^heat map \| 1.200-1.220 s: 4 samples, 4.00 ms CPU"
tui_keys k k k k k k k k k k
check "cursor at 1 s" tui_wait "^heat map \| 1.000-1.020 s: 0 samples, 0 ns CPU"

# A range of cells, applied: seconds 1 and 2 (column 1 row 0 to column 2
# row 49), 2 x (4 tick + 1 bg) = 10 ms.
tui_keys Enter
check "range starts" tui_wait "range starts at 1.000 s"
tui_keys l $(rep 49 j)
check "range to the end of second 2" tui_wait "range 1.000-3.000 s; Enter ends it here"
tui_keys Enter
check "range applied, the mode ends" tui_wait "range 1.000-3.000 s applied; timeline mode left"
check "header: the range's weight" tui_wait "heatmap.perf-script \| 10.0 ms CPU \| time 1.000-3.000 s of "
check "heat map gone, graph back" not_on_row 2 "^heat map"

# Range A: the range shown (t, m, c); range B on the cells: seconds 6-7,
# 2 x (4 tick + 2 io) = 12 ms.
tui_keys t m
check "heat map again" tui_wait "^heat map \| "
range_cols() { rows_e 14 14 | grep -E -q " 200ms @@$ESC\\[7m@@@@$ESC\\[0m.*@@  @{10}"; }
check "the range shown: columns 1 and 2 reversed" range_cols
tui_keys c
check "c takes it as range A" tui_wait "range A 1.000-3.000 s; now mark range B"
tui_keys $(rep 10 H) $(rep 6 l) $(rep 49 k)
check "cursor at 6 s" tui_wait "^heat map \| 6.000-6.020 s: "
tui_keys Enter l $(rep 49 j)
check "B marked" tui_wait "range 6.000-8.000 s; Enter ends it here"
tui_keys Enter
# The header names the ranges as the messages did, with the same rounding.
check "header names both ranges, B's weight" tui_wait "heatmap.perf-script \| 12.0 ms CPU \| view: range B 6.000-8.000 s against range A 1.000-3.000 s"
tui_keys g
check "root: A is range A, B range B" tui_wait "^all \| 12.0 ms CPU .*\| A 10.0 ms[ ,(].*B 12.0 ms"
check "io grew" on_screen "[+io"
check "tick shrank" on_screen "[-tick"
tui_keys BSpace
check "Backspace: range A's view again" tui_wait "heatmap.perf-script \| 10.0 ms CPU \| time 1.000-3.000 s of "
check "Backspace: no comparison" not_on_row 1 compare

# Two ranges both marked on the cells: A with Enter ... c, then B.
tui_keys T t m
check "heat map, all samples" tui_wait "^heat map \| "
tui_keys Escape
check "Esc leaves timeline mode" tui_wait "timeline mode left"
tui_keys t m $(rep 10 H)
tui_keys $(rep 49 k) l l l Enter $(rep 49 j) c
check "A marked on cells: second 3" tui_wait "range A 3.000-4.000 s; now mark range B"
tui_keys l l l Enter $(rep 49 k) Enter
check "B: second 6, the header names both" tui_wait "view: range B 6.000-7.000 s against range A 3.000-4.000 s"
# The comparison's top table compares too (test-diff.sh checks its rows).
tui_keys v
check "compare: the top table's columns name the ranges" tui_wait "^ +self:A +self:B +change +total:A +total:B +change +function"
tui_keys j k   # the message gives way to the table's status line
check "compare: the table's status line names them too" tui_wait "self and total: % of all A, B, change in points"
check "compare: a row marked" tui_wait "^ +[0-9.]+% +[0-9.]+% +(new|gone|[-+][0-9.]+) "
tui_keys BSpace
check "compare: Backspace leaves the table" tui_wait "view: range B 6.000-7.000 s against range A 3.000-4.000 s$"
tui_keys BSpace
check "Backspace: the graph as read" tui_wait "heatmap.perf-script \| 51.0 ms CPU"

# m goes back to the strip; Esc cancels a mark, then leaves.
tui_keys t m
check "heat map" tui_wait "^heat map \| "
tui_keys Enter
check "marking" tui_wait "range starts at"
tui_keys Escape
check "Esc cancels the mark" tui_wait "mark cancelled"
tui_keys m
check "m: the strip" tui_wait "timeline strip \(m: the heat map again\)"
check "strip has bars" row_is 2 "[▁▂▃▄▅▆▇█]"
check "header: the strip's mode again" row_is 1 "^TIMELINE \| "
tui_keys Escape
check "left" tui_wait "timeline mode left"
# The help lists the heat map's keys (the same table as --help-keys).
tui_keys '?' Space
check "help: the heat map's section" tui_wait "Heat map \(m in timeline mode\): compare ranges of cells"
check "help: its mark key" tui_wait "mark the range's start cell, then its end cell"
tui_keys Escape q
check "exit 0" tui_wait "__EXIT:0"

# The mouse: a click on a cell marks it (X10 reports, as test-mouse.sh
# types them); cell (c, r) is at column 7 + 2c, row 3 + r (0-based).
click() {
	for b in 32 35; do
		tmux -L "$TUI_SOCK" send-keys -t ft -l "$(printf '\033[M%s%s%s' \
			"$(printf "\\$(printf %o "$b")")" \
			"$(printf "\\$(printf %o $((33 + $1)))")" \
			"$(printf "\\$(printf %o $((33 + $2)))")")"
	done
}
tui_start -x 100 -y 60 NO_COLOR=1 -- "$IN"
check "mouse: opens" tui_wait "heatmap.perf-script \| 51.0 ms CPU"
tui_keys t m
check "mouse: heat map" tui_wait "^heat map \| "
click 9 13
check "mouse: a click marks the start" tui_wait "range starts at 1.200 s"
click 11 13
check "mouse: the second the end" tui_wait "range 1.200-2.220 s applied"
check "mouse: the range's weight" tui_wait "heatmap.perf-script \| 9.00 ms CPU \| time 1.200-2.220 s of "

# The heat map bins the view, as the strip does: keep the stacks with io.
# Its time starts at the view's first sample (as the strip's and the
# header's do): io's at 5.700 s, so five columns with both samples in row 0.
tui_keys T F i o Enter
check "filter: io only" tui_wait "heatmap.perf-script \| 10.0 ms CPU \| view: "
tui_keys t m
check "filter: heat map of the view" tui_wait "^heat map \| 0.000-0.020 s: 2 samples, 2.00 ms CPU \| cells 1 s x 20 ms, most 2.00 ms CPU"
check "filter: io's row" row_is 4 "^   0ms @{10} *$"
check "filter: nothing else" rows_blank 5 53 " *[0-9]+ms"
tui_keys Escape q
check "mouse: exit 0" tui_wait "__EXIT:0"

# A profile without timestamps has no timeline, so no heat map.
tui_start NO_COLOR=1 -- tests/golden/basic.folded
tui_wait "basic.folded" >/dev/null
tui_keys t
check "folded: no timeline" tui_wait "no timeline: this profile has no timestamps"
tui_keys m
check "folded: m does nothing" not_on_row 2 "heat map"
tui_keys q
check "folded: exit 0" tui_wait "__EXIT:0"

# Colors: cells on the theme's scale, the cursor in the range's colors; a
# 30-row screen gets 25 rows of 40 ms.
tui_start -x 100 -y 30 -- "$IN"
check "color: opens" tui_wait "heatmap.perf-script \| 51.0 ms CPU"
tui_keys t m
check "color: 40 ms rows" tui_wait "^heat map \| 0.000-0.040 s: 1 sample, 1.00 ms CPU \| cells 1 s x 40 ms"
# Row 5 (200-240 ms): the periodic work, in the theme's heat-high
# (#b40000 is 124 of 256 colors), second 4 in the terminal's own.
color_row() { rows_e 9 9 | grep -E -q "^       $ESC\\[48;5;124m {8}$ESC\\[49m  $ESC\\[48;5;124m {10}"; }
check "color: periodic row in heat-high" color_row
check "color: no density characters" not_on_row 9 "@"
tui_keys Escape q
check "color: exit 0" tui_wait "__EXIT:0"

tui_done
