#!/bin/sh
# test-views.sh - the derived views in the TUI: the top table (rows as
# --top prints them, sorted by total and name, the filter line, Enter to
# the sandwich of callers and callees), callers, callees, invert, weight
# order and folded recursion drawn as --text draws the same view, the
# include/exclude filter prompts (and a bad regex), hiding idle, grouping
# and the task filter on perf script input, copying with OSC 52 (read back
# from tmux's buffer), ancestors folded when zoomed deep, Backspace back
# through zooms and views, and the header naming the view.
BIN=${1:?usage: test-views.sh FLAMETOP}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
. "$(dirname "$0")/lib.sh"

IN=tests/golden/views.folded
W=100
# The frame rows of the screen and of --text with the same view options.
frames_screen() { tui_screen | sed -n "2,$(( $1 + 1 ))p" | sed 's/ *$//'; }
frames_text() { "$BIN" --text -w $W "$@" "$IN" | sed '/^$/,$d' | sed 's/ *$//'; }
same_as_text() {   # same_as_text OPTIONS...: the screen shows that view
	want=$(frames_text "$@")
	[ "$(frames_screen "$(printf '%s\n' "$want" | wc -l)")" = "$want" ]
}
# The top table's rows on screen as "self% total% self total name".
top_rows() { tui_screen | sed -n '3,$p' | grep -E '^ *[0-9.]+% ' | sed 's/ *$//' | awk '{ $1 = $1; print }'; }
top_text() { "$BIN" --top 0 "$@" "$IN" | grep -v '^#' | awk '{ $1 = $1; print }'; }

tui_start -x $W -y 30 NO_COLOR=1 -- "$IN"
check "opens" tui_wait "views.folded \| 87.5 samples$"

# The top table.
tui_keys v
check "top: header" tui_wait "\| view: top$"
check "top: rows = --top" [ "$(top_rows)" = "$(top_text)" ]
tui_keys G g
check "top: status" tui_wait "top: 10 of 10 functions, sorted by self"
tui_keys 2
check "top: by total" tui_wait "sorted by total"
check "top: main first by total" [ "$(top_rows | head -n 1 | awk '{ print $5 }')" = main ]
tui_keys 3
check "top: by name" tui_wait "sorted by name"
check "top: cpu_idle first by name" [ "$(top_rows | head -n 1 | awk '{ print $5 }')" = cpu_idle ]
tui_keys / d r '|' d o Enter
check "top: filter line" tui_wait "top filter: /dr\|do/"
check "top: filtered rows" [ "$(top_rows | awk '{ print $5 }' | tr '\n' ' ')" = "do draw_frame " ]
tui_keys j Enter
check "sandwich: header" tui_wait "view: sandwich \(callers above, callees below\) of draw_frame"
# draw_frame's callers: render;main and render;render;render;main, the
# nearest caller right above the function (the row above all).
check "sandwich: callers above" tui_wait "^\[main +\]\[render +\]\$"
check "sandwich: deeper callers higher" [ "$(tui_line 2 | sed 's/^ *//; s/ *$//')" = "[main           ]" ]
check "sandwich: callees below" tui_wait "^\[draw_frame +\]$"
tui_keys BSpace
check "Backspace: back to the table" tui_wait "\| view: top \| top filter: /dr\|do/$"
tui_keys BSpace
check "Backspace: back to the graph" tui_wait "views.folded \| 87.5 samples$"
check "graph as before" same_as_text

# Views drawn as --text draws them.
tui_keys I
check "invert: header" tui_wait "\| view: inverted$"
check "invert = --text --invert" same_as_text --invert
tui_keys R
check "fold: header" tui_wait "\| view: inverted, recursion folded$"
check "fold = --text" same_as_text --invert --fold-recursion
tui_keys O
check "weight order = --text" same_as_text --invert --fold-recursion --order weight
tui_keys V
check "V: as read" tui_wait "views.folded \| 87.5 samples$"
check "V: graph as read" same_as_text

# Callers and callees of the selected frame.
tui_keys j
check "main selected" tui_wait "^main \|"
tui_keys '<'
check "callers: header" tui_wait "view: callers of main$"
check "callers = --text" same_as_text --callers main
tui_keys BSpace '>'
check "callees = --text" same_as_text --callees main

# Filters: include, exclude, a bad regex.
tui_keys V F r e n d e r Enter
check "include: header" tui_wait "view: filter \+/render/$"
check "include = --text" same_as_text --include render
tui_keys X d r a w Enter
check "exclude = --text" same_as_text --include render --exclude draw
tui_keys X 'a(b' Enter
check "bad regex: pcre2 message" tui_wait "missing closing parenthesis at offset 3"
check "bad regex: the view stays" tui_wait "view: filter \+/render/, filter -/draw/"

# Idle hidden (no tasks in folded input: by name); grouping needs tasks.
tui_keys V H
check "idle hidden" tui_wait "view: idle hidden$"
check "idle = --exclude idle" same_as_text --exclude '^idle$'
tui_keys P
check "grouping: folded input says why" tui_wait "does not know processes"

# Ancestors fold into one row when zoomed deep; A unfolds them.
tui_keys V j j Enter j Enter
check "zoomed: path" tui_wait "zoom: all > main > parse > read_line$"
check "zoomed: ancestors folded" tui_wait "^\[parse "
check "zoomed: all not shown" [ -z "$(tui_screen | grep '^\[all ')" ]
tui_keys A
check "A: unfolded" tui_wait "^\[all +\]"

# Backspace: one history of zooms and views.
tui_keys A r I j Enter
check "zoom in an inverted view" tui_wait "view: inverted \| zoom: all > "
tui_keys BSpace
check "Backspace: zoom out first" tui_wait "\| view: inverted$"
tui_keys BSpace
check "Backspace: then the view" tui_wait "views.folded \| 87.5 samples$"

# The help names the views.
tui_keys '?' Space
check "help: the views' section" tui_wait "Views: top, callers, callees, invert, filter"
check "help: top" tui_wait "top table"
for w in callers callees invert "filter: keep stacks"; do
	check "help: $w" tui_wait "$w"
done

tui_keys Escape q
check "exits 0" tui_wait "__EXIT:0"

# Copying: OSC 52 into tmux's paste buffer.
tui_start -x $W -y 30 NO_COLOR=1 -- "$IN"
tui_wait "views.folded" >/dev/null
tmux_ set-option -g set-clipboard on >/dev/null 2>&1
tui_keys j j j
check "selected read_line" tui_wait "^read_line \|"
tui_keys y
check "copy: message" tui_wait "copied the name"
check "copy: the name" tui_poll sh -c "[ \"\$(tmux -L $TUI_SOCK show-buffer 2>/dev/null)\" = read_line ]"
tui_keys Y
check "copy: the stack" tui_poll sh -c "[ \"\$(tmux -L $TUI_SOCK show-buffer 2>/dev/null)\" = 'main;parse;read_line' ]"
tui_keys q

# perf script input: the task filter and grouping.
tui_start -x $W -y 30 NO_COLOR=1 -- tests/golden/mixed.perf
tui_wait "mixed.perf" >/dev/null
tui_keys % 't' 'i' 'd' '=' '4' '3' '0' '2' Enter
check "tasks: header" tui_wait "view: filter tid=4302$"
check "tasks: only that thread" [ -z "$(tui_screen | grep -E '^\[(java|V8)')" ]
tui_keys P
check "group per process" tui_wait "view: filter tid=4302, per process$"
check "group: root comm-pid" tui_wait "^\[server-4300 +\]"
tui_keys P
check "group per thread" tui_wait "^\[server-4300/4302 +\]"
tui_keys % 'p' 'i' 'd' '=' 'x' Enter
check "tasks: bad list" tui_wait "bad list 'x'"
tui_keys q
check "exits 0 (perf)" tui_wait "__EXIT:0"

# View options on the command line are the view's first step, as the keys
# make it: the header names it, the root's share is of the view and of all
# as --top gives it, the screen is --text's, and Backspace goes back to
# the profile as read.
tui_start -x $W -y 30 NO_COLOR=1 -- --include parse --invert "$IN"
check "start view: header" tui_wait "views.folded \| 40 samples \| view: inverted, filter \+/parse/$"
check "start view: drawn as --text" same_as_text --include parse --invert
tui_keys g
share=$("$BIN" --include parse --top 0 "$IN" | sed -n '1s/.*, \([0-9.]*%\) of all.*/\1/p')
check "start view: root $share of all, as --top" tui_wait "^all \| 40 samples \(self 0\) \| 100.00% of view \| $share of all"
tui_keys BSpace
check "start view: Backspace, the profile as read" tui_wait "views.folded \| 87.5 samples$"
tui_keys q
check "start view: exits 0" tui_wait "__EXIT:0"

# H on folded input hides the kernel's idle frames by their exact names
# only: reap_idle_connections is work, and 100 of the 200 samples stay.
tui_start -x $W -y 30 NO_COLOR=1 -- tests/golden/idle-names.folded
check "idle names: opens" tui_wait "idle-names.folded \| 200 samples$"
# A task filter on folded input says it would keep nothing, as --pids does.
tui_keys % p i d = 5 Enter
check "task filter on folded: says why" tui_wait "does not say which process, thread or CPU took its samples"
check "task filter on folded: view kept" tui_wait "idle-names.folded \| 200 samples$"
tui_keys H
check "idle names: work stays" tui_wait "idle-names.folded \| 100 samples \| view: idle hidden$"
check "idle names: reap_idle_connections drawn" tui_wait "^\\[reap_idle_connections +\\]\\[work "
tui_keys q
check "idle names: exits 0" tui_wait "__EXIT:0"
tui_done
