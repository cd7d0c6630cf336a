#!/bin/sh
# test-lines.sh - L in the view reads the inputs again with frames by
# source line ("NAME FILE:LINE", as --lines), and again by function; the
# status line says which.  tests/data/fp.data through the symfs holds
# prog.c's lines (burn's loop is prog.c:11); a folded input has none and
# says so; standard input cannot be read again.
BIN=${1:?usage: test-lines.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

tui_start -x 120 -y 30 NO_COLOR=1 -- --symfs tests/data/symfs tests/data/fp.data
check "opens by function" tui_wait "burn"
check "no line before L" sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -q "prog\.c:"' sh "$TUI_SOCK"
tui_keys L
check "L: says frames are by line" tui_wait "frames by source line"
# The selected frame's name in the status line, or a wide frame's label.
tui_keys Down Down Down Down
check "L: frames carry FILE:LINE" tui_wait "(work prog\.c:20|main prog\.c:27)"
tui_keys L
check "L again: by function" tui_wait "frames by function"
check "L again: no line left" tui_poll sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -q "prog\.c:"' sh "$TUI_SOCK"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

tui_start -x 120 -y 30 NO_COLOR=1 -- tests/golden/basic.folded
check "folded opens" tui_wait "main"
tui_keys L
check "L on folded: no lines there" tui_wait "some inputs carry no lines"
tui_keys q
check "folded: exit 0" tui_wait "__EXIT:0"

tui_session 120 30 "cat tests/golden/basic.folded | env LC_ALL=C.UTF-8 TERM=tmux-256color NO_COLOR=1 '$BIN'"
check "stdin opens" tui_wait "main"
tui_keys L
check "L on standard input: cannot read again" tui_wait "L reads the input files again: not here"
tui_keys q
check "stdin: exit 0" tui_wait "__EXIT:0"
tui_done
