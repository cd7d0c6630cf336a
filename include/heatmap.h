/*
 * heatmap.h - the sub-second heat map of a profile's timeline, as
 * flamescope draws it: columns are seconds from the first sample (or a
 * whole number of seconds each, when the recording is wider than the
 * screen), rows are offsets within a column's span, and each cell holds
 * the weight and the number of the samples taken in it.  Periodic work
 * shows as a row, a stall as an empty column.
 *
 * Cell (col, row) covers [t0 + col * col_ns + row * row_ns, + row_ns):
 * reading the cells column by column, top to bottom, is reading time in
 * order, so a selection from one cell to another is one time range.
 * Curses-free; the TUI draws it (tui-heatmap.c).
 */
#ifndef FLAMETOP_HEATMAP_H
#define FLAMETOP_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define HEATMAP_SECOND 1000000000ULL

struct heatmap {
	uint64_t t0;         /* the start of column 0 (ns): the first sample */
	uint64_t t1;         /* the last time the grid holds (ns) */
	uint64_t col_ns;     /* a column's span: a whole number of seconds */
	uint64_t row_ns;     /* a row's span: col_ns / rows */
	unsigned cols, rows; /* 0 cols: nothing binned (no timeline) */
	uint64_t *weight;    /* cols * rows, column by column: [col * rows + row] */
	uint32_t *count;     /* samples per cell, same order */
	uint64_t max;        /* the largest cell weight */
	uint64_t total;      /* the weight of every cell */
};

/* An empty map; heatmap_free releases what a build allocated. */
void heatmap_init(struct heatmap *h);
void heatmap_free(struct heatmap *h);

/*
 * The rows a column is cut into, for at most max_rows rows: the largest of
 * 50, 40, 25, 20, 10, 8, 5, 4, 2, 1 that fits, so a row of a one-second
 * column is a whole number of milliseconds (50 rows: 20 ms, flamescope's).
 */
unsigned heatmap_rows_for(unsigned max_rows);

/*
 * Set the grid for samples from first to last (ns) on at most max_cols
 * columns and max_rows rows, every cell empty.  A column is one second, or
 * the fewest whole seconds that fit the recording in max_cols columns
 * (times so far apart that this overflows end in the last column).
 * max_cols and max_rows of 0 count as 1.
 */
void heatmap_setup(struct heatmap *h, uint64_t first, uint64_t last,
		   unsigned max_cols, unsigned max_rows);
/* Add a sample taken at time (ns) of the given weight; false when the
 * time is outside the grid (the sample is not counted). */
bool heatmap_add(struct heatmap *h, uint64_t time, uint64_t weight);

/*
 * The heat map of the profile's timed samples (all of them, whatever time
 * range is selected): heatmap_setup over the profile's time bounds, then
 * every sample of its timeline.  A profile without a timeline gives a map
 * of 0 columns; returns whether there is a map.
 */
bool heatmap_build(struct heatmap *h, const struct profile *p,
		   unsigned max_cols, unsigned max_rows);

/* A cell's weight and sample count (0 outside the grid). */
uint64_t heatmap_weight(const struct heatmap *h, unsigned col, unsigned row);
uint32_t heatmap_count(const struct heatmap *h, unsigned col, unsigned row);

/* Where a time falls; false outside [t0, t1]. */
bool heatmap_cell_of(const struct heatmap *h, uint64_t time, unsigned *col,
		     unsigned *row);

/* The cell's times, [*start, *end) in ns (absolute). */
void heatmap_cell_span(const struct heatmap *h, unsigned col, unsigned row,
		       uint64_t *start, uint64_t *end);

/*
 * The time range from one cell to another, in time order whichever was
 * named first: [*start, *end) from the start of the earlier cell to the
 * end of the later one, as flamescope selects.
 */
void heatmap_range(const struct heatmap *h, unsigned c0, unsigned r0,
		   unsigned c1, unsigned r1, uint64_t *start, uint64_t *end);

/*
 * A weight's place on a scale of levels 0..levels-1 against the largest
 * cell: 0 only for an empty cell, levels-1 for the largest, the others in
 * proportion (rounded up, so any sample shows).
 */
unsigned heatmap_level(const struct heatmap *h, uint64_t weight,
		       unsigned levels);

#endif
