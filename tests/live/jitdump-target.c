/*
 * jitdump-target.c - a program that runs code it generated and names it in
 * a jitdump, as a JIT does, for tests/live/test-jitdump-live.sh.
 *
 * usage: jitdump-target DIR CPU_SECONDS PIDFILE [memfd]
 *
 * Writes DIR/jit-PID.dump and maps it executable (the MMAP record tells the
 * profiler where it is), and names the same code "jit_from_map" in
 * /tmp/perf-PID.map (the dump must win).  Then, spending CPU_SECONDS of
 * this thread's CPU time (not wall time) in each:
 *   1. code loaded at X, named jit_first_code;
 *   2. new code loaded at the same X, named jit_second_code (the address
 *      reused: samples of step 1 keep the first name);
 *   3. that code moved from X to Y (a JIT_CODE_MOVE record): still
 *      jit_second_code.
 * Each record is written before its code runs, with its CLOCK_MONOTONIC
 * time, as runtimes do.  With "memfd" the code lies in a memfd named
 * "doublemapper", as .NET's JIT code does.  x86-64 only: elsewhere it
 * exits 77.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jit-common.h"

static int dump_fd;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put(const void *p, size_t n)
{
	if (write(dump_fd, p, n) != (ssize_t)n) {
		perror("write jitdump");
		exit(1);
	}
}

/* The 16-byte prefix of every record. */
static void prefix(uint32_t id, uint32_t size)
{
	uint64_t t = mono_ns();

	put(&id, 4);
	put(&size, 4);
	put(&t, 8);
}

static void code_load(const void *code, uint64_t size, const char *name,
		      uint64_t index)
{
	uint32_t ids[2] = { (uint32_t)getpid(), (uint32_t)syscall(SYS_gettid) };
	uint64_t f[4] = { (uintptr_t)code, (uintptr_t)code, size, index };
	size_t nl = strlen(name) + 1;

	prefix(0, (uint32_t)(16 + sizeof(ids) + sizeof(f) + nl + size));
	put(ids, sizeof(ids));
	put(f, sizeof(f));
	put(name, nl);
	put(code, size);
}

static void code_move(const void *from, const void *to, uint64_t size,
		      uint64_t index)
{
	uint32_t ids[2] = { (uint32_t)getpid(), (uint32_t)syscall(SYS_gettid) };
	uint64_t f[5] = { (uintptr_t)to, (uintptr_t)from, (uintptr_t)to, size,
			  index };

	prefix(1, (uint32_t)(16 + sizeof(ids) + sizeof(f)));
	put(ids, sizeof(ids));
	put(f, sizeof(f));
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	const unsigned char *code = jit_spin_code;
	const size_t size = sizeof(jit_spin_code);
	struct {
		uint32_t magic, version, size, mach, pad, pid;
		uint64_t time, flags;
	} h = { 0x4A695444, 1, 40, 62, 0, 0, 0, 0 };
	char path[4096];
	unsigned char *mem, *x, *y;
	double secs;

	if (argc != 4 && !(argc == 5 && strcmp(argv[4], "memfd") == 0)) {
		fprintf(stderr, "usage: jitdump-target DIR CPU_SECONDS PIDFILE "
			"[memfd]\n");
		return 2;
	}
	secs = atof(argv[2]);
	if (argc == 5) {
		int mfd = memfd_create("doublemapper", MFD_CLOEXEC);

		if (mfd < 0 || ftruncate(mfd, 4096) != 0) {
			perror("memfd");
			return 1;
		}
		mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			   MAP_SHARED, mfd, 0);
	} else {
		mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	x = mem;
	y = mem + 2048;

	snprintf(path, sizeof(path), "%s/jit-%d.dump", argv[1], (int)getpid());
	dump_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (dump_fd < 0) {
		perror(path);
		return 1;
	}
	h.pid = (uint32_t)getpid();
	h.time = mono_ns();
	put(&h, sizeof(h));
	/* Mapped executable, as runtimes do: the profiler sees the MMAP. */
	if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, dump_fd, 0) ==
	    MAP_FAILED) {
		perror("mmap jitdump");
		return 1;
	}

	memcpy(x, code, size);
	if (write_perf_map(x, size, "jit_from_map", -1) < 0 ||
	    write_pid_file(argv[3]) < 0)
		return 1;

	code_load(x, size, "jit_first_code", 1);
	spin_for((void (*)(void))(void *)x, secs);

	code_load(x, size, "jit_second_code", 2);
	spin_for((void (*)(void))(void *)x, secs);

	memcpy(y, code, size);
	code_move(x, y, size, 2);
	memset(x, 0xcc, size);
	spin_for((void (*)(void))(void *)y, secs);
	return 0;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "jitdump-target: x86-64 only\n");
	return 77;
#endif
}
