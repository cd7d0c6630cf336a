#!/bin/sh
# test-top-perf-report.sh - flametop --top against perf report on the same
# perf.data: `perf report --stdio --children --sort dso,sym -g none`, its
# rows added up per function name (one function can have a row per map of
# its binary; a symbol version such as @@GLIBC_2.2.5 is dropped, as
# flametop drops it, while a PLT stub's "@plt" stays), must give every
# function of 0.5 % or more the same self and children percentages as
# flametop's self and total, within 0.3 points.
# Files: tests/data/fp.data (its program copied where perf recorded it),
# and, where perf record is permitted, fresh recordings of that program
# and of tests/data/plt-loop.c (time spent in libc through the PLT).
#
# usage: tests/live/test-top-perf-report.sh FLAMETOP_BINARY
BIN=${1:?usage: $0 FLAMETOP_BINARY}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
data=$(cd "$(dirname "$0")/../data" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-top.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
export LC_ALL=C

if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed"
	exit 0
fi

# compare LABEL FILE: every perf report function against flametop --top.
compare() {
	label=$1
	file=$2
	if ! perf report -i "$file" --stdio --children --sort dso,sym -g none \
		>"$work/report" 2>"$work/report.err"; then
		echo "FAIL: $label: perf report: $(head -n 1 "$work/report.err")"
		fail=$((fail + 1))
		return
	fi
	if ! "$BIN" --top 0 "$file" >"$work/top" 2>"$work/top.err"; then
		echo "FAIL: $label: flametop --top: $(head -n 1 "$work/top.err")"
		fail=$((fail + 1))
		return
	fi
	# perf: "CHILDREN% SELF% DSO [x] NAME"; flametop: "SELF% TOTAL% S T
	# NAME", S and T figures with their scale ("366.7 ms", "1.28k")
	awk '
		FNR == 1 { f++ }
		f == 1 && /^ +[0-9.]+% +[0-9.]+% / {
			if (!match($0, /\[[.a-zA-Z]\] /)) next
			name = substr($0, RSTART + RLENGTH)
			sub(/ +$/, "", name)
			if (name ~ /^(0x)?[0-9a-f]+$/) next   # unresolved address
			# "pthread_mutex_lock@@GLIBC_2.2.5": flametop drops the
			# version (doc/perf-data.md), and adds its rows up.
			# "pthread_mutex_lock@plt" is a function of its own
			# (the PLT stub), in both.
			if (name !~ /@plt$/)
				sub(/@@?[A-Za-z_][A-Za-z_0-9.]*$/, "", name)
			pc[name] += $1; ps[name] += $2
			next
		}
		f == 2 && !/^#/ {
			name = $0
			sub(/^ *[0-9.]+% +[0-9.]+% +[0-9.]+[kMGTP]?( [^ ]+)? +[0-9.]+[kMGTP]?( [^ ]+)?  /, "", name)
			fs[name] = $1 + 0; ft[name] = $2 + 0
		}
		END {
			bad = 0; n = 0
			for (name in pc) {
				if (pc[name] < 0.5) continue
				n++
				if (!(name in ft)) {
					printf "   %s: not in --top (perf: %.2f%% children)\n", name, pc[name]
					bad++; continue
				}
				dc = pc[name] - ft[name]; ds = ps[name] - fs[name]
				if (dc < -0.3 || dc > 0.3 || ds < -0.3 || ds > 0.3) {
					printf "   %s: perf %.2f%%/%.2f%%, flametop %.2f%%/%.2f%% (children/self)\n", name, pc[name], ps[name], ft[name], fs[name]
					bad++
				}
			}
			if (n == 0) { print "   no function in perf report"; bad++ }
			exit bad != 0
		}' "$work/report" "$work/top" >"$work/diff"
	if [ $? -eq 0 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: $label: --top differs from perf report:"
		cat "$work/diff"
		fail=$((fail + 1))
	fi
}

# fp.data resolves its program where perf recorded it.
mkdir -p /tmp/flametop-fixture 2>/dev/null
if cp "$data/prog" /tmp/flametop-fixture/prog 2>/dev/null; then
	compare "tests/data/fp.data" "$data/fp.data"
else
	echo "SKIP: tests/data/fp.data: cannot copy its program to /tmp/flametop-fixture"
fi

if perf record -q -g -o "$work/probe.data" -- true >/dev/null 2>&1 &&
   command -v cc >/dev/null 2>&1 &&
   cc -O1 -g -fno-omit-frame-pointer -o "$work/prog" "$data/prog.c" 2>/dev/null; then
	if perf record -q -F 999 -g -o "$work/rec.data" -- "$work/prog" 0.5 \
		>/dev/null 2>&1; then
		compare "a fresh perf record" "$work/rec.data"
	else
		echo "FAIL: perf record of the test program failed"
		fail=$((fail + 1))
	fi
	# Calls into libc through the PLT: the stub is a row of its own.
	if ! cc -O1 -g -fno-omit-frame-pointer -o "$work/plt-loop" \
		"$data/plt-loop.c" -pthread 2>"$work/cc.err"; then
		echo "FAIL: cannot build plt-loop.c: $(head -n 1 "$work/cc.err")"
		fail=$((fail + 1))
	elif perf record -q -F 999 -g -o "$work/plt.data" -- \
		"$work/plt-loop" 0.5 >/dev/null 2>&1; then
		compare "a fresh perf record of plt-loop" "$work/plt.data"
	else
		echo "FAIL: perf record of plt-loop failed"
		fail=$((fail + 1))
	fi
else
	echo "(perf record not permitted here or no compiler: fresh recording skipped)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
