/*
 * tui.h - the interactive flame graph (ncursesw).
 *
 * tui_run opens the full-screen view of a loaded profile and returns when
 * the user quits, with the terminal restored (also on SIGINT, SIGTERM,
 * SIGHUP and fatal errors).  The keys come from the terminal even when the
 * profile came through standard input.  The lower-level calls below drive
 * the same view without a terminal, for unit tests and benchmarks; only
 * tui_draw needs curses to be initialized.
 */
#ifndef FLAMETOP_TUI_H
#define FLAMETOP_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "profile.h"

/* ---- Live sampling hooks --------------------------------------------- */

/*
 * A live source (the sampler) plugs into the view through these calls; all
 * are optional (NULL).  ctx is passed back unchanged.
 */
struct tui_live_ops {
	/*
	 * Called about every 100 ms while the view is open: add what was
	 * sampled to p (and profile_finish it); true when p changed, and the
	 * view lays out again, keeping selection, zoom and search.
	 */
	bool (*tick)(void *ctx, struct profile *p);
	/*
	 * A live action (ACT_LIVE_*): rate up/down, window, freeze, reset
	 * (s, save, is the view's: it saves what is on screen).  Writes a message for the status line into msg; true when p
	 * changed.
	 */
	bool (*action)(void *ctx, enum tui_action a, struct profile *p,
		       char *msg, size_t msgcap);
	/* The header's live text: window, lost, CPU, rate asked and measured. */
	void (*status)(void *ctx, char *buf, size_t cap);
	/* When sampling began (the samples' clock, ns), for the header's
	 * time range; false when not known. */
	bool (*time_origin)(void *ctx, uint64_t *ns);
};

/*
 * Save p (export_collapse: the time range shown) as PREFIX-DATE.folded
 * in the current directory, or /tmp when that cannot be written; msg says
 * where ("saved N stacks to PATH") or why not.  0 or -1.
 */
int tui_save_folded(const struct profile *p, const char *prefix, char *msg,
		    size_t cap);

/* ---- A profile from a URL -------------------------------------------- */

/*
 * r fetches the profile again in the background; all calls come from the
 * view's loop.  When the fetch arrives, the profile shown before becomes
 * the baseline that b compares the new one with.
 */
struct tui_fetch_ops {
	/* r: start fetching again, or stop the fetch under way.  A message
	 * for the status line in msg. */
	void (*start)(void *ctx, char *msg, size_t cap);
	/* Every 100 ms: false while nothing arrived; status gets the
	 * header's text ("fetching: 12 s left", or empty when idle). */
	bool (*poll)(void *ctx, char *status, size_t cap);
	/* After poll said true: read what arrived into p.  1: p holds it;
	 * 0: p untouched, -1: p read again as it was (the view lays out
	 * again); msg says why not. */
	int (*load)(void *ctx, struct profile *p, char *msg, size_t cap);
	/* After e read another sample type: the previous fetch read again
	 * with it (finished; the caller owns it), or NULL. */
	struct profile *(*previous)(void *ctx);
};

/* ---- Running --------------------------------------------------------- */

struct ann_opts;

struct tui_opts {
	const char *title;        /* the input's name, or NULL */
	bool flame;               /* root at the bottom */
	const char *search;       /* a regex to start with, or NULL */
	bool icase;
	const char *theme;        /* theme name or path; NULL: the default */
	const char *message;      /* shown in the status line at start */
	bool negate;              /* differential: size frames by BEFORE */
	const struct tui_live_ops *live;  /* NULL for a saved profile */
	void *live_ctx;
	/*
	 * pprof input: switch p to the next sample type (read again; a message
	 * for the status line in msg; true when p changed), and the header's
	 * text for the current one.  NULL for other inputs.
	 */
	bool (*next_type)(void *ctx, struct profile *p, char *msg, size_t cap);
	void (*type_status)(void *ctx, char *buf, size_t cap);
	void *type_ctx;
	const struct tui_fetch_ops *fetch;   /* a URL's profile, or NULL */
	void *fetch_ctx;
	/*
	 * The view's labels to start with (--tag, --group label:KEY): a view
	 * step like the others, which T changes and Backspace undoes.
	 */
	const char *const *tags;
	size_t ntags;
	const char *label_key;
	/*
	 * The other view options to start with (--include, --exclude,
	 * --callers, --callees, --invert, --fold-recursion, --order weight,
	 * --comm, --pids, --tids, --cpus, --group): the view's first step
	 * too, as the keys make it, so that the header names it, a frame's
	 * share is of the view and of all, and Backspace or V undo it.
	 */
	const char *include, *exclude;  /* a pcre2 regex each, or NULL */
	const char *focus;              /* callers (callers set) or callees */
	bool callers, invert, fold, weight;
	const char *tasks;              /* "comm=a,b pid=1 tid=2 cpu=0-3" */
	int group;                      /* enum view_group */
	/*
	 * Saved profiles: read p again with frames by source line, or by
	 * function again (--lines toggled; message and result as next_type).
	 * NULL where the inputs cannot be read again.
	 */
	bool (*toggle_lines)(void *ctx, struct profile *p, char *msg,
			     size_t cap);
	void *lines_ctx;
	/* Where a's annotation looks for sources (NULL: the DWARF paths). */
	const struct ann_opts *ann_opts;
};

/*
 * Run the view until the user quits.  Returns 0, 1 when the terminal
 * could not be opened, 2 for a bad option (unknown theme, bad regex), with
 * the message on stderr.
 */
int tui_run(struct profile *p, const struct tui_opts *o);

/*
 * A read_progress_fn for loading before the view opens: after half a
 * second it shows "bytes read / total" on standard error when that is a
 * terminal.  ctx is a struct tui_progress, zeroed by the caller.
 */
struct tui_progress {
	double start;
	double last;
	const char *name;
	bool shown;
};
void tui_load_progress(void *ctx, uint64_t done, uint64_t total);
/* Erase the progress line if one was shown. */
void tui_load_progress_done(struct tui_progress *pr);

/* ---- The view without a terminal (tests, benchmarks) ----------------- */

struct tui;

/* NULL with a message in err when the theme or the regex is bad. */
struct tui *tui_create(struct profile *p, const struct tui_opts *o,
		       char *err, size_t errcap);
void tui_destroy(struct tui *t);

void tui_set_size(struct tui *t, unsigned rows, unsigned cols);
/* Perform one action; returns false when the view should close. */
bool tui_do(struct tui *t, enum tui_action a);
/* A key as typed (through the key table). */
bool tui_key(struct tui *t, int key);
/* Apply a search as if typed at the "/" prompt. */
void tui_search(struct tui *t, const char *pattern);
/* At the "/" prompt, Up (dir -1) or Down (+1): the search history. */
void tui_prompt_history(struct tui *t, int dir);
/* Poll the live source; true when the profile changed. */
bool tui_tick(struct tui *t);
/* A mouse event at screen (row, col); double: a double click. */
void tui_click(struct tui *t, int row, int col, bool dbl);
/* The mouse wheel on screen row `row`, up or down. */
void tui_wheel(struct tui *t, int row, bool up);

/* The profile shown: the one given, or a view derived from it. */
const struct profile *tui_profile(const struct tui *t);
uint32_t tui_selected(const struct tui *t);
uint32_t tui_zoom(const struct tui *t);
bool tui_timeline_focused(const struct tui *t);
const char *tui_message(const struct tui *t);
/* The header and status lines as plain text (what tui_draw shows). */
void tui_header_text(struct tui *t, char *buf, size_t cap);
void tui_status_text(struct tui *t, char *buf, size_t cap);

/* Draw the whole screen with curses (initialized by the caller). */
void tui_draw(struct tui *t);

#endif
