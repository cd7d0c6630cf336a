#!/bin/sh
# run.sh - --pprof FILE, read back as its users read it.
#
# usage: tests/pprof-out/run.sh FLAMETOP
#
# For folded stacks, perf script, perf.data (a clock event and a
# tracepoint), pprof input, V8's .cpuprofile and views with filters and a
# time range:
#  - `go tool pprof -raw` reads the file, with the sample types expected,
#    and its stacks and weights (aggregated per stack by
#    tests/pprof/raw2folded.py) are flametop's --collapse of the same input
#    and options;
#  - samples/count, where written, holds the number of samples, and the
#    duration is the samples' span: checked against the perf script text;
#  - flametop reading its own --pprof file prints the same --collapse;
#  - perf.data: each binary of the frames is a mapping with the build-id
#    perf recorded (perf buildid-list), and the locations' addresses are
#    frames' addresses perf script prints, in their mappings' ranges
#    (tests/pprof-out/raw-mappings.py reads go tool pprof -raw);
#  - pprof input: its mappings, build-ids and addresses are written back,
#    and with --lines its lines are Line records: go tool pprof -raw shows
#    the input's stacks of functions and of lines;
#  - perf.data --lines: lines from DWARF are Line records (go tool pprof
#    -raw and -list); perf script: its modules are mappings, its srclines
#    Line records.
# Bad paths: a directory that cannot be written, a full file system, a
# comparison, options that do not go together.  (Live sampling to --pprof:
# tests/live/test-live-pprof.sh.)
# Prints "N passed, N failed"; says SKIP plainly for what it cannot run.
bin=${1:?usage: run.sh FLAMETOP}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $bin in /*) ;; *) bin=$top/$bin ;; esac
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8

. "$top/tests/lib/checks.sh"

# ---- Written and read back by flametop (needs nothing else) ---------------
# back NAME ARGS...: --pprof of ARGS, read back by flametop, is --collapse.
back() {
	name=$1
	shift
	rm -f "$tmp/out.pb.gz"
	"$bin" --pprof "$tmp/out.pb.gz" "$@" 2>"$tmp/err"
	check "$name: --pprof exits 0 ($(head -n 1 "$tmp/err"))" test $? = 0
	check "$name: a gzip file" sh -c "gzip -t '$tmp/out.pb.gz'"
	"$bin" --collapse "$@" >"$tmp/want" 2>/dev/null
	"$bin" --collapse "$tmp/out.pb.gz" >"$tmp/got" 2>"$tmp/err"
	check "$name: flametop reads its own pprof as --collapse" \
		same "$tmp/want" "$tmp/got"
}
back "folded" tests/golden/basic.folded
back "folded, names with spaces and bytes" tests/golden/escape.folded
back "perf script" samples/gzip.perf-script.gz
back "perf.data" tests/data/cxx.data
back "perf.data, a tracepoint" tests/data/switch.data
back "pprof, default type" tests/pprof/inline.pprof
back "pprof, --sample-type" --sample-type alloc_objects tests/pprof/inline.pprof
back ".cpuprofile" tests/cpuprofile/work.cpuprofile
back "view: --include --invert" --include parse --invert \
	samples/python.perf-script.zst
back "view: --time" --time 10%-60% samples/gzip.perf-script.gz

# ---- Bad paths -------------------------------------------------------------
printf 'x\n' >"$tmp/notadir"
"$bin" --pprof "$tmp/notadir/out.pb.gz" tests/golden/basic.folded \
	2>"$tmp/err"
check "a path that cannot be written: status 1" test $? = 1
check "  ... says which and why ($(cat "$tmp/err"))" grep -q \
	"^flametop: $tmp/notadir/out.pb.gz: cannot write: Not a directory" \
	"$tmp/err"
mkdir "$tmp/ro"
chmod 555 "$tmp/ro"
chmod 755 "$tmp"   # (for the user setpriv runs as)
if [ "$(id -u)" != 0 ]; then
	"$bin" --pprof "$tmp/ro/out.pb.gz" tests/golden/basic.folded 2>"$tmp/err"
	check "unwritable directory: status 1" test $? = 1
	check "  ... a message ($(cat "$tmp/err"))" grep -q "Permission denied" \
		"$tmp/err"
	check "  ... no file" test -z "$(ls -A "$tmp/ro")"
elif command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$bin" --pprof "$tmp/ro/out.pb.gz" "$top/tests/golden/basic.folded" \
		2>"$tmp/err"
	check "unwritable directory: status 1" test $? = 1
	check "  ... a message ($(cat "$tmp/err"))" grep -q \
		"^flametop: $tmp/ro/out.pb.gz: cannot write: Permission denied" \
		"$tmp/err"
	check "  ... no file" test -z "$(ls -A "$tmp/ro")"
else
	echo "SKIP (in part): root without setpriv: no unwritable directory"
fi
# Written beside the target, then renamed: a full file system leaves
# nothing, partial or temporary.
mkdir "$tmp/full"
if mount -t tmpfs -o size=16k tmpfs "$tmp/full" 2>/dev/null; then
	"$bin" --pprof "$tmp/full/out.pb.gz" samples/flametop-make.folded \
		2>"$tmp/err"
	check "full disk: status 1" test $? = 1
	check "full disk: says why ($(cat "$tmp/err"))" grep -q \
		"^flametop: $tmp/full/out.pb.gz: error writing: No space left on device" \
		"$tmp/err"
	check "full disk: no file left ($(ls -A "$tmp/full"))" \
		test -z "$(ls -A "$tmp/full")"
	umount "$tmp/full"
else
	echo "SKIP (in part): cannot mount a small tmpfs (not root): no full disk"
fi
"$bin" --pprof "$tmp/d.pb.gz" tests/golden/diff.folded 2>"$tmp/err"
check "a comparison: status 1" test $? = 1
check "  ... says why ($(cat "$tmp/err"))" grep -q "comparison" "$tmp/err"
check "  ... no file" test ! -e "$tmp/d.pb.gz"
check "  ... nothing left beside it ($(ls -A "$tmp" | tr '\n' ' '))" \
	sh -c "! ls -A '$tmp' | grep -q '^\\.d\\.pb'"
"$bin" --pprof "$tmp/d.pb.gz" --diff tests/golden/diff-before.folded \
	tests/golden/diff-after.folded 2>"$tmp/err"
check "--diff --pprof: a usage error ($(cat "$tmp/err"))" sh -c \
	"test $? = 2 && grep -q 'compares two' '$tmp/err'"
"$bin" --pprof "$tmp/d.pb.gz" --collapse tests/golden/basic.folded 2>"$tmp/err"
check "--pprof --collapse: a usage error ($(cat "$tmp/err"))" sh -c \
	"test $? = 2 && grep -q 'goes with none' '$tmp/err'"
"$bin" --pprof - tests/golden/basic.folded >"$tmp/stdout.pb.gz" 2>"$tmp/err"
check "--pprof - writes standard output" sh -c \
	"gzip -t '$tmp/stdout.pb.gz' && test \"\$('$bin' --collapse '$tmp/stdout.pb.gz')\" = \"\$('$bin' --collapse tests/golden/basic.folded)\""
# Standard output on a terminal: binary data is refused (in tmux).
if command -v tmux >/dev/null 2>&1; then
	sock=ppo$$
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
		"'$bin' --pprof - tests/golden/basic.folded; echo status=\$?; sleep 30"
	n=0
	while [ $n -lt 50 ] && ! tmux -L "$sock" capture-pane -p | grep -q status=; do
		sleep 0.1
		n=$((n + 1))
	done
	tmux -L "$sock" capture-pane -p >"$tmp/screen"
	tmux -L "$sock" kill-server 2>/dev/null
	check "--pprof - on a terminal: refused ($(grep -v '^$' "$tmp/screen" | head -n 2 | tr '\n' ' '))" \
		sh -c "grep -q 'standard output is a terminal' '$tmp/screen' && grep -q 'status=2' '$tmp/screen'"
else
	echo "SKIP (in part): no tmux: --pprof - on a terminal"
fi
"$bin" --pprof "$tmp/f.pb.gz" tests/golden/fractional.folded 2>"$tmp/err"
check "fractional weights: written, rounded, said ($(cat "$tmp/err"))" \
	sh -c "test $? = 0 && grep -q 'rounded' '$tmp/err' && gzip -t '$tmp/f.pb.gz'"

# ---- The oracle: go tool pprof -raw ----------------------------------------
if ! command -v go >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP (in part): go is not installed (Debian golang-go): no reading by go tool pprof"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
# raw NAME TYPES ARGS...: go tool pprof -raw reads --pprof of ARGS, with
# sample types TYPES (its header line), and the default type's stacks and
# weights are --collapse of ARGS.
raw() {
	name=$1
	types=$2
	shift 2
	rm -f "$tmp/out.pb.gz"
	"$bin" --pprof "$tmp/out.pb.gz" "$@" 2>/dev/null
	if ! go tool pprof -symbolize=none -raw "$tmp/out.pb.gz" >"$tmp/raw" \
	     2>"$tmp/err"; then
		bad "$name: go tool pprof -raw reads it ($(head -n 1 "$tmp/err"))"
		return
	fi
	got=$(sed -n '/^Samples:/{n;p;}' "$tmp/raw")
	check "$name: sample types '$got'" test "$got" = "$types"
	dflt=$(printf '%s\n' "$types" | tr ' ' '\n' | sed -n 's#/.*\[dflt\]##p')
	python3 tests/pprof/raw2folded.py "$dflt" <"$tmp/raw" >"$tmp/got"
	"$bin" --collapse "$@" >"$tmp/want" 2>/dev/null
	check "$name: go tool pprof -raw has --collapse's stacks and weights" \
		same "$tmp/want" "$tmp/got"
}
raw "folded" "samples/count[dflt]" samples/sort.folded
raw "folded, names with spaces and bytes" "samples/count[dflt]" \
	tests/golden/escape.folded
raw "perf script" "samples/count cpu/nanoseconds[dflt]" \
	samples/gzip.perf-script.gz
# The number of samples: one a header line of the perf script text.
n=$(gzip -dc samples/gzip.perf-script.gz | grep -c '^[^[:space:]#]')
m=$(awk '/^Samples:/ { s = 1; getline; next } /^Locations/ { s = 0 }
	s && /:/ { t += $1 } END { print t + 0 }' "$tmp/raw")
check "perf script: samples/count adds up to the $n samples read ($m)" \
	test "$n" = "$m"
# The duration: from the first sample's time to the last's.
span=$(gzip -dc samples/gzip.perf-script.gz | awk '/^[^[:space:]#]/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		t = $i + 0; if (!n++ || t < a) a = t; if (t > b) b = t } }
	END { printf "%.6f\n", b - a }')
d=$(sed -n 's/^Duration: //p' "$tmp/raw")
check "perf script: duration $d s, the samples' span $span s" awk \
	-v d="$d" -v s="$span" 'BEGIN { x = d - s; exit !(d != "" && x < 0.01 && x > -0.01) }'
raw "perf script, another" "samples/count cpu/nanoseconds[dflt]" \
	samples/python.perf-script.zst
raw "perf.data" "samples/count cpu/nanoseconds[dflt]" tests/data/cxx.data
raw "perf.data, task-clock" "samples/count cpu/nanoseconds[dflt]" \
	--event-filter task-clock tests/data/two-events.data
raw "perf.data, a tracepoint" \
	"samples/count sched:sched_switch/count[dflt]" tests/data/switch.data
# cycles periods count cycles, as perf.data's tracepoint counts its events.
raw "perf script, cycles" "samples/count cycles/count[dflt]" \
	tests/golden/mixed.perf
raw "pprof, round trip" "inuse_space/bytes[dflt]" tests/pprof/go-heap.pprof
raw "pprof, --sample-type" "alloc_objects/count[dflt]" \
	--sample-type alloc_objects tests/pprof/inline.pprof
raw "pprof, a CPU profile" "cpu/nanoseconds[dflt]" tests/pprof/go-cpu.pprof
raw ".cpuprofile" "samples/count wall/nanoseconds[dflt]" \
	tests/cpuprofile/work.cpuprofile
raw "view: --include --invert" "samples/count cpu/nanoseconds[dflt]" \
	--include parse --invert samples/python.perf-script.zst
raw "view: --callers" "samples/count cpu/nanoseconds[dflt]" \
	--callers pymalloc_alloc samples/python.perf-script.zst
raw "view: --exclude --time" "samples/count cpu/nanoseconds[dflt]" \
	--exclude gc_reset_refs --time 20%-70% samples/python.perf-script.zst
# ---- Mappings and build-ids: perf.data --------------------------------------
# Each binary of fp.data's frames is a mapping with the build-id perf
# recorded for it (perf buildid-list; the committed fp.buildids where perf
# is not installed), and each location's address, as an offset in its
# file, is one that perf script prints for a frame of that file (fp.ips);
# none lies outside its mapping's range.
"$bin" --pprof "$tmp/fp.pb.gz" --kallsyms tests/data/fp.kallsyms \
	tests/data/fp.data 2>/dev/null
go tool pprof -symbolize=none -raw "$tmp/fp.pb.gz" 2>/dev/null |
	python3 tests/pprof-out/raw-mappings.py >"$tmp/maps"
if command -v perf >/dev/null 2>&1; then
	perf buildid-list -i tests/data/fp.data >"$tmp/bids" 2>/dev/null
	perf script -i tests/data/fp.data -F ip,dso 2>/dev/null | awk 'NF == 2 {
		d = $2; gsub(/[()]/, "", d); print "at " d " " $1 }' |
		sort -u >"$tmp/ips"
	check "perf buildid-list and perf script agree with the committed lists" \
		sh -c "cmp -s '$tmp/bids' tests/pprof-out/fp.buildids &&
		       cmp -s '$tmp/ips' tests/pprof-out/fp.ips"
else
	echo "SKIP (in part): no perf: the committed build-ids and addresses"
	cp tests/pprof-out/fp.buildids "$tmp/bids"
	cp tests/pprof-out/fp.ips "$tmp/ips"
fi
for file in /tmp/flametop-fixture/prog '[kernel.kallsyms]'; do
	want=$(awk -v f="$file" '$2 == f { print "map " f " " $1 }' "$tmp/bids")
	check "perf.data: a mapping of $file with its build-id ($want)" \
		grep -qxF "$want" "$tmp/maps"
done
grep '^map ' "$tmp/maps" | while read -r _ path id; do
	rec=$(awk -v f="$path" '$2 == f { print $1 }' "$tmp/bids")
	[ -z "$rec" ] || [ "$rec" = "$id" ] || echo "$path: $id, recorded $rec"
done >"$tmp/wrong"
check "perf.data: no mapping has another build-id than perf recorded ($(head -n 1 "$tmp/wrong"))" \
	test ! -s "$tmp/wrong"
# The kernel's mapping is its map as recorded (perf script
# --show-mmap-events: "[0xffffffff81000000(0x1276508) @ 0xffffffff81000000]").
kmap=0xffffffff81000000/0xffffffff82276508/0xffffffff81000000
if command -v perf >/dev/null 2>&1; then
	kmap=$(perf script -i tests/data/fp.data --show-mmap-events 2>/dev/null |
		python3 -c 'import re, sys
for l in sys.stdin:
    m = re.search(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+)\]: \S+ \[kernel\.kallsyms\]_text", l)
    if m:
        s, n, o = (int(x, 16) for x in m.groups())
        print("0x%x/0x%x/0x%x" % (s, s + n, o))
        break')
fi
check "perf.data: the kernel's mapping is its recorded map ($kmap)" \
	sh -c "go tool pprof -symbolize=none -raw '$tmp/fp.pb.gz' 2>/dev/null |
	       grep -q '^[0-9]*: $kmap \[kernel.kallsyms\] '"
grep '^at ' "$tmp/maps" >"$tmp/at"
check "perf.data: locations have addresses in their mappings ($(wc -l <"$tmp/at"))" \
	test "$(wc -l <"$tmp/at")" -ge 10
check "perf.data: each address is a frame's that perf script prints ($(grep -vxFf "$tmp/ips" "$tmp/at" | head -n 1))" \
	sh -c "! grep -vxFf '$tmp/ips' '$tmp/at' >/dev/null"
check "perf.data: no address outside its mapping ($(grep '^out' "$tmp/maps" | head -n 1))" \
	sh -c "! grep -q '^out' '$tmp/maps'"
# A view's frames keep their mappings and addresses (looked up by name).
"$bin" --pprof "$tmp/fpv.pb.gz" --include path_a --invert --kallsyms \
	tests/data/fp.kallsyms tests/data/fp.data 2>/dev/null
go tool pprof -symbolize=none -raw "$tmp/fpv.pb.gz" 2>/dev/null |
	python3 tests/pprof-out/raw-mappings.py >"$tmp/mapsv"
check "view --include --invert: its frames keep their mappings and addresses" \
	sh -c "grep -q '^at /tmp/flametop-fixture/prog ' '$tmp/mapsv' &&
	       ! grep -vxFf '$tmp/maps' '$tmp/mapsv' >/dev/null"

# ---- pprof input: mappings written back, lines round-trip -----------------
# rawmaps FILE: raw-mappings.py's reading of FILE.
rawmaps() {
	go tool pprof -symbolize=none -raw "$1" 2>/dev/null |
		python3 tests/pprof-out/raw-mappings.py
}
# Read back, fp.data's --pprof (above) keeps its mappings and build-ids.
"$bin" --pprof "$tmp/fp2.pb.gz" "$tmp/fp.pb.gz" 2>/dev/null
rawmaps "$tmp/fp2.pb.gz" >"$tmp/maps2"
check "pprof in: the mappings and build-ids read are written back" \
	sh -c "grep '^map' '$tmp/maps' >'$tmp/m1'; grep '^map' '$tmp/maps2' >'$tmp/m2';
	       test -s '$tmp/m1' && cmp -s '$tmp/m1' '$tmp/m2'"
check "pprof in: so are the addresses" \
	sh -c "! grep -vxFf '$tmp/maps' '$tmp/maps2' >/dev/null"
# lines NAME TYPE FILE: with --lines, go tool pprof -raw of --pprof of
# FILE has FILE's stacks of functions and of lines (function file:line,
# each line a Line record: without --lines' names, the plain function
# names are FILE's too), and FILE's mappings.
lines() {
	go tool pprof -symbolize=none -raw "$3" >"$tmp/rawin" 2>/dev/null
	"$bin" --lines --pprof "$tmp/l.pb.gz" "$3" 2>/dev/null
	go tool pprof -symbolize=none -raw "$tmp/l.pb.gz" >"$tmp/rawout" 2>/dev/null
	for o in --lines ""; do
		python3 tests/pprof/raw2folded.py "$2" $o <"$tmp/rawin" >"$tmp/want"
		python3 tests/pprof/raw2folded.py "$2" $o <"$tmp/rawout" >"$tmp/got"
		check "$1: lines round-trip: the stacks ${o:-of functions} are the input's" \
			same "$tmp/want" "$tmp/got"
	done
	check "$1: lines round-trip: lines are known ($(grep -c ':[1-9][0-9]* s=' "$tmp/rawout"))" \
		grep -q ':[1-9][0-9]* s=' "$tmp/rawout"
	python3 tests/pprof-out/raw-mappings.py <"$tmp/rawin" | grep '^map' >"$tmp/m1"
	python3 tests/pprof-out/raw-mappings.py <"$tmp/rawout" | grep '^map' >"$tmp/m2"
	check "$1: its mappings are written back" same "$tmp/m1" "$tmp/m2"
}
lines "pprof, Go CPU" cpu tests/pprof/go-cpu.pprof
lines "pprof, Go heap" inuse_space tests/pprof/go-heap.pprof
lines "pprof, inlined lines" alloc_space tests/pprof/inline.pprof
lines "pprof, labels" cpu tests/pprof/labels.pprof
# ---- perf.data: lines from DWARF as Line records --------------------------
# With --lines, go tool pprof -raw of --pprof has --collapse --lines's
# stacks (each frame a function and a Line record: without --lines' names,
# the plain functions are --collapse's), and go tool pprof -list shows
# step()'s lines with the weights of the stacks that end there.
(
	cd tests/golden || exit 1
	"$bin" --lines --pprof "$tmp/dl.pb.gz" --symfs ../data/symfs \
		../data/inline.data 2>/dev/null
	"$bin" --lines --collapse --symfs ../data/symfs ../data/inline.data \
		>"$tmp/want-l" 2>/dev/null
	"$bin" --collapse --symfs ../data/symfs ../data/inline.data \
		>"$tmp/want-f" 2>/dev/null
)
go tool pprof -symbolize=none -raw "$tmp/dl.pb.gz" >"$tmp/raw" 2>/dev/null
python3 tests/pprof/raw2folded.py cpu --lines <"$tmp/raw" >"$tmp/got"
check "perf.data --lines: go tool pprof -raw has --collapse --lines's stacks" \
	same "$tmp/want-l" "$tmp/got"
python3 tests/pprof/raw2folded.py cpu <"$tmp/raw" >"$tmp/got"
check "perf.data --lines: its functions are --collapse's" \
	same "$tmp/want-f" "$tmp/got"
check "perf.data --lines: a mapping with file names and lines" \
	grep -q '/tmp/flametop-fixture/inline .*\[FN\]\[FL\]\[LN\]' "$tmp/raw"
go tool pprof -symbolize=none -source_path="$top/tests/data" \
	-trim_path=/tmp/flametop-fixture -list '^step$' "$tmp/dl.pb.gz" \
	2>/dev/null | awk '$3 ~ /^[0-9]+:$/ && $1 != "." {
		sub(/:$/, "", $3); sub(/ms$/, "", $1); print $3, $1 * 1000000 }' \
	>"$tmp/list"
awk '{ s = $0; sub(/ [^ ]+$/, "", s); n = split(s, f, ";")
	if (f[n] ~ /^step inline\.c:/) {
	sub(/^step inline\.c:/, "", f[n]); w[f[n]] += $NF } }
	END { for (l in w) print l, w[l] }' "$tmp/want-l" | sort -n >"$tmp/want"
check "perf.data --lines: go tool pprof -list step has its lines' weights ($(tr '\n' ' ' <"$tmp/want"))" \
	sh -c "test -s '$tmp/want' && sort -n '$tmp/list' | cmp -s - '$tmp/want'"
# ---- .cpuprofile: url:line as Line records ----------------------------------
"$bin" --lines --pprof "$tmp/cp.pb.gz" tests/cpuprofile/work.cpuprofile 2>/dev/null
go tool pprof -symbolize=none -raw "$tmp/cp.pb.gz" >"$tmp/raw" 2>/dev/null
"$bin" --lines --collapse tests/cpuprofile/work.cpuprofile >"$tmp/want" 2>/dev/null
python3 tests/pprof/raw2folded.py wall --lines <"$tmp/raw" >"$tmp/got"
check ".cpuprofile --lines: go tool pprof -raw has --collapse --lines's stacks" \
	same "$tmp/want" "$tmp/got"
"$bin" --collapse tests/cpuprofile/work.cpuprofile >"$tmp/want" 2>/dev/null
python3 tests/pprof/raw2folded.py wall <"$tmp/raw" >"$tmp/got"
check ".cpuprofile --lines: its functions are --collapse's" \
	same "$tmp/want" "$tmp/got"

# ---- perf script: modules as mappings, srclines as Line records -----------
"$bin" --lines --pprof "$tmp/sl.pb.gz" tests/data/inline-srcline.perf-script \
	2>/dev/null
go tool pprof -symbolize=none -raw "$tmp/sl.pb.gz" >"$tmp/raw" 2>/dev/null
"$bin" --lines --collapse tests/data/inline-srcline.perf-script >"$tmp/want" \
	2>/dev/null
python3 tests/pprof/raw2folded.py cpu --lines <"$tmp/raw" >"$tmp/got"
check "perf script --lines: go tool pprof -raw has --collapse --lines's stacks" \
	same "$tmp/want" "$tmp/got"
# (Without --lines, perf script's srclines read as frames, as
# stackcollapse-perf.pl reads them: compare the function names alone.)
python3 tests/pprof/raw2folded.py cpu <"$tmp/raw" >"$tmp/got"
check "perf script --lines: lines are Line records, not in the functions' names" \
	sh -c "test -s '$tmp/got' && ! grep -q 'inline\\.c:' '$tmp/got'"
printf '%s\n' /tmp/flametop-fixture/inline /usr/lib/x86_64-linux-gnu/libc.so.6 \
	>"$tmp/mods"
python3 tests/pprof-out/raw-mappings.py <"$tmp/raw" | sed -n 's/^map \([^ ]*\) .*/\1/p' \
	>"$tmp/got"
check "perf script: a mapping of each module with frames" same "$tmp/mods" "$tmp/got"
summary
