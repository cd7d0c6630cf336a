#!/bin/sh
# Replay each fuzz target's corpus (tests/fuzz/corpus/TARGET/, plus the
# seed files it names in tests/fuzz/TARGET.seeds) through the replay build
# of the target: one test per target, failed on any crash or sanitizer
# report.
build=${1:?usage: replay.sh BUILDDIR}
pass=0
fail=0
for r in "$build"/fuzz/replay-fuzz-*; do
	[ -x "$r" ] || continue
	name=${r##*/replay-}
	files=""
	[ -d "tests/fuzz/corpus/$name" ] && files=$(find "tests/fuzz/corpus/$name" -type f)
	if [ -f "tests/fuzz/$name.seeds" ]; then
		for pat in $(grep -v '^#' "tests/fuzz/$name.seeds"); do
			for f in $pat; do [ -f "$f" ] && files="$files $f"; done
		done
	fi
	if [ -z "$files" ]; then
		echo "FAIL $name: empty corpus"
		fail=$((fail + 1))
		continue
	fi
	# shellcheck disable=SC2086
	if out=$("$r" $files 2>&1); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name:"
		printf '%s\n' "$out" | tail -n 20
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
