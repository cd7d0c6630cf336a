#!/bin/sh
# make.sh - record the jitdump samples of this folder again (see README.md).
#
# usage: tests/data/jitdump/make.sh [NODE] [PYTHON3.13]
#
# node --perf-prof writes jit-PID.dump in the current folder, python3.13
# -X perf_jit in /tmp.  Node's dump starts with ~2200 code loads of its
# built-in code (2 MB); trim.py keeps the header, the first KEEP records
# and the records from the first one that names sort.js on.
node=${1:-node}
py=${2:-python3.13}
here=$(cd "$(dirname "$0")" && pwd)
# A fixed folder: the names in the dumps hold the scripts' paths.
work=/tmp/flametop-jit
rm -rf "$work" && mkdir "$work" || exit 1
trap 'rm -rf "$work"' EXIT
cp "$here/sort.js" "$here/work.py" "$work/" || exit 1
cd "$work" || exit 1
"$node" --perf-prof sort.js >/dev/null || exit 1
python3 "$here/trim.py" jit-*.dump sort.js 6 >"$here/node.dump" || exit 1
"$py" -X perf_jit work.py &
pid=$!
wait "$pid" || exit 1
python3 "$here/trim.py" "/tmp/jit-$pid.dump" work.py 1000000 >"$here/python.dump" || exit 1
rm -f "/tmp/jit-$pid.dump"
ls -l "$here"/*.dump
