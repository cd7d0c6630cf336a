/*
 * burst-target.c - a target whose page faults come in one burst, with
 * counts known in advance, for tests/live/test-live-burst.sh.
 *
 * usage: burst-target [A_PAGES [B_PAGES]]     (default 12000 4000)
 *
 * fault_a() touches A_PAGES fresh pages of a new anonymous mapping, then
 * fault_b() touches B_PAGES more of another: one minor fault per page
 * (MAP_POPULATE and transparent huge pages are kept out of it, so every
 * page is its own fault).  The faults come as fast as the CPU takes them:
 * tens of thousands a second, the burst that fills a ring drained only
 * every tick.  Each function touches its pages itself and is not a leaf
 * (it calls fresh()), so gcc gives it a frame and a frame-pointer walk
 * from the fault reads main;fault_a or main;fault_b.
 *
 * At the end it prints "burst-target: A B" on stderr, the pages it
 * touched in each, for the test to compare with what was sampled.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static char *fresh(size_t len)
{
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		perror("burst-target: mmap");
		exit(2);
	}
#ifdef MADV_NOHUGEPAGE
	madvise(m, len, MADV_NOHUGEPAGE);
#endif
	return m;
}

__attribute__((noinline)) static void fault_a(size_t pages, size_t pg)
{
	volatile char *m = fresh(pages * pg);

	for (size_t i = 0; i < pages; i++)
		m[i * pg] = 1;
}

__attribute__((noinline)) static void fault_b(size_t pages, size_t pg)
{
	volatile char *m = fresh(pages * pg);

	for (size_t i = 0; i < pages; i++)
		m[i * pg] = 1;
}

int main(int argc, char **argv)
{
	size_t a = argc > 1 ? strtoul(argv[1], NULL, 10) : 12000;
	size_t b = argc > 2 ? strtoul(argv[2], NULL, 10) : 4000;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	fault_a(a, pg);
	fault_b(b, pg);
	fprintf(stderr, "burst-target: %zu %zu\n", a, b);
	return 0;
}
