#!/bin/sh
# test-signals.sh - the terminal is restored when the TUI is interrupted
# (Ctrl-C), terminated (SIGTERM), hung up (SIGHUP) or quit (SIGQUIT), and
# the exit status says which signal it was (128 + N); also when it crashes
# (SIGSEGV, SIGABRT, SIGBUS), which then ends it as the signal would, and
# when any other signal that ends a process by default comes (SIGUSR1,
# SIGALRM, SIGXCPU, SIGTRAP), which ends it the same way.
BIN=${1:?usage: test-signals.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=tests/golden/basic.folded

# The flametop process: the pane's shell runs it (env execs it).
viewer_pid() {
	shell=$(tmux_ display-message -p -t ft '#{pane_pid}')
	pgrep -P "$shell" | head -n 1
}

tui_start -- "$IN"
tui_wait "basic.folded" >/dev/null
tui_keys C-c
check "Ctrl-C: exit 130" tui_wait "__EXIT:130"
check "Ctrl-C: terminal restored" tui_restored

# Signals that end flametop: TERM, HUP and QUIT set a flag the loop sees.
# In a crash (a fault, abort, or such a signal sent), and for the other
# signals whose default action ends a process, endwin cannot run: the
# handler writes the reset sequences and puts back the terminal's modes,
# then the signal ends flametop as it would (status 128 + N; 86 when
# AddressSanitizer's handler, the action given back, reports SIGSEGV or
# SIGBUS itself, below the restored screen).  Either way typed keys echo
# again.
for sig in TERM:143 HUP:129 QUIT:131 SEGV:139\|86 ABRT:134 BUS:135\|86 \
	USR1:138 ALRM:142 XCPU:152 TRAP:133; do
	sname=${sig%%:*}
	code=${sig#*:}
	tui_start_sh "ulimit -c 0; '$BIN' '$IN'"
	tui_wait "basic.folded" >/dev/null
	pid=$(viewer_pid)
	check "SIG$sname: found the process" [ -n "$pid" ]
	[ -n "$pid" ] && kill -s "$sname" "$pid"
	check "SIG$sname: exit $code" tui_wait "__EXIT:($code)\$"
	check "SIG$sname: terminal restored" tui_restored
	tui_keys "typed-$sname"
	check "SIG$sname: keys echo again" tui_wait "typed-$sname" 5
done

# The terminal goes away without a SIGHUP (flametop in a session of its
# own, as under setsid or su): the view ends instead of spinning on reads
# that fail at once.
ended() { case $(ps -o stat= -p "$1") in ''|Z*) return 0 ;; esac; return 1; }
pidf=$(mktemp)
tui_start_sh "setsid sh -c 'echo \$\$ >\"$pidf\"; exec \"\$0\" \"\$1\"' '$BIN' '$IN'"
tui_wait "basic.folded" >/dev/null
pid=$(cat "$pidf")
check "hung up, no SIGHUP: found the process" [ -n "$pid" ]
tui_cleanup
check "hung up, no SIGHUP: flametop ends" tui_poll ended "${pid:-0}"
[ -n "$pid" ] && ! ended "$pid" && kill "$pid"
rm -f "$pidf"

tui_done
