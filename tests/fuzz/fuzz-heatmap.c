/*
 * fuzz-heatmap.c - the heat map on arbitrary sample times.
 *
 * Input: 4 bytes of spec (columns, 2 bytes; rows; flags), then 12 bytes a
 * sample (time in ns, weight, little-endian).  The map is set up over the
 * samples' span, either by hand (heatmap_setup, heatmap_add) or from a
 * profile whose timeline holds them (heatmap_build, flags & 1).  Every
 * sample lands in a cell whose span holds its time; cells weigh what was
 * added (saturating), the heaviest is at the top level; a range of two
 * cells is in order.
 */
#include <stdint.h>
#include <string.h>

#include "heatmap.h"
#include "profile.h"

#define MAX_SAMPLES 4096

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The time is in its cell's span (an end of UINT64_MAX has saturated). */
static void check_cell(const struct heatmap *h, uint64_t t)
{
	unsigned c, r;
	uint64_t s, e;

	if (!heatmap_cell_of(h, t, &c, &r))
		__builtin_trap();
	if (c >= h->cols || r >= h->rows)
		__builtin_trap();
	heatmap_cell_span(h, c, r, &s, &e);
	if (t < s || (t >= e && e != UINT64_MAX && t != h->t1))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct heatmap h;
	size_t n = size < 4 ? 0 : (size - 4) / 12;
	unsigned cols, rows;
	uint64_t first = UINT64_MAX, last = 0, sum = 0;

	if (size < 4)
		return 0;
	cols = (data[0] | (unsigned)data[1] << 8) % 1024;
	rows = data[2];
	if (n > MAX_SAMPLES)
		n = MAX_SAMPLES;
	for (size_t i = 0; i < n; i++) {
		uint64_t t = load64(data + 4 + 12 * i);

		first = t < first ? t : first;
		last = t > last ? t : last;
	}
	heatmap_init(&h);
	if (data[3] & 1) {
		struct profile *p = profile_create();
		uint32_t sym = profile_intern(p, "f", 1);

		for (size_t i = 0; i < n; i++) {
			struct weight w = { load32(data + 12 + 12 * i), 0, 0 };
			struct sample_meta m = { 0 };

			m.has_time = true;
			m.time_ns = load64(data + 4 + 12 * i);
			profile_add_stack(p, &sym, 1, &w, &m);
		}
		profile_finish(p);
		if (heatmap_build(&h, p, cols, rows))
			for (size_t i = 0; i < n; i++)
				check_cell(&h, load64(data + 4 + 12 * i));
		profile_destroy(p);
	} else if (n) {
		heatmap_setup(&h, first, last, cols, rows);
		for (size_t i = 0; i < n; i++) {
			uint64_t t = load64(data + 4 + 12 * i);
			uint32_t w = load32(data + 12 + 12 * i);

			if (!heatmap_add(&h, t, w))
				__builtin_trap();
			check_cell(&h, t);
			sum = sum + w < sum ? UINT64_MAX : sum + w;
		}
		if (h.total != sum)
			__builtin_trap();
	}
	if (h.cols) {
		uint64_t s, e;
		unsigned c1 = data[0] % h.cols, r1 = data[1] % h.rows;

		for (unsigned c = 0; c < h.cols; c++)
			for (unsigned r = 0; r < h.rows; r++) {
				uint64_t w = heatmap_weight(&h, c, r);
				unsigned lv = heatmap_level(&h, w, 8);

				if (w > h.max || lv > 7 || (w == h.max && w && lv != 7) ||
				    (w && !lv))
					__builtin_trap();
			}
		heatmap_range(&h, c1, r1, 0, 0, &s, &e);
		if (s > e)
			__builtin_trap();
	}
	heatmap_free(&h);
	return 0;
}
