/*
 * live-target.c - a program with known call paths and CPU shares, for the
 * live-mode tests.  Built at test time with frame pointers:
 *
 *   cc -O1 -g -fno-omit-frame-pointer -pthread live-target.c -o live-target
 *
 *   live-target [-t THREADS] [-f] [-w] SECONDS
 *
 * SECONDS is CPU time of each worker, not wall time: on a busy machine the
 * program runs longer but is sampled as often, so the tests' sample counts
 * do not depend on the load.
 *
 * Each worker loops: work_hot() runs twice as many iterations of the same
 * arithmetic as work_cold(), so about 2/3 of the CPU time is under
 *   main;run_worker;work_hot;spin_hot   (threads: ...;worker_main;...)
 * and 1/3 under the cold path.  -t runs the workers in threads started
 * after a short pause (so an attached sampler must follow new threads);
 * -f forks a child that does the same work; -w waits on standard input
 * before starting (a ready handshake for tests).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 200000u

static double seconds;
static volatile unsigned long sink;

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * gcc gives leaf functions no frame even with -fno-omit-frame-pointer, and
 * a sample in a frameless leaf loses the leaf's caller; the call to touch()
 * makes the spinning functions non-leaf, so they set up their frame.
 */
__attribute__((noinline)) static void touch(unsigned long x)
{
	sink = x;
}

__attribute__((noinline)) static void spin_hot(unsigned n)
{
	unsigned long x = sink;

	for (unsigned i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		if (x == 0)
			touch(x);
	}
	sink = x;
}

__attribute__((noinline)) static void spin_cold(unsigned n)
{
	unsigned long x = sink;

	for (unsigned i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		if (x == 0)
			touch(x);
	}
	sink = x;
}

/*
 * The amount of work varies from round to round (the same for both paths
 * of a round), so the loop has no fixed period that a sampling timer could
 * fall in step with.
 */
static __thread unsigned long seed = 12345;

static unsigned chunk(void)
{
	seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	return CHUNK / 2 + (unsigned)((seed >> 33) % CHUNK);
}

__attribute__((noinline)) static void work_hot(unsigned n)
{
	spin_hot(2 * n);
	sink++;   /* not a tail call: keep work_hot in the chain */
}

__attribute__((noinline)) static void work_cold(unsigned n)
{
	spin_cold(n);
	sink++;
}

__attribute__((noinline)) static void run_worker(void)
{
	double end = cpu_now() + seconds;

	while (cpu_now() < end) {
		unsigned n = chunk();

		work_hot(n);
		work_cold(n);
	}
	sink++;
}

static void *worker_main(void *arg)
{
	(void)arg;
	run_worker();
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 0, fork_child = 0, wait_stdin = 0, opt;

	while ((opt = getopt(argc, argv, "t:fw")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 'f': fork_child = 1; break;
		case 'w': wait_stdin = 1; break;
		default:
			fprintf(stderr, "usage: live-target [-t N] [-f] [-w] SECS\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: live-target [-t N] [-f] [-w] SECS\n");
		return 2;
	}
	seconds = atof(argv[optind]);
	if (wait_stdin) {
		char buf[16];

		if (!fgets(buf, sizeof(buf), stdin))
			return 1;
	}
	if (fork_child) {
		pid_t pid = fork();

		if (pid == 0) {
			run_worker();
			_exit(0);
		}
		run_worker();
		waitpid(pid, NULL, 0);
		return 0;
	}
	if (threads > 0) {
		pthread_t *t = calloc((size_t)threads, sizeof(*t));
		struct timespec pause = { 0, 300000000 };

		nanosleep(&pause, NULL);
		for (int i = 0; i < threads; i++)
			pthread_create(&t[i], NULL, worker_main, NULL);
		for (int i = 0; i < threads; i++)
			pthread_join(t[i], NULL);
		free(t);
		return 0;
	}
	run_worker();
	return 0;
}
