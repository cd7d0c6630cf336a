/*
 * live-sampler.c - perf_event_open events, their ring buffers, and the
 * process flametop starts for "-- COMMAND".
 *
 * Events.  One cpu-clock event (hardware cycles on request, where a PMU
 * exists) samples IP, TID, TIME, CPU, PERIOD and the frame-pointer
 * callchain, with sample_id_all so that every side-band record (MMAP2,
 * COMM, FORK, EXIT, LOST) carries its time in a trailer.  Timestamps use
 * CLOCK_MONOTONIC, so the rolling window can be placed against "now".
 *
 *   -a        pid -1, one event per online CPU, one ring each
 *   -p PID    one event per thread x CPU with inherit (threads created
 *             later are followed); the first event of each CPU owns that
 *             CPU's ring and the others are redirected there with
 *             PERF_EVENT_IOC_SET_OUTPUT, which only works within a CPU
 *   command   the child is forked and blocks on a pipe; one event per CPU
 *             with inherit and enable_on_exec; then the pipe lets it exec,
 *             so sampling starts exactly at the exec
 *
 * inherit needs per-CPU events: with cpu -1 the mmap fails with EINVAL.
 *
 * Rate.  For cpu-clock the kernel turns a frequency into a fixed period
 * (ns) when the event is opened; we therefore open cpu-clock with a period
 * (cycles with freq=1).  A rate change opens every event again rather than
 * trusting PERF_EVENT_IOC_PERIOD (see sampler_set_freq).
 *
 * Rings.  (1 + 2^n) pages each, mapped writable: the kernel then never
 * overwrites unread data but drops samples and writes a LOST record.  The
 * read protocol: load data_head with acquire semantics, parse the records
 * between our tail and that head (they stay put until data_tail moves),
 * then store data_tail with release semantics.  Sizes are multiples of 8,
 * so a header never wraps, but a record body may: such a record is copied
 * into a scratch buffer.  A header whose size is below 8 or past the head
 * means the ring is corrupt: its contents are skipped and counted.
 *
 * Order.  Each ring is in time order for its own CPU only, and a sample on
 * one CPU may need the MMAP2 written on another (a thread that mapped a
 * library and migrated).  A drain snapshots every head and merges the
 * rings by timestamp, so side-band records are applied before the samples
 * that follow them in time.
 *
 * POLLHUP.  When a sampled task exits its event reports POLLHUP forever;
 * polling it again would spin.  The fd leaves the epoll set, but its ring
 * is still drained on every call: children that inherited the event keep
 * writing into it.
 */
#include "live.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unwind.h"
#include "util.h"

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

	struct sampler_stats stats;
	char notes[512];

	/* --off-cpu: sched:sched_wakeup beside the switch event (see
	 * setup_wakeups) */
	bool wakeups;
	uint64_t wake_id;            /* its tracepoint id (common_type) */
	unsigned wake_pid_off;       /* the woken tid's offset in its entry */
};

static long perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu,
			    int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static int read_int_file(const char *path, int dflt)
{
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static void add_note(struct sampler *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct sampler *s, const char *fmt, ...)
{
	size_t n = strlen(s->notes);
	va_list ap;

	if (n && n + 2 < sizeof(s->notes)) {
		memcpy(s->notes + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->notes + n, sizeof(s->notes) - n, fmt, ap);
	va_end(ap);
}

/* ---- Small pure helpers ------------------------------------------------ */

static const unsigned rates[] = { 49, 99, 497, 997, 1999, 4999, 9999 };

unsigned live_rate_step(unsigned hz, int dir)
{
	if (dir > 0) {
		for (size_t i = 0; i < ARRAY_SIZE(rates); i++)
			if (rates[i] > hz)
				return rates[i];
		return rates[ARRAY_SIZE(rates) - 1];
	}
	for (size_t i = ARRAY_SIZE(rates); i-- > 0;)
		if (rates[i] < hz)
			return rates[i];
	return rates[0];
}

int live_parse_cpulist(const char *s, unsigned **cpus, unsigned *n)
{
	unsigned *v = NULL;
	size_t cap = 0, k = 0;

	while (*s && *s != '\n') {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*s))
			goto bad;
		a = strtoul(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				goto bad;
			b = strtoul(s, &end, 10);
			s = end;
		}
		if (b < a || b > 1u << 20)
			goto bad;
		for (unsigned long c = a; c <= b; c++) {
			GROW(v, cap, k + 1);
			v[k++] = (unsigned)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			goto bad;
	}
	if (!k)
		goto bad;
	*cpus = v;
	*n = (unsigned)k;
	return 0;
bad:
	free(v);
	return -1;
}

void live_explain_errno(int err, const char *what, int paranoid, char *buf,
			size_t cap)
{
	static const char fix[] =
		"run as root, lower kernel.perf_event_paranoid "
		"(sysctl kernel.perf_event_paranoid=%d), or grant the binary "
		"CAP_PERFMON (setcap cap_perfmon,cap_ipc_lock,cap_sys_ptrace,"
		"cap_syslog=ep flametop)";
	char f[300];
	bool system_wide = strcmp(what, "system-wide") == 0;

	snprintf(f, sizeof(f), fix, system_wide ? 0 : 1);
	switch (err) {
	case EACCES:
	case EPERM:
		if (paranoid >= 3)
			snprintf(buf, cap, "unprivileged perf events are disabled "
				 "(kernel.perf_event_paranoid=%d): %s", paranoid, f);
		else if (system_wide)
			snprintf(buf, cap, "no permission for system-wide "
				 "sampling (kernel.perf_event_paranoid=%d): %s",
				 paranoid, f);
		else if (strstr(what, "another user"))
			snprintf(buf, cap, "no permission to sample %s: run as "
				 "root or as its owner, or grant the binary "
				 "CAP_PERFMON (setcap cap_perfmon,cap_ipc_lock,"
				 "cap_sys_ptrace,cap_syslog=ep flametop)", what);
		else if (err == EPERM && paranoid <= 1)
			snprintf(buf, cap, "perf_event_open is refused for %s "
				 "(EPERM; a container's seccomp policy?): %s", what,
				 f);
		else
			snprintf(buf, cap, "no permission to sample %s "
				 "(kernel.perf_event_paranoid=%d): %s", what,
				 paranoid, f);
		return;
	case ESRCH:
		snprintf(buf, cap, "%s does not exist", what);
		return;
	case EMFILE:
	case ENFILE: {
		struct rlimit rl;
		char lim[32] = "";

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
			snprintf(lim, sizeof(lim), " %llu",
				 (unsigned long long)rl.rlim_cur);
		snprintf(buf, cap, "too many open files sampling %s: one event "
			 "per thread and CPU exceeds the limit (ulimit -n%s%s); "
			 "raise it or sample fewer threads", what, lim,
			 err == ENFILE ? ", or fs.file-max" : "");
		return;
	}
	case ENOSYS:
		snprintf(buf, cap, "this kernel has no perf events "
			 "(perf_event_open is not available)");
		return;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		snprintf(buf, cap, "the event is not supported on this machine "
			 "(%s)", strerror(err));
		return;
	case EINVAL:
		snprintf(buf, cap, "the kernel rejected the event for %s "
			 "(EINVAL): a rate above kernel.perf_event_max_sample_"
			 "rate, or an old kernel", what);
		return;
	default:
		snprintf(buf, cap, "cannot sample %s: perf_event_open: %s", what,
			 strerror(err));
		return;
	}
}

/* ---- Ring reading ------------------------------------------------------ */

uint64_t ring_record_time(const struct perf_event_header *h,
			  uint64_t sample_type)
{
	const unsigned char *b = (const unsigned char *)h;
	size_t off;
	uint64_t t;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (!(sample_type & PERF_SAMPLE_TIME))
			return 0;
		off = sizeof(*h);
		if (sample_type & PERF_SAMPLE_IDENTIFIER)
			off += 8;
		if (sample_type & PERF_SAMPLE_IP)
			off += 8;
		if (sample_type & PERF_SAMPLE_TID)
			off += 8;
	} else {
		size_t trailer = 0;

		if (h->type >= PERF_RECORD_MAX ||
		    !(sample_type & PERF_SAMPLE_TIME))
			return 0;
		/* The sample_id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
		if (sample_type & PERF_SAMPLE_TID)
			trailer += 8;
		trailer += 8;
		if (sample_type & PERF_SAMPLE_ID)
			trailer += 8;
		if (sample_type & PERF_SAMPLE_STREAM_ID)
			trailer += 8;
		if (sample_type & PERF_SAMPLE_CPU)
			trailer += 8;
		if (sample_type & PERF_SAMPLE_IDENTIFIER)
			trailer += 8;
		if (h->size < sizeof(*h) + trailer)
			return 0;
		off = h->size - trailer + (sample_type & PERF_SAMPLE_TID ? 8 : 0);
	}
	if (off + 8 > h->size)
		return 0;
	memcpy(&t, b + off, 8);
	return t;
}

/* Point r->cur at the record at r->pos, copying it if it wraps. */
static bool ring_load(struct ring_view *r, uint64_t sample_type)
{
	struct perf_event_header h;
	uint64_t off, mask = r->size - 1;

	r->cur = NULL;
	if (r->pos >= r->end)
		return false;
	off = r->pos & mask;
	memcpy(&h, r->data + off, sizeof(h));
	if (h.size < sizeof(h) || h.size > r->end - r->pos || (h.size & 7) ||
	    r->end - r->pos > r->size) {
		r->bad = true;
		r->pos = r->end;
		return false;
	}
	if (off + h.size > r->size) {
		uint64_t first = r->size - off;

		memcpy(r->scratch, r->data + off, first);
		memcpy(r->scratch + first, r->data, h.size - first);
		r->cur = (const struct perf_event_header *)(void *)r->scratch;
	} else {
		r->cur = (const struct perf_event_header *)(const void *)
			 (r->data + off);
	}
	r->cur_time = ring_record_time(r->cur, sample_type);
	return true;
}

bool ring_begin(struct ring_view *r, uint64_t sample_type)
{
	r->end = __atomic_load_n(r->head, __ATOMIC_ACQUIRE);
	r->pos = *r->tail;
	r->bad = false;
	return ring_load(r, sample_type);
}

bool ring_next(struct ring_view *r, uint64_t sample_type)
{
	if (!r->cur)
		return false;
	r->pos += r->cur->size;
	return ring_load(r, sample_type);
}

void ring_end(struct ring_view *r)
{
	r->cur = NULL;
	__atomic_store_n(r->tail, r->pos, __ATOMIC_RELEASE);
}

/* ---- Events by name --------------------------------------------------- */

struct named_event {
	const char *name, *alias;
	uint32_t type;
	uint64_t config;
};

static const struct named_event named_events[] = {
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", "cpu-cycles", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_MISSES },
};

#define TRACEFS "/sys/kernel/tracing"

/*
 * The tracepoint id of sub:name from tracefs; when tracefs is not mounted
 * and we are root, mount it (perf does the same).  0 or -1 + err.
 */
static int tracepoint_id(const char *sub, const char *name, uint64_t *id,
			 char *err, size_t errcap)
{
	char path[320];
	FILE *f;
	unsigned long long v;
	int ok;

	if (access(TRACEFS "/events", F_OK) != 0) {
		if (geteuid() == 0 && mount("tracefs", TRACEFS, "tracefs", 0,
					    NULL) != 0 && errno != EBUSY) {
			snprintf(err, errcap, "-e %s:%s: tracefs is not "
				 "mounted at " TRACEFS " and mounting it "
				 "failed (%s)", sub, name, strerror(errno));
			return -1;
		}
		if (access(TRACEFS "/events", F_OK) != 0) {
			snprintf(err, errcap, "-e %s:%s: tracefs is not "
				 "mounted; as root: mount -t tracefs nodev "
				 TRACEFS, sub, name);
			return -1;
		}
	}
	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sub, name);
	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			snprintf(err, errcap, "-e %s:%s: no permission to read "
				 "%s; run as root (or make tracefs readable: "
				 "chmod -R o+rX " TRACEFS ")", sub, name, path);
		else
			snprintf(err, errcap, "-e %s:%s: no such tracepoint "
				 "(see " TRACEFS "/available_events, or "
				 "perf list tracepoint)", sub, name);
		return -1;
	}
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok) {
		snprintf(err, errcap, "-e %s:%s: cannot read %s", sub, name,
			 path);
		return -1;
	}
	*id = v;
	return 0;
}

int live_event_parse(const char *name, struct live_event *ev, char *err,
		     size_t errcap)
{
	const char *colon;

	memset(ev, 0, sizeof(*ev));
	if (!name || !*name)
		name = "cpu-clock";
	for (size_t i = 0; i < ARRAY_SIZE(named_events); i++) {
		const struct named_event *n = &named_events[i];

		if (strcmp(name, n->name) != 0 &&
		    !(n->alias && strcmp(name, n->alias) == 0))
			continue;
		snprintf(ev->name, sizeof(ev->name), "%s", n->name);
		ev->type = n->type;
		ev->config = n->config;
		ev->clock = n->type == PERF_TYPE_SOFTWARE &&
			    (n->config == PERF_COUNT_SW_CPU_CLOCK ||
			     n->config == PERF_COUNT_SW_TASK_CLOCK);
		ev->counts_every = n->type == PERF_TYPE_SOFTWARE && !ev->clock;
		return 0;
	}
	colon = strchr(name, ':');
	if (colon && colon > name && colon[1] && !strchr(colon + 1, ':') &&
	    !strchr(name, '/') && strlen(name) < sizeof(ev->name)) {
		char sub[128];
		size_t k = (size_t)(colon - name);

		if (k >= sizeof(sub))
			k = sizeof(sub) - 1;
		memcpy(sub, name, k);
		sub[k] = '\0';
		if (tracepoint_id(sub, colon + 1, &ev->config, err, errcap) < 0)
			return -1;
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		ev->type = PERF_TYPE_TRACEPOINT;
		ev->counts_every = true;
		return 0;
	}
	snprintf(err, errcap, "-e: unknown event '%s' (software: cpu-clock, "
		 "task-clock, page-faults, major-faults, minor-faults, "
		 "context-switches, cpu-migrations; hardware: cycles, "
		 "instructions, cache-misses, branch-misses; tracepoints: "
		 "SUBSYSTEM:NAME)", name);
	return -1;
}

void live_event_unit(const struct live_event *ev, char *buf, size_t cap)
{
	if (ev->clock)
		snprintf(buf, cap, "CPU");
	else if (ev->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, cap, "%s events", ev->name);
	else
		snprintf(buf, cap, "%s", ev->name);
}

/* ---- Opening events ---------------------------------------------------- */

static void setup_attr(struct sampler *s)
{
	struct perf_event_attr *a = &s->attr;
	int max_stack = read_int_file("/proc/sys/kernel/perf_event_max_stack",
				      127);

	memset(a, 0, sizeof(*a));
	a->size = PERF_ATTR_SIZE_VER5;
	a->type = s->o.event.type;
	a->config = s->o.event.config;
	if (s->o.period) {
		a->sample_period = s->o.period;
	} else if (s->o.event.clock) {
		a->sample_period = 1000000000ull / s->freq;
	} else if (s->o.event.counts_every && !s->o.freq_given) {
		a->sample_period = 1;
	} else {
		a->freq = 1;
		a->sample_freq = s->freq;
	}
	s->event_name = s->o.event.name;
	a->sample_type = SAMPLE_TYPE;
	if (s->o.dwarf_stack && s->o.stacks != STACKS_KERNEL) {
		/* User registers and stack for unwind.h; the user part of
		 * the callchain would only repeat it (perf does the same). */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = UNWIND_REGS_MASK;
		a->sample_stack_user = s->o.dwarf_stack;
		a->exclude_callchain_user = 1;
	}
	a->context_switch = s->o.context_switch;
	a->disabled = 1;
	a->sample_id_all = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->exclude_guest = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	if (max_stack < 1)
		max_stack = 1;
	if (s->o.max_stack && (int)s->o.max_stack < max_stack)
		max_stack = (int)s->o.max_stack;
	a->sample_max_stack = (uint16_t)(max_stack > 65535 ? 65535 : max_stack);
	a->watermark = 1;
	if (s->o.stacks == STACKS_USER) {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		a->exclude_callchain_kernel = 1;
	} else if (s->o.stacks == STACKS_KERNEL) {
		a->exclude_user = 1;
		a->exclude_callchain_user = 1;
	}
	if (s->o.target == LIVE_COMMAND) {
		a->inherit = 1;
		a->enable_on_exec = 1;
	} else if (s->o.target == LIVE_PIDS) {
		a->inherit = 1;
	}
	a->wakeup_watermark = (uint32_t)(s->o.ring_pages * 4096u / 4);
}

/* What a message calls the target of an open on pid. */
static void target_name(const struct sampler *s, pid_t pid, int err,
			char *buf, size_t cap)
{
	struct stat st;
	char path[64];

	switch (s->o.target) {
	case LIVE_ALL_CPUS:
		snprintf(buf, cap, "system-wide");
		return;
	case LIVE_COMMAND:
		snprintf(buf, cap, "the command '%s'", s->o.command[0]);
		return;
	default:
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if ((err == EACCES || err == EPERM) && stat(path, &st) == 0 &&
		    st.st_uid != geteuid())
			snprintf(buf, cap, "process %d (owned by another user)",
				 (int)pid);
		else
			snprintf(buf, cap, "process %d", (int)pid);
		return;
	}
}

/*
 * Open one event, stepping down when the kernel refuses: cycles → cpu-clock
 * (no PMU), kernel frames → user only (paranoid), then attr bits that old
 * kernels lack.  Returns the fd or -errno.
 */
static int open_one(struct sampler *s, pid_t pid, unsigned cpu)
{
	for (;;) {
		long fd = perf_event_open(&s->attr, pid, (int)cpu, -1,
					  PERF_FLAG_FD_CLOEXEC);
		int e = errno;

		if (fd >= 0)
			return (int)fd;
		if (s->attr.type == PERF_TYPE_HARDWARE &&
		    s->attr.config == PERF_COUNT_HW_CPU_CYCLES &&
		    (e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == EINVAL)) {
			char unused[8];

			live_event_parse("cpu-clock", &s->o.event, unused,
					 sizeof(unused));
			s->attr.type = PERF_TYPE_SOFTWARE;
			s->attr.config = PERF_COUNT_SW_CPU_CLOCK;
			s->attr.freq = 0;
			s->attr.sample_period = s->o.period ? s->o.period
					      : 1000000000ull / s->freq;
			s->event_name = s->o.event.name;
			add_note(s, "hardware cycles are not available here "
				    "(%s); sampling cpu-clock", strerror(e));
			continue;
		}
		if ((e == EACCES || e == EPERM) && !s->attr.exclude_kernel &&
		    s->o.target != LIVE_ALL_CPUS && s->o.stacks != STACKS_KERNEL) {
			s->attr.exclude_kernel = 1;
			s->attr.exclude_hv = 1;
			s->attr.exclude_callchain_kernel = 1;
			s->kernel_excluded = true;
			add_note(s, "kernel frames unavailable "
				    "(kernel.perf_event_paranoid=%d); syscall time "
				    "not sampled", s->paranoid);
			continue;
		}
		if (e == EOVERFLOW && s->attr.sample_max_stack > 1) {
			s->attr.sample_max_stack /= 2;
			continue;
		}
		if (e == EINVAL && s->attr.use_clockid) {
			s->attr.use_clockid = 0;
			s->attr.clockid = 0;
			continue;
		}
		if (e == EINVAL && s->attr.sample_max_stack) {
			s->attr.sample_max_stack = 0;
			continue;
		}
		return -e;
	}
}

static void push_fd(struct sampler *s, int fd)
{
	GROW(s->fds, s->capfds, s->nfds + 1);
	s->fds[s->nfds++] = fd;
}

/* Map a ring for fd; halve the size while the kernel says EPERM. */
static int map_ring(struct sampler *s, struct ring *r, int fd, char *err,
		    size_t errcap)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned pages = s->o.ring_pages;
	void *m;

	for (;;) {
		size_t len = (size_t)(pages + 1) * (size_t)page;

		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED) {
			struct perf_event_mmap_page *pc = m;

			r->map = m;
			r->map_len = len;
			r->fd = fd;
			r->view.data = (unsigned char *)m + (pc->data_offset ?
							      pc->data_offset :
							      (uint64_t)page);
			r->view.size = pc->data_size ? pc->data_size :
				       (uint64_t)pages * (uint64_t)page;
			r->view.head = (volatile uint64_t *)(void *)&pc->data_head;
			r->view.tail = (volatile uint64_t *)(void *)&pc->data_tail;
			r->view.scratch = xmalloc(SCRATCH_SIZE);
			return 0;
		}
		if (errno == EPERM && pages > MIN_RING_PAGES) {
			pages /= 2;
			continue;
		}
		if (errno == EPERM)
			snprintf(err, errcap, "cannot map the sample buffers: "
				 "limited by kernel.perf_event_mlock_kb and "
				 "RLIMIT_MEMLOCK (ulimit -l); run as root or raise "
				 "them");
		else
			snprintf(err, errcap, "cannot map the sample buffer: %s",
				 strerror(errno));
		return -1;
	}
}

static int online_cpus(struct sampler *s, char *err, size_t errcap)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char line[4096];

	if (f && fgets(line, sizeof(line), f) &&
	    live_parse_cpulist(line, &s->cpus, &s->ncpus) == 0) {
		fclose(f);
		return 0;
	}
	if (f)
		fclose(f);
	{
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1) {
			snprintf(err, errcap, "cannot tell which CPUs are online");
			return -1;
		}
		s->cpus = xcalloc((size_t)n, sizeof(*s->cpus));
		for (long i = 0; i < n; i++)
			s->cpus[i] = (unsigned)i;
		s->ncpus = (unsigned)n;
	}
	return 0;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The threads of pid, from /proc/PID/task; 0 or -errno. */
static int list_tasks(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	size_t cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	*tids = NULL;
	*n = 0;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		GROW(*tids, cap, *n + 1);
		(*tids)[(*n)++] = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	if (!*n)
		return -ESRCH;
	return 0;
}

/*
 * The offset of field NAME (an int) in a tracepoint's entry, from its
 * format file ("field:pid_t pid;	offset:24;	size:4;"); -1 if absent.
 */
static int tracepoint_field(const char *sub, const char *tp, const char *name)
{
	char path[320], line[256], want[80];
	FILE *f;
	int off = -1;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/format", sub, tp);
	snprintf(want, sizeof(want), " %s;", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *at = strstr(line, want), *o;
		unsigned v, size;

		if (!at || !strstr(line, "field:") || !(o = strstr(at, "offset:")))
			continue;
		if (sscanf(o, "offset:%u; size:%u;", &v, &size) == 2 &&
		    size == 4 && v < 4096)
			off = (int)v;
		break;
	}
	fclose(f);
	return off;
}

/* The attr of the sched:sched_wakeup event that goes with s->attr. */
static struct perf_event_attr wake_attr(const struct sampler *s)
{
	struct perf_event_attr a = s->attr;

	a.type = PERF_TYPE_TRACEPOINT;
	a.config = s->wake_id;
	a.freq = 0;
	a.sample_period = 1;
	a.context_switch = 0;
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 0;
	a.exclude_kernel = 0;           /* the tracepoint fires in the kernel */
	a.inherit = 0;                  /* opened per CPU, for every task */
	a.enable_on_exec = 0;
	/* A command's events start with its exec, without sampler_start's
	 * ioctls: this one runs from the start (no thread of the command
	 * has blocked before, so its wake-ups match nothing). */
	a.disabled = s->o.target != LIVE_COMMAND;
	a.exclude_callchain_kernel = 1; /* the waker's stack is not wanted */
	a.exclude_callchain_user = 1;
	if (a.sample_type & PERF_SAMPLE_STACK_USER)
		a.sample_stack_user = 8;
	return a;
}

/*
 * --off-cpu: a thread blocks from its switch-out until it is woken; after
 * that it waits for a CPU, which is not blocking (a preempted thread's wait
 * counts nothing either).  The wake-up time comes from sched:sched_wakeup,
 * sampled on every CPU for every task with its raw entry (the woken tid is
 * in it; the sample's tid is the waker's, and the kernel gives the event
 * to the waker only).  That needs privileges (perf_event_paranoid -1 or
 * CAP_PERFMON) and tracefs for the id: without them off-CPU time runs to
 * the switch-in, with a note.
 */
static void setup_wakeups(struct sampler *s)
{
	char err[256];
	struct perf_event_attr a;
	int off;
	long fd;

	if (!s->o.context_switch)
		return;
	if (tracepoint_id("sched", "sched_wakeup", &s->wake_id, err,
			  sizeof(err)) < 0) {
		add_note(s, "off-CPU time includes the wait for a CPU after "
			    "wake-up (sched:sched_wakeup: %s)", err);
		return;
	}
	off = tracepoint_field("sched", "sched_wakeup", "pid");
	if (off < 0) {
		add_note(s, "off-CPU time includes the wait for a CPU after "
			    "wake-up (no pid field in sched:sched_wakeup's "
			    "format)");
		return;
	}
	s->attr.sample_type |= PERF_SAMPLE_RAW;
	a = wake_attr(s);
	fd = perf_event_open(&a, -1, (int)(s->ncpus ? s->cpus[0] : 0), -1,
			     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		s->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_RAW;
		add_note(s, "off-CPU time includes the wait for a CPU after "
			    "wake-up (sched:sched_wakeup: %s; as root, or with "
			    "sysctl kernel.perf_event_paranoid=-1, it does not)",
			 strerror(errno));
		return;
	}
	close((int)fd);
	s->wake_pid_off = (unsigned)off;
	s->wakeups = true;
}

/* Keep fd and send its records to ring r. */
static int join_ring(struct sampler *s, struct ring *r, int fd, char *err,
		     size_t errcap)
{
	push_fd(s, fd);
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) != 0) {
		snprintf(err, errcap, "cannot share the sample buffer of CPU "
			 "%u: %s", r->cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* Open the events of one CPU for the task pid, owning or joining ring r. */
static int open_on_cpu(struct sampler *s, struct ring *r, pid_t pid,
		       unsigned cpu, bool must, char *err, size_t errcap)
{
	int fd = open_one(s, pid, cpu);

	if (fd < 0) {
		char what[128];

		if (!must && fd == -ESRCH)
			return 1;   /* a thread that just exited */
		target_name(s, pid, -fd, what, sizeof(what));
		if (s->attr.type == PERF_TYPE_HARDWARE &&
		    (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV))
			snprintf(err, errcap, "-e %s: this machine has no "
				 "hardware counter for it (%s; a virtual machine "
				 "often has none); software events work: "
				 "cpu-clock, page-faults, context-switches, ...",
				 s->event_name, strerror(-fd));
		else
			live_explain_errno(-fd, what, s->paranoid, err, errcap);
		return -1;
	}
	if (r->fd < 0) {
		push_fd(s, fd);
		r->cpu = cpu;
		if (map_ring(s, r, fd, err, errcap) < 0)
			return -1;
		s->nrings++;
	} else if (join_ring(s, r, fd, err, errcap) < 0) {
		return -1;
	}
	if (s->wakeups && r->fd == fd) {
		/* Once per CPU, for every task: the kernel hands a wake-up
		 * only to the waker's events, not the woken task's. */
		struct perf_event_attr a = wake_attr(s);
		long wfd = perf_event_open(&a, -1, (int)cpu, -1,
					   PERF_FLAG_FD_CLOEXEC);

		if (wfd < 0) {
			live_explain_errno(errno, "sched:sched_wakeup on a CPU",
					   s->paranoid, err, errcap);
			return -1;
		}
		if (join_ring(s, r, (int)wfd, err, errcap) < 0)
			return -1;
	}
	if (s->o.wall_clock) {
		/* --wall: cpu-clock beside the switch event, in its ring, with
		 * the attr bits the main event stepped down to. */
		struct perf_event_attr a = s->attr;
		long cfd;

		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.freq = 0;
		a.sample_period = 1000000000ull / s->freq;
		a.context_switch = 0;
		a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 0;
		cfd = perf_event_open(&a, pid, (int)cpu, -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (cfd < 0) {
			char what[128];

			if (!must && errno == ESRCH)
				return 1;
			target_name(s, pid, errno, what, sizeof(what));
			live_explain_errno(errno, what, s->paranoid, err,
					   errcap);
			return -1;
		}
		if (join_ring(s, r, (int)cfd, err, errcap) < 0)
			return -1;
	}
	return 0;
}

/* ---- The command ------------------------------------------------------- */

static int fork_command(struct sampler *s, char *err, size_t errcap)
{
	int go[2], st[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) != 0)
		goto fail;
	if (pipe2(st, O_CLOEXEC) != 0) {
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(go[0]);
		close(go[1]);
		close(st[0]);
		close(st[1]);
		goto fail;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(st[0]);
		if (s->o.command_quiet) {
			int nul = open("/dev/null", O_RDWR);

			if (nul >= 0) {
				dup2(nul, 0);
				dup2(nul, 1);
				dup2(nul, 2);
				if (nul > 2)
					close(nul);
			}
		} else if (s->o.command_out_to_err) {
			dup2(2, 1);
		}
		signal(SIGPIPE, SIG_DFL);
		/* If flametop dies without closing properly, so does the command. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(s->o.command[0], s->o.command);
		e = errno;
		if (write(st[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(st[1]);
	s->child = pid;
	s->go_fd = go[1];
	s->status_fd = st[0];
	return 0;
fail:
	snprintf(err, errcap, "cannot start '%s': %s", s->o.command[0],
		 strerror(errno));
	return -1;
}

static void reap_child(struct sampler *s, bool block)
{
	int status;
	pid_t r;

	if (s->child <= 0 || s->child_reaped)
		return;
	do
		r = waitpid(s->child, &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == s->child) {
		s->child_reaped = true;
		s->child_status = status;
	} else if (r < 0) {
		s->child_reaped = true;
		s->child_status = 0;
	}
}

bool sampler_child_done(struct sampler *s, int *status)
{
	reap_child(s, false);
	if (s->child_reaped && status)
		*status = s->child_status;
	return s->child_reaped;
}

int sampler_child_wait(struct sampler *s)
{
	reap_child(s, true);
	return s->child_status;
}

/* ---- Open, start, close ------------------------------------------------ */

/*
 * The threads of root and of every process descended from it (from the
 * parent pids in /proc/PID/stat); 0, or -ESRCH when root is gone.
 */
static int list_tree(pid_t root, pid_t **tids, size_t *n)
{
	pid_t *pid = NULL, *ppid = NULL, *tree = NULL;
	size_t np = 0, cap = 0, nt = 0, capt = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	int rc = 0;

	*tids = NULL;
	*n = 0;
	while (d && (e = readdir(d)) != NULL) {
		char path[64], buf[512], *close_paren;
		ssize_t len;
		int fd;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", atoi(e->d_name));
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "pid (comm) state ppid ...": comm may hold spaces and ')'. */
		close_paren = strrchr(buf, ')');
		if (!close_paren || strlen(close_paren) < 5)
			continue;
		GROW(pid, cap, np + 1);
		ppid = xreallocarray(ppid, cap, sizeof(*ppid));
		pid[np] = (pid_t)atoi(e->d_name);
		ppid[np++] = (pid_t)atoi(close_paren + 4);
	}
	if (d)
		closedir(d);
	GROW(tree, capt, 1);
	tree[nt++] = root;
	/* Breadth first: the children of every process found so far. */
	for (size_t k = 0; k < nt; k++)
		for (size_t i = 0; i < np; i++)
			if (ppid[i] == tree[k] && pid[i] != root) {
				GROW(tree, capt, nt + 1);
				tree[nt++] = pid[i];
			}
	for (size_t k = 0; k < nt; k++) {
		pid_t *t = NULL;
		size_t m = 0, c = *n;

		if (list_tasks(tree[k], &t, &m) < 0) {
			if (k == 0)
				rc = -ESRCH;
			continue;
		}
		*tids = xreallocarray(*tids, c + m ? c + m : 1, sizeof(**tids));
		memcpy(*tids + c, t, m * sizeof(*t));
		*n = c + m;
		free(t);
	}
	free(pid);
	free(ppid);
	free(tree);
	return rc;
}

/* Events on every task of root's tree (a rate change: see open_events). */
static int open_task_tree(struct sampler *s, pid_t root, char *err, size_t errcap)
{
	pid_t *tids;
	size_t n;
	int rc = 0;

	list_tree(root, &tids, &n);
	for (unsigned i = 0; i < s->ncpus && rc >= 0; i++)
		for (size_t t = 0; t < n && rc >= 0; t++)
			rc = open_on_cpu(s, &s->rings[i], tids[t], s->cpus[i],
					 false, err, errcap);
	free(tids);
	return rc < 0 ? -1 : 0;
}

/* Pack the rings in use at the front and wait on them with epoll. */
static int finish_rings(struct sampler *s, char *err, size_t errcap)
{
	unsigned k = 0;

	for (unsigned i = 0; i < s->ncpus; i++)
		if (s->rings[i].fd >= 0)
			s->rings[k++] = s->rings[i];
	s->nrings = k;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		snprintf(err, errcap, "epoll: %s", strerror(errno));
		return -1;
	}
	for (unsigned i = 0; i < s->nrings; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		ev.data.u32 = i;
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->rings[i].fd, &ev) != 0) {
			snprintf(err, errcap, "epoll: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Open the events of the target and map their rings (s->rings has ncpus
 * free slots).  reopen: the command runs already and -p's processes may
 * have new threads and children, so the events go on every task of their
 * trees instead.  0 or -1 + err.
 */
static int open_events(struct sampler *s, bool reopen, char *err,
		       size_t errcap)
{
	int rc = 0;

	switch (s->o.target) {
	case LIVE_ALL_CPUS:
		for (unsigned i = 0; i < s->ncpus && rc == 0; i++)
			rc = open_on_cpu(s, &s->rings[i], -1, s->cpus[i], true,
					 err, errcap);
		break;
	case LIVE_COMMAND:
		if (!s->o.command || !s->o.command[0]) {
			snprintf(err, errcap, "no command to run");
			return -1;
		}
		if (reopen) {
			rc = open_task_tree(s, s->child, err, errcap);
			break;
		}
		if (fork_command(s, err, errcap) < 0)
			return -1;
		for (unsigned i = 0; i < s->ncpus && rc == 0; i++)
			rc = open_on_cpu(s, &s->rings[i], s->child, s->cpus[i],
					 true, err, errcap);
		break;
	case LIVE_PIDS:
		for (size_t p = 0; reopen && p < s->o.npids && rc == 0; p++)
			rc = open_task_tree(s, s->o.pids[p], err, errcap);
		for (size_t p = 0; !reopen && p < s->o.npids && rc == 0; p++) {
			pid_t *tids = NULL;
			size_t ntids = 0;
			int e = list_tasks(s->o.pids[p], &tids, &ntids);

			if (e < 0) {
				char what[64];

				snprintf(what, sizeof(what), "process %d",
					 (int)s->o.pids[p]);
				live_explain_errno(-e, what, s->paranoid, err, errcap);
				rc = -1;
				break;
			}
			for (unsigned i = 0; i < s->ncpus && rc == 0; i++)
				for (size_t t = 0; t < ntids && rc >= 0; t++)
					rc = open_on_cpu(s, &s->rings[i], tids[t],
							 s->cpus[i], tids[t] ==
							 s->o.pids[p], err, errcap);
			if (rc > 0)
				rc = 0;
			free(tids);
		}
		break;
	default:
		snprintf(err, errcap, "no live target");
		return -1;
	}
	if (rc < 0)
		return -1;
	return finish_rings(s, err, errcap);
}

struct sampler *sampler_open(const struct sampler_opts *o, char *err,
			     size_t errcap)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	unsigned max_rate;

	s->o = *o;
	s->epfd = -1;
	s->go_fd = s->status_fd = -1;
	if (!s->o.ring_pages || (s->o.ring_pages & (s->o.ring_pages - 1)))
		s->o.ring_pages = DEFAULT_RING_PAGES;
	/* A DWARF sample is the whole stack copy: rings of 4 MiB or more. */
	if (s->o.dwarf_stack && s->o.ring_pages < DWARF_RING_PAGES)
		s->o.ring_pages = DWARF_RING_PAGES;
	s->paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid",
				    -100);
	if (s->paranoid == -100 &&
	    access("/proc/sys/kernel/perf_event_paranoid", F_OK) != 0) {
		snprintf(err, errcap, "this kernel has no perf events "
			 "(no /proc/sys/kernel/perf_event_paranoid)");
		goto fail;
	}
	if (!s->o.event.name[0] &&
	    live_event_parse("cpu-clock", &s->o.event, err, errcap) < 0)
		goto fail;
	s->freq = o->freq ? o->freq : 99;
	max_rate = (unsigned)read_int_file(
		"/proc/sys/kernel/perf_event_max_sample_rate", 100000);
	if (max_rate && s->freq > max_rate) {
		add_note(s, "%u Hz is above kernel.perf_event_max_sample_rate; "
			    "sampling at %u Hz", s->freq, max_rate);
		s->freq = max_rate;
	}
	raise_nofile();
	if (online_cpus(s, err, errcap) < 0)
		goto fail;
	s->rings = xcalloc(s->ncpus, sizeof(*s->rings));
	for (unsigned i = 0; i < s->ncpus; i++)
		s->rings[i].fd = -1;
	setup_attr(s);
	setup_wakeups(s);
	if (open_events(s, false, err, errcap) < 0)
		goto fail;
	return s;
fail:
	sampler_close(s);
	return NULL;
}

int sampler_start(struct sampler *s, char *err, size_t errcap)
{
	if (s->o.target == LIVE_COMMAND) {
		int e = 0;
		ssize_t n;

		if (write(s->go_fd, "g", 1) != 1) {
			snprintf(err, errcap, "cannot start '%s': %s",
				 s->o.command[0], strerror(errno));
			return -1;
		}
		close(s->go_fd);
		s->go_fd = -1;
		do
			n = read(s->status_fd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		close(s->status_fd);
		s->status_fd = -1;
		if (n == (ssize_t)sizeof(e)) {
			reap_child(s, true);
			snprintf(err, errcap, "cannot run '%s': %s",
				 s->o.command[0], strerror(e));
			return -1;
		}
		return 0;   /* enable_on_exec did the rest */
	}
	for (size_t i = 0; i < s->nfds; i++)
		if (ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0) != 0) {
			snprintf(err, errcap, "cannot enable sampling: %s",
				 strerror(errno));
			return -1;
		}
	return 0;
}

/* Disable, unmap and close every event (closing one also ends the
 * events its tasks' children inherited from it). */
static void close_events(struct sampler *s)
{
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	for (unsigned i = 0; s->rings && i < s->ncpus; i++) {
		if (s->rings[i].map)
			munmap(s->rings[i].map, s->rings[i].map_len);
		free(s->rings[i].view.scratch);
		memset(&s->rings[i], 0, sizeof(s->rings[i]));
		s->rings[i].fd = -1;
	}
	for (size_t i = 0; i < s->nfds; i++)
		close(s->fds[i]);
	s->nfds = 0;
	s->nrings = 0;
	s->nhup = 0;
	if (s->epfd >= 0)
		close(s->epfd);
	s->epfd = -1;
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	close_events(s);
	if (s->go_fd >= 0)
		close(s->go_fd);   /* a command not started reads EOF and exits */
	if (s->status_fd >= 0)
		close(s->status_fd);
	if (s->child > 0 && !s->child_reaped) {
		reap_child(s, false);
		if (!s->child_reaped) {
			kill(s->child, SIGTERM);
			for (int i = 0; i < 100 && !s->child_reaped; i++) {
				struct timespec ts = { 0, 10000000 };

				nanosleep(&ts, NULL);
				reap_child(s, false);
			}
			if (!s->child_reaped) {
				kill(s->child, SIGKILL);
				reap_child(s, true);
			}
		}
	}
	free(s->rings);
	free(s->fds);
	free(s->cpus);
	free(s);
}

/* ---- Running ----------------------------------------------------------- */

unsigned sampler_set_freq(struct sampler *s, unsigned hz, sampler_record_fn fn,
			  void *ctx, char *err, size_t errcap)
{
	unsigned max_rate = (unsigned)read_int_file(
		"/proc/sys/kernel/perf_event_max_sample_rate", 100000);
	unsigned old = s->freq;

	err[0] = '\0';
	if (sampler_fixed_period(s)) {
		snprintf(err, errcap, "the rate is fixed: every %llu %s event%s",
			 (unsigned long long)s->attr.sample_period,
			 s->event_name, s->attr.sample_period == 1 ? "" : "s");
		return s->freq;
	}
	if (hz < 1)
		hz = 1;
	if (max_rate && hz > max_rate)
		hz = max_rate;
	/*
	 * PERF_EVENT_IOC_PERIOD is not to be trusted here: on a running
	 * cpu-clock event the new period may not take effect, or the samples'
	 * PERIOD field may keep the old one, and events inherited by tasks
	 * started since never see it.  So: stop, hand out what the rings
	 * hold, and open every event again at the new rate.
	 */
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	sampler_drain(s, fn, ctx);
	close_events(s);
	for (int attempt = 0; attempt < 2; attempt++) {
		s->freq = attempt ? old : hz;
		if (s->attr.freq)
			s->attr.sample_freq = s->freq;
		else
			s->attr.sample_period = 1000000000ull / s->freq;
		s->attr.enable_on_exec = 0;   /* the command runs already */
		s->attr.disabled = 1;
		if (open_events(s, true, err, errcap) == 0) {
			sampler_enable(s, true);
			return s->freq;
		}
		close_events(s);
	}
	return s->freq;
}

unsigned sampler_freq(const struct sampler *s) { return s->freq; }
uint64_t sampler_fixed_period(const struct sampler *s)
{
	return s->attr.freq || (s->o.event.clock && !s->o.period)
	       ? 0 : s->attr.sample_period;
}
const struct live_event *sampler_event(const struct sampler *s)
{
	return &s->o.event;
}
const char *sampler_event_name(const struct sampler *s) { return s->event_name; }
pid_t sampler_child(const struct sampler *s) { return s->child; }
unsigned sampler_nrings(const struct sampler *s) { return s->nrings; }
unsigned sampler_nfds(const struct sampler *s) { return (unsigned)s->nfds; }

bool sampler_kernel_frames(const struct sampler *s)
{
	return !s->attr.exclude_kernel && !s->attr.exclude_callchain_kernel;
}

bool sampler_wakeups(const struct sampler *s, uint64_t *tp_id,
		     unsigned *pid_off)
{
	*tp_id = s->wake_id;
	*pid_off = s->wake_pid_off;
	return s->wakeups;
}

const char *sampler_notes(const struct sampler *s)
{
	return s->notes[0] ? s->notes : NULL;
}

const struct perf_event_attr *sampler_attr(const struct sampler *s)
{
	return &s->attr;
}

bool sampler_monotonic(const struct sampler *s)
{
	return s->attr.use_clockid && s->attr.clockid == CLOCK_MONOTONIC;
}

void sampler_enable(struct sampler *s, bool on)
{
	for (size_t i = 0; i < s->nfds; i++)
		ioctl(s->fds[i], on ? PERF_EVENT_IOC_ENABLE :
				      PERF_EVENT_IOC_DISABLE, 0);
}

int sampler_wait(struct sampler *s, int timeout_ms)
{
	struct epoll_event ev[16];
	int n, data = 0;

	if (s->nhup == s->nrings) {
		/* Nothing left to wait on: sleep, the rings are drained anyway. */
		struct timespec ts = { timeout_ms / 1000,
				       (long)(timeout_ms % 1000) * 1000000L };

		return nanosleep(&ts, NULL) == 0 ? 0 : -1;
	}
	n = epoll_wait(s->epfd, ev, (int)ARRAY_SIZE(ev), timeout_ms);
	if (n < 0)
		return errno == EINTR ? -1 : 0;
	for (int i = 0; i < n; i++) {
		struct ring *r = &s->rings[ev[i].data.u32];

		if (ev[i].events & EPOLLIN)
			data = 1;
		if ((ev[i].events & (EPOLLHUP | EPOLLERR)) && !r->hup) {
			epoll_ctl(s->epfd, EPOLL_CTL_DEL, r->fd, NULL);
			r->hup = true;
			s->nhup++;
			data = 1;
		}
	}
	return data;
}

bool sampler_all_hup(const struct sampler *s)
{
	return s->nrings && s->nhup == s->nrings;
}

static void count_record(struct sampler *s, const struct perf_event_header *h)
{
	uint64_t v;

	s->stats.records++;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		s->stats.samples++;
		break;
	case PERF_RECORD_LOST:
		/* { u64 id; u64 lost; } */
		if (h->size >= sizeof(*h) + 16) {
			memcpy(&v, (const unsigned char *)h + sizeof(*h) + 8, 8);
			s->stats.lost += v;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= sizeof(*h) + 8) {
			memcpy(&v, (const unsigned char *)h + sizeof(*h), 8);
			s->stats.lost += v;
		}
		break;
	case PERF_RECORD_THROTTLE:
		s->stats.throttled++;
		break;
	default:
		break;
	}
}

size_t sampler_drain(struct sampler *s, sampler_record_fn fn, void *ctx)
{
	uint64_t st = s->attr.sample_type;
	size_t n = 0;
	unsigned live = 0;

	for (unsigned i = 0; i < s->nrings; i++)
		if (ring_begin(&s->rings[i].view, st))
			live++;
	while (live) {
		struct ring_view *best = NULL;

		for (unsigned i = 0; i < s->nrings; i++) {
			struct ring_view *r = &s->rings[i].view;

			if (r->cur && (!best || r->cur_time < best->cur_time))
				best = r;
		}
		count_record(s, best->cur);
		fn(ctx, best->cur);
		n++;
		if (!ring_next(best, st))
			live--;
	}
	for (unsigned i = 0; i < s->nrings; i++) {
		if (s->rings[i].view.bad)
			s->stats.corrupt++;
		ring_end(&s->rings[i].view);
	}
	return n;
}

void sampler_get_stats(const struct sampler *s, struct sampler_stats *st)
{
	*st = s->stats;
}
