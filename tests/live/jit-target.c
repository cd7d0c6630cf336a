/*
 * jit-target.c - a program that runs code it generated, as a JIT does,
 * and names it in /tmp/perf-PID.map, for tests/live/test-jit-map.sh.
 *
 * usage: jit-target OWNER_UID CPU_SECONDS PIDFILE
 *
 * Copies a counting loop into anonymous executable memory, writes the map
 * line "START SIZE jit_planted_spin" owned by OWNER_UID, writes its pid to
 * PIDFILE, and calls the loop until the thread has used CPU_SECONDS of CPU
 * time (not wall time: the test holds on a busy machine).  x86-64 only:
 * elsewhere it exits 77.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* mov ecx, 0x100000; 1: dec ecx; jnz 1b; ret */
	static const unsigned char code[] = {
		0xb9, 0x00, 0x00, 0x10, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
	};
	char path[64], line[128];
	void (*fn)(void);
	unsigned char *mem;
	double until;
	FILE *f;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: jit-target OWNER_UID CPU_SECONDS PIDFILE\n");
		return 2;
	}
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memcpy(mem, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	snprintf(line, sizeof(line), "%lx %zx jit_planted_spin\n",
		 (unsigned long)mem, sizeof(code));
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line) ||
	    fchown(fd, (uid_t)atoi(argv[1]), (gid_t)atoi(argv[1])) != 0) {
		perror(path);
		return 1;
	}
	close(fd);
	f = fopen(argv[3], "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0) {
		perror(argv[3]);
		return 1;
	}
	fn = (void (*)(void))(void *)mem;
	until = cpu_seconds() + atof(argv[2]);
	while (cpu_seconds() < until)
		fn();
	return 0;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "jit-target: x86-64 only\n");
	return 77;
#endif
}
