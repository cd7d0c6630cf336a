/*
 * jit-common.h - what the test programs that run generated code share
 * (jit-target.c, jitdump-target.c): the code, CPU time, the perf map line
 * and the pid file.  Included by one program each, so static.
 */
#ifndef FLAMETOP_TESTS_JIT_COMMON_H
#define FLAMETOP_TESTS_JIT_COMMON_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* mov ecx, 0x100000; 1: dec ecx; jnz 1b; ret (x86-64) */
static const unsigned char jit_spin_code[] = {
	0xb9, 0x00, 0x00, 0x10, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
};

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Call fn until this thread has used secs more of CPU time. */
static void spin_for(void (*fn)(void), double secs)
{
	double until = cpu_seconds() + secs;

	while (cpu_seconds() < until)
		fn();
}

/*
 * /tmp/perf-PID.map naming the code at addr name, owned by owner (-1: as
 * made); 0, or -1 with a message.
 */
static int write_perf_map(const void *addr, size_t size, const char *name,
			  int owner)
{
	char path[64], line[128];
	int fd, ok;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	snprintf(line, sizeof(line), "%lx %zx %s\n", (unsigned long)addr,
		 size, name);
	ok = fd >= 0 &&
	     write(fd, line, strlen(line)) == (ssize_t)strlen(line) &&
	     (owner < 0 || fchown(fd, (uid_t)owner, (gid_t)owner) == 0);
	if (!ok)
		perror(path);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Our pid into path; 0, or -1 with a message. */
static int write_pid_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

#endif
