#!/bin/sh
# Golden-text tests: each case NAME in DIR (default tests/golden) is
#   NAME.args     the command-line arguments, one line, run from DIR
#   NAME.stdin    optional: fed to standard input
#   NAME.out      optional: the exact standard output expected
#   NAME.err      optional: the exact standard error expected
#   NAME.status   optional: the exit status expected (default 0)
# With VALGRIND=1 in the environment every case runs under
# valgrind --leak-check=full, and a memory error or leak fails the case.
bin=${1:?usage: run.sh FLAMETOP [DIR]}
dir=${2:-tests/golden}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
pass=0
# --text without -w follows COLUMNS, then the terminal: pin it; amounts
# may hold µ, so the locale is UTF-8.
COLUMNS=100
LC_ALL=C.UTF-8
export COLUMNS LC_ALL
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
	if [ -n "${VALGRIND:-}" ]; then
		: >"$tmp/vg"
		set -- valgrind -q --leak-check=full \
			--errors-for-leak-kinds=definite,indirect \
			--error-exitcode=97 --log-file="$tmp/vg" "$bin" "$@"
	else
		set -- "$bin" "$@"
	fi
	"$@" <"$in" >"$tmp/out" 2>"$tmp/err"
	status=$?
	ok=1
	why=""
	if [ -s "$tmp/vg" ] || { [ -n "${VALGRIND:-}" ] && [ "$status" = 97 ]; }; then
		ok=0; why="valgrind found errors"
	elif [ "$status" != "$want_status" ]; then
		ok=0; why="exit status $status, want $want_status"
	fi
	if [ -f "$name.out" ] && ! cmp -s "$name.out" "$tmp/out"; then
		ok=0; why="$why; stdout differs"
	fi
	if [ -f "$name.err" ] && ! cmp -s "$name.err" "$tmp/err"; then
		ok=0; why="$why; stderr differs"
	fi
	if [ "$ok" = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $dir/$name: $why"
		[ -f "$name.out" ] && diff -u "$name.out" "$tmp/out" | head -n 15
		[ -f "$name.err" ] && diff -u "$name.err" "$tmp/err" | head -n 15
		grep -E 'Sanitizer|runtime error' "$tmp/err" | head -n 5
		[ -s "$tmp/vg" ] && head -n 40 "$tmp/vg"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
