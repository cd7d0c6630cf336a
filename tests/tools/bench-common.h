/*
 * bench-common.h - what the in-memory benchmarks share: a deterministic
 * pseudo-random sequence (the same trees on every run) and the sort of
 * their timings.
 */
#ifndef FLAMETOP_BENCH_COMMON_H
#define FLAMETOP_BENCH_COMMON_H

#include <stdint.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#endif
