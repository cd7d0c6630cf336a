#!/bin/sh
# test-header.sh - what the header says: a case-insensitive search shows
# as /re/i (i, and -i from the start); the top table gives its own rows,
# "functions A-B of N", with N its status line's count and B-A+1 the rows
# it draws (not the flame graph's "rows 1-18 of 29"); a second % filter
# adds to the first (pid=, then cpu=: both), pid= drops a key and an empty
# answer clears it.  At 80x24 and 200x50.  --text's summary line fits -w
# and COLUMNS.
BIN=${1:?usage: test-header.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }

# The top table's rows on screen, and the header's and footer's counts.
table_rows() { tui_screen | grep -c -E '^ *[0-9.]+% +[0-9.]+% '; }
head_range() { tui_line 1 | sed -n 's/.*| functions \([0-9]*\)-\([0-9]*\) of \([0-9]*\).*/\1 \2 \3/p'; }
foot_shown() { tui_line "$1" | sed -n 's/^top: \([0-9]*\) of [0-9]* functions.*/\1/p'; }
# top_consistent H: the header's range is the rows drawn, of the footer's N.
top_consistent() {
	set -- "$1" $(head_range)
	[ $# -eq 4 ] && [ "$4" = "$(foot_shown "$1")" ] &&
		[ $(($3 - $2 + 1)) -eq "$(table_rows)" ]
}

for size in 80x24 200x50; do
	w=${size%x*}
	h=${size#*x}

	# Case-insensitive search: /re/i in the header.
	tui_start -x "$w" -y "$h" -- samples/flametop-load.perf-script.zst
	tui_wait "CPU" >/dev/null
	tui_keys / R E A D Enter
	check "$size: a search is /re/" tui_wait "\| /READ/ Matched: " 5
	tui_keys i
	check "$size: i: /re/i" tui_wait "\| /READ/i Matched: " 5
	tui_keys i
	check "$size: i again: /re/" tui_wait "\| /READ/ Matched: " 5

	# The top table's own rows in the header.
	tui_keys / Enter v j k
	tui_settle
	check "$size: the top table's header has no graph rows" \
		sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | head -n 1 | grep -q '| rows '"
	check "$size: the top table's header: functions 1-B of N" \
		tui_wait "\| functions 1-[0-9]+ of [0-9]+" 5
	check "$size: its range is the rows drawn, of the footer's N ($(head_range); $(table_rows) rows; $(tui_line "$h"))" \
		tui_poll top_consistent "$h"
	tui_keys PPage NPage j k
	check "$size: PgDn: the range moves on ($(head_range))" \
		sh -c "[ \"\$(tmux -L '$TUI_SOCK' capture-pane -p -t ft | head -n 1 | sed -n 's/.*| functions \([0-9]*\)-.*/\1/p')\" -gt 1 ]"
	check "$size: PgDn: still the rows drawn ($(head_range); $(table_rows) rows)" \
		tui_poll top_consistent "$h"
	tui_keys / _ Enter j k
	check "$size: filtered: the header follows the footer ($(head_range); $(tui_line "$h"))" \
		sh -c "tmux -L '$TUI_SOCK' capture-pane -p -t ft | tail -n 1 | grep -q '(filtered)'"
	n=$(foot_shown "$h")
	if [ -n "$(head_range)" ]; then
		check "$size: filtered: of $n" tui_poll top_consistent "$h"
	else
		# No range: all fit, or the header has no room for it.
		hw=$(tui_line 1 | sed 's/ *$//' | wc -m)
		check "$size: filtered: all $n fit, or no room ($hw columns)" \
			sh -c "[ '$(table_rows)' -eq '$n' ] || [ $((hw + 22)) -gt $w ]"
	fi
	tui_keys q

	# -i from the start.
	tui_start -x "$w" -y "$h" -- -i -s 'READ' samples/flametop-load.perf-script.zst
	check "$size: -i -s READ: /READ/i" tui_wait "\| /READ/i Matched: " 5
	tui_keys q

	# A second % adds to the first.
	tui_start -x "$w" -y "$h" -- tests/golden/mixed.perf
	tui_wait "cycles" >/dev/null
	tui_keys % pid=4300 Enter
	check "$size: % pid=4300" tui_wait "view: filter pid=4300$" 5
	tui_keys %
	check "$size: the second % says what it adds to" tui_wait "^filter \(adds to pid=4300" 5
	tui_keys cpu=1 Enter
	check "$size: % cpu=1 adds: pid=4300 cpu=1" tui_wait "view: filter pid=4300 cpu=1$" 5
	both=$("$BIN" --pids 4300 --cpus 1 --collapse tests/golden/mixed.perf 2>/dev/null | awk '{ s += $NF } END { print s }')
	check "$size: the total is both filters' ($both)" tui_wait "^[^|]*mixed.perf \| $both cycles \|" 5
	tui_keys % pid=4100 Enter
	check "$size: pid=4100 replaces the pids only" tui_wait "view: filter cpu=1 pid=4100$" 5
	tui_keys % pid= Enter
	check "$size: pid= drops the pids" tui_wait "view: filter cpu=1$" 5
	tui_keys % Enter
	check "$size: empty: no filter" tui_wait "view: the profile as read" 5
	tui_keys q
	check "$size: exit 0" tui_wait "__EXIT:0" 5
done

# --text's summary line (under the graph) fits -w and COLUMNS too: the
# names, then the words, then the second figures give way.
for w in 100 80 60 50 40 30; do
	for args in "samples/python.perf-script.zst" \
		"--diff samples/gzip.folded samples/sort.folded"; do
		# shellcheck disable=SC2086
		wid=$("$BIN" --text -w "$w" $args 2>/dev/null | wc -L)
		check "--text -w $w $args: no line wider ($wid)" [ "$wid" -le "$w" ]
		# shellcheck disable=SC2086
		wid=$(COLUMNS=$w "$BIN" --text $args 2>/dev/null | cat | wc -L)
		check "COLUMNS=$w --text $args: no line wider ($wid)" [ "$wid" -le "$w" ]
	done
	last=$("$BIN" --text -w "$w" samples/python.perf-script.zst | tail -n 1)
	check "--text -w $w: the summary keeps the name and total ($last)" \
		sh -c "printf '%s' \"\$1\" | grep -Eq '^(samples/)?python[a-z.-]*(\.\.)?: [0-9.]+ '" - "$last"
done

tui_done
