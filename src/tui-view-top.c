/*
 * tui-view-top.c - the top table: one row per function of the shown
 * profile with its self and total weight (view_top), sorted by self, total
 * or name, narrowed by a regex filter line, drawn over the flame graph's
 * rows.  Enter opens the callees of the selected function, < its callers.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

void tui_top_free(struct tui *t)
{
	free(t->top_rows);
	free(t->top_shown);
	free(t->top_filter);
	t->top_rows = NULL;
	t->top_shown = NULL;
	t->top_filter = NULL;
	t->ntop = t->nshown = 0;
}

/* The rows of the shown profile, sorted and filtered. */
void tui_top_refresh(struct tui *t)
{
	struct search *s = NULL;
	char err[256];

	if (!t->top_stale)
		return;
	free(t->top_rows);
	t->ntop = view_top(t->p, &t->top_rows);
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
		if (!s || search_sym_matches(s, t->top_rows[i].sym))
			t->top_shown[t->nshown++] = i;
	search_destroy(s);
	if (t->top_sel >= t->nshown)
		t->top_sel = t->nshown ? t->nshown - 1 : 0;
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
	t->top_stale = true;
	t->top_sel = t->top_scroll = 0;
	tui_top_refresh(t);
	tui_set_msg(t, false, "%zu of %zu functions", t->nshown, t->ntop);
}

const char *tui_top_selected_name(struct tui *t)
{
	tui_top_refresh(t);
	if (!t->nshown)
		return NULL;
	return symtab_name(profile_symtab(t->p),
			   t->top_rows[t->top_shown[t->top_sel]].sym);
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
	case ACT_TOP_BY_SELF:
	case ACT_TOP_BY_TOTAL:
	case ACT_TOP_BY_NAME:
		t->top_sort = a == ACT_TOP_BY_SELF ? TOP_BY_SELF :
			      a == ACT_TOP_BY_TOTAL ? TOP_BY_TOTAL : TOP_BY_NAME;
		t->top_stale = true;
		t->top_sel = t->top_scroll = 0;
		tui_top_refresh(t);
		tui_set_msg(t, false, "top table sorted by %s",
			    a == ACT_TOP_BY_SELF ? "self" :
			    a == ACT_TOP_BY_TOTAL ? "total" : "name");
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

void tui_top_status_text(struct tui *t, char *buf, size_t cap)
{
	const char *by[] = { "self", "total", "name" };

	tui_top_refresh(t);
	snprintf(buf, cap, "top: %zu of %zu functions, sorted by %s%s | "
		 "Enter: callers and callees, <: callers, >: callees, 1/2/3: sort, "
		 "/: filter, v: back",
		 t->nshown, t->ntop, by[t->top_sort],
		 t->top_filter ? " (filtered)" : "");
}

static double pct(const struct profile *p, uint64_t w)
{
	uint64_t all = profile_total(p, NODE_ROOT);

	return all ? 100.0 * (double)w / (double)all : 0.0;
}

void tui_top_draw(struct tui *t, unsigned top, unsigned rows)
{
	const struct symtab *st = profile_symtab(t->p);
	char line[4096], a[48], b[48];
	unsigned R = rows > 1 ? rows - 1 : 0;

	tui_top_refresh(t);
	if (t->top_sel < t->top_scroll)
		t->top_scroll = t->top_sel;
	if (R && t->top_sel >= t->top_scroll + R)
		t->top_scroll = t->top_sel + 1 - R;
	snprintf(line, sizeof(line), "%7s %7s %12s %12s  %s", "self", "total",
		 "self", "total", "function");
	attr_set(A_BOLD, 0, NULL);
	mvaddnstr((int)top, 0, line, (int)t->cols);
	for (unsigned r = 0; r < R && t->top_scroll + r < t->nshown; r++) {
		size_t i = t->top_scroll + r;
		const struct view_top_row *row = &t->top_rows[t->top_shown[i]];
		size_t n;

		profile_format_weight(t->p, row->self, a, sizeof(a));
		profile_format_weight(t->p, row->total, b, sizeof(b));
		n = (size_t)snprintf(line, sizeof(line),
				     "%6.2f%% %6.2f%% %12s %12s  ",
				     pct(t->p, row->self), pct(t->p, row->total),
				     a, b);
		attr_set(i == t->top_sel ? A_REVERSE : A_NORMAL, 0, NULL);
		mvaddnstr((int)(top + 1 + r), 0, line, (int)t->cols);
		if (n < t->cols) {
			/* The name fitted to what is left of the row. */
			char *fit = xmalloc(8 * (t->cols - n) + 1);

			/* textfmt_fit escapes what the name holds. */
			textfmt_fit(symtab_name(st, row->sym),
				    symtab_len(st, row->sym),
				    (unsigned)(t->cols - n), ' ', fit);
			mvaddstr((int)(top + 1 + r), (int)n, fit);
			free(fit);
		}
	}
	attr_set(A_NORMAL, 0, NULL);
}
