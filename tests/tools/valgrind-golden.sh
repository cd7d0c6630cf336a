#!/bin/sh
# valgrind-golden.sh - the golden and bad-input cases under valgrind.
#
# usage: tests/tools/valgrind-golden.sh BIN [DIR...]
#
# Runs every case of tests/golden and tests/bad (or of the DIRs given; the
# case format is the one tests/golden/run.sh reads) with
#   valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect
# and checks, for each, that valgrind found no memory error and no leak,
# and that the exit status, standard output and standard error are still
# the expected ones.  Prints each failure with valgrind's report, then
# "N passed, N failed" (or "SKIP: ..." without valgrind).  Use a build
# without sanitizers (the release build).  Slow: about a second per case.
bin=${1:?usage: $0 BIN [DIR...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed (apt-get install valgrind)"
	exit 0
fi
[ $# -eq 0 ] && set -- "$top/tests/golden" "$top/tests/bad"
VGERR=97
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8

for dir in "$@"; do
	(
	cd "$dir" || exit 1
	for a in *.args; do
		[ -e "$a" ] || continue
		name=${a%.args}
		args=$(cat "$a")
		want_status=0
		[ -f "$name.status" ] && want_status=$(cat "$name.status")
		in=/dev/null
		[ -f "$name.stdin" ] && in=$name.stdin
		eval "set -- $args"
		valgrind -q --leak-check=full \
			--errors-for-leak-kinds=definite,indirect \
			--error-exitcode=$VGERR --log-file="$tmp/vg" \
			"$bin" "$@" <"$in" >"$tmp/out" 2>"$tmp/err"
		status=$?
		why=
		if [ "$status" = $VGERR ]; then
			why="valgrind found errors"
		elif [ "$status" != "$want_status" ]; then
			why="exit status $status, want $want_status"
		fi
		if [ -f "$name.out" ] && ! cmp -s "$name.out" "$tmp/out"; then
			why="$why; stdout differs"
		fi
		if [ -f "$name.err" ] && ! cmp -s "$name.err" "$tmp/err"; then
			why="$why; stderr differs"
		fi
		if [ -z "$why" ]; then
			echo "pass $dir/$name"
		else
			echo "FAIL $dir/$name: ${why#; }"
			sed 's/^/    /' "$tmp/vg" | head -n 40
		fi
	done
	)
done >"$tmp/log"
pass=$(grep -c '^pass ' "$tmp/log")
fail=$(grep -c '^FAIL ' "$tmp/log")
grep -v '^pass ' "$tmp/log"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
