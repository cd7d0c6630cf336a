/*
 * stacks.h - unit tests build profiles from "a;b;c" strings (included
 * after cmocka.h by the tests that use it).
 */
#ifndef FLAMETOP_TEST_STACKS_H
#define FLAMETOP_TEST_STACKS_H

#include <stdint.h>
#include <string.h>

#include "profile.h"

/*
 * Add stack ("a;b;c", root first) with weight v / 10^decimals, at time ns
 * when time >= 0; returns what the sink says.
 */
static inline enum add_status stack_add_full(struct profile *p,
					     const char *stack, uint64_t v,
					     unsigned decimals, int64_t time)
{
	uint32_t syms[64];
	size_t n = 0;
	const char *s = stack;
	struct weight w = { v, 0, decimals };
	struct sample_meta m = { .time_ns = (uint64_t)time, .has_time = time >= 0 };

	for (;;) {
		const char *e = strchr(s, ';');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		assert_true(n < 64);
		syms[n++] = profile_intern(p, s, len);
		if (!e)
			break;
		s = e + 1;
	}
	return profile_add_stack(p, syms, n, &w, &m);
}

/* Add stack with weight v; it must be accepted. */
static inline void add(struct profile *p, const char *stack, uint64_t v)
{
	assert_int_equal(stack_add_full(p, stack, v, 0, -1), ADD_OK);
}

/* The same at time t (ns). */
static inline void add_timed(struct profile *p, const char *stack, uint64_t v,
			     uint64_t t)
{
	assert_int_equal(stack_add_full(p, stack, v, 0, (int64_t)t), ADD_OK);
}

#endif
