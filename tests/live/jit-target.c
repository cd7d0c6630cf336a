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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "jit-common.h"

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	unsigned char *mem;

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
	memcpy(mem, jit_spin_code, sizeof(jit_spin_code));
	if (write_perf_map(mem, sizeof(jit_spin_code), "jit_planted_spin",
			   atoi(argv[1])) < 0 || write_pid_file(argv[3]) < 0)
		return 1;
	spin_for((void (*)(void))(void *)mem, atof(argv[2]));
	return 0;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "jit-target: x86-64 only\n");
	return 77;
#endif
}
