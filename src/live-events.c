/*
 * live-events.c - the events the sampler opens: perf's names for them
 * (software, hardware, tracepoints from tracefs), the attr they are opened
 * with and how it steps down when the kernel refuses, and the messages
 * that name a fix.
 *
 * Events.  One cpu-clock event (hardware cycles on request, where a PMU
 * exists) samples IP, TID, TIME, CPU, PERIOD and the frame-pointer
 * callchain, with sample_id_all so that every side-band record (MMAP2,
 * COMM, FORK, EXIT, LOST) carries its time in a trailer.  Timestamps use
 * CLOCK_MONOTONIC, so the rolling window can be placed against "now".
 *
 * Rate.  For cpu-clock the kernel turns a frequency into a fixed period
 * (ns) when the event is opened; we therefore open cpu-clock with a period
 * (cycles with freq=1).  A rate change opens every event again rather than
 * trusting PERF_EVENT_IOC_PERIOD (see sampler_set_freq).
 */
#include "live.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <time.h>

#include "live-sampler-priv.h"
#include "perf-event.h"
#include "unwind.h"
#include "util.h"

int live_read_int_file(const char *path, int dflt)
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

void sampler_note(struct sampler *s, const char *fmt, ...)
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

bool live_user_events_refused(int paranoid)
{
	struct perf_event_attr a;
	long fd;

	/* Below 3 the kernel lets users sample their own tasks; at 3 and
	 * above it depends on the kernel (a distribution's patch refuses
	 * them all, a stock kernel takes 3 as 2): ask it. */
	if (paranoid < 3)
		return false;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == EACCES || errno == EPERM;
	close((int)fd);
	return false;
}

void live_explain_errno(int err, const char *what, int paranoid,
			bool user_refused, char *buf, size_t cap)
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
		/* What the refusal means for this call: the level alone does
		 * not say (at 3 a stock kernel still lets a user sample its
		 * own tasks, as at 2). */
		if (user_refused)
			snprintf(buf, cap, "unprivileged perf events are disabled "
				 "(kernel.perf_event_paranoid=%d: not even a "
				 "user's own processes can be sampled): %s",
				 paranoid, f);
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
 * and we are root, mount it (perf does the same).  0, -1 + err for a
 * tracepoint that does not exist (bad usage), or -2 + err when tracefs
 * cannot be read here (permissions, not mounted: a runtime error).
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
			return -2;
		}
		if (access(TRACEFS "/events", F_OK) != 0 &&
		    (errno == EACCES || errno == EPERM)) {
			snprintf(err, errcap, "-e %s:%s: no permission to read "
				 "tracefs at " TRACEFS "; run as root (or, as "
				 "root: mount -o remount,mode=755 " TRACEFS ")",
				 sub, name);
			return -2;
		}
		if (access(TRACEFS "/events", F_OK) != 0) {
			snprintf(err, errcap, "-e %s:%s: tracefs is not "
				 "mounted; as root: mount -t tracefs nodev "
				 TRACEFS, sub, name);
			return -2;
		}
	}
	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sub, name);
	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		if (e == EACCES || e == EPERM) {
			snprintf(err, errcap, "-e %s:%s: no permission to read "
				 "%s; run as root (or make tracefs readable: "
				 "chmod -R o+rX " TRACEFS ")", sub, name, path);
			return -2;
		}
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
		return -2;
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
		int rc;

		if (k >= sizeof(sub))
			k = sizeof(sub) - 1;
		memcpy(sub, name, k);
		sub[k] = '\0';
		rc = tracepoint_id(sub, colon + 1, &ev->config, err, errcap);
		if (rc < 0)
			return rc;
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
		buf[0] = 0;
	else
		pe_event_unit(ev->name, strlen(ev->name),
			      ev->type == PERF_TYPE_TRACEPOINT, buf, cap);
}

void sampler_setup_attr(struct sampler *s)
{
	struct perf_event_attr *a = &s->attr;
	int max_stack = live_read_int_file("/proc/sys/kernel/perf_event_max_stack",
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
	/*
	 * A software event other than the clocks, with a fixed period: the
	 * kernel samples every single event, its PERIOD the events it
	 * counted at once (often 1), whenever PERIOD is asked for; only
	 * without it does it count down sample_period and sample every Nth.
	 * So -c N leaves PERIOD out, and the session weighs each such sample
	 * sample_period (sampler_fixed_period).  A tracepoint is sampled at
	 * every hit whatever the period: it is opened with period 1, each
	 * sample weighs its PERIOD (1), and -c is noted as doing nothing.
	 */
	if (s->o.event.type == PERF_TYPE_SOFTWARE && !s->o.event.clock &&
	    !a->freq && a->sample_period > 1)
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	if (s->o.event.type == PERF_TYPE_TRACEPOINT && s->o.period > 1) {
		sampler_note(s, "-c %llu cannot thin a tracepoint: the kernel "
			     "samples %s at every hit; each weighs 1",
			     (unsigned long long)s->o.period, s->o.event.name);
		a->sample_period = 1;
	}
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

/*
 * Open one event, stepping down when the kernel refuses: cycles → cpu-clock
 * (no PMU), kernel frames → user only (paranoid), then attr bits that old
 * kernels lack.  Returns the fd or -errno.
 */
int sampler_open_one(struct sampler *s, pid_t pid, unsigned cpu)
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
			sampler_note(s, "hardware cycles are not available here "
				       "(perf_event_open: %s; a virtual machine "
				       "often has no hardware counters); "
				       "sampling cpu-clock", strerror(e));
			continue;
		}
		/* Not for --off-cpu: its switch-out samples are taken in
		 * the kernel, and without them it would show nothing. */
		if ((e == EACCES || e == EPERM) && !s->attr.exclude_kernel &&
		    s->o.target != LIVE_ALL_CPUS && s->o.stacks != STACKS_KERNEL &&
		    !s->o.context_switch) {
			s->attr.exclude_kernel = 1;
			s->attr.exclude_hv = 1;
			s->attr.exclude_callchain_kernel = 1;
			s->kernel_excluded = true;
			sampler_note(s, "kernel frames unavailable "
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
