#!/bin/sh
# test-live-pprof.sh - live sampling written with --pprof, read back by
# go tool pprof -raw (when go is installed) and by flametop: a command
# sampled every 1 ms of CPU time (-c), a running process (-p), an event
# (page-faults), a view (--include), --lines (the target a mapping with
# its build-id, lines as Line records) and a path that cannot be written
# (said before sampling).
#
# usage: tests/live/test-live-pprof.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

HOT='main;run_worker;work_hot;spin_hot'
raw2folded=$here/../pprof/raw2folded.py
have_go=
if command -v go >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	have_go=1
else
	echo "SKIP (in part): go is not installed (Debian golang-go): no reading by go tool pprof"
fi

# readback NAME FILE TYPES: flametop reads FILE; go tool pprof -raw reads
# it with sample types TYPES and the same stacks and weights.  Leaves
# flametop's --collapse of FILE in $work/back.folded.
readback() {
	"$BIN" --collapse "$2" >"$work/back.folded" 2>"$work/back.err"
	check "$1: flametop reads it ($(head -n 1 "$work/back.err"))" \
		test $? = 0 -a -s "$work/back.folded"
	[ -n "$have_go" ] || return 0
	if ! go tool pprof -symbolize=none -raw "$2" >"$work/raw" 2>"$work/raw.err"; then
		bad "$1: go tool pprof -raw reads it ($(head -n 1 "$work/raw.err"))"
		return 1
	fi
	got=$(sed -n '/^Samples:/{n;p;}' "$work/raw")
	check "$1: sample types '$got'" test "$got" = "$3"
	dflt=$(printf '%s\n' "$3" | tr ' ' '\n' | sed -n 's#/.*\[dflt\]##p')
	python3 "$raw2folded" "$dflt" <"$work/raw" >"$work/raw.folded"
	check "$1: go tool pprof -raw has the same stacks and weights" \
		cmp -s "$work/back.folded" "$work/raw.folded"
}

# ---- a command, one sample every 1 ms of CPU time -------------------------
"$BIN" -c 1000000 -d 120 --pprof "$work/cmd.pb.gz" -- "$TARGET" 1 \
	>"$work/cmd.out" 2>"$work/cmd.err"
rc=$?
check "command: exit status 0 ($(head -n 1 "$work/cmd.err"))" [ "$rc" -eq 0 ]
check "command: nothing on standard output" test ! -s "$work/cmd.out"
readback "command" "$work/cmd.pb.gz" "samples/count cpu/nanoseconds[dflt]"
check "command: hot path present" grep -q "^live-target;.*$HOT [0-9]*$" \
	"$work/back.folded"
h=$(near "$work/back.folded" "$HOT" 66.7 1000000)
check "command: hot share $h" near_ok "$work/back.folded" "$HOT" 66.7 1000000
if [ -n "$have_go" ]; then
	# -c: each sample weighs one period, so the columns agree exactly.
	check "command: cpu = samples x 1 ms, in every sample" awk '
		/^Samples:/ { s = 1; getline; next } /^Locations/ { s = 0 }
		s && /:/ { n++; if ($2 + 0 != $1 * 1000000) bad = 1 }
		END { exit bad || n == 0 }' "$work/raw"
fi

# ---- -p on a running process ------------------------------------------------
"$TARGET" 4 &
tpid=$!
"$BIN" -p "$tpid" -d 1 --pprof "$work/pid.pb.gz" 2>"$work/pid.err"
rc=$?
kill "$tpid" 2>/dev/null
wait "$tpid" 2>/dev/null
check "-p: exit status 0 ($(head -n 1 "$work/pid.err"))" [ "$rc" -eq 0 ]
readback "-p" "$work/pid.pb.gz" "samples/count cpu/nanoseconds[dflt]"
check "-p: hot path present" grep -q "$HOT [0-9]*$" "$work/back.folded"

# ---- an event: its counts -----------------------------------------------------
"$BIN" -e page-faults -d 60 --pprof "$work/pf.pb.gz" -- "$TARGET" 0.2 \
	2>"$work/pf.err"
rc=$?
check "page-faults: exit status 0 ($(head -n 1 "$work/pf.err"))" [ "$rc" -eq 0 ]
readback "page-faults" "$work/pf.pb.gz" "samples/count page-faults/count[dflt]"

# ---- a view ---------------------------------------------------------------------
"$BIN" -c 1000000 -d 120 --include work_cold --pprof "$work/view.pb.gz" \
	-- "$TARGET" 0.5 2>"$work/view.err"
rc=$?
check "--include: exit status 0 ($(head -n 1 "$work/view.err"))" [ "$rc" -eq 0 ]
readback "--include" "$work/view.pb.gz" "samples/count cpu/nanoseconds[dflt]"
check "--include: every stack has work_cold" awk \
	'!/work_cold/ { bad = 1 } END { exit bad || NR == 0 }' "$work/back.folded"

# ---- the binary as a mapping with its build-id, lines as Line records -------
"$BIN" -c 1000000 -d 120 --lines --pprof "$work/lines.pb.gz" -- "$TARGET" 0.3 \
	2>"$work/lines.err"
rc=$?
check "--lines: exit status 0 ($(head -n 1 "$work/lines.err"))" [ "$rc" -eq 0 ]
if [ -n "$have_go" ]; then
	go tool pprof -symbolize=none -raw "$work/lines.pb.gz" >"$work/raw" 2>/dev/null
	python3 "$here/../pprof-out/raw-mappings.py" <"$work/raw" >"$work/maps"
	bid=$(readelf -n "$TARGET" 2>/dev/null | sed -n 's/.*Build ID: *//p')
	if [ -n "$bid" ]; then
		check "--lines: the target is a mapping with its build-id $bid" \
			grep -qxF "map $TARGET $bid" "$work/maps"
	else
		echo "SKIP (in part): no readelf or no build-id in the target"
	fi
	check "--lines: its locations have addresses in the mapping ($(grep -c "^at $TARGET " "$work/maps"))" \
		grep -q "^at $TARGET " "$work/maps"
	check "--lines: no address outside its mapping" \
		sh -c "! grep -q '^out' '$work/maps'"
	check "--lines: spin_hot's line is a Line record" grep -Eq \
		" M=[0-9]+ spin_hot [^ ]*live-target\\.c:[1-9][0-9]* s=" "$work/raw"
	"$BIN" --lines --collapse "$work/lines.pb.gz" >"$work/back.folded" 2>/dev/null
	python3 "$raw2folded" cpu --lines <"$work/raw" >"$work/raw.folded"
	check "--lines: read back with --lines, go tool pprof and flametop agree" \
		sh -c "grep -q 'spin_hot live-target.c:' '$work/back.folded' &&
		       cmp -s '$work/back.folded' '$work/raw.folded'"
fi

# ---- a path that cannot be written: said at once, nothing run ----------------
"$BIN" -d 60 --pprof "$work/none/out.pb.gz" -- sh -c "touch '$work/ran'" \
	2>"$work/bad.err"
rc=$?
check "bad path: exit status 1" [ "$rc" -eq 1 ]
check "bad path: says why ($(cat "$work/bad.err"))" grep -q \
	"^flametop: $work/none/out.pb.gz: cannot write: No such file or directory" \
	"$work/bad.err"
check "bad path: the command was not run" test ! -e "$work/ran"
finish
