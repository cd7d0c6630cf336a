#!/bin/sh
# bench-readers.sh - the readers at the limit of two cores (issue 32): each
# figure a ratio of two commands run in turn in the same run, beside its
# target.
#
# usage: tests/bench/bench-readers.sh BUILDDIR BIN
#
# Inputs, made at bench time under BUILDDIR/bench (kept for the next run,
# never committed):
#   - deep-shuffled.folded: 300,000 distinct stacks of about 40 frames over
#     about 50,000 names, in random order, about 330 MB (the file of
#     bench-folded.sh, made by the same generator with the same arguments);
#   - build.perf-script: a system-wide `perf record -a -g -F 2999` of a
#     `make -j2` build of flametop (a copy of this tree, built under
#     BUILDDIR/bench/build-rec), its `perf script` repeated to about 200 MB:
#     many processes and distinct stacks, where the frame-line cache misses
#     (skipped, and said so, when perf cannot record here); and one copy
#     alone, build.perf-script.one, as a one-off recording is read (a
#     figure without a target);
#   - deep.pprof: the deep file written by BIN --pprof (one sample per
#     distinct stack), and synth.pprof, 1,000,000 samples over 300,000
#     distinct stacks from BUILDDIR/tools/gen-pprof; each against its own
#     stacks written as folded text by BIN --collapse.
# Each comparison runs the two commands in turn, A B A B A B, and prints
# the median of the three ratios A/B in wall-clock time with their range
# (min-max), the median ratio in CPU time (user + system), and the target.
# The thread figures run BIN with FLAMETOP_THREADS=1, 2 and the number of
# CPUs in turn.  BENCH_QUICK=1 (make check): small inputs, one round, no
# verdict.  Reports; never fails on a slow figure.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/folded-common.sh"
. "$(dirname "$0")/oracle.sh"
case $bin in /*) ;; *) bin=$top/$bin ;; esac
case $dir in /*) ;; *) dir=$top/$dir ;; esac
script_mb=200
[ -n "${BENCH_QUICK:-}" ] && script_mb=1
ncpu=$(nproc 2>/dev/null || echo 2)

# timed LOG CMD...: one run of CMD, its output thrown away; appends
# "wall cpu peak-KB" to LOG.  Fails with CMD's messages in $dir/err.out.
timed() {
	log=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" \
		>/dev/null 2>"$dir/err.out" || return 1
	awk '{ print $1, $2 + $3, $4 }' "$dir/time.out" >>"$log"
}

# compare LABEL OP TARGET A B: the shell functions A and B run in turn,
# $runs rounds; prints the ratios of A to B (OP: le, A/B at most TARGET;
# ge, at least; info, no target).  A function takes the log to add its
# run to.
compare() {
	label=$1 op=$2 target=$3 fa=$4 fb=$5
	: >"$dir/a.log"
	: >"$dir/b.log"
	for run in $runs; do
		"$fa" "$dir/a.log" && "$fb" "$dir/b.log" || {
			echo "   $label: FAILED: $(head -n 2 "$dir/err.out")"
			failed=1
			return 1
		}
	done
	paste -d' ' "$dir/a.log" "$dir/b.log" | awk -v l="$label" -v op="$op" \
		-v t="$target" -v q="${BENCH_QUICK:-}" '
	function med(x, n,   i, j, v) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
				v = x[j]; x[j] = x[j - 1]; x[j - 1] = v
			}
		return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	{
		n++
		aw[n] = $1; ac[n] = $2; am[n] = $3; bw[n] = $4; bc[n] = $5
		r[n] = ($1 > 0.005 ? $1 : 0.005) / ($4 > 0.005 ? $4 : 0.005)
		rc[n] = ($2 > 0.005 ? $2 : 0.005) / ($5 > 0.005 ? $5 : 0.005)
		lo = (n == 1 || r[n] < lo) ? r[n] : lo
		hi = (n == 1 || r[n] > hi) ? r[n] : hi
		mem = am[n] > mem ? am[n] : mem
	}
	END {
		ma = med(aw, n); mb = med(bw, n); mr = med(r, n); mc = med(rc, n)
		v = ""
		if (op == "info") {
			printf "   %-44s %5.2fx (%.2f-%.2f) wall, %5.2fx CPU  (no target)\n",
				l, mr, lo, hi, mc
			printf "   %-44s %.2f s against %.2f s (medians), %d MB peak\n",
				"", ma, mb, mem / 1024
			exit
		}
		if (q == "") {
			ok = op == "le" ? mr <= t : mr >= t
			okc = op == "le" ? mc <= t : mc >= t
			v = ok ? "ok" : okc ? "MISSED on wall clock, ok in CPU time" : "MISSED"
		}
		printf "   %-44s %5.2fx (%.2f-%.2f) wall, %5.2fx CPU  target %s %s  %s\n",
			l, mr, lo, hi, mc, op == "le" ? "<=" : ">=", t, v
		printf "   %-44s %.2f s against %.2f s (medians), %d MB peak\n",
			"", ma, mb, mem / 1024
	}'
}

say_input() {
	printf '   %s: %s, %.1f MB\n' "$1" "$(basename "$2")" \
		"$(awk -v b="$(wc -c <"$2")" 'BEGIN { print b / 1e6 }')"
}

# ---- The deep folded file: against wc -l, and 1, 2 and N threads -------
deep=$dir/deep-shuffled.folded
# shellcheck disable=SC2086
gen "$deep" $size --funcs 110000 --callees 2 --min-depth 32 --short-names --shuffle
say_input "deep folded, 300k distinct stacks of ~40 frames, shuffled" "$deep"
ft_deep() { timed "$1" "$bin" --text --width 200 "$deep"; }
wc_deep() { timed "$1" wc -l "$deep"; }
compare "deep: flametop --text / wc -l" le 6 ft_deep wc_deep
awk '{ if ($3 > m) m = $3 } END {
	printf "   deep: peak %d MB (target <= 200 MB)\n", m / 1024 }' "$dir/a.log"
t1() { FLAMETOP_THREADS=1 timed "$1" "$bin" --text --width 200 "$deep"; }
t2() { FLAMETOP_THREADS=2 timed "$1" "$bin" --text --width 200 "$deep"; }
tn() { FLAMETOP_THREADS=$ncpu timed "$1" "$bin" --text --width 200 "$deep"; }
compare "deep: 1 thread / 2 threads" ge 1.7 t1 t2
if [ "$ncpu" -gt 2 ]; then
	compare "deep: 1 thread / $ncpu threads" ge 1.7 t1 tn
else
	echo "   ($ncpu CPUs: N threads is 2 threads here)"
fi

# ---- perf script of a real build, recorded system-wide ------------------
# record OUT: perf record -a -g -F 2999 of a make -j2 build of a copy of
# this tree (quick: a short shell loop); OUT is its perf script.
record() {
	out=$1
	rec=$dir/build-rec
	rm -rf "$rec"
	mkdir -p "$rec/src" || return 1
	if [ -n "${BENCH_QUICK:-}" ]; then
		set -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
	else
		(cd "$top" && git archive HEAD 2>/dev/null) | tar -x -C "$rec/src" \
			2>/dev/null || return 1
		set -- make -C "$rec/src" O="$rec/out" -j2
	fi
	perf record -q -a -g -F 2999 -o "$rec/perf.data" -- "$@" \
		>/dev/null 2>"$rec/record.err" || return 1
	perf script -i "$rec/perf.data" >"$out.one" 2>/dev/null && [ -s "$out.one" ] ||
		return 1
	rm -f "$rec/perf.data"
}
real=$dir/build.perf-script
if [ ! -s "$real" ]; then
	if ! command -v perf >/dev/null 2>&1 || ! record "$real"; then
		echo "   SKIP (perf script of a real build): perf did not record here" \
			"($(head -n 1 "$dir/build-rec/record.err" 2>/dev/null))"
		rm -f "$real.one"
	else
		n=$(awk -v s="$(wc -c <"$real.one")" -v t="$script_mb" \
			'BEGIN { n = int(t * 1e6 / s + 0.5); print n < 1 ? 1 : n }')
		i=0
		while [ "$i" -lt "$n" ]; do
			cat "$real.one"
			i=$((i + 1))
		done >"$real.tmp" && mv "$real.tmp" "$real"
		echo "   recorded: $(grep -c '^$' "$real.one") samples, $n copies"
	fi
fi
if [ -s "$real" ]; then
	say_input "perf script of a make -j2 build, perf record -a -g -F 2999" "$real"
	sc=$(find_oracle stackcollapse-perf.pl)
	ft_real() { timed "$1" "$bin" --collapse "$real"; }
	if [ -n "$sc" ]; then
		sc_real() { timed "$1" "$sc" "$real"; }
		compare "stackcollapse-perf.pl / flametop --collapse" ge 40 sc_real ft_real
		# One copy, as a one-off recording is read: every frame line
		# is new once, where the copies after the first find them all
		# in the cache.
		if [ -s "$real.one" ]; then
			ft_one() { timed "$1" "$bin" --collapse "$real.one"; }
			sc_one() { timed "$1" "$sc" "$real.one"; }
			compare "  one copy ($(awk -v b="$(wc -c <"$real.one")" \
				'BEGIN { printf "%.1f MB", b / 1e6 }'))" info 0 \
				sc_one ft_one
		fi
	else
		# No ratio without the tool: its speed on another input (31
		# MB/s on bench-perf-script.sh's repeated recording) says
		# nothing of its speed on this one, whose stacks differ.
		: >"$dir/a.log"
		for run in $runs; do
			ft_real "$dir/a.log" || { failed=1; break; }
		done
		awk -v b="$(wc -c <"$real")" '{
			w[NR] = $1; c[NR] = $2 }
		END {
			m = w[1]; mc = c[1]
			for (i = 2; i <= NR; i++) { if (w[i] < m) m = w[i]; if (c[i] < mc) mc = c[i] }
			if (m < 0.005) m = 0.005
			if (mc < 0.005) mc = 0.005
			printf "   flametop --collapse %.2f s (%.0f MB/s), %.2f s CPU (%.0f MB/s)\n", m, b / 1e6 / m, mc, b / 1e6 / mc
			printf "   stackcollapse-perf.pl: not found (FLAMEGRAPH_DIR or the PATH), so the ratio (target >= 40) is not measured\n"
		}' "$dir/a.log"
	fi
fi

# ---- pprof against the same stacks as folded text -----------------------
# pprof_pair NAME FILE LABEL: FILE --collapse against its own --collapse output.
pprof_pair() {
	pp_file=$2
	if [ ! -s "$pp_file.folded" ] || [ "$pp_file" -nt "$pp_file.folded" ]; then
		"$bin" --collapse "$pp_file" >"$pp_file.folded" 2>/dev/null || {
			echo "   $1: FAILED: flametop cannot read $pp_file"
			failed=1
			return
		}
	fi
	say_input "$1" "$pp_file"
	compare "$3 / the same as folded" le 1.5 pp_a pp_b
}
pp_a() { timed "$1" "$bin" --collapse "$pp_file"; }
pp_b() { timed "$1" "$bin" --collapse "$pp_file.folded"; }
gp=$build/tools/gen-pprof
if [ -x "$gp" ]; then
	nsamples=1000000 nstacks=300000
	[ -n "${BENCH_QUICK:-}" ] && nsamples=10000 nstacks=3000
	synth=$dir/synth.pprof
	stamp="$(cksum <tests/tools/gen-pprof.c) $nsamples $nstacks"
	if [ ! -s "$synth" ] || [ "$(cat "$synth.stamp" 2>/dev/null)" != "$stamp" ]; then
		"$gp" "$nsamples" "$nstacks" "$synth.tmp" >/dev/null &&
			mv "$synth.tmp" "$synth" && echo "$stamp" >"$synth.stamp"
	fi
	[ -s "$synth" ] && pprof_pair "pprof, $nsamples samples over $nstacks stacks" "$synth" "synth pprof --collapse"
fi
deep_pp=$dir/deep.pprof
if [ ! -s "$deep_pp" ] || [ "$deep" -nt "$deep_pp" ]; then
	"$bin" --pprof "$deep_pp.tmp" "$deep" >/dev/null 2>&1 &&
		mv "$deep_pp.tmp" "$deep_pp"
fi
[ -s "$deep_pp" ] && pprof_pair "pprof by flametop --pprof of the deep file" "$deep_pp" "deep pprof --collapse"
echo "   load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
rm -f "$dir/time.out" "$dir/err.out" "$dir/a.log" "$dir/b.log"
exit "$failed"
