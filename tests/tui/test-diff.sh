#!/bin/sh
# test-diff.sh - a comparison (--diff BEFORE AFTER) in the TUI: the header
# names both inputs, the frames are drawn as --text draws them (with the
# +/- marks when there are no colors), the status line of a frame that
# grew, of one that is new and of one that is gone, B sizes frames by
# BEFORE (a view in the history: Backspace goes back), --negate starts so,
# the colored drawing paints grew and shrank differently, and a comparison
# of two timed recordings has a time strip whose range selects the same
# seconds of each side.  The top table (v) of a comparison gives before,
# after and the change, as --top does.
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

# The top table (v) of a comparison: self and total before, after and the
# change, as --top prints them, but new or gone where one side is 0 and
# 0.00 where the share is the same; first sorted by the size of the self
# change, as --top is; 1/2/3 sort by self, total, name and 4 by the change
# again; the filter line, Enter and < work on its rows.
tui_start -x $W -y 20 NO_COLOR=1 -- --diff "$A" "$B"
check "top: opens" tui_wait "diff-before.folded vs tests/golden/diff-after.folded"
tui_keys v
# The table's rows, as "sb sa sc tb ta tc name".
trows() { tui_screen | sed -n '3,$p' | grep -E '^ *[0-9.]+% ' | awk '{ $1 = $1; print }'; }
# --top's rows, as the table shows them.
topwant() {
	"$BIN" --diff --top 0 "$@" "$A" "$B" | grep -v '^#' | awk '
	function chg(b, a, c) {
		if (b == "0.00%" && a != "0.00%") return "new"
		if (a == "0.00%" && b != "0.00%") return "gone"
		if (c == "+0.00" || c == "-0.00") return "0.00"
		return c
	}
	{ $3 = chg($1, $2, $3); $6 = chg($4, $5, $6); $1 = $1; print }'
}
row_of() { printf '%s\n' "$1" | awk -v n="$2" '$7 == n'; }
names() { trows | awk '{ print $7 }' | tr '\n' ' '; }
# Column C of the rows (new, gone: the side that is not 0) never grows.
sorted_desc() {
	trows | awk -v c="$1" '{
		v = $c; if (v == "new") v = $(c - 1); if (v == "gone") v = $(c - 2)
		sub(/%$/, "", v); v += 0; v = v < 0 ? -v : v
		if (NR > 1 && v > prev + 0) bad = 1; prev = v } END { exit bad }'
}
want=$(topwant)
# A move clears the message, so the status line shows the table's.
tui_keys Down Up
check "top: columns" tui_wait "^ +self:b +self:a +change +total:b +total:a +change +function$"
check "top: sorted by change" tui_wait "top: 8 of 8 functions, sorted by change \| self and total: % of all before, after, change in points"
check "top: lex as --top gives it ($(row_of "$want" lex))" [ "$(row_of "$(trows)" lex)" = "$(row_of "$want" lex)" ]
check "top: every row as --top, in its order" [ "$(trows)" = "$want" ]
check "top: new_path is new" [ "$(row_of "$(trows)" new_path | awk '{ print $3, $6 }')" = "new new" ]
check "top: old_path is gone" [ "$(row_of "$(trows)" old_path | awk '{ print $3, $6 }')" = "gone gone" ]
check "top: main's share the same" [ "$(row_of "$(trows)" main | awk '{ print $6 }')" = "0.00" ]
check "top: largest self change first" sorted_desc 3
tui_keys 1
check "top: 1 sorts by self" tui_wait "top table sorted by self"
check "top: by self after" sorted_desc 2
tui_keys 2
check "top: 2 sorts by total" tui_wait "top table sorted by total"
check "top: by total after" sorted_desc 5
check "top: main first by total" [ "$(names | cut -d' ' -f1)" = main ]
tui_keys 3
check "top: 3 sorts by name" tui_wait "top table sorted by name"
check "top: by name" [ "$(names)" = "$(trows | awk '{ print $7 }' | LC_ALL=C sort | tr '\n' ' ')" ]
tui_keys 4
check "top: 4 sorts by change again" tui_wait "top table sorted by change"
check "top: rows as --top again" [ "$(trows)" = "$want" ]
tui_keys / p a t h Enter
check "top: filter" tui_wait "top filter: /path/"
check "top: filtered rows in --top's order" [ "$(names)" = "$(printf '%s\n' "$want" | awk '$7 ~ /path/ { print $7 }' | tr '\n' ' ')" ]
first=$(names | cut -d' ' -f1)
tui_keys Enter
check "top: Enter: callers and callees of $first" tui_wait "view: sandwich \(callers above, callees below\) of $first"
tui_keys BSpace Down Up
check "top: Backspace: the table, filtered" tui_wait "sorted by change \(filtered\)"
tui_keys '<'
check "top: <: callers of $first" tui_wait "view: callers of $first"
tui_keys BSpace
check "top: back to the table" tui_wait "\| view: top \| top filter: /path/"
# Sized by BEFORE (B): the columns keep their meaning.
tui_keys / Enter v B v
check "top: sized by before" tui_wait "view: top, sized by before"
check "top: sized by before, rows as --top" tui_poll [ "$(trows)" = "$want" ]
tui_keys q
check "top: quits" tui_wait "__EXIT:0"

# A single profile has no change to sort by: 4 says so, the table stays.
tui_start -x $W -y 20 NO_COLOR=1 -- "$A"
check "top, one profile: opens" tui_wait "diff-before.folded \| 100 samples"
tui_keys v 4
check "top, one profile: 4 says why not" tui_wait "no change to sort by: not a comparison"
tui_keys Down Up
nf=$("$BIN" --top 0 "$A" | grep -vc '^#')
check "top, one profile: sorted by self" tui_wait "top: $nf of $nf functions, sorted by self \|"
tui_keys q

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
# The top table paints its change cells as the graph paints the frames:
# new_path (new), old_path (gone) and lex (shrank) differ (loop is the
# selected row, in reverse video).
tui_keys v Down
check "colors: top table" tui_wait "sorted by change"
chg_style() {   # the background in front of NAME's self change cell
	tmux_ capture-pane -p -e -t ft | grep "  $1\$" | grep -o '48;[0-9;]*m *[-+0-9.newgo]*' |
		head -n 1 | sed 's/m *[-+0-9.newgo]*$//'
}
tn=$(chg_style new_path)
tg=$(chg_style old_path)
tl=$(chg_style lex)
check "colors: new, gone and shrank cells differ ($tn, $tg, $tl)" all_differ "$tn" "$tg" "$tl"
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
after=$(printf '%s\n' "$foot" | sed -n 's/.*: \([0-9.]* m*s\) CPU, .*/\1/p')
before=$(printf '%s\n' "$foot" | sed -n 's/.*; before \([0-9.]* m*s\) CPU$/\1/p')
# The header, too long for the paths, names both files without them.
check "timed: header is --time's AFTER ($after)" tui_wait "^flametop-load.perf-script.zst vs python.perf-script.zst \| $after CPU \| time"
tui_keys g
check "timed: root's before is --time's ($before)" tui_wait "^all .*before $before \(100\.00%\), after $after \(100\.00%\)"
tui_keys t c
check "timed: no ranges to compare on a comparison" tui_wait "a comparison already: no ranges to compare"
tui_keys Escape q
check "timed: quits" tui_wait "__EXIT:0"
tui_done
