#!/bin/sh
# bench-tui.sh - the interactive view's speed on a 1M-node tree: layout +
# draw of one 200x60 screen after a resize, a zoom and a move (target
# <= 16 ms), and a regex search over the tree (target <= 50 ms), measured
# by BUILDDIR/tools/bench-tui on a curses screen writing to /dev/null.
# Reports; never fails on a slow figure.
#
# usage: tests/bench/bench-tui.sh BUILDDIR BIN
build=${1:?usage: $0 BUILDDIR BIN}
tool=$build/tools/bench-tui
if [ ! -x "$tool" ]; then
	echo "   SKIP: $tool not built (make O=... tests-bin)"
	exit 0
fi
# BENCH_QUICK=1 (make check): a 10,000-node tree.
nodes=1000000
[ -n "${BENCH_QUICK:-}" ] && nodes=10000
TERM=xterm-256color "$tool" "$nodes" 60 200
