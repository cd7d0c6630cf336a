#!/bin/sh
# include-cycles.sh - fail when the perf record layers' includes form a
# circle.
#
# usage: tests/tools/include-cycles.sh [DIR [MODULE...]]
#   DIR: the source tree (default .); MODULEs: the modules to check
#   (default: the perf record layers, the symbolizer and the unwinder).
#
# A module is a header, include/NAME.h, with the files that implement it:
# src/NAME.c, or src/NAME-PART.c when there is no include/NAME-PART.h
# (unwind-dwarf.c implements unwind.h).  Module A depends on B when one of
# A's files includes "B.h"; only edges between the listed modules count.
# tsort(1) orders that graph and names the modules of any loop it finds:
# a loop means two layers reach into each other.  The layers must stay
# perf-record < perf-procs < symbols, unwind < perf-event.
cd "${1:-.}" || exit 2
[ $# -gt 0 ] && shift
mods=${*:-perf-record perf-procs perf-event symbols unwind}
in_set() {
	for x in $mods; do
		[ "$x" = "$1" ] && return 0
	done
	return 1
}
edges=$(for f in src/*.c include/*.h; do
	[ -e "$f" ] || continue
	m=${f##*/}
	m=${m%.*}
	# src/A-B-C.c: the longest A-B-C, A-B, A with a header.
	k=$m
	while [ ! -e "include/$k.h" ] && [ "${k%-*}" != "$k" ]; do
		k=${k%-*}
	done
	[ -e "include/$k.h" ] && m=$k
	in_set "$m" || continue
	sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
		while read -r d; do
			[ "$d" != "$m" ] && in_set "$d" && echo "$m $d"
		done
done | sort -u)
[ -n "$edges" ] || exit 0
out=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)
if [ -n "$out" ]; then
	echo "include circle between modules:"
	printf '%s\n' "$out" | sed -n 's/^tsort: //p' | grep -v 'input contains a loop' | sort -u
	exit 1
fi
exit 0
