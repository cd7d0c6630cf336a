#!/bin/sh
# run.sh - pprof input and SVG output, checked as users would check them.
#
# usage: tests/pprof/run.sh FLAMETOP
#
#  - the committed pprof files (Go's CPU and heap profiles, gzip; a
#    handmade one with inlined and unsymbolized frames) read from a file,
#    a pipe, gzip, and two files at once;
#  - when `go` is installed: `go tool pprof -raw` on the committed files,
#    and on fresh profiles of tests/pprof/writeprof.go built here (offline,
#    GOPATH and GOCACHE in a temporary directory), agrees with
#    `flametop --collapse --sample-type T` for every sample type T, with
#    and without --lines (aggregated per stack by raw2folded.py);
#  - the SVG: well-formed XML, one rect per frame of the layout, the
#    title, hostile names escaped, nothing loaded from outside;
#  - when chromium is installed: the SVG's script run headless (search's
#    matched share against --text --search, zoom), and a screenshot.
# Prints "N passed, N failed"; says SKIP plainly for what it cannot run.
bin=${1:?usage: run.sh FLAMETOP}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $bin in /*) ;; *) bin=$top/$bin ;; esac
cd "$top/tests/pprof" || exit 1
tmp=$(mktemp -d)
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8

. "$top/tests/lib/checks.sh"

# ---- Reading, as any other input ------------------------------------------
"$bin" --collapse inline.pprof >"$tmp/file.out" 2>"$tmp/err"
check "inline.pprof reads" test $? = 0 -a -s "$tmp/file.out"
cat >"$tmp/want" <<'EOF'
main;[unknown] 40
main;emit;alloc 2048
main;run;parse;lex;[libfoo.so.1] 1048576
main;run;parse;lex;next_token 300
EOF
check "inline frames outermost first, default type, [mapping]" same "$tmp/want" "$tmp/file.out"
"$bin" --collapse --addrs inline.pprof | grep -q '^main;0x89ab 40$'
check "--addrs names an unsymbolized location by its address" test $? = 0
"$bin" --collapse <inline.pprof >"$tmp/pipe.out" 2>/dev/null
check "pprof from a pipe" same "$tmp/file.out" "$tmp/pipe.out"
gzip -c inline.pprof | "$bin" --collapse - >"$tmp/gz.out" 2>/dev/null
check "gzip'd pprof from standard input" same "$tmp/file.out" "$tmp/gz.out"
"$bin" --collapse inline.pprof inline.pprof >"$tmp/two.out" 2>/dev/null
awk '{ n = $NF; sub(/ [^ ]*$/, ""); print $0, 2 * n }' "$tmp/file.out" >"$tmp/want2"
check "two pprof files merge" same "$tmp/want2" "$tmp/two.out"
"$bin" --collapse --format pprof go-heap.pprof >/dev/null 2>&1
check "--format pprof" test $? = 0
"$bin" --format pprof --collapse ../golden/basic.folded >/dev/null 2>"$tmp/err"
check "--format pprof on text: a message, status 1" test $? = 1 -a -s "$tmp/err"
"$bin" --text --width 60 --sample-type alloc_objects inline.pprof >"$tmp/t" 2>&1
check "--text counts unit" grep -q '^inline.pprof: 10, 4 distinct stacks' "$tmp/t"
"$bin" --text --width 60 go-cpu.pprof >"$tmp/t" 2>&1
check "cpu type shows CPU time" grep -q 'go-cpu.pprof: [0-9.]* m\?s CPU' "$tmp/t"
"$bin" --text --width 60 --sample-type alloc_space inline.pprof >"$tmp/t" 2>&1
check "bytes shown as MB" grep -q '^inline.pprof: 1.00 MB,' "$tmp/t"

# ---- A decompression bomb ----------------------------------------------------
# 1 GiB of empty string_table entries, in 1 MB of gzip and 100 KB of zstd:
# refused early, exit 1, with a message naming --max-input, and in bounded
# peak memory (a generous 300 MB: the data alone would be 1 GiB).  Plain,
# 128 MiB of them are read in memory that follows what the profile holds;
# gzip'd empty locations meet a budget by compressed size.  Memory is
# measured by /usr/bin/time, and also capped (ulimit -v, not under ASan)
# so that a binary without the bound fails without filling the machine.
# measure FILE ARGS...: peak RSS (KB) into $rss, status into $st.
measure() {
	out=$1
	shift
	(
		case $bin in */san/*) ;; *) ulimit -v 4000000 ;; esac
		/usr/bin/time -f '%M' -o "$tmp/rss" "$bin" "$@" >"$out" 2>"$tmp/err"
	)
	st=$?
	rss=$(tail -n 1 "$tmp/rss")
}
if [ -x /usr/bin/time ] && command -v zstd >/dev/null 2>&1; then
	python3 ./make-pprof.py --bomb 1024 | gzip -1 >"$tmp/bomb.gz"
	python3 ./make-pprof.py --bomb 1024 | zstd -q -1 >"$tmp/bomb.zst"
	for f in bomb.gz bomb.zst; do
		measure "$tmp/out" --collapse "$tmp/$f"
		check "$f: exit 1" test "$st" = 1
		check "$f: message names --max-input" grep -q \
			"$f: decompresses to more than 64 MiB ([0-9]*:1); raise --max-input to read it" "$tmp/err"
		check "$f: peak RSS $rss KB < 300 MB" test "$rss" -lt 307200
	done
	rm -f "$tmp/bomb.gz" "$tmp/bomb.zst"
	# Plain, the same kind of profile is read through (no types, so
	# nothing to show), in memory that follows what it holds: 128 MiB of
	# input, the strings never held decoded.
	python3 ./make-pprof.py --bomb 128 >"$tmp/bomb.pb"
	measure "$tmp/out" --collapse "$tmp/bomb.pb"
	check "plain 128 MiB of strings: read through" \
		grep -q 'bomb.pb: pprof profile has no sample types' "$tmp/err"
	check "plain 128 MiB of strings: peak RSS $rss KB < 300 MB" test "$rss" -lt 307200
	rm -f "$tmp/bomb.pb"
	# 24 MiB of empty locations in 24 KB of gzip: under the 64 MiB that
	# any compressed input may reach, but protobuf-c would hold them in
	# 48 times that (1.2 GB) before the budget per input byte ran out.
	# A compressed input's budget follows its compressed size too.
	python3 ./make-pprof.py --bomb-locations 24 | gzip -9 >"$tmp/locs.gz"
	measure "$tmp/out" --collapse "$tmp/locs.gz"
	check "24 MiB of empty locations, gzip'd: exit 1" test "$st" = 1
	check "empty locations: message names --max-input ($(head -n 1 "$tmp/err"))" \
		grep -q "locs.gz: pprof profile needs more than [0-9]* MiB to decode (200 times its compressed size); raise --max-input to read it" \
		"$tmp/err"
	check "empty locations: peak RSS $rss KB < 300 MB" test "$rss" -lt 307200
	rm -f "$tmp/locs.gz"
else
	echo "SKIP (in part): /usr/bin/time or zstd missing: no decompression bomb test"
fi

# ---- The oracle: go tool pprof -raw ----------------------------------------
# compare FILE: every sample type of FILE against go tool pprof.
compare() {
	f=$1
	go tool pprof -symbolize=none -raw "$f" >"$tmp/raw" 2>/dev/null ||
		{ bad "go tool pprof -raw $f"; return; }
	types=$(sed -n '/^Samples:/{n;p;}' "$tmp/raw" | sed 's/\[dflt\]//g; s#/[^ ]*##g')
	[ -n "$types" ] || { bad "no sample types in go tool pprof -raw $f"; return; }
	for t in $types; do
		python3 ./raw2folded.py "$t" <"$tmp/raw" >"$tmp/want.$t"
		"$bin" --collapse --sample-type "$t" "$f" >"$tmp/got.$t" 2>/dev/null
		if [ -s "$tmp/want.$t" ] && same "$tmp/want.$t" "$tmp/got.$t"; then
			ok
		else
			bad "$f --sample-type $t differs from go tool pprof -raw"
		fi
		# --lines: each frame named by its location line's file:line.
		python3 ./raw2folded.py "$t" --lines <"$tmp/raw" >"$tmp/want.$t"
		"$bin" --collapse --lines --sample-type "$t" "$f" >"$tmp/got.$t" 2>/dev/null
		if [ -s "$tmp/want.$t" ] && same "$tmp/want.$t" "$tmp/got.$t"; then
			ok
		else
			bad "$f --lines --sample-type $t differs from go tool pprof -raw"
		fi
	done
}
if command -v go >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	for f in go-cpu.pprof go-heap.pprof inline.pprof; do
		compare "$f"
	done
	mkdir -p "$tmp/go"
	if GOPATH=$tmp/go/path GOCACHE=$tmp/go/cache GOFLAGS= GO111MODULE=off \
	   GOPROXY=off GOTOOLCHAIN=local go build -o "$tmp/writeprof" writeprof.go \
	   >"$tmp/go/log" 2>&1 && "$tmp/writeprof" "$tmp/cpu.pprof" "$tmp/heap.pprof" \
	   >/dev/null; then
		compare "$tmp/cpu.pprof"
		compare "$tmp/heap.pprof"
	else
		bad "building and running writeprof.go"
		cat "$tmp/go/log"
	fi
else
	echo "SKIP (in part): go is not installed (Debian golang-go): no comparison with go tool pprof"
fi

# ---- The SVG ---------------------------------------------------------------
python3 ./make-pprof.py "$tmp" || bad "make-pprof.py"
# A ';' in a function name would split the frame in folded output: ':'.
check "a ';' in a name becomes ':' in --collapse" test \
	"$("$bin" --collapse "$tmp/semicolon.pprof" | tr '\n' '|')" = 'a:b 2|a:b;c 3|'
check "and in --top" sh -c "'$bin' --top 0 '$tmp/semicolon.pprof' | grep -q ' a:b\$'"
"$bin" --svg "$tmp/h.svg" --title 'T <&> "q"' "$tmp/pprof-hostile-names.in"
check "--svg writes a file" test $? = 0 -a -s "$tmp/h.svg"
check "hostile names never become markup" sh -c "! grep -q '<script>alert' '$tmp/h.svg'"
check "hostile names escaped" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/h.svg"
check "control bytes escaped" sh -c "! grep -q \"\$(printf '\\033')\" '$tmp/h.svg'"
"$bin" --svg - --title 'A title' inline.pprof >"$tmp/i.svg"
check "--svg - writes to standard output" test $? = 0 -a -s "$tmp/i.svg"
# Well-formed, the title, one rect per frame drawn, one script, no address
# other than the SVG namespace.
cat >"$tmp/svgcheck.py" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
frames = [g for g in root.iter(ns + "g") if g.get("class") == "f"]
title = root.find(ns + "text[@id='title']").text
names = [g.find(ns + "title").text.rsplit(" (", 1)[0] for g in frames]
rects = [g.find(ns + "rect") for g in frames]
assert all(r is not None for r in rects)
print(title)
print(len(frames))
print(len(list(root.iter(ns + "script"))))
print("\n".join(names))
EOF
if python3 "$tmp/svgcheck.py" "$tmp/h.svg" >"$tmp/h.parsed" 2>&1; then
	ok
	check "SVG title" test "$(sed -n 1p "$tmp/h.parsed")" = 'T <&> "q"'
	check "hostile name read back exactly" grep -qx '<script>alert(1)</script>' "$tmp/h.parsed"
else
	bad "hostile SVG is not well-formed XML"; cat "$tmp/h.parsed"
fi
python3 "$tmp/svgcheck.py" "$tmp/i.svg" >"$tmp/i.parsed" 2>&1 || bad "SVG is not well-formed"
# The frames the layout draws at 0.1%: all, main, emit, alloc (0.19%), run,
# parse, lex, [libfoo.so.1]; not [unknown] (40 bytes) nor next_token (300).
check "SVG frames: those over 0.1%" test "$(sed -n 2p "$tmp/i.parsed")" = 8
check "SVG has one script" test "$(sed -n 3p "$tmp/i.parsed")" = 1
check "SVG title from --title" test "$(sed -n 1p "$tmp/i.parsed")" = 'A title'
# Without --title: the input's name (two with --diff), else "Flame Graph".
"$bin" --svg "$tmp/n.svg" inline.pprof && python3 "$tmp/svgcheck.py" "$tmp/n.svg" >"$tmp/n.parsed" 2>&1
check "SVG title: the input's name by default" test "$(sed -n 1p "$tmp/n.parsed")" = 'inline.pprof'
"$bin" --svg "$tmp/n.svg" --diff inline.pprof go-heap.pprof && python3 "$tmp/svgcheck.py" "$tmp/n.svg" >"$tmp/n.parsed" 2>&1
check "SVG title: both names with --diff" test "$(sed -n 1p "$tmp/n.parsed")" = 'inline.pprof vs go-heap.pprof'
"$bin" --svg "$tmp/n.svg" - <inline.pprof && python3 "$tmp/svgcheck.py" "$tmp/n.svg" >"$tmp/n.parsed" 2>&1
check "SVG title: Flame Graph from standard input" test "$(sed -n 1p "$tmp/n.parsed")" = 'Flame Graph'
check "SVG loads nothing from outside" sh -c \
	"! sed 's#xmlns=\"http://www.w3.org/2000/svg\"##' '$tmp/i.svg' | grep -q -i -E 'https?:|href|@import|url\\('"
printf 'a;b 1\na;c 3\n' >"$tmp/d1"
printf 'a;b 2 1\na;c 1 3\n' >"$tmp/d.folded"
"$bin" --svg "$tmp/d.svg" "$tmp/d.folded"
check "diff SVG: c grew (red), b shrank (blue)" sh -c \
	"grep -o '<title>c (.*fill=\"#ff[0-9a-f]*\"' '$tmp/d.svg' >/dev/null &&
	 grep -o '<title>b (.*fill=\"#[0-9a-f]\{4\}ff\"' '$tmp/d.svg' >/dev/null"

# ---- The SVG's script, in node ----------------------------------------------
# svg-script.js runs it against a stand-in document: zoom, reset, click,
# search (nested matches counted once, as --text --search counts them).
if command -v node >/dev/null 2>&1; then
	for case in 'go-heap.pprof alloc' 'inline.pprof ^(run|parse|emit|alloc)$'; do
		f=${case%% *}
		re=${case#* }
		"$bin" --svg "$tmp/n.svg" "$f"
		want=$("$bin" --text --search "$re" "$f" | sed -n 's/^Matched: .*(\(.*\))$/\1/p')
		if node ./svg-script.js "$tmp/n.svg" "$re" "$want" >"$tmp/node.out" 2>&1; then
			ok
		else
			bad "the SVG's script in node (search $re)"
			grep -v '^ok' "$tmp/node.out" | head -n 10
		fi
	done
else
	echo "SKIP (in part): node is not installed: the SVG's script is not run in node"
fi

# ---- The TUI switches sample types with y -----------------------------------
if command -v tmux >/dev/null 2>&1; then
	sock=ftpp$$
	# wait_for TEXT: poll the screen (up to 20 s) until it shows TEXT.
	wait_for() {
		i=0
		while [ $i -lt 200 ]; do
			tmux -L "$sock" capture-pane -p 2>/dev/null | grep -q -- "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		tmux -L "$sock" capture-pane -p 2>/dev/null | head -n 3
		return 1
	}
	tmux -L "$sock" -f /dev/null new -d -x 120 -y 20 "$bin go-heap.pprof"
	check "TUI header: the default type and its unit" \
		wait_for '10.6 MB | inuse_space (bytes), e: next type'
	tmux -L "$sock" send-keys e
	check "TUI e: next type, counted" wait_for '| 2.16k | alloc_objects (count)'
	tmux -L "$sock" send-keys e
	check "TUI e again: bytes" wait_for '12.5 MB | alloc_space (bytes)'
	tmux -L "$sock" kill-server 2>/dev/null
	# What was skipped is named in its unit: samples, not lines (a server
	# of its own: the last one may still be on its way out).
	sock=ftpq$$
	tmux -L "$sock" -f /dev/null new -d -x 120 -y 20 "$bin ../bad/pprof-few-values.in"
	check "TUI status: skipped samples named" \
		wait_for '1 bad sample skipped (listed on exit)'
	tmux -L "$sock" kill-server 2>/dev/null
else
	echo "SKIP (in part): tmux is not installed: the TUI's e key is not tested"
fi

# ---- In a browser ----------------------------------------------------------
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
	browse() {
		timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update \
			--disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$tmp")" \
			"$@" 2>/dev/null
	}
	"$bin" --svg "$tmp/heap.svg" go-heap.pprof
	want=$("$bin" --text --search 'alloc' go-heap.pprof | sed -n 's/^Matched: .*(\(.*\))$/\1/p')
	browse --dump-dom "file://$tmp/heap.svg#s=alloc" >"$tmp/dom"
	check "browser search: Matched: $want, as --text --search says" \
		grep -q ">Matched: $want<" "$tmp/dom"
	# Zoom to main.allocMid: its sibling frames hide, its ancestors fade.
	z=$(grep -o '<g class="f"' "$tmp/heap.svg" | wc -l)
	idx=$(python3 -c "
import sys, re
t = re.findall(r'<title>([^<]*?) \(', open(sys.argv[1]).read())
print(t.index('main.allocMid'))" "$tmp/heap.svg")
	browse --dump-dom "file://$tmp/heap.svg#z=$idx" >"$tmp/dom"
	check "browser zoom: siblings hidden" grep -q 'class="f hide"' "$tmp/dom"
	check "browser zoom: ancestors faded" grep -q 'class="f anc"' "$tmp/dom"
	check "browser zoom: the frame fills the width" grep -q \
		'<title>main.allocMid ([^<]*</title><rect x="10.0" y="[0-9]*" width="1180.0"' "$tmp/dom"
	[ "$z" -gt 3 ] || bad "heap SVG has too few frames ($z)"
	browse --screenshot="$tmp/shot.png" --window-size=1200,800 "file://$tmp/heap.svg" >/dev/null
	check "screenshot written" sh -c "test -s '$tmp/shot.png' &&
		head -c 8 '$tmp/shot.png' | od -An -c | grep -q 'P   N   G'"
else
	echo "SKIP (in part): chromium is not installed: the SVG was not opened in a browser"
fi

# ---- A file is written whole or not at all ---------------------------------
# Beside the target, then renamed into place: a full file system (a 64 KB
# tmpfs; mounting it needs root) leaves no partial SVG and no temporary
# file, and an older SVG as it was.
"$bin" --svg "$tmp/m.svg" ../../samples/flametop-make.folded
check "--svg writes a large file" test $? = 0 -a -s "$tmp/m.svg"
mkdir "$tmp/full"
if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	check "the SVG is larger than the file system" \
		test "$(wc -c <"$tmp/m.svg")" -gt 65536
	"$bin" --svg "$tmp/full/out.svg" ../../samples/flametop-make.folded \
		2>"$tmp/full.err"
	check "full disk: status 1" test $? = 1
	check "full disk: says why ($(cat "$tmp/full.err"))" grep -q \
		"^flametop: $tmp/full/out.svg: error writing: No space left on device" \
		"$tmp/full.err"
	check "full disk: no file left, partial or temporary ($(ls -A "$tmp/full"))" \
		test -z "$(ls -A "$tmp/full")"
	printf 'an older file\n' >"$tmp/full/out.svg"
	"$bin" --svg "$tmp/full/out.svg" ../../samples/flametop-make.folded \
		2>"$tmp/full.err"
	check "full disk, older file: status 1" test $? = 1
	check "full disk: the older file as it was" \
		test "$(cat "$tmp/full/out.svg")" = "an older file"
	check "full disk, older file: nothing else left ($(ls -A "$tmp/full"))" \
		test "$(ls -A "$tmp/full")" = out.svg
	umount "$tmp/full"
else
	echo "SKIP (in part): cannot mount a tmpfs (not root): no full-disk test"
fi
# A file replaced keeps its mode; a new one gets what umask gives; a link
# leads to the file written; a device is written as it is.
printf 'old\n' >"$tmp/mode.svg"
chmod 600 "$tmp/mode.svg"
"$bin" --svg "$tmp/mode.svg" inline.pprof
check "a replaced file keeps its mode" test "$(stat -c %a "$tmp/mode.svg")" = 600
check "a replaced file is the new SVG" grep -q '</svg>' "$tmp/mode.svg"
(umask 027 && "$bin" --svg "$tmp/umask.svg" inline.pprof)
check "a new file: 0666 less the umask" test "$(stat -c %a "$tmp/umask.svg")" = 640
ln -s mode.svg "$tmp/link.svg"
printf 'old\n' >"$tmp/mode.svg"
"$bin" --svg "$tmp/link.svg" inline.pprof
check "through a link: the link stays" test -L "$tmp/link.svg"
check "through a link: the file it leads to written" grep -q '</svg>' "$tmp/mode.svg"
"$bin" --svg /dev/null inline.pprof
check "--svg /dev/null: status 0, /dev/null still a device" \
	test $? = 0 -a -c /dev/null
check "no temporary file left beside them ($(ls -A "$tmp" | grep '^\.'))" \
	sh -c "! ls -A '$tmp' | grep -q '^\\.'"

summary
