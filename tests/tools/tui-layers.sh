#!/bin/sh
# tui-layers.sh - fail when a TUI file calls a file of its own layer or of
# a layer above it, read from the compiled objects with nm(1).
#
# usage: tests/tools/tui-layers.sh OBJDIR
#
# The TUI's files form layers (src/tui-priv.h lists them): the drawing
# primitives and the state at the bottom, the views over them, the loop
# (tui.c) on top.  An object may use the global symbols that objects of
# lower layers define, never those of its own layer or above: that is how
# tui-draw.o is kept from calling back into the loop or the views.  Every
# src/tui*.c must have a layer here, so a new file is placed on purpose.
dir=${1:?usage: tui-layers.sh OBJDIR}
# One line per layer, the lowest (0) first.
layers='tui-state tui-draw tui-keys
tui-view-sandwich tui-view-top tui-view-help tui-view-labels tui-view-annotate
tui-screen
tui-view-flame tui-view
tui-prompt tui-view-timeline
tui-heatmap
tui'
# The layer of a file, 0 for the lowest (as in src/tui-priv.h).
rank_of() {
	printf '%s\n' "$layers" | awk -v f="$1" '
		{ for (i = 1; i <= NF; i++) if ($i == f) { print NR - 1; exit } }'
}
fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for src in src/tui*.c; do
	f=${src##*/}
	f=${f%.c}
	if [ -z "$(rank_of "$f")" ]; then
		echo "tui-layers: $src has no layer in tests/tools/tui-layers.sh"
		fail=1
	fi
done
for f in $layers; do
	o=$dir/$f.o
	if [ ! -f "$o" ]; then
		echo "tui-layers: $o is missing (build first)"
		exit 2
	fi
	nm --defined-only -g "$o" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/$f.def"
	nm -u "$o" | awk '{ print $NF }' | sort -u >"$tmp/$f.use"
done
for f in $layers; do
	r=$(rank_of "$f")
	for g in $layers; do
		[ "$g" = "$f" ] && continue
		[ "$(rank_of "$g")" -lt "$r" ] && continue
		bad=$(comm -12 "$tmp/$f.use" "$tmp/$g.def" | tr '\n' ' ')
		if [ -n "$bad" ]; then
			echo "tui-layers: $f.c (layer $r) calls $g.c (layer" \
			     "$(rank_of "$g")): $bad"
			fail=1
		fi
	done
done
exit $fail
