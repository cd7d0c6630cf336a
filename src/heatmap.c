/*
 * heatmap.c - binning a timeline into flamescope's sub-second heat map.
 *
 * The grid starts at the first sample.  A column spans a whole number of
 * seconds (one, unless the recording is wider than the columns given) and
 * is cut into rows of equal spans that divide a second into whole
 * milliseconds, so that every cell boundary is an exact nanosecond and a
 * range of cells maps to a range of time without rounding.  Spans are
 * computed in 128 bits and saturate: a timeline with absurd timestamps
 * gives a coarse map, never a wrapped one.
 */
#include "heatmap.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef unsigned __int128 u128;

static uint64_t sat64(u128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

void heatmap_init(struct heatmap *h)
{
	memset(h, 0, sizeof(*h));
}

void heatmap_free(struct heatmap *h)
{
	free(h->weight);
	free(h->count);
	heatmap_init(h);
}

unsigned heatmap_rows_for(unsigned max_rows)
{
	static const unsigned steps[] = { 50, 40, 25, 20, 10, 8, 5, 4, 2, 1 };

	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (steps[i] <= max_rows)
			return steps[i];
	return 1;
}

void heatmap_setup(struct heatmap *h, uint64_t first, uint64_t last,
		   unsigned max_cols, unsigned max_rows)
{
	uint64_t dur, secs, per, cells;

	if (!max_cols)
		max_cols = 1;
	if (last < first)
		last = first;
	dur = last - first;
	/* Seconds the recording touches from its first sample: a sample at
	 * exactly t0 + 1 s opens a second column. */
	secs = dur / HEATMAP_SECOND + 1;
	per = (secs + max_cols - 1) / max_cols;
	h->t0 = first;
	h->rows = heatmap_rows_for(max_rows);
	h->col_ns = sat64((u128)per * HEATMAP_SECOND);
	h->row_ns = h->col_ns / h->rows;
	cells = dur / h->col_ns + 1;
	h->cols = cells > max_cols ? max_cols : (unsigned)cells;
	h->t1 = last;
	cells = (uint64_t)h->cols * h->rows;
	h->weight = xreallocarray(h->weight, cells, sizeof(*h->weight));
	h->count = xreallocarray(h->count, cells, sizeof(*h->count));
	memset(h->weight, 0, cells * sizeof(*h->weight));
	memset(h->count, 0, cells * sizeof(*h->count));
	h->max = h->total = 0;
}

bool heatmap_cell_of(const struct heatmap *h, uint64_t time, unsigned *col,
		     unsigned *row)
{
	uint64_t off, c, r;

	if (!h->cols || time < h->t0 || time > h->t1)
		return false;
	off = time - h->t0;
	c = off / h->col_ns;
	if (c >= h->cols)
		c = h->cols - 1;   /* the column's span saturated */
	r = (off - c * h->col_ns) / h->row_ns;
	if (r >= h->rows)
		r = h->rows - 1;
	*col = (unsigned)c;
	*row = (unsigned)r;
	return true;
}

bool heatmap_add(struct heatmap *h, uint64_t time, uint64_t weight)
{
	unsigned c, r;
	size_t i;

	if (!heatmap_cell_of(h, time, &c, &r))
		return false;
	i = (size_t)c * h->rows + r;
	h->weight[i] = sat64((u128)h->weight[i] + weight);
	if (h->count[i] < UINT32_MAX)
		h->count[i]++;
	if (h->weight[i] > h->max)
		h->max = h->weight[i];
	h->total = sat64((u128)h->total + weight);
	return true;
}

bool heatmap_build(struct heatmap *h, const struct profile *p,
		   unsigned max_cols, unsigned max_rows)
{
	uint64_t first, last;
	size_t n = profile_timeline_len(p);

	if (!n || !profile_time_bounds(p, &first, &last)) {
		heatmap_free(h);
		return false;
	}
	heatmap_setup(h, first, last, max_cols, max_rows);
	for (size_t i = 0; i < n; i++) {
		struct sample_meta m;
		uint64_t w;

		profile_timeline_sample(p, i, &w, &m);
		heatmap_add(h, m.time_ns, w);
	}
	return true;
}

uint64_t heatmap_weight(const struct heatmap *h, unsigned col, unsigned row)
{
	if (col >= h->cols || row >= h->rows)
		return 0;
	return h->weight[(size_t)col * h->rows + row];
}

uint32_t heatmap_count(const struct heatmap *h, unsigned col, unsigned row)
{
	if (col >= h->cols || row >= h->rows)
		return 0;
	return h->count[(size_t)col * h->rows + row];
}

void heatmap_cell_span(const struct heatmap *h, unsigned col, unsigned row,
		       uint64_t *start, uint64_t *end)
{
	u128 s = (u128)h->t0 + (u128)col * h->col_ns + (u128)row * h->row_ns;

	*start = sat64(s);
	/* The last row runs to the column's end (they differ only when the
	 * column's span saturated). */
	*end = row + 1 >= h->rows ?
	       sat64((u128)h->t0 + (u128)(col + 1) * h->col_ns) :
	       sat64(s + h->row_ns);
}

void heatmap_range(const struct heatmap *h, unsigned c0, unsigned r0,
		   unsigned c1, unsigned r1, uint64_t *start, uint64_t *end)
{
	uint64_t s0, e0, s1, e1;

	heatmap_cell_span(h, c0, r0, &s0, &e0);
	heatmap_cell_span(h, c1, r1, &s1, &e1);
	*start = s0 < s1 ? s0 : s1;
	*end = e0 > e1 ? e0 : e1;
}

unsigned heatmap_level(const struct heatmap *h, uint64_t weight,
		       unsigned levels)
{
	u128 lv;

	if (!weight || !h->max || levels < 2)
		return 0;
	if (weight >= h->max)
		return levels - 1;
	lv = ((u128)weight * (levels - 1) + h->max - 1) / h->max;
	return lv < 1 ? 1 : (unsigned)lv;
}
