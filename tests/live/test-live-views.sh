#!/bin/sh
# test-live-views.sh - the views on a live profile, in a private tmux
# server: -p on a target that spends CPU time, then the top table, invert,
# callers and callees, an include filter, each named by the header, showing
# the target's functions and staying through live refreshes; s saves the
# view on screen (an inverted file), and -a with a filter and the table.
#
# Only what is deterministic is asserted: which view the header names and
# which functions are on screen or in the file, never how wide or how many.
#
# usage: tests/live/test-live-views.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux not installed"
	exit 0
fi
T="tmux -L ftviews$$ -f /dev/null"
tpid=
trap '$T kill-server 2>/dev/null; [ -n "$tpid" ] && kill $tpid 2>/dev/null; rm -rf "$work"' EXIT

S=views
screen() { $T capture-pane -p -t $S; }
header() { screen | head -n 1; }
# The header's time range, which moves at every refresh.
time_part() { header | sed -n 's/.*| time \([0-9.]*-[0-9.]*\) s.*/\1/p'; }
key() { $T send-keys -t $S "$@"; }
# wait_for PATTERN [TRIES]: poll the screen (0.1 s steps); wait_head: the
# header says it.
on_screen() { screen | grep -q -- "$1"; }
in_head() { header | grep -q -- "$1"; }
wait_for() { poll "${2:-150}" on_screen "$1"; }
wait_head() { poll "${2:-150}" in_head "$1"; }
# refreshed: the header's time range moves (a live refresh happened).
moved_from() { b=$(time_part); [ -n "$1" ] && [ -n "$b" ] && [ "$1" != "$b" ]; }
refreshed() { poll 100 moved_from "$(time_part)"; }
# The frame rows (below the header, above the status line).
frames() { screen | sed '1d;$d'; }
frames_have() { frames | grep -q -- "$1"; }
absent() { ! frames | grep -q -- "$1"; }

cd "$work" || exit 1
"$TARGET" 600 &
tpid=$!

$T new-session -d -s $S -x 240 -y 40 \
	"TERM=xterm-256color NO_COLOR=1 '$BIN' --interval 0.3 -p $tpid; echo FLAMETOP-EXITED \$?; sleep 30"
check "-p: the graph shows the target" wait_for "spin_hot"

# The top table: named by the header, the target's functions in rows.
key v
check "top: the header names the view" wait_head "view: top"
check "top: the column titles" wait_for "self%  total%"
check "top: spin_hot has a row" wait_for "%  *[0-9.]*%.*  spin_hot"
key 2
check "top: 2 sorts by total" wait_for "top table sorted by total"
check "top: a live refresh happens" refreshed
check "top: still the table after it" wait_head "view: top"
check "top: spin_hot still has a row" wait_for "%  *[0-9.]*%.*  spin_hot"
key v
check "top: v leaves the table" wait_for "view: the profile as read"

# Inverted: the leaf functions right under the root.
key I
check "invert: the header says inverted" wait_head "view: inverted"
check "invert: spin_hot is a root's child (row 3)" \
	sh -c "$T capture-pane -p -t $S | sed -n 3p | grep -q '\[spin_hot'"
check "invert: a live refresh happens" refreshed
check "invert: still inverted after it" wait_head "view: inverted"
check "invert: spin_hot still under the root" \
	sh -c "$T capture-pane -p -t $S | sed -n 3p | grep -q '\[spin_hot'"

# s saves the view on screen: the inverted stacks, leaf first.
key s
check "s: says it saved the view" wait_for "saved [0-9]* stacks to $work/flametop-live-.*(the view on screen: inverted"
saved=$(ls "$work"/flametop-live-*.folded 2>/dev/null | head -n 1)
check "s: the file exists" [ -s "$saved" ]
check "s: the file holds the inverted view (spin_hot;work_hot;...)" \
	grep -q "^spin_hot;work_hot;.* [0-9]*$" "$saved"
check "s: and not the source's root-first stacks" \
	sh -c "! grep -q '^live-target;' '$saved'"
key I
check "invert again: the profile as read" wait_for "view: the profile as read"

# Callees, then callers, of spin_hot (selected by searching its name).
# (The search is cleared after, so the header keeps its room.)
select_hot() {
	key /
	key -l spin_hot
	key Enter
	wait_for "Matched" >/dev/null && key n
	wait_for "match 1 of" && key / Enter && wait_for "search cleared"
}
check "search selects spin_hot" select_hot
key '>'
check "callees: the header names them" wait_head "view: callees of spin_hot"
check "callees: spin_hot is the root's child" \
	sh -c "$T capture-pane -p -t $S | sed -n 3p | grep -q '\[spin_hot'"
check "callees: work_hot (a caller) is not shown" absent "work_hot"
check "callees: a live refresh happens" refreshed
check "callees: the view stays" wait_head "view: callees of spin_hot"
key BSpace
check "Backspace: back to the profile as read" wait_for "view: the profile as read"
check "search selects spin_hot again" select_hot
key '<'
check "callers: the header names them" wait_head "view: callers of spin_hot"
check "callers: work_hot calls it" wait_for "\[work_hot"
check "callers: spin_cold is not shown" absent "spin_cold"
check "callers: a live refresh happens" refreshed
check "callers: the view stays" wait_head "view: callers of spin_hot"
key V
check "V: back to the profile as read" wait_for "view: the profile as read"

# An include filter: only the cold path's stacks.
key F
key -l work_cold
key Enter
check "filter: the header names it" wait_head "filter +/work_cold/"
check "filter: spin_cold is kept" wait_for "\[spin_cold"
check "filter: spin_hot is gone" absent "spin_hot"
check "filter: a live refresh happens" refreshed
check "filter: still filtered after it" wait_head "filter +/work_cold/"
check "filter: spin_cold still there" frames_have "\[spin_cold"
check "filter: spin_hot still gone" absent "spin_hot"
# The table of the filtered view.
key v
check "filter + top: the header names both" wait_head "view: top, filter +/work_cold/"
check "filter + top: spin_cold has a row" wait_for "%  *[0-9.]*%.*  spin_cold"
check "filter + top: spin_hot has none" absent "spin_hot"
key q
check "q quits" wait_for "FLAMETOP-EXITED 0"
$T kill-session -t $S 2>/dev/null

# -a: every CPU, with whatever else runs; a filter on the target's path.
S=all
$T new-session -d -s $S -x 240 -y 40 \
	"TERM=xterm-256color NO_COLOR=1 '$BIN' --interval 0.3 -a; echo FLAMETOP-EXITED \$?; sleep 30"
if wait_for "all" 100 && ! wait_for "FLAMETOP-EXITED" 5; then
	key F
	key -l 'spin_hot'
	key Enter
	check "-a filter: the header names it" wait_head "filter +/spin_hot/"
	check "-a filter: spin_hot is shown" wait_for "\[spin_hot"
	check "-a filter: spin_cold is not" absent "spin_cold"
	check "-a filter: a live refresh happens" refreshed
	check "-a filter: still filtered" wait_head "filter +/spin_hot/"
	check "-a filter: spin_hot still shown" frames_have "\[spin_hot"
	key v
	check "-a top: the header names the view" wait_head "view: top, filter +/spin_hot/"
	check "-a top: spin_hot has a row" wait_for "%  *[0-9.]*%.*  spin_hot"
	key v
	key I
	check "-a invert: the header names both" wait_head "view: inverted, filter +/spin_hot/"
	check "-a invert: spin_hot under the root" \
		sh -c "$T capture-pane -p -t $S | sed -n 3p | grep -q '\[spin_hot'"
	key q
	check "-a: q quits" wait_for "FLAMETOP-EXITED 0"
else
	echo "SKIP: -a is not permitted here: $(screen | grep -v '^$' | tail -n 2 | tr '\n' ' ')"
fi

finish
