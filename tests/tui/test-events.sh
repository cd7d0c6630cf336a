#!/bin/sh
# test-events.sh - a perf.data with two events (tests/data/two-events.data:
# cpu-clock and task-clock, 89 samples of 1 ms each): the header names the
# event shown, and e reads the file again with the next one, alone (89 ms,
# not both events' 178), and back; an event without samples is shown
# empty, with the reason.
BIN=${1:?usage: test-events.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

tui_start -x 140 NO_COLOR=1 -- tests/data/two-events.data
check "opens on the first event" \
	tui_wait "two-events.data \| 89.0 ms CPU \| cpu-clock \(CPU time\), e: next event"
tui_keys e
check "e: the next event, alone" \
	tui_wait "two-events.data \| 89.0 ms CPU \| task-clock \(CPU time\), e: next event"
check "e: says which" tui_wait "^event task-clock"
tui_keys e
check "e again: back to the first" \
	tui_wait "\| 89.0 ms CPU \| cpu-clock \(CPU time\)"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

# An event without samples (empty-event.data: page-faults at a period of
# 1000000, never reached): e shows it empty and says why, as
# --event-filter does, not that the file cannot be read; e goes on.
tui_start -x 140 NO_COLOR=1 -- tests/data/empty-event.data
check "empty event: opens on cpu-clock" \
	tui_wait "empty-event.data \| 51.0 ms CPU \| cpu-clock \(CPU time\)"
tui_keys e
check "empty event: e shows it" \
	tui_wait "empty-event.data \| 0 samples \| page-faults \(count\), e: next event"
check "empty event: e says why" \
	tui_wait "^event page-faults \(count\): tests/data/empty-event\.data: no samples of that event\$"
tui_keys e
check "empty event: e again, back" \
	tui_wait "\| 51.0 ms CPU \| cpu-clock \(CPU time\)"
tui_keys q
check "empty event: exit 0" tui_wait "__EXIT:0"
tui_done
