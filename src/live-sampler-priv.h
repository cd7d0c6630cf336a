/*
 * live-sampler-priv.h - what the sampler's files share: the sampler and
 * its rings, and the helpers one part lends another.  Only
 * src/live-sampler.c, src/live-events.c and src/live-ring.c include it.
 *
 *   live-sampler.c  the target (the command flametop starts, processes,
 *                   CPUs), opening the events and mapping their rings,
 *                   starting, stopping, rate changes;
 *   live-events.c   events by perf's name, the attr they are opened
 *                   with and its step-downs, error messages, notes;
 *   live-ring.c     reading the rings: records merged in time order.
 *
 * live-sampler.c calls the other two, which call neither it nor each
 * other (the lint-layers check reads the objects and fails on a circle).
 */
#ifndef FLAMETOP_LIVE_SAMPLER_PRIV_H
#define FLAMETOP_LIVE_SAMPLER_PRIV_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "live.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		     PERF_SAMPLE_CALLCHAIN)
#define DEFAULT_RING_PAGES 128u
#define DWARF_RING_PAGES 1024u
#define MIN_RING_PAGES 2u
#define SCRATCH_SIZE (65536u + 8u)

struct ring {
	int fd;                      /* the event that owns the mapping */
	void *map;
	size_t map_len;
	struct ring_view view;
	bool hup;                    /* left the epoll set */
	unsigned cpu;
};

struct sampler {
	struct sampler_opts o;
	struct perf_event_attr attr;
	const char *event_name;
	unsigned freq;
	bool kernel_excluded;
	int paranoid;

	unsigned *cpus;
	unsigned ncpus;
	int *fds;                    /* every event */
	size_t nfds, capfds;
	struct ring *rings;          /* one per CPU */
	unsigned nrings;
	int epfd;
	unsigned nhup;

	pid_t child;                 /* LIVE_COMMAND */
	int go_fd, status_fd;        /* the handshake pipes' parent ends */
	bool child_reaped;
	int child_status;
	double child_cpu_ms;         /* user + system, once reaped */

	struct sampler_stats stats;
	char notes[512];
};

static inline long perf_event_open(struct perf_event_attr *a, pid_t pid,
				   int cpu, int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/* live-events.c */
/* The integer in a file such as /proc/sys/kernel/perf_event_paranoid. */
int live_read_int_file(const char *path, int dflt);
/* Add a note for sampler_notes ("; " between notes). */
void sampler_note(struct sampler *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* s->attr for s->o, before any step-down. */
void sampler_setup_attr(struct sampler *s);
/*
 * Open one event with s->attr, stepping down when the kernel refuses (and
 * noting it): cycles to cpu-clock, kernel frames to user only, attr bits
 * old kernels lack.  The fd, or -errno.
 */
int sampler_open_one(struct sampler *s, pid_t pid, unsigned cpu);

#endif
