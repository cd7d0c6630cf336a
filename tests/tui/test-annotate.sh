#!/bin/sh
# test-annotate.sh - a on a frame opens its function's source lines with
# their self and total shares, the hottest selected; n and N walk the
# hottest lines, s orders them by total, / searches the text, messages
# show over its bar, Backspace goes back to the graph.
# tests/annotate/hotlines.data through its symfs
# (the per-line shares are those of perf report's srcline: line 26 48.8%,
# 20 19.4%, 29 10.4%, 27 9.4%); a folded input has no addresses; live, a
# opens the sampled function and follows the samples of the window.
BIN=${1:?usage: test-annotate.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

tui_start -x 120 -y 30 NO_COLOR=1 -- --symfs tests/annotate/symfs \
	--prefix-map /tmp/flametop-fixture=tests/annotate tests/annotate/hotlines.data
check "opens" tui_wait "lines"
# all > hotlines > [libc.so.6] > lines
tui_keys Down Down Down
check "lines selected" tui_wait "^lines \|"
tui_keys a
check "a: the annotation" tui_wait "annotate lines: self 97\.8%, total 99\.4%; hottest by self"
check "a: the source text" tui_wait "x = mix\(x\);"
check "a: line 26's shares" tui_wait "\* +48\.8% +48\.8% +26 +for \(int k = 0; k < 64; k\+\+\)"
check "a: the inlined call's total at its call site" tui_wait " +\. +25\.1% +30 +x = mix\(x\);"
check "a: the hottest line selected" tui_wait "^ line 26 \| n/N"
tui_keys n
check "n: the next hottest (line 20)" tui_wait "^ line 20 \| n/N"
tui_keys n
check "n: then line 29" tui_wait "^ line 29 \| n/N"
tui_keys N N
check "N N: back to line 26" tui_wait "^ line 26 \| n/N"
tui_keys s
check "s: hottest by total" tui_wait "hottest by total"
check "s: the hottest by total selected (line 26)" tui_wait "^ line 26 \| n/N"
tui_keys n
check "s then n: line 30 (the inlined call)" tui_wait "^ line 30 \| n/N"
tui_keys /
check "/: the prompt" tui_wait "search the source: /"
tui_type 'cpu_seconds' Enter
check "/: the matching line" tui_wait "^ line 34 \| n/N"
# Messages show over the annotation's bar until the next key, as over the
# graph's status line.
tui_keys z
check "a key it does not use: said" tui_wait "^key z: not used in the annotation; \? for help"
tui_keys /
tui_type 'no such text' Enter
check "/: no line matches: said" tui_wait "^no line matches"
tui_keys /
tui_type '(' Enter
check "/: a bad pattern: said" tui_wait "^bad pattern at offset 1: "
tui_keys k
check "the next key: the bar again" tui_wait "^ line 33 \| n/N"
tui_keys BSpace
check "Backspace: back to the graph" tui_wait "^lines \|"
check "Backspace: the annotation is gone" tui_poll sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -q "annotate lines"' sh "$TUI_SOCK"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

# An inlined frame has no addresses of its own: a opens the function it is
# inlined into, and says so (tests/data/inline.data: spin_inl >
# middle_fn_[i] > inner_fn_[i] > step).
tui_start -x 120 -y 30 NO_COLOR=1 -- --symfs tests/data/symfs \
	--prefix-map /tmp/flametop-fixture=tests/data tests/data/inline.data
check "inline: opens" tui_wait "spin_inl"
tui_keys Down Down Down Down Down Down
check "inline: inner_fn selected" tui_wait "^inner_fn_\[i\] \|"
tui_keys a
check "a on an inlined frame: the function it is in" \
	tui_wait "annotate spin_inl: self 65\.8%, total 100\.0%"
check "a on an inlined frame: inner_fn's hot line among them" \
	tui_wait "\* +32\.9% +32\.9% +31 +x = x \* 6364136223846793005ul"
check "a on an inlined frame: said" \
	tui_wait "^inner_fn is inlined into spin_inl: its lines are among those of spin_inl"
tui_keys BSpace Down a
check "a on the frame it calls: its own lines" tui_wait "annotate step:"
# In the top table an inlined function has no one caller: said how to reach it.
tui_keys BSpace v
check "inline: the top table, inner_fn first" tui_wait "^ 42\.28% +76\.51% .* inner_fn_\[i\]"
tui_keys a
check "a on an inlined function's row: said where to go" \
	tui_wait "^a: inner_fn is inlined, with no addresses of its own: a on one of its frames in the graph"
tui_keys v q
check "inline: exit 0" tui_wait "__EXIT:0"

# At 80 columns the header is shortened by priority, not cut mid-figure:
# the self amount goes first, then the words, then the amount.
tui_start -x 80 -y 24 NO_COLOR=1 -- --symfs tests/data/symfs \
	--prefix-map /tmp/flametop-fixture=tests/data tests/data/inline.data
check "80 columns: opens" tui_wait "spin_inl"
tui_keys Down Down Down Down a
check "80 columns: the header without the self amount" \
	tui_wait "^ annotate spin_inl: self 65\.8%, total 100\.0%; hottest by self \| 596\.0 ms CPU *$"
tui_keys Tab
check "80 columns, instructions: then the words and the amount" \
	tui_wait "^ annotate spin_inl \(instructions\): self 65\.8%, total 100\.0%; by self *$"
tui_keys BSpace q
check "80 columns: exit 0" tui_wait "__EXIT:0"

tui_start -x 120 -y 30 NO_COLOR=1 -- tests/golden/basic.folded
check "folded opens" tui_wait "main"
tui_keys Down a
check "a on folded: no addresses" tui_wait "this profile has no addresses"
tui_keys q
check "folded: exit 0" tui_wait "__EXIT:0"

# ---- Live: the sampled function, refreshed ----------------------------------
tmp=$(mktemp -d)
trap 'tui_cleanup; rm -rf "$tmp"' EXIT
cp tests/annotate/hotlines "$tmp/hotlines"
if ! "$BIN" -F 997 -d 30 --collapse -- "$tmp/hotlines" 0.05 >/dev/null 2>&1; then
	echo "SKIP (in part): sampling not permitted here: no live check"
else
	tui_start -x 120 -y 30 NO_COLOR=1 -- -F 499 \
		--prefix-map /tmp/flametop-fixture=tests/annotate -- "$tmp/hotlines" 60
	check "live opens: the sampled function's row" tui_wait "^\\[?lines[] ]"
	tui_keys /
	tui_type '^lines$'
	tui_keys Enter
	tui_keys n
	check "live: lines selected" tui_wait "match 1 of 1"
	tui_keys a
	check "live a: the annotation" tui_wait "annotate lines: self [0-9.]+%, total"
	check "live a: shares of the window's samples (not above 100%)" \
		sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -Eq "annotate lines: self (100\.[1-9]|10[1-9]\.|1[1-9][0-9]\.|[2-9][0-9][0-9]\.)"' sh "$TUI_SOCK"
	check "live a: the loop's line" tui_wait " +26 +for \(int k = 0; k < 64; k\+\+\)"
	check "live a: says it holds the window's samples" tui_wait "live: the window's samples"
	tui_keys BSpace q
	check "live: exit 0" tui_wait "__EXIT:0"
fi
tui_done
