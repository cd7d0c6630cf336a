# pprof-common.sh - sourced by bench-pprof.sh and bench-svg.sh: a synthetic
# pprof file from BUILDDIR/tools/gen-pprof, and a timer.
export LC_ALL=C
gen=$build/tools/gen-pprof
dir=$build/bench
if [ ! -x "$gen" ]; then
	echo "   SKIP: $gen not built (make tests-bin)"
	exit 0
fi
if [ ! -x /usr/bin/time ]; then
	echo "   SKIP: /usr/bin/time missing (apt-get install time)"
	exit 0
fi
mkdir -p "$dir" || exit 1

# make_pprof FILE SAMPLES STACKS: (re)generate unless made by the same
# generator source with the same arguments.
make_pprof() {
	stamp="$(cksum < tests/tools/gen-pprof.c) $2 $3"
	if [ -s "$1" ] && [ "$(cat "$1.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	"$gen" "$2" "$3" "$1.tmp" >/dev/null && mv "$1.tmp" "$1" ||
		{ echo "   cannot generate $1"; rm -f "$1.tmp"; exit 1; }
	echo "$stamp" > "$1.stamp"
}

# timed LABEL ARGS...: best of 3 wall-clock and CPU (user + system) times
# and the largest peak RSS of BIN ARGS (stdout to $dir/out); sets $best,
# $cpu, $mb.  Returns 1 when BIN failed.
timed() {
	label=$1
	shift
	best=1e30
	cpu=1e30
	rss=0
	for run in 1 2 3; do
		/usr/bin/time -f '%e %M %U %S' -o "$dir/time.out" \
			"$bin" "$@" >"$dir/out" 2>"$dir/err" || {
			printf '   %-36s FAILED: %s\n' "$label" "$(head -n 1 "$dir/err")"
			return 1
		}
		read -r t m u k < "$dir/time.out"
		best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a + 0 < b + 0) ? a : b }')
		cpu=$(awk -v a="$u" -v s="$k" -v b="$cpu" 'BEGIN { c = a + s; print (c < b + 0) ? c : b }')
		[ "$m" -gt "$rss" ] && rss=$m
	done
	mb=$((rss / 1024))
	return 0
}

# verdict LIMIT: ok when the best wall time is within LIMIT seconds.
verdict() {
	awk -v t="$best" -v c="$cpu" -v lim="$1" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
		'BEGIN { if (t <= lim) print "ok"
			 else if (c <= lim) print "MISSED (busy machine, load " l "; CPU time ok)"
			 else print "MISSED (load " l ")" }'
}
