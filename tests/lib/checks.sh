# checks.sh - the counting every test group's script shares; source it
# (". tests/lib/checks.sh") and end with "summary".
#   ok / bad WHAT       count a pass, or a failure (printed)
#   check NAME CMD...   the command succeeds
#   same A B            files A and B are equal (else their diff, status 1)
#   summary             prints "N passed, N failed" and returns the verdict
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() {
	name=$1
	shift
	if "$@"; then ok; else bad "$name"; fi
}
same() { cmp -s "$1" "$2" || { diff -u "$1" "$2" | head -n 10; return 1; }; }
summary() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
