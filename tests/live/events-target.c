/*
 * events-target.c - a target with known blocking and known page faults,
 * for the event and off-CPU tests (tests/live/test-live-events.sh).
 *
 * usage: events-target ROUNDS [FAULT_PAGES]
 *        events-target -p ROUNDS
 *
 * Scheduling.  The target first makes itself SCHED_FIFO (priority 10)
 * when it may (root, CAP_SYS_NICE or an RLIMIT_RTPRIO): a woken real-time
 * thread preempts the machine's ordinary (CFS) threads at once, and none
 * of them preempts it while it burns, so a loaded machine adds no wait for
 * a CPU to its off-CPU time and no preemption to its wall time.  When it
 * may not, it says so on stderr ("events-target: not SCHED_FIFO: ...")
 * and runs as an ordinary thread (EVENTS_TARGET_NO_FIFO=1 in the
 * environment makes it so, to try the test's fallback).
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
 *
 * It prints "events-target: blocked N ns" on stderr at the end: the
 * CLOCK_MONOTONIC time from just before to just after its blocking
 * syscalls, in all (an upper bound of its time off the CPU in them).
 *
 * The blocking calls are made from those functions (syscall(2) is inlined
 * to the instruction by the raw form below), so a frame-pointer walk from
 * the kernel shows main;run;snooze and main;run;wait_timer, not libc's
 * frameless wrapper.
 *
 * -p: preemption, made deterministic.  Two threads pinned to one CPU: an
 * ordinary one burns CPU in hogged() until told to stop, never blocking,
 * while a SCHED_FIFO one runs ROUNDS rounds of nanosleep 3 ms (in
 * hog_sleep) then 2 ms of CPU time (in hog).  Each time the real-time
 * thread wakes it preempts hogged's thread on that CPU, so that thread
 * spends at least ROUNDS * 2 ms preempted (more if other threads share
 * the CPU) and no time blocked.  Without SCHED_FIFO it exits with status 3
 * and a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static uint64_t blocked_ns;   /* around the blocking syscalls, in all */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spend secs of this thread's CPU time. */
__attribute__((noinline)) static void spin(double secs)
{
	double end = thread_cpu() + secs;
	uint64_t x = sink;

	while (thread_cpu() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

__attribute__((noinline)) static void burn(void)
{
	spin(0.005);
	sink++;
}

__attribute__((noinline)) static void snooze(void)
{
	struct timespec ts = { 0, 7000000 };
	uint64_t t0 = mono_ns();

	raw_syscall3(SYS_nanosleep, (long)&ts, 0, 0);
	blocked_ns += mono_ns() - t0;
	sink++;
}

__attribute__((noinline)) static void wait_timer(int tfd)
{
	struct itimerspec its = { { 0, 0 }, { 0, 3000000 } };
	uint64_t n = 0, t0;

	timerfd_settime(tfd, 0, &its, NULL);
	t0 = mono_ns();
	raw_syscall3(SYS_read, tfd, (long)&n, sizeof(n));
	blocked_ns += mono_ns() - t0;
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

/* The calling thread SCHED_FIFO at priority 10: 0, or an errno. */
static int go_fifo(void)
{
	struct sched_param sp = { .sched_priority = 10 };

	if (getenv("EVENTS_TARGET_NO_FIFO"))   /* to try the fallback */
		return EPERM;
	return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

/* ---- -p: preemption ------------------------------------------------------ */

static cpu_set_t one_cpu;
static volatile int hog_started, hog_done;
static long hog_rounds;

__attribute__((noinline)) static void hogged(void)
{
	hog_started = 1;
	while (!hog_done)
		spin(0.0005);
	sink++;
}

static void *hogged_main(void *arg)
{
	(void)arg;
	hogged();
	return NULL;
}

__attribute__((noinline)) static void hog_sleep(void)
{
	struct timespec ts = { 0, 3000000 };

	raw_syscall3(SYS_nanosleep, (long)&ts, 0, 0);
	sink++;
}

__attribute__((noinline)) static void hog(void)
{
	spin(0.002);
	sink++;
}

static void *hog_main(void *arg)
{
	int *err = arg;

	*err = go_fifo();
	if (*err == 0) {
		while (!hog_started)
			hog_sleep();
		for (long r = 0; r < hog_rounds; r++) {
			hog_sleep();
			hog();
		}
	}
	hog_done = 1;
	return NULL;
}

static int preempt_main(long rounds)
{
	pthread_attr_t a;
	pthread_t t1, t2;
	int err = 0;

	/* Both threads on the first CPU this process may use. */
	if (sched_getaffinity(0, sizeof(one_cpu), &one_cpu) != 0)
		return 1;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &one_cpu)) {
			CPU_ZERO(&one_cpu);
			CPU_SET(c, &one_cpu);
			break;
		}
	}
	hog_rounds = rounds;
	pthread_attr_init(&a);
	pthread_attr_setaffinity_np(&a, sizeof(one_cpu), &one_cpu);
	if (pthread_create(&t1, &a, hogged_main, NULL) != 0 ||
	    pthread_create(&t2, &a, hog_main, &err) != 0)
		return 1;
	pthread_join(t2, NULL);
	pthread_join(t1, NULL);
	pthread_attr_destroy(&a);
	if (err) {
		fprintf(stderr, "events-target: not SCHED_FIFO: %s\n",
			strerror(err));
		return 3;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long rounds;
	int err;

	if (argc > 2 && strcmp(argv[1], "-p") == 0)
		return preempt_main(atol(argv[2]));
	err = go_fifo();
	if (err)
		fprintf(stderr, "events-target: not SCHED_FIFO: %s (an "
			"ordinary thread: on a loaded machine it waits for a "
			"CPU)\n", strerror(err));
	rounds = argc > 1 ? atol(argv[1]) : 100;
	long pages = argc > 2 ? atol(argv[2]) : 64;
	int tfd = timerfd_create(CLOCK_MONOTONIC, 0);

	if (tfd < 0) {
		perror("timerfd_create");
		return 1;
	}
	run(rounds, pages, tfd);
	close(tfd);
	fprintf(stderr, "events-target: blocked %llu ns\n",
		(unsigned long long)blocked_ns);
	return 0;
}
