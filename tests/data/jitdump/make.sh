#!/bin/sh
# make.sh - record the jitdump samples of this folder again (see README.md).
#
# usage: tests/data/jitdump/make.sh [NODE] [PYTHON3.13]
#
# Runs in /tmp/flametop-jit, so that the names in the dumps hold a fixed
# path.  node --perf-prof writes jit-PID.dump in the current folder,
# python3.13 -X perf_jit in /tmp.  Node's dump starts with ~2200 code
# loads of its built-in code (2 MB, named from the node binary anyway):
# trim.py keeps the first 6 records of them and drops the others.
node=${1:-node}
py=${2:-python3.13}
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/flametop-jit
rm -rf "$work" && mkdir "$work" || exit 1
trap 'rm -rf "$work"' EXIT
cp "$here/sort.js" "$here/work.py" "$work/" || exit 1
cd "$work" || exit 1
# node-k1: perf.data on CLOCK_MONOTONIC (-k 1), user frames only (no
# kernel symbols to depend on), and the dump beside it.
perf record -q -k 1 -g --all-user -F 499 -o perf.data -- \
	"$node" --perf-prof sort.js >/dev/null || exit 1
rm -rf "$here/node-k1" && mkdir "$here/node-k1" || exit 1
cp perf.data "$here/node-k1/node.data" && chmod 644 "$here/node-k1/node.data" || exit 1
for d in jit-*.dump; do
	python3 "$here/trim.py" "$d" 6 Builtin: BytecodeHandler: \
		>"$here/node-k1/$d" || exit 1
done
"$py" -X perf_jit work.py &
pid=$!
wait "$pid" || exit 1
cp "/tmp/jit-$pid.dump" "$here/python.dump" || exit 1
rm -f "/tmp/jit-$pid.dump"
ls -l "$here"/*.dump "$here"/node-k1
