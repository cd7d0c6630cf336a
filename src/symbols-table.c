/*
 * symbols-table.c - what every part of the symbolizer shares, below them
 * all: the binary search of its sorted symbol tables and a build-id's
 * text.  It calls none of them, so that symbols.c (the symbolizer, which
 * joins the kernel loader at its end) and the parts (symbols-elf.c,
 * symbols-kernel.c) call one way only: symbols.c -> parts -> this file.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "symbols-priv.h"

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
size_t sym_count_starting_by(const void *table, size_t n, size_t size,
				uint64_t a)
{
	const unsigned char *t = table;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t start;

		memcpy(&start, t + mid * size, sizeof(start));
		if (start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

_Static_assert(offsetof(struct fsym, start) == 0, "start comes first");
_Static_assert(offsetof(struct ksym, start) == 0, "start comes first");
_Static_assert(offsetof(struct jit_sym, start) == 0, "start comes first");
