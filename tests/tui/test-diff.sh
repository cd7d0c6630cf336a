#!/bin/sh
# test-diff.sh - a comparison (--diff BEFORE AFTER) in the TUI: the header
# names both inputs, the frames are drawn as --text draws them (with the
# +/- marks when there are no colors), the status line of a frame that
# grew, of one that is new and of one that is gone, B sizes frames by
# BEFORE (a view in the history: Backspace goes back), --negate starts so,
# the colored drawing paints grew and shrank differently, and a comparison
# of two timed recordings has a time strip whose range selects the same
# seconds of each side.
BIN=${1:?usage: test-diff.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

A=tests/golden/diff-before.folded
B=tests/golden/diff-after.folded
W=120
frames_screen() { tui_screen | sed -n "2,$(( $1 + 1 ))p" | sed 's/ *$//'; }
frames_text() { "$BIN" --diff --text -w $W "$@" "$A" "$B" | sed '/^$/,$d' | sed 's/ *$//'; }
same_as_text() {
	want=$(frames_text "$@")
	[ "$(frames_screen "$(printf '%s\n' "$want" | wc -l)")" = "$want" ]
}

tui_start -x $W -y 20 NO_COLOR=1 -- --diff "$A" "$B"
check "opens: header names both" tui_wait "diff-before.folded vs tests/golden/diff-after.folded"
check "frames as --text, marked" same_as_text
check "marks: eval grew" tui_wait '\[\+eval '
check "marks: parse shrank" tui_wait '\[-parse '

# Down twice: the child under main's middle, new_path; then its neighbours.
tui_keys Down Down
check "status: new" tui_wait "new_path .*new: before 0, after 20 \(14\.29%\)"
tui_keys Left
check "status: grew" tui_wait "eval .*before 30 \(30\.00%\), after 60 \(42\.86%\), \+30, \+12\.86 pts"
tui_keys Right Right
check "status: shrank" tui_wait "parse .*before 60 \(60\.00%\), after 60 \(42\.86%\), \+0, -17\.14 pts"

# B: sized by BEFORE, where old_path shows and says gone.
tui_keys B
check "B: header names the view" tui_wait "view: sized by before"
check "B: frames as --text --negate" same_as_text --negate
tui_keys Up Up Down Down Left
check "B: status of a gone frame" tui_wait "old_path .*gone: before 10 \(10\.00%\), after 0"
tui_keys BSpace
check "Backspace: sized by AFTER again" tui_poll same_as_text
tui_keys q
check "quits" tui_wait "__EXIT:0"

tui_start -x $W -y 20 NO_COLOR=1 -- --diff --negate "$A" "$B"
check "--negate: starts sized by before" tui_wait "view: sized by before"
check "--negate: frames as --text --negate" same_as_text --negate
tui_keys q

# With colors: eval (grew) and parse (shrank) are painted differently, and
# main (unchanged share) differently from both.
tui_start -x $W -y 20 -- --diff "$A" "$B"
check "colors: opens" tui_wait "diff-before.folded vs tests/golden/diff-after.folded"
cell_style() {   # the escape sequence in front of the first cell of NAME
	tmux_ capture-pane -p -e -t ft | grep -o "48;[0-9;]*m$1" | head -n 1 | sed "s/m$1\$//"
}
ge=$(cell_style eval)
ps=$(cell_style parse)
mn=$(cell_style main)
# all_differ A B...: every value non-empty, no two equal.
all_differ() {
	for x in "$@"; do [ -n "$x" ] || return 1; done
	[ "$(printf '%s\n' "$@" | sort -u | wc -l)" -eq $# ]
}
check "colors: grew and shrank differ ($ge, $ps)" all_differ "$ge" "$ps"
check "colors: unchanged differs from both ($mn)" all_differ "$mn" "$ge" "$ps"
tui_keys q

# Two timed recordings: the strip shows their samples (BEFORE's moved to
# start with AFTER's), and a range selects the same seconds of each: the
# header's amount and the root's before are those of --diff --time.
TA=samples/flametop-load.perf-script.zst
TB=samples/python.perf-script.zst
tui_start -x $W -y 24 NO_COLOR=1 -- --diff "$TA" "$TB"
check "timed: opens" tui_wait "flametop-load.perf-script.zst vs samples/python.perf-script.zst"
tui_keys t
check "timed: the strip is shown" tui_wait "timeline: Left/Right move"
tui_keys Enter L L L L L L Enter
check "timed: range applied" tui_wait "\| time 0\.000-[0-9.]+ s of [0-9.]+ s"
end=$(tui_line 1 | sed -n 's/.*| time 0\.000-\([0-9.]*\) s of .*/\1/p')
foot=$("$BIN" --diff --text -w $W --time "0,$end" "$TA" "$TB" | tail -n 1)
after=$(printf '%s\n' "$foot" | sed -n 's/.*: \([0-9.]* m*s CPU\), .*/\1/p')
before=$(printf '%s\n' "$foot" | sed -n 's/.*; before \([0-9.]* m*s CPU\)$/\1/p')
# The header, too long for the paths, names both files without them.
check "timed: header is --time's AFTER ($after)" tui_wait "^flametop-load.perf-script.zst vs python.perf-script.zst \| $after \| time"
tui_keys g
check "timed: root's before is --time's ($before)" tui_wait "^all .*before $before \(100\.00%\), after $after \(100\.00%\)"
tui_keys t c
check "timed: no ranges to compare on a comparison" tui_wait "a comparison already: no ranges to compare"
tui_keys Escape q
check "timed: quits" tui_wait "__EXIT:0"
tui_done
