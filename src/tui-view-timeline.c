/*
 * tui-view-timeline.c - the timeline strip: one slice of the samples'
 * times per column, the weight of each, a cursor and a mark that select a
 * time range (the graph of that range) or two ranges to compare.  Shown
 * for profiles with timestamps (perf script, perf.data, live).  A range
 * changes the profile's weights, and tui_profile_changed brings the search,
 * the layout, the selection and the strip up to date (the loop calls it
 * too, after a live tick).  It draws with tui-draw.c.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "textfmt.h"
#include "timerange.h"
#include "tui-priv.h"
#include "util.h"

#define set_msg tui_set_msg
#define ensure_visible tui_ensure_visible
#define profile_changed tui_profile_changed

/* ---- Time ranges ----------------------------------------------------- */

#define TIMELINE_HINT "timeline: Left/Right move, Enter marks the start, " \
	"Enter again the end; Esc, t or q leave"

/* The profile's weights changed in place: what follows from them, then a
 * zoom and selection that are still on screen. */
void tui_profile_changed(struct tui *t)
{
	tui_shown_changed(t, false);
	tui_fix_view(t);
}

static void timeline_open(struct tui *t)
{
	uint64_t a, b;

	if (!profile_has_timeline(t->p)) {
		set_msg(t, false, "no timeline: this profile has no timestamps "
			"(perf script and perf.data have them)");
		return;
	}
	t->tl_show = t->tl_focus = true;
	t->tl_mark = -1;
	tui_timeline_refresh(t);
	t->tl_cur = 0;
	if (profile_range(t->src, &a, &b) && t->tl_n) {
		for (unsigned i = 0; i < t->tl_n; i++) {
			uint64_t x, y;

			tui_slice_times(t, i, &x, &y);
			if (y >= a) {
				t->tl_cur = (int)i;
				break;
			}
		}
	}
	ensure_visible(t);
	set_msg(t, false, TIMELINE_HINT);
}

static void timeline_mark(struct tui *t)
{
	uint64_t a, b, x;
	int lo, hi;

	if (!t->tl_n)
		return;
	if (t->tl_mark < 0) {
		t->tl_mark = t->tl_cur;
		tui_slice_times(t, (unsigned)t->tl_cur, &a, &b);
		set_msg(t, false, "range starts at %.3f s; move and press Enter "
			"to end it", (double)(a - t->tl_first) / 1e9);
		return;
	}
	lo = t->tl_mark < t->tl_cur ? t->tl_mark : t->tl_cur;
	hi = t->tl_mark < t->tl_cur ? t->tl_cur : t->tl_mark;
	tui_slice_times(t, (unsigned)lo, &a, &x);
	tui_slice_times(t, (unsigned)hi, &x, &b);
	tui_range_marked(t, a, b);
}

/*
 * A time range is the source's: every view is derived from the source, so
 * the range holds through the view changes that follow, and T clears it
 * whatever the view.
 */
static void set_range(struct tui *t, bool set, uint64_t a, uint64_t b)
{
	if (set)
		profile_set_range(t->src, a, b);
	else
		profile_clear_range(t->src);
	tui_view_source_changed(t);
	profile_changed(t);
}

/* A range [a, b] was marked, on the strip or the heat map (tui-heatmap.c). */
void tui_range_marked(struct tui *t, uint64_t a, uint64_t b)
{
	char span[64];

	if (t->cmp_pending) {
		/* Range B: shown against range A, a view of its own. */
		t->cmp_pending = false;
		t->tl_mark = -1;
		t->tl_show = t->tl_focus = false;
		tui_view_compare_ranges(t, t->cmp_pa0, t->cmp_pa1, a, b);
		profile_changed(t);
		return;
	}
	set_range(t, true, a, b);
	t->tl_mark = -1;
	t->tl_focus = false;
	timerange_describe(span, sizeof(span), t->tl_first, a, b);
	set_msg(t, false, "range %s applied; timeline mode left (t: select "
		"again, T: all samples)", span);
}

/* c: the range being marked (or the one shown) becomes range A. */
static void timeline_compare(struct tui *t)
{
	uint64_t a, b, x;
	int lo, hi;

	if (!t->tl_n)
		return;
	if (profile_is_differential(t->src)) {
		set_msg(t, false, "this profile is a comparison already: no "
			"ranges to compare");
		return;
	}
	if (t->tl_mark >= 0) {
		lo = t->tl_mark < t->tl_cur ? t->tl_mark : t->tl_cur;
		hi = t->tl_mark < t->tl_cur ? t->tl_cur : t->tl_mark;
		tui_slice_times(t, (unsigned)lo, &a, &x);
		tui_slice_times(t, (unsigned)hi, &x, &b);
	} else if (!profile_range(t->src, &a, &b)) {
		set_msg(t, false, "compare: mark range A first (Enter at its "
			"start, c at its end)");
		return;
	}
	tui_range_take_a(t, a, b);
}

/* [a, b] becomes range A, on the strip or the heat map. */
void tui_range_take_a(struct tui *t, uint64_t a, uint64_t b)
{
	char span[64];

	t->cmp_pending = true;
	t->cmp_pa0 = a;
	t->cmp_pa1 = b;
	t->tl_mark = -1;
	/* The header names it so too (tui-view.c). */
	timerange_describe(span, sizeof(span), t->tl_first, a, b);
	set_msg(t, false, "range A %s; now mark range B (Enter, Enter): it is "
		"shown against A", span);
}

static void timeline_move(struct tui *t, int n)
{
	long c = (long)t->tl_cur + n;
	uint64_t a, b;
	char num[64], span[64];

	if (!t->tl_n)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)t->tl_n)
		c = (long)t->tl_n - 1;
	t->tl_cur = (int)c;
	/* Say where the cursor is: its slice's times and samples. */
	tui_slice_times(t, (unsigned)c, &a, &b);
	profile_format_amount(t->p, t->tl_weight[c], num, sizeof(num));
	timerange_describe(span, sizeof(span), t->tl_first, a, b);
	set_msg(t, false, "%s: %s%s", span, num,
		t->tl_mark >= 0 ? "; Enter ends the range" :
				  "; Enter starts a range");
}

/* ---- Actions --------------------------------------------------------- */

/* The timeline's actions (t, T and the keys of the strip); false when a
 * is not one of them. */
bool tui_timeline_action(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_TIMELINE:
		if (t->tl_show && !t->tl_focus) {
			t->tl_focus = true;
			set_msg(t, false, TIMELINE_HINT);
		} else if (t->tl_show) {
			t->tl_show = t->tl_focus = false;
			ensure_visible(t);
			set_msg(t, false, "timeline mode left");
		} else {
			timeline_open(t);
		}
		break;
	case ACT_RANGE_CLEAR:
		if (profile_range(t->src, &(uint64_t){ 0 }, &(uint64_t){ 0 })) {
			set_range(t, false, 0, 0);
			set_msg(t, false, "all samples (no time range)");
		}
		break;
	case ACT_TL_LEFT:
		timeline_move(t, -1);
		break;
	case ACT_TL_RIGHT:
		timeline_move(t, 1);
		break;
	case ACT_TL_FAST_LEFT:
		timeline_move(t, -10);
		break;
	case ACT_TL_FAST_RIGHT:
		timeline_move(t, 10);
		break;
	case ACT_TL_MARK:
		timeline_mark(t);
		break;
	case ACT_TL_COMPARE:
		timeline_compare(t);
		break;
	case ACT_TL_LEAVE:
		if (t->tl_mark >= 0) {
			t->tl_mark = -1;
			set_msg(t, false, "mark cancelled; " TIMELINE_HINT);
		} else if (t->cmp_pending) {
			t->cmp_pending = false;
			set_msg(t, false, "compare cancelled; " TIMELINE_HINT);
		} else {
			t->tl_show = t->tl_focus = false;
			ensure_visible(t);
			set_msg(t, false, "timeline mode left");
		}
		break;
	default:
		return false;
	}
	return true;
}

/* A click on the strip at column col: the cursor goes there and marks. */
void tui_timeline_click(struct tui *t, int col)
{
	if (!t->tl_n)
		return;
	t->tl_focus = true;
	t->tl_cur = col < (int)t->tl_n ? col : (int)t->tl_n - 1;
	timeline_mark(t);
}

/* ---- Drawing --------------------------------------------------------- */

void tui_timeline_draw(struct tui *t, int y)
{
	static const char *const bars_utf8[9] = {
		" ", "\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char bars_ascii[] = " ._-=+*#@";
	uint64_t max = 0, ra = 0, rb = 0;
	bool ranged = profile_range(t->src, &ra, &rb);
	int lo = -1, hi = -1;

	if (!t->tl_n || t->tl_n != t->cols)
		tui_timeline_refresh(t);
	for (unsigned i = 0; i < t->tl_n; i++)
		if (t->tl_weight[i] > max)
			max = t->tl_weight[i];
	if (t->tl_mark >= 0) {
		lo = t->tl_mark < t->tl_cur ? t->tl_mark : t->tl_cur;
		hi = t->tl_mark < t->tl_cur ? t->tl_cur : t->tl_mark;
	}
	move(y, 0);
	for (unsigned i = 0; i < t->tl_n && i < t->cols; i++) {
		uint64_t a, b;
		unsigned lv = max ? (unsigned)((t->tl_weight[i] * 8 + max - 1) /
					       max) : 0;
		bool in;

		tui_slice_times(t, i, &a, &b);
		in = (lo >= 0 && (int)i >= lo && (int)i <= hi) ||
		     (lo < 0 && ranged && b >= ra && a <= rb);
		tui_draw_slot(t, in ? TS_RANGE : TS_TIMELINE);
		if (t->tl_focus && (int)i == t->tl_cur)
			attron(A_REVERSE);
		if (textfmt_utf8())
			mvaddstr(y, (int)i, bars_utf8[lv > 8 ? 8 : lv]);
		else
			mvaddch(y, (int)i, (chtype)bars_ascii[lv > 8 ? 8 : lv]);
	}
	attr_set(A_NORMAL, 0, NULL);
}
