#!/bin/sh
# run.sh - run every libFuzzer target for SECONDS each (default 60).
#
# usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
#
# Builds the targets with clang (ASan + UBSan + libFuzzer) under
# build/fuzz, seeds a working corpus from tests/fuzz/corpus/TARGET and the
# files named by tests/fuzz/TARGET.seeds, and runs each target.  Crashing
# inputs are left in build/fuzz/crashes/; copy them into
# tests/fuzz/corpus/TARGET/ (as regression inputs that `make check`
# replays) once fixed.  Prints executions, corpus size and crashes per
# target; exits 1 if any target crashed.
secs=${1:-60}
[ $# -gt 0 ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
command -v clang >/dev/null 2>&1 || tests/tools/deps.sh cmd:clang:clang || exit 1
[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
	tests/tools/deps.sh file:/nonexistent-libfuzzer:libclang-rt-dev || exit 1
make --no-print-directory O=build/fuzz CC=clang \
	SANITIZE=address,undefined,fuzzer-no-link fuzz-bins || exit 1
mkdir -p build/fuzz/crashes
status=0
targets=$*
[ -n "$targets" ] || targets=$(cd tests/fuzz && ls fuzz-*.c | sed 's/\.c$//')
for t in $targets; do
	bin=build/fuzz/san/libfuzzer/$t
	work=build/fuzz/corpus/$t
	mkdir -p "$work"
	[ -d "tests/fuzz/corpus/$t" ] && cp -n tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null
	if [ -f "tests/fuzz/$t.seeds" ]; then
		for pat in $(grep -v '^#' "tests/fuzz/$t.seeds"); do
			for f in $pat; do
				[ -f "$f" ] && cp -n "$f" "$work/seed-$(echo "$f" | tr / _)"
			done
		done
	fi
	log=build/fuzz/$t.log
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
		-max_len=1048576 -artifact_prefix="build/fuzz/crashes/$t-" \
		-print_final_stats=1 "$work" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	files=$(ls "$work" | wc -l)
	crashes=$(ls build/fuzz/crashes/ 2>/dev/null | grep -c "^$t-")
	printf '%-22s %s: %s runs in %ss, corpus %s files, %s crash file(s)\n' \
		"$t" "$([ $rc -eq 0 ] && echo ok || echo FAILED)" "${execs:-?}" \
		"$secs" "$files" "$crashes"
	if [ $rc -ne 0 ]; then
		status=1
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 5 | sed 's/^/    /'
	fi
done
exit $status
