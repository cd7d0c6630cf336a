#!/bin/sh
# run.sh - the folded reader gives the same result with any number of
# threads.
#
# usage: tests/threads/run.sh FLAMETOP
#
# Runs every golden and bad-input case again with FLAMETOP_THREADS=3 and
# tiny batches (FLAMETOP_BATCH_BYTES), so that each block of lines is split
# between threads and built in several batches beside the parsing: the
# expected outputs were made by one thread.  Then generated inputs (bad lines
# of every kind among good ones, fractional and differential counts, counts
# that overflow the total, a stack too deep, CRLF ends, comments, two files
# merged) are read with 1, 2, 3 and 5 threads and with default and tiny
# batches; --collapse, --text, the messages and the exit status must be the
# same every time.
bin=${1:?usage: run.sh FLAMETOP}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
export LC_ALL=C.UTF-8

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# 1. The golden and bad-input suites, threaded.
for dir in tests/golden tests/bad; do
	FLAMETOP_THREADS=3 FLAMETOP_BATCH_BYTES=200 \
		tests/golden/run.sh "$bin" "$dir" >"$tmp/golden" 2>&1
	line=$(tail -n 1 "$tmp/golden")
	case $line in
	*" passed, 0 failed") ok ;;
	*) bad "$dir with 3 threads: $line"; grep -A 30 FAIL "$tmp/golden" ;;
	esac
done

# 2. Generated inputs (awk's own generator: the same bytes everywhere).
awk 'BEGIN {
	s = 12345
	for (i = 1; i <= 60000; i++) {
		s = (s * 1103515245 + 12345) % 2147483648
		d = 1 + s % 9
		line = "proc-" (s % 7)
		for (j = 1; j < d; j++) {
			s = (s * 1103515245 + 12345) % 2147483648
			line = line ";fn" (s % 40) (j % 3 ? "" : "_[k]")
		}
		k = i % 211
		if (k == 3) print line " x1"
		else if (k == 5) print line
		else if (k == 7) print "# a comment " i
		else if (k == 11) print ""
		else if (k == 13) print line " -4"
		else if (k == 17) print line " 1.0000000001"
		else if (k == 19) printf "%s 2.5\r\n", line
		else if (k == 23) print line ";; 3"
		else if (k == 29) print line "; 1"
		else if (k == 31) print "   "
		else if (k == 37) print " 7"
		else if (k == 41) print line " 99999999999999999999"
		else if (k == 43) print line " 0.125"
		else print line " " (1 + s % 1000)
	}
}' >"$tmp/mixed.folded"
# A NUL byte in one line.
printf 'main;nul\000byte 1\n' >>"$tmp/mixed.folded"
awk 'BEGIN {
	s = 777
	for (i = 1; i <= 30000; i++) {
		s = (s * 1103515245 + 12345) % 2147483648
		line = "a" (s % 5) ";b" (s % 13) ";c" (s % 101)
		if (i % 97 == 0) print line " 5"
		else if (i % 89 == 0) print line " 1.5 x"
		else print line " " (s % 50) " " (s % 70) "." (s % 10)
	}
}' >"$tmp/diff.folded"
# Counts that overflow the total part way through; a stack too deep.
awk 'BEGIN {
	for (i = 1; i <= 3000; i++)
		print "o" (i % 3) ";p" (i % 17) " 4611686018427387904"
	printf "deep"
	for (i = 0; i < 70000; i++) printf ";f%d", i % 50
	print " 1"
	print "after;deep 1"
}' >"$tmp/overflow.folded"
# Runs of one stack repeated (read as one record per run): broken by a
# comment, a bad line, another count or another number of decimals; a run
# that overflows the total part way (lines 4 and 5 of its file), and line
# 7 alone.
awk 'BEGIN {
	for (i = 0; i < 5000; i++) print "main;a;b 1"
	print "# a comment"
	for (i = 0; i < 100; i++) print "main;a;b 1"
	print "main;a;b x"
	for (i = 0; i < 100; i++) print "main;a;b 2"
	for (i = 0; i < 50; i++) print "main;a;b 0.5"
	for (i = 0; i < 1000; i++) print "x;y 3"
	for (i = 0; i < 7; i++) print "main;a 1"
	print "x;y 3"
}' >"$tmp/runs.folded"
awk 'BEGIN {
	for (i = 0; i < 5; i++) print "r;s 4611686018427387904"
	print "r;s 1"
	print "t 4611686018427387903"
	print "r;s 1"
}' >"$tmp/runs-overflow.folded"

# same LABEL ARGS...: every thread count and batch size gives the output of
# one thread with default batches.
same() {
	label=$1
	shift
	FLAMETOP_THREADS=1 "$bin" "$@" >"$tmp/ref.out" 2>"$tmp/ref.err"
	echo $? >"$tmp/ref.status"
	if [ ! -s "$tmp/ref.out" ] && [ ! -s "$tmp/ref.err" ]; then
		bad "$label: no output at all"
		return
	fi
	for t in 1 2 3 5; do
		for b in "" 3000; do
			FLAMETOP_THREADS=$t FLAMETOP_BATCH_BYTES=$b "$bin" "$@" \
				>"$tmp/out" 2>"$tmp/err"
			echo $? >"$tmp/status"
			if cmp -s "$tmp/out" "$tmp/ref.out" &&
			   cmp -s "$tmp/err" "$tmp/ref.err" &&
			   cmp -s "$tmp/status" "$tmp/ref.status"; then
				ok
			else
				bad "$label: $t threads, batch '${b:-default}' differs from 1 thread"
			fi
		done
	done
}

same "mixed --collapse" --collapse "$tmp/mixed.folded"
same "mixed --text" --text --width 160 "$tmp/mixed.folded"
same "differential --collapse" --collapse "$tmp/diff.folded"
same "differential --text" --text --width 160 "$tmp/diff.folded"
same "overflow and too deep" --collapse "$tmp/overflow.folded"
same "two files merged" --collapse "$tmp/mixed.folded" tests/golden/unsorted.folded
same "perf script, then folded" --collapse tests/golden/mixed.perf "$tmp/mixed.folded"
same "repeated stacks" --collapse "$tmp/runs.folded"
same "repeated stacks that overflow" --collapse "$tmp/runs-overflow.folded"

# The inputs do hold what they are meant to test.
FLAMETOP_THREADS=1 "$bin" --collapse "$tmp/mixed.folded" >/dev/null 2>"$tmp/err"
grep -q 'skipped [0-9]* bad lines\|bad line' "$tmp/err" && ok || bad "mixed: no bad-line summary: $(head -c 300 "$tmp/err")"
grep -q 'mixed.folded:3: ' "$tmp/err" && ok || bad "mixed: line 3 not reported first: $(head -n 3 "$tmp/err")"
FLAMETOP_THREADS=1 "$bin" --collapse "$tmp/overflow.folded" >"$tmp/out" 2>"$tmp/err"
grep -q "overflow the profile's total" "$tmp/err" && ok || bad "overflow: no message"
grep -q 'after;deep 1' "$tmp/out" && ok || bad "overflow: the last line is lost"
FLAMETOP_THREADS=1 "$bin" --collapse "$tmp/diff.folded" >"$tmp/out" 2>/dev/null
grep -q '^a[0-9];b[0-9]*;c[0-9]* [0-9.]* [0-9.]*$' "$tmp/out" && ok || bad "differential: not two counts"

# Runs add up as the lines do, and each line that overflows is reported.
FLAMETOP_THREADS=1 "$bin" --collapse "$tmp/runs.folded" >"$tmp/out" 2>"$tmp/err"
printf 'main;a 7\nmain;a;b 5325\nx;y 3003\n' >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" && ok || bad "runs: $(cat "$tmp/out")"
grep -q 'runs.folded:5102: no sample count' "$tmp/err" && ok ||
	bad "runs: the bad line: $(cat "$tmp/err")"
FLAMETOP_THREADS=1 "$bin" --collapse "$tmp/runs-overflow.folded" >"$tmp/out" 2>"$tmp/err"
printf 'r;s 13835058055282163714\n' >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" && ok || bad "runs overflow: $(cat "$tmp/out")"
[ "$(grep -c "overflow the profile's total" "$tmp/err")" = 3 ] &&
	grep -q 'runs-overflow.folded:4: ' "$tmp/err" &&
	grep -q 'runs-overflow.folded:5: ' "$tmp/err" &&
	grep -q 'runs-overflow.folded:7: ' "$tmp/err" && ok ||
	bad "runs overflow: messages: $(cat "$tmp/err")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
