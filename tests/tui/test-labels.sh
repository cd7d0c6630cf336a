#!/bin/sh
# test-labels.sh - T on a pprof profile lists its labels with the share of
# the profile that carries each; Enter keeps one label's samples, g roots
# the samples per value of its key, a shows all again, Backspace closes
# the list.  Each choice is a view step: the header says it, Backspace
# goes back to the whole profile, and nothing is read again (so it works
# on standard input).  A click selects a row, a double click keeps its
# samples.  The figures are those of --collapse --tag; a label's control
# bytes are shown escaped.
BIN=${1:?usage: test-labels.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

L=tests/pprof/labels.pprof

tui_start -x 80 -y 24 -- "$L"
check "opens" tui_wait "labels.pprof \| 1.06 s CPU"
tui_keys T
check "T: the list" tui_wait "^ labels: the share of 1.06 s CPU that carries each"
check "T: worker=a, 600 ms of 1.06 s" tui_wait "^ +56.60% +600.0 ms CPU +worker=a *$"
check "T: worker=b, 310 ms" tui_wait "^ +29.25% +310.0 ms CPU +worker=b *$"
check "T: kind=batch under its key" sh -c \
	"tmux -L '$TUI_SOCK' -f /dev/null capture-pane -p -t ft | grep -A1 '^ kind *$' | grep -q 'kind=batch'"
tui_keys j j Enter
check "Enter: worker=b's samples only" tui_wait "labels.pprof \| 310.0 ms CPU \| view: label worker=b"
check "Enter: the message" tui_wait "the samples labelled worker=b"
check "Enter: workA gone" sh -c "! tmux -L '$TUI_SOCK' -f /dev/null capture-pane -p -t ft | grep -q workA"
tui_keys BSpace
check "Backspace: the whole profile again" tui_wait "labels.pprof \| 1.06 s CPU \| cpu"
check "Backspace: workA back" tui_wait "main.workA"
tui_keys T j j Enter
check "Enter again: worker=b" tui_wait "labels.pprof \| 310.0 ms CPU \| view: label worker=b"
tui_keys T j g
check "g: a root per worker" tui_wait "^all *$"
check "g: the roots" tui_wait "^worker= +worker=a +worker=b *$"
check "g: the header says so" tui_wait "1.06 s CPU \| view: per label worker"
tui_keys BSpace
check "Backspace: worker=b again, the step before" tui_wait "labels.pprof \| 310.0 ms CPU \| view: label worker=b"
tui_keys T j g
tui_keys T a
check "a: all samples again" tui_wait "all samples, as read"
check "a: no root per worker" sh -c "! tmux -L '$TUI_SOCK' -f /dev/null capture-pane -p -t ft | grep -q 'worker='"
tui_keys T
check "T again" tui_wait "^ labels: the share"
tui_keys BSpace
check "Backspace closes the list" tui_wait "^all \|"
tui_keys q
check "exits 0" tui_wait "__EXIT:0"

# Every figure follows the label chosen: the search's share, the top
# table, the status line; and goes back with Backspace.
tui_start -x 100 -y 24 -- "$L"
check "figures: opens" tui_wait "labels.pprof \| 1.06 s CPU"
tui_keys / asyncPreempt Enter
check "figures: matched share of all" tui_wait "Matched: 20.0 ms CPU \(1.89%\)"
tui_keys T j j Enter
check "figures: matched share of worker=b" tui_wait "Matched: 20.0 ms CPU \(6.45%\) \| view: label worker=b"
tui_keys v
check "figures: the top table" tui_wait "^ 93.55% 100.00%  290.0 ms  310.0 ms  main.spin *$"
tui_keys BSpace BSpace
check "figures: Backspace, matched share of all again" tui_wait "Matched: 20.0 ms CPU \(1.89%\) \| cpu"
tui_keys q
check "figures: exits 0" tui_wait "__EXIT:0"

# A label with control bytes: escaped in the list.
tui_start -x 80 -y 24 -- tests/bad/pprof-labels-bad.in
check "hostile: opens" tui_wait "pprof-labels-bad.in \|"
tui_keys T
check "hostile: escaped value" tui_wait 'worker=a\\x1b\[31mred'
check "hostile: values of one key" tui_wait "worker=b *$"
tui_keys q q
check "hostile: exits 0" tui_wait "__EXIT:0"

# From a pipe, which cannot be read again: the choices are views of what
# was read.
tui_session 80 24 "cat $L | env LC_ALL=C.UTF-8 TERM=tmux-256color '$BIN'"
check "pipe: opens" tui_wait "stdin \| 1.06 s CPU"
tui_keys T
check "pipe: the list" tui_wait "^ +56.60% +600.0 ms CPU +worker=a *$"
tui_keys j Enter
check "pipe: worker=a's samples" tui_wait "stdin \| 600.0 ms CPU \| view: label worker=a"
check "pipe: the message" tui_wait "the samples labelled worker=a"
tui_keys BSpace
check "pipe: Backspace, the whole profile" tui_wait "stdin \| 1.06 s CPU \| cpu"
tui_keys T a
check "pipe: a, all samples" tui_wait "all samples, as read"
tui_keys q
check "pipe: exits 0" tui_wait "__EXIT:0"

# The mouse in the list: rows are the title (0), kind (1), kind=batch (2),
# worker (3), worker=a (4), worker=b (5).  A click selects, Enter keeps;
# a double click keeps at once; the wheel moves the selection.
tui_start -x 80 -y 24 -- "$L"
check "mouse: opens" tui_wait "labels.pprof \| 1.06 s CPU"
tui_keys T
tui_wait "^ labels: the share" >/dev/null
tui_click 20 5
check "mouse: click selects worker=b" tui_wait "^ Enter: keep worker=b  g: a root per worker"
tui_keys Enter
check "mouse: click on worker=b, Enter" tui_wait "labels.pprof \| 310.0 ms CPU \| view: label worker=b"
tui_keys T
tui_wait "^ labels: the share" >/dev/null
tui_dblclick 20 4
check "mouse: double click on worker=a" tui_wait "labels.pprof \| 600.0 ms CPU \| view: label worker=a"
tui_keys T
tui_wait "^ labels: the share" >/dev/null
tui_click 20 3
check "mouse: a key's title selects its first value" tui_wait "^ Enter: keep worker=a  g"
tui_keys Enter
check "mouse: then Enter keeps it" tui_wait "view: label worker=a.*$"
tui_keys T
tui_wait "^ labels: the share" >/dev/null
tui_mouse 97 20 10
check "mouse: the wheel moves down the list" tui_wait "^ Enter: keep worker=b"
tui_keys Enter
check "mouse: then Enter keeps it" tui_wait "view: label worker=b"
tui_keys q
check "mouse: exits 0" tui_wait "__EXIT:0"

# Folded input has no labels: T clears the time range as before.
tui_start -x 80 -y 24 -- tests/golden/basic.folded
check "folded: opens" tui_wait "basic.folded"
tui_keys T
check "folded: no label list" sh -c "sleep 0.3; ! tmux -L '$TUI_SOCK' -f /dev/null capture-pane -p -t ft | grep -q 'pprof labels'"
tui_keys q
check "folded: exits 0" tui_wait "__EXIT:0"
tui_done
