#!/bin/sh
# Annotation oracles: flametop --annotate's per-line shares against perf
# and go tool pprof.
#
# usage: tests/annotate/run.sh FLAMETOP
#
#  1. hotlines.data (perf record -g of hotlines.c, see README.md): the self
#     share of every source line of the function 'lines' against
#     perf report --no-children --sort sym,srcline, within 1 point.  The
#     committed hotlines.perf-report is perf's answer, so the check holds
#     where perf is not installed; where it is, perf's answer is also
#     made afresh from the same file.
#     hotlines.perf-script.zst, perf script of that file, the same.
#  2. Where perf can record here: hotlines run afresh under perf record -g,
#     the same comparison on that new file.
#  3. tests/pprof/go-cpu.pprof: self and total of every line of the main.*
#     functions against go tool pprof -list (go-cpu.list, committed, and
#     afresh where go is installed), within 1 point.
bin=${1:?usage: run.sh FLAMETOP}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/annotate
. "$top/tests/lib/checks.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8

# flametop's rows of one --annotate listing as "FUNC LINE SELF% TOTAL%"
# (shares of the profile; "." is 0).  A row: an optional '*', the self
# figure (one or two words, or "."), self%, the total figure, total%, the
# line number, the text.
ft_rows() {
	awk '
	/^[^ *].* self .*, total / { fn = $1; next }
	/^[ *] / {
		s = $0; sub(/^[ *]/, "", s)
		n = split(s, w, " "); i = 1; k = 0
		for (f = 0; f < 2; f++) {
			if (w[i] == ".") { p[f] = 0; i += 2; continue }
			while (i <= n && w[i] !~ /%$/) i++
			p[f] = w[i]; sub(/%$/, "", p[f]); i++
		}
		if (w[i] ~ /^[0-9]+$/) print fn, w[i], p[0] + 0, p[1] + 0
	}'
}

# perf report --no-children --sort sym,srcline rows of function FUNC in
# FILE as "LINE SELF%".
perf_rows() {
	awk -v fn="$1" '$2 == "[.]" && $3 == fn {
		l = $4; sub(/.*:/, "", l); p = $1; sub(/%$/, "", p)
		if (l ~ /^[0-9]+$/) print l, p + 0
	}' "$2"
}

# Compare "LINE SHARE" lists A (ours) and B (the oracle) within 1 point,
# each line of either; a line missing from one side is 0 there.
within_point() {
	awk '
	FILENAME == ARGV[1] { a[$1] = $2; seen[$1] = 1; next }
	{ b[$1] = $2; seen[$1] = 1 }
	END {
		bad = 0; n = 0
		for (l in seen) {
			d = a[l] - b[l]; if (d < 0) d = -d
			n++
			if (d > 1) { printf "line %s: %.2f%% here, %.2f%% there\n", l, a[l], b[l]; bad = 1 }
		}
		if (n == 0) { print "no lines compared"; bad = 1 }
		exit bad
	}' "$1" "$2"
}

# Self shares of 'lines' in perf.data DATA, read with symfs SYMFS, against
# perf's rows in REPORT.
compare_perf() {
	data=$1 symfs=$2 report=$3 label=$4
	"$bin" --annotate lines --symfs "$symfs" \
		--prefix-map /tmp/flametop-fixture="$here" "$data" \
		>"$tmp/ann" 2>"$tmp/err"
	ft_rows <"$tmp/ann" | awk '$1 == "lines" && $3 > 0 { print $2, $3 }' \
		>"$tmp/ours"
	perf_rows lines "$report" >"$tmp/theirs"
	if [ "$(wc -l <"$tmp/theirs")" -lt 4 ]; then
		bad "$label: perf gave fewer than 4 lines of 'lines'"
		return
	fi
	if out=$(within_point "$tmp/ours" "$tmp/theirs"); then
		ok
	else
		bad "$label: self shares by line differ from perf report: $out"
	fi
	# The source was found: its text is in the listing.
	if grep -q 'x = mix(x);' "$tmp/ann"; then ok; else
		bad "$label: the source text is not in the listing"; fi
}

# 1. The committed file against the committed answer, and afresh.
compare_perf "$here/hotlines.data" "$here/symfs" "$here/hotlines.perf-report" \
	"committed perf.data"
if command -v perf >/dev/null 2>&1; then
	perf report --no-children --sort sym,srcline --stdio -g none \
		--symfs "$here/symfs" -i "$here/hotlines.data" 2>/dev/null |
		grep -v '^#' >"$tmp/report"
	compare_perf "$here/hotlines.data" "$here/symfs" "$tmp/report" \
		"committed perf.data, perf report afresh"
fi

# perf script of the same file (addresses, no binary read by the reader):
# the binary is read for annotation, under --symfs.
compare_perf "$here/hotlines.perf-script.zst" "$here/symfs" \
	"$here/hotlines.perf-report" "perf script of the committed perf.data"

# 2. A fresh recording, where perf may record.
if command -v perf >/dev/null 2>&1 &&
   perf record -q -o "$tmp/probe.data" -- true >/dev/null 2>&1; then
	# Its sources were built in /tmp/flametop-fixture: --prefix-map.
	cp "$here/hotlines" "$tmp/hotlines"
	(cd "$tmp" && perf record -q -g -F 999 -o "$tmp/fresh.data" \
		./hotlines 0.4 >/dev/null 2>&1)
	perf report --no-children --sort sym,srcline --stdio -g none \
		-i "$tmp/fresh.data" 2>/dev/null | grep -v '^#' >"$tmp/freport"
	"$bin" --annotate lines --prefix-map /tmp/flametop-fixture="$here" \
		"$tmp/fresh.data" >"$tmp/ann" 2>"$tmp/err"
	ft_rows <"$tmp/ann" | awk '$1 == "lines" && $3 > 0 { print $2, $3 }' \
		>"$tmp/ours"
	perf_rows lines "$tmp/freport" >"$tmp/theirs"
	if [ "$(wc -l <"$tmp/theirs")" -lt 4 ]; then
		bad "fresh recording: perf gave fewer than 4 lines of 'lines'"
	elif out=$(within_point "$tmp/ours" "$tmp/theirs"); then
		ok
	else
		bad "fresh recording: self shares by line differ: $out"
	fi
else
	echo "note: perf cannot record here: no fresh recording compared"
fi

# 3. Go: flat and cum by line against go tool pprof -list.
# go tool pprof -list output as "FUNC LINE FLAT% CUM%" of its Total.
list_rows() {
	awk '
	function ms(v) {
		if (v == ".") return 0
		if (v ~ /ms$/) { sub(/ms$/, "", v); return v + 0 }
		if (v ~ /us$/) { sub(/us$/, "", v); return v / 1000 }
		if (v ~ /ns$/) { sub(/ns$/, "", v); return v / 1e6 }
		if (v ~ /s$/)  { sub(/s$/, "", v); return v * 1000 }
		return v + 0
	}
	/^Total: / { t = ms($2); next }
	/^ROUTINE / { fn = $3; next }
	$3 ~ /^[0-9]+:/ {
		l = $3; sub(/:.*/, "", l)
		f = ms($1); c = ms($2)
		if (f || c) print fn, l, 100 * f / t, 100 * c / t
	}' "$1"
}
go_compare() {
	list=$1 label=$2
	list_rows "$list" >"$tmp/glist"
	if [ "$(wc -l <"$tmp/glist")" -lt 4 ]; then
		bad "$label: go tool pprof -list gave fewer than 4 lines"
		return
	fi
	"$bin" --annotate '^main\.' --prefix-map /work/wt/pprof15="$top" \
		"$top/tests/pprof/go-cpu.pprof" >"$tmp/gann" 2>"$tmp/err"
	ft_rows <"$tmp/gann" | awk '$3 > 0 || $4 > 0' >"$tmp/gours"
	for col in 3 4; do
		awk -v c=$col '{ print $1 ":" $2, $c }' "$tmp/gours" >"$tmp/a"
		awk -v c=$col '{ print $1 ":" $2, $c }' "$tmp/glist" >"$tmp/b"
		if out=$(within_point "$tmp/a" "$tmp/b"); then
			ok
		else
			bad "$label: $( [ $col = 3 ] && echo flat || echo cum) by line differs from go tool pprof -list: $out"
		fi
	done
}
go_compare "$here/go-cpu.list" "go-cpu.pprof, committed -list"
if command -v go >/dev/null 2>&1; then
	go tool pprof -list '^main\.' -source_path "$top/tests/pprof" \
		"$top/tests/pprof/go-cpu.pprof" >"$tmp/list" 2>/dev/null
	go_compare "$tmp/list" "go-cpu.pprof, go tool pprof -list afresh"
fi

summary
