#!/bin/sh
# test-sandwich-compare.sh - the sandwich of a function in a comparison of
# two time ranges, at 80x24 and 200x50: its callers half is the
# comparison's too.  grow_slots is called by profile_child alone, so the
# caller's weight is the function's in range B (not its weight over the
# whole profile), with range A's beside it; and the status line's share of
# all is the comparison's (the top table's total:B), after the share of
# the view.
BIN=${1:?usage: test-sandwich-compare.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=samples/flametop-load.perf-script.zst
# The status line's weight ("78.2 ms"), the name left out.
weight() { tui_screen | tail -n 1 | sed -n 's/^[^|]* | \([0-9.]* [^ ]*\) CPU.*/\1/p'; }
same_nonempty() { [ -n "$1" ] && [ "$1" = "$2" ]; }

for size in 80x24 200x50; do
	W=${size%x*} H=${size#*x}
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- "$IN"
	tui_wait "flametop-load\.perf-script\.zst \| " >/dev/null
	# Range A: the first 20 slices; range B: slices 21 to 41.
	tui_keys t Enter L L c
	check "$size: range A taken" tui_wait "range A 0\.000-[0-9.]+ s; now mark range B"
	tui_keys L Enter L L Enter
	check "$size: range B against range A" \
		tui_wait "view: range B [0-9.]+-[0-9.]+ s against range A"
	tui_keys v
	tui_wait "view: top" >/dev/null
	tui_settle
	# grow_slots's total in range B, % of all (the comparison's after).
	tb=$(tui_screen | awk '$7 == "grow_slots" { print $5 }')
	check "$size: grow_slots in the top table ($tb)" [ -n "$tb" ]
	tui_keys / '^grow_slots$' Enter Enter
	check "$size: the sandwich of grow_slots" \
		tui_wait "^view: sandwich \(callers above, callees below\) of grow_slots"
	tui_keys j k
	tui_wait "^grow_sl[a-z_.]* \| " >/dev/null
	fw=$(weight)
	tui_keys k
	check "$size: k: the caller profile_child" tui_wait "^profile_?[a-z_.]* \| "
	cw=$(weight)
	check "$size: the caller's weight is the function's in range B ($cw, $fw)" \
		same_nonempty "$fw" "$cw"
	check "$size: range A beside it" tui_wait "^profile_?[a-z_.]* \| [^|]* \| .*A [0-9.]+ [^ ]*s"
	if [ "$W" -ge 200 ]; then
		check "$size: the caller: % of view, then of all ($tb)" \
			tui_wait "^profile_child \| $fw CPU \| 100\.00% of view \| $tb of all \| A "
		tui_keys j
		check "$size: the function: % of view, then of all ($tb)" \
			tui_wait "^grow_slots \| $fw CPU \(self [^)]*\) \| 100\.00% of view \| $tb of all \| A "
	fi
	tui_keys q
	check "$size: exit 0" tui_wait "__EXIT:0"
done
tui_done
