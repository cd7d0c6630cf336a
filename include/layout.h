/*
 * layout.h - the flame graph's geometry, shared by every front end.
 *
 * layout_build is a pure function of (profile, zoom root, columns, row
 * limit, minimum width): it returns the frames to draw as rectangles in
 * stack-depth rows, sorted by depth and then column.  The TUI, --text and
 * the tests all draw from it, so what --text prints is what the screen
 * shows.  Orientation (icicle or flame) is a matter of drawing rows top
 * down or bottom up and is left to the front end.
 */
#ifndef FLAMETOP_LAYOUT_H
#define FLAMETOP_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile.h"

struct layout_rect {
	uint32_t node;       /* the profile node drawn */
	uint32_t depth;      /* row: the node's depth (root 0) */
	uint32_t col;        /* first column */
	uint32_t width;      /* columns, at least the minimum width */
	uint64_t off;        /* weight left of it within the zoom root */
};

struct layout {
	struct layout_rect *rects;   /* sorted by (depth, col) */
	size_t n, cap;
	unsigned rows;               /* deepest depth drawn + 1 */
	unsigned cols;
	uint32_t zoom;
	size_t *row_start;           /* first rect of each depth; [rows] = n */
	size_t row_cap;
};

void layout_init(struct layout *l);
void layout_free(struct layout *l);

/*
 * Lay out the subtree of zoom in cols columns, its ancestors above it at
 * full width.  A node narrower than min_width columns is not drawn and its
 * subtree is not visited.  max_rows > 0 stops at that depth.
 */
void layout_build(struct layout *l, const struct profile *p, uint32_t zoom,
		  unsigned cols, unsigned max_rows, unsigned min_width);

/* The rect at (depth, col), or -1. */
ssize_t layout_at(const struct layout *l, unsigned depth, unsigned col);
/* The rect drawing node, or -1 when it is not drawn. */
ssize_t layout_find_node(const struct layout *l, uint32_t node);

#endif
