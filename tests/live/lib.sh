# lib.sh - shared by the live-mode tests (sourced, not run).
#
# Sets BIN (absolute), builds live-target with frame pointers into $work,
# and exits with "SKIP: reason" when this machine does not allow sampling.

BIN=${1:?usage: $0 FLAMETOP_BINARY}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flametop-live.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() {   # check DESCRIPTION COMMAND... (VERBOSE=1: passes shown too)
	desc=$1
	shift
	if "$@"; then
		ok
		[ -n "${VERBOSE:-}" ] && echo "ok: $desc"
	else
		bad "$desc"
	fi
}
# poll TRIES COMMAND...: run COMMAND every 0.1 s until it succeeds, at
# most TRIES times.
poll() {
	_n=$1
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "SKIP: no C compiler to build the test target"
	exit 0
fi
# gcc gives frameless leaf functions no frame pointer; the target avoids
# leaves in its hot paths, and -O1 keeps its functions apart.
if ! "$CC" -O1 -g -fno-omit-frame-pointer -pthread \
	"$here/live-target.c" -o "$work/live-target" 2>"$work/cc.err"; then
	echo "SKIP: cannot build live-target: $(head -n 1 "$work/cc.err")"
	exit 0
fi
TARGET=$work/live-target

# Can we sample at all here?  (A command that spends some CPU: one that
# exits at once gives no samples, which is an error of its own.)
if ! "$BIN" -F 997 -d 30 --collapse -- "$TARGET" 0.05 >/dev/null \
	2>"$work/probe.err"; then
	echo "SKIP: perf_event_open not permitted here: $(head -n 1 "$work/probe.err")"
	exit 0
fi

# share FILE PATTERN: percent of the weight in lines matching PATTERN.
share() {
	awk -v pat="$2" '{ w = $NF; t += w; if ($0 ~ pat) m += w }
		END { if (t == 0) print -1; else printf "%.1f\n", 100 * m / t }' "$1"
}

# within VALUE LOW HIGH (decimals allowed)
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

# near FILE PATTERN PERCENT PERIOD: is the share of the weight in lines
# matching PATTERN within sampling error of PERCENT?  The number of samples
# n is the weight over the period (ns per sample); the tolerance is 4.5
# standard errors of a proportion plus 2 points, and n must be >= 100.
# Prints "share% of n samples" and returns the verdict.
near() {
	awk -v pat="$2" -v want="$3" -v per="$4" '
		{ w = $NF; t += w; if ($0 ~ pat) m += w }
		END {
			n = t / per
			if (n < 1) { print "no samples"; exit 1 }
			p = want / 100
			got = m / t
			tol = 4.5 * sqrt(p * (1 - p) / n) + 0.02
			d = got - p; if (d < 0) d = -d
			printf "%.1f%% of %d samples (want %s +- %.1f)\n", 100 * got, n, want, 100 * tol
			exit !(n >= 100 && d <= tol)
		}' "$1"
}
# The verdict of near without its message (for check).
near_ok() { near "$@" >/dev/null; }

# For the tests that set kernel.perf_event_paranoid and run flametop as
# nobody: says SKIP and exits unless we are root with setpriv and a
# writable $PAR; otherwise saves the level (put back however the test
# ends) and copies the binary where nobody may run it, as $work/flametop.
# as_nobody COMMAND... runs COMMAND as nobody, from /.
PAR=/proc/sys/kernel/perf_event_paranoid
need_root_and_nobody() {
	if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1 ||
		! [ -w "$PAR" ]; then
		echo "SKIP: needs root, setpriv and a writable $PAR"
		exit 0
	fi
	old_paranoid=$(cat "$PAR")
	trap 'echo "$old_paranoid" >"$PAR"; rm -rf "$work"' EXIT
	trap 'exit 1' INT TERM HUP
	chmod 755 "$work" "$TARGET"
	cp "$BIN" "$work/flametop"
	chmod 755 "$work/flametop"
}
as_nobody() {
	(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups "$@")
}
