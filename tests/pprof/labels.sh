#!/bin/sh
# labels.sh - pprof labels: --tag and --group label:KEY, checked against
# go tool pprof's -tagfocus, -tagignore and -tagroot.
#
# usage: tests/pprof/labels.sh FLAMETOP
#
#  - labels.pprof (committed, written by labels.go): what flametop reads
#    of it is written down here, so the test means something without Go;
#  - when `go` is installed: the same file, and a fresh profile of
#    labels.go built here (offline, GOPATH and GOCACHE in a temporary
#    directory), against `go tool pprof -raw` with -tagfocus, -tagignore
#    and -tagroot (aggregated per stack by raw2folded.py).  pprof's tag
#    values are unanchored regular expressions: ^VALUE$ is flametop's
#    exact VALUE.  A -tagroot frame is the value alone, flametop's is
#    KEY=VALUE;
#  - the shares are right: the sum of --tag K=V over every value and the
#    unlabelled rest is the whole profile.
# Prints "N passed, N failed"; says SKIP plainly for what it cannot run.
bin=${1:?usage: labels.sh FLAMETOP}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $bin in /*) ;; *) bin=$top/$bin ;; esac
cd "$top/tests/pprof" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

. "$top/tests/lib/checks.sh"
# total FILE: the sum of a folded file's counts.
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$1"; }

# ---- The committed profile, as read ----------------------------------------
"$bin" --collapse --tag worker=a labels.pprof >"$tmp/a" 2>"$tmp/err"
cat >"$tmp/want" <<'W'
runtime.main;main.main;runtime/pprof.Do;main.main.func1;main.workA;main.spin 600000000
W
check "--tag worker=a: worker a's samples" same "$tmp/want" "$tmp/a"
check "--tag: nothing on stderr" test ! -s "$tmp/err"
"$bin" --collapse --group label:worker labels.pprof >"$tmp/g" 2>&1
cat >"$tmp/want" <<'W'
worker=;runtime.main;main.main;main.idle;main.spin 150000000
worker=a;runtime.main;main.main;runtime/pprof.Do;main.main.func1;main.workA;main.spin 600000000
worker=b;runtime.main;main.main;runtime/pprof.Do;main.main.func2;main.workB;main.spin 290000000
worker=b;runtime.main;main.main;runtime/pprof.Do;main.main.func2;main.workB;main.spin;runtime.asyncPreempt 20000000
W
check "--group label:worker: a root per value, worker= unlabelled" same "$tmp/want" "$tmp/g"
"$bin" --collapse --tag worker!=a labels.pprof >"$tmp/na" 2>&1
check "--tag worker!=a: the others" \
	test "$(grep -c workA "$tmp/na")" = 0 -a "$(grep -c workB "$tmp/na")" = 2
"$bin" --collapse --tag kind=batch --tag worker=b labels.pprof >"$tmp/or" 2>&1
check "--tag K=V --tag K2=V2: a sample with any of them" \
	test "$(total "$tmp/or")" = 910000000
"$bin" --collapse --tag worker=a --tag kind!=batch labels.pprof >"$tmp/none" 2>"$tmp/err"
check "--tag leaving nothing: said, status 0" \
	test $? = 0 -a ! -s "$tmp/none"
check "--tag leaving nothing: the message" \
	grep -q 'labels.pprof: --tag leaves none of its 9 samples' "$tmp/err"
"$bin" --collapse --tag worker=a ../golden/basic.folded >"$tmp/none" 2>"$tmp/err"
check "--tag on an input without labels: said" \
	grep -q 'basic.folded: --tag leaves none of its 6 samples (none carries a label)' "$tmp/err"
"$bin" --collapse labels.pprof >"$tmp/all" 2>&1
"$bin" --collapse --tag worker=b labels.pprof >"$tmp/b" 2>&1
"$bin" --collapse --tag worker!=a --tag worker!=b labels.pprof >"$tmp/un" 2>&1
check "shares: worker=a + worker=b + unlabelled = all" test \
	$(($(total "$tmp/a") + $(total "$tmp/b") + $(total "$tmp/un"))) = "$(total "$tmp/all")"
"$bin" --collapse --tag worker labels.pprof >/dev/null 2>"$tmp/err"
check "--tag without '=': usage, status 2" test $? = 2
check "--tag without '=': the message" grep -q "'worker' is not KEY=VALUE" "$tmp/err"
"$bin" --collapse --group label: labels.pprof >/dev/null 2>&1
check "--group label: without a key: status 2" test $? = 2
"$bin" --text -w 70 --group label:worker labels.pprof >"$tmp/t" 2>&1
check "--text: the group frames" grep -q '^\[worker= *\]\[worker=a  *\]\[worker=b  *\]$' "$tmp/t"

# ---- --pprof keeps the labels ------------------------------------------------
# Read back, the file written groups and filters as the input does.
"$bin" --pprof "$tmp/out.pb.gz" labels.pprof 2>"$tmp/err"
check "--pprof: written" test $? = 0 -a -s "$tmp/out.pb.gz"
"$bin" --collapse --group label:worker "$tmp/out.pb.gz" >"$tmp/rg" 2>&1
check "--pprof: read back, a root per worker as from the input" same "$tmp/g" "$tmp/rg"
"$bin" --collapse --tag worker=a "$tmp/out.pb.gz" >"$tmp/ra" 2>&1
check "--pprof: read back, --tag worker=a as from the input" same "$tmp/a" "$tmp/ra"
"$bin" --pprof "$tmp/outna.pb.gz" --tag worker!=a labels.pprof 2>"$tmp/err"
"$bin" --collapse --group label:worker "$tmp/outna.pb.gz" >"$tmp/rna" 2>&1
check "--pprof of a label view: its samples, their labels" \
	test "$(cut -d';' -f1 "$tmp/rna" | sort -u | tr '\n' ' ')" = "worker= worker=b "

# --diff --normalize: BEFORE is scaled to what --tag keeps of AFTER (here
# AFTER lacks worker b: worker a weighs the same on both sides).
"$bin" --pprof "$tmp/outnb.pb.gz" --tag worker!=b labels.pprof 2>"$tmp/err"
"$bin" --diff --normalize --collapse --tag worker=a labels.pprof "$tmp/outnb.pb.gz" \
	>"$tmp/dn" 2>&1
check "--diff --normalize --tag: scaled to the samples kept" \
	grep -q 'main.workA;main.spin 600000000 600000000$' "$tmp/dn"

# ---- Hostile labels: names bounded ------------------------------------------
# 200,000 samples whose groups' names would take 5 times the input: each
# name is cut at 256 bytes of values, and past 2 bytes per input byte the
# samples of new groups go to worker=[more values], with a message.
python3 ./many-labels.py 200000 >"$tmp/many.pprof"
"$bin" --collapse --group label:worker "$tmp/many.pprof" >"$tmp/many" 2>"$tmp/err"
check "many groups: status 0" test $? = 0
check "many groups: every sample kept" test "$(total "$tmp/many")" = 200000
check "many groups: names cut at 256 bytes of values" test \
	"$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/many")" -le 276
check "many groups: the rest in worker=[more values]" \
	grep -q '^worker=\[more values\];main [0-9]' "$tmp/many"
check "many groups: the message" \
	grep -q 'samples rooted in worker=\[more values\]' "$tmp/err"

# ---- The oracle: go tool pprof -raw ----------------------------------------
# oracle FILE NAME FLAMETOP-ARGS -- PPROF-ARGS
oracle() {
	f=$1 name=$2
	shift 2
	fa=
	while [ "$1" != -- ]; do fa="$fa $1"; shift; done
	shift
	go tool pprof -symbolize=none -raw "$@" "$f" 2>/dev/null |
		python3 ./raw2folded.py cpu >"$tmp/want" ||
		{ bad "$name: go tool pprof -raw $*"; return; }
	case "$*" in -tagroot=*)
		# pprof's root frame is the value ("KEY:0" when unlabelled).
		key=${1#-tagroot=}
		sed -e "s/^$key:0;/;/" -e "s/^/$key=/" "$tmp/want" | sort >"$tmp/want2"
		mv "$tmp/want2" "$tmp/want" ;;
	esac
	# shellcheck disable=SC2086
	"$bin" --collapse $fa "$f" >"$tmp/got" 2>/dev/null
	check "$name: flametop$fa = go tool pprof $*" same "$tmp/want" "$tmp/got"
}
# tags NAME FILE PPROF-ARGS: go tool pprof -tags of FILE = of labels.pprof.
tags() {
	go tool pprof -tags ${3:+"$3"} labels.pprof >"$tmp/want" 2>/dev/null
	go tool pprof -tags "$2" >"$tmp/got" 2>/dev/null
	check "$1" same "$tmp/want" "$tmp/got"
}
compare_labels() {
	oracle "$1" "$2" --tag worker=a -- '-tagfocus=worker=^a$'
	oracle "$1" "$2" --tag worker=a --tag worker=b -- '-tagfocus=worker=^a$,^b$'
	oracle "$1" "$2" --tag worker!=a -- '-tagignore=worker=^a$'
	oracle "$1" "$2" --tag worker=b --tag kind!=batch -- \
		'-tagfocus=worker=^b$' '-tagignore=kind=^batch$'
	oracle "$1" "$2" --group label:worker -- -tagroot=worker
	oracle "$1" "$2" --group label:kind --tag worker!=b -- -tagroot=kind \
		'-tagignore=worker=^b$'
}
if command -v go >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	compare_labels labels.pprof labels.pprof
	tags "--pprof: go tool pprof -tags as of the input" "$tmp/out.pb.gz"
	tags "--pprof --tag worker!=a: -tags as the input's -tagignore" \
		"$tmp/outna.pb.gz" '-tagignore=worker=^a$'
	compare_labels "$tmp/out.pb.gz" "--pprof's output"
	mkdir -p "$tmp/go"
	if GOPATH=$tmp/go/path GOCACHE=$tmp/go/cache GOFLAGS= GO111MODULE=off \
	   GOPROXY=off GOTOOLCHAIN=local go build -o "$tmp/labels" labels.go \
	   >"$tmp/go/log" 2>&1 && "$tmp/labels" "$tmp/fresh.pprof" >/dev/null; then
		compare_labels "$tmp/fresh.pprof" "fresh labels.go profile"
		"$bin" --collapse --tag worker=a "$tmp/fresh.pprof" >"$tmp/fa" 2>&1
		"$bin" --collapse --tag worker=b "$tmp/fresh.pprof" >"$tmp/fb" 2>&1
		check "fresh: worker=a and worker=b both sampled" \
			test -s "$tmp/fa" -a -s "$tmp/fb"
	else
		bad "building and running labels.go"
		cat "$tmp/go/log"
	fi
else
	echo "SKIP (in part): go is not installed (Debian golang-go): no comparison with go tool pprof"
fi

summary
