/*
 * tui-heatmap.c - the timeline's sub-second heat map (m in timeline mode),
 * drawn over the strip and the frame rows: a line on the cell under the
 * cursor, the seconds across, then one row per offset within a column's
 * span (heatmap.h bins them) and a line with the scale.
 *
 * A cell's color goes from the theme's heat-low to heat-high with its
 * weight; without colors it is a character of increasing density.  The
 * cursor moves over the cells; Enter marks a start cell and Enter again an
 * end cell, and the cells between, in time order, become a time range
 * exactly as a range of the strip does (tui_range_marked: applied, or
 * range B against range A), so comparisons and Backspace work the same.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heatmap.h"
#include "keys.h"
#include "textfmt.h"
#include "timerange.h"
#include "tui-priv.h"
#include "util.h"

#define LABEL_W 7u                 /* the row labels: "980ms " */
#define LEVELS 10u
#define HEAT_HINT "heat map: arrows move; Enter: start cell, Enter: end " \
	"cell; c: range A; m: strip; Esc: leave"

static const char density[LEVELS + 1] = " .:-=+*#%@";

struct tui_heat {
	bool stale;                /* bin again before the next use */
	unsigned gen;              /* t->tl_gen when binned */
	struct heatmap map;
	const struct profile *p;   /* what was binned */
	size_t ntl;                /* its timeline's length then */
	uint64_t first, last;      /* and its time bounds */
	unsigned max_cols, max_rows;   /* the room it was binned for */
	unsigned cc, cr;           /* the cursor's cell */
	bool marked;
	unsigned mc, mr;           /* the start cell marked */
};

static struct tui_heat *heat(struct tui *t)
{
	if (!t->heat)
		t->heat = xcalloc(1, sizeof(*t->heat));
	return t->heat;
}

void tui_heat_free(struct tui *t)
{
	if (!t->heat)
		return;
	heatmap_free(&t->heat->map);
	free(t->heat);
	t->heat = NULL;
	t->heat_on = false;
}

bool tui_heat_shown(const struct tui *t)
{
	return t->heat && t->heat_on && t->tl_show && t->tl_focus;
}

/* The rows the heat map covers: from row 1 to above the status line. */
static unsigned area_rows(struct tui *t)
{
	unsigned used = tui_status_rows(t) + 1;

	return t->rows > used ? t->rows - used : 0;
}

/* A cell that holds time, or the nearest one. */
static void cell_at(const struct heatmap *m, uint64_t time, unsigned *c,
		    unsigned *r)
{
	if (heatmap_cell_of(m, time, c, r))
		return;
	*c = time < m->t0 ? 0 : m->cols - 1;
	*r = time < m->t0 ? 0 : m->rows - 1;
}

/* Bin again when the profile, its weights or the room changed; the cursor
 * and the mark keep their times.  False when there is nothing to show. */
static bool ensure(struct tui *t)
{
	struct tui_heat *h = heat(t);
	unsigned area = area_rows(t);
	unsigned mr = area > 4 ? area - 3 : 1;
	unsigned mc = t->cols > LABEL_W + 1 ? t->cols - LABEL_W : 1;
	uint64_t cur = 0, mark = 0, end, first = 0, last = 0;
	size_t ntl = profile_timeline_len(t->p);

	profile_time_bounds(t->p, &first, &last);
	if (!h->stale && h->gen == t->tl_gen && h->p == t->p && h->ntl == ntl && h->first == first &&
	    h->last == last && h->max_rows == mr && h->max_cols == mc &&
	    h->map.cols)
		return true;
	if (h->map.cols) {
		heatmap_cell_span(&h->map, h->cc, h->cr, &cur, &end);
		heatmap_cell_span(&h->map, h->mc, h->mr, &mark, &end);
	}
	h->p = t->p;
	h->ntl = ntl;
	h->first = first;
	h->last = last;
	h->max_rows = mr;
	h->max_cols = mc;
	h->stale = false;
	h->gen = t->tl_gen;
	if (!heatmap_build(&h->map, t->p, mc, mr)) {
		h->marked = false;
		return false;
	}
	cell_at(&h->map, cur, &h->cc, &h->cr);
	cell_at(&h->map, mark, &h->mc, &h->mr);
	return true;
}

/* Columns per cell: two (closer to square) when the map fits so. */
static unsigned cell_w(const struct tui *t, const struct heatmap *m)
{
	return LABEL_W + 2 * (size_t)m->cols <= t->cols ? 2 : 1;
}

/* The cell's index in time order. */
static uint64_t order(const struct heatmap *m, unsigned c, unsigned r)
{
	return (uint64_t)c * m->rows + r;
}

/* The range from the mark to the cursor, [*a, *b] as profile ranges are. */
static void marked_range(const struct tui_heat *h, uint64_t *a, uint64_t *b)
{
	uint64_t end;

	heatmap_range(&h->map, h->mc, h->mr, h->cc, h->cr, a, &end);
	*b = end == UINT64_MAX ? end : end - 1;
}

static double rel(const struct tui_heat *h, uint64_t time)
{
	return (double)(time - h->map.t0) / 1e9;
}

/* "4 samples, 4.000 ms CPU", or "4 samples" when the weights count them. */
static void amount_text(struct tui *t, uint64_t w, uint32_t n, char *buf,
			size_t cap)
{
	char amt[64], cnt[32];

	profile_format_amount(t->p, w, amt, sizeof(amt));
	snprintf(cnt, sizeof(cnt), "%u samples", n);
	if (strcmp(amt, cnt) == 0)
		snprintf(buf, cap, "%u sample%s", n, n == 1 ? "" : "s");
	else
		snprintf(buf, cap, "%u sample%s, %s", n, n == 1 ? "" : "s", amt);
}

static void open_map(struct tui *t)
{
	struct tui_heat *h = heat(t);
	uint64_t a = 0, b;

	t->heat_on = true;
	h->stale = true;
	h->marked = false;
	t->tl_mark = -1;
	if (t->tl_n) {
		/* The strip's cursor, or the range shown when it starts in
		 * the cursor's slice. */
		uint64_t ra, rb;

		tui_slice_times(t, (unsigned)t->tl_cur, &a, &b);
		if (profile_range(t->src, &ra, &rb) && ra >= a && ra <= b)
			a = ra;
	}
	if (!ensure(t)) {
		t->heat_on = false;
		tui_set_msg(t, false, "no heat map: no timed samples");
		return;
	}
	cell_at(&h->map, a, &h->cc, &h->cr);
	tui_set_msg(t, false, HEAT_HINT);
}

/* Back to the strip, its cursor on the heat map's cursor's time. */
static void close_map(struct tui *t)
{
	struct tui_heat *h = heat(t);
	uint64_t a, b, x, y;

	t->heat_on = false;
	h->marked = false;
	if (h->map.cols && t->tl_n) {
		heatmap_cell_span(&h->map, h->cc, h->cr, &a, &b);
		for (unsigned i = 0; i < t->tl_n; i++) {
			tui_slice_times(t, i, &x, &y);
			if (y >= a) {
				t->tl_cur = (int)i;
				break;
			}
		}
	}
	tui_set_msg(t, false, "timeline strip (m: the heat map again)");
}

static void step(struct tui *t, int dc, int dr)
{
	struct tui_heat *h = heat(t);
	long c = (long)h->cc + dc, r = (long)h->cr + dr;

	if (!ensure(t))
		return;
	c = c < 0 ? 0 : c >= (long)h->map.cols ? (long)h->map.cols - 1 : c;
	r = r < 0 ? 0 : r >= (long)h->map.rows ? (long)h->map.rows - 1 : r;
	h->cc = (unsigned)c;
	h->cr = (unsigned)r;
	if (h->marked) {
		uint64_t a, b;

		char span[64];

		marked_range(h, &a, &b);
		timerange_describe(span, sizeof(span), h->map.t0, a, b + 1);
		tui_set_msg(t, false, "range %s; Enter ends it here, c takes it "
			    "as range A", span);
	} else
		tui_set_msg(t, false, HEAT_HINT);
}

static void mark(struct tui *t)
{
	struct tui_heat *h = heat(t);
	uint64_t a, b;

	if (!ensure(t))
		return;
	if (!h->marked) {
		h->marked = true;
		h->mc = h->cc;
		h->mr = h->cr;
		heatmap_cell_span(&h->map, h->cc, h->cr, &a, &b);
		tui_set_msg(t, false, "range starts at %.3f s; move and press "
			    "Enter on its end cell", rel(h, a));
		return;
	}
	marked_range(h, &a, &b);
	h->marked = false;
	t->heat_on = false;
	tui_range_marked(t, a, b);
}

static void compare(struct tui *t)
{
	struct tui_heat *h = heat(t);
	uint64_t a, b;

	if (!ensure(t))
		return;
	if (h->marked) {
		marked_range(h, &a, &b);
		h->marked = false;
	} else if (!profile_range(t->src, &a, &b)) {
		tui_set_msg(t, false, "compare: mark range A first (Enter on its "
			    "start cell, c on its end cell)");
		return;
	}
	tui_range_take_a(t, a, b);
}

static void leave(struct tui *t)
{
	struct tui_heat *h = heat(t);

	if (h->marked) {
		h->marked = false;
		tui_set_msg(t, false, "mark cancelled; " HEAT_HINT);
	} else if (t->cmp_pending) {
		t->cmp_pending = false;
		tui_set_msg(t, false, "compare cancelled; " HEAT_HINT);
	} else {
		t->heat_on = false;
		tui_timeline_action(t, ACT_TL_LEAVE);   /* timeline mode ends */
	}
}

void tui_heat_action(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_HEATMAP:
		if (tui_heat_shown(t))
			close_map(t);
		else if (t->tl_show && t->tl_focus)
			open_map(t);
		break;
	case ACT_HM_LEFT: step(t, -1, 0); break;
	case ACT_HM_RIGHT: step(t, 1, 0); break;
	case ACT_HM_FAST_LEFT: step(t, -10, 0); break;
	case ACT_HM_FAST_RIGHT: step(t, 10, 0); break;
	case ACT_HM_UP: step(t, 0, -1); break;
	case ACT_HM_DOWN: step(t, 0, 1); break;
	case ACT_HM_MARK: mark(t); break;
	case ACT_HM_COMPARE: compare(t); break;
	case ACT_HM_LEAVE: leave(t); break;
	default: break;
	}
}

bool tui_heat_click(struct tui *t, int row, int col)
{
	struct tui_heat *h = t->heat;

	if (!tui_heat_shown(t))
		return false;
	if (row < 1 || (unsigned)row > area_rows(t))
		return false;
	if (ensure(t) && row >= 3 && (unsigned)row < 3 + h->map.rows &&
	    col >= (int)LABEL_W &&
	    ((unsigned)col - LABEL_W) / cell_w(t, &h->map) < h->map.cols) {
		h->cc = ((unsigned)col - LABEL_W) / cell_w(t, &h->map);
		h->cr = (unsigned)row - 3;
		mark(t);
	}
	return true;
}

/* ---- Drawing --------------------------------------------------------- */

/* Text (escaped here) on row y, cut or padded to the width. */
static void text_line(struct tui *t, int y, const char *s)
{
	char *b = xmalloc(8 * (size_t)t->cols + 1);

	textfmt_fit(s, strlen(s), t->cols, ' ', b);
	mvaddstr(y, 0, b);
	free(b);
}

/* Level lv's color between the theme's heat-low and heat-high. */
static uint32_t level_color(const struct tui *t, unsigned lv)
{
	uint32_t lo = t->theme.slot[TS_HEAT_LOW].bg;
	uint32_t hi = t->theme.slot[TS_HEAT_HIGH].bg, rgb = 0;

	if (lo == THEME_COLOR_DEFAULT || hi == THEME_COLOR_DEFAULT)
		return lv * 2 < LEVELS ? lo : hi;
	for (int sh = 16; sh >= 0; sh -= 8) {
		int a = (int)(lo >> sh & 255), b = (int)(hi >> sh & 255);
		int v = a + (b - a) * (int)(lv - 1) / (int)(LEVELS - 2);

		rgb |= (uint32_t)v << sh;
	}
	return rgb;
}

/* One cell: its level's color or character, the selection and cursor. */
static void draw_cell(struct tui *t, int y, int x, unsigned w, unsigned lv,
		      bool sel, bool cur)
{
	char s[3] = { density[lv], w > 1 ? density[lv] : '\0', '\0' };

	if (t->cmode == CM_NONE) {
		attr_t a = sel ? A_REVERSE : A_NORMAL;

		if (cur)   /* the opposite of its surroundings */
			a = (sel ? A_NORMAL : A_REVERSE) | A_BOLD | A_UNDERLINE;
		attr_set(a, 0, NULL);
		mvaddstr(y, x, s);
		return;
	}
	if (cur) {
		tui_draw_slot(t, TS_RANGE);
		attron(A_BOLD);
		mvaddstr(y, x, s);
		return;
	}
	tui_draw_color(t, sel ? t->theme.slot[TS_RANGE].bg : THEME_COLOR_DEFAULT,
		       lv ? level_color(t, lv) : THEME_COLOR_DEFAULT,
		       sel ? TA_BOLD : 0);
	mvaddstr(y, x, sel ? (w > 1 ? "::" : ":") : (w > 1 ? "  " : " "));
}

/* "0s   5s   10s" over the columns. */
static void draw_axis(struct tui *t, int y)
{
	const struct heatmap *m = &t->heat->map;
	uint64_t secs = m->col_ns / HEATMAP_SECOND;
	char *row = xmalloc((size_t)t->cols + 1);
	unsigned w = cell_w(t, m);

	memset(row, ' ', t->cols);
	row[t->cols] = '\0';
	for (unsigned c = 0, free_at = 0; c < m->cols; c += 5) {
		char lab[32];
		int n = snprintf(lab, sizeof(lab), "%llus",
				 (unsigned long long)(c * secs));

		/* A label that would run into the previous one is left out. */
		if (n > 0 && c * w >= free_at &&
		    LABEL_W + c * w + (unsigned)n <= t->cols) {
			memcpy(row + LABEL_W + c * w, lab, (size_t)n);
			free_at = c * w + (unsigned)n + 1;
		}
	}
	memcpy(row, "offset", t->cols >= 6 ? 6 : t->cols);
	attr_set(A_NORMAL, 0, NULL);
	mvaddstr(y, 0, row);
	free(row);
}

/* A row's label: its offset within the column, every few rows. */
static void row_label(const struct heatmap *m, unsigned r, char *lab,
		      size_t cap)
{
	unsigned step = m->rows >= 20 ? m->rows / 10 : 1;
	uint64_t ms = r * m->row_ns / 1000000;

	if (r % step)
		snprintf(lab, cap, "%*s", (int)LABEL_W, "");
	else if (ms < 1000)
		snprintf(lab, cap, "%4llums ", (unsigned long long)ms);
	else
		snprintf(lab, cap, "%5.1fs ", (double)ms / 1e3);
}

void tui_heat_draw(struct tui *t, unsigned y0, unsigned rows)
{
	struct tui_heat *h = heat(t);
	const struct heatmap *m = &h->map;
	char text[1024], what[160], most[96], cell[32], row[32], span[64];
	uint64_t a, b, ra = 0, rb = 0, lo = 1, hi = 0;
	bool ranged;
	unsigned y = y0, end = y0 + rows, w;

	if (!rows)
		return;
	if (!ensure(t)) {
		tui_draw_slot(t, TS_STATUS);
		text_line(t, (int)y0, "heat map: no timed samples");
		return;
	}
	w = cell_w(t, m);
	/* The cell under the cursor. */
	heatmap_cell_span(m, h->cc, h->cr, &a, &b);
	amount_text(t, heatmap_weight(m, h->cc, h->cr),
		    heatmap_count(m, h->cc, h->cr), what, sizeof(what));
	profile_format_amount(t->p, m->max, most, sizeof(most));
	if (m->row_ns % 1000000 == 0)
		snprintf(row, sizeof(row), "%llu ms",
			 (unsigned long long)(m->row_ns / 1000000));
	else
		snprintf(row, sizeof(row), "%.3f s", (double)m->row_ns / 1e9);
	snprintf(cell, sizeof(cell), "%llu s",
		 (unsigned long long)(m->col_ns / HEATMAP_SECOND));
	timerange_describe(span, sizeof(span), m->t0, a, b);
	snprintf(text, sizeof(text), "heat map | %s: %s | cells %s x %s, most "
		 "%s%s", span, what, cell, row, most,
		 h->marked ? " | marking a range" : "");
	tui_draw_slot(t, TS_STATUS);
	text_line(t, (int)y++, text);
	if (y < end)
		draw_axis(t, (int)y++);

	/* The selection: the cells being marked, else the range shown. */
	ranged = profile_range(t->src, &ra, &rb);
	if (h->marked) {
		uint64_t k0 = order(m, h->mc, h->mr), k1 = order(m, h->cc, h->cr);

		lo = k0 < k1 ? k0 : k1;
		hi = k0 < k1 ? k1 : k0;
	}
	for (unsigned r = 0; r < m->rows && y < end; r++, y++) {
		char lab[32];

		row_label(m, r, lab, sizeof(lab));
		attr_set(A_NORMAL, 0, NULL);
		mvaddnstr((int)y, 0, lab, (int)LABEL_W);
		for (unsigned c = 0; c < m->cols && LABEL_W + c * w < t->cols;
		     c++) {
			uint64_t k = order(m, c, r), s, e;
			bool sel;

			if (h->marked)
				sel = k >= lo && k <= hi;
			else {
				heatmap_cell_span(m, c, r, &s, &e);
				sel = ranged && s <= rb && e > ra;
			}
			draw_cell(t, (int)y, (int)(LABEL_W + c * w), w,
				  heatmap_level(m, heatmap_weight(m, c, r), LEVELS),
				  sel, c == h->cc && r == h->cr);
		}
	}
	/* The scale. */
	if (y < end) {
		attr_set(A_NORMAL, 0, NULL);
		mvaddstr((int)y, 0, "scale  ");
		for (unsigned lv = 0; lv < LEVELS && LABEL_W + lv < t->cols; lv++)
			draw_cell(t, (int)y, (int)(LABEL_W + lv), 1, lv, false,
				  false);
		attr_set(A_NORMAL, 0, NULL);
		snprintf(text, sizeof(text), " empty to %s a cell", most);
		if (LABEL_W + LEVELS < t->cols) {
			char *fit = xmalloc(8 * (size_t)t->cols + 1);

			textfmt_fit(text, strlen(text),
				    t->cols - LABEL_W - LEVELS, ' ', fit);
			mvaddstr((int)y, (int)(LABEL_W + LEVELS), fit);
			free(fit);
		}
	}
	attr_set(A_NORMAL, 0, NULL);
}
