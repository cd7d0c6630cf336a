/*
 * annotate-phases.c - a program whose CPU time moves from one function to
 * another and back, for tests/tui/test-annotate-live.sh:
 *
 *   cc -O1 -g -fno-omit-frame-pointer annotate-phases.c -o annotate-phases
 *   annotate-phases GOFILE SECONDS_SECOND SECONDS_THIRD
 *
 * first_phase() runs until GOFILE exists (and for at least 0.3 s), then
 * second_phase() for SECONDS_SECOND, then first_phase() again for
 * SECONDS_THIRD, and the program exits.  Times are CPU time of the thread
 * (CLOCK_THREAD_CPUTIME_ID), so a busy machine makes the run longer, not
 * its samples fewer.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

/* Keeps the spinning functions from being frameless leaves. */
__attribute__((noinline)) static void touch(unsigned long x)
{
	sink = x;
}

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The work of both phases, inlined into each: its lines are theirs. */
static inline __attribute__((always_inline)) void spin(unsigned n)
{
	unsigned long x = sink;

	for (unsigned i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		if (x == 0)
			touch(x);
	}
	sink = x;
}

__attribute__((noinline)) void first_phase(unsigned n)
{
	spin(n);
}

__attribute__((noinline)) void second_phase(unsigned n)
{
	spin(n);
}

int main(int argc, char **argv)
{
	double t0 = cpu_seconds(), b, c;

	if (argc != 4)
		return 2;
	b = atof(argv[2]);
	c = atof(argv[3]);
	while (cpu_seconds() - t0 < 0.3 || access(argv[1], F_OK) != 0)
		first_phase(2000000);
	t0 = cpu_seconds();
	while (cpu_seconds() - t0 < b)
		second_phase(2000000);
	t0 = cpu_seconds();
	while (cpu_seconds() - t0 < c)
		first_phase(2000000);
	return 0;
}
