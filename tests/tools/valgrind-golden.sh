#!/bin/sh
# valgrind-golden.sh - the golden and bad-input cases under valgrind.
#
# usage: tests/tools/valgrind-golden.sh BIN [DIR...]
#
# Runs every case of tests/golden and tests/bad (or of the DIRs given)
# through tests/golden/run.sh with VALGRIND=1: each must still give its
# expected output and status, with no memory error and no leak.  Use a
# build without sanitizers.  Prints "N passed, N failed", or "SKIP: ..."
# without valgrind.
bin=${1:?usage: $0 BIN [DIR...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed (apt-get install valgrind)"
	exit 0
fi
[ $# -eq 0 ] && set -- "$top/tests/golden" "$top/tests/bad"
pass=0
fail=0
# The folders run side by side: valgrind runs one process on one CPU.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for dir in "$@"; do
	i=$((i + 1))
	VALGRIND=1 "$top/tests/golden/run.sh" "$bin" "$dir" >"$tmp/$i" 2>&1 &
done
wait
i=0
for dir in "$@"; do
	i=$((i + 1))
	out=$(cat "$tmp/$i")
	printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed'
	line=$(printf '%s\n' "$out" | tail -n 1)
	case $line in
	*" passed, "*" failed") ;;
	*) echo "FAIL $dir: no count ($line)"; fail=$((fail + 1)); continue ;;
	esac
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*}))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
