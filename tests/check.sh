#!/bin/sh
# check.sh - run every test group and print one closing line,
# "N passed, N failed".
#
# usage: tests/check.sh BUILDDIR BIN [SAN_BUILDDIR SAN_BIN]
#
# Each group is a script that prints "N passed, N failed" as its last line
# (and what failed above it); a group may print "SKIP: reason" instead when
# it cannot run here.  With a second build (the sanitizer build), every group
# runs again against it.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
pass=0
fail=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=87}
export LC_ALL=C.UTF-8

group() {
	label=$1
	shift
	log=$(mktemp)
	start=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	skip=$(grep -E '^SKIP:' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
		# A group that exits non-zero without counting a failure failed once.
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	elif [ -n "$skip" ]; then
		printf '  %-24s %s\n' "$label" "$skip"
		rm -f "$log"
		return
	else
		p=0
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	printf '  %-24s %s passed, %s failed (%ss)\n' "$label" "$p" "$f" "$secs"
	if [ "$f" -ne 0 ]; then
		grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 60 | sed 's/^/      /'
	fi
	rm -f "$log"
}

run_suite() {
	build=$1
	bin=$2
	tag=$3
	# An absolute path: "flametop" alone would be looked up in PATH.
	case $bin in /*) ;; *) bin=$top/$bin ;; esac
	group "unit [$tag]" tests/unit/run.sh "$build"
	group "golden [$tag]" tests/golden/run.sh "$bin"
	group "bad input [$tag]" tests/golden/run.sh "$bin" tests/bad
	group "fuzz corpora [$tag]" tests/fuzz/replay.sh "$build"
	group "hostile input [$tag]" tests/hostile/run.sh "$bin"
	group "pprof and svg [$tag]" tests/pprof/run.sh "$bin"
	group "pprof labels [$tag]" tests/pprof/labels.sh "$bin"
	group "pprof out [$tag]" tests/pprof-out/run.sh "$bin"
	group "annotate [$tag]" tests/annotate/run.sh "$bin"
	group "cpuprofile [$tag]" tests/cpuprofile/run.sh "$bin"
	group "http [$tag]" tests/http/run.sh "$bin"
	group "thread count [$tag]" tests/threads/run.sh "$bin"
	group "diff [$tag]" tests/diff/run.sh "$bin"
	group "consistency [$tag]" tests/consistency/run.sh "$bin"
	group "disasm vs perf [$tag]" tests/disasm/run.sh "$bin"
	if [ -d ../shared/conformance ]; then
		group "conformance [$tag]" ../shared/conformance/run-stackcollapse-perf.sh "$bin"
	else
		printf '  %-24s %s\n' "conformance [$tag]" \
			"SKIP: ../shared/conformance not found beside this clone"
	fi
	for t in tests/tui/test-*.sh; do
		[ -e "$t" ] || continue
		group "tui $(basename "$t" .sh) [$tag]" "$t" "$bin"
	done
	for t in tests/live/test-*.sh; do
		[ -e "$t" ] || continue
		group "live $(basename "$t" .sh) [$tag]" "$t" "$bin"
	done
}

echo "flametop tests"
run_suite "$1" "$2" release
group "valgrind golden [release]" tests/tools/valgrind-golden.sh "$2"
group "bench quick [release]" tests/bench/quick.sh "$1" "$2"
if [ -n "$3" ]; then
	echo "again under AddressSanitizer and UBSan"
	run_suite "$3" "$4" asan+ubsan
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
