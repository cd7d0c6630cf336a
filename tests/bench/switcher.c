/*
 * switcher.c - about RATE context switches a second, for
 * tests/bench/bench-offcpu.sh: two threads pass a byte back and forth
 * through pipes (each pass blocks one and wakes the other), RATE / 2000
 * passes each millisecond, then sleep to the next millisecond.
 *
 * usage: switcher RATE SECONDS
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int ab[2], ba[2];

static void *echo(void *arg)
{
	char c;

	(void)arg;
	while (read(ab[0], &c, 1) == 1)
		if (write(ba[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	long rate = argc > 1 ? atol(argv[1]) : 20000;
	double secs = argc > 2 ? atof(argv[2]) : 10;
	long per_ms = rate / 2000 > 0 ? rate / 2000 : 1;
	struct timespec next, now;
	pthread_t t;
	char c = 'x';

	if (pipe(ab) || pipe(ba) || pthread_create(&t, NULL, echo, NULL))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	next = now;
	for (long ms = 0; ms < (long)(secs * 1000); ms++) {
		for (long i = 0; i < per_ms; i++)
			if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
				return 1;
		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}
