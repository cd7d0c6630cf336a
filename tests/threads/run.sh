#!/bin/sh
# run.sh - the folded, perf script and perf.data readers give the same
# result with any number of threads.
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

# perf script text: samples of several commands and two events, kernel,
# user, inlined and unknown frames, periods; among them bad lines of every
# kind, comments, CRLF ends, extra indented lines, a period too large,
# periods that overflow the total, a stack too deep, and a last sample
# without its blank line.  Several blocks of input, so that samples and
# messages cross the cuts between readers.  $tmp/ps.bad: the line number of
# the first bad line.
awk -v bad="$tmp/ps.bad" 'BEGIN {
	s = 4242
	split("gzip python3 java V8_WorkerThread swapper", comm, " ")
	for (i = 1; i <= 40000; i++) {
		s = (s * 1103515245 + 12345) % 2147483648
		c = comm[1 + s % 5]
		if (c == "V8_WorkerThread") c = "V8 WorkerThread"
		ev = (i % 37 == 0) ? "page-faults" : "cpu-clock"
		k = i % 401
		per = (k == 17) ? "99999999999999999999" : 1000 + s % 9000
		print c " " (100 + s % 50) "/" (200 + s % 7) " [00" (s % 4) "] " \
		      (1000 + i) "." sprintf("%06d", s % 1000000) ": " per " " ev ":"
		ln++
		d = 1 + s % 12
		for (j = 0; j < d; j++) {
			s = (s * 1103515245 + 12345) % 2147483648
			m = s % 6
			if (m == 0) print "\tffffffff8" sprintf("%07x", s % 99999) " k_fn" (s % 30) "+0x" sprintf("%x", s % 200) " ([kernel.kallsyms])"
			else if (m == 1) print "\t" sprintf("%12x", s % 77777) " u_fn" (s % 40) "+0x1f (/usr/lib/libx.so)"
			else if (m == 2) print "\t" sprintf("%12x", s % 77777) " in_a" (s % 5) "->in_b" (s % 3) " (/usr/bin/prog)"
			else if (m == 3) print "\t" sprintf("%12x", s % 77777) " [unknown] (/tmp/perf-" (s % 3) ".map)"
			else if (m == 4) print "\t" sprintf("%12x", s % 77777) " Lorg/x/Y;.m" (s % 9) "(I)V (/tmp/perf-9.map)"
			else print "\t" sprintf("%12x", s % 77777) " fn(int);x" (s % 11) " (/usr/bin/prog)"
			ln++
		}
		if (k == 3) { print "  src/file.c:12"; ln++ }
		if (k == 5) { print "# a comment"; ln++ }
		if (k == 7) { print "garbage that is no line"; ln++; if (!first) { first = 1; print ln >bad } }
		if (k == 13) { printf "\r\n"; ln++; continue }
		print ""
		ln++
		if (k == 19) { print "\t    1234 stray_frame+0x1 (/usr/bin/prog)"; print ""; ln += 2 }
	}
	print "gzip 1/1 [000] 99999.000001: 1 cpu-clock:"
	print "\t1 cut_off (/x)"
}' >"$tmp/ps.txt"
gzip -c "$tmp/ps.txt" >"$tmp/ps.txt.gz"
# Its end, alone (the bad-line summary lists the first few only).
awk 'BEGIN {
	for (i = 0; i < 3000; i++) {
		print "gzip 1/1 [000] 99999.000001: 1 cpu-clock:"
		print "\t1 a (/x)"
		print ""
	}
	print "gzip 1/1 [000] 99999.000001: 9223372036854775807 cpu-clock:"
	print "\t1 a (/x)"
	print ""
	print ""
	print "gzip 1/1 [000] 99999.000002: 9223372036854775807 cpu-clock:"
	print "\t1 b (/x)"
	print ""
	print "gzip 1/1 [000] 99999.000003: 1 cpu-clock:"
	for (i = 0; i < 70000; i++) print "\t" i " f" (i % 50) " (/x)"
	print ""
	print "gzip 1/1 [000] 99999.000004: 1 cpu-clock:"
	print "\t1 after_deep (/x)"
	print ""
	print "gzip 1/1 [000] 99999.000005: 1 cpu-clock:"
	print "\t1 cut_off (/x)"
}' >"$tmp/ps-end.txt"
printf '\tdeadbeef nul\000byte (/x)\n' >>"$tmp/ps-end.txt"

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

same "perf script --collapse" --collapse "$tmp/ps.txt"
same "perf script --collapse --all --tid" --collapse --all --tid "$tmp/ps.txt"
same "perf script --collapse --addrs" --collapse --addrs "$tmp/ps.txt"
same "perf script --text" --text --width 160 "$tmp/ps.txt"
same "perf script --time" --collapse --time 30%-60% "$tmp/ps.txt"
same "perf script, gzip" --collapse "$tmp/ps.txt.gz"
same "perf script --event-filter" --collapse --event-filter=page-faults "$tmp/ps.txt"
same "perf script: overflow, too deep" --collapse "$tmp/ps-end.txt"

# perf.data: read in order on a second thread (or, in two passes, the
# chain hashes worked out ahead on one); the stack cache, per thread.
for f in tests/data/*.data; do
	same "perf.data $f" --collapse --tid "$f"
	same "perf.data $f --time --pid" --collapse --pid --time 20%-70% "$f"
done

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

# New names in every batch, sorting before, among and after the names of
# the batches before (each batch places its new names among the known
# ones): the stacks come back as an independent sum of the lines gives
# them, in name order, with any thread count and batch size.
awk 'BEGIN {
	s = 99
	for (i = 1; i <= 20000; i++) {
		s = (s * 1103515245 + 12345) % 2147483648
		n = 1 + int(i / 4)
		line = "m" (s % 3) ";g" (s % n) ";h" (s % 7)
		s = (s * 1103515245 + 12345) % 2147483648
		if (s % 3 == 0) line = line ";g" (s % n)
		print line " " (1 + s % 5)
	}
}' >"$tmp/names.folded"
awk '{ w[$1] += $2 } END { for (k in w) print k " " w[k] }' "$tmp/names.folded" |
	LC_ALL=C sort >"$tmp/names.want"
for t in 1 3; do
	for b in "" 400; do
		FLAMETOP_THREADS=$t FLAMETOP_BATCH_BYTES=$b "$bin" --collapse \
			"$tmp/names.folded" >"$tmp/out" 2>"$tmp/err"
		cmp -s "$tmp/out" "$tmp/names.want" && ok ||
			bad "names over batches, $t threads, batch '${b:-default}': $(diff "$tmp/names.want" "$tmp/out" | head -n 4)"
	done
done

# perf script: the bad lines are reported at their line numbers, the
# samples around them kept.
FLAMETOP_THREADS=3 "$bin" --collapse "$tmp/ps.txt" >"$tmp/out" 2>"$tmp/err"
grep -q "ps.txt:$(cat "$tmp/ps.bad"): " "$tmp/err" && ok ||
	bad "perf script: line $(cat "$tmp/ps.bad") not reported: $(head -c 400 "$tmp/err")"
for want in "period is too large" "no event line before it" \
	"no blank line after it" "are not frames" "other events left out"; do
	grep -q "$want" "$tmp/err" && ok || bad "perf script: no '$want' message"
done
grep -q 'cut_off' "$tmp/out" && bad "perf script: the cut-off sample is kept" || ok
FLAMETOP_THREADS=3 "$bin" --collapse "$tmp/ps-end.txt" >"$tmp/out" 2>"$tmp/err"
for want in "ps-end.txt:9005: sample weight would overflow" \
	"ps-end.txt:9008: stack is deeper than" \
	"ps-end.txt:$(wc -l <"$tmp/ps-end.txt"): NUL byte in line: its sample is left out"; do
	grep -q "$want" "$tmp/err" && ok || bad "perf script: no '$want' message"
done
grep -q '^gzip;after_deep 1$' "$tmp/out" && ok || bad "perf script: the sample after the deep one is lost"
grep -q 'cut_off' "$tmp/out" && bad "perf script: the cut-off sample is kept" || ok

# pprof_same NAME: $tmp/NAME.folded written by --pprof and read back with
# FLAMETOP_THREADS unset and 1, 2, 3 and 5: the stacks written, and the
# same --text and the same --pprof bytes (node order) every time.
pprof_same() {
	f=$tmp/$1
	"$bin" --pprof "$f.pb.gz" "$f.folded" 2>"$tmp/err" ||
		bad "pprof $1: cannot write: $(cat "$tmp/err")"
	gzip -dc "$f.pb.gz" >"$f.pb"
	"$bin" --collapse "$f.folded" >"$f.want" 2>&1
	"$bin" --text --width 120 "$f.pb" >"$f.text" 2>&1
	"$bin" --pprof "$f.out.gz" "$f.pb" 2>&1
	gzip -dc "$f.out.gz" >"$f.out"
	for n in 1 2 3 5; do
		FLAMETOP_THREADS=$n "$bin" --collapse "$f.pb" >"$tmp/out" 2>&1
		cmp -s "$tmp/out" "$f.want" && ok ||
			bad "pprof $1 with $n threads: not the stacks written"
		FLAMETOP_THREADS=$n "$bin" --text --width 120 "$f.pb" >"$tmp/out" 2>&1
		cmp -s "$tmp/out" "$f.text" && ok ||
			bad "pprof $1 --text with $n threads differs from the default"
		FLAMETOP_THREADS=$n "$bin" --pprof "$tmp/out.gz" "$f.pb" 2>&1
		gzip -dc "$tmp/out.gz" | cmp -s - "$f.out" && ok ||
			bad "pprof $1 --pprof with $n threads differs from the default"
	done
}

# pprof: samples are decoded on every thread in rounds (8,192 a thread),
# the deep stacks' rows written on every thread: 40,000 stacks written by
# --pprof are several rounds; the stacks, messages and status must not
# depend on the number of threads.
awk 'BEGIN {
	s = 4242
	for (i = 1; i <= 40000; i++) {
		line = "main"
		for (j = 0; j < 12; j++) {
			s = (s * 1103515245 + 12345) % 2147483648
			line = line ";f" (s % (j < 3 ? 3 : 400))
		}
		print line " " (1 + s % 9)
	}
}' >"$tmp/pp.folded"
pprof_same pp

# pprof's tree: from 4,096 stacks on, parts of 64 stacks up to a 64th of
# them are built on every thread and grafted in order.  40,000 stacks whose
# third frame splits them into 300 parts of about 133: tasks.  The stacks,
# the text and the bytes of --pprof (in node order) must be the same with
# FLAMETOP_THREADS unset and set to any number.
awk 'BEGIN {
	s = 777
	for (i = 1; i <= 40000; i++) {
		s = (s * 1103515245 + 12345) % 2147483648
		line = "main;g" (s % 3) ";h" (int(s / 3) % 10) ";i" (int(s / 30) % 10)
		for (j = 0; j < 8; j++) {
			s = (s * 1103515245 + 12345) % 2147483648
			line = line ";f" (s % 400)
		}
		print line " " (1 + s % 9)
	}
}' >"$tmp/tasks.folded"
pprof_same tasks

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
