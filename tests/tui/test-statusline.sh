#!/bin/sh
# test-statusline.sh - the status line is one row at any width: in the
# flame graph zoomed on a frame, in a differential profile, in --diff A B,
# in a comparison of two time ranges, in the top table (of a profile and
# of a comparison) and with wide and escaped characters in the name.  At
# each width from 40 to 200 columns the last row holds the status line,
# its first figures still there, and the row above holds none of it.
BIN=${1:?usage: test-statusline.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# What only the status line writes: a second row of it would show these.
PARTS=' \| [0-9.]+%|% of |[0-9] pts|before |after |->|\(self |functions, sorted|: sort|v: back|\? help'

matches() { printf '%s\n' "$1" | grep -Eq -- "$2"; }
sized() {   # until the window is W x H and flametop has drawn it
	[ "$(tmux_ display-message -p -t ft '#{window_width}x#{window_height}')" = "$1x$2" ]
}

# one_row NAME REGEX [REGEX80]: at each width the last row matches REGEX
# (and REGEX80 from 80 columns on), and the row above has no status part.
one_row() {
	for w in 40 50 60 80 100 120 140 160 200; do
		h=24
		[ "$w" -eq 200 ] && h=50
		tmux_ resize-window -t ft -x "$w" -y "$h"
		tui_poll sized "$w" "$h"
		tui_settle
		last=$(tui_line "$h")
		above=$(tui_line $((h - 1)))
		check "$1 at ${w}x$h: the last row is the status line" \
			matches "$last" "$2"
		if [ -n "${3:-}" ] && [ "$w" -ge 80 ]; then
			check "$1 at ${w}x$h: its figures are there" matches "$last" "$3"
		fi
		check "$1 at ${w}x$h: one row, nothing of it above" \
			sh -c "! printf '%s\n' \"\$1\" | grep -Eq -- \"\$2\"" - "$above" "$PARTS"
		check "$1 at ${w}x$h: no wider than the screen" \
			[ "$(printf '%s' "$last" | wc -m)" -le "$w" ]
	done
}

# Zoomed on profile_child, the frame of the issue (80 columns wrapped).
tui_start -x 80 -y 24 -- samples/flametop-load.perf-script.zst
tui_wait "CPU" >/dev/null
tui_keys /profile_child Enter n Enter / Enter j k
tui_wait '^profile_child \|' >/dev/null
# Its words go before its figures are cut: the share ends the line whole.
one_row "zoomed on profile_child" \
	'^prof[a-z_]*(\.\.)? \| [0-9.]+ m?s.* \| [0-9.]+%( of (all|zoom))?$' '% of all'
tui_keys q

# A differential profile: before and after stay from 80 columns on.
tui_start -x 80 -y 24 -- samples/python-diff.folded.gz
tui_wait "samples" >/dev/null
tui_keys j j j
one_row "python-diff" '^[^ |]+ \| [0-9]' \
	'(before [0-9]+.*, after [0-9]+|[0-9]+ -> [0-9]+).*, [-+][0-9.]+ pts'
tui_keys q

# --diff A B, a frame that is new in B.
tui_start -x 80 -y 24 -- --diff samples/gzip.folded samples/sort.folded
tui_wait "samples" >/dev/null
tui_keys j j
one_row "--diff" '^[^ |]+ \| [0-9]' '(new: |gone: |before |-> )'
tui_keys q

# Range B against range A, from the timeline.
tui_start -x 80 -y 24 -- samples/flametop-load.perf-script.zst
tui_wait "CPU" >/dev/null
tui_keys t Enter
for i in 1 2 3 4 5 6 7 8 9 10; do tui_keys l; done
tui_keys c l l Enter
for i in 1 2 3 4 5 6 7 8 9 10; do tui_keys l; done
tui_keys Enter
tui_wait "compare B" >/dev/null
tui_keys j j j
one_row "range compare" '^[^|]+ \| [0-9.]+ m?s' \
	'(before .*, after |-> ).*, [-+][0-9.]+ pts'
tui_keys q

# The top table: its keys said shorter, never on a second row.
tui_start -x 80 -y 24 -- samples/flametop-load.perf-script.zst
tui_wait "CPU" >/dev/null
tui_keys v j k
one_row "top table" '^top: [0-9]+ of [0-9]+ functions' 'v: back|\? help'
tui_keys q
tui_start -x 80 -y 24 -- samples/python-diff.folded.gz
tui_wait "samples" >/dev/null
tui_keys v j k
one_row "top table of a comparison" '^top: [0-9]+ of [0-9]+ functions' 'v: back|\? help'
tui_keys q

# Wide characters and a control character in the name: cut by columns.
wide=$(mktemp)
printf 'main;%s 70\nmain;other 30\n' \
	"$(printf '\344\270\255\346\226\207\345\220\215\345\255\227\001x%.0s' 1 2 3 4 5 6 7 8)" >"$wide"
tui_start -x 80 -y 24 -- "$wide"
tui_wait "samples" >/dev/null
tui_keys j j Enter
one_row "a wide name" '^中文名字' '70 samples'
tui_keys q
rm -f "$wide"

tui_done
