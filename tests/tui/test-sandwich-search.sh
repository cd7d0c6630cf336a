#!/bin/sh
# test-sandwich-search.sh - a search in the sandwich view covers both
# halves: the callers above are marked and reached with n/N as the
# callees are, and the matched share is of the function's samples with a
# match on either side of it, each sample once.  The expected shares are
# recomputed from `--callees NAME --include RE --collapse` (the function's
# stacks with a matching frame anywhere), not by the view's code.
BIN=${1:?usage: test-sandwich-search.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

# small.folded of the issue: c called through a;b, a;a;b, main and a;other.
IN=tests/golden/view-share.folded

# matched RE: "N samples (P%)" of c's samples whose stack matches RE.
matched() {
	all=$("$BIN" --collapse --callees c "$IN" | awk '{ s += $NF } END { print s }')
	"$BIN" --collapse --callees c --include "$1" "$IN" 2>/dev/null |
		awk -v all="$all" '{ s += $NF }
			END { printf "%d samples \\(%.2f%%\\)\n", s, 100 * s / all }'
}

for size in 80x24 200x50; do
	tui_start -x "${size%x*}" -y "${size#*x}" -- "$IN"
	check "$size: opens" tui_wait "view-share.folded \| 37 samples"
	tui_keys / ; tui_type '^c$'; tui_keys Enter n
	check "$size: a c frame selected" tui_wait "^match 1 of 4"
	tui_keys S
	check "$size: S: the sandwich of c" tui_wait "view: sandwich"
	tui_keys / ; tui_type '^a$'; tui_keys Enter
	m=$(matched '^a$')
	check "$size: /^a$: a's share on both sides ($m)" \
		tui_wait "/\^a\\$/ Matched: $m"
	# a is only among the callers (c calls nothing): three frames there.
	tui_keys n
	check "$size: n: the first caller a, above" tui_wait "^match 1 of 3"
	tui_keys Escape
	check "$size: n: a caller's numbers in the status line" \
		tui_wait "^a \| [0-9]+ samples \| [0-9.]+% of view"
	tui_keys n
	check "$size: n: the second" tui_wait "^match 2 of 3"
	tui_keys n n
	check "$size: n: round to the first" \
		tui_wait "^match 1 of 3 \(search wrapped around\)"
	tui_keys N
	check "$size: N: back to the last" \
		tui_wait "^match 3 of 3 \(search wrapped around\)"
	tui_keys / ; tui_type '^other$'; tui_keys Enter
	m=$(matched '^other$')
	check "$size: /^other$: only in the callers ($m)" \
		tui_wait "/\^other\\$/ Matched: $m"
	tui_keys / ; tui_type '^(b|main)$'; tui_keys Enter
	m=$(matched '^(b|main)$')
	check "$size: /^(b|main)$: each sample once ($m)" \
		tui_wait "Matched: $m"
	tui_keys / ; tui_type '^c$'; tui_keys Enter
	check "$size: /^c$: the function itself, all of it" \
		tui_wait "/\^c\\$/ Matched: 22 samples \(100\.00%\)"
	tui_cleanup
done

# '#' on a caller whose name is not UTF-8: its exact name, which no regex
# spells, still gives the share (awk over the file: c's stacks through it).
BAD=$(mktemp) || exit 2
trap 'tui_cleanup; rm -f "$BAD"' EXIT
printf 'main;a\377z;c 5\nmain;c 3\nmain;a\377z 2\n' >"$BAD"
m=$(awk '/;c( |;)/ { all += $NF; if (/;a\377z;/) s += $NF }
	END { printf "%d samples \\(%.2f%%\\)", s, 100 * s / all }' "$BAD")
tui_start -x 100 -y 24 -- "$BAD"
check "not UTF-8: opens" tui_wait "\| 10 samples"
tui_keys / ; tui_type '^c$'; tui_keys Enter n S
check "not UTF-8: the sandwich of c" tui_wait "view: sandwich"
tui_keys k
check "not UTF-8: the caller selected" tui_wait '^a\\xffz \|'
tui_keys '#'
check "not UTF-8: # gives its share ($m)" tui_wait "Matched: $m"
tui_cleanup
tui_done
