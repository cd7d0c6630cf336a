/*
 * The fixture program of --annotate --disasm: mix() spends its time on a
 * few lines with different weights (a multiply loop, a divide on odd
 * rounds, a call to step), so that per-line and per-instruction shares
 * differ clearly.  Runs for the CPU seconds given (default 1).
 */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

/* Its stack slot gives it a frame, so that frame-pointer stacks hold mix. */
__attribute__((noinline)) unsigned long step(unsigned long x)
{
	volatile unsigned long t = x * 2654435761u;

	return t >> 7;
}

__attribute__((noinline)) void mix(unsigned long n)
{
	unsigned long a = 1;

	for (unsigned long i = 0; i < n; i++) {
		a = a * 6364136223846793005u + i;
		if (i & 1)
			a ^= a / (i | 3);
		if ((i & 15) == 0)
			a += step(a);
	}
	sink = a;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	double end = cpu_seconds() + secs;

	while (cpu_seconds() < end)
		mix(200000);
	return 0;
}
