#!/bin/sh
# test-modes.sh - each mode takes its own keys and clicks, at 80x24 and
# 200x50: in the top table a click selects a row, a double click and the
# wheel act on the table (not on the graph behind it) and the graph's
# moves say they are not used there; in the timeline and the heat map a
# key they do not list (Home, f, v, /) says so and leaves the zoomed graph
# as it was, and a click on the frames below the strip says what clicks
# do there; a click over the help closes it and selects nothing.
BIN=${1:?usage: test-modes.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# c, b, a, main, x, other by self.
IN=tests/golden/view-share.folded
TIMED=samples/python.perf-script.zst
# The sandwich of NAME: its lower half starts with NAME at full width.
sandwich_of() { tui_wait "^[[{]$1 +[]}]\$"; }
# The top table's selected row (drawn in reverse video) is NAME's.
top_selected() {
	tmux_ capture-pane -e -p -t ft | grep -q "$(printf '\033')\[7m.*%  *[0-9.]*  *[0-9.]*  $1 *\$"
}

for size in 80x24 200x50; do
	W=${size%x*} H=${size#*x}
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- "$IN"
	tui_wait "view-share.folded \| 37 samples" >/dev/null

	# The top table: rows from screen row 2 (0-based; row 1 has the
	# column titles).
	tui_keys v
	tui_wait "\| view: top$" >/dev/null
	tui_click 3 4
	check "$size: top: click selects the row (a)" tui_poll top_selected a
	tui_keys Enter
	check "$size: top: Enter: the sandwich of a" sandwich_of a
	tui_keys BSpace
	tui_wait "\| view: top$" >/dev/null
	tui_dblclick 3 5
	check "$size: top: double click: the row's sandwich (main)" sandwich_of main
	check "$size: top: double click: the graph not zoomed" \
		[ -z "$(tui_line 1 | grep 'zoom:')" ]
	tui_keys BSpace
	tui_wait "\| view: top$" >/dev/null
	tui_keys g
	tui_poll top_selected c
	tui_mouse 97 3 6
	check "$size: top: the wheel moves in the table (main)" tui_poll top_selected main
	tui_keys l
	check "$size: top: l not used" tui_wait "^key l: not used in the top table; \? for help"
	tui_keys Right
	check "$size: top: Right not used" tui_wait "^key Right: not used in the top table; \? for help"
	tui_keys f
	check "$size: top: f not used" tui_wait "^key f: not used in the top table; \? for help"
	tui_keys v
	tui_wait "view-share.folded \| 37 samples$" >/dev/null

	# The help: a click closes it and selects nothing behind it.
	tui_keys '?'
	tui_wait "any key closes this help|j/k, PgUp/PgDn" >/dev/null
	tui_click 3 4
	check "$size: help: a click closes it" tui_wait "^[^ ].*view-share.folded \| 37 samples$"
	check "$size: help: nothing selected" tui_wait "^all \| 37 samples"
	tui_keys q
	check "$size: exit 0" tui_wait "__EXIT:0"

	# Timeline and heat map, over a zoomed graph.
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- "$TIMED"
	tui_wait "zst \| [0-9.]+ m?s CPU" >/dev/null
	tui_keys j j Enter
	check "$size: zoomed" tui_wait "zoom: .*_start$"
	tui_keys t
	tui_wait "^timeline: Left/Right" >/dev/null
	tui_keys Home
	check "$size: timeline: Home not used" tui_wait "^key Home: not used in the timeline; \? for help"
	tui_keys f
	check "$size: timeline: f not used" tui_wait "^key f: not used in the timeline; \? for help"
	tui_keys /
	check "$size: timeline: / not used" tui_wait "^key /: not used in the timeline; \? for help"
	tui_click 3 $((H - 4))
	check "$size: timeline: a click on the frames" tui_wait "^timeline mode: click the strip"
	tui_keys m
	tui_wait "^heat map: arrows move" >/dev/null
	tui_keys Home
	check "$size: heat map: Home not used" tui_wait "^key Home: not used in the heat map; \? for help"
	tui_keys v
	check "$size: heat map: v not used" tui_wait "^key v: not used in the heat map; \? for help"
	tui_keys Escape
	check "$size: left timeline mode" tui_wait "^timeline mode left"
	check "$size: still zoomed, upright" tui_wait "zoom: .*_start$"
	check "$size: the graph not flipped" [ "$(tui_line 2 | grep -c '^\[')" = 1 ]
	check "$size: no top table" [ -z "$(tui_screen | grep 'view: top')" ]
	tui_keys q
	check "$size: timeline: exit 0" tui_wait "__EXIT:0"
done

tui_done
