#!/bin/sh
# test-perf-record.sh - perf.data files recorded here and now by perf
# record, read by flametop: a program with known call paths (one burning
# about 2/3 of the time, one about 1/3), built with frame pointers, in
# file mode, pipe mode (perf record -o - | flametop), zstd mode (-z) and
# system-wide (-a); the shares must come out right, the stacks must match
# what flametop's perf script reader makes of `perf script` on the same
# file, and a truncated copy must still load with a message.
#
# usage: tests/live/test-perf-record.sh FLAMETOP_BINARY
BIN=${1:?usage: $0 FLAMETOP_BINARY}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-precord.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
export LC_ALL=C

check() {   # check DESCRIPTION COMMAND...
	desc=$1
	shift
	if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $desc"; fi
}

if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed"
	exit 0
fi
if ! command -v cc >/dev/null 2>&1; then
	echo "SKIP: no C compiler to build the test program"
	exit 0
fi
if ! perf record -q -g -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
	echo "SKIP: perf record is not permitted here: $(head -n 1 "$work/probe.err")"
	exit 0
fi

# The program of tests/data: two call paths with known shares.
cp "$(dirname "$0")/../data/prog.c" "$work/prog.c"
if ! cc -O1 -g -fno-omit-frame-pointer -o "$work/prog" "$work/prog.c"; then
	echo "SKIP: cannot build the test program"
	exit 0
fi

A='main;work;path_a;burn'
B='main;work;path_b;burn'

# share FILE PATTERN [ROOT]: percent of ROOT's weight in lines matching.
share() {
	awk -v pat="$2" -v root="${3:-}" '
		root != "" && index($0, root ";") != 1 { next }
		{ w = $NF; t += w; if (index($0, pat " ") || index($0, pat ";")) m += w }
		END { if (t == 0) print -1; else printf "%.1f\n", 100 * m / t }' "$1"
}
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}
shares_ok() {   # shares_ok LABEL FILE [ROOT]
	a=$(share "$2" "$A" "${3:-}")
	b=$(share "$2" "$B" "${3:-}")
	check "$1: path_a share $a% is about 2/3" within "$a" 58 75
	check "$1: path_b share $b% is about 1/3" within "$b" 25 42
}

# ---- file mode -------------------------------------------------------------
(cd "$work" && perf record -q -g -F 999 -o fp.data ./prog 2 >/dev/null 2>&1)
"$BIN" --collapse "$work/fp.data" >"$work/fp.folded" 2>"$work/fp.err"
rc=$?
check "file mode: status 0 ($(head -n 1 "$work/fp.err"))" [ "$rc" -eq 0 ]
check "file mode: the root frame is the process name" \
	grep -q "^prog;__libc_start_call_main;$A [0-9]*$" "$work/fp.folded"
shares_ok "file mode" "$work/fp.folded"
check "file mode: sorted output" sort -c "$work/fp.folded"
# cpu-clock at 999 Hz: each sample weighs its period, 1001001 ns.
check "file mode: weights are whole periods" awk \
	'{ if ($NF % 1001001 != 0) bad = 1 } END { exit bad }' "$work/fp.folded"
n=$(perf report -i "$work/fp.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
t=$(awk '{ t += $NF } END { print t / 1001001 }' "$work/fp.folded")
check "file mode: every sample counted ($t of $n)" [ "$t" = "$n" ]

# The same stacks as perf script, folded by flametop's perf script reader.
perf script -i "$work/fp.data" 2>/dev/null >"$work/fp.txt"
"$BIN" --collapse "$work/fp.txt" >"$work/fp-script.folded" 2>/dev/null
grep "$A \|$B " "$work/fp.folded" >"$work/mine"
grep "$A \|$B " "$work/fp-script.folded" >"$work/theirs"
check "file mode: program stacks equal perf script's" cmp -s "$work/mine" "$work/theirs"

# --pid / --tid roots.
"$BIN" --collapse --tid "$work/fp.data" >"$work/tid.folded" 2>/dev/null
check "--tid: comm-PID/TID roots" grep -q "^prog-[0-9]*/[0-9]*;.*$A " "$work/tid.folded"
"$BIN" --collapse --pid --kernel "$work/fp.data" >"$work/pid.folded" 2>/dev/null
check "--pid: comm-PID roots" grep -q "^prog-[0-9]*;.*$A " "$work/pid.folded"

# --text draws it.
"$BIN" --text --width 120 "$work/fp.data" >"$work/fp.text" 2>/dev/null
check "--text: shows path_a" grep -q "path_a" "$work/fp.text"

# ---- pipe mode, from standard input ------------------------------------------
(cd "$work" && perf record -q -g -F 999 -o - ./prog 2 2>/dev/null) |
	"$BIN" --collapse >"$work/pipe.folded" 2>"$work/pipe.err"
check "pipe mode: read from stdin ($(head -n 1 "$work/pipe.err"))" \
	grep -q "^prog;.*$A " "$work/pipe.folded"
shares_ok "pipe mode" "$work/pipe.folded"

# ---- zstd ----------------------------------------------------------------------
if (cd "$work" && perf record -q -z -g -F 999 -o z.data ./prog 2 >/dev/null 2>&1); then
	"$BIN" --collapse "$work/z.data" >"$work/z.folded" 2>"$work/z.err"
	check "zstd: status 0" [ -s "$work/z.folded" ]
	shares_ok "zstd" "$work/z.folded"
	n=$(perf report -i "$work/z.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	t=$(awk '{ t += $NF } END { print t / 1001001 }' "$work/z.folded")
	check "zstd: every sample counted ($t of $n)" [ "$t" = "$n" ]
fi

# ---- system-wide, with other processes around -----------------------------
# A copy of the program under another name runs beside it, so that a second
# root is there even on a machine that is otherwise idle.
cp "$work/prog" "$work/other"
"$work/prog" 3 &
p=$!
"$work/other" 3 &
q=$!
perf record -q -a -g -F 499 -o "$work/all.data" -- sleep 2 >/dev/null 2>&1
wait "$p" "$q"
"$BIN" --collapse "$work/all.data" >"$work/all.folded" 2>"$work/all.err"
check "-a: status 0" [ -s "$work/all.folded" ]
shares_ok "-a" "$work/all.folded" prog
roots=$(cut -d';' -f1 "$work/all.folded" | sed 's/ [0-9]*$//' | sort -u | wc -l)
check "-a: other processes are there too ($roots roots)" [ "$roots" -ge 2 ]
check "-a: the copy under another name is there" grep -q "^other;" "$work/all.folded"

# ---- separate debug files ---------------------------------------------------
# A stripped program (no build-id, so only its .gnu_debuglink can lead to
# its symbols) whose debug file is moved through the places looked in:
# symbols where it is, none where it is not.
mkdir -p "$work/dl"
if cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id=none \
	-o "$work/dl/prog" "$work/prog.c" &&
   objcopy --only-keep-debug "$work/dl/prog" "$work/prog.debug" &&
   objcopy --strip-all --add-gnu-debuglink="$work/prog.debug" "$work/dl/prog" &&
   (cd "$work/dl" && perf record -q -g -F 999 -o ../dl.data ./prog 1 >/dev/null 2>&1); then
	places="$work/dl/prog.debug $work/dl/.debug/prog.debug"
	if [ -w /usr/lib/debug ] || mkdir -p /usr/lib/debug 2>/dev/null; then
		places="$places /usr/lib/debug$work/dl/prog.debug"
	fi
	for place in $places; do
		mkdir -p "$(dirname "$place")"
		cp "$work/prog.debug" "$place"
		"$BIN" --collapse "$work/dl.data" >"$work/dl.folded" 2>/dev/null
		rm -f "$place"
		check "debug file by .gnu_debuglink in $place" \
			grep -q "^prog;.*$A " "$work/dl.folded"
	done
	rm -rf "/usr/lib/debug$work"
	"$BIN" --collapse "$work/dl.data" >"$work/dl.folded" 2>"$work/dl.err"
	# Say what was read when it fails (seen once on a loaded machine).
	check "no debug file: the program's frames unresolved ($(wc -l <"$work/dl.folded") stacks, $(grep -c '^prog;' "$work/dl.folded") of prog, $(grep -c path_a "$work/dl.folded") with path_a; $(head -n 1 "$work/dl.err"))" \
		sh -c "grep -q '^prog;' '$work/dl.folded' && ! grep -q 'path_a' '$work/dl.folded'"
else
	echo "note: cannot build a stripped program with a debug link; not tested"
fi

# ---- a truncated copy still loads ----------------------------------------------
# Cut inside the last records of the data section (perf record killed
# while writing).  Not at a share of the file: perf writes each CPU's
# records of a round one buffer after the other, so an early cut can take
# the program's exec and maps away from samples kept before them (seen
# on a loaded machine: 1 stack of 7 kept, none resolved).
end=$(od -An -t u8 -j 40 -N 16 "$work/fp.data" | awk '{ print $1 + $2 }')
head -c $((end - 37)) "$work/fp.data" >"$work/cut.data"
"$BIN" --collapse "$work/cut.data" >"$work/cut.folded" 2>"$work/cut.err"
rc=$?
check "truncated: status 0 with what was read" [ "$rc" -eq 0 ]
check "truncated: says so" grep -q "not closed properly\|truncated" "$work/cut.err"
# Say what was read when it fails (seen once in a while on a loaded machine).
check "truncated: stacks kept ($(wc -l <"$work/cut.folded") stacks of $(wc -l <"$work/fp.folded"); $(tail -n 1 "$work/cut.err"))" \
	grep -q "$A " "$work/cut.folded"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
