#!/bin/sh
# test-annotate.sh - --annotate of a live run: tests/annotate/hotlines.c,
# built here (frame pointers, -g), sampled for 0.6 s of its CPU time; the
# listing of 'lines' prints its source, and its loops keep the order of
# their cost, whatever the machine's load: lines 26-27 (64 multiplies a
# round) the hottest by self, above lines 19-20 (mix's 24 rounds,
# inlined), above lines 28-29 (16 shifts).  A loop's two lines are taken
# together: which of them a sample lands on (the multiply or the loop's
# branch after it) differs from one processor to another.  The inlined
# call's line 30 carries total and no self; the per-line self shares add
# up to the function's.  Built again as `cc src/hotlines.c`
# in its own folder, run from another: the source is found through the
# CU's DW_AT_comp_dir, as the DWARF names it relative to that folder.
#
# usage: tests/live/test-annotate.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"
top=$(cd "$here/../.." && pwd)

if ! "$CC" -O1 -g -fno-omit-frame-pointer "$top/tests/annotate/hotlines.c" \
	-o "$work/hotlines" 2>"$work/cc.err"; then
	echo "SKIP: cannot build hotlines: $(head -n 1 "$work/cc.err")"
	exit 0
fi
"$BIN" --annotate lines -F 997 -d 60 -- "$work/hotlines" 0.6 \
	>"$work/ann" 2>"$work/err"
rc=$?
check "exit status 0 ($(head -n 2 "$work/err"))" [ "$rc" -eq 0 ]
check "the function's header" grep -q "^lines (.*hotlines) self .*, total " "$work/ann"
check "the source text" grep -q "x = mix(x);" "$work/ann"
# Rows as "LINE SELF% TOTAL%" ("." is 0).
awk '/^[ *] / {
	s = $0; sub(/^[ *]/, "", s); n = split(s, w, " "); i = 1
	for (f = 0; f < 2; f++) {
		if (w[i] == ".") { p[f] = 0; i += 2; continue }
		while (i <= n && w[i] !~ /%$/) i++
		p[f] = w[i]; sub(/%$/, "", p[f]); i++
	}
	if (w[i] ~ /^[0-9]+$/) print w[i], p[0] + 0, p[1] + 0
}' "$work/ann" >"$work/rows"
self_of() { awk -v l="$1" '$1 == l { print $2 }' "$work/rows"; }
total_of() { awk -v l="$1" '$1 == l { print $3 }' "$work/rows"; }
# loop_self FIRST LAST: the self share of lines FIRST to LAST.
loop_self() {
	awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b { s += $2 } END { print s + 0 }' "$work/rows"
}
mul=$(loop_self 26 27)
mix=$(loop_self 19 20)
shifts=$(loop_self 28 29)
hot=$(sort -k2,2nr "$work/rows" | head -n 1 | cut -d' ' -f1)
check "lines 26-27 hold the hottest line (got $hot)" \
	sh -c '[ "$1" = 26 ] || [ "$1" = 27 ]' sh "$hot"
check "lines 26-27 above lines 19-20 ($mul > $mix)" \
	awk -v a="$mul" -v b="$mix" 'BEGIN { exit !(a > b) }'
check "lines 19-20 above lines 28-29 ($mix > $shifts)" \
	awk -v a="$mix" -v b="$shifts" 'BEGIN { exit !(a > b) }'
check "line 30: no self, the inlined mix's total ($(self_of 30), $(total_of 30))" \
	awk -v s="$(self_of 30)" -v t="$(total_of 30)" \
	'BEGIN { exit !(s == 0 && t > 5) }'
fs=$(sed -n 's/^lines (.*) self .* \([0-9.]*\)%, total .*/\1/p' "$work/ann")
sum=$(awk '{ s += $2 } END { print s }' "$work/rows")
check "line self shares add up to the function's ($sum ~ $fs)" \
	awk -v a="$sum" -v b="$fs" 'BEGIN { if (b == "") exit 1; d = a - b; if (d < 0) d = -d; exit !(d <= 1) }'

# A relative file name in the DWARF, flametop run from another folder.
mkdir -p "$work/rel/src" "$work/elsewhere"
cp "$top/tests/annotate/hotlines.c" "$work/rel/src/"
if (cd "$work/rel" && "$CC" -O1 -g -fno-omit-frame-pointer src/hotlines.c \
	-o hotlines 2>/dev/null); then
	(cd "$work/elsewhere" && "$BIN" --annotate lines -F 997 -d 60 -- \
		"$work/rel/hotlines" 0.3 >"$work/ann-rel" 2>"$work/err-rel")
	check "relative DWARF name: the source found through DW_AT_comp_dir" \
		grep -q "x = mix(x);" "$work/ann-rel"
	check "relative DWARF name: the whole path shown" \
		grep -q "^$work/rel/src/hotlines.c\$" "$work/ann-rel"
	check "relative DWARF name: no 'source not found'" \
		sh -c "! grep -q 'source not found' '$work/err-rel'"
fi
finish
