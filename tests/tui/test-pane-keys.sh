#!/bin/sh
# test-pane-keys.sh - the panes drawn over the graph take their own keys
# and clicks, at 80x24 and 200x50: a on a caller in the sandwich annotates
# that caller (not the sandwich's function); in the annotation a key it
# does not use says so in the pane's last row (and not on the graph after
# it), a click selects a line and a double click does not zoom the graph
# behind it; in the labels list (T) ? opens the help and a key the list
# does not use says so.
BIN=${1:?usage: test-pane-keys.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# main.spinA, called by main.spinB and main.work (tests/pprof/writeprof.go).
CPU=tests/pprof/go-cpu.pprof
LABELS=tests/pprof/labels.pprof
# main.spinB's status line in the graph, not zoomed.
SPINB='main\.spinB \| 110\.0 ms CPU \(self 0 ns\) \| 55\.00% of all \| 55\.00% of zoom'
# The graph is not zoomed: its header has no "| zoom: NAME".
not_zoomed() { ! tui_line 1 | grep -q '| zoom: '; }
# Nothing on screen says a key was not used in the annotation.
no_note() { ! tui_screen | grep -q 'not used in the annotation'; }
# The annotation's selected line (reverse video) is line N of the source.
ann_selected() {
	tmux_ capture-pane -e -p -t ft |
		grep -q "$(printf '\033')\[7m[ *][ .0-9%]* $1  "
}

for size in 80x24 200x50; do
	W=${size%x*} H=${size#*x}

	# a on a caller in the sandwich.
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- --source-path tests/pprof "$CPU"
	tui_wait "go-cpu.pprof \| " >/dev/null
	tui_keys v
	tui_wait "\| view: top" >/dev/null
	tui_keys Enter
	check "$size: the sandwich of main.spinA" \
		tui_wait "view: sandwich \(callers above, callees below\) of main\.spinA"
	tui_keys k
	check "$size: k: the caller main.spinB" tui_wait "^main\.spinB \| 110\.0 ms CPU \|"
	tui_keys a
	check "$size: a on the caller: main.spinB's lines" \
		tui_wait "^ annotate main\.spinB: "
	check "$size: its source (func spinB)" tui_wait "func spinB\("
	tui_keys BSpace
	tui_wait "^main\.spinB \| 110\.0 ms CPU \|" >/dev/null
	tui_keys j
	tui_wait "^main\.spinA \| " >/dev/null
	tui_keys a
	check "$size: a on the function: main.spinA's lines" \
		tui_wait "^ annotate main\.spinA: "

	tui_keys BSpace
	tui_wait "^main\.spinA \| " >/dev/null
	tui_keys q
	check "$size: exit 0 (sandwich)" tui_wait "__EXIT:0"

	# The annotation over the plain graph, main.spinB selected (55%);
	# in colors, where the selected line is drawn in reverse video.
	tui_start -x "$W" -y "$H" -- --source-path tests/pprof "$CPU"
	tui_wait "go-cpu.pprof \| " >/dev/null
	tui_keys j j j j
	check "$size: main.spinB selected" tui_wait "^$SPINB\$"
	tui_keys a
	check "$size: annotation of main.spinB" tui_wait "^ annotate main\.spinB: "
	# A key the annotation does not use: said in its last row.
	tui_keys v
	check "$size: annotation: v is not used there" \
		tui_wait "^key v: not used in the annotation; \? for help *\$"
	check "$size: annotation: still shown" tui_wait "^ annotate main\.spinB: "
	tui_keys j
	check "$size: annotation: the next key clears it" \
		tui_wait "^ line [0-9]+ \| n/N: next"
	# A click selects the line under it; a double click zooms nothing.
	tui_keys g
	tui_settle
	row=$(tui_screen | awk '/^[ *][ .0-9%]+ 25  / { print NR - 1; exit }')
	tui_click 10 "${row:-1}"
	check "$size: annotation: a click selects line 25" tui_poll ann_selected 25
	tui_dblclick 10 "${row:-1}"
	tui_settle
	tui_keys v
	tui_keys BSpace
	check "$size: back to the graph, main.spinB selected, not zoomed" \
		tui_wait "^$SPINB\$"
	check "$size: the header names no zoom" not_zoomed
	check "$size: no stale message on the graph" no_note
	tui_keys q
	check "$size: exit 0" tui_wait "__EXIT:0"

	# The labels list.
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- "$LABELS"
	tui_wait "labels.pprof \| " >/dev/null
	tui_keys T
	check "$size: labels: T lists them" tui_wait "^ labels: the share of "
	tui_keys v
	check "$size: labels: v is not used there" \
		tui_wait "^ key v: not used in the labels list; \? for help *\$"
	check "$size: labels: still listed" tui_wait "^ labels: the share of "
	tui_keys j
	check "$size: labels: the next key clears it" tui_wait "^ Enter: keep "
	tui_keys '?'
	check "$size: labels: ? shows the help" tui_wait "^ Flame graph"
	tui_keys '?'
	check "$size: labels: the help closed, the list again" \
		tui_wait "^ labels: the share of "
	tui_keys F1
	check "$size: labels: F1 shows the help" tui_wait "^ Flame graph"
	tui_keys Escape
	tui_wait "^ labels: the share of " >/dev/null
	tui_keys BSpace
	check "$size: labels: Backspace closes the list" tui_wait "^all \| "
	tui_keys q
	check "$size: exit 0 (labels)" tui_wait "__EXIT:0"
done
tui_done
