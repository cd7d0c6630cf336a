#!/bin/sh
# test-signals.sh - the terminal is restored when the TUI is interrupted
# (Ctrl-C), terminated (SIGTERM), hung up (SIGHUP) or quit (SIGQUIT), and
# the exit status says which signal it was (128 + N).
BIN=${1:?usage: test-signals.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=tests/golden/basic.folded

# The flametop process: the pane's shell runs env, which execs it.
viewer_pid() {
	shell=$(tmux_ display-message -p -t ft '#{pane_pid}')
	pgrep -P "$shell" | head -n 1
}

tui_start -- "$IN"
tui_wait "basic.folded" >/dev/null
tui_keys C-c
check "Ctrl-C: exit 130" tui_wait "__EXIT:130"
check "Ctrl-C: terminal restored" tui_restored

for sig in TERM:143 HUP:129 QUIT:131; do
	sname=${sig%%:*}
	code=${sig#*:}
	tui_start -- "$IN"
	tui_wait "basic.folded" >/dev/null
	pid=$(viewer_pid)
	check "SIG$sname: found the process" [ -n "$pid" ]
	[ -n "$pid" ] && kill -s "$sname" "$pid"
	check "SIG$sname: exit $code" tui_wait "__EXIT:$code"
	check "SIG$sname: terminal restored" tui_restored
done

tui_done
