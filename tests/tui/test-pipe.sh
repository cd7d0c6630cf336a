#!/bin/sh
# test-pipe.sh - `... | flametop`: the profile comes from standard input
# (plain and zstd-compressed), the keys from the terminal.
BIN=${1:?usage: test-pipe.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

total=$("$BIN" --collapse samples/sort.folded | awk '{ s += $NF } END { printf "%.0f\n", s }')
tui_start_sh "cat samples/sort.folded | '$BIN'"
check "stdin: opens" tui_wait "^stdin \| $(figure count "$total") samples"
check "stdin: root 100%" tui_wait "^all \| $(figure count "$total") samples \(self 0\) \| 100.00% of all"
tui_keys j
check "stdin: keys from the terminal" tui_wait "^sort \| [0-9.]+[kMG]? samples"
tui_keys q
check "stdin: exit 0" tui_wait "__EXIT:0"
check "stdin: terminal restored" tui_restored

total=$("$BIN" --collapse samples/python.perf-script.zst | awk '{ s += $NF } END { printf "%.0f\n", s }')
tui_start_sh "cat samples/python.perf-script.zst | '$BIN'"
check "zstd perf script on stdin" tui_wait "^stdin \| $(cpu_amount "$total")"
tui_keys q
check "zstd: exit 0" tui_wait "__EXIT:0"

# Not a terminal on stdout: the text view, as before.
out=$(cat samples/sort.folded | "$BIN" | tail -n 1)
check "stdout not a terminal: --text" [ "$out" = "stdin: $(figure count "$total") samples, 81 distinct stacks, depth 20" -o -n "$(printf '%s' "$out" | grep 'distinct stacks')" ]

tui_done
