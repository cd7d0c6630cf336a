#!/bin/sh
# tests/diff/run.sh - flametop --diff BEFORE AFTER against a sort-merge
# reference: each side's stacks summed (by flametop --collapse of that side
# alone, or by awk for hand-made folded pairs), joined by stack, sorted in
# byte order.  Prints "N passed, N failed".
#
# usage: tests/diff/run.sh BIN
bin=${1:?usage: run.sh BIN}
top=$(cd "$(dirname "$0")/../.." && pwd)
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# ref BEFORE AFTER [NORMALIZE]: "stack BEFORE AFTER", summed per stack,
# sorted; with NORMALIZE and unequal totals each BEFORE sum times
# total(AFTER)/total(BEFORE), the fraction dropped (difffolded.pl -n's
# int(), not rounding).
ref() {
	awk -v norm="${3:-0}" '
	function num(s) { return s + 0 }
	FNR == 1 { side++ }
	NF >= 2 {
		c = $NF; st = $0; sub(/ [^ ]+$/, "", st)
		w[st, side] += num(c); tot[side] += num(c); seen[st] = 1
	}
	END {
		for (s in seen) {
			b = w[s, 1]; a = w[s, 2]
			if (norm && tot[1] > 0 && tot[1] != tot[2])
				b = int(b * tot[2] / tot[1])
			printf "%s %s %s\n", s, fmt(b), fmt(a)
		}
	}
	function fmt(x) { return x == int(x) ? sprintf("%d", x) : sprintf("%s", x) }
	' "$1" "$2" | sort
}

# check NAME EXPECTED-FILE flametop-args...
check() {
	name=$1
	want=$2
	shift 2
	"$bin" "$@" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		bad "$name: exit status $rc ($(head -c 300 "$tmp/err"))"
		return
	fi
	if cmp -s "$want" "$tmp/got"; then
		ok
	else
		bad "$name"
		diff "$want" "$tmp/got" | head -n 10
	fi
}

# ---- Hand-made pairs -------------------------------------------------------
cat >"$tmp/a.folded" <<'X'
main;work;a 10
main;work;b 5
main;only_before 3
main;work;a 2
solo 1.5
X
cat >"$tmp/b.folded" <<'X'
main;work;a 4
main;work;b 5
main;only_after 7
main;work;c 0.25
main;work 3
X
ref "$tmp/a.folded" "$tmp/b.folded" >"$tmp/want"
check "hand-made pair" "$tmp/want" --diff --collapse "$tmp/a.folded" "$tmp/b.folded"
# The lines are what the reference says, not merely sorted alike.
grep -qx 'main;only_before 3 0' "$tmp/got" &&
	grep -qx 'main;only_after 0 7' "$tmp/got" &&
	grep -qx 'main;work;a 12 4' "$tmp/got" &&
	grep -qx 'solo 1.5 0' "$tmp/got" &&
	grep -qx 'main;work;c 0 0.25' "$tmp/got" && ok ||
	bad "hand-made pair: expected lines"

ref "$tmp/a.folded" "$tmp/b.folded" 1 >"$tmp/want"
check "normalize" "$tmp/want" --diff --normalize --collapse "$tmp/a.folded" "$tmp/b.folded"
# total(a) 21.5, total(b) 19.25: main;work;a 12 * 19.25 / 21.5 = 10.74 -> 10
grep -qx 'main;work;a 10 4' "$tmp/got" && ok || bad "normalize: main;work;a"

# Whole counts where rounding and truncating differ: totals 7 and 10,
# a 3 * 10 / 7 = 4.29 -> 4, b 4 * 10 / 7 = 5.71 -> 5 (not 6).
printf 'm;a 3\nm;b 4\n' >"$tmp/n1.folded"
printf 'm;a 5\nm;b 5\n' >"$tmp/n2.folded"
printf 'm;a 4 5\nm;b 5 5\n' >"$tmp/want"
check "normalize truncates" "$tmp/want" --diff --normalize --collapse "$tmp/n1.folded" "$tmp/n2.folded"
# Equal totals: the counts stay, fractions too.
printf 'm;a 1.5\nm;b 2.5\n' >"$tmp/e1.folded"
printf 'm;a 3\nm;b 1\n' >"$tmp/e2.folded"
printf 'm;a 1.5 3\nm;b 2.5 1\n' >"$tmp/want"
check "normalize, equal totals" "$tmp/want" --diff --normalize --collapse "$tmp/e1.folded" "$tmp/e2.folded"

# Swapped sides swap the columns.
ref "$tmp/b.folded" "$tmp/a.folded" >"$tmp/want"
check "swapped" "$tmp/want" --diff --collapse "$tmp/b.folded" "$tmp/a.folded"

# Normalizing a side with no weight leaves it at zero.
: >"$tmp/empty.folded"
printf 'x;y 0\n' >"$tmp/zero.folded"
ref "$tmp/zero.folded" "$tmp/b.folded" 1 | awk '$2 != 0 || $3 != 0' >"$tmp/want"
check "zero before" "$tmp/want" --diff --normalize --collapse "$tmp/zero.folded" "$tmp/b.folded"

# Compressed input and a different format on each side.
gzip -c "$tmp/a.folded" >"$tmp/a.folded.gz"
ref "$tmp/a.folded" "$tmp/b.folded" >"$tmp/want"
check "gzip side" "$tmp/want" --diff --collapse "$tmp/a.folded.gz" "$tmp/b.folded"

# ---- Any two inputs: the reference is each side collapsed alone -----------
pair() {
	name=$1
	a=$2
	b=$3
	shift 3
	if ! "$bin" --collapse "$@" "$a" >"$tmp/ca" 2>/dev/null ||
	   ! "$bin" --collapse "$@" "$b" >"$tmp/cb" 2>/dev/null; then
		bad "$name: a side alone could not be read"
		return
	fi
	ref "$tmp/ca" "$tmp/cb" >"$tmp/want"
	check "$name" "$tmp/want" --diff --collapse "$@" "$a" "$b"
	# Each column sums to its own file's total.
	sa=$(awk '{ s += $NF } END { printf "%.0f", s }' "$tmp/ca")
	sb=$(awk '{ s += $NF } END { printf "%.0f", s }' "$tmp/cb")
	ga=$(awk '{ s += $(NF-1) } END { printf "%.0f", s }' "$tmp/got")
	gb=$(awk '{ s += $NF } END { printf "%.0f", s }' "$tmp/got")
	if [ "$sa" = "$ga" ] && [ "$sb" = "$gb" ] && [ "$sa" != 0 ]; then
		ok
	else
		bad "$name: column sums $ga $gb, files' totals $sa $sb"
	fi
}

d=$top/tests/data
g=$top/tests/golden
pair "perf.data pair" "$d/fp.data" "$d/pipe.data"
pair "perf.data zstd" "$d/zstd.data" "$d/fp.data"
pair "perf script pair" "$g/demo.perf" "$g/mixed.perf"
pair "perf script gz" "$g/demo.perf.gz" "$g/demo.perf"
pair "perf.data and perf script" "$d/fp.data" "$g/demo.perf"
pair "--time on both sides" "$d/fp.data" "$d/pipe.data" --time 0.05,0.2
pair "--time percent" "$d/fp.data" "$d/zstd.data" --time 50%-100%
pair "--invert" "$d/fp.data" "$d/pipe.data" --invert
pair "--include" "$g/demo.perf" "$g/mixed.perf" --include 'main|work'
pair "--fold-recursion" "$tmp/a.folded" "$tmp/b.folded" --fold-recursion
pair "--comm" "$d/fp.data" "$d/pipe.data" --comm prog
pair "--group thread" "$d/fp.data" "$d/pipe.data" --group thread

# --callers of a function only BEFORE has.
printf 'only_before;main 3 0\n' >"$tmp/want"
check "--callers of a gone function" "$tmp/want" --diff --collapse --callers only_before "$tmp/a.folded" "$tmp/b.folded"

# ---- Two timed recordings: one timeline ------------------------------------
# BEFORE starts at 100 s, AFTER at 7000 s: --time counts from each side's
# first sample (seconds) or spans each side's own length (percentages).
# sample COMM PID TIME FRAME...: one perf script sample, leaf first.
sample() {
	printf '%s %s %s: 1 cpu-clock:ppp:\n' "$1" "$2" "$3"
	c=$1
	shift 3
	for f in "$@"; do printf '\t1000 %s+0x1 (/bin/%s)\n' "$f" "$c"; done
	echo
}
{
	sample prog 10 100.000 a main
	sample prog 10 100.500 a main
	sample prog 11 101.500 b main
	sample other 12 102.500 b main
} >"$tmp/before.perf"
{
	sample prog 20 7000.000 a main
	sample prog 20 7001.200 c main
	sample other 21 7002.000 c main
} >"$tmp/after.perf"
tl() { "$bin" --diff --collapse "$@" "$tmp/before.perf" "$tmp/after.perf"; }
[ "$(tl --time 0,1)" = "prog;main;a 2 1" ] && ok ||
	bad "timed pair: --time 0,1 is each side's first second: $(tl --time 0,1 2>&1)"
[ "$(tl --time 50%-100% | tr '\n' /)" = "other;main;b 1 0/other;main;c 0 1/prog;main;b 1 0/prog;main;c 0 1/" ] && ok ||
	bad "timed pair: --time 50%-100% is each side's second half: $(tl --time 50%-100% 2>&1 | tr '\n' /)"
[ "$(tl --comm other | tr '\n' /)" = "other;main;b 1 0/other;main;c 0 1/" ] && ok ||
	bad "timed pair: --comm keeps each side's samples of it: $(tl --comm other 2>&1 | tr '\n' /)"
[ "$(tl --pids 10,20 --time 0,0.6 | tr '\n' /)" = "prog;main;a 2 1/" ] && ok ||
	bad "timed pair: --pids and --time together: $(tl --pids 10,20 --time 0,0.6 2>&1 | tr '\n' /)"
[ "$(tl --group process --time 1.2,2 | tr '\n' /)" = "other-21;main;c 0 1/prog-11;main;b 1 0/prog-20;main;c 0 1/" ] && ok ||
	bad "timed pair: --group process in a range: $(tl --group process --time 1.2,2 2>&1 | tr '\n' /)"
# One side without timestamps: --time says which.
"$bin" --diff --collapse --time 0,1 "$tmp/a.folded" "$tmp/after.perf" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "a.folded: the profile has no timestamps" "$tmp/err" && ok ||
	bad "--time with an untimed BEFORE: exit 1 naming it ($(cat "$tmp/err"))"

# ---- Colors: the points of share changed, scaled to the largest change -------
# p 50% -> 40% (-10 points, the largest: the full shrank color), q 1% -> 3%
# (+2: a fifth of the way to grew), r 49% -> 57% (+8: four fifths); the
# ratio of shares would make q the deepest.  The default theme: same
# #ffffff, grew #ff2828, shrank #2828ff.
printf 'm;p 50\nm;q 1\nm;r 49\n' >"$tmp/c1.folded"
printf 'm;p 40\nm;q 3\nm;r 57\n' >"$tmp/c2.folded"
"$bin" --diff --svg - "$tmp/c1.folded" "$tmp/c2.folded" 2>&1 |
	sed -n 's/.*<title>\([a-z]\) (.*fill="\(#[0-9a-f]*\)".*/\1 \2/p' |
	tr '\n' / >"$tmp/got"
[ "$(cat "$tmp/got")" = "m #ffffff/p #2828ff/q #ffd4d4/r #ff5353/" ] && ok ||
	bad "diff colors by points of share: $(cat "$tmp/got")"

# ---- Errors ------------------------------------------------------------------
"$bin" --diff --collapse "$tmp/a.folded" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--diff with one input: exit status 2"
"$bin" --normalize --collapse "$tmp/a.folded" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--normalize without --diff: exit status 2"
"$bin" --diff --collapse "$tmp/a.folded" "$tmp/nonexistent" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q nonexistent "$tmp/err" && ok ||
	bad "--diff with a missing input: exit status 1 and its name"
"$bin" --diff --collapse --time 0,1 "$tmp/a.folded" "$tmp/b.folded" >/dev/null 2>&1
[ $? -eq 1 ] && ok || bad "--diff --time on folded: exit status 1"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
