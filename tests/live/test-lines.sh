#!/bin/sh
# test-lines.sh - --lines on perf.data and live sampling against outside
# oracles: a C target with a hot loop and an always-inline function, built
# here with -g -O1, recorded with `perf record -g`; every frame of the
# target in `flametop --lines --collapse` of that perf.data is the line
# `addr2line -i` gives for the same address (the leaf's IP, a caller's
# return address minus 1; the last line of the inline chain, the
# function's own), stack by stack with the same weights.  Live sampling
# of the same target names the hot loop's line.
#
# usage: tests/live/test-lines.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

cat >"$work/lines-target.c" <<'EOF'
/* hot() spends its time in mix(), always inlined at line 15; SECS is
 * CPU time, so a busy machine changes the run's length only. */
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	for (int k = 0; k < 16; k++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}
__attribute__((noinline)) unsigned long hot(unsigned long x)
{
	for (int i = 0; i < 4000; i++)
		x = mix(x) ^ (x >> 7);
	return x;
}
static double cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	unsigned long x = 1;
	double end = cpu() + (argc > 1 ? atof(argv[1]) : 0.3);

	while (cpu() < end)
		x = hot(x);
	sink = x;
	return 0;
}
EOF
T=$work/lines-target
if ! "$CC" -O1 -g -fno-omit-frame-pointer "$work/lines-target.c" -o "$T" \
	2>"$work/cc.err"; then
	echo "SKIP: cannot build lines-target: $(head -n 1 "$work/cc.err")"
	exit 0
fi

# ---- Live: the hot loop's line ------------------------------------------------
"$BIN" -F 997 -d 30 --lines --collapse -- "$T" 0.3 >"$work/live.out" \
	2>"$work/live.err"
check "live --lines: ran" test $? = 0
# mix() is inlined at line 15 of hot(): hot's own line for nearly all of it.
check "live --lines: the hot loop is 'hot lines-target.c:15'" \
	grep -q ';hot lines-target\.c:15[; ]' "$work/live.out"
# main's frames name lines of its own body (26-34): its calls of cpu() at
# 28 and 30 and of hot() at 31, or its own instructions when a sample lands
# there (the loop, the move after hot() returns); hot is often frameless,
# so which of them show is up to the samples.  The perf.data part below
# checks every address against addr2line.
check "live --lines: main only at lines of its body (26-34)" \
	sh -c '! grep -o ";main lines-target\.c:[0-9]*" "$1" |
		grep -qv ":\(2[6-9]\|3[0-4]\)\$"' sh "$work/live.out"

# ---- perf.data against addr2line ------------------------------------------------
if ! command -v perf >/dev/null 2>&1 || ! command -v addr2line >/dev/null 2>&1 ||
   ! command -v nm >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP (in part): perf, addr2line, nm or python3 missing: no perf.data oracle"
	finish
fi
if ! perf record -q -g -e cpu-clock -F 997 -o "$work/p.data" -- "$T" 0.3 \
	>/dev/null 2>"$work/rec.err"; then
	echo "SKIP (in part): perf record not allowed here: $(head -n 1 "$work/rec.err")"
	finish
fi
"$BIN" --lines --collapse "$work/p.data" 2>/dev/null |
	awk '{ w = $NF; sub(/ [^ ]*$/, ""); n = split($0, f, ";"); k = ""
		for (i = 1; i <= n; i++)
			if (f[i] ~ / lines-target\.c:[0-9]+$/)
				k = k (k == "" ? "" : ";") f[i]
		s[k] += w } END { for (k in s) print k " " s[k] }' |
	LC_ALL=C sort >"$work/got"
# The oracle (lines-oracle.py): perf script's frames of the target, each
# address through addr2line -i.
nm "$T" >"$work/nm"
perf script -i "$work/p.data" -F period,ip,sym,symoff,dso >"$work/script" \
	2>/dev/null
python3 "$here/lines-oracle.py" "$T" "$work/nm" "$work/script" |
	LC_ALL=C sort >"$work/want"
check "perf.data --lines: the oracle found the hot loop" \
	grep -q 'hot lines-target\.c:15 ' "$work/want"
if cmp -s "$work/want" "$work/got"; then
	ok
else
	bad "perf.data --lines: stacks differ from perf script + addr2line -i"
	diff "$work/want" "$work/got" | head -n 10
fi
finish
