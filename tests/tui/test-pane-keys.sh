#!/bin/sh
# test-pane-keys.sh - the panes drawn over the graph, at 80x24 and
# 200x50: a on a caller in the sandwich annotates that caller (not the
# sandwich's function).
BIN=${1:?usage: test-pane-keys.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# main.spinA, called by main.spinB and main.work (tests/pprof/writeprof.go).
CPU=tests/pprof/go-cpu.pprof

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

done
tui_done
