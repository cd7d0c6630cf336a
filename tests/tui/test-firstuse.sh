#!/bin/sh
# test-firstuse.sh - what a new user tries first: --text to a pipe takes
# the terminal's width, Ctrl-L repaints, End/F1/F10, the live keys on a
# saved profile, the status line keeps its numbers, the zoom path ends with
# the zoomed frame, the timeline says when its keys are active, search
# feedback, a silent pipe, and the help overlay on a small terminal.
BIN=${1:?usage: test-firstuse.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

ends_with() { case $1 in *"$2") return 0 ;; esac; return 1; }
contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }

# --text to a pipe: COLUMNS, then the controlling terminal's width.
widest() { awk '/^$/ { exit } { if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
out=$(mktemp)
tui_start_sh -x 70 -y 20 "'$BIN' --text samples/sort.folded | cat > '$out'"
tui_wait "__EXIT:0" >/dev/null
check "--text | cat in 70 columns: lines fit ($(widest "$out"))" [ "$(widest "$out")" -le 70 ]
check "--text | cat in 70 columns: the width is used" [ "$(widest "$out")" -ge 60 ]
tui_start_sh -x 70 -y 20 "COLUMNS=50 '$BIN' --text samples/sort.folded | cat > '$out'"
tui_wait "__EXIT:0" >/dev/null
check "COLUMNS=50 wins ($(widest "$out"))" [ "$(widest "$out")" -le 50 ]
check "COLUMNS=50 is used" [ "$(widest "$out")" -ge 40 ]
rm -f "$out"

# A deep zoom: the header's path ends with the zoomed frame (the name the
# status line starts with), cut from the left.
tui_start -x 120 -y 35 -- samples/python.perf-script.zst
tui_wait "CPU" >/dev/null
tui_keys G
tui_settle
sel=$(tui_line 35 | sed 's/ | .*//')
tui_keys Enter
tui_settle
head1=$(tui_line 1 | sed 's/ *$//')
check "deep zoom: the header ends with '$sel'" ends_with "$head1" "> $sel"
check "deep zoom: the path is cut from the left" contains "$head1" "zoom: .."
tui_keys q

# A 317-character name at 100 columns: the numbers stay on the status line
# and the name takes what is left, cut with "..".
long=$(mktemp)
name=$(awk 'BEGIN { s = "ns::Widget<"; while (length(s) < 300) s = s "std::vector<int>, "; s = s "T>::render_everything()"; print substr(s, 1, 317) }')
printf 'main;%s 70\nmain;other 30\n' "$name" >"$long"
tui_start -x 100 -y 20 -- "$long"
tui_wait "samples" >/dev/null
tui_keys j j
tui_settle
last=$(tui_line 20)
check "long name: the status line shows the samples" contains "$last" "70 samples (self 70)"
check "long name: and the shares" contains "$last" "70.00% of all"
check "long name: the name is cut with .." contains "$last" ".. | 70 samples"
check "long name: one line" [ "$(tui_line 19 | grep -c 'ns::Widget')" -eq 0 ]
tui_keys q
rm -f "$long"

# Ctrl-L repaints what another program wrote over the screen.
tui_start -x 100 -y 20 -- samples/sort.folded
tui_wait "samples" >/dev/null
tty=$(tmux_ display-message -p -t ft '#{pane_tty}')
printf '\033[5;10HGARBAGE-FROM-ELSEWHERE' >"$tty"
tui_settle
check "garbage is on the screen" tui_wait "GARBAGE-FROM-ELSEWHERE" 2
tui_keys C-l
tui_settle
check "Ctrl-L repaints it away" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q GARBAGE"

# End selects the bottom row (as G), F1 opens the help, F10 quits.
tui_keys g
tui_settle
top=$(tui_line 20)
tui_keys End
tui_settle
check "End moves to the bottom row" [ "$(tui_line 20)" != "$top" ]
bottom=$(tui_line 20)
tui_keys G
tui_settle
check "End is G" [ "$(tui_line 20)" = "$bottom" ]
tui_keys F1
check "F1 opens the help" tui_wait "any key closes|other keys close" 5
tui_keys Escape
tui_settle
tui_keys F10
check "F10 quits" tui_wait "__EXIT:0" 5

# The help overlay at 50x12: its footer is the last row, nothing after it.
tui_start -x 50 -y 12 -- samples/sort.folded
tui_wait "samples" >/dev/null
tui_keys '?'
tui_settle
check "50x12 help: the footer is the last row" contains "$(tui_line 12)" "lines 1-"
check "50x12 help: nothing after the footer" [ -z "$(tui_screen | sed -n '13,$p' | tr -d ' \n')" ]
foot=$(tui_line 12)
check "50x12 help: the footer ends its row" sh -c "printf '%s' '$foot' | grep -Eq 'lines [0-9]+-[0-9]+ of [0-9]+: j/k, PgUp/PgDn scroll; [a-z .]* *\$'"
tui_keys q

# Sub-column frames: the screen draws as many rows as --text at the same
# width, and the depth only grows with the width.
prev=0
for w in 80 100 120 200; do
	n=$("$BIN" --text -w "$w" samples/python.perf-script.zst | sed '/^$/,$d' | wc -l)
	check "python sample at $w columns: $n rows, not fewer than $prev" [ "$n" -ge "$prev" ]
	prev=$n
done
text_rows=$("$BIN" --text -w 120 samples/python.perf-script.zst | sed '/^$/,$d' | wc -l)
tui_start -x 120 -y 20 -- samples/python.perf-script.zst
tui_wait "CPU" >/dev/null
check "screen rows = --text rows ($text_rows)" tui_wait "rows 1-[0-9]+ of $text_rows( |\$)" 5
tui_keys q

# The timeline mode says when its keys are active: TIMELINE in the header
# while they are, a message when the mode ends, and q leaves the mode (as
# the help says) instead of quitting.
tui_start -x 120 -y 30 -- samples/python.perf-script.zst
tui_wait "CPU" >/dev/null
tui_keys t
check "t: the header says TIMELINE" tui_wait "^TIMELINE \| " 5
tui_keys Enter l l l l l Enter
check "a range ends the mode, and says so" tui_wait "applied; timeline mode left" 5
check "the header no longer says TIMELINE" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | head -n 1 | grep -q '^TIMELINE'"
tui_keys t
check "t again: TIMELINE" tui_wait "^TIMELINE \| " 5
check "t again: the keys are said" tui_wait "Esc, t or q leave" 5
tui_keys q
check "q in the mode leaves it" tui_wait "timeline mode left" 5
check "q in the mode does not quit" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q __EXIT"
tui_keys '?'
check "the help names the mode" tui_wait "Timeline mode \(after t, while the header says TIMELINE\)" 5
tui_keys Escape q
check "q outside the mode quits" tui_wait "__EXIT:0" 5

# Search feedback: the pattern in the header, Up/Down in the prompt, and
# "match k of N" on n/N.
tui_start -x 120 -y 30 NO_COLOR=1 -- samples/sort.folded
tui_wait "samples" >/dev/null
tui_keys / s o r t Enter
check "the header shows the pattern" tui_wait "\| /sort/ Matched: " 5
tui_keys n
check "n: match 1 of N" tui_wait "^match 1 of [0-9]+" 5
N=$(tui_line 30 | sed -n 's/^match 1 of \([0-9]*\).*/\1/p')
tui_keys n
check "n again: match 2 of $N" tui_wait "^match 2 of $N" 5
tui_keys N
check "N: match 1 of $N" tui_wait "^match 1 of $N" 5
tui_keys / u n k Enter
check "a second search" tui_wait "\| /unk/ Matched: " 5
tui_keys /
check "the prompt says Up recalls" tui_wait "^/ +\(Up: unk, and older searches\)" 5
tui_keys Escape / x y z Enter
check "a third search" tui_wait "\| /xyz/ Matched: " 5
tui_keys / Up Up Up Down Enter
check "Up x3, Down: the second pattern" tui_wait "\| /unk/ Matched: " 5
tui_keys / Up Up Up Enter
check "Up x3: the first pattern" tui_wait "\| /sort/ Matched: " 5
tui_keys / x Up Down
check "Down again gives back what was typed" tui_wait "^/x" 5
tui_keys Escape q
check "search: exit 0" tui_wait "__EXIT:0" 5

# A silent pipe: the terminal says what flametop waits for, at once.
tui_start_sh "(sleep 4; cat samples/sort.folded) | '$BIN'"
check "silent pipe: waiting for input on stdin" tui_wait "waiting for input on stdin" 3
check "then the graph" tui_wait "^stdin \| [0-9.]+[kMG]? samples" 20
check "the waiting line is gone" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | grep -q waiting"
tui_keys q
check "silent pipe: exit 0" tui_wait "__EXIT:0" 5

# The live keys on a saved profile: s saves the view as folded stacks and
# says where; + - w x say why they do nothing.
dir=$(mktemp -d)
cp samples/sort.folded "$dir/in.folded"
tui_start_sh -x 160 -y 20 "cd '$dir' && '$BIN' in.folded"
tui_wait "samples" >/dev/null
tui_keys s
check "s on a saved profile saves and says where" tui_wait "saved [0-9]+ stacks to $dir/flametop-view-[0-9-]+\.folded \(the whole graph\)" 5
saved=$(ls "$dir"/flametop-view-*.folded 2>/dev/null | head -n 1)
check "the file is the profile, folded" sh -c "[ -s '$saved' ] && [ \"\$('$BIN' --collapse '$saved' | md5sum)\" = \"\$('$BIN' --collapse '$dir/in.folded' | md5sum)\" ]"
tui_keys +
check "+ says why not" tui_wait "change the sampling rate of live sampling" 5
tui_keys w
check "w says why not" tui_wait "t selects a time range" 5
tui_keys x
check "x says why not" tui_wait "keeps its samples" 5
tui_keys q
check "saved profile keys: exit 0" tui_wait "__EXIT:0" 5
rm -rf "$dir"

tui_done
