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

static void clamp_scroll(struct tui *t)
{
	unsigned R = tui_frame_rows(t);
	unsigned max = t->lay.rows > R ? t->lay.rows - R : 0;

	if (t->scroll > max)
		t->scroll = max;
	if (t->scroll < fold_floor(t))
		t->scroll = fold_floor(t);
}

void tui_ensure_visible(struct tui *t)
{
	unsigned R = tui_frame_rows(t), d;

	if (!R)
		return;
	d = profile_depth(t->p, t->sel);
	if (d < t->scroll)
		t->scroll = d;
	else if (d >= t->scroll + R)
		t->scroll = d - R + 1;
	clamp_scroll(t);
}

/* After any change of the profile, zoom or size: a valid zoom and selection. */
void tui_fix_view(struct tui *t)
{
	while (t->zoom != NODE_ROOT && profile_total(t->p, t->zoom) == 0)
		t->zoom = profile_node(t->p, t->zoom)->parent;
	ensure_layout(t);
	while (t->sel != NODE_ROOT && tui_rect_of(t, t->sel) < 0)
		t->sel = profile_node(t->p, t->sel)->parent;
	tui_ensure_visible(t);
}

void tui_select_node(struct tui *t, uint32_t node, bool keep_eye)
{
	t->sel = node;
	if (!keep_eye)
		t->eye = NO_EYE;
	tui_ensure_visible(t);
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
static ssize_t nearest_on_row(const struct tui *t, unsigned depth,
			      uint32_t col, uint32_t parent)
{
	ssize_t best = -1;
	uint32_t bestd = UINT32_MAX;

	if (depth >= t->lay.rows)
		return -1;
	for (size_t i = t->lay.row_start[depth]; i < t->lay.row_start[depth + 1];
	     i++) {
		const struct layout_rect *r = &t->lay.rects[i];
		uint32_t dd;

		if (parent != NODE_NONE &&
		    profile_node(t->p, r->node)->parent != parent)
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

static uint32_t sel_center(struct tui *t)
{
	ssize_t i = tui_rect_of(t, t->sel);

	return i < 0 ? 0 : rect_center(&t->lay.rects[i]);
}

static void move_parent(struct tui *t)
{
	uint32_t up = profile_node(t->p, t->sel)->parent;

	if (up == NODE_NONE)
		return;
	if (t->eye == NO_EYE)
		t->eye = sel_center(t);
	tui_select_node(t, up, true);
}

static void move_child(struct tui *t)
{
	ssize_t i;

	if (t->eye == NO_EYE)
		t->eye = sel_center(t);
	i = nearest_on_row(t, profile_depth(t->p, t->sel) + 1, t->eye, t->sel);
	if (i >= 0)
		tui_select_node(t, t->lay.rects[i].node, true);
}

static void move_side(struct tui *t, int dir)
{
	ssize_t i = tui_rect_of(t, t->sel);
	unsigned d;

	if (i < 0)
		return;
	d = t->lay.rects[i].depth;
	if (dir < 0 && (size_t)i > t->lay.row_start[d])
		tui_select_node(t, t->lay.rects[i - 1].node, false);
	else if (dir > 0 && (size_t)i + 1 < t->lay.row_start[d + 1])
		tui_select_node(t, t->lay.rects[i + 1].node, false);
}

static void select_row(struct tui *t, unsigned depth)
{
	ssize_t i = nearest_on_row(t, depth, sel_center(t), NODE_NONE);

	if (i >= 0)
		tui_select_node(t, t->lay.rects[i].node, false);
}

/* Scroll by n rows toward the deeper frames (n < 0: toward the root). */
void tui_scroll_depth(struct tui *t, int n)
{
	unsigned R = tui_frame_rows(t), d;
	long s = (long)t->scroll + n;

	if (!R)
		return;
	if (s < 0)
		s = 0;
	t->scroll = (unsigned)s;
	clamp_scroll(t);
	d = profile_depth(t->p, t->sel);
	if (d < t->scroll)
		select_row(t, t->scroll);
	else if (d >= t->scroll + R)
		select_row(t, t->scroll + R - 1);
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

static size_t count_visible_matches(struct tui *t)
{
	size_t n = 0;

	ensure_layout(t);
	for (size_t i = 0; i < t->lay.n; i++)
		if (search_node_matches(t->search, t->p, t->lay.rects[i].node))
			n++;
	return n;
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
	if (!t->matched)
		set_msg(t, false, "no frame matches");
	else if (!count_visible_matches(t))
		set_msg(t, false, "matches are too narrow to draw; zoom in");
}

static void search_name(struct tui *t)
{
	const char *name = profile_name(t->p, t->sel);
	size_t len = profile_name_len(t->p, t->sel);

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
		t->flame ? move_child(t) : move_parent(t);
		break;
	case ACT_DOWN:
		t->flame ? move_parent(t) : move_child(t);
		break;
	case ACT_LEFT:
		move_side(t, -1);
		break;
	case ACT_RIGHT:
		move_side(t, +1);
		break;
	case ACT_TOP:
		t->flame ? select_row(t, t->lay.rows - 1) : select_row(t, 0);
		break;
	case ACT_BOTTOM:
		t->flame ? select_row(t, 0) : select_row(t, t->lay.rows - 1);
		break;
	case ACT_PGUP:
		tui_scroll_depth(t, (t->flame ? 1 : -1) * (int)tui_frame_rows(t));
		break;
	case ACT_PGDN:
		tui_scroll_depth(t, (t->flame ? -1 : 1) * (int)tui_frame_rows(t));
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
		break;
	default:
		return false;
	}
	return true;
}

/* A click on frame row `row` (0: the first), column col: true when it
 * selected a frame. */
bool tui_flame_click(struct tui *t, unsigned row, unsigned col)
{
	unsigned R = tui_frame_rows(t), d;
	ssize_t i;

	d = t->flame ? t->scroll + (R - 1 - row) : t->scroll + row;
	i = layout_at(&t->lay, d, col);
	if (i < 0)
		return false;
	tui_select_node(t, t->lay.rects[i].node, false);
	return true;
}

/* ---- Drawing --------------------------------------------------------- */

/* The frame rows [top, top + R), and markers where more rows are hidden. */
void tui_flame_draw(struct tui *t, unsigned top, unsigned R)
{
	char *buf = tui_draw_rowbuf(t, t->cols);

	for (unsigned fr = 0; fr < R; fr++) {
		unsigned d = t->flame ? t->scroll + (R - 1 - fr) : t->scroll + fr;
		int y = (int)(top + fr);

		if (d >= t->lay.rows)
			continue;
		for (size_t i = t->lay.row_start[d]; i < t->lay.row_start[d + 1];
		     i++)
			tui_draw_frame(t, t->p, &t->lay.rects[i], y, buf);
	}
	attr_set(A_NORMAL, 0, NULL);
	/* More above or below: a marker in the last column. */
	if (R && t->lay.rows > t->scroll + R) {
		int y = (int)(t->flame ? top : top + R - 1);

		tui_draw_slot(t, TS_HEADER);
		mvaddstr(y, (int)t->cols - 1, t->flame ?
			 (textfmt_utf8() ? "\u25b2" : "^") :
			 (textfmt_utf8() ? "\u25bc" : "v"));
	}
	if (R && t->scroll > 0) {
		int y = (int)(t->flame ? top + R - 1 : top);

		tui_draw_slot(t, TS_HEADER);
		mvaddstr(y, (int)t->cols - 1, t->flame ?
			 (textfmt_utf8() ? "\u25bc" : "v") :
			 (textfmt_utf8() ? "\u25b2" : "^"));
	}
}
