# lib.sh - helpers for the TUI tests: a private tmux server per test
# script, keys sent with send-keys, the screen read with capture-pane, and
# polling until the screen shows what is expected (no fixed sleeps).
#
#   . tests/tui/lib.sh          (after setting BIN)
#   tui_start [-x W] [-y H] [ENV=VALUE...] -- ARGS...   run "$BIN ARGS"
#   tui_keys KEYS...            tmux send-keys
#   tui_wait REGEX [SECONDS]    until the screen matches (extended grep)
#                               and holds still
#   tui_settle                  until the screen stops changing
#   tui_poll COMMAND...         until the command succeeds
#   tui_screen                  the screen as text
#   tui_click COL ROW, tui_dblclick COL ROW, tui_mouse BUTTON COL ROW
#                               mouse reports typed into the pane (0-based)
#   ok NAME / bad NAME WHY      count a check
#   tui_done                    print "N passed, N failed" and exit
#
# The command runs as `$BIN ARGS; echo "__EXIT:$?"`, so tui_wait '__EXIT:0'
# checks the exit status, and tui_restored that the terminal was left in
# its normal state (alternate screen, mouse and keypad modes off, cursor
# visible).

TUI_BASE="ft-$$-$(basename "$0" .sh)"
TUI_N=0
TUI_SOCK="$TUI_BASE-0"
TUI_TIMEOUT=${TUI_TIMEOUT:-20}
pass=0
fail=0

tmux_() { tmux -L "$TUI_SOCK" -f /dev/null "$@"; }

tui_cleanup() { tmux_ kill-server >/dev/null 2>&1; }
trap tui_cleanup EXIT

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tmux is not installed"
	exit 0
fi

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL $1: $2"
	echo "---- screen:"
	tui_screen | sed 's/^/    |/' | head -n 40
}
check() {   # check NAME COMMAND...
	name=$1
	shift
	if "$@"; then ok; else bad "$name" "$*"; fi
}

tui_screen() { tmux_ capture-pane -p -t ft 2>/dev/null; }

# Run a shell command line in a new private session of W x H (the
# previous session is killed); the pane stays after it exits.
tui_session() {
	tui_cleanup
	TUI_N=$((TUI_N + 1))
	TUI_SOCK="$TUI_BASE-$TUI_N"
	tmux_ new-session -d -s ft -x "$1" -y "$2" \
		"cd '$PWD' && $3; echo \"__EXIT:\$?\"; sleep 600"
	tmux_ set-option -t ft remain-on-exit on >/dev/null 2>&1
}

# Start the binary with ARGS (after --); ENV=VALUE words before -- are set.
tui_start() {
	w=120 h=30 envs=""
	while [ $# -gt 0 ]; do
		case $1 in
		-x) w=$2; shift 2 ;;
		-y) h=$2; shift 2 ;;
		--) shift; break ;;
		*) envs="$envs $1"; shift ;;
		esac
	done
	cmd="env LC_ALL=C.UTF-8 TERM=tmux-256color$envs"
	for a in "$BIN" "$@"; do
		cmd="$cmd '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
	done
	tui_session "$w" "$h" "$cmd"
}

# A shell pipeline instead of the binary's arguments.
tui_start_sh() {
	w=120 h=30
	while [ $# -gt 0 ]; do
		case $1 in
		-x) w=$2; shift 2 ;;
		-y) h=$2; shift 2 ;;
		--) shift; break ;;
		*) break ;;
		esac
	done
	tui_session "$w" "$h" "export LC_ALL=C.UTF-8 TERM=tmux-256color && $1"
}

tui_keys() { tmux_ send-keys -t ft "$@"; }

# The pid of the program the pane's shell runs (its one child), or nothing.
tui_pid() { pgrep -P "$(tmux_ display-message -p -t ft '#{pane_pid}')" | head -n 1; }

# Has the pane's shell ended?  tmux may mark the pane dead before it has
# the exit status, and then shows no "Pane is dead (...)" line at all.
tui_dead() { [ "$(tmux_ display-message -p -t ft '#{pane_dead}')" = 1 ]; }

# tui_mouse BUTTON-BYTE COL ROW (0-based): the X10 mouse report a terminal
# sends for tmux-256color's kmous, ESC [ M b x y, each + 32 (+1): 32 a
# press, 35 a release, 96 and 97 the wheel up and down.
tui_mouse() {
	b=$(printf "\\$(printf %o "$1")")
	x=$(printf "\\$(printf %o $((33 + $2)))")
	y=$(printf "\\$(printf %o $((33 + $3)))")
	tmux_ send-keys -t ft -l "$(printf '\033[M%s%s%s' "$b" "$x" "$y")"
}
tui_click() { tui_mouse 32 "$1" "$2"; tui_mouse 35 "$1" "$2"; }
# A double click: both clicks in one write, so that a busy machine does not
# stretch them past the double-click interval (200 ms).
tui_dblclick() {
	x=$(printf "\\$(printf %o $((33 + $1)))")
	y=$(printf "\\$(printf %o $((33 + $2)))")
	tmux_ send-keys -t ft -l "$(printf '\033[M %s%s\033[M#%s%s\033[M %s%s\033[M#%s%s' \
		"$x" "$y" "$x" "$y" "$x" "$y" "$x" "$y")"
}

# How flametop shows an amount N: "figure time|count|bytes N", the scale
# chosen per figure (ns, µs, ms, s; k, M, G by 1000; B, kB, MB by 1024),
# two decimals under 10, one above, a whole number below the first
# multiple exactly: "82.2 ms", "1.66G", "917", "11.0 MB".
figure() {
	awk -v k="$1" -v n="$2" 'BEGIN {
		if (k == "time") { m = split("ns \302\265s ms s", u, " "); b = 1000 }
		else if (k == "bytes") { m = split("B kB MB GB TB PB", u, " "); b = 1024 }
		else { m = split("- k M G T P", u, " "); b = 1000 }
		v = n + 0; i = 1
		while (i < m && v >= 999.95) { v /= b; i++ }
		d = (i == 1 && v == int(v)) ? 0 : v < 9.995 ? 2 : 1
		sep = k == "count" ? "" : " "
		printf("%." d "f%s%s\n", v, sep, u[i] == "-" ? "" : u[i]) }'
}
# NS nanoseconds of CPU time: "4.29 s CPU", "82.2 ms CPU".
cpu_amount() { echo "$(figure time "$1") CPU"; }

# A match counts once a second look shows the same screen: tmux may show
# a frame half drawn, and the checks that follow read the rest of it.  A
# screen that never holds still (live mode) counts if it matches at the
# limit.
tui_wait() {
	re=$1
	limit=${2:-$TUI_TIMEOUT}
	start=$(date +%s)
	while :; do
		shot=$(tui_screen)
		if printf '%s\n' "$shot" | grep -E -q -- "$re"; then
			[ "$(tui_screen)" = "$shot" ] && return 0
		fi
		if [ $(( $(date +%s) - start )) -ge "$limit" ]; then
			tui_screen | grep -E -q -- "$re"
			return
		fi
		sleep 0.05
	done
}

# Until COMMAND... succeeds (polled), or the timeout.
tui_poll() { tui_poll_for "$TUI_TIMEOUT" "$@"; }
# The same within SECONDS.
tui_poll_for() {
	limit=$1
	shift
	start=$(date +%s)
	until "$@"; do
		if [ $(( $(date +%s) - start )) -ge "$limit" ]; then return 1; fi
		sleep 0.05
	done
}

# Until three captures 60 ms apart are the same.
tui_settle() {
	prev=$(tui_screen)
	same=0
	start=$(date +%s)
	while [ "$same" -lt 2 ]; do
		sleep 0.06
		cur=$(tui_screen)
		if [ "$cur" = "$prev" ]; then same=$((same + 1)); else same=0; fi
		prev=$cur
		if [ $(( $(date +%s) - start )) -ge "$TUI_TIMEOUT" ]; then return 1; fi
	done
	return 0
}

# Send keys, then wait for the screen to settle.
tui_type() { tui_keys "$@"; tui_settle; }

# The terminal is back to normal: alternate screen off, cursor shown,
# mouse reporting and the keypad modes off.
tui_restored() {
	[ "$(tmux_ display-message -p -t ft '#{alternate_on} #{cursor_flag}
#{mouse_any_flag} #{keypad_flag} #{keypad_cursor_flag}')" = "0 1
0 0 0" ]
}

# Line N (1-based) of the screen.
tui_line() { tui_screen | sed -n "${1}p"; }

tui_done() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
