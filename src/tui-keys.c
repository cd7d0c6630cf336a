/*
 * tui-keys.c - the key table: every binding of the TUI, with the text the
 * help overlay, --help-keys and the man page show for it.
 *
 * Contexts are searched in order: the timeline's bindings shadow the view's
 * while the strip has the focus, and live bindings come before the view's
 * when a live source drives the view, after them on a saved profile (where
 * the view says what they would do).
 */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "keys.h"
#include "util.h"

#define CTRL(c) ((c) & 0x1f)

static const struct key_binding table[] = {
	{ KCTX_VIEW, ACT_UP, "Up, k", "move up: parent (icicle) or child (flame)",
	  { KEY_UP, 'k', 0 } },
	{ KCTX_VIEW, ACT_DOWN, "Down, j", "move down: child under the selection, or parent",
	  { KEY_DOWN, 'j', 0 } },
	{ KCTX_VIEW, ACT_LEFT, "Left, h", "previous frame on the same row",
	  { KEY_LEFT, 'h', 0 } },
	{ KCTX_VIEW, ACT_RIGHT, "Right, l", "next frame on the same row",
	  { KEY_RIGHT, 'l', 0 } },
	{ KCTX_VIEW, ACT_TOP, "g", "select the top row", { 'g', 0 } },
	{ KCTX_VIEW, ACT_BOTTOM, "G, End", "select the bottom row",
	  { 'G', KEY_END, 0 } },
	{ KCTX_VIEW, ACT_PGUP, "PgUp", "scroll up one screen", { KEY_PPAGE, 0 } },
	{ KCTX_VIEW, ACT_PGDN, "PgDn", "scroll down one screen", { KEY_NPAGE, 0 } },
	{ KCTX_VIEW, ACT_ZOOM, "Enter", "zoom into the selected frame",
	  { '\n', '\r', KEY_ENTER, 0 } },
	{ KCTX_VIEW, ACT_UNZOOM, "Backspace, u",
	  "zoom out one level, then back to the previous view (history)",
	  { KEY_BACKSPACE, 127, 8, 'u' } },
	{ KCTX_VIEW, ACT_RESET, "Esc, Home, r", "reset the zoom",
	  { 27, KEY_HOME, 'r', 0 } },
	{ KCTX_VIEW, ACT_SEARCH, "/, F3, Ctrl-F",
	  "search frames with a pcre2 regex (empty: clear)",
	  { '/', KEY_F(3), CTRL('f'), 0 } },
	{ KCTX_VIEW, ACT_NEXT, "n", "select the next matching frame", { 'n', 0 } },
	{ KCTX_VIEW, ACT_PREV, "N", "select the previous matching frame", { 'N', 0 } },
	{ KCTX_VIEW, ACT_SEARCH_NAME, "#", "search for the selected frame's name",
	  { '#', 0 } },
	{ KCTX_VIEW, ACT_ICASE, "i", "toggle case-insensitive search", { 'i', 0 } },
	{ KCTX_VIEW, ACT_TIMELINE, "t", "show the timeline and select a time range",
	  { 't', 0 } },
	{ KCTX_VIEW, ACT_RANGE_CLEAR, "T", "show all samples again (no time range); "
	  "pprof: its labels, to keep one's samples or group by its key (a "
	  "view: Backspace undoes it)",
	  { 'T', 0 } },
	{ KCTX_VIEW, ACT_THEME, "c", "next color theme", { 'c', 0 } },
	{ KCTX_VIEW, ACT_FLIP, "f", "flip between icicle and flame", { 'f', 0 } },
	{ KCTX_VIEW, ACT_SAMPLE_TYPE, "e",
	  "next sample type (pprof: cpu, alloc_space, ...) or event (perf.data)",
	  { 'e', 0 } },
	{ KCTX_VIEW, ACT_LINES, "L",
	  "frames by source line (NAME FILE:LINE) or by function (files: read "
	  "again; live: from now on)", { 'L', 0 } },
	{ KCTX_VIEW, ACT_ANNOTATE, "a",
	  "annotate the selected frame's function (of a line frame too; an "
	  "inlined frame: the function it is in): its "
	  "source lines with self and total (perf.data, live: the window's, "
	  "perf script, pprof)", { 'a', 0 } },
	{ KCTX_VIEW, ACT_HELP, "?, F1", "show or hide this help",
	  { '?', KEY_F(1), 0 } },
	{ KCTX_VIEW, ACT_REDRAW, "Ctrl-L", "repaint the whole screen", { CTRL('l'), 0 } },
	{ KCTX_VIEW, ACT_QUIT, "q, F10", "quit", { 'q', KEY_F(10), 0 } },
	{ KCTX_TIMELINE, ACT_TL_LEFT, "Left, h", "move the time cursor left",
	  { KEY_LEFT, 'h', 0 } },
	{ KCTX_TIMELINE, ACT_TL_RIGHT, "Right, l", "move the time cursor right",
	  { KEY_RIGHT, 'l', 0 } },
	{ KCTX_TIMELINE, ACT_TL_FAST_LEFT, "H, PgUp", "move the time cursor 10 slices left",
	  { 'H', KEY_PPAGE, KEY_SLEFT, 0 } },
	{ KCTX_TIMELINE, ACT_TL_FAST_RIGHT, "L, PgDn", "move the time cursor 10 slices right",
	  { 'L', KEY_NPAGE, KEY_SRIGHT, 0 } },
	{ KCTX_TIMELINE, ACT_TL_MARK, "Enter, Space",
	  "mark the range's start, then its end: the graph of the range, "
	  "and the mode ends",
	  { '\n', '\r', ' ', KEY_ENTER } },
	{ KCTX_TIMELINE, ACT_TL_COMPARE, "c",
	  "compare: end the range marked (or take the range shown) as A; the "
	  "next range marked, B, is shown against A",
	  { 'c', 0 } },
	{ KCTX_TIMELINE, ACT_RANGE_CLEAR, "T", "show all samples again", { 'T', 0 } },
	{ KCTX_TIMELINE, ACT_TL_LEAVE, "Esc, t, q",
	  "cancel the mark, or leave the mode (q does not quit here)",
	  { 27, 't', 'q', 0 } },
	{ KCTX_TIMELINE, ACT_HEATMAP, "m",
	  "heat map: seconds across, offsets within the second down, in place "
	  "of the strip; select a range or compare there", { 'm', 0 } },
	{ KCTX_VIEWS, ACT_TOP_TABLE, "v", "show or hide the top table (hottest functions)",
	  { 'v', 0 } },
	{ KCTX_VIEWS, ACT_CALLERS, "<", "callers of the selected frame's function",
	  { '<', 0 } },
	{ KCTX_VIEWS, ACT_CALLEES, ">", "callees of the selected frame's function",
	  { '>', 0 } },
	{ KCTX_VIEWS, ACT_SANDWICH, "S",
	  "callers above, callees below the selected frame's function (sandwich)",
	  { 'S', 0 } },
	{ KCTX_VIEWS, ACT_INVERT, "I", "invert the graph: leaf functions first (toggle)",
	  { 'I', 0 } },
	{ KCTX_VIEWS, ACT_ORDER, "O", "order siblings by weight, heaviest first (toggle)",
	  { 'O', 0 } },
	{ KCTX_VIEWS, ACT_FOLD, "R", "fold recursion: a;a;b as a;b (toggle)",
	  { 'R', 0 } },
	{ KCTX_VIEWS, ACT_INCLUDE, "F, F4",
	  "filter: keep stacks with a frame matching a regex",
	  { 'F', KEY_F(4), 0 } },
	{ KCTX_VIEWS, ACT_EXCLUDE, "X", "filter: drop stacks with a frame matching a regex",
	  { 'X', 0 } },
	{ KCTX_VIEWS, ACT_IDLE, "H", "filter: hide or show the idle task (toggle)",
	  { 'H', 0 } },
	{ KCTX_VIEWS, ACT_GROUP, "P", "group per process, per thread, merged, as read",
	  { 'P', 0 } },
	{ KCTX_VIEWS, ACT_TASKS, "%", "filter by comm, pid, tid, cpu (pid=1,2 cpu=0-3); "
	  "again: adds (pid= drops pids), empty: none", { '%', 0 } },
	{ KCTX_VIEWS, ACT_NEGATE, "B",
	  "compare: size frames by the baseline (BEFORE) instead of AFTER (toggle)",
	  { 'B', 0 } },
	{ KCTX_VIEWS, ACT_VIEW_RESET, "V", "back to the profile as read (no view, no filter)",
	  { 'V', 0 } },
	{ KCTX_VIEWS, ACT_COPY_NAME, "y",
	  "copy the frame's name (OSC 52; tmux: set -s set-clipboard on)",
	  { 'y', 0 } },
	{ KCTX_VIEWS, ACT_COPY_STACK, "Y", "copy the selected frame's whole stack "
	  "(OSC 52, as y)", { 'Y', 0 } },
	{ KCTX_VIEWS, ACT_UNFOLD, "A",
	  "zoomed: unfold the ancestors folded into one row (toggle)", { 'A', 0 } },
	{ KCTX_TOP, ACT_UP, "Up, k", "previous function", { KEY_UP, 'k', 0 } },
	{ KCTX_TOP, ACT_DOWN, "Down, j", "next function", { KEY_DOWN, 'j', 0 } },
	{ KCTX_TOP, ACT_PGUP, "PgUp", "one screen up", { KEY_PPAGE, 0 } },
	{ KCTX_TOP, ACT_PGDN, "PgDn", "one screen down", { KEY_NPAGE, 0 } },
	{ KCTX_TOP, ACT_TOP, "g", "first function", { 'g', KEY_HOME, 0 } },
	{ KCTX_TOP, ACT_BOTTOM, "G", "last function", { 'G', KEY_END, 0 } },
	{ KCTX_TOP, ACT_SANDWICH, "Enter", "callers and callees of the function",
	  { '\n', '\r', KEY_ENTER, 0 } },
	{ KCTX_TOP, ACT_CALLEES, ">", "callees of the function", { '>', 0 } },
	{ KCTX_TOP, ACT_CALLERS, "<", "callers of the function", { '<', 0 } },
	{ KCTX_TOP, ACT_TOP_BY_SELF, "1", "sort the top table by self", { '1', 0 } },
	{ KCTX_TOP, ACT_TOP_BY_TOTAL, "2", "sort the top table by total", { '2', 0 } },
	{ KCTX_TOP, ACT_TOP_BY_NAME, "3", "sort the top table by name", { '3', 0 } },
	{ KCTX_TOP, ACT_TOP_BY_CHANGE, "4",
	  "sort a comparison's top table by the size of the change (its first order)",
	  { '4', 0 } },
	{ KCTX_TOP, ACT_TOP_FILTER, "/, F3, Ctrl-F",
	  "filter the functions by a regex (empty: all)",
	  { '/', KEY_F(3), CTRL('f'), 0 } },
	{ KCTX_TOP, ACT_TOP_TABLE, "v, Esc", "leave the top table", { 'v', 27, 0 } },
	{ KCTX_SANDWICH, ACT_SANDWICH_DOC, "Up, Down, k, j",
	  "move in both halves: up from the function to its nearest callers, "
	  "down from them back to it", { 0 } },
	{ KCTX_SANDWICH, ACT_SANDWICH_DOC, "Enter",
	  "on a caller: the sandwich of that caller; on a callee: zoom", { 0 } },
	{ KCTX_SANDWICH, ACT_SANDWICH_DOC, "PgUp, PgDn",
	  "scroll the half with the selection; at its end, on into the other",
	  { 0 } },
	{ KCTX_SANDWICH, ACT_SANDWICH_DOC, "g, G",
	  "the outermost callers' row; the deepest callees' row", { 0 } },
	{ KCTX_SANDWICH, ACT_SANDWICH_DOC, "/, n, N",
	  "search both halves: the callers' matches are marked too, n and N "
	  "visit them in screen order, and the share is of the function's "
	  "samples with a match on either side, each once", { 0 } },
	{ KCTX_SANDWICH, ACT_SANDWICH_DOC, "click",
	  "select a caller or callee; the status line gives a caller's share: "
	  "the function's samples that pass through it", { 0 } },
	{ KCTX_HEATMAP, ACT_HM_LEFT, "Left, h", "previous column (second)",
	  { KEY_LEFT, 'h', 0 } },
	{ KCTX_HEATMAP, ACT_HM_RIGHT, "Right, l", "next column (second)",
	  { KEY_RIGHT, 'l', 0 } },
	{ KCTX_HEATMAP, ACT_HM_UP, "Up, k", "earlier offset within the second",
	  { KEY_UP, 'k', 0 } },
	{ KCTX_HEATMAP, ACT_HM_DOWN, "Down, j", "later offset within the second",
	  { KEY_DOWN, 'j', 0 } },
	{ KCTX_HEATMAP, ACT_HM_FAST_LEFT, "H, PgUp", "10 columns left",
	  { 'H', KEY_PPAGE, KEY_SLEFT, 0 } },
	{ KCTX_HEATMAP, ACT_HM_FAST_RIGHT, "L, PgDn", "10 columns right",
	  { 'L', KEY_NPAGE, KEY_SRIGHT, 0 } },
	{ KCTX_HEATMAP, ACT_HM_MARK, "Enter, Space",
	  "mark the range's start cell, then its end cell (in time order): "
	  "the graph of the range, or range B against A", { '\n', '\r', ' ', KEY_ENTER } },
	{ KCTX_HEATMAP, ACT_HM_COMPARE, "c",
	  "compare: end the range marked (or take the range shown) as A; the "
	  "next range marked, B, is shown against A", { 'c', 0 } },
	{ KCTX_HEATMAP, ACT_RANGE_CLEAR, "T", "show all samples again", { 'T', 0 } },
	{ KCTX_HEATMAP, ACT_HEATMAP, "m", "back to the timeline strip", { 'm', 0 } },
	{ KCTX_HEATMAP, ACT_HM_LEAVE, "Esc, t, q",
	  "cancel the mark or the comparison, or leave timeline mode",
	  { 27, 't', 'q', 0 } },
	{ KCTX_PROMPT, ACT_PROMPT_DOC, "Enter", "search (an empty pattern clears the search)",
	  { 0 } },
	{ KCTX_PROMPT, ACT_PROMPT_DOC, "Up, Down", "earlier and later patterns searched",
	  { 0 } },
	{ KCTX_PROMPT, ACT_PROMPT_DOC, "Esc", "cancel; the search stays as it was", { 0 } },
	{ KCTX_PROMPT, ACT_PROMPT_DOC, "Ctrl-U", "erase the pattern typed", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "Up, Down, k, j",
	  "previous, next line", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "PgUp, PgDn",
	  "one screen up, down", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "g, G",
	  "the first, the last line", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "n, N",
	  "the next, the previous hottest line", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "s",
	  "hottest by total instead of self (toggle)", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "/, F3, Ctrl-F",
	  "search the source text with a pcre2 regex (the next line matching)",
	  { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "Tab, d",
	  "the function's instructions (each with its shares, the source line "
	  "above each run), or back to its source lines", { 0 } },
	{ KCTX_ANNOTATE, ACT_ANNOTATE_DOC, "Backspace, Esc",
	  "back to the graph (a and q too)", { 0 } },
	{ KCTX_LIVE, ACT_LIVE_RATE_UP, "+", "live: raise the sampling rate", { '+', '=', 0 } },
	{ KCTX_LIVE, ACT_LIVE_RATE_DOWN, "-", "live: lower the sampling rate", { '-', 0 } },
	{ KCTX_LIVE, ACT_LIVE_WINDOW, "w", "live: next time window (1 s, 5 s, 30 s, all)",
	  { 'w', 0 } },
	{ KCTX_LIVE, ACT_LIVE_FREEZE, "Space, z", "live: freeze or resume", { ' ', 'z', 0 } },
	{ KCTX_LIVE, ACT_LIVE_RESET, "x", "live: forget the samples so far", { 'x', 0 } },
	{ KCTX_LIVE, ACT_LIVE_BASELINE, "b", "live: compare: take the window as the baseline; "
	  "the view shows the live window against it (again: no baseline)", { 'b', 0 } },
	{ KCTX_LIVE, ACT_LIVE_SAVE, "s", "save what is on screen as a folded file: the "
	  "view, its filters, the window or range (also on a saved profile)",
	  { 's', 0 } },
	{ KCTX_URL, ACT_FETCH, "r", "fetch again (the header counts down; r "
	  "again: stop)", { 'r', 0 } },
	{ KCTX_URL, ACT_FETCH_COMPARE, "b", "compare with the previous fetch "
	  "(toggle; B: sized by it)", { 'b', 0 } },
	{ KCTX_MOUSE, ACT_MOUSE_DOC, "click",
	  "select a frame, a row of the top table, a line of the annotation or "
	  "a label of the list; on the timeline strip or the heat map, mark; "
	  "over the help, close it", { 0 } },
	{ KCTX_MOUSE, ACT_MOUSE_DOC, "double-click",
	  "zoom into a frame; on a row of the top table or a caller in the "
	  "sandwich, its sandwich", { 0 } },
	{ KCTX_MOUSE, ACT_MOUSE_DOC, "wheel",
	  "scroll what is shown: the graph's half under it, the table, the "
	  "help; on the heat map, the cursor; in the annotation and the label "
	  "list, the selection", { 0 } },
};

static const char *const action_names[ACT_COUNT] = {
	[ACT_NONE] = "none", [ACT_UP] = "up", [ACT_DOWN] = "down",
	[ACT_LEFT] = "left", [ACT_RIGHT] = "right", [ACT_TOP] = "top",
	[ACT_BOTTOM] = "bottom", [ACT_PGUP] = "page-up",
	[ACT_PGDN] = "page-down", [ACT_ZOOM] = "zoom",
	[ACT_UNZOOM] = "zoom-out", [ACT_RESET] = "reset",
	[ACT_UNFOLD] = "unfold",
	[ACT_SEARCH] = "search", [ACT_NEXT] = "next-match",
	[ACT_PREV] = "previous-match", [ACT_SEARCH_NAME] = "search-name",
	[ACT_ICASE] = "ignore-case", [ACT_TIMELINE] = "timeline",
	[ACT_RANGE_CLEAR] = "all-time", [ACT_TL_LEFT] = "time-left",
	[ACT_TL_RIGHT] = "time-right", [ACT_TL_FAST_LEFT] = "time-left-10",
	[ACT_TL_FAST_RIGHT] = "time-right-10", [ACT_TL_MARK] = "time-mark",
	[ACT_TL_COMPARE] = "time-compare",
	[ACT_TL_LEAVE] = "time-leave", [ACT_HEATMAP] = "heat-map",
	[ACT_HM_UP] = "heat-up", [ACT_HM_DOWN] = "heat-down",
	[ACT_HM_LEFT] = "heat-left", [ACT_HM_RIGHT] = "heat-right",
	[ACT_HM_FAST_LEFT] = "heat-left-10", [ACT_HM_FAST_RIGHT] = "heat-right-10",
	[ACT_HM_MARK] = "heat-mark", [ACT_HM_COMPARE] = "heat-compare",
	[ACT_HM_LEAVE] = "heat-leave", [ACT_THEME] = "theme",
	[ACT_TOP_TABLE] = "top", [ACT_CALLERS] = "callers",
	[ACT_CALLEES] = "callees", [ACT_SANDWICH] = "sandwich",
	[ACT_INVERT] = "invert",
	[ACT_ORDER] = "weight-order", [ACT_FOLD] = "fold-recursion",
	[ACT_INCLUDE] = "filter-include", [ACT_EXCLUDE] = "filter-exclude",
	[ACT_IDLE] = "hide-idle", [ACT_GROUP] = "group",
	[ACT_TASKS] = "filter-tasks", [ACT_VIEW_RESET] = "view-reset",
	[ACT_NEGATE] = "negate", [ACT_COPY_NAME] = "copy-name", [ACT_COPY_STACK] = "copy-stack",
	[ACT_TOP_BY_SELF] = "top-by-self", [ACT_TOP_BY_TOTAL] = "top-by-total",
	[ACT_TOP_BY_NAME] = "top-by-name", [ACT_TOP_FILTER] = "top-filter",
	[ACT_TOP_BY_CHANGE] = "top-by-change",
	[ACT_FLIP] = "flip", [ACT_HELP] = "help", [ACT_REDRAW] = "redraw",
	[ACT_QUIT] = "quit", [ACT_SAMPLE_TYPE] = "sample-type",
	[ACT_LINES] = "lines", [ACT_ANNOTATE] = "annotate",
	[ACT_ANNOTATE_DOC] = "annotate-doc",
	[ACT_LIVE_RATE_UP] = "rate-up",
	[ACT_LIVE_RATE_DOWN] = "rate-down", [ACT_LIVE_WINDOW] = "window",
	[ACT_LIVE_FREEZE] = "freeze", [ACT_LIVE_RESET] = "live-reset",
	[ACT_LIVE_SAVE] = "save", [ACT_LIVE_BASELINE] = "baseline", [ACT_MOUSE_DOC] = "mouse",
	[ACT_FETCH] = "fetch-again", [ACT_FETCH_COMPARE] = "compare-fetches",
	[ACT_PROMPT_DOC] = "prompt", [ACT_SANDWICH_DOC] = "sandwich-doc",
};

const struct key_binding *keys_table(size_t *n)
{
	*n = ARRAY_SIZE(table);
	return table;
}

const char *keys_action_name(enum tui_action a)
{
	return a < ACT_COUNT && action_names[a] ? action_names[a] : "?";
}

static enum tui_action find(enum key_context ctx, int key)
{
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		/* The view keys are flame graph keys listed apart. */
		if (table[i].ctx != ctx &&
		    !(ctx == KCTX_VIEW && table[i].ctx == KCTX_VIEWS))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(table[i].keys) &&
				   table[i].keys[k]; k++)
			if (table[i].keys[k] == key)
				return table[i].action;
	}
	return ACT_NONE;
}

/* Keys that answer in every mode: help, repaint, quit. */
static bool everywhere(enum tui_action a)
{
	return a == ACT_HELP || a == ACT_REDRAW || a == ACT_QUIT;
}

/* The flame graph's own moves, zoom and search steps: nothing the top
 * table shows (it has its own moves). */
static bool graph_only(enum tui_action a)
{
	switch (a) {
	case ACT_LEFT: case ACT_RIGHT: case ACT_ZOOM: case ACT_RESET:
	case ACT_UNFOLD: case ACT_NEXT: case ACT_PREV: case ACT_SEARCH_NAME:
	case ACT_FLIP:
		return true;
	default:
		return false;
	}
}

/*
 * Each mode takes its own keys.  The timeline and the heat map take their
 * table's, the live ones while sampling, and help, repaint and quit; the
 * top table its own, then the view's that change the view or say why they
 * do nothing, never the graph's moves (the graph is not shown).  Anything
 * else is ACT_NONE, which the loop reports.
 */
enum tui_action keys_lookup(enum key_context ctx, int key, bool live)
{
	enum tui_action a = ACT_NONE;
	bool tl = ctx == KCTX_TIMELINE || ctx == KCTX_HEATMAP;

	if (tl || ctx == KCTX_TOP)
		a = find(ctx, key);
	if (a == ACT_NONE && live)
		a = find(KCTX_LIVE, key);
	if (a == ACT_NONE) {
		a = find(KCTX_VIEW, key);
		if ((tl && !everywhere(a)) || (ctx == KCTX_TOP && graph_only(a)))
			return ACT_NONE;
	}
	if (a == ACT_NONE && !live) {
		/* On a saved profile the live keys still answer: s saves,
		 * the others say why they do nothing. */
		a = find(KCTX_LIVE, key);
	}
	return a;
}

enum tui_action keys_lookup_url(int key)
{
	return find(KCTX_URL, key);
}

void keys_name(int key, char *buf, size_t cap)
{
	static const struct { int key; const char *name; } named[] = {
		{ KEY_UP, "Up" }, { KEY_DOWN, "Down" }, { KEY_LEFT, "Left" },
		{ KEY_RIGHT, "Right" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
		{ KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" },
		{ KEY_ENTER, "Enter" }, { '\n', "Enter" }, { '\r', "Enter" },
		{ KEY_BACKSPACE, "Backspace" }, { 127, "Backspace" },
		{ 8, "Backspace" }, { KEY_SLEFT, "Shift-Left" },
		{ KEY_SRIGHT, "Shift-Right" },
		{ '\t', "Tab" }, { KEY_BTAB, "Shift-Tab" }, { ' ', "Space" },
		{ 27, "Esc" }, { KEY_IC, "Insert" }, { KEY_DC, "Delete" },
		{ KEY_SR, "Shift-Up" }, { KEY_SF, "Shift-Down" },
		{ KEY_SHOME, "Shift-Home" }, { KEY_SEND, "Shift-End" },
		{ KEY_SDC, "Shift-Delete" }, { KEY_SIC, "Shift-Insert" },
	};
	const char *kn;

	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (named[i].key == key) {
			snprintf(buf, cap, "%s", named[i].name);
			return;
		}
	if (key >= KEY_F(1) && key <= KEY_F(63)) {
		snprintf(buf, cap, "F%d", key - KEY_F(0));
	} else if (key > 0 && key < 0x20) {
		snprintf(buf, cap, "Ctrl-%c", '@' + key);
	} else if (key >= 0x20 && key < 0x7f) {
		snprintf(buf, cap, "%c", key);
	} else if (key >= KEY_MIN && key <= KEY_MAX &&
		   (kn = keyname(key)) != NULL) {
		/* curses' own name, "KEY_PRINT" as "PRINT". */
		snprintf(buf, cap, "%s", strncmp(kn, "KEY_", 4) == 0 ? kn + 4 :
			 kn);
	} else if (key > KEY_MAX && (kn = keyname(key)) != NULL) {
		snprintf(buf, cap, "%s", kn);   /* kUP5 and the like */
	} else {
		/* A character beyond ASCII, as UTF-8 (escaped when shown). */
		mbstate_t st;
		char mb[MB_LEN_MAX + 1];
		size_t n;

		memset(&st, 0, sizeof(st));
		n = key > 0 ? wcrtomb(mb, (wchar_t)key, &st) : (size_t)-1;
		if (n == (size_t)-1)
			snprintf(buf, cap, "%d", key);
		else
			snprintf(buf, cap, "%.*s", (int)n, mb);
	}
}

const char *keys_context_title(enum key_context c)
{
	switch (c) {
	case KCTX_VIEW: return "Flame graph";
	case KCTX_TIMELINE:
		return "Timeline mode (after t, while the header says TIMELINE)";
	case KCTX_HEATMAP:
		return "Heat map (m in timeline mode): compare ranges of cells";
	case KCTX_VIEWS: return "Views: top, callers, callees, invert, filter";
	case KCTX_TOP: return "Top table (after v)";
	case KCTX_SANDWICH:
		return "Sandwich (S, or Enter in the top table): callers above, "
		       "callees below";
	case KCTX_PROMPT: return "Search prompt (after /)";
	case KCTX_ANNOTATE:
		return "Annotation (a): the function's source lines; live, "
		       "refreshed with the view";
	case KCTX_LIVE: return "Live sampling";
	case KCTX_URL: return "A profile from a URL (flametop http://...)";
	case KCTX_MOUSE: return "Mouse";
	}
	return "";
}

bool keys_list_move(int key, size_t *sel, size_t n, size_t page)
{
	switch (key) {
	case 'j': case KEY_DOWN:
		if (*sel + 1 < n)
			(*sel)++;
		return true;
	case 'k': case KEY_UP:
		if (*sel)
			(*sel)--;
		return true;
	case KEY_NPAGE: case ' ':
		*sel = *sel + page < n ? *sel + page : n ? n - 1 : 0;
		return true;
	case KEY_PPAGE:
		*sel = *sel > page ? *sel - page : 0;
		return true;
	default:
		return false;
	}
}

void keys_print_help(FILE *out)
{
	int last = -1;

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		if ((int)table[i].ctx != last) {
			last = (int)table[i].ctx;
			fprintf(out, "%s%s:\n", i ? "\n" : "",
				keys_context_title(table[i].ctx));
		}
		fprintf(out, "  %-16s %s\n", table[i].label, table[i].help);
	}
}

/* Write s for troff: a leading dot or quote and backslashes escaped. */
static void troff_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

void keys_print_man(FILE *out)
{
	int last = -1;

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		if ((int)table[i].ctx != last) {
			last = (int)table[i].ctx;
			fprintf(out, ".SS %s\n", keys_context_title(table[i].ctx));
		}
		fputs(".TP\n.B ", out);
		troff_text(out, table[i].label);
		fputc('\n', out);
		troff_text(out, table[i].help);
		fputc('\n', out);
	}
}
