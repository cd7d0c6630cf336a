#!/bin/sh
# test-sandwich.sh - the sandwich view (S, or Enter in the top table) as a
# user meets it, at 80x24, 120x35 and 200x50: the function right under its
# callers (no root row between them), both halves navigable with the keys
# and the mouse, each caller's numbers in the status line (recomputed here
# with awk from `--collapse --callers`, not by flametop's view), Enter on a
# caller (its own sandwich), and a deep sandwich scrolled like the graph:
# markers where callers are hidden, the outermost reachable with g and
# PgUp, the deepest callee with G, and back with PgDn.
BIN=${1:?usage: test-sandwich.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d) || exit 2
trap 'tui_cleanup; rm -rf "$dir"' EXIT
# small.folded of the issue: c called through a;b, a;a;b, main and a;other.
IN=tests/golden/view-share.folded
# A function with 30 callers above it and 25 callees below.
DEEP=$dir/deep.folded
awk 'BEGIN { s = ""; for (i = 30; i >= 1; i--) s = s "c" i ";"; s = s "f"
	d = s; for (i = 1; i <= 25; i++) d = d ";d" i
	print d " 5"; print s ";x 3"; print "other;f 2" }' >"$DEEP"

# status FILE FUNC CHAIN: the status line of the caller that ends CHAIN
# ("c;b;a": a, calling b, calling c), computed from --collapse --callers:
# "a | 14 samples | 63.64% of view | 37.84% of all" (the share of the
# view only when the view is not all of the profile), escaped for grep -E.
status() {
	"$BIN" --collapse --callers "$2" "$1" | awk -v chain="$3" '
		{ w = $NF; s = $0; sub(/ [^ ]*$/, "", s); all += w
		  if (s == chain || index(s, chain ";") == 1) m += w }
		END { n = split(chain, f, ";")
		      if (all == total)
			printf "%s | %d samples | %.2f%% of all\n", f[n], m,
			       100 * m / all
		      else
			printf "%s | %d samples | %.2f%% of view | %.2f%% of all\n",
			       f[n], m, 100 * m / all, 100 * m / total }' \
		total="$("$BIN" --collapse "$1" | awk '{ t += $NF } END { print t }')" |
		sed 's/[().|]/\\&/g'
}
# The screen's line holding a frame named NAME: its row (0-based) and the
# column of its first character, "ROW COL".
where() {
	tui_screen | awk -v re="[[{]$1 " '
		{ i = match($0, re); if (i) { print NR - 1, i; exit } }'
}

for size in 80x24 120x35 200x50; do
	W=${size%x*} H=${size#*x}
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- "$IN"
	tui_wait "view-share.folded \| 37 samples" >/dev/null
	# The top table: c is the first row (sorted by self); Enter.
	tui_keys v
	tui_wait "\| view: top$" >/dev/null
	tui_keys Enter
	check "$size: sandwich of c" tui_wait "view: sandwich \(callers above, callees below\) of c"
	tui_settle
	# The callers' nearest row is right above the function.
	row=$(where c | cut -d' ' -f1)
	check "$size: no root row" [ -z "$(tui_screen | grep -E '^\[all ')" ]
	check "$size: c under its callers" \
		[ "$(tui_line "$row" | grep -c -E '^\[a +\]\[b +\]\[main +\]')" = 1 ]
	# k: the caller above (b, by the column kept), then its caller a.
	tui_keys k
	check "$size: k selects the caller b" tui_wait "^$(status "$IN" c 'c;b')\$"
	tui_keys k
	check "$size: k again: a" tui_wait "^$(status "$IN" c 'c;b;a')\$"
	tui_keys k
	check "$size: k again: main" tui_wait "^$(status "$IN" c 'c;b;a;main')\$"
	tui_keys j j j
	check "$size: j back to c" tui_wait "^c \| 22 samples \(self 22\)"
	tui_keys k h
	check "$size: h: the caller left" tui_wait "^$(status "$IN" c 'c;a')\$"
	# A click on a caller selects it.
	set -- $(where other)
	tui_click "$2" "$1"
	check "$size: click on other" tui_wait "^$(status "$IN" c 'c;a;other')\$"
	tui_keys Left
	check "$size: Left: no frame left of other" tui_wait "^$(status "$IN" c 'c;a;other')\$"
	# Double click on caller b: the sandwich of b.
	set -- $(where b)
	tui_dblclick "$2" "$1"
	check "$size: double click on b: its sandwich" \
		tui_wait "view: sandwich \(callers above, callees below\) of b"
	tui_keys BSpace
	check "$size: Backspace: back" tui_wait "sandwich \(callers above, callees below\) of c$"
	tui_keys q
	check "$size: exit 0" tui_wait "__EXIT:0"

	# Deep: the callers take half the rows, the rest hidden above.
	tui_start -x "$W" -y "$H" NO_COLOR=1 -- "$DEEP"
	tui_wait "deep.folded \| 10 samples" >/dev/null
	tui_keys / '^f$' Enter n
	tui_wait "^match 1 of 2" >/dev/null
	tui_keys S
	check "$size: deep: sandwich of f" tui_wait "sandwich \(callers above, callees below\) of f"
	tui_settle
	check "$size: deep: c1 right above f" \
		[ "$(tui_line "$(( $(where f | cut -d' ' -f1) ))" | grep -c '^\[c1 ')" = 1 ]
	check "$size: deep: marker above the callers" \
		[ "$(tui_line 2 | grep -c '▲$')" = 1 ]
	check "$size: deep: outermost callers hidden" [ -z "$(where c30)" ]
	tui_keys PPage
	check "$size: deep: PgUp: into the callers" tui_wait "^$(status "$DEEP" f 'f;c1')\$"
	tui_keys PPage PPage PPage
	check "$size: deep: PgUp: c30 shown" tui_wait "^\[c30 +\]"
	tui_keys g
	check "$size: deep: g: the outermost caller" tui_wait "^$(status "$DEEP" f "$(awk 'BEGIN { s = "f"; for (i = 1; i <= 30; i++) s = s ";c" i; print s }')")\$"
	tui_keys G
	check "$size: deep: G: the deepest callee" tui_wait "^d25 \| 5 samples \(self 5\)"
	# From the deepest callee, PgUp goes up the graph and on into the
	# callers; PgDn comes back down.
	tui_keys PPage PPage PPage PPage PPage PPage
	check "$size: deep: PgUp all the way: a caller" tui_wait "^c[0-9]+ \| 8 samples \|"
	check "$size: deep: PgUp all the way: c30 shown" tui_wait "^\[c30 +\]"
	tui_keys NPage NPage NPage NPage NPage NPage
	check "$size: deep: PgDn all the way: a callee" tui_wait "^d[0-9]+ \| 5 samples \(self 0\)"
	check "$size: deep: PgDn all the way: d25 shown" tui_wait "^\[d25 +\]"
	tui_keys q
	check "$size: deep: exit 0" tui_wait "__EXIT:0"
done

tui_done
