/* The fixture program of tests/data: two call paths with known shares. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void touch(void) { sink++; }

__attribute__((noinline)) void burn(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
	touch();
}

/* Two thirds of the time. */
__attribute__((noinline)) void path_a(void) { burn(2000000); touch(); }
/* One third. */
__attribute__((noinline)) void path_b(void) { burn(1000000); touch(); }

__attribute__((noinline)) void work(void) { path_a(); path_b(); touch(); }

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;

	for (long k = 0; k < (long)(secs * 200); k++)
		work();
	return 0;
}
