#!/bin/sh
# bench-svg.sh - time and size of --svg on a 300,000-stack profile.
#
# usage: tests/bench/bench-svg.sh BUILDDIR BIN
#
# A synthetic pprof file of 300,000 samples over 300,000 stacks (so nearly
# every sample is a stack of its own), from BUILDDIR/tools/gen-pprof; times
# BIN --svg (load, lay out at 0.1 px, write), best of 3, against loading
# alone (--collapse), and reports the SVG's size and frame count.
# Target: <= 2 s and <= 20 MB.  Reports; never fails.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
. "$(dirname "$0")/pprof-common.sh"
file=$dir/synth-300k.pprof
make_pprof "$file" 300000 300000
echo "   target: --svg of 300,000 stacks in <= 2 s, <= 20 MB written"
timed "load" --collapse "$file" &&
	printf '   %-28s %6.2f s %6.2f s cpu %6d MB\n' "load (--collapse)" \
		"$best" "$cpu" "$mb"
if timed "svg" --svg - "$file"; then
	size=$(wc -c < "$dir/out")
	frames=$(grep -c '<g class="f"' "$dir/out")
	printf '   %-28s %6.2f s %6.2f s cpu %6d MB  %s\n' "--svg" "$best" "$cpu" \
		"$mb" "$(verdict 2)"
	printf '   SVG: %s MB, %d frames  %s\n' \
		"$(awk -v b="$size" 'BEGIN { printf "%.2f", b / 1e6 }')" "$frames" \
		"$(awk -v b="$size" 'BEGIN { print (b <= 20e6) ? "ok" : "MISSED" }')"
fi
rm -f "$dir/out" "$dir/err" "$dir/time.out"
exit 0
