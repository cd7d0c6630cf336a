/*
 * tui-view-sandwich.c - the sandwich view of one function: its callees
 * below, as the interactive graph (the view's profile, icicle), and its
 * callers above, inverted: the callers view drawn root-down, so each
 * caller sits right above what it calls and the function meets itself in
 * the middle.  This file keeps the callers pane's profile and layout and
 * draws it (with tui-draw.c); the pane takes up to half of the frame rows.
 */
#include "tui-priv.h"
#include "util.h"

void tui_sandwich_free(struct tui *t)
{
	profile_destroy(t->sand);
	t->sand = NULL;
	layout_free(&t->sand_lay);
}

/* The callers of the function callees is focused on, as a profile. */
void tui_sandwich_build(struct tui *t, const struct view_spec *callees)
{
	struct view_spec s = *callees;
	char err[256];

	tui_sandwich_free(t);
	s.callers = callees->callees;
	s.callees = NULL;
	s.invert = false;
	s.order = ORDER_NAME;
	if (view_derive(t->src, &s, &t->sand, err, sizeof(err)) != VIEW_OK)
		t->sand = NULL;
	layout_init(&t->sand_lay);
	tui_sandwich_relayout(t);
}

void tui_sandwich_relayout(struct tui *t)
{
	if (t->sand)
		layout_build(&t->sand_lay, t->sand, NODE_ROOT, t->cols, 0, 1);
}

/*
 * Rows of the callers pane: its callers (depth 2 and deeper; the function
 * itself is the lower graph's), at most half of what the frames get.
 */
unsigned tui_sandwich_rows(const struct tui *t)
{
	unsigned rows, avail, used;

	if (!t->sand || t->sand_lay.rows <= 2)
		return 0;
	rows = t->sand_lay.rows - 2;
	used = 1 + (t->tl_show ? 1 : 0) + 1;
	avail = t->rows > used ? (t->rows - used) / 2 : 0;
	return rows < avail ? rows : avail;
}

/* The callers pane on rows y0 and below: callers above what they call. */
void tui_sandwich_draw(struct tui *t, unsigned y0)
{
	unsigned S = tui_sandwich_rows(t);
	char *buf = tui_draw_rowbuf(t, t->cols);

	for (unsigned pr = 0; pr < S; pr++) {
		unsigned d = 2 + (S - 1 - pr);

		for (size_t i = t->sand_lay.row_start[d];
		     i < t->sand_lay.row_start[d + 1]; i++)
			tui_draw_frame(t, t->sand, &t->sand_lay.rects[i],
				       (int)(y0 + pr), buf);
	}
}
