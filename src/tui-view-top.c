/*
 * tui-view-top.c - the top table: one row per function of the shown
 * profile with its self and total weight (view_top), sorted by self, total
 * or name, narrowed by a regex filter line, drawn over the flame graph's
 * rows.  Enter opens the callers and callees of the selected function, <
 * its callers, > its callees.
 *
 * A comparison's table (diff_top_rows) gives self and total before, after
 * and their change in points, as --top does, with new and gone for a
 * share that is 0 on one side; it is first sorted by the size of the self
 * change, and the change cells take the flame graph's grew/shrank colors
 * (without colors, the name is marked + or - as --text marks frames).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "search.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

void tui_top_free(struct tui *t)
{
	free(t->top_rows);
	free(t->top_drows);
	free(t->top_shown);
	free(t->top_filter);
	t->top_rows = NULL;
	t->top_drows = NULL;
	t->top_shown = NULL;
	t->top_filter = NULL;
	t->ntop = t->nshown = 0;
}

/* The symbol of row i (of all rows, before the filter). */
static uint32_t row_sym(const struct tui *t, size_t i)
{
	return t->top_drows ? t->top_drows[i].sym : t->top_rows[i].sym;
}

/* The rows in t->top_sort's order, and the filter's rows of them. */
static void sort_and_filter(struct tui *t)
{
	struct search *s = NULL;
	char err[256];

	if (t->top_drows)
		diff_top_sort(t->p, t->top_drows, t->ntop, t->top_sort);
	else
		view_top_sort(t->p, t->top_rows, t->ntop, t->top_sort);
	if (t->top_filter) {
		s = search_create();
		if (search_set(s, t->top_filter, t->icase, err, sizeof(err)) < 0) {
			search_destroy(s);
			s = NULL;
		} else {
			search_update(s, t->p);
		}
	}
	t->top_shown = xreallocarray(t->top_shown, t->ntop ? t->ntop : 1,
				     sizeof(*t->top_shown));
	t->nshown = 0;
	for (size_t i = 0; i < t->ntop; i++)
		if (!s || search_sym_matches(s, row_sym(t, i)))
			t->top_shown[t->nshown++] = i;
	search_destroy(s);
	if (t->top_sel >= t->nshown)
		t->top_sel = t->nshown ? t->nshown - 1 : 0;
}

/* The rows of the shown profile, sorted and filtered. */
void tui_top_refresh(struct tui *t)
{
	if (!t->top_stale)
		return;
	free(t->top_rows);
	free(t->top_drows);
	t->top_rows = NULL;
	t->top_drows = NULL;
	/* A comparison's rows cost a copy of the profile (diff_top_rows):
	 * a new order or filter only sorts and filters them again. */
	if (profile_is_differential(t->p))
		t->ntop = diff_top_rows(t->p, t->v.negate, &t->top_drows);
	else
		t->ntop = view_top(t->p, &t->top_rows);
	sort_and_filter(t);
	t->top_stale = false;
}

void tui_top_set_filter(struct tui *t, const char *re)
{
	struct search *s = search_create();
	char err[256];

	if (*re && search_set(s, re, t->icase, err, sizeof(err)) < 0) {
		tui_set_msg(t, true, "bad regex: %s", err);
		search_destroy(s);
		return;
	}
	search_destroy(s);
	free(t->top_filter);
	t->top_filter = *re ? xstrdup(re) : NULL;
	t->top_sel = t->top_scroll = 0;
	if (t->top_stale)
		tui_top_refresh(t);
	else
		sort_and_filter(t);
	tui_set_msg(t, false, "%zu of %zu functions", t->nshown, t->ntop);
}

const char *tui_top_selected_name(struct tui *t)
{
	tui_top_refresh(t);
	if (!t->nshown)
		return NULL;
	return symtab_name(profile_symtab(t->p),
			   row_sym(t, t->top_shown[t->top_sel]));
}

/* The order the rows are in (a single profile has no change: by self). */
static const char *sort_name(const struct tui *t)
{
	switch (t->top_sort) {
	case TOP_BY_TOTAL: return "total";
	case TOP_BY_NAME: return "name";
	case TOP_BY_CHANGE: return t->top_drows ? "change" : "self";
	default: return "self";
	}
}

bool tui_top_action(struct tui *t, enum tui_action a, unsigned frame_rows)
{
	/* The column titles take one row. */
	size_t page = frame_rows > 1 ? frame_rows - 1 : 1;

	tui_top_refresh(t);
	switch (a) {
	case ACT_UP:
		if (t->top_sel)
			t->top_sel--;
		break;
	case ACT_DOWN:
		if (t->top_sel + 1 < t->nshown)
			t->top_sel++;
		break;
	case ACT_PGUP:
		t->top_sel = t->top_sel > page ? t->top_sel - page : 0;
		break;
	case ACT_PGDN:
		t->top_sel = t->top_sel + page < t->nshown ? t->top_sel + page
			     : t->nshown ? t->nshown - 1 : 0;
		break;
	case ACT_TOP:
		t->top_sel = 0;
		break;
	case ACT_BOTTOM:
		t->top_sel = t->nshown ? t->nshown - 1 : 0;
		break;
	case ACT_TOP_BY_CHANGE:
		if (!t->top_drows) {
			tui_set_msg(t, true, "no change to sort by: not a "
				    "comparison (--diff, b, or c in timeline "
				    "mode)");
			break;
		}
		/* fall through */
	case ACT_TOP_BY_SELF:
	case ACT_TOP_BY_TOTAL:
	case ACT_TOP_BY_NAME:
		t->top_sort = a == ACT_TOP_BY_SELF ? TOP_BY_SELF :
			      a == ACT_TOP_BY_TOTAL ? TOP_BY_TOTAL :
			      a == ACT_TOP_BY_NAME ? TOP_BY_NAME : TOP_BY_CHANGE;
		t->top_sel = t->top_scroll = 0;
		sort_and_filter(t);
		tui_set_msg(t, false, "top table sorted by %s", sort_name(t));
		break;
	default:
		return false;
	}
	if (t->top_sel < t->top_scroll)
		t->top_scroll = t->top_sel;
	if (t->top_sel >= t->top_scroll + page)
		t->top_scroll = t->top_sel + 1 - page;
	return true;
}

/*
 * The status line of the table, on one row: where the selection is and the
 * order, then (a comparison) what the columns hold, then the keys; when it
 * does not fit, the keys are said shorter, then only "? help", then the
 * legend goes (and the keys come back, short, if they fit then).
 */
void tui_top_status_text(struct tui *t, char *buf, size_t cap)
{
	/* The keys, said around the sort keys, shorter and shorter. */
	static const char *const keys[][2] = {
		{ " | Enter: callers and callees, <: callers, >: callees, ",
		  ": sort, /: filter, v: back" },
		{ " | Enter, <, >: callers, callees; ", ": sort; /: filter; v: back" },
		{ " | ? help", NULL },
	};
	/* The levels: the legend (a comparison's) and which keys. */
	static const struct { bool legend; unsigned keys; } lvl[] = {
		{ true, 0 }, { true, 1 }, { true, 2 }, { false, 1 }, { false, 2 },
	};
	const char *sorts = t->top_drows ? "1/2/3/4" : "1/2/3";
	char head[128], legend[96] = "";

	tui_top_refresh(t);
	if (t->top_drows)
		snprintf(legend, sizeof(legend), " | self and total: %% of all "
			 "%s, %s, change in points", profile_side(t->p, false),
			 profile_side(t->p, true));
	snprintf(head, sizeof(head), "top: %zu of %zu functions, sorted by %s%s",
		 t->nshown, t->ntop, sort_name(t),
		 t->top_filter ? " (filtered)" : "");
	for (size_t i = 0; i < ARRAY_SIZE(lvl); i++) {
		const char *const *k = keys[lvl[i].keys];

		snprintf(buf, cap, "%s%s%s%s%s", head,
			 lvl[i].legend ? legend : "", k[0], k[1] ? sorts : "",
			 k[1] ? k[1] : "");
		if (!t->cols || textfmt_width(buf, strlen(buf)) <= t->cols)
			return;
	}
	/* Narrower than its head: cut (plain ASCII). */
	snprintf(buf, cap, "%.*s%s", (int)(t->cols > 2 ? t->cols - 2 : 0), head,
		 t->cols > 2 ? ".." : "");
}

/* The name of sym on row y from column x, fitted to the rest of the row. */
static void draw_name(struct tui *t, int y, size_t x, uint32_t sym)
{
	const struct symtab *st = profile_symtab(t->p);
	char *fit;

	if (x >= t->cols)
		return;
	fit = xmalloc(8 * (t->cols - x) + 1);
	/* textfmt_fit escapes what the name holds. */
	textfmt_fit(symtab_name(st, sym), symtab_len(st, sym),
		    (unsigned)(t->cols - x), ' ', fit);
	mvaddstr(y, (int)x, fit);
	free(fit);
}

#define CHG_W 7                  /* a change cell's columns */
#define SELF_CHG_X 16            /* "100.00% 100.00% " */
#define TOTAL_CHG_X 41           /* SELF_CHG_X + CHG_W + "  " + 16 */

/* A comparison's row: self and total before, after, change; then name. */
static void draw_diff_row(struct tui *t, int y, const struct diff_top_row *r,
			  bool sel)
{
	struct diff_info di[2];
	char line[160], c[2][16];
	int n;

	for (int k = 0; k < 2; k++) {
		diff_top_info(r, k == 1, &di[k]);
		diff_change_text(&di[k], c[k], sizeof(c[k]));
	}
	n = snprintf(line, sizeof(line), "%6.2f%% %6.2f%% %*s  %6.2f%% "
		     "%6.2f%% %*s  ", r->self_pct[0], r->self_pct[1], CHG_W,
		     c[0], r->total_pct[0], r->total_pct[1], CHG_W, c[1]);
	attr_set(sel ? A_REVERSE : A_NORMAL, 0, NULL);
	mvaddnstr(y, 0, line, (int)t->cols);
	if (!sel && t->cmode != CM_NONE) {
		/* The change cells in the flame graph's colors. */
		for (int k = 0; k < 2; k++) {
			unsigned x = k ? TOTAL_CHG_X : SELF_CHG_X;

			if (x >= t->cols)
				break;
			tui_draw_color(t, t->theme.slot[TS_TEXT].fg,
				       diff_color_of(&t->theme, &di[k]), 0);
			mvaddnstr(y, (int)x, line + x, (int)(t->cols - x) < CHG_W
				  ? (int)(t->cols - x) : CHG_W);
		}
		attr_set(A_NORMAL, 0, NULL);
	}
	draw_name(t, y, n > 0 ? (size_t)n : 0, r->sym);
}

void tui_top_draw(struct tui *t, unsigned top, unsigned rows)
{
	char line[4096];
	unsigned R = rows > 1 ? rows - 1 : 0;

	tui_top_refresh(t);
	if (t->top_sel < t->top_scroll)
		t->top_scroll = t->top_sel;
	if (R && t->top_sel >= t->top_scroll + R)
		t->top_scroll = t->top_sel + 1 - R;
	if (t->top_drows) {
		/* The sides by their initials: b(efore) and a(fter), or the
		 * ranges A and B, as the status line names them. */
		char col[4][16];

		for (int k = 0; k < 4; k++)
			snprintf(col[k], sizeof(col[k]), "%s:%c",
				 k < 2 ? "self" : "total",
				 profile_side(t->p, k % 2)[0]);
		snprintf(line, sizeof(line), "%7s %7s %*s  %7s %7s %*s  %s",
			 col[0], col[1], CHG_W, "change", col[2], col[3],
			 CHG_W, "change", "function");
	}
	else
		view_top_titles(line, sizeof(line));
	attr_set(A_BOLD, 0, NULL);
	mvaddnstr((int)top, 0, line, (int)t->cols);
	for (unsigned r = 0; r < R && t->top_scroll + r < t->nshown; r++) {
		size_t i = t->top_scroll + r;
		int y = (int)(top + 1 + r);
		const struct view_top_row *row;
		size_t n;

		if (t->top_drows) {
			draw_diff_row(t, y, &t->top_drows[t->top_shown[i]],
				      i == t->top_sel);
			continue;
		}
		row = &t->top_rows[t->top_shown[i]];
		n = view_top_cells(t->p, row, line, sizeof(line));
		attr_set(i == t->top_sel ? A_REVERSE : A_NORMAL, 0, NULL);
		mvaddnstr(y, 0, line, (int)t->cols);
		draw_name(t, y, n, row->sym);
	}
	attr_set(A_NORMAL, 0, NULL);
}
