/*
 * tui.c - the interactive view's loop: creating the view, the terminal
 * around curses, the dispatch of the key table's actions to the views, and
 * the screen put together from what each part draws.
 *
 * The parts form layers; a file calls only the files below it, and
 * `make lint-layers` checks it on the objects (tests/tools/tui-layers.sh):
 *
 *   tui.c                    the loop and the dispatch
 *   tui-view-timeline.c      the timeline strip; tui_profile_changed
 *   tui-prompt.c             the prompt line and the search history
 *   tui-view-flame.c         the flame graph: moving, zoom, search
 *   tui-view.c               derived views, their history, copy, save
 *   tui-screen.c             geometry, header and status texts
 *   tui-view-top.c, tui-view-sandwich.c, tui-view-help.c,
 *   tui-view-labels.c, tui-view-annotate.c   overlays and panes
 *   tui-draw.c, tui-state.c, tui-keys.c   drawing, state, key table
 *
 * Signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT only set a flag; the loop
 * polls the keyboard with a 100 ms timeout (the live tick), sees the flag,
 * restores the terminal and returns 128 + the signal.  Fatal errors
 * restore it through util_set_teardown; SIGTSTP is curses' own; a crash,
 * and every other signal that would end flametop (SIGUSR1, SIGALRM,
 * SIGXCPU, the real-time ones...), writes the reset sequences itself
 * (on_crash); a hangup that sends no SIGHUP counts as one (terminal_gone).
 */
#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "export.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

#define set_msg tui_set_msg

/* ---- Themes ---------------------------------------------------------- */

static int load_theme(struct theme *th, const char *name, char *err,
		      size_t errcap)
{
	char *path = theme_find(name);
	int rc;

	if (!path) {
		if (strcmp(name, THEME_DEFAULT) == 0) {
			theme_default(th);
			return 0;
		}
		snprintf(err, errcap, "no theme '%s' (see doc/themes.md for "
			 "where themes are looked for)", name);
		return -1;
	}
	rc = theme_load(th, path, err, errcap);
	free(path);
	return rc;
}

static void next_theme(struct tui *t)
{
	char **names, err[400];
	size_t n = theme_names(&names), i;
	struct theme th;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], t->theme.name) == 0)
			break;
	i = i < n ? (i + 1) % n : 0;
	if (load_theme(&th, names[i], err, sizeof(err)) < 0) {
		set_msg(t, true, "%s", err);
	} else {
		t->theme = th;
		tui_draw_theme_changed(t);
		set_msg(t, false, "theme %s: %s", th.name, th.description);
	}
	theme_names_free(names, n);
}

/* A live key on a saved profile: they say why they do nothing. */
static void saved_profile_key(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_LIVE_RATE_UP:
	case ACT_LIVE_RATE_DOWN:
		set_msg(t, false, "+ and - change the sampling rate of live "
			"sampling (-p, -a, -- COMMAND); this profile is saved");
		return;
	case ACT_LIVE_WINDOW:
		set_msg(t, false, "w changes the live window; on a saved profile "
			"t selects a time range");
		return;
	case ACT_LIVE_FREEZE:
		set_msg(t, false, "space freezes live sampling; a saved profile "
			"does not change");
		return;
	case ACT_LIVE_RESET:
		set_msg(t, false, "x forgets live samples; a saved profile keeps "
			"its samples (T: all of them again)");
		return;
	default:
		return;
	}
}

/* ---- Actions --------------------------------------------------------- */

static bool fetch_tick(struct tui *t);

bool tui_do(struct tui *t, enum tui_action a)
{
	bool live = t->live != NULL;

	t->msg[0] = '\0';
	if (t->v.top && tui_top_action(t, a, tui_frame_rows(t)))
		return true;
	if (a == ACT_ZOOM && t->sand_focus)
		a = ACT_SANDWICH;   /* a caller: its own sandwich */
	tui_ensure_layout(t);
	/* Samples with labels and no times have no range to clear: T lists
	 * their labels. */
	if (a == ACT_RANGE_CLEAR && tui_labels_open(t))
		return true;
	if (tui_flame_action(t, a) || tui_timeline_action(t, a))
		return true;
	switch (a) {
	case ACT_TOP_TABLE:
	case ACT_CALLERS:
	case ACT_CALLEES:
	case ACT_SANDWICH:
	case ACT_INVERT:
	case ACT_NEGATE:
	case ACT_ORDER:
	case ACT_FOLD:
	case ACT_IDLE:
	case ACT_GROUP:
	case ACT_VIEW_RESET:
		tui_view_action(t, a);
		t->dirty = true;
		tui_fix_view(t);
		break;
	case ACT_INCLUDE:
		tui_prompt_start(t, PROMPT_INCLUDE);
		break;
	case ACT_EXCLUDE:
		tui_prompt_start(t, PROMPT_EXCLUDE);
		break;
	case ACT_TASKS:
		tui_prompt_start(t, PROMPT_TASKS);
		break;
	case ACT_TOP_FILTER:
		tui_prompt_start(t, PROMPT_TOP_FILTER);
		break;
	case ACT_ANNOTATE: {
		size_t len;
		const char *nm = tui_view_subject(t, &len), *into;
		size_t into_len;

		into = tui_view_inlined_into(t, &into_len);
		if (!nm)
			set_msg(t, false, "a: select a frame to annotate");
		else
			tui_annotate_open(t, nm, len, into, into_len);
		break;
	}
	case ACT_SEARCH:
		tui_prompt_start(t, PROMPT_SEARCH);
		break;
	case ACT_COPY_NAME:
	case ACT_COPY_STACK:
		tui_view_copy(t, a == ACT_COPY_STACK);
		break;
	case ACT_UNZOOM:
		if (!t->nzhist && tui_view_back(t)) {
			/* No zoom to undo: the previous view. */
			t->dirty = true;
			tui_fix_view(t);
			set_msg(t, false, "view: %s", t->vdesc[0] ? t->vdesc
				: "the profile as read");
			break;
		}
		if (!t->nzhist) {
			set_msg(t, false, "not zoomed in");
			break;
		}
		t->zoom = t->zhist[--t->nzhist];
		t->dirty = true;
		tui_fix_view(t);
		break;
	case ACT_HEATMAP: case ACT_HM_UP: case ACT_HM_DOWN: case ACT_HM_LEFT:
	case ACT_HM_RIGHT: case ACT_HM_FAST_LEFT: case ACT_HM_FAST_RIGHT:
	case ACT_HM_MARK: case ACT_HM_COMPARE: case ACT_HM_LEAVE:
		tui_heat_action(t, a);   /* tui-heatmap.c */
		break;
	case ACT_LIVE_BASELINE:
		if (!live) {
			set_msg(t, false, "b takes a live window as the baseline; "
				"on a saved profile compare time ranges: t, then c");
			break;
		}
		tui_view_baseline(t);
		tui_profile_changed(t);
		break;
	case ACT_THEME:
		next_theme(t);
		break;
	case ACT_HELP:
		t->help = !t->help;
		t->help_top = 0;
		break;
	case ACT_REDRAW:
		t->repaint = true;   /* tui_draw repaints every cell */
		break;
	case ACT_QUIT:
		return false;
	case ACT_SAMPLE_TYPE:
		if (!t->next_type)
			set_msg(t, false, "only pprof profiles have sample types");
		else if (t->next_type(t->type_ctx, t->src, t->msg,
				      sizeof(t->msg))) {
			/* The previous fetch compares in the same type. */
			struct profile *b = t->fetch && t->fetched_again ?
					    t->fetch->previous(t->fetch_ctx) : NULL;

			if (b)
				tui_view_previous_fetch(t, b);
			/* Read into the source: the view is derived again. */
			tui_view_source_changed(t);
			tui_profile_changed(t);
		}
		break;
	case ACT_FETCH:
		if (t->fetch) {
			t->fetch->start(t->fetch_ctx, t->msg, sizeof(t->msg));
			fetch_tick(t);    /* the countdown from now */
		}
		break;
	case ACT_FETCH_COMPARE:
		if (t->fetch)
			tui_view_compare_previous(t);
		break;
	case ACT_LINES:
		if (!t->toggle_lines && live && t->live->action) {
			if (t->live->action(t->live_ctx, a, t->src, t->msg,
					    sizeof(t->msg))) {
				tui_view_source_changed(t);
				tui_profile_changed(t);
			}
		} else if (!t->toggle_lines)
			set_msg(t, false, "L reads the input files again: not "
				"here (start flametop with --lines)");
		else if (t->toggle_lines(t->lines_ctx, t->src, t->msg,
					 sizeof(t->msg))) {
			tui_view_source_changed(t);
			tui_profile_changed(t);
		}
		break;
	case ACT_LIVE_SAVE:
		/* What is on screen, live or not: the view, not the source. */
		tui_view_save(t);
		break;
	case ACT_LIVE_RATE_UP:
	case ACT_LIVE_RATE_DOWN:
	case ACT_LIVE_WINDOW:
	case ACT_LIVE_FREEZE:
	case ACT_LIVE_RESET:
		if (!live || !t->live->action) {
			saved_profile_key(t, a);
			break;
		}
		if (t->live->action(t->live_ctx, a, t->src, t->msg,
				    sizeof(t->msg))) {
			tui_view_source_changed(t);
			tui_profile_changed(t);
		}
		break;
	default:
		/* The views' own (moving, zoom, search, timeline, top table
		 * sorting) and the documentation rows. */
		break;
	}
	return true;
}

/* The mode that takes the keys and clicks, and its name in messages. */
static enum key_context mode(const struct tui *t)
{
	return tui_heat_shown(t) ? KCTX_HEATMAP : t->tl_focus ? KCTX_TIMELINE :
	       t->v.top ? KCTX_TOP : KCTX_VIEW;
}

static const char *mode_name(enum key_context ctx)
{
	switch (ctx) {
	case KCTX_HEATMAP: return "the heat map";
	case KCTX_TIMELINE: return "the timeline";
	case KCTX_TOP: return "the top table";
	default: return "the flame graph";
	}
}

bool tui_key(struct tui *t, int key)
{
	enum key_context ctx = mode(t);
	enum tui_action a;

	t->hint = false;   /* the first screen's hint: a key was found */
	if (t->help) {
		/* The overlay scrolls; any other key closes it. */
		tui_help_key(t, key);
		return true;
	}
	if (t->ann_show) {
		char name[64];

		t->msg[0] = '\0';   /* a message stays until the next key */
		if (key == '/' || key == KEY_F(3) || key == ('f' & 0x1f))
			tui_prompt_start(t, PROMPT_ANNOTATE);
		else if (key == '?' || key == KEY_F(1))
			t->help = true;
		else if (!tui_annotate_key(t, key)) {
			keys_name(key, name, sizeof(name));
			set_msg(t, false, "key %s: not used in the annotation; "
				"? for help", name);
		}
		return true;
	}
	if (t->lab_show) {
		char name[64];

		t->msg[0] = '\0';
		if (key == '?' || key == KEY_F(1))
			t->help = true;
		else if (!tui_labels_key(t, key)) {
			keys_name(key, name, sizeof(name));
			set_msg(t, false, "key %s: not used in the labels list; "
				"? for help", name);
		}
		return true;
	}
	a = t->fetch && ctx == KCTX_VIEW ? keys_lookup_url(key) : ACT_NONE;
	if (a == ACT_NONE)
		a = keys_lookup(ctx, key, t->live != NULL);
	if (a == ACT_NONE) {
		/* Not this mode's, or nobody's: said, and nothing behind it
		 * moves. */
		char name[64];

		keys_name(key, name, sizeof(name));
		if (ctx != KCTX_VIEW)
			set_msg(t, false, "key %s: not used in %s; ? for help",
				name, mode_name(ctx));
		else
			set_msg(t, false, "unknown key %s: ? for help", name);
		return true;
	}
	return tui_do(t, a);
}

/*
 * r's fetch: the header's countdown, and when it arrives the profile read
 * again, the one shown before kept as the baseline of b.  True when the
 * screen changed.
 */
static bool fetch_tick(struct tui *t)
{
	char st[sizeof(t->fetch_status)] = "", msg[sizeof(t->msg)] = "";
	struct profile *prev;
	bool arrived, shown;
	int loaded;

	if (!t->fetch)
		return false;
	arrived = t->fetch->poll(t->fetch_ctx, st, sizeof(st));
	shown = strcmp(st, t->fetch_status) != 0;
	if (shown)
		snprintf(t->fetch_status, sizeof(t->fetch_status), "%s", st);
	if (!arrived)
		return shown;
	prev = tui_view_snapshot(t);
	loaded = t->fetch->load(t->fetch_ctx, t->src, msg, sizeof(msg));
	if (loaded < 1) {
		profile_destroy(prev);
		if (loaded < 0) {
			tui_view_source_changed(t);
			tui_profile_changed(t);
		}
		set_msg(t, true, "%s", msg);
		return true;
	}
	tui_view_previous_fetch(t, prev);
	tui_view_source_changed(t);
	tui_profile_changed(t);
	set_msg(t, false, "%s", msg);
	return true;
}

bool tui_tick(struct tui *t)
{
	bool fetched = fetch_tick(t);

	if (!t->live || !t->live->tick)
		return fetched;
	if (!t->live->tick(t->live_ctx, t->src))
		return false;
	tui_view_source_changed(t);
	tui_profile_changed(t);
	tui_annotate_refresh(t);
	return true;
}

/*
 * A click goes to the mode shown: the help overlay closes (as for a key),
 * the label list selects a row (a double click keeps its samples), the
 * heat map and the strip mark, the top table selects a row (a double
 * click opens its sandwich), the graph and the sandwich's callers select
 * a frame (a double click zooms, or opens a caller's sandwich).  In
 * timeline mode the frames below the strip do not take clicks.
 */
void tui_click(struct tui *t, int row, int col, bool dbl)
{
	t->msg[0] = '\0';
	tui_ensure_layout(t);
	if (row < 0 || col < 0)
		return;
	if (t->help) {
		t->help = false;
		return;
	}
	if (t->lab_show) {
		tui_labels_click(t, row, dbl);
		return;
	}
	if (t->ann_show) {   /* over the graph: the graph takes no click */
		tui_annotate_click(t, row);
		return;
	}
	if (tui_heat_shown(t)) {
		tui_heat_click(t, row, col);
		return;
	}
	if (t->tl_show && row == 1) {
		tui_timeline_click(t, col);
		return;
	}
	if (t->tl_focus) {
		set_msg(t, false, "timeline mode: click the strip to mark a "
			"range; Esc or t leaves the mode");
		return;
	}
	if (t->v.top) {
		unsigned top = tui_top_rows(t);

		if ((unsigned)row >= top &&
		    tui_top_click(t, (unsigned)row - top) && dbl)
			tui_do(t, ACT_SANDWICH);
		return;
	}
	if (tui_flame_click(t, (unsigned)row, (unsigned)col) && dbl)
		tui_do(t, ACT_ZOOM);
}

/* The wheel, up or down, on screen row `row`: it scrolls what is shown. */
void tui_wheel(struct tui *t, int row, bool up)
{
	t->msg[0] = '\0';
	tui_ensure_layout(t);
	if (t->help) {
		for (int k = 0; k < 3; k++)
			tui_help_key(t, up ? KEY_UP : KEY_DOWN);
	} else if (t->lab_show) {
		tui_labels_wheel(t, up);
	} else if (t->ann_show) {
		tui_annotate_wheel(t, up);
	} else if (tui_heat_shown(t)) {
		tui_heat_action(t, up ? ACT_HM_UP : ACT_HM_DOWN);
	} else if (t->v.top) {
		for (int k = 0; k < 3; k++)
			tui_top_action(t, up ? ACT_UP : ACT_DOWN,
				       tui_frame_rows(t));
	} else if (row >= 0) {
		tui_flame_wheel(t, (unsigned)row, up);
	}
}

/* ---- The screen ------------------------------------------------------ */

/*
 * The whole screen, top to bottom: header, timeline strip, the sandwich's
 * callers pane, the frames (or the top table over them), the status line
 * or prompt, and the help overlay over everything.
 */
void tui_draw(struct tui *t)
{
	unsigned top, R, srows;
	char text[4096];

	if (t->repaint) {
		/* Ctrl-L: what another program wrote is not in curses' idea
		 * of the screen, so the next refresh clears and sends all. */
		clearok(curscr, TRUE);
		t->repaint = false;
	}
	if (t->sand_stale)
		tui_view_sandwich_matched(t);
	erase();
	if (t->rows < 4 || t->cols < 16) {
		attr_set(A_NORMAL, 0, NULL);
		mvaddnstr(0, 0, t->cols >= 18 ? "terminal too small" :
			  "too small", (int)t->cols);
		if (t->rows > 1)
			mvaddnstr(1, 0, "(q quits)", (int)t->cols);
		refresh();
		return;
	}
	tui_ensure_layout(t);
	top = tui_top_rows(t);
	srows = tui_status_rows(t);
	R = tui_frame_rows(t);

	tui_draw_slot(t, TS_HEADER);
	tui_header_text(t, text, sizeof(text));
	tui_draw_line(t, 0, text);
	if (tui_heat_shown(t)) {
		/* The heat map in place of the strip, over the frames. */
		tui_heat_draw(t, 1, t->rows - srows - 1);
	} else {
		if (t->tl_show)
			tui_timeline_draw(t, 1);
		if (t->v.top)
			tui_top_draw(t, top, R);
		else
			tui_flame_draw(t, top, R);
	}

	if (t->prompting) {
		tui_prompt_draw(t);
	} else {
		text[0] = '\0';
		if (!t->msg[0])
			tui_status_text(t, text, sizeof(text));
		tui_draw_status(t, text);
	}
	attr_set(A_NORMAL, 0, NULL);
	if (t->help)
		tui_help_draw(t);
	else if (t->lab_show)
		tui_labels_draw(t);
	else if (t->ann_show && !t->prompting)
		tui_annotate_draw(t);
	refresh();
}

/* ---- Creating -------------------------------------------------------- */

struct tui *tui_create(struct profile *p, const struct tui_opts *o,
		       char *err, size_t errcap)
{
	struct tui *t = xcalloc(1, sizeof(*t));

	tui_view_init(t, p);
	t->title = o->title;
	t->live = o->live;
	t->live_ctx = o->live_ctx;
	t->next_type = o->next_type;
	t->type_status = o->type_status;
	t->type_ctx = o->type_ctx;
	t->fetch = o->fetch;
	t->fetch_ctx = o->fetch_ctx;
	t->toggle_lines = o->toggle_lines;
	t->lines_ctx = o->lines_ctx;
	t->ann_opts = o->ann_opts;
	t->flame = o->flame;
	t->icase = o->icase;
	t->zoom = t->sel = NODE_ROOT;
	t->tl_mark = -1;
	t->eye = NO_EYE;
	t->hint = true;
	t->dirty = true;
	if (o->negate && profile_is_differential(p)) {
		t->v.negate = true;
		tui_view_apply(t);
	}
	tui_view_set_start(t, o);
	layout_init(&t->lay);
	t->search = search_create();
	t->sand_search = search_create();
	theme_default(&t->theme);
	if (theme_check_name(o->theme, err, errcap) < 0) {
		tui_destroy(t);
		return NULL;
	}
	if (load_theme(&t->theme, o->theme ? o->theme : THEME_DEFAULT, err,
		       errcap) < 0) {
		/* A broken theme file: the default stays, and the user is told. */
		set_msg(t, true, "%s", err);
		theme_default(&t->theme);
	}
	if (o->search && *o->search) {
		char e[300];

		if (search_set(t->search, o->search, o->icase, e, sizeof(e)) < 0) {
			snprintf(err, errcap, "--search: %s", e);
			tui_destroy(t);
			return NULL;
		}
		t->pattern = xstrdup(o->search);
		tui_prompt_history_add(t, o->search);
		tui_search_refresh(t);
	}
	if (o->message && !t->msg[0])
		set_msg(t, false, "%s", o->message);
	return t;
}

void tui_destroy(struct tui *t)
{
	if (!t)
		return;
	tui_draw_free(t);
	tui_view_free(t);
	tui_annotate_close(t);
	layout_free(&t->lay);
	search_destroy(t->search);
	search_destroy(t->sand_search);
	free(t->pattern);
	free(t->zhist);
	free(t->tl_weight);
	tui_heat_free(t);
	tui_labels_close(t);
	for (size_t i = 0; i < t->nhist; i++)
		free(t->hist[i]);
	free(t->hist);
	free(t->hist_typed);
	free(t);
}

void tui_set_size(struct tui *t, unsigned rows, unsigned cols)
{
	if (rows == t->rows && cols == t->cols)
		return;
	t->rows = rows;
	t->cols = cols;
	t->dirty = true;
	tui_fix_view(t);
	if (t->tl_show)
		tui_timeline_refresh(t);
}

/* ---- Loading progress ------------------------------------------------ */

void tui_load_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct tui_progress *pr = ctx;
	double now = now_seconds();
	char a[32], b[32];

	if (!pr->start)
		pr->start = now;   /* the caller should have set it */
	if (now - pr->start < 0.5 || now - pr->last < 0.1 || !isatty(2))
		return;
	pr->last = now;
	pr->shown = true;
	textfmt_amount((double)done, AMOUNT_BYTES, a, sizeof(a));
	if (total) {
		textfmt_amount((double)total, AMOUNT_BYTES, b, sizeof(b));
		fprintf(stderr, "\rflametop: reading %s: %s of %s (%.0f%%)\033[K",
			pr->name ? pr->name : "input", a, b,
			100.0 * (double)done / (double)total);
	} else {
		fprintf(stderr, "\rflametop: reading %s: %s\033[K",
			pr->name ? pr->name : "input", a);
	}
	fflush(stderr);
}

void tui_load_progress_done(struct tui_progress *pr)
{
	if (pr->shown && isatty(2)) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	pr->shown = false;
}

/* ---- The terminal ---------------------------------------------------- */

static SCREEN *screen;
static FILE *tty_in;
static volatile sig_atomic_t got_signal;

static void restore_terminal(void)
{
	if (screen) {
		endwin();
		delscreen(screen);
		screen = NULL;
	}
	if (tty_in && tty_in != stdin)
		fclose(tty_in);
	tty_in = NULL;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * A crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, from a fault, abort
 * or kill) cannot run endwin, which is not async-signal-safe.  Its handler
 * writes what endwin would send, put together when the screen opened, and
 * the terminal's modes from before curses (write and tcsetattr are
 * async-signal-safe), then gives the signal back to the action it had (the
 * default, or a sanitizer's): a fault recurs on return, a signal sent is
 * raised again, to be delivered as the handler returns.  The other signals
 * whose default action ends the process (crash_caught) take the same way
 * out, so that flametop still ends as the signal says; those that are
 * ignored when the view opens stay ignored.
 */
static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction crash_old[NSIG];   /* by signal number */
static bool crash_hooked[NSIG];
static char crash_reset[512];
static size_t crash_reset_len;
static struct termios crash_modes;
static bool crash_modes_saved;

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (crash_reset_len && write(STDOUT_FILENO, crash_reset,
				     crash_reset_len) < 0) {
		/* Nothing to be done about it here. */
	}
	if (crash_modes_saved)
		tcsetattr(STDOUT_FILENO, TCSADRAIN, &crash_modes);
	if (sig > 0 && sig < NSIG && crash_hooked[sig])
		sigaction(sig, &crash_old[sig], NULL);
	/* Only a fault comes back by itself (si_code > 0: the kernel's). */
	if (si->si_code <= 0 || (sig != SIGSEGV && sig != SIGBUS &&
				 sig != SIGFPE && sig != SIGILL))
		raise(sig);
}

/* Add terminfo capability name to crash_reset, its padding left out. */
static void crash_reset_add(const char *name)
{
	const char *cap = tigetstr(name);

	if (!cap || cap == (const char *)-1)
		return;
	for (; *cap && crash_reset_len < sizeof(crash_reset); cap++) {
		if (cap[0] == '$' && cap[1] == '<' && strchr(cap, '>')) {
			cap = strchr(cap, '>');
			continue;
		}
		crash_reset[crash_reset_len++] = *cap;
	}
}

/* What endwin sends: mouse reporting and keypad off, the cursor shown. */
static void crash_reset_prepare(void)
{
	static const char mouse_off[] =
		"\033[?1006l\033[?1003l\033[?1002l\033[?1000l";

	crash_reset_len = 0;
	if (tigetstr("kmous") && tigetstr("kmous") != (const char *)-1) {
		memcpy(crash_reset, mouse_off, sizeof(mouse_off) - 1);
		crash_reset_len = sizeof(mouse_off) - 1;
	}
	crash_reset_add("rmkx");
	crash_reset_add("sgr0");
	crash_reset_add("cnorm");
	crash_reset_add("rmcup");
}

/*
 * Does on_crash take signal sig?  The crashes always (crash_sig); besides
 * them every signal whose default action ends the process, while it has
 * that action: not those the loop ends on (on_signal), not SIGKILL, not
 * the real-time signals below SIGRTMIN that the C library keeps.
 */
static bool crash_sig(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(crash_sigs); i++)
		if (crash_sigs[i] == sig)
			return true;
	return false;
}

static bool crash_caught(int sig)
{
	if (crash_sig(sig))
		return true;
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return true;
	switch (sig) {
	case SIGTRAP: case SIGSYS: case SIGXCPU: case SIGXFSZ:
	case SIGUSR1: case SIGUSR2: case SIGALRM: case SIGVTALRM:
	case SIGPROF: case SIGPIPE: case SIGIO:
#ifdef SIGSTKFLT
	case SIGSTKFLT:
#endif
#ifdef SIGPWR
	case SIGPWR:
#endif
		return true;
	default:
		return false;
	}
}

static void catch_signals(bool on)
{
	struct sigaction sa;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	if (on) {
		crash_reset_prepare();
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_crash;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
	}
	for (int sig = 1; sig < NSIG; sig++) {
		if (!crash_caught(sig))
			continue;
		if (!on) {
			if (crash_hooked[sig])
				sigaction(sig, &crash_old[sig], NULL);
			crash_hooked[sig] = false;
			continue;
		}
		if (sigaction(sig, NULL, &crash_old[sig]) != 0)
			continue;
		/* Ignored (SIGPIPE in live mode) or someone's: not ours. */
		if (!crash_sig(sig) &&
		    (crash_old[sig].sa_handler != SIG_DFL ||
		     (crash_old[sig].sa_flags & SA_SIGINFO)))
			continue;
		crash_hooked[sig] = sigaction(sig, &sa, NULL) == 0;
	}
}

/*
 * Has the terminal hung up?  Without a controlling terminal (setsid, su)
 * no SIGHUP comes when it goes away, and every read fails at once: the
 * loop would spin.  Checked when a read gives nothing; ended as SIGHUP.
 */
static bool terminal_gone(void)
{
	struct pollfd pfd = { .fd = fileno(tty_in), .events = POLLIN };

	return poll(&pfd, 1, 0) > 0 &&
	       (pfd.revents & (POLLHUP | POLLERR | POLLNVAL));
}

/*
 * Is there a terminfo entry for name?  Asked before newterm, because a
 * newterm that fails keeps memory it cannot give back; the directories
 * are ncurses' own search list.
 */
static bool term_exists(const char *name)
{
	const char *env = getenv("TERMINFO"), *dirs = getenv("TERMINFO_DIRS");
	const char *home = getenv("HOME");
	static const char *const std[] = {
		"/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo",
		"/usr/lib/terminfo", "/usr/share/lib/terminfo",
	};
	char path[4096];

	if (!name || !*name || strchr(name, '/'))
		return false;
#define TRY(dir) do { \
		snprintf(path, sizeof(path), "%s/%c/%s", (dir), name[0], name); \
		if (access(path, R_OK) == 0) \
			return true; \
		snprintf(path, sizeof(path), "%s/%02x/%s", (dir), \
			 (unsigned char)name[0], name); \
		if (access(path, R_OK) == 0) \
			return true; \
	} while (0)
	if (env && *env)
		TRY(env);
	if (home && *home) {
		char h[2048];

		snprintf(h, sizeof(h), "%s/.terminfo", home);
		TRY(h);
	}
	while (dirs && *dirs) {
		size_t n = strcspn(dirs, ":");
		char d[2048];

		snprintf(d, sizeof(d), "%.*s", (int)n, dirs);
		if (n)
			TRY(d);
		dirs += n + (dirs[n] == ':');
	}
	for (size_t i = 0; i < ARRAY_SIZE(std); i++)
		TRY(std[i]);
#undef TRY
	return false;
}

/* COLORTERM promises 24-bit color: try the "-direct" flavor of TERM. */
static SCREEN *open_screen(FILE *in)
{
	const char *term = getenv("TERM"), *ct = getenv("COLORTERM");
	const char *nc = getenv("NO_COLOR");
	SCREEN *s = NULL;

	if (term && ct && (!nc || !*nc) && !strstr(term, "direct") &&
	    (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0)) {
		char direct[128];
		size_t n = strcspn(term, "-");

		snprintf(direct, sizeof(direct), "%.*s-direct", (int)n, term);
		if (term_exists(direct))
			s = newterm(direct, stdout, in);
	}
	if (!s && term_exists(term))
		s = newterm(NULL, stdout, in);
	return s;
}

static void mouse_event(struct tui *t)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		tui_click(t, ev.y, ev.x, true);
	else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
		tui_click(t, ev.y, ev.x, false);
#ifdef BUTTON4_PRESSED
	else if (ev.bstate & BUTTON4_PRESSED)
		tui_wheel(t, ev.y, true);
#endif
#ifdef BUTTON5_PRESSED
	else if (ev.bstate & BUTTON5_PRESSED)
		tui_wheel(t, ev.y, false);
#endif
}

int tui_run(struct profile *p, const struct tui_opts *o)
{
	char err[512];
	struct tui *t = tui_create(p, o, err, sizeof(err));
	int rc = 0;
	bool redraw = true;
	double last_tick = now_seconds();

	if (!t) {
		fprintf(stderr, "flametop: %s\n", err);
		return 2;
	}
	tty_in = isatty(0) ? stdin : fopen("/dev/tty", "r");
	if (!tty_in) {
		fprintf(stderr, "flametop: no terminal to read keys from "
			"(/dev/tty: %s); use --text\n", strerror(errno));
		tui_destroy(t);
		return 1;
	}
	/* The modes a crash puts back (curses changes them on stdout). */
	crash_modes_saved = tcgetattr(STDOUT_FILENO, &crash_modes) == 0;
	screen = open_screen(tty_in);
	if (!screen) {
		fprintf(stderr, "flametop: cannot use terminal type '%s'; "
			"use --text\n", getenv("TERM") ? getenv("TERM") : "");
		restore_terminal();
		tui_destroy(t);
		return 1;
	}
	{
		/* A terminal that cannot move the cursor (dumb): print instead. */
		const char *cup = tigetstr("cup");

		if (!cup || cup == (const char *)-1) {
			struct text_opts to = { 0 };
			const char *term = getenv("TERM");

			to.width = COLS > 0 ? (unsigned)COLS : 80;
			to.flame = t->flame;
			to.zoom = NODE_ROOT;
			to.search = search_active(t->search) ? t->search : NULL;
			to.title = t->title;
			restore_terminal();
			fprintf(stderr, "flametop: terminal '%s' cannot move the "
				"cursor: printing the flame graph as text\n",
				term ? term : "");
			export_text(stdout, p, &to);
			tui_destroy(t);
			return 0;
		}
	}
	util_set_teardown(restore_terminal);
	got_signal = 0;
	catch_signals(true);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED
#ifdef BUTTON4_PRESSED
		  | BUTTON4_PRESSED
#endif
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	mouseinterval(200);
	wtimeout(stdscr, 100);
	tui_draw_init(t);
	for (;;) {
		wint_t ch;
		int r;

		if (redraw) {
			tui_set_size(t, (unsigned)LINES, (unsigned)COLS);
			tui_draw(t);
			redraw = false;
			if (t->osc) {
				/* Copy to the clipboard: straight to the terminal. */
				fputs(t->osc, stdout);
				fflush(stdout);
				free(t->osc);
				t->osc = NULL;
			}
		}
		r = wget_wch(stdscr, &ch);
		if (r == ERR && !got_signal && terminal_gone())
			got_signal = SIGHUP;
		if (got_signal) {
			rc = 128 + got_signal;
			break;
		}
		/* The live tick, every 100 ms even while keys keep coming. */
		if (now_seconds() - last_tick >= 0.1) {
			last_tick = now_seconds();
			if (tui_tick(t))
				redraw = true;
		}
		if (r == ERR)
			continue;
		redraw = true;
		if (r == KEY_CODE_YES && ch == KEY_RESIZE)
			continue;
		if (r == KEY_CODE_YES && ch == KEY_MOUSE) {
			mouse_event(t);
			continue;
		}
		if (t->prompting) {
			tui_prompt_key(t, r, ch);
			continue;
		}
		if (!tui_key(t, (int)ch))
			break;
	}
	catch_signals(false);
	util_set_teardown(NULL);
	restore_terminal();
	tui_destroy(t);
	return rc;
}
