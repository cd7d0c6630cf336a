/*
 * A program whose time goes into libc through the PLT: a mutex locked and
 * unlocked in a loop, for ARGV[1] seconds of its own CPU time.  perf names
 * pthread_mutex_lock@@GLIBC_2.2.5 (libc) and pthread_mutex_lock@plt (the
 * stub in this program) apart; test-top-perf-report checks that flametop
 * gives each its share.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
volatile unsigned long sink;

__attribute__((noinline)) static void locked_add(void)
{
	pthread_mutex_lock(&mu);
	sink++;
	pthread_mutex_unlock(&mu);
}

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double until = cpu_seconds() + (argc > 1 ? atof(argv[1]) : 0.5);

	while (cpu_seconds() < until)
		for (int i = 0; i < 100000; i++)
			locked_add();
	return 0;
}
