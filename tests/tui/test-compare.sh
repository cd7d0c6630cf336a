#!/bin/sh
# test-compare.sh - comparing two time ranges in the TUI: range A applied
# (Enter ... Enter), then t and c take it as A, and range B marked next is
# shown against it: the header names both ranges as the messages do, the
# root's status line gives A's weight and B's by those names (each checked
# against the range applied alone), and Backspace goes back to range A's
# view.
BIN=${1:?usage: test-compare.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=samples/python.perf-script.zst
# The header's total without its word: the status line's before and after
# are figures ("521.7 ms").
header_amount() { tui_line 1 | sed -n 's/.*zst | \([0-9.]* m*s\) CPU .*/\1/p'; }

tui_start -x 160 NO_COLOR=1 -- "$IN"
check "opens" tui_wait "python.perf-script.zst \| "
# Range A: slices 0-20.
tui_keys t Enter L L Enter
check "range A applied" tui_wait "applied; timeline mode left"
na=$(header_amount)
check "range A has weight ($na)" [ -n "$na" ]
tui_keys t
check "strip again" tui_wait "timeline: Left/Right move"
tui_keys c
check "c takes range A" tui_wait "range A 0.000-[0-9.]+ s; now mark range B"
# The header will name range A as this message does, rounded the same.
ra=$(tui_screen | sed -n 's/.*\(range A 0\.000-[0-9.]* s\); now mark.*/\1/p' | tail -n 1)
# Range B: slices 30-50 (H to the first slice: the cursor stayed where
# range A ended).
tui_keys H H H H H H H H H H L L L Enter L L Enter
check "header names both ranges" tui_wait "view: range B [0-9.]+-[0-9.]+ s against range A 0.000-[0-9.]+ s"
check "header: range A as the message said ($ra)" sh -c "[ -n '$ra' ] && tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed -n 1p | grep -q -F ' against $ra'"
tui_keys g
check "root: A is range A" tui_wait "^all \| .*\| A $na \("
after=$(tui_screen | sed -n 's/.*, B \([0-9.]* m*s\) (.*/\1/p' | head -n 1)
check "root: after has weight ($after)" [ -n "$after" ]
check "frames marked" tui_wait '\[[+-]'
tui_keys BSpace
check "Backspace: range A again" tui_poll sh -c "[ \"\$(tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed -n 1p | sed -n 's/.*zst | \([0-9.]* m*s\) CPU .*/\1/p')\" = '$na' ]"
check "Backspace: no comparison in the header" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed -n 1p | grep -q compare"
# Range B alone: the same slices from the start.
tui_keys T t H H H H H H H H H H L L L Enter L L Enter
check "range B applied" tui_wait "applied; timeline mode left"
nb=$(header_amount)
same_nonempty() { [ -n "$1" ] && [ "$1" = "$2" ]; }
check "after is range B ($after, $nb)" same_nonempty "$nb" "$after"
# Esc cancels a pending comparison.
tui_keys t c
check "c again" tui_wait "now mark range B"
tui_keys Escape
check "Esc cancels it" tui_wait "compare cancelled"
tui_keys Escape q
check "exit 0" tui_wait "__EXIT:0"
tui_done
