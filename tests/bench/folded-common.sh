# folded-common.sh - sourced by the benchmarks of large folded files
# (bench-folded.sh, bench-diff.sh) after they set build and bin: the
# generator, where files go, the quick mode, and gen FILE ARGS...
gen=$build/tools/gen-folded
dir=$build/bench
# BENCH_QUICK=1 (make check): 2,000 stacks, one run, no verdict.
runs="1 2 3"
size=
if [ -n "${BENCH_QUICK:-}" ]; then
	dir=$build/bench-quick
	runs=1
	size="-n 2000"
fi
failed=0
export LC_ALL=C

if [ ! -x "$gen" ]; then
	echo "   SKIP: $gen not built (make O=... tests-bin)"
	exit 0
fi
if [ ! -x /usr/bin/time ]; then
	echo "   SKIP: /usr/bin/time missing (apt-get install time)"
	exit 0
fi
mkdir -p "$dir" || exit 1

# gen FILE [--shuffle]: (re)generate FILE unless it was made by the same
# generator source (the tool is relinked whenever src/ changes).
src_sum=$(cksum < tests/tools/gen-folded.c 2>/dev/null)
gen() {
	out=$1
	shift
	if [ -s "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$src_sum $*" ]; then
		return 0
	fi
	rm -f "$out.stamp"
	t0=$(date +%s%N)
	"$gen" "$@" -o "$out.tmp" && mv "$out.tmp" "$out" || {
		echo "   cannot generate $out"
		rm -f "$out.tmp"
		exit 1
	}
	t1=$(date +%s%N)
	echo "$src_sum $*" > "$out.stamp"
	printf '   generated %s in %s s\n' "$out" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
}
