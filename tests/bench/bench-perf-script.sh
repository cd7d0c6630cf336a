#!/bin/sh
# bench-perf-script.sh - perf script text to folded stacks (--collapse)
# throughput (the reader parses on every core: FLAMETOP_THREADS).
#
# usage: tests/bench/bench-perf-script.sh BUILDDIR BIN
#
# Builds (once) BUILDDIR/bench/perf-script-real.txt, about 200 MB, by
# repeating the real `perf script` recordings in samples/ (made on this
# machine with perf 6.1: offsets, timestamps, periods, kernel and user
# frames), and, when ../shared/conformance is beside the clone,
# BUILDDIR/bench/perf-script-mix.txt from the real perf script files of the
# stackcollapse-perf conformance suite (Java, Node.js, kernel, iperf, NUMA,
# MirageOS; those with the cpu-clock event).  Then times
# BIN --collapse FILE >/dev/null, best of 3 runs with the page cache warm
# (wall-clock and CPU time), and prints MB/s beside the target (400 MB/s) and
# stackcollapse-perf.pl's figure on this machine (31 MB/s: 6.52 s for
# this 201 MB file at a load of 1.8, issue 16).  With
# stackcollapse-perf.pl on PATH or in $FLAMEGRAPH_DIR, both run on the same
# file one after the other and the ratio is of that run (issue 16: >= 40x).
# Reports; never fails on a slow figure.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$build/bench
target_mb=200
runs="1 2 3"
# stackcollapse-perf.pl on this machine, MB/s of the file below.
sc_mbs=31
# BENCH_QUICK=1 (make check): 1 MB inputs, one run.
if [ -n "${BENCH_QUICK:-}" ]; then
	dir=$build/bench-quick
	target_mb=1
	runs=1
fi
failed=0
export LC_ALL=C

if [ ! -x /usr/bin/time ]; then
	echo "   SKIP: /usr/bin/time missing (apt-get install time)"
	exit 0
fi
mkdir -p "$dir" || exit 1

# repeat OUT FILE...: OUT holds the files (decompressed, each ending in a
# blank line) again and again until it reaches $target_mb MB.
repeat() {
	out=$1
	shift
	[ -s "$out" ] && return 0
	one=$out.one
	: >"$one"
	for f in "$@"; do
		case $f in
		*.gz) gzip -dc "$f" ;;
		*.zst) zstd -qdc "$f" ;;
		*) cat "$f" ;;
		esac >>"$one" || { rm -f "$one"; return 1; }
		echo >>"$one"
	done
	size=$(wc -c <"$one")
	[ "$size" -gt 0 ] || { rm -f "$one"; return 1; }
	n=$(( (target_mb * 1000000 + size - 1) / size ))
	i=0
	while [ "$i" -lt "$n" ]; do
		cat "$one"
		i=$((i + 1))
	done >"$out.tmp" && mv "$out.tmp" "$out"
	rm -f "$one"
}

# best_of FILE ARGS...: best of 3 runs of BIN ARGS FILE into $best (wall
# time) and $bestcpu (CPU time: user + system, what the cores spent, which
# a busy machine disturbs less); fails with the message in $dir/err.
best_of() {
	file=$1
	shift
	best=
	bestcpu=
	for run in $runs; do
		/usr/bin/time -f '%e %U %S' -o "$dir/time" \
			"$bin" "$@" "$file" >/dev/null 2>"$dir/err" || return 1
		read -r wall user sys <"$dir/time"
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$wall
		fi
		if [ -z "$bestcpu" ] || awk -v a="$cpu" -v b="$bestcpu" 'BEGIN { exit !(a < b) }'; then
			bestcpu=$cpu
		fi
	done
}

# measure LABEL FILE ARGS...: best_of, printed in MB/s.
measure() {
	label=$1
	file=$2
	shift 2
	if ! best_of "$file" "$@"; then
		echo "   $label: FAILED: $(head -n 3 "$dir/err")"
		failed=1
		return
	fi
	bytes=$(wc -c <"$file")
	awk -v l="$label" -v b="$bytes" -v t="$best" -v c="$bestcpu" -v sc_mbs="$sc_mbs" 'BEGIN {
		if (t <= 0) t = 0.01
		if (c <= 0) c = 0.01
		printf "   %-34s %5.2f s %5.0f MB/s wall, %5.2f s %5.0f MB/s CPU (%.0fx stackcollapse-perf.pl)\n",
		       l, t, b / 1e6 / t, c, b / 1e6 / c, b / 1e6 / c / sc_mbs
	}'
}

real=$dir/perf-script-real.txt
if ! repeat "$real" "$top/samples/python.perf-script.zst" \
	"$top/samples/gzip.perf-script.gz"; then
	echo "   SKIP: cannot read the perf script recordings in samples/"
	exit 0
fi
printf '   input: %s, %.0f MB of real perf script samples repeated\n' \
	"$real" "$(awk -v b="$(wc -c <"$real")" 'BEGIN { print b / 1e6 }')"
echo "   target: >= 400 MB/s; stackcollapse-perf.pl: $sc_mbs MB/s here"
measure "--collapse (samples/ recordings)" "$real" --collapse
measure "--collapse --all --tid" "$real" --collapse --all --tid
measure "--collapse --time 50%-100%" "$real" --collapse --time 50%-100%

conf=$top/../shared/conformance/stackcollapse-perf
if [ -d "$conf" ]; then
	mix=$dir/perf-script-mix.txt
	if repeat "$mix" "$conf/perf-vertx-stacks-01.txt" \
		"$conf/perf-iperf-stacks-pidtid-01.txt" \
		"$conf/perf-numa-stacks-01.txt" \
		"$conf/perf-mirageos-stacks-01.txt" \
		"$conf/perf-funcab-cmd-01.txt" "$conf/perf-dd-stacks-01.txt" \
		"$conf/perf-js-stacks-01.txt"; then
		measure "--collapse (conformance mix)" "$mix" --collapse
	fi
else
	echo "   (../shared/conformance not found: the conformance mix is skipped)"
fi

# ---- stackcollapse-perf.pl side by side, when it is here (issue 16) ----
# Never copied in: used from PATH or $FLAMEGRAPH_DIR when installed.
. "$(dirname "$0")/oracle.sh"
sc=$(find_oracle stackcollapse-perf.pl)
if [ -n "$sc" ]; then
	# The same file, one after the other: stackcollapse-perf.pl once (it
	# takes seconds), flametop best of the runs; wall and CPU (user +
	# system), with the load average beside them, since a loaded machine
	# gives flametop's threads less than every core.
	load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
	/usr/bin/time -f '%e %U %S' -o "$dir/time" "$sc" "$real" >/dev/null 2>&1
	read -r sc_t sc_u sc_s <"$dir/time"
	best_of "$real" --collapse || failed=1
	ft_t=$best
	ft_c=$bestcpu
	load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
	awk -v s="$sc_t" -v su="$sc_u" -v ss="$sc_s" -v f="$ft_t" -v fc="$ft_c" \
	    -v l0="$load0" -v l1="$load1" -v n="$(nproc 2>/dev/null)" 'BEGIN {
		if (f <= 0) f = 0.01
		if (fc <= 0) fc = 0.01
		printf "   same run (%s CPUs, load %s then %s):\n", n, l0, l1
		printf "     stackcollapse-perf.pl %6.2f s wall, %6.2f s CPU\n", s, su + ss
		printf "     flametop --collapse   %6.2f s wall, %6.2f s CPU\n", f, fc
		printf "     %.1fx in wall time (target >= 40x), %.1fx in CPU time\n", s / f, (su + ss) / fc
	}'
else
	echo "   stackcollapse-perf.pl not found on PATH nor in \$FLAMEGRAPH_DIR: skipped;"
	echo "   the ratios above are against its recorded figure ($sc_mbs MB/s on this machine)"
fi
# ---- end of the stackcollapse-perf.pl block ------------------------------
exit "$failed"
