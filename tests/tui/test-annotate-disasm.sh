#!/bin/sh
# test-annotate-disasm.sh - in the view's annotation (a), Tab or d lists
# the function's instructions: the source line above each run, the
# shares per instruction (those of --annotate --disasm: tests/disasm
# checks them against perf annotate), branch targets named, the hottest
# selected; n/N, s and / work there; Tab goes back to the source lines.
# A function without source lines (a stripped binary's code) opens on its
# instructions.
# tests/data/annotate.data (see tests/data/README.md) through its symfs.
BIN=${1:?usage: test-annotate-disasm.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

tui_start -x 100 -y 30 NO_COLOR=1 -- --symfs tests/data/symfs \
	--prefix-map /tmp/flametop-fixture=tests/data tests/data/annotate.data
check "opens" tui_wait "mix"
# all > annotate > [libc.so.6] > main > mix
tui_keys Down Down Down Down
check "mix selected" tui_wait "^mix \|"
tui_keys a
check "a: the source lines" tui_wait "^ line 27 \| n/N"
check "a: Tab is offered" tui_wait "Tab: asm"
tui_keys d
check "d: the instructions" tui_wait "annotate mix \(instructions\): self 94\.4%, total 99\.9%"
check "d: the hottest instruction selected" tui_wait "^ 0x11f4 \| n/N"
check "d: its shares and text" tui_wait "^\* +56\.5% +56\.5% +11f4  xorq %rax, %rbx"
check "d: the source line above its run" tui_wait "annotate\.c:27  a \^= a / \(i \| 3\);"
check "d: a branch target named" tui_wait "11e0  je 0x11c6 <mix\+0x2a>"
tui_keys n
check "n: the next hottest (11dc)" tui_wait "^ 0x11dc \| n/N"
tui_keys N
check "N: back to 11f4" tui_wait "^ 0x11f4 \| n/N"
tui_keys s n n n
check "s n n n: by total, the call to step (5.5%)" tui_wait "^ 0x11fc \| n/N"
check "s: the call's total share, named" tui_wait " +\. +5\.5% +11fc  callq 0x1181 <step>"
tui_keys /
tui_type 'div' Enter
check "/: the matching instruction" tui_wait "^ 0x11f1 \| n/N"
tui_keys Tab
check "Tab: back to the source lines" tui_wait "annotate mix: self 94\.4%"
check "Tab: the lines' status" tui_wait "Tab: asm"
tui_keys Tab
check "Tab again: the instructions" tui_wait "annotate mix \(instructions\)"
tui_keys BSpace
check "Backspace: back to the graph" tui_wait "^mix \|"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

# A stripped binary's code: the graph's [annotate] frame, runs of code.
tui_start -x 100 -y 30 NO_COLOR=1 -- --symfs tests/data/symfs-stripped \
	tests/data/annotate.data
check "stripped: opens" tui_wait "annotate"
tui_keys Down Down Down
check "stripped: [annotate] selected" tui_wait "^\[annotate\] \|"
tui_keys a
check "stripped: a lists the instructions at once, says why" \
	tui_wait "annotate \[annot(ate\]|\.\.) \(instructions; no source lines\): self 99\.9%"
check "stripped: the hottest selected" tui_wait "^ 0x11f4 \| n/N"
check "stripped: the runs of code" tui_wait "\* +56\.5% +56\.5% +11f4  xorq %rax, %rbx"
tui_keys Tab
check "stripped: Tab: no source lines" tui_wait "Tab: \[annotate\] has no source lines"
tui_keys BSpace q
check "stripped: exit 0" tui_wait "__EXIT:0"
tui_done
