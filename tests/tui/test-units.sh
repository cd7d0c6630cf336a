#!/bin/sh
# test-units.sh - amounts on screen as people read them: the top table (v)
# gives self and total with their scale ("366.7 ms", "10.0 MB", "370.2M"),
# never raw nanoseconds or bytes, under "self%  total%  self  total", so a
# name has room at 50 columns; the status line's self has its own scale
# ("self 366.7 ms", not "self 0.000 s CPU" nor "self 11534336"); the
# header's total says what the figures count.  At 50x12, 80x24 and 200x50.
BIN=${1:?usage: test-units.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

CPU=samples/flametop-load.perf-script.zst
HEAP=samples/go-heap.pprof
TITLES='^  self%  total%      self     total  function$'

# A table row: the two shares, the two figures, the name.
row() { printf '^ *%s +%s +%s +%s  %s *$' "$1" "$2" "$3" "$4" "$5"; }
# Six digits or more in a row of the table: a raw weight.
no_raw() { ! tui_screen | grep -E '^ *[0-9.]+% ' | grep -q -E '[0-9]{6}'; }

for size in 50x12 80x24 200x50; do
	tui_start -x "${size%x*}" -y "${size#*x}" -- "$CPU"
	check "$size: opens" tui_wait "1.68 s CPU"
	tui_keys v
	check "$size: table titles" tui_wait "$TITLES"
	check "$size: profile_child in ms, its name whole" \
		tui_wait "$(row 21.89% 54.78% '366.7 ms' '917.8 ms' profile_child)"
	check "$size: a total over a second in s" \
		tui_wait "$(row 2.63% 75.84% '44.1 ms' '1.27 s' build_path)"
	check "$size: no raw weights" no_raw
	tui_keys q
	check "$size: exits 0" tui_wait "__EXIT:0"
done

# A folded file's counts: plain below 1000, then k, M, G; the header
# says they are samples.
tui_start -x 80 -y 24 -- samples/flametop-make.folded
check "counts: header" tui_wait "flametop-make.folded \| 1.35G samples"
tui_keys v
check "counts: [cc1]" tui_wait "$(row 27.37% 30.51% 370.2M 412.7M '\[cc1\]')"
check "counts: no raw weights" no_raw
tui_keys q
check "counts: exits 0" tui_wait "__EXIT:0"

# The status line: the self in its own scale beside the total.
tui_start -x 120 -y 30 -- "$CPU"
check "status: opens" tui_wait "1.68 s CPU"
tui_keys / '^profile_child$' Enter
# n selects it (and says "match 1 of 1"); down and up again: its status.
tui_keys n
tui_wait "match 1 of 1" >/dev/null
tui_keys Down Up
check "status: self in ms" \
	tui_wait "^profile_child \| 917.8 ms CPU \(self 366.7 ms\) \| 54.78% of all"
tui_keys q
check "status: exits 0" tui_wait "__EXIT:0"

# A heap profile: bytes by 1024, in the table and the status line.
tui_start -x 80 -y 24 -- "$HEAP"
check "heap: header" tui_wait "go-heap.pprof \| 10.6 MB"
tui_keys / '^main.allocBig$' Enter
tui_keys n
tui_wait "match 1 of 1" >/dev/null
tui_keys Up
check "heap: status of the parent, no self" \
	tui_wait "^main.main \| 10.6 MB \(self 0 B\) \| 99.99% of all"
tui_keys Down
check "heap: status in MB" \
	tui_wait "^main.allocBig \| 10.0 MB \(self 10.0 MB\) \| 94.48% of all"
tui_keys v
check "heap: table in kB and MB" \
	tui_wait "$(row 3.69% 3.69% '400.0 kB' '400.0 kB' main.mk)"
check "heap: bytes under a kB" \
	tui_wait "$(row 0.01% 0.01% '832 B' '832 B' runtime.malg)"
tui_keys q
check "heap: exits 0" tui_wait "__EXIT:0"

tui_done
