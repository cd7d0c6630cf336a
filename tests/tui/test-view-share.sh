#!/bin/sh
# test-view-share.sh - what depends on the profile shown follows every
# change of view: the search's "Matched:" share and n after filters (X, F),
# callers and callees (<, >), inversion (I), folding (R), Backspace and V;
# the top table; another sample type (e) and a time range kept through the
# view changes that follow.  Each expected share is recomputed here with awk
# from the `--collapse` output of the same view, none by flametop's search.
BIN=${1:?usage: test-view-share.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d) || exit 2
trap 'tui_cleanup; rm -rf "$dir"' EXIT
IN=$dir/small.folded
cat >"$IN" <<'EOF'
main;a;b;c 10
main;a;b 5
main;a;a;b;c 4
main;b;a 3
main;c 2
other;a;c 6
main;a;x;a;b 7
EOF

# share UNIT RE OPTIONS...: the weight of the view's stacks of $SRC that
# have a frame matching RE, and its share of the view, as the header prints
# them ("16 samples (51.61%)"; UNIT "" for a bare count), escaped for grep -E.
share() {
	unit=$1 re=$2
	shift 2
	"$BIN" --collapse "$@" "$SRC" | awk -v re="$re" -v unit="$unit" '
		{ w = $NF; s = $0; sub(/ [^ ]*$/, "", s); n = split(s, f, ";")
		  hit = 0
		  for (i = 1; i <= n; i++) if (f[i] ~ re) hit = 1
		  tot += w; if (hit) m += w }
		END { printf "%d%s (%.2f%%)\n", m, unit, tot ? 100 * m / tot : 0 }' |
		sed 's/[().]/\\&/g'
}
# frames RE OPTIONS...: how many frames of the view's tree of $SRC match
# RE (the distinct stack prefixes that end in a match), as n counts them.
frames() {
	re=$1
	shift
	"$BIN" --collapse "$@" "$SRC" | awk -v re="$re" '
		{ s = $0; sub(/ [^ ]*$/, "", s); n = split(s, f, ";"); p = ""
		  for (i = 1; i <= n; i++) {
			p = p ";" f[i]
			if (f[i] ~ re && !(p in seen)) { seen[p] = 1; k++ }
		  } }
		END { print k + 0 }'
}
# matched NAME OPTIONS...: the header's share is the view's.
matched() {
	name=$1
	shift
	check "$name: Matched" tui_wait "/\^c\\$/ Matched: $(share ' samples' '^c$' "$@")"
}
# next_match NAME OPTIONS...: n selects one of the view's matching frames.
next_match() {
	name=$1
	shift
	tui_keys n
	check "$name: n selects a match" \
		tui_wait "^match 1 of $(frames '^c$' "$@")\$"
}

SRC=$IN
tui_start -x 140 -y 30 NO_COLOR=1 -- "$IN"
tui_wait "small.folded \| 37 samples" >/dev/null
tui_keys / '^c$' Enter
check "whole profile: 22 (59.46%)" \
	tui_wait "Matched: 22 samples \(59\.46%\)"
matched "whole profile"

tui_keys X '^other$' Enter
check "X: 16 (51.61%)" tui_wait "\| 31 samples \| /\^c\\$/ Matched: 16 samples \(51\.61%\)"
matched "X" --exclude '^other$'
next_match "X" --exclude '^other$'

tui_keys F '^b$' Enter
check "F: the view" tui_wait "view: filter \+/\^b\\$/, filter -/\^other\\$/"
matched "F and X" --include '^b$' --exclude '^other$'
next_match "F and X" --include '^b$' --exclude '^other$'

# n left c selected: its callers, then inverted, then back.
tui_keys '<'
check "<: the view" tui_wait "view: callers of c, filter"
matched "callers" --callers c --include '^b$' --exclude '^other$'
next_match "callers" --callers c --include '^b$' --exclude '^other$'
tui_keys I
check "I: the view" tui_wait "view: callers of c, inverted"
matched "callers inverted" --callers c --invert --include '^b$' \
	--exclude '^other$'
next_match "callers inverted" --callers c --invert --include '^b$' \
	--exclude '^other$'
tui_keys BSpace
check "Backspace: the view before" \
	tui_wait "^view: callers of c, filter \+/\^b\\$/, filter -/\^other\\$/"
matched "back" --callers c --include '^b$' --exclude '^other$'

tui_keys V
check "V: as read" tui_wait "^view: the profile as read"
matched "V"
tui_keys X '^main$' Enter
matched "X main" --exclude '^main$'
next_match "X main" --exclude '^main$'
tui_keys '>'
check ">: the view" tui_wait "view: callees of c, filter -/\^main\\$/"
matched "callees" --callees c --exclude '^main$'
tui_keys V R
check "R: the view" tui_wait "^view: recursion folded"
matched "folded" --fold-recursion
tui_keys I
matched "folded, inverted" --fold-recursion --invert

# A view that drops every match: none to draw, and n says so.
tui_keys V X '^c$' Enter
check "X c: none matched" \
	tui_wait "\| 15 samples \| /\^c\\$/ Matched: 0 samples \(0\.00%\)"
tui_keys n
check "X c: n says no frame matches" tui_wait "^no frame matches\$"

# The top table of a filtered view: c's total is its share there.
tui_keys V X '^other$' Enter v
c_total=$(share '' '^c$' --exclude '^other$' | sed 's/ .*//')
check "top table of the view" \
	tui_wait "^ *[0-9.]+% +[0-9.]+% +[0-9]+ +$c_total +c$"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

# The status line in a view that drops samples: the share of the view and
# that of the whole profile, each named; one row on a narrow screen (the
# zoom's share gives way).  A view that keeps every sample says "of all".
# prefix W PREFIX OPTIONS...: the weight under the frame PREFIX (a;b) of
# the view of $SRC (W: the view's total).
prefix() {
	pre=$2
	shift 2
	"$BIN" --collapse "$@" "$SRC" | awk -v p="$pre" '
		{ s = $0; sub(/ [^ ]*$/, "", s)
		  if (p == "" || s == p || index(s, p ";") == 1) w += $NF }
		END { print w + 0 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f%%\n", 100 * a / b }' | sed 's/\./\\./'; }
tui_start -x 60 -y 12 NO_COLOR=1 -- "$IN"
tui_wait "small.folded \| 37 samples" >/dev/null
tui_keys X '^other$' Enter k j j j
b=$(prefix w 'main;a;b' --exclude '^other$')
view=$(prefix w '' --exclude '^other$')
all=$(prefix w '')
check "status: of view, of all" tui_wait "^b \| $b samples \(self 5\) \| $(ratio "$b" "$view") of view \| $(ratio "$b" "$all") of all\$"
check "status: one row" sh -c "tmux -L '$TUI_SOCK' capture-pane -p -t ft | sed -n 12p | grep -q '^b | '"
tui_keys V I k
check "status: inverted keeps all" tui_wait "^all \| $all samples \(self 0\) \| 100\.00% of all \| 100\.00% of zoom\$"
tui_keys q
check "status: exit 0" tui_wait "__EXIT:0"

# Another sample type read under a filter: the filter stays, and the
# share is the new type's in the view.
PP=tests/pprof/go-heap.pprof
SRC=$PP
tui_start -x 160 NO_COLOR=1 -- "$PP"
tui_wait "go-heap.pprof \| " >/dev/null
tui_keys / 'main\.mk' Enter X allocBig Enter
check "pprof: X" tui_wait "view: filter -/allocBig/ \| inuse_space"
tui_keys e
check "e: the next type" tui_wait "alloc_objects \(count\), e: next type"
tot=$("$BIN" --collapse --sample-type alloc_objects --exclude allocBig "$PP" |
	awk '{ t += $NF } END { print t }')
check "e: the view's total" tui_wait "go-heap.pprof \| $(figure count "$tot") \| "
check "e: the view's share" tui_wait "Matched: $(share '' 'main\.mk' \
	--sample-type alloc_objects --exclude allocBig)"
tui_keys q
check "pprof: exit 0" tui_wait "__EXIT:0"

# A time range taken in a filtered view holds when the view changes again,
# and T clears it in any view.
HM=tests/data/heatmap.perf-script
tui_start -x 120 NO_COLOR=1 -- "$HM"
tui_wait "heatmap.perf-script \| " >/dev/null
tui_keys X '^bg$' Enter t Enter L L L Enter
check "range: applied" tui_wait "^range .* applied"
ranged=$(tui_line 1 | sed -n 's/^[^|]*| \([^|]*\) |.*/\1/p')
all=$(cpu_amount "$("$BIN" --collapse --exclude '^bg$' "$HM" |
	awk '{ t += $NF } END { print t }')")
check "range: a part" [ -n "$ranged" -a "$ranged" != "$all" ]
tui_keys F main Enter
check "range: kept by F" tui_wait "\| $ranged \| view: filter \+/main/.*\| time "
tui_keys T
check "T: all samples in the view" \
	tui_wait "\| $all \| view: filter \+/main/, filter -/\^bg\\$/\$"
tui_keys q
check "range: exit 0" tui_wait "__EXIT:0"
tui_done
