#!/bin/sh
# V8 .cpuprofile: flametop's --collapse against reference.py (which shares
# no code with flametop) on the committed work.cpuprofile, the same file
# gzip'd and on standard input, and a profile node writes now (node
# --cpu-prof of work.js) when node is installed; the view's other outputs
# agree with --collapse; a file beyond the size bound says --max-input.
bin=${1:?usage: run.sh FLAMETOP}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/../lib/checks.sh"

# as_reference NAME PROFILE [--lines]: --collapse (sorted) is what reference.py
# reads.
as_reference() {
	python3 "$here/reference.py" "$2" $3 | LC_ALL=C sort >"$tmp/want"
	"$bin" --collapse $3 "$2" 2>"$tmp/err" | LC_ALL=C sort >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" &&
	   [ ! -s "$tmp/err" ]; then
		ok
	else
		bad "$1: --collapse differs from reference.py"
		diff "$tmp/want" "$tmp/got" | head -n 10
		head -n 3 "$tmp/err"
	fi
}

as_reference "work.cpuprofile" "$here/work.cpuprofile"
as_reference "work.cpuprofile --lines" "$here/work.cpuprofile" --lines
gzip -c "$here/work.cpuprofile" >"$tmp/w.cpuprofile.gz"
"$bin" --collapse "$tmp/w.cpuprofile.gz" | LC_ALL=C sort >"$tmp/gz"
"$bin" --collapse - <"$here/work.cpuprofile" | LC_ALL=C sort >"$tmp/stdin"
"$bin" --collapse "$here/work.cpuprofile" | LC_ALL=C sort >"$tmp/plain"
check "gzip'd: the same stacks" cmp -s "$tmp/plain" "$tmp/gz"
check "standard input: the same stacks" cmp -s "$tmp/plain" "$tmp/stdin"
check "--format cpuprofile" sh -c \
	'"$1" --format cpuprofile --collapse "$2" | LC_ALL=C sort | cmp -s - "$3"' \
	sh "$bin" "$here/work.cpuprofile" "$tmp/plain"

# --top's sortWork: its self and total, in ms, from --collapse's sums.
sums=$(awk '{ n = split($1, f, ";"); w = $NF
	if (f[n] == "sortWork") self += w
	for (i = 1; i <= n; i++) if (f[i] == "sortWork") { tot += w; break }
	} END { printf "%.1f %.1f", self / 1e6, tot / 1e6 }' "$tmp/plain")
"$bin" --top 50 "$here/work.cpuprofile" >"$tmp/top"
line=$(grep ' sortWork$' "$tmp/top")
check "--top names sortWork" test -n "$line"
set -- $sums
raw=$(awk '{ n = split($1, f, ";"); w = $NF
	if (f[n] == "sortWork") self += w
	for (i = 1; i <= n; i++) if (f[i] == "sortWork") { tot += w; break }
	} END { printf "%d %d", self, tot }' "$tmp/plain")
case $line in
*" $1 ms "*" $2 ms "*) ok ;;
*" ${raw% *} "*" ${raw#* } "*) ok ;;
*) bad "--top sortWork: '$line', want self $1 ms and total $2 ms ($raw ns)" ;;
esac

# A ';' in a function name would split the frame in folded output: ':'.
cat >"$tmp/semi.cpuprofile" <<'EOF2'
{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
{"id":2,"callFrame":{"functionName":"a;b","scriptId":"1","url":"x.js","lineNumber":1,"columnNumber":1},"children":[3]},
{"id":3,"callFrame":{"functionName":"c","scriptId":"1","url":"x.js","lineNumber":2,"columnNumber":1}}],
"startTime":0,"endTime":4000,"samples":[3,3,2],"timeDeltas":[1000,1000,1000]}
EOF2
check "a ';' in a name becomes ':' in --collapse" test \
	"$("$bin" --collapse "$tmp/semi.cpuprofile" | tr '\n' '|')" = 'a:b 1000000|a:b;c 2000000|'

# The size bound: beyond it, a message naming --max-input and status 1;
# with --max-input it reads.
python3 - "$tmp/big.cpuprofile" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},'
            '"children":[2]},{"id":2,"callFrame":{"functionName":"w"}}],'
            '"startTime":0,"endTime":30,"samples":[2,2],"timeDeltas":[0,10]}')
    f.write(" " * (33 << 20))  # JSON allows trailing blanks
PY
"$bin" --collapse "$tmp/big.cpuprofile" >"$tmp/out" 2>"$tmp/err"
st=$?
check "a 33 MB .cpuprofile: status 1" test "$st" = 1
check "a 33 MB .cpuprofile: says --max-input" grep -q -- '--max-input' "$tmp/err"
"$bin" --max-input 64M --collapse "$tmp/big.cpuprofile" >"$tmp/out" 2>"$tmp/err"
check "with --max-input 64M it reads" grep -qx 'w 30000' "$tmp/out"

# A profile node writes now.
if command -v node >/dev/null 2>&1; then
	(cd "$tmp" && node --cpu-prof --cpu-prof-name=now.cpuprofile \
		"$here/work.js" 200) >/dev/null 2>&1
	if [ -s "$tmp/now.cpuprofile" ]; then
		as_reference "node --cpu-prof now" "$tmp/now.cpuprofile"
		check "node --cpu-prof now: sortWork is named" \
			grep -q 'sortWork' "$tmp/got"
	else
		bad "node --cpu-prof wrote no profile"
	fi
else
	echo "SKIP (part): node is not installed; the committed profile was read"
fi
summary
