#!/bin/sh
# Run the cmocka unit tests of one build; count their test cases.
build=${1:?usage: run.sh BUILDDIR}
pass=0
fail=0
for t in "$build"/unit/test-*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1)
	rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	if [ "$f" -ne 0 ]; then
		echo "FAIL $(basename "$t"):"
		printf '%s\n' "$out" | grep -E 'FAIL|ERROR|error|Sanitizer|runtime error' | head -n 20
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
