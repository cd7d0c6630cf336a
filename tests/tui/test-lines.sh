#!/bin/sh
# test-lines.sh - L in the view reads the inputs again with frames by
# source line ("NAME FILE:LINE", as --lines), and again by function; the
# status line says which.  tests/data/fp.data through the symfs holds
# prog.c's lines (burn's loop is prog.c:11); a folded input has none and
# says so; standard input cannot be read again.  Live, L names the frames
# of the samples to come (counts start over), where sampling is allowed.
BIN=${1:?usage: test-lines.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

tui_start -x 120 -y 30 NO_COLOR=1 -- --symfs tests/data/symfs tests/data/fp.data
check "opens by function" tui_wait "burn"
check "no line before L" sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -q "prog\.c:"' sh "$TUI_SOCK"
tui_keys L
check "L: says frames are by line" tui_wait "frames by source line"
# The selected frame's name in the status line, or a wide frame's label.
tui_keys Down Down Down Down
check "L: frames carry FILE:LINE" tui_wait "(work prog\.c:20|main prog\.c:27)"
tui_keys L
check "L again: by function" tui_wait "frames by function"
check "L again: no line left" tui_poll sh -c '! tmux -L "$1" capture-pane -p -t ft | grep -q "prog\.c:"' sh "$TUI_SOCK"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

tui_start -x 120 -y 30 NO_COLOR=1 -- tests/golden/basic.folded
check "folded opens" tui_wait "main"
tui_keys L
check "L on folded: no lines there" tui_wait "the input carries no lines: frames stay by function"
tui_keys q
check "folded: exit 0" tui_wait "__EXIT:0"

tui_session 120 30 "cat tests/golden/basic.folded | env LC_ALL=C.UTF-8 TERM=tmux-256color NO_COLOR=1 '$BIN'"
check "stdin opens" tui_wait "main"
tui_keys L
check "L on standard input: cannot read again" tui_wait "L reads the input files again: not here"
tui_keys q
check "stdin: exit 0" tui_wait "__EXIT:0"

# ---- Live: from now on ------------------------------------------------------
tmp=$(mktemp -d)
trap 'tui_cleanup; rm -rf "$tmp"' EXIT
cat >"$tmp/spin.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
static double cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
__attribute__((noinline)) void spin(void)
{
	for (int i = 0; i < 100000; i++)
		sink += (unsigned long)i * i;
}
int main(int argc, char **argv)
{
	double end = cpu() + atof(argv[1]);

	while (cpu() < end)
		spin();
	return 0;
}
EOF
if ! ${CC:-cc} -O1 -g -fno-omit-frame-pointer "$tmp/spin.c" -o "$tmp/spin" 2>/dev/null; then
	echo "SKIP (in part): no C compiler: no live check"
elif ! "$BIN" -F 997 -d 30 --collapse -- "$tmp/spin" 0.05 >/dev/null 2>&1; then
	echo "SKIP (in part): sampling not permitted here: no live check"
else
	tui_start -x 120 -y 30 NO_COLOR=1 -- -F 199 -- "$tmp/spin" 60
	check "live opens by function" tui_wait "\[spin +\]"
	tui_keys L
	check "live L: says from now on" \
		tui_wait "frames by source line \(NAME FILE:LINE\) from now on"
	check "live L: the loop's line" tui_wait "spin spin\.c:1[45]"
	tui_keys L
	check "live L again: by function" tui_wait "frames by function from now on"
	tui_keys q
	check "live: exit 0" tui_wait "__EXIT:0"
fi
tui_done
