/*
 * tui-priv.h - the view's state, shared by tui.c (actions, the main loop)
 * and tui-draw.c (the screen).  Curses-free, so the state can be driven by
 * tests without a terminal.
 *
 * Geometry: the screen is a header row, an optional timeline row, the
 * frame rows, and one to three status rows at the bottom.  `scroll` is the
 * smallest stack depth on screen in both orientations; in icicle mode
 * depth d is drawn at frame row d - scroll, in flame mode at
 * frame_rows - 1 - (d - scroll).
 */
#ifndef FLAMETOP_TUI_PRIV_H
#define FLAMETOP_TUI_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "profile.h"
#include "search.h"
#include "theme.h"
#include "tui.h"

enum color_mode { CM_NONE, CM_8, CM_256, CM_DIRECT };

#define TUI_HISTORY 100               /* search patterns remembered */

struct tui {
	struct profile *p;
	const char *title;
	const struct tui_live_ops *live;
	void *live_ctx;

	unsigned rows, cols;          /* the screen */
	struct layout lay;
	bool dirty;                   /* the layout must be rebuilt */

	uint32_t zoom;
	uint32_t *zhist;              /* zoom history (for zoom out) */
	size_t nzhist, capzhist;
	uint32_t sel;
	uint32_t eye;                 /* column kept while moving up/down */
	unsigned scroll;
	bool flame;

	struct search *search;
	char *pattern;                /* as typed, or the literal name */
	bool literal;
	bool icase;
	uint64_t matched;             /* matched weight (nested once) */

	struct theme theme;
	enum color_mode cmode;

	char msg[512];
	bool msg_error;
	bool help;
	size_t help_top;              /* first line of the help shown */
	bool repaint;                 /* Ctrl-L: send every cell again */
	bool prompting;
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
};

/* tui.c */
void tui_relayout(struct tui *t);
unsigned tui_frame_rows(const struct tui *t);
unsigned tui_status_rows(struct tui *t);
unsigned tui_top_rows(const struct tui *t);
ssize_t tui_rect_of(const struct tui *t, uint32_t node);
void tui_slice_times(const struct tui *t, unsigned i, uint64_t *a,
		     uint64_t *b);
void tui_timeline_refresh(struct tui *t);

/* tui-draw.c */
void tui_draw_init(struct tui *t);   /* after initscr: colors */
void tui_draw_free(struct tui *t);
void tui_draw_theme_changed(struct tui *t);

#endif
