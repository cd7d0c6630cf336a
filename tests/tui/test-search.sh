#!/bin/sh
# test-search.sh - searching in the TUI: the highlighted frames and the
# "Matched:" share are what `--text --search` says for the same regex and
# width; n/N select matching frames; # searches the selected name; i folds
# case; an invalid regex shows pcre2's message and offset; Esc cancels the
# prompt; an empty search clears; --search starts with a search.
BIN=${1:?usage: test-search.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=samples/sort.folded
text_matched() { "$BIN" --text -w 120 --search "$1" "$IN" | sed -n 's/^Matched: //p'; }
text_marks() { "$BIN" --text -w 120 --search "$1" "$IN" | sed '/^$/,$d' | tr -cd '{!' | wc -c; }
rows=$("$BIN" --text -w 120 "$IN" | sed '/^$/,$d' | wc -l)
# Highlighted frames on screen: NO_COLOR draws them as {name} or '!'.
screen_marks() { tui_screen | sed -n "2,$((rows + 1))p" | tr -cd '{!' | wc -c; }

tui_start -y 40 NO_COLOR=1 -- "$IN"
tui_wait "sort.folded \| [0-9.]+[kMG]? samples" >/dev/null
tui_keys / s o r t Enter
m=$(text_matched sort)
check "matched = --text" tui_wait " Matched: $(printf '%s' "$m" | sed 's/[().]/\\&/g')"
check "highlight count = --text" [ "$(screen_marks)" -eq "$(text_marks sort)" ]
check "some frames highlighted" [ "$(screen_marks)" -gt 3 ]
tui_keys n
check "n selects a match" tui_wait "^[^ |]*sort[^ |]* \| [0-9.]+[kMG]? samples"
tui_keys n n N
check "N selects a match" tui_wait "^[^ |]*sort[^ |]* \| [0-9.]+[kMG]? samples"

# Invalid regex: pcre2's message with the offset; the old search stays.
tui_keys / 'a(b' Enter
check "bad regex message" tui_wait "bad regex /a\(b/: missing closing parenthesis at offset 3"
check "old search stays" tui_wait " Matched: "

# Esc in the prompt cancels.
tui_keys / x y z Escape
check "Esc cancels" tui_wait " Matched: $(printf '%s' "$m" | sed 's/[().]/\\&/g')"

# Case: SORT matches nothing, then i folds case.
tui_keys / S O R T Enter
check "case-sensitive" tui_wait "no frame matches"
tui_keys i
check "i folds case" tui_wait " Matched: $(printf '%s' "$m" | sed 's/[().]/\\&/g')"
tui_keys i

# #: the selected frame's exact name ("sort", the process frame).
tui_keys g j '#'
m2=$(text_matched '^sort$')
check "# exact name" tui_wait " Matched: $(printf '%s' "$m2" | sed 's/[().]/\\&/g')"

# A regex with more matches: the shares agree again.
tui_keys / 'page|fault' Enter
m3=$(text_matched 'page|fault')
check "second regex matched" tui_wait " Matched: $(printf '%s' "$m3" | sed 's/[().]/\\&/g')"
check "second regex highlights" [ "$(screen_marks)" -eq "$(text_marks 'page|fault')" ]

# Empty search clears.
tui_keys / Enter
check "empty clears" tui_wait "search cleared"
check "no Matched" sh -c "! tmux -L '$TUI_SOCK' capture-pane -p -t ft | head -n 1 | grep -q Matched"
tui_keys q
check "exit 0" tui_wait "__EXIT:0"

# --search on the command line.
tui_start -y 40 NO_COLOR=1 -- --search 'unknown' "$IN"
m4=$(text_matched unknown)
check "--search" tui_wait " Matched: $(printf '%s' "$m4" | sed 's/[().]/\\&/g')"
tui_keys q
check "--search: exit 0" tui_wait "__EXIT:0"
tui_start -- --search 'a(' "$IN"
check "--search bad regex: exit 2" tui_wait "__EXIT:2"

tui_done
