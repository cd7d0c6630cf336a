/*
 * tui-view-flame.c - the flame graph view: the layout of the zoom root's
 * subtree drawn row by row (icicle or flame), the selection and how the
 * keys move it, scrolling with the ancestors of a deep zoom folded, the
 * zoom, and the search's matches.  It draws with tui-draw.c and places
 * things with tui-screen.c; the loop (tui.c) dispatches to it.
 *
 * The selection is a node id, and node ids are stable for the profile's
 * life, so the selection, the zoom and its history survive a relayout
 * (resize, time range, a live refresh).  When the selected node is no
 * longer drawn (it became narrower than a column, or its weight dropped to
 * zero) the nearest drawn ancestor takes over.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

#define set_msg tui_set_msg
#define ensure_layout tui_ensure_layout

/*
 * Zoomed into a deep frame, its ancestors fold into one row (its parent's;
 * the header names the whole path), so its subtree gets the screen: the
 * smallest scroll.  Selecting a frame above unfolds as far as needed.
 */
static unsigned fold_floor(const struct tui *t)
{
	unsigned z = profile_depth(t->p, t->zoom), d;

	if (t->unfold || z < 2)
		return 0;
	d = profile_depth(t->p, t->sel);
	return d < z - 1 ? d : z - 1;
}

/*
 * A graph that the moves, the scrolling, clicks and drawing act on: the
 * flame graph (t->p), or the sandwich's callers pane (t->sand), drawn
 * deeper frames up from its depth 2 (tui-view-sandwich.c).  `scroll` is
 * the smallest depth on screen; the pane shows `rows` depths from it, on
 * screen rows [top, top + rows).
 */
struct pane {
	struct tui *t;
	bool callers;                 /* the sandwich's callers pane */
	const struct profile *p;
	const struct layout *lay;
	uint32_t *sel, *eye;
	unsigned *scroll;
	unsigned top, rows;
	bool up;                      /* deeper frames higher (flame) */
};

static bool sandwich(const struct tui *t)
{
	return t->v.sandwich && !t->v.top;
}

static struct pane pane_of(struct tui *t, bool callers)
{
	struct pane g = { .t = t, .callers = callers };

	if (callers) {
		g.p = t->sand;
		g.lay = &t->sand_lay;
		g.sel = &t->sand_sel;
		g.eye = &t->sand_eye;
		g.scroll = &t->sand_scroll;
		g.top = 1 + (t->tl_show ? 1 : 0);
		g.rows = tui_sandwich_rows(t);
		g.up = true;
	} else {
		g.p = t->p;
		g.lay = &t->lay;
		g.sel = &t->sel;
		g.eye = &t->eye;
		g.scroll = &t->scroll;
		g.top = tui_top_rows(t);
		g.rows = tui_frame_rows(t);
		/* The sandwich keeps its callees under its callers. */
		g.up = t->flame && !sandwich(t);
	}
	return g;
}

/* The pane the selection is in. */
static struct pane focused(struct tui *t)
{
	return pane_of(t, t->sand_focus && tui_sandwich_depths(t));
}

/* The smallest depth a pane shows: the sandwich's panes leave out the
 * root (and the callers the function, which the graph shows). */
static unsigned pane_floor(const struct pane *g)
{
	unsigned f;

	if (g->callers)
		return 2;
	f = fold_floor(g->t);
	return sandwich(g->t) && f < 1 ? 1 : f;
}

static void clamp_scroll(const struct pane *g)
{
	unsigned max = g->lay->rows > g->rows ? g->lay->rows - g->rows : 0;

	if (*g->scroll > max)
		*g->scroll = max;
	if (*g->scroll < pane_floor(g))
		*g->scroll = pane_floor(g);
}

static void pane_ensure_visible(const struct pane *g)
{
	unsigned d;

	if (!g->rows)
		return;
	d = profile_depth(g->p, *g->sel);
	if (d < *g->scroll)
		*g->scroll = d;
	else if (d >= *g->scroll + g->rows)
		*g->scroll = d - g->rows + 1;
	clamp_scroll(g);
}

void tui_ensure_visible(struct tui *t)
{
	struct pane g = pane_of(t, false);

	pane_ensure_visible(&g);
}

/* The function a sandwich is of: the root's one child in both panes. */
static uint32_t sandwich_function(const struct profile *p)
{
	uint32_t c = profile_node(p, NODE_ROOT)->child;

	return c == NODE_NONE ? NODE_ROOT : c;
}

/* After any change of the profile, zoom or size: a valid zoom and selection. */
void tui_fix_view(struct tui *t)
{
	while (t->zoom != NODE_ROOT && profile_total(t->p, t->zoom) == 0)
		t->zoom = profile_node(t->p, t->zoom)->parent;
	ensure_layout(t);
	while (t->sel != NODE_ROOT && tui_rect_of(t, t->sel) < 0)
		t->sel = profile_node(t->p, t->sel)->parent;
	if (sandwich(t) && t->sel == NODE_ROOT)
		t->sel = sandwich_function(t->p);   /* the root is not drawn */
	tui_ensure_visible(t);
	if (tui_sandwich_depths(t)) {
		struct pane c = pane_of(t, true);

		clamp_scroll(&c);
	}
	if (t->sand_focus) {
		/* A caller no longer drawn: the nearest caller drawn, else the
		 * selection goes back to the graph. */
		struct pane c = pane_of(t, true);

		while (t->sand_sel != NODE_ROOT &&
		       layout_find_node(&t->sand_lay, t->sand_sel) < 0)
			t->sand_sel = profile_node(t->sand, t->sand_sel)->parent;
		if (!tui_sandwich_depths(t) ||
		    profile_depth(t->sand, t->sand_sel) < 2)
			t->sand_focus = false;
		else
			pane_ensure_visible(&c);
	}
}

static void select_in(const struct pane *g, uint32_t node, bool keep_eye)
{
	g->t->sand_focus = g->callers;
	*g->sel = node;
	if (!keep_eye)
		*g->eye = NO_EYE;
	pane_ensure_visible(g);
}

void tui_select_node(struct tui *t, uint32_t node, bool keep_eye)
{
	struct pane g = pane_of(t, false);

	select_in(&g, node, keep_eye);
}

static uint32_t rect_center(const struct layout_rect *r)
{
	return r->col + r->width / 2;
}

static uint32_t col_distance(const struct layout_rect *r, uint32_t col)
{
	if (col < r->col)
		return r->col - col;
	if (col >= r->col + r->width)
		return col - (r->col + r->width - 1);
	return 0;
}

/* The rect on row depth nearest to col (-1 if the row is empty). */
static ssize_t nearest_on_row(const struct pane *g, unsigned depth,
			      uint32_t col, uint32_t parent)
{
	const struct layout *l = g->lay;
	ssize_t best = -1;
	uint32_t bestd = UINT32_MAX;

	if (depth >= l->rows)
		return -1;
	for (size_t i = l->row_start[depth]; i < l->row_start[depth + 1]; i++) {
		const struct layout_rect *r = &l->rects[i];
		uint32_t dd;

		if (parent != NODE_NONE &&
		    profile_node(g->p, r->node)->parent != parent)
			continue;
		dd = col_distance(r, col);
		if (dd < bestd) {
			bestd = dd;
			best = (ssize_t)i;
		}
	}
	return best;
}

/* ---- Moving ---------------------------------------------------------- */

static uint32_t sel_center(const struct pane *g)
{
	ssize_t i = layout_find_node(g->lay, *g->sel);

	return i < 0 ? 0 : rect_center(&g->lay->rects[i]);
}

/* Select the frame nearest to col on depth of pane g; false if none. */
static bool select_near(const struct pane *g, unsigned depth, uint32_t col,
			bool keep_eye)
{
	ssize_t i = nearest_on_row(g, depth, col, NODE_NONE);

	if (i < 0)
		return false;
	select_in(g, g->lay->rects[i].node, keep_eye);
	return true;
}

/*
 * Toward the root.  In the sandwich the function's parent is the root,
 * not drawn: from the function the selection goes to its nearest caller
 * above, and from a nearest caller down to the function.
 */
static void move_parent(const struct pane *g)
{
	struct tui *t = g->t;
	uint32_t up = profile_node(g->p, *g->sel)->parent;

	if (up == NODE_NONE)
		return;
	if (*g->eye == NO_EYE)
		*g->eye = sel_center(g);
	if (g->callers && profile_depth(g->p, *g->sel) <= 2) {
		struct pane m = pane_of(t, false);

		t->eye = *g->eye;
		select_in(&m, sandwich_function(t->p), true);
		return;
	}
	if (!g->callers && sandwich(t) && up == NODE_ROOT) {
		struct pane c = pane_of(t, true);

		if (tui_sandwich_depths(t)) {
			t->sand_eye = *g->eye;
			select_near(&c, 2, t->sand_eye, true);
		}
		return;
	}
	select_in(g, up, true);
}

static void move_child(const struct pane *g)
{
	ssize_t i;

	if (*g->eye == NO_EYE)
		*g->eye = sel_center(g);
	i = nearest_on_row(g, profile_depth(g->p, *g->sel) + 1, *g->eye,
			   *g->sel);
	if (i >= 0)
		select_in(g, g->lay->rects[i].node, true);
}

static void move_side(const struct pane *g, int dir)
{
	ssize_t i = layout_find_node(g->lay, *g->sel);
	unsigned d;

	if (i < 0)
		return;
	d = g->lay->rects[i].depth;
	if (dir < 0 && (size_t)i > g->lay->row_start[d])
		select_in(g, g->lay->rects[i - 1].node, false);
	else if (dir > 0 && (size_t)i + 1 < g->lay->row_start[d + 1])
		select_in(g, g->lay->rects[i + 1].node, false);
}

static void select_row(const struct pane *g, unsigned depth)
{
	select_near(g, depth, sel_center(g), false);
}

/* Scroll pane g by n rows toward the deeper frames (n < 0: toward the
 * root); a selection of the pane that leaves the screen follows. */
static void scroll_depth(const struct pane *g, int n)
{
	long s = (long)*g->scroll + n;
	unsigned d;

	if (!g->rows)
		return;
	*g->scroll = s < 0 ? 0 : (unsigned)s;
	clamp_scroll(g);
	if (g->callers != g->t->sand_focus)
		return;
	d = profile_depth(g->p, *g->sel);
	if (d < *g->scroll)
		select_row(g, *g->scroll);
	else if (d >= *g->scroll + g->rows)
		select_row(g, *g->scroll + g->rows - 1);
}

/* The pane drawn on screen row y, or NULL. */
static bool pane_at(struct tui *t, unsigned y, struct pane *g)
{
	for (int k = 0; k < 2; k++) {
		*g = pane_of(t, k == 1);
		if ((k == 0 || tui_sandwich_depths(t)) && y >= g->top &&
		    y < g->top + g->rows)
			return true;
	}
	return false;
}

void tui_flame_wheel(struct tui *t, unsigned y, bool up)
{
	struct pane g;

	if (pane_at(t, y, &g))
		scroll_depth(&g, g.up == up ? 3 : -3);
}

/*
 * PgUp and PgDn scroll the focused pane by its height; in the sandwich,
 * at the end of one pane they go on in the other (the callers above the
 * graph, the graph below them).
 */
static void page(struct tui *t, bool up)
{
	struct pane g = focused(t);

	if (sandwich(t) && tui_sandwich_depths(t) && !g.callers && up &&
	    *g.scroll <= pane_floor(&g)) {
		uint32_t col = t->eye != NO_EYE ? t->eye : sel_center(&g);

		g = pane_of(t, true);
		select_near(&g, 2, col, false);
		return;
	}
	if (g.callers && !up && *g.scroll <= pane_floor(&g)) {
		g = pane_of(t, false);
		select_in(&g, sandwich_function(t->p), false);
		return;
	}
	scroll_depth(&g, (g.up == up ? 1 : -1) * (int)g.rows);
}

/* ---- Zoom ------------------------------------------------------------ */

static void set_zoom(struct tui *t, uint32_t z, bool remember)
{
	if (z == t->zoom)
		return;
	if (remember) {
		GROW(t->zhist, t->capzhist, t->nzhist + 1);
		t->zhist[t->nzhist++] = t->zoom;
	}
	t->zoom = z;
	t->dirty = true;
	tui_fix_view(t);
}

/* ---- Search ---------------------------------------------------------- */

/* Is rect i of the pane (the callers': only its callers) a match? */
static bool pane_match(const struct pane *g, size_t i)
{
	const struct layout_rect *r = &g->lay->rects[i];

	if (g->callers)
		return r->depth >= 2 &&
		       search_node_matches(g->t->sand_search, g->p, r->node);
	return search_node_matches(g->t->search, g->p, r->node);
}

static size_t count_visible_matches(struct tui *t)
{
	struct pane c = pane_of(t, true), m = pane_of(t, false);
	size_t n = 0;

	ensure_layout(t);
	for (size_t i = 0; i < t->lay.n; i++)
		n += pane_match(&m, i);
	if (sandwich(t) && tui_sandwich_depths(t))
		for (size_t i = 0; i < t->sand_lay.n; i++)
			n += pane_match(&c, i);
	return n;
}

/*
 * n/N in the sandwich: the matches of both panes in screen order (the
 * callers' rows from the top of the screen, outermost first, then the
 * callees'), from the selection on, wrapping around; "match k of N"
 * among them.
 */
struct spot {
	bool callers;
	uint32_t node;
	bool match;
};

static size_t screen_order(struct tui *t, struct spot **out)
{
	struct pane c = pane_of(t, true), m = pane_of(t, false);
	size_t n = 0, cap = t->lay.n + t->sand_lay.n;
	struct spot *v = xmalloc((cap ? cap : 1) * sizeof(*v));

	if (tui_sandwich_depths(t))
		for (unsigned d = t->sand_lay.rows; d-- > 2;)
			for (size_t i = t->sand_lay.row_start[d];
			     i < t->sand_lay.row_start[d + 1]; i++)
				v[n++] = (struct spot){ true,
					t->sand_lay.rects[i].node,
					pane_match(&c, i) };
	for (size_t i = 0; i < t->lay.n; i++)
		v[n++] = (struct spot){ false, t->lay.rects[i].node,
					pane_match(&m, i) };
	*out = v;
	return n;
}

static void sandwich_next_match(struct tui *t, int dir)
{
	struct spot *v;
	size_t n, cur = 0, nm = 0, k = 0;
	bool focus = t->sand_focus && tui_sandwich_depths(t);
	uint32_t sel = focus ? t->sand_sel : t->sel;

	ensure_layout(t);
	n = screen_order(t, &v);
	for (size_t i = 0; i < n; i++) {
		if (v[i].callers == focus && v[i].node == sel)
			cur = i;
		nm += v[i].match;
	}
	if (!nm) {
		free(v);
		set_msg(t, false, "no matching frame is wide enough to draw");
		return;
	}
	for (size_t s = 1; s <= n; s++) {
		size_t i = dir > 0 ? (cur + s) % n : (cur + n - s) % n;

		if (!v[i].match)
			continue;
		struct pane g = pane_of(t, v[i].callers);

		select_in(&g, v[i].node, false);
		for (size_t j = 0; j <= i; j++)
			k += v[j].match;
		set_msg(t, false, (dir > 0) == (i <= cur) && n > 1 ?
			"match %zu of %zu (search wrapped around)" :
			"match %zu of %zu", k, nm);
		break;
	}
	free(v);
}

/* Does any frame shown match: the graph's, or the sandwich's callers'
 * (whose share t->matched holds only once drawn again)? */
static bool any_match(struct tui *t)
{
	return t->matched || (t->sand && search_active(t->sand_search) &&
			      search_matched_weight(t->sand_search, t->sand,
						    NODE_ROOT));
}

void tui_search(struct tui *t, const char *pattern)
{
	char err[300];

	if (!*pattern) {
		search_clear(t->search);
		free(t->pattern);
		t->pattern = NULL;
		t->matched = 0;
		set_msg(t, false, "search cleared");
		return;
	}
	if (search_set(t->search, pattern, t->icase, err, sizeof(err)) < 0) {
		char shown[200];

		textfmt_escape(pattern, strlen(pattern), shown, sizeof(shown));
		set_msg(t, true, "bad regex /%s/: %s", shown, err);
		return;
	}
	free(t->pattern);
	t->pattern = xstrdup(pattern);
	t->literal = false;
	tui_search_refresh(t);
	if (!any_match(t))
		set_msg(t, false, "no frame matches");
	else if (!count_visible_matches(t))
		set_msg(t, false, "matches are too narrow to draw; zoom in");
}

static void search_name(struct tui *t)
{
	struct pane g = focused(t);
	const char *name = profile_name(g.p, *g.sel);
	size_t len = profile_name_len(g.p, *g.sel);

	search_set_literal(t->search, name, len);
	free(t->pattern);
	t->pattern = xstrndup(name, len);
	t->literal = true;
	tui_search_refresh(t);
}

static void toggle_icase(struct tui *t)
{
	t->icase = !t->icase;
	if (t->pattern && !t->literal) {
		char *pat = xstrdup(t->pattern);

		tui_search(t, pat);
		free(pat);
	}
	if (!t->msg[0])
		set_msg(t, false, "case-insensitive search %s",
			t->icase ? "on" : "off");
}

/* Is rect a before (depth, col) in layout order? */
static bool before(const struct layout_rect *a, unsigned d, uint32_t col)
{
	return a->depth < d || (a->depth == d && a->col < col);
}

static void next_match(struct tui *t, int dir)
{
	ssize_t cur, found = -1;
	unsigned d;
	uint32_t col;

	if (!search_active(t->search)) {
		set_msg(t, false, "no search: press / to search");
		return;
	}
	if (!any_match(t)) {
		/* The view changed since the search: none of its frames match. */
		set_msg(t, false, "no frame matches");
		return;
	}
	if (sandwich(t) && t->sand) {
		sandwich_next_match(t, dir);
		return;
	}
	ensure_layout(t);
	cur = tui_rect_of(t, t->sel);
	d = cur >= 0 ? t->lay.rects[cur].depth : 0;
	col = cur >= 0 ? t->lay.rects[cur].col : 0;
	for (size_t k = 0; k < t->lay.n; k++) {
		size_t i = dir > 0 ? k : t->lay.n - 1 - k;
		const struct layout_rect *r = &t->lay.rects[i];

		if (!search_node_matches(t->search, t->p, r->node))
			continue;
		if (dir > 0 ? (!before(r, d, col) && (r->depth != d ||
						      r->col != col))
			    : before(r, d, col)) {
			found = (ssize_t)i;
			break;
		}
	}
	if (found < 0 && t->zoom != NODE_ROOT) {
		/* Nothing further in the zoomed view: zoom out and go on. */
		set_zoom(t, NODE_ROOT, true);
		set_msg(t, false, "zoomed out to find more matches");
		cur = tui_rect_of(t, t->sel);
		d = cur >= 0 ? t->lay.rects[cur].depth : 0;
		col = cur >= 0 ? t->lay.rects[cur].col : 0;
		for (size_t k = 0; k < t->lay.n && found < 0; k++) {
			size_t i = dir > 0 ? k : t->lay.n - 1 - k;
			const struct layout_rect *r = &t->lay.rects[i];

			if (search_node_matches(t->search, t->p, r->node) &&
			    (dir > 0 ? !before(r, d, col) &&
				       (r->depth != d || r->col != col)
				     : before(r, d, col)))
				found = (ssize_t)i;
		}
	}
	if (found < 0) {
		/* Wrap around. */
		for (size_t k = 0; k < t->lay.n && found < 0; k++) {
			size_t i = dir > 0 ? k : t->lay.n - 1 - k;

			if (search_node_matches(t->search, t->p,
						t->lay.rects[i].node))
				found = (ssize_t)i;
		}
		if (found >= 0 && t->lay.rects[found].node != t->sel)
			set_msg(t, false, "search wrapped around");
	}
	if (found < 0) {
		set_msg(t, false, "no matching frame is wide enough to draw");
		return;
	}
	tui_select_node(t, t->lay.rects[found].node, false);
	{
		/* "match k of N" among the matching frames drawn. */
		size_t k = 0, n = 0;

		for (size_t i = 0; i < t->lay.n; i++)
			if (search_node_matches(t->search, t->p,
						t->lay.rects[i].node)) {
				n++;
				if (i == (size_t)found)
					k = n;
			}
		if (t->msg[0]) {
			char why[sizeof(t->msg)];

			memcpy(why, t->msg, sizeof(why));
			set_msg(t, false, "match %zu of %zu (%s)", k, n, why);
		} else
			set_msg(t, false, "match %zu of %zu", k, n);
	}
}

/* ---- Actions --------------------------------------------------------- */

bool tui_flame_action(struct tui *t, enum tui_action a)
{
	struct pane g = focused(t), m = pane_of(t, false);
	struct pane c = pane_of(t, true);
	bool sw = sandwich(t), callers = sw && tui_sandwich_depths(t);

	switch (a) {
	case ACT_UNFOLD:
		t->unfold = !t->unfold;
		if (t->unfold && t->scroll > 0 &&
		    profile_depth(t->p, t->zoom) >= 2)
			t->scroll = 0;
		tui_ensure_visible(t);
		set_msg(t, false, t->unfold ? "ancestors of the zoomed frame "
			"unfolded" : "ancestors of the zoomed frame folded");
		break;
	case ACT_UP:
		g.up ? move_child(&g) : move_parent(&g);
		break;
	case ACT_DOWN:
		g.up ? move_parent(&g) : move_child(&g);
		break;
	case ACT_LEFT:
		move_side(&g, -1);
		break;
	case ACT_RIGHT:
		move_side(&g, +1);
		break;
	case ACT_TOP:
		if (callers)   /* the outermost callers */
			select_near(&c, t->sand_lay.rows - 1, sel_center(&g),
				    false);
		else
			select_row(&m, m.up ? t->lay.rows - 1 : sw ? 1 : 0);
		break;
	case ACT_BOTTOM:
		if (sw)
			select_near(&m, t->lay.rows - 1, sel_center(&g), false);
		else
			select_row(&m, m.up ? 0 : t->lay.rows - 1);
		break;
	case ACT_PGUP:
		page(t, true);
		break;
	case ACT_PGDN:
		page(t, false);
		break;
	case ACT_ZOOM:
		if (t->sel == t->zoom)
			set_msg(t, false, "already zoomed to this frame");
		else
			set_zoom(t, t->sel, true);
		break;
	case ACT_RESET:
		t->nzhist = 0;
		if (t->zoom != NODE_ROOT) {
			t->zoom = NODE_ROOT;
			t->dirty = true;
			tui_fix_view(t);
		}
		break;
	case ACT_NEXT:
		next_match(t, +1);
		break;
	case ACT_PREV:
		next_match(t, -1);
		break;
	case ACT_SEARCH_NAME:
		search_name(t);
		break;
	case ACT_ICASE:
		toggle_icase(t);
		break;
	case ACT_FLIP:
		t->flame = !t->flame;
		if (sw)
			set_msg(t, false, "the sandwich keeps its callers above "
				"and its callees below; the other views are now "
				"drawn %s", t->flame ? "as flames" : "as icicles");
		break;
	default:
		return false;
	}
	return true;
}

bool tui_flame_click(struct tui *t, unsigned y, unsigned col)
{
	struct pane g;
	unsigned r, d;
	ssize_t i;

	if (!pane_at(t, y, &g))
		return false;
	r = y - g.top;
	d = *g.scroll + (g.up ? g.rows - 1 - r : r);
	i = layout_at(g.lay, d, col);
	if (i < 0)
		return false;
	select_in(&g, g.lay->rects[i].node, false);
	return true;
}

/* ---- Drawing --------------------------------------------------------- */

/* A pane's frame rows, and markers where more rows are hidden. */
static void pane_draw(const struct pane *g)
{
	struct tui *t = g->t;
	char *buf = tui_draw_rowbuf(t, t->cols);
	unsigned R = g->rows, top = g->top, s = *g->scroll;
	const char *upm = textfmt_utf8() ? "\u25b2" : "^";
	const char *downm = textfmt_utf8() ? "\u25bc" : "v";

	for (unsigned fr = 0; fr < R; fr++) {
		unsigned d = g->up ? s + (R - 1 - fr) : s + fr;

		if (d >= g->lay->rows)
			continue;
		for (size_t i = g->lay->row_start[d];
		     i < g->lay->row_start[d + 1]; i++)
			tui_draw_frame(t, g->p, &g->lay->rects[i],
				       (int)(top + fr), buf);
	}
	attr_set(A_NORMAL, 0, NULL);
	/* More rows deeper or nearer the root: a marker in the last column
	 * of the side they are on. */
	if (R && g->lay->rows > s + R) {
		tui_draw_slot(t, TS_HEADER);
		mvaddstr((int)(g->up ? top : top + R - 1), (int)t->cols - 1,
			 g->up ? upm : downm);
	}
	if (R && s > (g->callers ? 2u : sandwich(t) ? 1u : 0u)) {
		tui_draw_slot(t, TS_HEADER);
		mvaddstr((int)(g->up ? top + R - 1 : top), (int)t->cols - 1,
			 g->up ? downm : upm);
	}
}

void tui_flame_draw(struct tui *t, unsigned top, unsigned R)
{
	struct pane g = pane_of(t, false);

	if (tui_sandwich_depths(t)) {
		struct pane c = pane_of(t, true);

		pane_draw(&c);
	}
	g.top = top;
	g.rows = R;
	pane_draw(&g);
}
