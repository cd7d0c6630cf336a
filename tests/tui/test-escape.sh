#!/bin/sh
# test-escape.sh - hostile frame names never reach the terminal raw: an
# OSC title sequence, a tab and invalid UTF-8 are drawn escaped (\x1b ...)
# in frames and in the status line; valid UTF-8 is drawn as such in a
# UTF-8 locale and escaped in the C locale, where markers are ASCII too.
BIN=${1:?usage: test-escape.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=tests/golden/escape.folded

tui_start -x 160 NO_COLOR=1 -- "$IN"
check "opens" tui_wait "escape.folded \| 10 samples"
# (";" splits frames in folded input: the OSC spans two frames.)
check "OSC escaped" tui_wait '\[evil\\x1b\]0 +\]'
check "BEL escaped" tui_wait '\[pwned\\x07name +\]'
check "invalid UTF-8 escaped" tui_wait '\[bad\\xffutf8'
check "tab escaped" tui_wait '\[tab\\x09here'
check "UTF-8 drawn" tui_wait '\[café'
check "title untouched" [ "$(tmux_ display-message -p -t ft '#{pane_title}')" != pwned ]
# Select the evil frame: its status line is escaped too.
tui_keys j j l
check "status escaped" tui_wait '^evil\\x1b\]0 \| 3 samples'
check "no raw ESC on screen" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q \"\$(printf '\\033')\""
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

tui_start -x 160 -y 5 LC_ALL=C NO_COLOR=1 -- samples/sort.folded
check "C locale: ASCII marker" tui_wait 'v$'
tui_start -x 160 LC_ALL=C NO_COLOR=1 -- "$IN"
check "C locale: UTF-8 escaped" tui_wait '\[caf\\xc3\\xa9'
check "C locale: OSC escaped" tui_wait '\[evil\\x1b\]0 +\]'
tui_keys q
check "C locale: exit 0" tui_wait "__EXIT:0"

# --collapse on a terminal escapes names as the screen does; into a pipe
# it writes the profile's bytes, as scripts expect.
tui_start -x 160 NO_COLOR=1 -- --collapse "$IN"
check "--collapse on a tty: OSC escaped" tui_wait '^main;evil\\x1b\]0;pwned\\x07name 3$'
check "--collapse on a tty: no raw ESC" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q \"\$(printf '\\033')\""
check "--collapse on a tty: exit 0" tui_wait "__EXIT:0"
check "--collapse into a pipe: raw bytes" sh -c "'$BIN' --collapse '$IN' | grep -q \"evil\$(printf '\\033')\""

tui_done
