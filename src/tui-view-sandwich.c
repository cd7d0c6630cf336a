/*
 * tui-view-sandwich.c - the sandwich view of one function: its callees
 * below, as the interactive graph (the view's profile, icicle, from the
 * function down: the root's row is not drawn), and its callers above,
 * inverted: the callers view drawn root-down, so each caller sits right
 * above what it calls and the function meets itself in the middle.  This
 * file keeps the callers pane's profile and layout and shares the rows
 * between the two panes; the panes are moved, scrolled, clicked and drawn
 * by the flame graph's code (tui-view-flame.c), each with its selection.
 *
 * In the callers profile, depth 0 is the root and depth 1 the function
 * (both drawn by the graph below); depth 2 and deeper are its callers,
 * and a caller's total is the weight of the function's samples that pass
 * through that chain of callers.
 */
#include "tui-priv.h"
#include "util.h"

void tui_sandwich_free(struct tui *t)
{
	profile_destroy(t->sand);
	t->sand = NULL;
	layout_free(&t->sand_lay);
	t->sand_focus = false;
}

/* The callers of the function callees is focused on, as a profile
 * (t->cmpsrc already made for the view). */
void tui_sandwich_build(struct tui *t, const struct view_spec *callees)
{
	struct view_spec s = *callees;
	char err[256];
	bool focus = t->sand_focus;

	tui_sandwich_free(t);
	s.callers = callees->callees;
	s.callees = NULL;
	s.invert = false;
	s.order = ORDER_NAME;
	/* From what the callees came from: a comparison of two ranges or
	 * with the baseline is derived from that comparison, not the
	 * source alone. */
	if (view_derive(t->cmpsrc ? t->cmpsrc : t->src, &s, &t->sand, err,
			sizeof(err)) != VIEW_OK)
		t->sand = NULL;
	layout_init(&t->sand_lay);
	tui_sandwich_relayout(t);
	/* The same view derived again (a live tick) keeps its node ids. */
	t->sand_focus = focus && t->sand &&
			t->sand_sel < profile_node_count(t->sand);
}

void tui_sandwich_relayout(struct tui *t)
{
	if (t->sand)
		layout_build(&t->sand_lay, t->sand, NODE_ROOT, t->cols, 0, 1);
}

unsigned tui_sandwich_depths(const struct tui *t)
{
	return t->sand && !t->v.top && t->sand_lay.rows > 2 ?
	       t->sand_lay.rows : 0;
}

/*
 * The callers pane's rows.  Each pane gets what it needs when both fit;
 * else the callers take up to half of the frame rows, more when the
 * callees need less than their half.
 */
unsigned tui_sandwich_rows(const struct tui *t)
{
	unsigned need, below, used, avail, half;

	if (!tui_sandwich_depths(t))
		return 0;
	need = t->sand_lay.rows - 2;
	/* The callees from the function down (the root's row is hidden). */
	below = t->lay.rows > 1 ? t->lay.rows - 1 : 1;
	used = 1 + (t->tl_show ? 1 : 0) + 1;
	avail = t->rows > used ? t->rows - used : 0;
	if (avail < 2)
		return 0;
	half = avail / 2;
	if (need + below <= avail || need <= half)
		return need < avail ? need : avail - 1;
	if (below < avail - half)
		return avail - below;
	return half;
}
