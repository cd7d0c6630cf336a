#!/bin/sh
# include-cycles.sh - fail when the perf record layers' includes form a
# circle.
#
# usage: tests/tools/include-cycles.sh [DIR [MODULE...]]
#   DIR: the source tree (default .); MODULEs: the modules to check
#   (default: the perf record layers, the symbolizer, the unwinder and
#   live mode).
#
# A module is a header, include/NAME.h, with the files that implement it:
# src/NAME.c, or src/NAME-PART.c when there is no include/NAME-PART.h
# (unwind-dwarf.c implements unwind.h, symbols-elf.c symbols.h,
# live-ring.c live.h), and the private header its parts share,
# src/NAME-priv.h or src/NAME-PART-priv.h.  Module A depends on B when one
# of A's files includes "B.h"; only edges between the listed modules count.
# tsort(1) orders that graph and names the modules of any loop it finds:
# a loop means two layers reach into each other.  The layers must stay
# perf-record < perf-procs < symbols, unwind < perf-event < live.
cd "${1:-.}" || exit 2
[ $# -gt 0 ] && shift
mods=${*:-perf-record perf-procs perf-event symbols unwind live}
in_set() {
	for x in $mods; do
		[ "$x" = "$1" ] && return 0
	done
	return 1
}
# module_of NAME: sets mod to the module of a file or an include named
# NAME (without .c/.h): NAME less -priv, then the longest of it, it less
# its last -PART, ... that has a header in include/.
module_of() {
	mod=${1%-priv}
	k=$mod
	while [ ! -e "include/$k.h" ] && [ "${k%-*}" != "$k" ]; do
		k=${k%-*}
	done
	[ -e "include/$k.h" ] && mod=$k
}
edges=$(for f in src/*.c src/*.h include/*.h; do
	[ -e "$f" ] || continue
	m=${f##*/}
	module_of "${m%.*}"
	m=$mod
	in_set "$m" || continue
	sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
		while read -r d; do
			module_of "$d"
			[ "$mod" != "$m" ] && in_set "$mod" && echo "$m $mod"
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
