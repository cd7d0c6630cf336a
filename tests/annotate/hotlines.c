/*
 * hotlines.c - the annotation oracle's program: lines of known, unequal
 * cost in two functions, one of them inlined into the other.
 *
 *   gcc -O1 -g -fno-omit-frame-pointer hotlines.c -o hotlines
 *   ./hotlines [SECONDS]
 *
 * SECONDS (default 1) is CPU time (CLOCK_THREAD_CPUTIME_ID), so that a
 * busy machine makes the run longer, not its samples fewer.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	for (int k = 0; k < 24; k++)
		x = (x ^ (x >> 13)) * 0x9e3779b97f4a7c15ul;
	return x;
}

__attribute__((noinline)) unsigned long lines(unsigned long x)
{
	for (int k = 0; k < 64; k++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	for (int k = 0; k < 16; k++)
		x ^= x << 7, x ^= x >> 9;
	x = mix(x);
	return x;
}

__attribute__((noinline)) double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1, start = cpu_seconds();
	unsigned long x = sink;

	do {
		for (int i = 0; i < 10000; i++)
			x = lines(x);
	} while (cpu_seconds() - start < secs);
	sink = x;
	return 0;
}
