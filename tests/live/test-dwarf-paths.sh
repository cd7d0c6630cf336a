#!/bin/sh
# test-dwarf-paths.sh - --call-graph dwarf on programs without frame
# pointers: a target with known call paths built twice at test time, with
# DWARF (-O2 -g -fomit-frame-pointer) and with only .eh_frame (-g0
# -fasynchronous-unwind-tables), sampled live in fp and dwarf modes and
# recorded with `perf record --call-graph dwarf`; then Debian's own
# python3 and gzip, as a user would try them.
#
# usage: tests/live/test-dwarf-paths.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

cat >"$work/dwarf-target.c" <<'EOF'
/* 2/3 of the time under work_hot, 1/3 under work_cold: the two spin
 * loops are the same code (noipa keeps gcc from folding them into one)
 * and the hot one runs twice the rounds.  SECS is
 * CPU time, so that a busy machine changes the run's length, not its
 * number of samples. */
#include <stdlib.h>
#include <time.h>

#if defined(__clang__)
#define SPIN __attribute__((noinline))
#else
#define SPIN __attribute__((noinline, noipa))
#endif
static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	return x * 6364136223846793005ul + 1442695040888963407ul;
}

SPIN void spin_hot(unsigned n)
{
	unsigned long x = sink;

	for (unsigned i = 0; i < n; i++)
		x = mix(x) ^ i;
	sink = x;
}

SPIN void spin_cold(unsigned n)
{
	unsigned long x = sink;

	for (unsigned i = 0; i < n; i++)
		x = mix(x) ^ i;
	sink = x;
}

/* The sink updates after the calls keep them from being tail calls. */
__attribute__((noinline)) void work_hot(void) { spin_hot(2000000); sink++; }
__attribute__((noinline)) void work_cold(void) { spin_cold(1000000); sink++; }

__attribute__((noinline)) void run(double secs)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		work_hot();
		work_cold();
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
	sink++;
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atof(argv[1]) : 1);
	return 0;
}
EOF
if ! "$CC" -O2 -g -fomit-frame-pointer "$work/dwarf-target.c" \
	-o "$work/dwarf-g" 2>"$work/cc.err" ||
   ! "$CC" -O2 -g0 -fasynchronous-unwind-tables -fomit-frame-pointer \
	"$work/dwarf-target.c" -o "$work/dwarf-eh" 2>>"$work/cc.err"; then
	echo "SKIP: cannot build the DWARF target: $(head -n 1 "$work/cc.err")"
	exit 0
fi

PATH_HOT='_start;__libc_start_main;__libc_start_call_main;main;run;work_hot;spin_hot'
PATH_COLD='_start;__libc_start_main;__libc_start_call_main;main;run;work_cold;spin_cold'

# paths FILE: the distinct stacks holding 5% or more of the weight, without
# weights, root frame (the process name) dropped.
paths() {
	awk '{ w = $NF; t += w; sub(/ [0-9.]+$/, ""); sub(/^[^;]*;/, "");
		s[$0] += w }
	     END { for (k in s) if (s[k] * 20 >= t) print k }' "$1" | LC_ALL=C sort
}

has_debug=$(readelf -S "$work/dwarf-eh" 2>/dev/null | grep -c '\.debug_')
check "the -g0 build has no .debug_* sections ($has_debug)" [ "$has_debug" = 0 ]
has_eh=$(readelf -S "$work/dwarf-eh" 2>/dev/null | grep -c '\.eh_frame ')
check "the -g0 build has .eh_frame" [ "$has_eh" -ge 1 ]

for v in g eh; do
	prog=$work/dwarf-$v
	# ---- frame pointers: shallow stacks ------------------------------
	"$BIN" --call-graph fp -F 499 -d 300 --collapse -- "$prog" 1 \
		>"$work/fp-$v.folded" 2>"$work/fp-$v.err"
	check "$v fp: exit status 0" [ $? -eq 0 ]
	m=$(share "$work/fp-$v.folded" ';main;')
	check "$v fp: stacks are shallow (main in $m%)" within "$m" 0 10

	# ---- dwarf: full stacks with the right shares ----------------------
	"$BIN" --call-graph dwarf -F 499 -d 300 --collapse -- "$prog" 1.5 \
		>"$work/dw-$v.folded" 2>"$work/dw-$v.err"
	check "$v dwarf: exit status 0 ($(head -n 1 "$work/dw-$v.err"))" [ $? -eq 0 ]
	m=$(share "$work/dw-$v.folded" ';main;run;')
	check "$v dwarf: stacks reach main ($m%)" within "$m" 95 100
	s=$(share "$work/dw-$v.folded" '^dwarf-[a-z]*;_start;')
	check "$v dwarf: stacks reach _start ($s%)" within "$s" 95 100
	h=$(share "$work/dw-$v.folded" ";$PATH_HOT( |;)")
	c=$(share "$work/dw-$v.folded" ";$PATH_COLD( |;)")
	check "$v dwarf: hot share $h% is about 2/3" within "$h" 58 75
	check "$v dwarf: cold share $c% is about 1/3" within "$c" 25 42
	# A sample can land where no unwinder goes far (the dynamic loader's
	# first instructions, an exit): a stray one is allowed, 2% is not.
	t=$(sed -n 's/.* \([0-9]*\) of \([0-9]*\) DWARF-unwound stacks stopped early.*/\1 \2/p' \
		"$work/dw-$v.err")
	check "$v dwarf: at most 2% truncated (${t:-0 of all})" \
		awk -v t="${t:-0 1}" 'BEGIN { split(t, a, " "); exit !(a[1] * 50 <= a[2]) }'
done

# Inlined code: mix() is inlined into both spin functions.  DWARF names
# it as an "_[i]" frame below its caller; .eh_frame alone cannot.
check "g dwarf: inlined mix shown as its own frame" \
	grep -q ";spin_[a-z]*;mix_\[i\] [0-9]*$" "$work/dw-g.folded"
# (The dynamic loader has DWARF of its own: only the program's frames.)
check "eh dwarf: no inline frames without DWARF" \
	sh -c "! grep -q ';main;.*_\[i\]' '$work/dw-eh.folded'"
"$BIN" --call-graph dwarf --no-inline -F 499 -d 300 --collapse -- \
	"$work/dwarf-g" 0.5 >"$work/noinl.folded" 2>/dev/null
check "--no-inline: no inline frames" sh -c "! grep -q '_\[i\]' '$work/noinl.folded'"
check "--no-inline: full stacks still" grep -q ";$PATH_HOT [0-9]*$" "$work/noinl.folded"

# ---- through the vdso: clock_gettime in a loop ----------------------------
cat >"$work/vdso-loop.c" <<'EOF'
#include <time.h>

__attribute__((noinline)) long poll_clock(int n)
{
	struct timespec ts;
	long s = 0;

	for (int i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += ts.tv_nsec;
	}
	return s;
}

int main(void)
{
	struct timespec a, b;
	volatile long s = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		s += poll_clock(1000000);   /* one CPU-clock syscall per 1M vdso calls */
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
		 1500000000L);
	return 0;
}
EOF
if "$CC" -O2 -g -fomit-frame-pointer "$work/vdso-loop.c" -o "$work/vdso-loop" \
	2>/dev/null; then
	"$BIN" --call-graph dwarf -F 499 -d 300 --collapse -- "$work/vdso-loop" \
		>"$work/vdso.folded" 2>"$work/vdso.err"
	check "vdso: exit status 0" [ $? -eq 0 ]
	v=$(share "$work/vdso.folded" '__vdso_clock_gettime')
	check "vdso: samples in the vdso ($v%)" within "$v" 30 100
	m=$(share "$work/vdso.folded" \
		';main;poll_clock;clock_gettime;__vdso_clock_gettime')
	# Before the vdso's CFI was used, 1-2% of them stopped in the vdso.
	lo=$(awk -v v="$v" 'BEGIN { print v * 0.99 }')
	check "vdso: 99% of them unwound to main ($m% of $v%)" within "$m" "$lo" 100
fi

# ---- a stack copy too small: partial stacks kept and counted ------------
"$BIN" --call-graph dwarf,16 -F 499 -d 300 --collapse -- "$work/dwarf-g" 0.5 \
	>"$work/small.folded" 2>"$work/small.err"
check "dwarf,16: exit status 0" [ $? -eq 0 ]
check "dwarf,16: truncated stacks counted" grep -q \
	"DWARF-unwound stacks stopped early" "$work/small.err"
check "dwarf,16: partial stacks kept" grep -q "spin_hot" "$work/small.folded"
m=$(share "$work/small.folded" ';main;')
check "dwarf,16: they do not reach main ($m%)" within "$m" 0 10
"$BIN" --call-graph dwarf,70000 -d 1 --collapse -- true >/dev/null 2>"$work/big.err"
check "dwarf,70000: usage error" [ $? -eq 2 ]
check "dwarf,70000: says the range" grep -q "out of range" "$work/big.err"
"$BIN" --call-graph dwarf,lots -d 1 --collapse -- true >/dev/null 2>"$work/bad.err"
check "dwarf,lots: usage error" [ $? -eq 2 ]

# ---- perf record --call-graph dwarf gives the same tree ------------------
if command -v perf >/dev/null 2>&1 &&
   perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
	for v in g eh; do
		perf record -q --call-graph dwarf -F 499 -o "$work/p-$v.data" -- \
			"$work/dwarf-$v" 1.5 >/dev/null 2>"$work/perf-$v.err"
		check "$v perf record: ran ($(head -n 1 "$work/perf-$v.err"))" \
			[ -s "$work/p-$v.data" ]
		"$BIN" --collapse --no-inline "$work/p-$v.data" \
			>"$work/p-$v.folded" 2>"$work/p-$v.err"
		check "$v perf.data: exit status 0" [ $? -eq 0 ]
		h=$(share "$work/p-$v.folded" ";$PATH_HOT( |;)")
		c=$(share "$work/p-$v.folded" ";$PATH_COLD( |;)")
		check "$v perf.data: hot share $h% is about 2/3" within "$h" 58 75
		check "$v perf.data: cold share $c% is about 1/3" within "$c" 25 42
		"$BIN" --call-graph dwarf --no-inline -F 499 -d 300 --collapse -- \
			"$work/dwarf-$v" 1.5 >"$work/l-$v.folded" 2>/dev/null
		paths "$work/p-$v.folded" >"$work/p-$v.paths"
		paths "$work/l-$v.folded" >"$work/l-$v.paths"
		check "$v perf.data and live: the same main paths" \
			cmp -s "$work/p-$v.paths" "$work/l-$v.paths"
		check "$v perf.data: two main paths" \
			[ "$(wc -l <"$work/p-$v.paths")" -eq 2 ]
	done
else
	echo "note: perf record not available here; perf.data checks skipped"
fi

# ---- Debian's own binaries ---------------------------------------------------
# Debian's interpreter (not a pyenv or venv shim that PATH may find first).
PY=/usr/bin/python3
if [ -x "$PY" ]; then
	"$BIN" --call-graph dwarf -F 499 -d 300 --collapse -- "$PY" -c '
import time
def inner(n):
    return sum(i * i for i in range(n))
t = time.process_time()
while time.process_time() - t < 1.5:
    inner(10000)
' >"$work/py.folded" 2>"$work/py.err"
	check "python3: exit status 0" [ $? -eq 0 ]
	m=$(share "$work/py.folded" ';Py_RunMain;')
	check "python3: stacks reach Py_RunMain ($m%)" within "$m" 90 100
	m=$(share "$work/py.folded" '^python3[.0-9]*;_start;__libc_start_main;__libc_start_call_main;')
	check "python3: stacks reach _start ($m%)" within "$m" 80 100
	m=$(share "$work/py.folded" ';_PyEval_EvalFrameDefault')
	check "python3: the interpreter loop ($m%)" within "$m" 80 100
fi
if command -v gzip >/dev/null 2>&1; then
	head -c 30000000 /dev/urandom >"$work/big.bin"
	"$BIN" --call-graph dwarf -F 499 -d 300 --collapse -- \
		gzip -f "$work/big.bin" >"$work/gz.folded" 2>"$work/gz.err"
	check "gzip: exit status 0" [ $? -eq 0 ]
	m=$(share "$work/gz.folded" '^gzip;[^;]*;__libc_start_main;__libc_start_call_main;')
	check "gzip: stacks reach the entry point ($m%)" within "$m" 90 100
fi
finish
