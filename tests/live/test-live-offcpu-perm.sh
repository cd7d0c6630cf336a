#!/bin/sh
# test-live-offcpu-perm.sh - --off-cpu and --wall as an unprivileged user:
# where kernel.perf_event_paranoid keeps the kernel's context-switch
# samples from the user (2), flametop says so, names the fix and exits 1
# (not an empty profile and 0); where it allows them (1), a user's own
# command is measured: two sleeps of 1 s and 0.5 s block at least 1.5 s.
#
# Runs as root only (it sets kernel.perf_event_paranoid, and puts it back
# however the test ends) with setpriv to become nobody.
#
# usage: tests/live/test-live-offcpu-perm.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

need_root_and_nobody
SLEEPS='sleep 1; sleep 0.5'

# ---- paranoid 2: no kernel samples for users ---------------------------------
echo 2 >"$PAR"
for opt in --off-cpu --wall; do
	as_nobody "$work/flametop" $opt -d 3 --collapse -- sh -c "$SLEEPS" \
		>"$work/out" 2>"$work/err"
	rc=$?
	check "paranoid 2, nobody $opt: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "paranoid 2, nobody $opt: no profile on stdout" [ ! -s "$work/out" ]
	check "paranoid 2, nobody $opt: names perf_event_paranoid=2 and CAP_PERFMON" \
		grep -q -e "$opt.*perf_event_paranoid=2.*CAP_PERFMON" "$work/err"
done

# ---- paranoid 1: a user's own command, kernel samples allowed -----------------
echo 1 >"$PAR"
as_nobody "$work/flametop" --off-cpu -d 5 --collapse -- sh -c "$SLEEPS" \
	>"$work/out" 2>"$work/err"
rc=$?
check "paranoid 1, nobody --off-cpu: exit 0 ($(head -n 1 "$work/err"))" [ "$rc" -eq 0 ]
s=$(awk '/^sleep;.*nanosleep/ { w += $NF } END { printf "%.0f\n", w / 1e6 }' "$work/out")
check "paranoid 1, nobody --off-cpu: the sleeps block $s ms (1500 to 3000)" \
	within "$s" 1500 3000
echo "$old_paranoid" >"$PAR"
finish
