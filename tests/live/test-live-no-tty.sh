#!/bin/sh
# test-live-no-tty.sh - a command run with flametop's standard output
# redirected and no --collapse, --text or -d: the view cannot open, so
# flametop says so (the redirection is flametop's, not the command's) and
# exits 2 before starting the command, instead of sampling unseen until
# the command ends.  With --collapse, or -d, it samples and prints.
#
# usage: tests/live/test-live-no-tty.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

# The command leaves a mark when it runs; timeout bounds a flametop that
# would sample it to its end.
timeout 60 "$BIN" -- sh -c "touch '$work/ran'; exec '$TARGET' 5" \
	>"$work/out" 2>"$work/err"
rc=$?
check "stdout a file, no --collapse: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "stdout a file, no --collapse: the command did not run" [ ! -e "$work/ran" ]
check "stdout a file, no --collapse: nothing on stdout" [ ! -s "$work/out" ]
check "stdout a file, no --collapse: says standard output is not a terminal" \
	grep -q "^flametop: standard output is not a terminal" "$work/err"
check "stdout a file, no --collapse: names --collapse and the inner redirection" \
	grep -q -- "--collapse.*sh -c 'COMMAND > FILE'" "$work/err"
# The same through a pipe.
timeout 60 "$BIN" -- sh -c "touch '$work/ran'; exec '$TARGET' 5" 2>"$work/err" |
	cat >"$work/out"
check "stdout a pipe: the command did not run" [ ! -e "$work/ran" ]
check "stdout a pipe: says so" grep -q "not a terminal" "$work/err"

# Asked to print: it samples the command to its end.
for opt in --collapse -d; do
	arg=
	[ "$opt" = -d ] && arg=60
	rm -f "$work/ran"
	timeout 120 "$BIN" -F 997 $opt $arg -- sh -c "touch '$work/ran'; exec '$TARGET' 0.2" \
		>"$work/out" 2>"$work/err"
	rc=$?
	check "$opt: exit 0 (got $rc: $(head -c 160 "$work/err"))" [ "$rc" -eq 0 ]
	check "$opt: the command ran" [ -e "$work/ran" ]
	check "$opt: the profile printed" grep -q spin_hot "$work/out"
done
finish
