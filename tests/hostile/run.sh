#!/bin/sh
# Hostile and oversized inputs, generated at test time (too big to keep in
# the repository): each must load what it can, say what it skipped, keep
# memory bounded, and never send a control character to the terminal.
#
# usage: tests/hostile/run.sh FLAMETOP
bin=${1:?usage: run.sh FLAMETOP}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sanitizer build is slower: smaller sizes there, same checks.
case $bin in */san/*) big=100000000 ;; *) big=1000000000 ;; esac

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
# check NAME COMMAND...: the command must succeed.
check() { name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }

# Peak resident memory (KB) and exit status of BIN ARGS < INPUT.
run_measured() {
	/usr/bin/time -f '%M' -o "$tmp/rss" "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/status"
}

# 1. A 10 MB frame name: loaded, and cut to fit in --text.
awk 'BEGIN { s = "x"; while (length(s) < 10000000) s = s s; print "main;" substr(s, 1, 10000000) " 3"; print "main;small 1" }' >"$tmp/long.folded"
run_measured --text -w 60 "$tmp/long.folded"
check "10 MB name loads" [ "$(cat "$tmp/status")" = 0 ]
check "10 MB name is cut to fit" grep -q '\[xxxxxxxx*\.\.\]$' "$tmp/out"
check "10 MB name: total" grep -q '4 samples, 2 distinct stacks' "$tmp/out"

# 2. A stack 100,000 frames deep is refused with a message; the rest loads.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "f%d;", i; print "leaf 1"; print "ok 2" }' >"$tmp/deep.folded"
run_measured --collapse "$tmp/deep.folded"
check "deep stack: exit 0" [ "$(cat "$tmp/status")" = 0 ]
check "deep stack: message" grep -q 'deep.folded:1: stack is deeper than 65534 frames' "$tmp/err"
check "deep stack: rest loads" [ "$(cat "$tmp/out")" = "ok 2" ]

# 3. A million distinct names.
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "main;fn_%07d 1\n", i }' >"$tmp/names.folded"
run_measured --text -w 80 "$tmp/names.folded"
check "a million names" grep -q '1.00M samples, 1000000 distinct stacks, depth 2' "$tmp/out"

# 3b. A perf script frame line past the line limit (64 MiB; 200 MiB here,
# past any buffer the reading grows to) is not read: its sample, a frame
# short, would be a stack that never ran.  It is left out and said so.
{
	for i in 1 2 3; do
		printf 'app 10/11 [000] 5.%d:     100 cpu-clock: \n' "$i"
		printf '\t  401000 leaf+0x10 (/usr/bin/app)\n'
		printf '\t  401100 main+0x10 (/usr/bin/app)\n\n'
	done
	printf 'app 10/11 [000] 6.0:     100 cpu-clock: \n'
	printf '\t  401000 leaf+0x10 (/usr/bin/app)\n\t  401050 '
	head -c 209715200 /dev/zero | tr '\0' y
	printf '+0x10 (/usr/bin/app)\n\t  401100 main+0x10 (/usr/bin/app)\n\n'
	printf 'app 10/11 [000] 7.0:     100 cpu-clock: \n'
	printf '\t  401000 leaf+0x10 (/usr/bin/app)\n'
	printf '\t  401100 main+0x10 (/usr/bin/app)\n\n'
} >"$tmp/long.perf-script"
for t in 1 2; do
	FLAMETOP_THREADS=$t "$bin" --collapse "$tmp/long.perf-script" >"$tmp/out" 2>"$tmp/err"
	check "long frame line, $t threads: its sample left out" [ "$(cat "$tmp/out")" = "app;main;leaf 400" ]
	check "long frame line, $t threads: says so" \
		grep -q 'long.perf-script:15: line is too long (209715230 bytes): its sample is left out' "$tmp/err"
done
rm -f "$tmp/long.perf-script"

# 4. Counts near UINT64_MAX: the overflowing line is skipped and named.
printf 'a 18446744073709551610\nb 5\nc 6\nd 18446744073709551616\n' >"$tmp/max.folded"
run_measured --collapse "$tmp/max.folded"
check "near UINT64_MAX: sum kept" [ "$(cat "$tmp/out")" = "$(printf 'a 18446744073709551610\nb 5')" ]
check "near UINT64_MAX: overflow named" grep -q 'max.folded:3: sample count would overflow' "$tmp/err"
check "near UINT64_MAX: too large named" grep -q 'max.folded:4: sample count is too large' "$tmp/err"

# 5. Control characters and invalid UTF-8 never reach the terminal raw.
printf 'main;esc\033[2Jclear 2\nmain;bel\007;cr\rback\010space 1\nmain;bad\377\376utf 1\nmain;osc\033]52;c;aGk=\007x 1\n' >"$tmp/ctl.folded"
for mode in --text --collapse; do
	"$bin" $mode -w 200 "$tmp/ctl.folded" >"$tmp/out" 2>&1
	if [ "$mode" = --text ]; then
		# Only printable text and newlines in what --text prints.
		check "control chars escaped ($mode)" [ "$(tr -d '\n' <"$tmp/out" | LC_ALL=C tr -d '\040-\176' | wc -c)" = 0 ]
		check "ESC shown as \\x1b" grep -q 'esc\\x1b\[2Jclear' "$tmp/out"
	else
		# --collapse writes the profile's bytes back as they were.
		check "collapse keeps bytes" grep -q "$(printf 'esc\033')" "$tmp/out"
	fi
done

# 6. A long input of one repeated stack: memory stays small.
yes 'main;work;loop 1' | head -n "$((big / 17))" >"$tmp/repeat.folded"
run_measured --collapse "$tmp/repeat.folded"
rss=$(cat "$tmp/rss")
check "repeated stack: right total" [ "$(cat "$tmp/out")" = "main;work;loop $((big / 17))" ]
check "repeated stack: peak RSS ${rss} KB < 64 MB" [ "$rss" -lt 65536 ]
rm -f "$tmp/repeat.folded"

# 7. /dev/zero is refused at once; an endless pipe stops at --max-input.
if timeout 10 "$bin" --collapse /dev/zero >"$tmp/out" 2>"$tmp/err"; then
	bad "/dev/zero accepted"
else
	check "/dev/zero: message" grep -q 'not a profile' "$tmp/err"
fi
yes 'a;b 1' | timeout 20 "$bin" --collapse --max-input 10M - >"$tmp/out" 2>"$tmp/err"
check "--max-input stops an endless pipe" grep -q 'larger than --max-input (10485760 bytes)' "$tmp/err"
check "--max-input keeps what it read" grep -q '^a;b [0-9]' "$tmp/out"
# A line the limit cuts is not read: "a;c 12345" cut after "a;c 1234"
# would be a count of 1234, a number the input never had.  With 1 and 2
# threads (a file of 1 MB is read in parallel pieces).
printf 'a;b 12345\na;c 12345\n' >"$tmp/cut.folded"
"$bin" --collapse --max-input 18 "$tmp/cut.folded" >"$tmp/out" 2>"$tmp/err"
check "--max-input: the cut line is not read" [ "$(cat "$tmp/out")" = "a;b 12345" ]
check "--max-input: the cut line is no bad line" \
	[ "$(cat "$tmp/err")" = "flametop: $tmp/cut.folded: input is larger than --max-input (18 bytes); stopped there" ]
# A limit below the first line's end: what is wrong names --max-input.
"$bin" --collapse --max-input 4 "$tmp/cut.folded" >"$tmp/out" 2>"$tmp/err"
check "--max-input before a whole line: says so" grep -q 'larger than --max-input (4 bytes)' "$tmp/err"
check "--max-input before a whole line: the input is not called unreadable" \
	grep -q 'its format is not known from the 4 bytes read (--format names it)$' "$tmp/err"
awk 'BEGIN { for (i = 0; i < 200000; i++) print "a;b 12345" }' >"$tmp/cut.folded"
for t in 1 2; do
	FLAMETOP_THREADS=$t "$bin" --collapse --max-input 1000004 "$tmp/cut.folded" \
		>"$tmp/out" 2>"$tmp/err"
	check "--max-input, $t threads: whole lines only" [ "$(cat "$tmp/out")" = "a;b $((100000 * 12345))" ]
	check "--max-input, $t threads: no bad line" [ "$(grep -c 'bad line' "$tmp/err")" = 0 ]
done

# perf script cut inside a sample's stack: the limit is said first and the
# partial sample is left out without a guess at why the input ended.  The
# file is over 1 MB so that 2 threads read it in pieces.
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "app 1 [000] 1.%06d: 7 cpu-clock:\n\t1 leaf (/a)\n\t2 main (/a)\n\n", i }' >"$tmp/cut.script"
limit=$(( $(grep -b -m 10000 main "$tmp/cut.script" | tail -n 1 | cut -d: -f1) + 4 ))
whole=$(head -c "$limit" "$tmp/cut.script" | grep -c '^$')
for t in 1 2; do
	FLAMETOP_THREADS=$t "$bin" --collapse --max-input "$limit" "$tmp/cut.script" \
		>"$tmp/out" 2>"$tmp/err"
	check "perf script --max-input, $t threads: whole samples only" \
		[ "$(cat "$tmp/out")" = "app;main;leaf $((whole * 7))" ]
	check "perf script --max-input, $t threads: the limit, then the sample" \
		[ "$(cat "$tmp/err")" = "flametop: $tmp/cut.script: input is larger than --max-input ($limit bytes); stopped there
flametop: $tmp/cut.script: the last sample has no blank line after it: left out" ]
done

# 8. Truncated and corrupt zstd.
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "main;f%d;g%d 1\n", (i * 7919) % 100003, i }' | zstd -q -c >"$tmp/t.zst"
head -c 3000 "$tmp/t.zst" >"$tmp/cut.zst"
"$bin" --collapse "$tmp/cut.zst" >"$tmp/out" 2>"$tmp/err"
check "truncated zstd: message" grep -q 'cut.zst: zstd stream is truncated' "$tmp/err"
printf '\050\265\057\375garbage-garbage-garbage' >"$tmp/corrupt.zst"
"$bin" --collapse "$tmp/corrupt.zst" >"$tmp/out" 2>"$tmp/err"
check "corrupt zstd: message" grep -q 'corrupt.zst: corrupt zstd data' "$tmp/err"
# A gzip stream that ends inside a line: the lines before it are read, the
# cut one is not (nor reported as a bad line: the message says why).
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "main;f%d;g%d 12345\n", (i * 7919) % 100003, i }' | gzip -c >"$tmp/t.gz"
head -c 30000 "$tmp/t.gz" >"$tmp/cut.gz"
"$bin" --collapse "$tmp/cut.gz" >"$tmp/out" 2>"$tmp/err"
check "truncated gzip: message" grep -q 'cut.gz: gzip stream is truncated: the line it cuts is not read' "$tmp/err"
check "truncated gzip: whole lines read" [ "$(awk '$NF == 12345' "$tmp/out" | wc -l)" -gt 1000 ]
check "truncated gzip: every count whole" [ "$(awk '$NF != 12345' "$tmp/out" | wc -l)" = 0 ]
check "truncated gzip: no bad line" [ "$(grep -c 'bad line' "$tmp/err")" = 0 ]

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
