#!/bin/sh
# test-timeline.sh - time ranges in the TUI: t shows the timeline strip of
# a timed profile (perf script), a range marked with Enter ... Enter
# rebuilds the graph for that range only (the header says which), T shows
# every sample again; a folded profile has no timeline and says so.
BIN=${1:?usage: test-timeline.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=samples/python.perf-script.zst
# perf script of cpu-clock: weights are ns, shown as CPU time.
total=$("$BIN" --collapse "$IN" | awk '{ s += $NF } END { printf "%.0f\n", s }')
total_t=$(cpu_amount "$total")

tui_start NO_COLOR=1 -- "$IN"
check "opens" tui_wait "python.perf-script.zst \| $total_t"
tui_keys t
check "strip shown" tui_wait "timeline: Left/Right move"
check "strip has bars" sh -c "tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed -n 2p | grep -q '[▁▂▃▄▅▆▇█]'"
tui_keys Enter
check "range start" tui_wait "range starts at 0.000 s"
tui_keys L L L L L L Enter
check "range applied" tui_wait "\| time 0.000-[0-9.]+ s of [0-9.]+ s"
n=$(tui_line 1 | sed -n 's/.*zst | \([0-9.]* m*s CPU\) .*/\1/p')
in_range() {
	[ -n "$n" ] && awk -v a="$n" -v t="$total" 'BEGIN {
		split(a, w, " "); v = w[1] * (w[2] == "ms" ? 1e6 : 1e9)
		exit !(v > 0 && v < t) }'
}
check "fewer samples in the range ($n)" in_range
check "the mode ends, and says so" tui_wait "applied; timeline mode left"
tui_keys g   # the root stays selected; the message gives way to the status
check "root 100% of the range" tui_wait "^all \| $n \(self 0 ns\) \| 100.00% of all"
tui_keys T
check "T: all samples" tui_wait "python.perf-script.zst \| $total_t"
tui_keys t
tui_keys Escape
tui_keys Escape
no_range() { tui_line 1 | grep -q "zst | $total_t" && ! tui_line 1 | grep -q "| time"; }
check "Esc leaves" tui_poll no_range
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

# --time on the command line: the view opens on that range, T leaves it.
n=$("$BIN" --collapse --time 1,2 "$IN" | awk '{ s += $NF } END { printf "%.0f\n", s }')
tui_start NO_COLOR=1 -- --time 1,2 "$IN"
check "--time: the range's samples" tui_wait "zst \| $(cpu_amount "$n") \| time 1.000-2.000 s of "
tui_keys T
check "--time: T shows all" tui_wait "zst \| $total_t"
tui_keys q
check "--time: exit 0" tui_wait "__EXIT:0"

tui_start -- tests/golden/basic.folded
tui_wait "basic.folded" >/dev/null
tui_keys t
check "folded: no timeline" tui_wait "no timeline: this profile has no timestamps"
tui_keys q
check "folded: exit 0" tui_wait "__EXIT:0"

tui_done
