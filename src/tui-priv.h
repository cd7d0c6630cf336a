/*
 * tui-priv.h - the view's state, shared by the TUI's files, and their
 * calls, listed by layer from the bottom: each file calls only the files
 * listed above its own section (tests/tools/tui-layers.sh checks it on the
 * objects).  Curses-free, so the state can be driven by tests without a
 * terminal.
 *
 * Geometry: the screen is a header row, an optional timeline row, the
 * frame rows, and one status row at the bottom.  `scroll` is the
 * smallest stack depth on screen in both orientations; in icicle mode
 * depth d is drawn at frame row d - scroll, in flame mode at
 * frame_rows - 1 - (d - scroll).
 */
#ifndef FLAMETOP_TUI_PRIV_H
#define FLAMETOP_TUI_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>

#include "layout.h"
#include "profile.h"
#include "search.h"
#include "theme.h"
#include "tui.h"
#include "view.h"
#include "view-top.h"

enum color_mode { CM_NONE, CM_8, CM_256, CM_DIRECT };

struct diff_top_row;
struct annotation;
struct ann_disasm;
struct ann_opts;
struct arow;

/*
 * What the view shows of the source profile (tui-view.c): a derived view's
 * settings, and whether the top table covers the flame graph.  Strings are
 * owned.
 */
struct tui_vstate {
	bool invert, fold, weight, hide_idle;
	enum view_group group;
	char *include, *exclude;      /* a pcre2 regex each, or NULL */
	char *focus;                  /* callers/callees of this function */
	bool callers;                 /* focus: its callers, else callees */
	char *tasks;                  /* "pid=1 cpu=0-3 comm=x tid=2", or NULL */
	char **tags;                  /* label filters KEY=VALUE, KEY!=VALUE */
	size_t ntags;
	char *label_key;              /* a root per value of this label */
	bool top;                     /* the top table */
	bool sandwich;                /* focus: callers above, callees below */
	bool negate;                  /* differential: sized by BEFORE */
	bool cmp;                     /* time range B against range A */
	uint64_t cmp_a0, cmp_a1, cmp_b0, cmp_b1;   /* the ranges (ns) */
	bool baseline;                /* the source against t->baseline */
	uint32_t zoom, sel;           /* where the view was when left */
};

/* What a prompt's line is for. */
enum tui_prompt { PROMPT_SEARCH, PROMPT_INCLUDE, PROMPT_EXCLUDE,
		  PROMPT_TASKS, PROMPT_TOP_FILTER, PROMPT_ANNOTATE };

#define TUI_HISTORY 100               /* search patterns remembered */

struct tui {
	struct profile *p;            /* what is shown: src or own */
	struct profile *src;          /* the profile read or sampled */
	struct profile *own;          /* the derived view, or NULL */
	struct profile *cmpsrc;       /* a comparison built from src (diff.h),
					 the views' source while comparing */
	struct profile *baseline;     /* compare: the window taken as baseline */
	bool cmp_pending;             /* range A taken, B being marked */
	uint64_t cmp_pa0, cmp_pa1;    /* range A */
	struct tui_vstate v;          /* the view (tui-view.c) */
	struct tui_vstate *vhist;     /* views to go back to */
	size_t nvhist, capvhist;
	char vdesc[512];              /* the view, for the header */
	char *osc;                    /* an OSC 52 sequence to send, or NULL */
	struct profile *sand;         /* sandwich: the callers, drawn above */
	struct layout sand_lay;       /* its layout (the screen's width) */
	uint32_t sand_sel, sand_eye;  /* the callers pane's selection, and
					 the column kept while moving */
	unsigned sand_scroll;         /* its smallest depth shown (2 on) */
	bool sand_focus;              /* the selection is the callers pane's */
	/* The top table (tui-view-top.c). */
	struct view_top_row *top_rows;
	struct diff_top_row *top_drows;   /* instead, of a comparison */
	size_t ntop;
	size_t *top_shown;            /* indexes of the rows the filter keeps */
	size_t nshown, top_sel, top_scroll;
	enum view_top_sort top_sort;
	char *top_filter;             /* regex, or NULL */
	bool top_stale;               /* rows must be computed again */
	const char *title;
	const struct tui_live_ops *live;
	void *live_ctx;
	bool (*next_type)(void *, struct profile *, char *, size_t);
	void (*type_status)(void *, char *, size_t);
	void *type_ctx;              /* pprof sample types (tui_opts) */
	const struct tui_fetch_ops *fetch;   /* a URL's profile (tui_opts) */
	void *fetch_ctx;
	char fetch_status[128];       /* the header's "fetching: 12 s left" */
	bool fetched_again;           /* t->baseline is the previous fetch */
	bool lab_show;               /* the label list (T) is shown */
	struct label_share *lab;     /* its labels (view_label_shares) */
	size_t nlab;
	uint64_t lab_total;          /* the source's weight, for the shares */
	size_t lab_sel, lab_top;     /* its selected label, first row shown */
	bool (*toggle_lines)(void *, struct profile *, char *, size_t);
	void *lines_ctx;             /* L: --lines toggled (tui_opts) */
	/* The annotation (a, tui-view-annotate.c). */
	const struct ann_opts *ann_opts;   /* sources (tui_opts) */
	bool ann_show;
	struct annotation *ann;
	uint32_t ann_func;            /* its function (profile-addr.h) */
	struct arow *ann_rows;        /* the rows listed */
	size_t ann_nrows, ann_sel, ann_top;
	size_t *ann_rank;             /* rows with weight, heaviest first */
	size_t ann_nrank, ann_pos;    /* ann_pos: the rank n/N left */
	bool ann_by_total;            /* hottest by total (s), else self */
	struct ann_disasm *ann_dis;   /* Tab, d: its instructions listed
	                                 instead of its lines; NULL: lines */

	unsigned rows, cols;          /* the screen */
	struct layout lay;
	bool dirty;                   /* the layout must be rebuilt */

	uint32_t zoom;
	uint32_t *zhist;              /* zoom history (for zoom out) */
	size_t nzhist, capzhist;
	uint32_t sel;
	uint32_t eye;                 /* column kept while moving up/down */
	unsigned scroll;
	bool unfold;                  /* zoomed: show every ancestor's row */
	bool flame;

	struct search *search;
	struct search *sand_search;   /* the same over the sandwich's callers
	                                 (their own symbol ids) */
	bool sand_stale;              /* matched to derive again for the
	                                 sandwich (tui_view_sandwich_matched) */
	char *pattern;                /* as typed, or the literal name */
	bool literal;
	bool icase;
	uint64_t matched;             /* matched weight (nested once) */

	struct theme theme;
	enum color_mode cmode;

	char msg[512];
	bool msg_error;
	bool hint;                    /* the first screen: "? help  q quit"
					 until the first key */
	bool help;
	size_t help_top;              /* first line of the help shown */
	bool repaint;                 /* Ctrl-L: send every cell again */
	bool prompting;
	enum tui_prompt prompt_kind;
	char prompt[1024];
	size_t prompt_len;
	char **hist;                  /* patterns searched, oldest first */
	size_t nhist, caphist;
	size_t hist_pos;              /* Up/Down in the prompt; nhist: typed */
	char *hist_typed;             /* the line being typed, kept for Down */

	/* The timeline strip: one slice per column. */
	bool tl_show, tl_focus;
	unsigned tl_n;                /* slices */
	uint64_t *tl_weight;          /* weight per slice */
	uint64_t tl_first, tl_last;   /* time bounds (ns) */
	int tl_cur, tl_mark;          /* slice; mark -1: none */

	void *draw;                   /* tui-draw.c's color cache */
	struct tui_heat *heat;        /* the heat map (tui-heatmap.c), or NULL */
	bool heat_on;                 /* it replaces the strip in timeline
					 mode (set by tui-heatmap.c) */
	unsigned tl_gen;              /* counts the strip's binnings */
};

#define NO_EYE UINT32_MAX           /* t->eye: no column kept */

/* ---- Layer 0: the state, the drawing primitives, the key table ------- */

/* tui-state.c */
/* The status line's message (shown until the next action). */
void tui_set_msg(struct tui *t, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The index in t->lay of node's rectangle, or -1 when it is not drawn. */
ssize_t tui_rect_of(const struct tui *t, uint32_t node);
/* The search's matches and matched weight in t->p. */
void tui_search_refresh(struct tui *t);
/* The times of the strip's slice i (of t->tl_n), and the weight of each. */
void tui_slice_times(const struct tui *t, unsigned i, uint64_t *a,
		     uint64_t *b);
void tui_timeline_refresh(struct tui *t);
/*
 * The shown tree changed (other_tree: t->p is another profile, else its
 * weights changed in place): the search, the top table, the layout, the
 * strip and the heat map follow.  Zoom and selection are the caller's.
 */
void tui_shown_changed(struct tui *t, bool other_tree);

/* tui-draw.c: colors, rows of text and frames; reads the state, calls no
 * other tui file. */
void tui_draw_init(struct tui *t);   /* after initscr: colors */
void tui_draw_free(struct tui *t);
void tui_draw_theme_changed(struct tui *t);
/* Draw in the colors and attributes of a theme slot. */
void tui_draw_slot(struct tui *t, enum theme_slot s);
void tui_draw_pane_row(struct tui *t, int y, const char *text, bool bold,
		       bool selected);
/* Draw in 0xRRGGBB colors (or THEME_COLOR_DEFAULT) and TA_* attributes. */
void tui_draw_color(struct tui *t, uint32_t fg, uint32_t bg, unsigned attrs);
/* A buffer for a row of cols columns (kept by the color cache). */
char *tui_draw_rowbuf(struct tui *t, size_t cols);
/* Text (already escaped) on row y, cut or padded to the screen's width. */
void tui_draw_line(struct tui *t, int y, const char *text);
/* One frame of p (t->p, or the sandwich's callers) at row y; buf is a
 * row buffer. */
void tui_draw_frame(struct tui *t, const struct profile *p,
		    const struct layout_rect *r, int y, char *buf);
/* The first screen's hint ("? help  q quit") or NULL: shown until the
 * first key, at the right end of the status line. */
const char *tui_hint(const struct tui *t);
/* The columns the status text or message may take (the hint's are kept). */
unsigned tui_status_cols(const struct tui *t);
/* The status line: the message, or text (cut, never wrapped). */
void tui_draw_status(struct tui *t, const char *text);

/* ---- Layer 1: views that need only layer 0 --------------------------- */

/* tui-view-sandwich.c: the callers pane of the sandwich view (its moves
 * and drawing are the flame graph's, tui-view-flame.c) */
/* Its rows on screen: 0 when there is no pane (or the top table covers
 * the frames). */
unsigned tui_sandwich_rows(const struct tui *t);
/* Callers' depths it shows: 2 to this, exclusive (0: none). */
unsigned tui_sandwich_depths(const struct tui *t);
void tui_sandwich_build(struct tui *t, const struct view_spec *callees);
void tui_sandwich_relayout(struct tui *t);
void tui_sandwich_free(struct tui *t);

/* tui-view-top.c: the top table */
void tui_top_refresh(struct tui *t);
void tui_top_free(struct tui *t);
/* An action while the table is shown (frame_rows: the rows it covers);
 * false when it is not the table's. */
bool tui_top_action(struct tui *t, enum tui_action a, unsigned frame_rows);
/* A click on the table's row y (0: its column titles): true when it
 * selected a row. */
bool tui_top_click(struct tui *t, unsigned y);
/* The function of the selected row (NULL when there is none). */
const char *tui_top_selected_name(struct tui *t);
void tui_top_set_filter(struct tui *t, const char *re);
void tui_top_status_text(struct tui *t, char *buf, size_t cap);
void tui_top_draw(struct tui *t, unsigned top, unsigned rows);

/* tui-view-help.c: the help overlay */
void tui_help_draw(struct tui *t);
/* A key while the help is shown: scroll, or close. */
void tui_help_key(struct tui *t, int key);

/* tui-view-annotate.c: a function's source lines (a) over the screen. */
/* Open the annotation of the function of a frame named name[0..len); an
 * inlined frame's has no addresses of its own: then that of the function
 * it is inlined into, into[0..into_len) (NULL when not known). */
void tui_annotate_open(struct tui *t, const char *name, size_t len,
		       const char *into, size_t into_len);
void tui_annotate_close(struct tui *t);
/* Live: make it again from the samples so far, the selection kept. */
void tui_annotate_refresh(struct tui *t);
/* The next line whose text matches the pcre2 pattern re. */
void tui_annotate_search(struct tui *t, const char *re);
void tui_annotate_draw(struct tui *t);
/* A key while it is shown; false when it is not its (tui.c's then). */
bool tui_annotate_key(struct tui *t, int key);
/* A click on screen row `row` selects that line; the wheel moves. */
void tui_annotate_click(struct tui *t, int row);
void tui_annotate_wheel(struct tui *t, bool up);

/* ---- Layer 2: the screen's geometry and texts ------------------------ */

/* tui-screen.c */
void tui_relayout(struct tui *t);
void tui_ensure_layout(struct tui *t);   /* relayout when dirty */
unsigned tui_frame_rows(const struct tui *t);
unsigned tui_status_rows(struct tui *t);   /* 1 */
unsigned tui_top_rows(const struct tui *t);

/* ---- Layer 3: the flame graph and the derived views ------------------ */

/* tui-view-flame.c */
/* After any change of the profile, zoom or size: a valid zoom and
 * selection, on screen. */
void tui_fix_view(struct tui *t);
void tui_ensure_visible(struct tui *t);
void tui_select_node(struct tui *t, uint32_t node, bool keep_eye);
/* The mouse wheel on screen row y: the pane under it scrolls, up (toward
 * the top of the screen) or down. */
void tui_flame_wheel(struct tui *t, unsigned y, bool up);
/* Moving, zoom, search keys; false when a is not the flame graph's. */
bool tui_flame_action(struct tui *t, enum tui_action a);
/* A click on screen row y, column col: true when it selected a frame (of
 * the flame graph or of the sandwich's callers pane). */
bool tui_flame_click(struct tui *t, unsigned y, unsigned col);
/* The frames: the sandwich's callers pane, then the graph on rows [top,
 * top + rows). */
void tui_flame_draw(struct tui *t, unsigned top, unsigned rows);

/* tui-view.c: the views */
void tui_view_init(struct tui *t, struct profile *src);
void tui_view_free(struct tui *t);
/* Derive what t->v asks from the source; false (message set) on error. */
bool tui_view_apply(struct tui *t);
/* The sandwich's matched share (t->matched): the function's weight less
 * that of the view derived with the stacks that match the search dropped
 * as well, so a sample matching on both sides counts once.  tui_draw
 * calls it when tui_search_refresh marked it stale. */
void tui_view_sandwich_matched(struct tui *t);
/* Change the view by a (ACT_INVERT, ...): remembered for Backspace. */
void tui_view_action(struct tui *t, enum tui_action a);
/* The function the view's actions (<, >, S, a) act on: the top table's
 * row, the sandwich's caller selected, or the selected frame; NULL for
 * none (the root).  *len: its length. */
const char *tui_view_subject(struct tui *t, size_t *len);
/* The function the selected frame of the graph is inlined into: its
 * nearest caller that is not inlined; NULL when the frame is not inlined
 * or the graph's parents are not callers (inverted, callers view). */
const char *tui_view_inlined_into(struct tui *t, size_t *len);
/* A prompt for the view was answered. */
void tui_view_prompt_done(struct tui *t, enum tui_prompt kind,
			  const char *text);
/* Backspace with no zoom to undo: the previous view; false if none. */
bool tui_view_back(struct tui *t);
/* The source changed (live, a time range, another event): derive the
 * view again, keeping the zoom. */
void tui_view_source_changed(struct tui *t);
/* Copy the selected frame's name or stack (OSC 52, in t->osc). */
void tui_view_copy(struct tui *t, bool stack);
/* Compare: time range B against range A (ns), a view in the history. */
void tui_view_compare_ranges(struct tui *t, uint64_t a0, uint64_t a1,
			     uint64_t b0, uint64_t b1);
/* s: save what is on screen (the view) as folded stacks; message set. */
void tui_view_save(struct tui *t);
/* Compare: take the source as it is now as the baseline (again: drop it). */
void tui_view_baseline(struct tui *t);
/* A copy of the source as it is now, for a baseline. */
struct profile *tui_view_snapshot(const struct tui *t);
/* r's fetch arrived: prev, the source's snapshot from before, becomes the
 * baseline (owned by t); a comparison shown now compares with it. */
void tui_view_previous_fetch(struct tui *t, struct profile *prev);
/* b on a URL's profile: compare with the previous fetch (again: not). */
void tui_view_compare_previous(struct tui *t);
/*
 * T's choice, a view in the history: the samples labelled KEY=VALUE
 * (key[0..klen), value[0..vlen)), a root per value of KEY (group), or
 * every sample (key NULL).
 */
void tui_view_label(struct tui *t, const char *key, size_t klen,
		    const char *value, size_t vlen, bool group);
/* The view at start (tui_opts: --tag, --include, --pids...). */
void tui_view_set_start(struct tui *t, const struct tui_opts *o);
void tui_after_profile_switch(struct tui *t, uint32_t zoom, uint32_t sel);

/* ---- Layer 4: the prompt, the timeline and the label list ------------ */

/* tui-view-labels.c: the samples' labels (T) over the screen. */
/* Open the list; false when the source's samples carry no labels (or
 * have times: T is the timeline's then). */
bool tui_labels_open(struct tui *t);
void tui_labels_close(struct tui *t);
void tui_labels_draw(struct tui *t);
/* A key while the list is shown (Enter, g, a: a view step); false when
 * it is not the list's. */
bool tui_labels_key(struct tui *t, int key);
/* A click on screen row `row` (a double click: Enter), the wheel. */
void tui_labels_click(struct tui *t, int row, bool dbl);
void tui_labels_wheel(struct tui *t, bool up);

/* tui-prompt.c */
void tui_prompt_start(struct tui *t, enum tui_prompt kind);
/* A key typed at the prompt (r and ch as wget_wch gives them). */
void tui_prompt_key(struct tui *t, int r, wint_t ch);
void tui_prompt_history_add(struct tui *t, const char *pattern);
void tui_prompt_draw(struct tui *t);

/* tui-view-timeline.c */
/* The profile's weights changed: search, layout, selection, timeline. */
void tui_profile_changed(struct tui *t);
/* t, T and the strip's keys; false when a is not the timeline's. */
bool tui_timeline_action(struct tui *t, enum tui_action a);
void tui_timeline_click(struct tui *t, int col);
void tui_timeline_draw(struct tui *t, int y);
/* A time range [a, b] marked: applied, or range B against A. */
void tui_range_marked(struct tui *t, uint64_t a, uint64_t b);
/* [a, b] becomes range A of a comparison. */
void tui_range_take_a(struct tui *t, uint64_t a, uint64_t b);

/* ---- Layer 5: the heat map over the timeline ------------------------- */

/* tui-heatmap.c: the sub-second heat map in place of the strip; binned
 * again when t->tl_gen moves on. */
bool tui_heat_shown(const struct tui *t);
void tui_heat_action(struct tui *t, enum tui_action a);
/* Draw it on rows y0 to y0 + rows - 1. */
void tui_heat_draw(struct tui *t, unsigned y0, unsigned rows);
/* A click; true when it was on the heat map. */
bool tui_heat_click(struct tui *t, int row, int col);
void tui_heat_free(struct tui *t);

/* ---- Layer 6: tui.c, the loop and the dispatch (tui.h) --------------- */

#endif
