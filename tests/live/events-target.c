/*
 * events-target.c - a target with known blocking and known page faults,
 * for the event and off-CPU tests (tests/live/test-live-events.sh).
 *
 * usage: events-target ROUNDS [FAULT_PAGES]
 *
 * Each round, single-threaded:
 *   burn()        spends 5 ms of its thread's CPU time (measured with
 *                 CLOCK_THREAD_CPUTIME_ID, so a loaded machine stretches
 *                 the round, not the share);
 *   snooze()      nanosleep 7 ms, a raw syscall issued from snooze itself;
 *   wait_timer()  reads a timerfd armed to fire after 3 ms, a raw read
 *                 from wait_timer itself;
 *   fault_pages() touches FAULT_PAGES fresh pages (default 64) of a new
 *                 anonymous mapping itself, and calls count_page() for
 *                 each so that it is not a leaf (gcc may give a leaf no
 *                 frame, and the walk would skip its caller).
 * The blocking calls are made from those functions (syscall(2) is inlined
 * to the instruction by the raw form below), so a frame-pointer walk from
 * the kernel shows main;run;snooze and main;run;wait_timer, not libc's
 * frameless wrapper.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static long raw_syscall3(long n, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile uint64_t sink;

__attribute__((noinline)) static void burn(void)
{
	double end = thread_cpu() + 0.005;
	uint64_t x = sink;

	while (thread_cpu() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

__attribute__((noinline)) static void snooze(void)
{
	struct timespec ts = { 0, 7000000 };

	raw_syscall3(SYS_nanosleep, (long)&ts, 0, 0);
	sink++;
}

__attribute__((noinline)) static void wait_timer(int tfd)
{
	struct itimerspec its = { { 0, 0 }, { 0, 3000000 } };
	uint64_t n;

	timerfd_settime(tfd, 0, &its, NULL);
	raw_syscall3(SYS_read, tfd, (long)&n, sizeof(n));
	sink += n;
}

__attribute__((noinline)) static void count_page(void)
{
	sink++;
}

__attribute__((noinline)) static void fault_pages(long pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)(pages * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return;
	for (long i = 0; i < pages; i++) {
		((volatile char *)m)[i * pg] = 1;
		count_page();
	}
	munmap(m, (size_t)(pages * pg));
	sink++;
}

__attribute__((noinline)) static void run(long rounds, long pages, int tfd)
{
	for (long r = 0; r < rounds; r++) {
		burn();
		snooze();
		wait_timer(tfd);
		if (pages)
			fault_pages(pages);
	}
	sink++;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	long pages = argc > 2 ? atol(argv[2]) : 64;
	int tfd = timerfd_create(CLOCK_MONOTONIC, 0);

	if (tfd < 0) {
		perror("timerfd_create");
		return 1;
	}
	run(rounds, pages, tfd);
	close(tfd);
	return 0;
}
