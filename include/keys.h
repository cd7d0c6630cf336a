/*
 * keys.h - the TUI's named actions and the one table that binds keys to
 * them.  The same table drives the key handling, the `?` help overlay,
 * `flametop --help-keys` and the KEYS section of doc/flametop.1, so the
 * three never drift.  This header is curses-free; the table itself lives in
 * src/tui-keys.c, which knows curses' key codes.
 */
#ifndef FLAMETOP_KEYS_H
#define FLAMETOP_KEYS_H

#include <stdbool.h>
#include <stdio.h>

enum tui_action {
	ACT_NONE,
	/* moving */
	ACT_UP, ACT_DOWN, ACT_LEFT, ACT_RIGHT,
	ACT_TOP, ACT_BOTTOM, ACT_PGUP, ACT_PGDN,
	/* zooming */
	ACT_ZOOM, ACT_UNZOOM, ACT_RESET, ACT_UNFOLD,
	/* searching */
	ACT_SEARCH, ACT_NEXT, ACT_PREV, ACT_SEARCH_NAME, ACT_ICASE,
	/* time ranges */
	ACT_TIMELINE, ACT_RANGE_CLEAR,
	ACT_TL_LEFT, ACT_TL_RIGHT, ACT_TL_FAST_LEFT, ACT_TL_FAST_RIGHT,
	ACT_TL_MARK, ACT_TL_LEAVE, ACT_TL_COMPARE,
	/* the heat map (timeline mode) */
	ACT_HEATMAP, ACT_HM_UP, ACT_HM_DOWN, ACT_HM_LEFT, ACT_HM_RIGHT,
	ACT_HM_FAST_LEFT, ACT_HM_FAST_RIGHT, ACT_HM_MARK, ACT_HM_COMPARE,
	ACT_HM_LEAVE,
	/* views */
	ACT_TOP_TABLE, ACT_CALLERS, ACT_CALLEES, ACT_SANDWICH, ACT_INVERT, ACT_ORDER,
	ACT_FOLD, ACT_INCLUDE, ACT_EXCLUDE, ACT_IDLE, ACT_GROUP, ACT_TASKS,
	ACT_VIEW_RESET, ACT_COPY_NAME, ACT_COPY_STACK, ACT_NEGATE,
	ACT_TOP_BY_SELF, ACT_TOP_BY_TOTAL, ACT_TOP_BY_NAME, ACT_TOP_FILTER,
	ACT_TOP_BY_CHANGE,
	/* other */
	ACT_THEME, ACT_FLIP, ACT_HELP, ACT_REDRAW, ACT_QUIT,
	ACT_SAMPLE_TYPE,    /* pprof: the next sample type */
	ACT_LINES,          /* frames by source line, or by function */
	ACT_ANNOTATE,       /* the selected function's source lines */
	ACT_ANNOTATE_DOC,   /* a key of the annotation, documented only */
	/* live mode only */
	ACT_LIVE_RATE_UP, ACT_LIVE_RATE_DOWN, ACT_LIVE_WINDOW,
	ACT_LIVE_FREEZE, ACT_LIVE_RESET, ACT_LIVE_SAVE, ACT_LIVE_BASELINE,
	/* a profile from a URL only */
	ACT_FETCH, ACT_FETCH_COMPARE,
	ACT_MOUSE_DOC,      /* a mouse binding, documented only */
	ACT_PROMPT_DOC,     /* a key of the "/" prompt, documented only */
	ACT_SANDWICH_DOC,   /* a key as the sandwich reads it, documented only */
	ACT_COUNT
};

/* Where a binding applies. */
enum key_context {
	KCTX_VIEW,          /* the flame graph */
	KCTX_TIMELINE,      /* the timeline strip has the focus */
	KCTX_HEATMAP,       /* the heat map replaces the strip (m) */
	KCTX_VIEWS,         /* the flame graph: keys that change the view */
	KCTX_TOP,           /* the top table is shown */
	KCTX_SANDWICH,      /* the sandwich (documentation only: its keys are
			       the flame graph's) */
	KCTX_PROMPT,        /* the "/" prompt (documentation only) */
	KCTX_ANNOTATE,      /* the annotation (documentation only: its keys
			       are tui-view-annotate.c's) */
	KCTX_LIVE,          /* the flame graph, live sampling only */
	KCTX_URL,           /* the flame graph, a profile from a URL only */
	KCTX_MOUSE,         /* mouse (documentation only) */
};

struct key_binding {
	enum key_context ctx;
	enum tui_action action;
	const char *label;   /* the keys as the user reads them: "Up, k" */
	const char *help;    /* one line */
	int keys[4];         /* key codes (curses values), 0-terminated */
};

/* The table and its length. */
const struct key_binding *keys_table(size_t *n);

/* The action bound to key in ctx (live: live-mode keys come first; on a
 * saved profile they answer only keys nothing else takes); ACT_NONE for a
 * key the mode does not take (the timeline and heat map take only theirs,
 * live keys, help, repaint and quit; the top table none of the graph's
 * moves). */
enum tui_action keys_lookup(enum key_context ctx, int key, bool live);

/* The URL keys' action for key (ACT_NONE: none; see keys_lookup for the
 * others), asked first on the flame graph of a profile from a URL. */
enum tui_action keys_lookup_url(int key);

/*
 * The key as the help writes it and the user reads it: "l", "Home", "F3",
 * "Tab", "Ctrl-F", "Shift-Up", a character beyond ASCII as UTF-8 (to be
 * escaped where shown); for messages.
 */
void keys_name(int key, char *buf, size_t cap);

/* A context's title in the help ("Flame graph"). */
const char *keys_context_title(enum key_context c);

/* The action's name ("zoom"), for messages and tests. */
const char *keys_action_name(enum tui_action a);

/*
 * A list's moves, as the overlays (labels, annotation) read them: j, k,
 * Up, Down, PgUp, PgDn and Space move *sel among n rows, page at a time;
 * false when key is none of them.
 */
bool keys_list_move(int key, size_t *sel, size_t n, size_t page);

/* The table as plain text (--help-keys) and as troff for the man page. */
void keys_print_help(FILE *out);
void keys_print_man(FILE *out);

#endif
