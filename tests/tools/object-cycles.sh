#!/bin/sh
# object-cycles.sh - fail when the files of one module call each other in
# a circle, read from the compiled objects with nm(1).
#
# usage: tests/tools/object-cycles.sh OBJECT.o...
#
# include-cycles.sh sees modules: the files of one module share a private
# header, so their includes cannot tell which file leans on which.  Here
# file A depends on file B when A.o uses a global symbol that B.o defines;
# a circle in that graph means two parts reach into each other (live.c handing records to live-offcpu.c, which pushed its stacks
# back through live.c).  A shared piece goes down into a file both call.
# Each call on a circle is printed with the symbols it uses.
[ $# -gt 0 ] || { echo "usage: object-cycles.sh OBJECT.o..." >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
	if [ ! -f "$o" ]; then
		echo "object-cycles: $o is missing (build first)"
		exit 2
	fi
	f=${o##*/}
	f=${f%.o}
	nm --defined-only -g "$o" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/$f.def"
	nm -u "$o" | awk '{ print $NF }' | sort -u >"$tmp/$f.use"
	echo "$f" >>"$tmp/names"
done
: >"$tmp/edges"
while read -r f; do
	while read -r g; do
		[ "$g" = "$f" ] && continue
		if [ -n "$(comm -12 "$tmp/$f.use" "$tmp/$g.def" | head -n 1)" ]; then
			echo "$f $g" >>"$tmp/edges"
		fi
	done <"$tmp/names"
done <"$tmp/names"
# The edges that lie on a circle: f -> g where g reaches f again (the
# transitive closure, Floyd-Warshall over a few dozen files).
circle=$(awk '
	{ e[$1, $2] = 1; n[$1] = 1; n[$2] = 1 }
	END {
		for (k in n) for (i in n) if ((i, k) in e)
			for (j in n) if ((k, j) in e) e[i, j] = 1
		for (i in n) for (j in n)
			if (i != j && (i, j) in e && (j, i) in e) {
				print i, j
			}
	}' "$tmp/edges" | sort)
[ -z "$circle" ] && exit 0
echo "object-cycles: these files call each other in a circle:"
printf '%s\n' "$circle" | while read -r f g; do
	grep -qx "$f $g" "$tmp/edges" || continue
	echo "  $f.c calls $g.c: $(comm -12 "$tmp/$f.use" "$tmp/$g.def" | tr '\n' ' ')"
done
exit 1
