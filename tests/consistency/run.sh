#!/bin/sh
# tests/consistency/run.sh - every figure a view shows against that view's
# own --collapse, recomputed by check.py (python3, nothing shared with
# flametop): the --text footer and Matched: line, --top 0, the --svg title,
# subtitle and frames, the interactive view's header, status line, top
# table, match count, saved file and heat map; and some views recomputed
# from their source (the input's lines, a generated perf script's raw
# samples).  Prints "N passed, N failed".
#
# usage: tests/consistency/run.sh BIN
#
# The generated inputs (small.folded, rand.folded, frac.folded, ...) are
# written to a temporary directory; CONSIST_KEEP=DIR writes them to DIR
# and keeps them, to run a FAIL's command line there by hand.
bin=${1:?usage: run.sh BIN}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $bin in /*) ;; *) bin=$top/$bin ;; esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is not installed"
	exit 0
fi
if [ -n "${CONSIST_KEEP:-}" ]; then
	gen=$CONSIST_KEEP
	mkdir -p "$gen" || exit 1
else
	gen=$(mktemp -d)
	trap 'rm -rf "$gen"' EXIT
fi
ln -sfn "$top/samples" "$gen/samples"
ln -sfn "$top/tests" "$gen/tests"
export LC_ALL=C.UTF-8 COLUMNS=100

# Checks that fail because of bugs being fixed elsewhere, one name a line
# as FAIL prints it: they count as passed while they fail ("XFAIL") and as
# failed once they hold.  Empty: every check asserts.
KNOWN_BUGS=${KNOWN_BUGS-""}
export KNOWN_BUGS

pass=0
fail=0
tmp=$gen/.out
# count: add check.py's "N passed, N failed" (its last line) to the sums.
count() {
	line=$(tail -n 1 "$tmp")
	case $line in
	*" passed, "*" failed") ;;
	*) cat "$tmp"; fail=$((fail + 1)); return ;;
	esac
	sed '$d' "$tmp"
	pass=$((pass + ${line%% passed*}))
	f=${line#*passed, }
	fail=$((fail + ${f%% failed*}))
}

# First the check itself: a figure made wrong by doctor.sh must fail the
# check that reads it.
for d in footer:text matched:'text /' top:top svg:svg frame:svg collapse:top; do
	echo "figures small.folded |  | '^c\$'" |
	DOCTOR=${d%%:*} DOCTOR_BIN=$bin CONSIST_TUI=0 KNOWN_BUGS= python3 \
		"$top/tests/consistency/check.py" "$top/tests/consistency/doctor.sh" \
		"$gen" >"$tmp" 2>&1
	if grep -q "^FAIL small.folded \[\] ${d#*:}" "$tmp"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL doctored ${d%%:*}: check.py did not see it"
		cat "$tmp"
	fi
done

# figures INPUT [INPUT2: --diff] | OPTIONS | SEARCH REGEXES
# derive  INPUT | OPTIONS: the view's stacks recomputed from the source
python3 "$top/tests/consistency/check.py" "$bin" "$gen" >"$tmp" 2>&1 <<'EOF'
# The issue's small profile: every view, every option, a few searches.
figures small.folded |  | '^c$' a '^(b|x)$' zzz
figures small.folded | --include '^x$' | '^c$' a
figures small.folded | --exclude '^other$' | '^c$' b
figures small.folded | --include a --exclude '^x$' | '^c$'
figures small.folded | --callers c | '^c$' '^a$' main
figures small.folded | --callers a | '^a$' b
figures small.folded | --callees a | '^a$' '^b$'
figures small.folded | --callees a --fold-recursion | '^a$' '^b$'
figures small.folded | --invert | '^c$' '^main$'
figures small.folded | --fold-recursion | '^a$' c
figures small.folded | --fold-recursion --invert | '^a$'
figures small.folded | --callers b --invert | '^b$' main
figures small.folded | --exclude '^other$' --callees a --invert | c
figures small.folded | --order weight | '^c$'
figures small.folded | -i | '^C$' A
derive small.folded |
derive small.folded | --include '^x$'
derive small.folded | --exclude '^other$'
derive small.folded | --callers c
derive small.folded | --callers a
derive small.folded | --callees a
derive small.folded | --invert
derive small.folded | --fold-recursion
derive small.folded | --fold-recursion --invert
derive small.folded | --exclude '^other$' --callees a --fold-recursion --invert
derive small.folded | --include b --callers a --fold-recursion

# Random folded profiles (fixed seed): recursion, repeated names and
# stacks, fractional weights.
figures rand.folded |  | eval '^main$' 'hash_' 'push_back'
figures rand.folded | --include parse | '^eval$' alloc
figures rand.folded | --exclude '^gc$' --exclude free | eval
figures rand.folded | --callers eval | '^eval$' '^app$'
figures rand.folded | --callees eval | eval lex
figures rand.folded | --callees eval --invert | eval
figures rand.folded | --invert | '^app$' eval
figures rand.folded | --fold-recursion | eval walk
figures rand.folded | --fold-recursion --callers walk --invert | walk
figures rand.folded | --order weight --include read | read
figures frac.folded |  | eval '^app$' 'unknown'
figures frac.folded | --callers alloc | alloc app
figures frac.folded | --callees main --fold-recursion | main
figures frac.folded | --invert --exclude '^worker$' | eval
derive rand.folded |
derive rand.folded | --include parse
derive rand.folded | --exclude '^gc$' --exclude free
derive rand.folded | --callers eval
derive rand.folded | --callees eval
derive rand.folded | --callees eval --invert
derive rand.folded | --fold-recursion
derive rand.folded | --fold-recursion --callers walk --invert
derive frac.folded |
derive names.folded |
derive frac.folded | --callers alloc
derive frac.folded | --include emit --callees main --fold-recursion

# A generated perf script of three commands, six threads, four CPUs:
# task filters, groupings, time ranges (ends between samples).
figures tasks.perf-script |  | '^compute$' 'server'
figures tasks.perf-script | --pids 300 | compute
figures tasks.perf-script | --tids 301,302,410 | compute
figures tasks.perf-script | --cpus 1-2 | '^read$'
figures tasks.perf-script | --comm client,cron | poll
figures tasks.perf-script | --group process | '^server-300$' compute
figures tasks.perf-script | --group thread --cpus 0 | '301$' hash
figures tasks.perf-script | --group merged | '^main$' compute
figures tasks.perf-script | --time 0.5000005,2.2500005 | compute
figures tasks.perf-script | --time 25%-75% | compute
figures tasks.perf-script | --time 10%/4 | compute
figures tasks.perf-script | --pids 300 --callers compute --invert | compute
figures tasks.perf-script | --group thread --time 1.0000005,3.0000005 --include parse --fold-recursion | compute
derive tasks.perf-script |
derive tasks.perf-script | --pids 300
derive tasks.perf-script | --pids 400-410
derive tasks.perf-script | --tids 301,302,410
derive tasks.perf-script | --cpus 1-2
derive tasks.perf-script | --cpus 3 --comm server
derive tasks.perf-script | --comm client,cron
derive tasks.perf-script | --group process
derive tasks.perf-script | --group thread --cpus 0
derive tasks.perf-script | --group merged
derive tasks.perf-script | --time 0.5000005,2.2500005
derive tasks.perf-script | --group thread --time 1.0000005,3.0000005

# Recorded profiles (samples/ and tests/).
figures samples/flametop-load.perf-script.zst |  | clear_page 'read' '^main$'
figures samples/flametop-load.perf-script.zst | --include page_fault --exclude clear_page | clear_page
figures samples/flametop-load.perf-script.zst | --callers profile_child | lookup
figures samples/flametop-load.perf-script.zst | --callees main --fold-recursion --invert | read
figures samples/flametop-load.perf-script.zst | --time 20%-60% | profile_child
figures samples/python.perf-script.zst | --pids 7188 | Eval '^_PyEval_EvalFrameDefault$'
figures samples/python.perf-script.zst | --group thread --comm python3 | dict
figures samples/python.folded.gz | --callees _PyEval_EvalFrameDefault --fold-recursion | json
figures samples/flametop-make.folded | --exclude '^cc1$' | page_fault
figures samples/gzip.perf-script.gz | --time 0.5,1.5 | '\[gzip\]'
figures tests/golden/mixed.perf | --group thread | main
figures tests/golden/demo.perf | --callers leaf | render
figures samples/go-heap.pprof |  | mk 'main\.'
figures samples/go-heap.pprof | --sample-type alloc_objects --callers main.mk | mk
figures samples/go-heap.pprof | --sample-type alloc_space --invert | alloc
# pprof labels: a label's samples, a root per value, both at once.
figures tests/pprof/labels.pprof | --tag worker=b | '^main.spin$' workB
figures tests/pprof/labels.pprof | --group label:worker --tag worker!=a | spin '^worker=b$'
figures tests/pprof/labels.pprof | --group label:kind --callers main.spin | spin
figures tests/pprof/labels.pprof | --tag kind=batch --tag worker=b --invert | '^main.spin$' Do
figures tests/pprof/labels.pprof | --group label:worker --order weight --fold-recursion | spin '^worker=$'
figures tests/pprof/labels.pprof | --tag worker!=b --callees runtime/pprof.Do | work
# V8 .cpuprofile: time weights, its timeline, source lines.
figures tests/cpuprofile/work.cpuprofile |  | sortWork '^mathWork$'
figures tests/cpuprofile/work.cpuprofile | --callers mathWork --time 20%-80% | mathWork
figures tests/cpuprofile/work.cpuprofile | --lines --invert | sortWork
figures tests/data/fp.data | --kallsyms tests/data/fp.kallsyms --symfs tests/data/symfs | burn path_a
figures tests/data/fp.data | --kallsyms tests/data/fp.kallsyms --symfs tests/data/symfs --lines | burn
figures tests/data/fp.data | --kallsyms tests/data/fp.kallsyms --symfs tests/data/symfs --group thread --time 0.1,0.2 | path_b
figures tests/data/two-events.data | --event-filter task-clock --kallsyms tests/data/fp.kallsyms --symfs tests/data/symfs --callees main | burn
figures tests/data/period.data | --kallsyms tests/data/fp.kallsyms --symfs tests/data/symfs --pid --invert | path_a
derive samples/flametop-make.folded |
derive samples/sort.folded |

# Comparisons: both weights, sized by AFTER or (--negate) BEFORE.
figures before.folded after.folded |  | eval '^app$'
derive before.folded after.folded |
derive before.folded after.folded | --normalize
derive frac-before.folded frac.folded |
derive frac-before.folded frac.folded | --normalize
figures before.folded after.folded | --normalize | eval
figures before.folded after.folded | --negate | eval hash
figures before.folded after.folded | --normalize --negate | eval
figures before.folded after.folded | --callers eval --invert | eval
figures before.folded after.folded | --include parse --fold-recursion | walk
figures frac-before.folded frac.folded |  | eval
figures frac-before.folded frac.folded | --callees main | main
figures small.folded rand.folded |  | '^c$' main
figures samples/gzip.folded samples/gzip.perf-script.gz |  | gzip
figures samples/python.perf-script.zst samples/flametop-load.perf-script.zst | --time 10%-90% | read
figures tasks.perf-script samples/python.perf-script.zst | --group thread --time 0.5,2.5 | compute
figures tasks.perf-script samples/python.perf-script.zst | --comm python3,server --cpus 0-1 | compute Eval
figures samples/python-diff.folded.gz |  | Eval
figures samples/python-diff.folded.gz | --callers _PyEval_EvalFrameDefault --invert | Eval
figures tests/golden/fractional.folded |  | a '^a$' b
figures tests/data/switch.data | --kallsyms tests/data/fp.kallsyms | schedule
EOF
count
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
