#!/bin/sh
# test-pane-mono.sh - with NO_COLOR the panes over the graph (the
# annotation, the label list) are drawn in reverse video, as the help is:
# the selected row is then drawn in normal video, so that it shows.  The
# check reads the screen with its attributes (capture-pane -e): the video
# changes where the selected row starts and again where it ends.
BIN=${1:?usage: test-pane-mono.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# attrs_change PATTERN: the row matching PATTERN (the selected one) starts
# by leaving reverse video (an SGR escape that resets the attributes), and
# the row after it starts by going back to reverse video (SGR 7).
attrs_change() {
	tmux_ capture-pane -p -e -t ft | awk -v pat="$1" '
		found == 1 { back = /^\033\[([0-9]*;)*7(;[0-9]*)*m/; found = 2 }
		found == 0 && $0 ~ pat { left = /^\033\[(0?m|0;)/; found = 1 }
		END { exit !(found == 2 && left && back) }'
}

for size in 80x24 200x50; do
	tui_start -x "${size%x*}" -y "${size#*x}" NO_COLOR=1 -- \
		--symfs tests/data/symfs \
		--prefix-map /tmp/flametop-fixture=tests/data tests/data/annotate.data
	check "$size: opens" tui_wait "mix"
	tui_keys Down Down Down Down
	check "$size: mix selected" tui_wait "^mix \|"
	tui_keys a
	check "$size: a: line 27 selected" tui_wait "^ line 27 \| n/N"
	check "$size: a: the selected line stands out" \
		attrs_change '58\.9% +58\.9% +27 '
	tui_keys n
	check "$size: n: line 26 selected" tui_wait "^ line 26 \| n/N"
	check "$size: n: the selected line stands out" \
		attrs_change '26\.7% +26\.7% +26 '
	tui_cleanup

	tui_start -x "${size%x*}" -y "${size#*x}" NO_COLOR=1 -- \
		tests/pprof/labels.pprof
	check "$size: labels: opens" tui_wait "labels.pprof \| 1.06 s CPU"
	tui_keys T
	check "$size: T: the label list" tui_wait "worker=b"
	tui_keys j
	tui_settle
	check "$size: T: the selected label stands out" \
		attrs_change 'worker=a'
	tui_cleanup
done
tui_done
