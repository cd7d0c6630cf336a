#!/bin/sh
# test-live-perm-errors.sh - sampling refused to an unprivileged user: a
# runtime error (exit 1, one line naming the cause and the fix), never the
# usage text and exit 2, which are for bad usage; and at
# kernel.perf_event_paranoid=3 the message names what the kernel's refusal
# means for the call made (another user's process, system-wide sampling),
# not the level, on a kernel that still lets users sample their own tasks
# at 3.
#
# Runs as root only (it sets kernel.perf_event_paranoid, and puts it back
# however the test ends) with setpriv to become nobody.
#
# usage: tests/live/test-live-perm-errors.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

need_root_and_nobody
# refused NAME ARGS...: nobody runs flametop ARGS; it must exit 1 with a
# message on stderr and without the usage text.
refused() {
	name=$1
	shift
	as_nobody "$work/flametop" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	check "$name: exit 1 (got $rc: $(head -c 160 "$work/err"))" [ "$rc" -eq 1 ]
	check "$name: no usage text" sh -c "! grep -q '^usage:' '$work/err'"
	check "$name: says why" grep -q '^flametop: ' "$work/err"
	check "$name: no profile on stdout" [ ! -s "$work/out" ]
}

# ---- paranoid 2: refusals are runtime errors -----------------------------
echo 2 >"$PAR"
refused "nobody -e sched:sched_switch -a" -e sched:sched_switch -a -d 1 --collapse
refused "nobody -a" -a -d 1 --collapse
refused "nobody -p 1" -p 1 -d 1 --collapse
check "nobody -p 1: says pid 1 belongs to another user" \
	grep -q "process 1 (owned by another user)" "$work/err"
refused "nobody --off-cpu" --off-cpu -d 1 --collapse -- sleep 0.1
# Bad usage is still bad usage, whoever runs it.
as_nobody "$work/flametop" -e no-such-event -d 1 --collapse -- sleep 0.1 \
	>/dev/null 2>"$work/err"
rc=$?
check "nobody -e no-such-event: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "nobody -e no-such-event: usage text" grep -q '^usage:' "$work/err"

# ---- paranoid 3: the cause, not the level --------------------------------
echo 3 >"$PAR"
if as_nobody "$work/flametop" -F 997 -d 30 --collapse -- "$TARGET" 0.2 \
	>"$work/own.folded" 2>"$work/own.err" && [ -s "$work/own.folded" ]; then
	# This kernel takes 3 as 2: a user's own command is sampled, so a
	# refusal elsewhere has another cause than "disabled".
	refused "paranoid 3, nobody -p 1" -p 1 -d 1 --collapse
	check "paranoid 3, nobody -p 1: says pid 1 belongs to another user" \
		grep -q "process 1 (owned by another user)" "$work/err"
	check "paranoid 3, nobody -p 1: does not say perf events are disabled" \
		sh -c "! grep -q 'disabled' '$work/err'"
	refused "paranoid 3, nobody -a" -a -d 1 --collapse
	check "paranoid 3, nobody -a: names system-wide sampling" \
		grep -q "system-wide.*perf_event_paranoid=3" "$work/err"
	check "paranoid 3, nobody -a: does not say perf events are disabled" \
		sh -c "! grep -q 'disabled' '$work/err'"
else
	# A kernel that refuses users everything at 3: that is the cause.
	refused "paranoid 3 (refusing kernel), nobody -p 1" -p 1 -d 1 --collapse
	check "paranoid 3 (refusing kernel): says perf events are disabled" \
		grep -q "disabled (kernel.perf_event_paranoid=3" "$work/err"
fi
echo "$old_paranoid" >"$PAR"
finish
