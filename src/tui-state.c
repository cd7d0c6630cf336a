/*
 * tui-state.c - small queries and updates of the view's state that every
 * layer of the TUI uses: the status message, the rectangle a node is drawn
 * in, the accessors of tui.h, and what follows from the profile shown.
 * It calls no other tui file.
 *
 * The figures computed from the profile shown (t->p) are kept, not
 * recomputed at each frame: the search's matches and matched weight, the
 * top table's rows, the layout, the timeline strip's slices and the heat
 * map's bins.  tui_shown_changed brings all of them up to date, and every
 * change of the shown tree goes through it: a view derived again
 * (tui_view_apply: filters, callers/callees, inversion, folding, grouping,
 * a comparison or its side, a live tick under a view) and the weights
 * changed in place (tui_profile_changed: a time range, a live tick, another
 * event or sample type).  A figure missed here goes stale, as the search
 * share once did after a filter.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tui-priv.h"
#include "util.h"

void tui_set_msg(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_error = error;
}

ssize_t tui_rect_of(const struct tui *t, uint32_t node)
{
	unsigned d = profile_depth(t->p, node);

	if (d >= t->lay.rows)
		return -1;
	for (size_t i = t->lay.row_start[d]; i < t->lay.row_start[d + 1]; i++)
		if (t->lay.rects[i].node == node)
			return (ssize_t)i;
	return -1;
}

void tui_search_refresh(struct tui *t)
{
	t->matched = 0;
	if (!t->search || !search_active(t->search))
		return;
	search_update(t->search, t->p);
	t->matched = search_matched_weight(t->search, t->p, NODE_ROOT);
	if (t->sand) {
		/* The sandwich: its callers are matched too; the share, of
		 * the function's samples with a match on either side, is
		 * derived before the next drawing (tui_view_sandwich_matched,
		 * a layer above). */
		search_copy(t->sand_search, t->search);
		search_update(t->sand_search, t->sand);
		t->sand_stale = true;
	}
}

void tui_slice_times(const struct tui *t, unsigned i, uint64_t *a,
		     uint64_t *b)
{
	unsigned __int128 span = (unsigned __int128)(t->tl_last - t->tl_first) + 1;

	*a = t->tl_first + (uint64_t)(span * i / t->tl_n);
	if (i + 1 >= t->tl_n)
		*b = t->tl_last;
	else
		*b = t->tl_first + (uint64_t)(span * (i + 1) / t->tl_n) - 1;
}

void tui_timeline_refresh(struct tui *t)
{
	t->tl_n = 0;
	/* The source's time span: a view of a range keeps the whole strip. */
	if (!profile_has_timeline(t->p) || !t->cols ||
	    !profile_time_bounds(t->src, &t->tl_first, &t->tl_last))
		return;
	t->tl_n = t->cols;
	t->tl_weight = xreallocarray(t->tl_weight, t->tl_n,
				     sizeof(*t->tl_weight));
	for (unsigned i = 0; i < t->tl_n; i++) {
		uint64_t a, b, w = 0;

		tui_slice_times(t, i, &a, &b);
		if (a <= b)
			profile_count_range(t->p, a, b, &w);
		t->tl_weight[i] = w;
	}
	if (t->tl_cur >= (int)t->tl_n)
		t->tl_cur = (int)t->tl_n - 1;
	if (t->tl_mark >= (int)t->tl_n)
		t->tl_mark = -1;
	t->tl_gen++;   /* the heat map bins again */
}

void tui_shown_changed(struct tui *t, bool other_tree)
{
	/* Another profile's symbol ids name other functions. */
	if (other_tree && t->search)
		search_forget(t->search);
	tui_search_refresh(t);
	t->top_stale = true;
	t->dirty = true;
	if (t->tl_show)
		tui_timeline_refresh(t);
	t->tl_gen++;   /* the heat map bins again */
}

const struct profile *tui_profile(const struct tui *t) { return t->p; }
uint32_t tui_selected(const struct tui *t) { return t->sel; }
uint32_t tui_zoom(const struct tui *t) { return t->zoom; }
bool tui_timeline_focused(const struct tui *t) { return t->tl_focus; }
const char *tui_message(const struct tui *t) { return t->msg; }
