/*
 * inline.c - nested inlined functions, for DWARF unwinding: spin_inl
 * calls middle_fn, which calls inner_fn, both always inlined, so one
 * address of spin_inl's code lies in three functions at once:
 *
 *   spin_inl;middle_fn;inner_fn         inner_fn's own loop
 *   spin_inl;middle_fn;inner_fn;step    a call made from inner_fn's code:
 *                                       the return address is in all three
 *   spin_inl;middle_fn                  middle_fn's own loop
 *
 * SECONDS (default 1) is CPU time (CLOCK_THREAD_CPUTIME_ID), so that a
 * busy machine makes the run longer, not its samples fewer.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long step(unsigned long x)
{
	for (int k = 0; k < 48; k++)
		x = x * 2862933555777941757ul + 3037000493ul;
	__asm__ volatile("" : "+r"(x));
	return x;
}

static inline __attribute__((always_inline)) unsigned long
inner_fn(unsigned long x)
{
	for (int k = 0; k < 64; k++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return step(x) ^ x;
}

static inline __attribute__((always_inline)) unsigned long
middle_fn(unsigned long x)
{
	x = inner_fn(x);
	for (int k = 0; k < 32; k++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15ul;
