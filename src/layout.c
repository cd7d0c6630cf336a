/*
 * layout.c - from a (zoomed) call tree to rectangles.
 *
 * Columns come from weights: a frame whose subtree starts `off` weight units
 * after the zoom root's left edge and weighs `w` covers columns
 * round(off*cols/W) up to round((off+w)*cols/W), W the zoom root's weight.
 * Children start at their parent's left edge, in sibling (name) order, and
 * the parent's self weight is the gap on the right, as in flamegraph.pl.
 * Because a child's weight interval lies inside its parent's and rounding
 * is monotonic, a child stays inside its parent's columns: children never
 * overhang, and siblings never overlap.
 *
 * A frame is drawn when its exact width w * cols / W is at least the
 * minimum (one column): the rule is on the weight, not on the rounded
 * edges, which would draw a 0.1-column frame that straddles a column edge
 * as one column, and its descendants as a tower.  A frame of exact width
 * >= 1 gets at least one column after rounding.  Since a frame drawn at
 * some width is drawn at every larger one, the depth only grows with the
 * width.
 *
 * The walk goes level by level over the frames drawn on the level above, so
 * a frame narrower than the minimum is never descended into and the cost is
 * the number of frames drawn plus their children, not the tree's size.
 */
#include "layout.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void layout_init(struct layout *l)
{
	memset(l, 0, sizeof(*l));
}

void layout_free(struct layout *l)
{
	free(l->rects);
	free(l->row_start);
	layout_init(l);
}

static void push(struct layout *l, uint32_t node, uint32_t depth,
		 uint32_t col, uint32_t width, uint64_t off)
{
	struct layout_rect *r;

	GROW(l->rects, l->cap, l->n + 1);
	r = &l->rects[l->n++];
	r->node = node;
	r->depth = depth;
	r->col = col;
	r->width = width;
	r->off = off;
}

static void mark_row(struct layout *l, unsigned depth)
{
	GROW(l->row_start, l->row_cap, (size_t)depth + 2);
	l->row_start[depth] = l->n;
}

void layout_build(struct layout *l, const struct profile *p, uint32_t zoom,
		  unsigned cols, unsigned max_rows, unsigned min_width)
{
	unsigned depth;
	uint64_t W = profile_total(p, zoom);
	size_t lo, hi;

	l->n = 0;
	l->rows = 0;
	l->cols = cols;
	l->zoom = zoom;
	if (min_width < 1)
		min_width = 1;
	if (cols == 0)
		return;
	/* The zoom root's ancestors, full width, root first. */
	{
		uint32_t path[256];
		unsigned np = 0, d0 = profile_depth(p, zoom);
		uint32_t n = zoom;
		uint32_t *pp = path;

		if (d0 + 1 > ARRAY_SIZE(path))
			pp = xmalloc(((size_t)d0 + 1) * sizeof(*pp));
		for (; n != NODE_NONE; n = profile_node(p, n)->parent)
			pp[np++] = n;
		for (unsigned d = 0; d < np && (!max_rows || d < max_rows); d++) {
			mark_row(l, d);
			push(l, pp[np - 1 - d], d, 0, cols, 0);
		}
		if (pp != path)
			free(pp);
		depth = np;
	}
	l->rows = depth;
	if (max_rows && depth >= max_rows) {
		l->rows = max_rows;
		mark_row(l, l->rows);
		return;
	}
	lo = l->n - 1;
	hi = l->n;
	if (W == 0) {
		mark_row(l, l->rows);
		return;
	}
	/* Descendants, level by level. */
	while (lo < hi && (!max_rows || depth < max_rows)) {
		mark_row(l, depth);
		for (size_t i = lo; i < hi; i++) {
			uint32_t parent = l->rects[i].node;
			uint64_t off = l->rects[i].off;

			for (uint32_t c = profile_node(p, parent)->child;
			     c != NODE_NONE; c = profile_node(p, c)->next) {
				uint64_t w = profile_total(p, c);
				unsigned __int128 a, b;
				uint32_t x0, x1;

				if (!w)
					continue;
				off += w;
				/* The rule is on the exact width, w * cols / W:
				 * rounded edges would draw some frames of 0.1
				 * column as one, and a tower of them. */
				if ((unsigned __int128)w * cols <
				    (unsigned __int128)min_width * W)
					continue;
				a = ((unsigned __int128)(off - w) * cols + W / 2) / W;
				b = ((unsigned __int128)off * cols + W / 2) / W;
				x0 = (uint32_t)a;
				x1 = (uint32_t)b;
				push(l, c, depth, x0, x1 - x0, off - w);
			}
		}
		lo = hi;
		hi = l->n;
		if (lo == hi)
			break;
		depth++;
		l->rows = depth;
	}
	mark_row(l, l->rows);
}

ssize_t layout_at(const struct layout *l, unsigned depth, unsigned col)
{
	size_t lo, hi;

	if (depth >= l->rows)
		return -1;
	lo = l->row_start[depth];
	hi = l->row_start[depth + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct layout_rect *r = &l->rects[mid];

		if (col < r->col)
			hi = mid;
		else if (col >= r->col + r->width)
			lo = mid + 1;
		else
			return (ssize_t)mid;
	}
	return -1;
}

ssize_t layout_find_node(const struct layout *l, uint32_t node)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->rects[i].node == node)
			return (ssize_t)i;
	return -1;
}
