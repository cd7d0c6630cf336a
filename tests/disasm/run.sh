#!/bin/sh
# run.sh - --annotate NAME --disasm against perf, the oracle.
#
# usage: tests/disasm/run.sh FLAMETOP
#
# On tests/data/annotate.data (see tests/data/README.md), mix's share per
# instruction against perf annotate --stdio (of the function's own
# samples) within 1 point, the same instructions and the same branch
# targets named; the stripped copy's per-address shares against perf
# report's [.] 0x... rows, and its instructions the same as the copy with
# symbols; perf script's text of the same recording (annotate.perf-script.zst,
# perf script --symfs tests/data/symfs) against the same reference.  The
# references perf 6.1 printed are committed beside this script
# (mix.perf-annotate, stripped.perf-report) and always compared;
# where perf is installed, its output here is compared as well, and a
# fresh recording of the program (0.5 s of its CPU time, user space) is
# annotated by both.
bin=${1:?usage: run.sh FLAMETOP}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. tests/lib/checks.sh
here=tests/disasm
data=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LC_ALL=C.UTF-8
export LC_ALL

# compare.py's verdicts count here: "N passed, N failed" adds to ours.
compare() {
	out=$(python3 "$here/compare.py" "$@")
	printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$'
	line=$(printf '%s\n' "$out" | tail -n 1)
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	case $p$f in *[!0-9]*|'') bad "compare.py $1: $line"; return ;; esac
	pass=$((pass + p))
	fail=$((fail + f))
}

"$bin" --annotate mix --disasm --symfs $data/symfs $data/annotate.data \
	>"$tmp/mix" 2>"$tmp/mix.err"
check "--annotate mix --disasm runs" [ -s "$tmp/mix" ]
compare annotate "$tmp/mix" $here/mix.perf-annotate
# perf script of the same file: the reader names the binary, --disasm
# reads it under --symfs.
"$bin" --annotate mix --disasm --symfs $data/symfs \
	$here/annotate.perf-script.zst >"$tmp/script" 2>"$tmp/script.err"
compare annotate "$tmp/script" $here/mix.perf-annotate
"$bin" --annotate '[annotate]' --disasm --symfs $data/symfs-stripped \
	$data/annotate.data >"$tmp/stripped" 2>"$tmp/stripped.err"
check "the stripped copy's code is shown" [ -s "$tmp/stripped" ]
compare report "$tmp/stripped" $here/stripped.perf-report
compare same-code "$tmp/mix" "$tmp/stripped"

if ! command -v perf >/dev/null 2>&1; then
	echo "note: perf is not installed: the committed references only"
	summary
	exit
fi
if perf annotate --stdio --symfs $data/symfs -i $data/annotate.data mix \
	>"$tmp/perf-mix" 2>/dev/null && grep -q ' :  *119c:' "$tmp/perf-mix"; then
	compare annotate "$tmp/mix" "$tmp/perf-mix"
else
	echo "note: perf annotate printed no disassembly (objdump missing?)"
fi
perf report --stdio --no-children --sort dso,sym -g none \
	--symfs $data/symfs-stripped -i $data/annotate.data \
	>"$tmp/perf-stripped" 2>/dev/null
compare report "$tmp/stripped" "$tmp/perf-stripped"

# A fresh recording: the program runs for 0.5 s of its own CPU time.
cp $data/annotate "$tmp/annotate"
if perf record -q -e cpu-clock:u -F 999 -g -o "$tmp/live.data" \
	"$tmp/annotate" 0.5 >/dev/null 2>&1; then
	"$bin" --annotate mix --disasm "$tmp/live.data" >"$tmp/live" \
		2>"$tmp/live.err"
	check "--annotate mix --disasm of a fresh recording" [ -s "$tmp/live" ]
	if perf annotate --stdio -i "$tmp/live.data" mix >"$tmp/perf-live" \
		2>/dev/null && grep -q ' :  *119c:' "$tmp/perf-live"; then
		compare annotate "$tmp/live" "$tmp/perf-live"
	fi
else
	echo "note: perf record failed here (permissions?): no fresh recording"
fi
summary
