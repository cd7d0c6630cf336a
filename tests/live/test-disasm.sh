#!/bin/sh
# test-disasm.sh - --annotate NAME --disasm on live sampling: flametop
# samples tests/data/annotate (its CPU time, 0.6 s) and lists mix's 41
# instructions (see tests/data/README.md) with their weights: the call
# named and costing what step costs, almost all of the self weight in
# the loop, the hot marks there, the source text above the runs.
# Asserts no exact share: only what holds however busy the CPUs are.
#
# usage: tests/live/test-disasm.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"
top=$(cd "$here/../.." && pwd)

cp "$top/tests/data/annotate" "$work/annotate"
"$BIN" -F 997 -d 120 --annotate mix --disasm \
	--prefix-map "/tmp/flametop-fixture=$top/tests/data" \
	-- "$work/annotate" 0.6 >"$work/out" 2>"$work/err"
rc=$?
check "exit status 0 ($(head -n 3 "$work/err"))" [ "$rc" -eq 0 ]
check "the header names mix and the binary" \
	grep -q "^mix ($work/annotate) self " "$work/out"
# The instruction rows: "[*] self self% total total% ADDR TEXT", as
# "ADDR HOT SELF%" with ADDR in decimal (the first hex token of 4 digits).
awk '$0 ~ /^[ *] *(\.|[0-9])/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9a-f]+$/ && length($i) >= 4) break
	a = 0
	for (k = 1; k <= length($i); k++)
		a = a * 16 + index("0123456789abcdef", substr($i, k, 1)) - 1
	# self% is the first share, unless the self cell is "."
	self = 0
	if ($0 !~ /^[ *] *\./)
		for (k = 1; k < i; k++) if ($k ~ /%$/) { self = $k; break }
	sub(/%/, "", self)
	print a, (substr($0, 1, 1) == "*"), self
}' "$work/out" >"$work/rows"
check "41 instructions ($(wc -l <"$work/rows"))" [ "$(wc -l <"$work/rows")" -eq 41 ]
check "from 119c to 121a" sh -c "head -n 1 '$work/rows' | grep -q '^$((0x119c)) ' &&
	tail -n 1 '$work/rows' | grep -q '^$((0x121a)) '"
check "the call is named <step>" grep -q ' 11fc  callq 0x1181 <step>$' "$work/out"
check "the call carries step's weight" \
	grep -q -E '^ +\. +\. +[0-9.]+ [^ ]+ +[0-9.]+% +11fc  callq' "$work/out"
check "a jump's target is named" grep -q ' 11c4  jmp 0x11d5 <mix+0x39>$' "$work/out"
# Almost all of mix's own time is in its loop, 11c6 to 1204.
awk -v lo=$((0x11c6)) -v hi=$((0x1206)) '
	{ all += $3; if ($1 >= lo && $1 < hi) in_loop += $3 }
	END { exit !(all > 0 && in_loop >= 0.9 * all) }' "$work/rows"
check "90% of the self weight in the loop" [ $? -eq 0 ]
check "hot marks, all in the loop" awk -v lo=$((0x11c6)) -v hi=$((0x1206)) '
	$2 == 1 { n++; if ($1 < lo || $1 >= hi) bad = 1 }
	END { exit bad || !n }' "$work/rows"
check "the divide's source line, with its text" \
	grep -q 'annotate.c:27  a ^= a / (i | 3);$' "$work/out"
finish
