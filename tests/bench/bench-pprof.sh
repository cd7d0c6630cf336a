#!/bin/sh
# bench-pprof.sh - load time of a large pprof profile.
#
# usage: tests/bench/bench-pprof.sh BUILDDIR BIN
#
# Generates (once per generator source) a synthetic pprof file of 1,000,000
# samples over 300,000 distinct stacks, about 50 MB of protobuf, with
# BUILDDIR/tools/gen-pprof; then times BIN --text --width 200 (decode, build
# the tree, lay out, print) and --collapse, best of 3, with the peak
# resident memory.  Target: loads in 1 s.  Beside them, as a yardstick on a
# busy machine, the same measure of `gzip -dc` of the gzip'd file and of
# BIN --collapse on the folded stacks of the same profile: compare ratios,
# not seconds, when the load average is high.  Reports; never fails.
build=${1:?usage: $0 BUILDDIR BIN}
bin=${2:?usage: $0 BUILDDIR BIN}
. "$(dirname "$0")/pprof-common.sh"
file=$dir/synth.pprof
make_pprof "$file" 1000000 300000
printf '   input: 1,000,000 samples, 300,000 stacks, %s MB of protobuf\n' \
	"$(awk -v b="$(wc -c < "$file")" 'BEGIN { printf "%.1f", b / 1e6 }')"
echo "   target: loads in <= 1 s (time: wall, best of 3; cpu: user + system)"
for args in "--text --width 200" "--collapse"; do
	# shellcheck disable=SC2086
	timed "$args" $args "$file" || continue
	printf '   %-28s %6.2f s %6.2f s cpu %6d MB  %s\n' "$args" "$best" \
		"$cpu" "$mb" "$(verdict 1)"
done
if command -v gzip >/dev/null 2>&1; then
	[ -s "$file.gz" ] && [ "$file.gz" -nt "$file" ] || gzip -6 -c "$file" > "$file.gz"
	timed "gz" --text --width 200 "$file.gz" &&
		printf '   %-28s %6.2f s %6.2f s cpu %6d MB\n' "--text, gzip'd" \
			"$best" "$cpu" "$mb"
fi
# Yardsticks, measured the same way in the same run.
if [ -s "$file.gz" ]; then
	bin_saved=$bin
	bin=gzip
	timed "gzip -dc" -dc "$file.gz" &&
		printf '   %-28s %6.2f s %6.2f s cpu %6d MB  (yardstick)\n' \
			"gzip -dc of the .gz" "$best" "$cpu" "$mb"
	bin=$bin_saved
fi
[ -s "$file.folded" ] && [ "$file.folded" -nt "$file" ] ||
	"$bin" --collapse "$file" > "$file.folded" 2>/dev/null
timed "folded" --collapse "$file.folded" &&
	printf '   %-28s %6.2f s %6.2f s cpu %6d MB  (yardstick, %s MB)\n' \
		"--collapse, same as folded" "$best" "$cpu" "$mb" \
		"$(awk -v b="$(wc -c < "$file.folded")" 'BEGIN { printf "%.0f", b / 1e6 }')"
echo "   load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$dir/out" "$dir/err" "$dir/time.out"
exit 0
