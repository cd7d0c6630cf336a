#!/bin/sh
# test-inline-nested.sh - inlined functions nested in inlined functions
# (--call-graph dwarf): tests/data/inline.c, built here with -O2 -g, has
# spin_inl calling the always-inlined middle_fn, which calls the
# always-inlined inner_fn, which calls step.  Every level must get its
# frame, innermost as the leaf, at the sampled PC and at the return
# address of a call made from inlined code.  The oracle is addr2line -i:
# the inline chain it gives for each instruction of spin_inl.
#
# usage: tests/live/test-inline-nested.sh FLAMETOP_BINARY
. "$(dirname "$0")/lib.sh"

if ! command -v addr2line >/dev/null 2>&1 ||
   ! command -v objdump >/dev/null 2>&1; then
	echo "SKIP: no addr2line or objdump (binutils) for the oracle"
	exit 0
fi
prog=$work/inline
if ! "$CC" -O2 -g "$here/../data/inline.c" -o "$prog" 2>"$work/cc.err"; then
	echo "SKIP: cannot build inline.c: $(head -n 1 "$work/cc.err")"
	exit 0
fi

# The chains addr2line gives inside spin_inl, outermost first, inlined
# levels marked "_[i]" as flametop marks them: one line per address.
objdump -d --no-show-raw-insn "$prog" |
	sed -n '/<spin_inl>:$/,/^$/s/^ *\([0-9a-f]*\):.*/0x\1/p' >"$work/addrs"
check "objdump lists spin_inl's code" [ -s "$work/addrs" ]
# addr2line -a prints each address, then name and line per level.
addr2line -a -i -f -e "$prog" $(cat "$work/addrs") | awk '
	function flush() { if (n) { s = f[n - 1]
		for (i = n - 2; i >= 0; i--) s = s ";" f[i] "_[i]"; print s }
		n = 0 }
	/^0x[0-9a-f]+$/ { flush(); fn = 1; next }
	fn { f[n++] = $0; fn = 0; next }
	{ fn = 1 }                          # a file:line; a name follows
	END { flush() }' | LC_ALL=C sort -u >"$work/oracle"
check "addr2line: spin_inl;middle_fn;inner_fn at some address" \
	grep -qx 'spin_inl;middle_fn_\[i\];inner_fn_\[i\]' "$work/oracle"

# inline_chains FOLDED: for each stack through spin_inl, the frames from
# spin_inl up to its callee that is not inlined (or the leaf), with the
# stack's weight; then, summed per chain, "CHAIN WEIGHT".
inline_chains() {
	awk '{ w = $NF; sub(/ [0-9.]+$/, ""); n = split($0, f, ";")
		for (i = 1; i <= n && f[i] != "spin_inl"; i++) ;
		if (i > n) next
		s = f[i]
		for (i++; i <= n && f[i] ~ /_\[i\]$/; i++) s = s ";" f[i]
		c[s] += w }
	     END { for (k in c) print k, c[k] }' "$1" | LC_ALL=C sort
}

# chains_ok CHAINS: every chain is one addr2line gives, and the weight
# under each of the two chains inside spin_inl is at least 5 %; prints
# what is wrong, on one line, and nothing when all is right.
chains_ok() {
	awk -v oracle="$work/oracle" '
		BEGIN { while ((getline l < oracle) > 0) ok[l] = 1 }
		{ w = $NF; t += w; c = $0; sub(/ [0-9.]+$/, "", c)
		  if (!(c in ok)) print "not from addr2line: " c
		  got[c] += w }
		END {
			split("spin_inl;middle_fn_[i] spin_inl;middle_fn_[i];inner_fn_[i]", want, " ")
			for (k in want) if (got[want[k]] * 20 < t)
				print "under 5%: " want[k]
			if (t == 0) print "no samples" }' "$1" | tr '\n' ' '
}

"$BIN" --call-graph dwarf -F 499 -d 300 --collapse -- "$prog" 1.2 \
	>"$work/live.folded" 2>"$work/live.err"
st=$?
check "live: exit status 0 ($(head -n 1 "$work/live.err"))" [ "$st" -eq 0 ]
inline_chains "$work/live.folded" >"$work/live.chains"
m=$(chains_ok "$work/live.chains")
check "live: inline chains as addr2line gives them ${m:+($m)}" [ -z "$m" ]
# The call to step is made from inner_fn's code inlined into middle_fn's
# inlined into spin_inl: the caller's frame gets the whole chain.
w=$(share "$work/live.folded" ';spin_inl;middle_fn_\[i\];inner_fn_\[i\];step [0-9]*$')
check "live: step called from the three levels ($w%)" within "$w" 5 100
w=$(share "$work/live.folded" ';spin_inl;inner_fn_\[i\]')
check "live: no inner_fn without middle_fn ($w%)" within "$w" 0 0

# ---- the same program recorded by perf record --call-graph dwarf ----------
if command -v perf >/dev/null 2>&1 &&
   perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
	perf record -q -e cpu-clock:u -F 499 --call-graph dwarf -o "$work/p.data" \
		-- "$prog" 1.2 >/dev/null 2>"$work/perf.err"
	check "perf record: ran ($(head -n 1 "$work/perf.err"))" [ -s "$work/p.data" ]
	"$BIN" --collapse "$work/p.data" >"$work/p.folded" 2>"$work/p.err"
	st=$?
	check "perf.data: exit status 0" [ "$st" -eq 0 ]
	inline_chains "$work/p.folded" >"$work/p.chains"
	m=$(chains_ok "$work/p.chains")
	check "perf.data: inline chains as addr2line gives them ${m:+($m)}" [ -z "$m" ]
else
	echo "note: perf record not available here; perf.data checks skipped"
fi
finish
