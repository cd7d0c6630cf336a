/*
 * symbols-table.c - what every part of the symbolizer shares, below them
 * all: the binary search of its sorted symbol tables and a build-id's
 * text.  It calls none of them, so that symbols.c (the symbolizer, which
 * joins the kernel loader at its end) and the parts (symbols-elf.c,
 * symbols-kernel.c) call one way only: symbols.c -> parts -> this file.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols-priv.h"
#include "util.h"

void sym_bid_hex(char *out, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = 0;
}

/*
 * How many entries of a table sorted by start begin at or before a: entry
 * [result - 1] is the last that may cover a.  Every symbol table here
 * (ELF, kernel, JIT) starts its entries with a uint64_t start.
 */
static uint64_t start_of(const void *table, size_t size, size_t i)
{
	uint64_t start;

	memcpy(&start, (const unsigned char *)table + i * size, sizeof(start));
	return start;
}

/* sym_count_starting_by where the answer is known to be in [lo, hi]. */
static size_t count_between(const void *table, size_t lo, size_t hi,
			    size_t size, uint64_t a)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (start_of(table, size, mid) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t sym_count_starting_by(const void *table, size_t n, size_t size,
				uint64_t a)
{
	return count_between(table, 0, n, size, a);
}

/*
 * About one bucket an entry: the span of the starts cut in buckets of a
 * power of two bytes, 16 at the least.
 */
void sym_index_build(struct sym_index *ix, const void *table, size_t n,
		     size_t size)
{
	uint64_t span;
	size_t j = 0;

	sym_index_free(ix);
	if (n == 0 || n >= UINT32_MAX)
		return;
	ix->base = start_of(table, size, 0);
	span = start_of(table, size, n - 1) - ix->base;
	ix->shift = 4;
	while ((span >> ix->shift) >= n)
		ix->shift++;
	ix->nb = (size_t)(span >> ix->shift) + 1;
	ix->first = xmalloc((ix->nb + 1) * sizeof(*ix->first));
	for (size_t b = 0; b < ix->nb; b++) {
		/* b << shift <= span: no overflow. */
		while (j < n && start_of(table, size, j) - ix->base <
				(uint64_t)b << ix->shift)
			j++;
		ix->first[b] = (uint32_t)j;
	}
	ix->first[ix->nb] = (uint32_t)n;
}

void sym_index_free(struct sym_index *ix)
{
	free(ix->first);
	memset(ix, 0, sizeof(*ix));
}

size_t sym_index_count(const struct sym_index *ix, const void *table,
		       size_t n, size_t size, uint64_t a)
{
	uint64_t b;

	if (!ix->first)
		return sym_count_starting_by(table, n, size, a);
	if (a < ix->base)
		return 0;
	b = (a - ix->base) >> ix->shift;
	if (b >= ix->nb)
		return n;
	return count_between(table, ix->first[b], ix->first[b + 1], size, a);
}

_Static_assert(offsetof(struct fsym, start) == 0, "start comes first");
_Static_assert(offsetof(struct ksym, start) == 0, "start comes first");
_Static_assert(offsetof(struct jit_sym, start) == 0, "start comes first");
