/*
 * live.c - live mode: sampled records become stacks in the profile, shown
 * as a rolling window in the TUI or printed after a fixed duration.
 *
 * The loop.  Every tick (about 100 ms, from the TUI or from our own wait)
 * the rings are drained in time order.  Side-band records go to the
 * process tracker (perf-event.h) at once; each sample is symbolized at
 * once too, while the maps it needs are current, but its stack (frame ids)
 * is only queued.  Every --interval the queue goes into the profile with
 * the samples' timestamps, the rolling window is applied with
 * profile_set_range, and the view redraws.  Adding stacks only at a
 * refresh keeps the tree that the TUI draws consistent between refreshes.
 *
 * Pre-existing processes.  The kernel reports mappings made after the
 * events were opened; what a process mapped before (its binary, libc, the
 * vdso) is read from /proc/PID/maps: for -p at start, for -a the first
 * time a pid is sampled (and again, at most once a second, when a sampled
 * address falls outside every known mapping).  Thread names come from
 * /proc/PID/task/TID/comm the first time a thread is seen without a COMM
 * or FORK record.
 *
 * When the target is gone.  The tasks sampled (the -p threads or the
 * command) are kept in a set, grown by FORK and shrunk by EXIT records, and
 * checked against /proc once a second in case an EXIT was lost; when it is
 * empty the target has exited: a fixed-duration run stops and prints, the
 * view stays open with what was collected.
 *
 * Weights are the samples' periods, as stackcollapse-perf.pl uses them
 * (nanoseconds of CPU for cpu-clock), so a rate change does not skew the
 * shares of a window that spans it.  A rate change opens the events again
 * (sampler_set_freq): the period ioctl on a running event is not reliable,
 * and a sample's PERIOD could then disagree with the rate it came at.
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "export.h"
#include "perf-event.h"
#include "search.h"
#include "symbols.h"
#include "tui.h"
#include "unwind.h"
#include "util.h"

#define TICK_MS 100
#define MAPS_RETRY_NS 1000000000ull
#define KEEP_SLACK_S 5.0          /* timeline kept beyond the longest window */

/* ---- A set of u32 (pids, tids) ------------------------------------------- */

/* Open addressing, key+1 stored (0: empty), deletion by backward shift. */
struct u32set {
	uint32_t *k;
	uint64_t *v;       /* a value per key (last /proc read, ns) */
	size_t mask, n;
};

static size_t set_slot(const struct u32set *s, uint32_t key)
{
	return (size_t)hash_u64(key) & s->mask;
}

static void set_grow(struct u32set *s)
{
	struct u32set o = *s;

	s->mask = o.mask ? o.mask * 2 + 1 : 63;
	s->k = xcalloc(s->mask + 1, sizeof(*s->k));
	s->v = xcalloc(s->mask + 1, sizeof(*s->v));
	s->n = 0;
	for (size_t i = 0; o.k && i <= o.mask; i++)
		if (o.k[i]) {
			size_t j = set_slot(s, o.k[i] - 1);

			while (s->k[j])
				j = (j + 1) & s->mask;
			s->k[j] = o.k[i];
			s->v[j] = o.v[i];
			s->n++;
		}
	free(o.k);
	free(o.v);
}

static uint64_t *set_find(const struct u32set *s, uint32_t key)
{
	size_t j;

	if (!s->k)
		return NULL;
	for (j = set_slot(s, key); s->k[j]; j = (j + 1) & s->mask)
		if (s->k[j] == key + 1)
			return &s->v[j];
	return NULL;
}

/* Add key (value 0 if new); returns its value slot. */
static uint64_t *set_add(struct u32set *s, uint32_t key)
{
	uint64_t *v = set_find(s, key);
	size_t j;

	if (v)
		return v;
	if ((s->n + 1) * 2 > s->mask)
		set_grow(s);
	for (j = set_slot(s, key); s->k[j]; j = (j + 1) & s->mask)
		;
	s->k[j] = key + 1;
	s->v[j] = 0;
	s->n++;
	return &s->v[j];
}

static void set_del(struct u32set *s, uint32_t key)
{
	size_t i, j;

	if (!s->k)
		return;
	for (i = set_slot(s, key); s->k[i]; i = (i + 1) & s->mask)
		if (s->k[i] == key + 1)
			break;
	if (!s->k[i])
		return;
	s->k[i] = 0;
	s->n--;
	/* Shift back the entries that probed past the hole. */
	for (j = (i + 1) & s->mask; s->k[j]; j = (j + 1) & s->mask) {
		size_t want = set_slot(s, s->k[j] - 1);

		if ((j > i && (want <= i || want > j)) ||
		    (j < i && (want <= i && want > j))) {
			s->k[i] = s->k[j];
			s->v[i] = s->v[j];
			s->k[j] = 0;
			i = j;
		}
	}
}

static void set_free(struct u32set *s)
{
	free(s->k);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- The session ---------------------------------------------------------- */

static const double windows[] = { 1, 5, 30, 0 };   /* 0: everything */

/* --off-cpu: what is known of one thread's current switch (see on_switch). */
struct offcpu {
	uint32_t *ids;               /* the stack it switched out at */
	size_t n, cap;
	uint64_t t_out, t_in, t_wake;
	struct sample_meta meta;     /* its task and CPU at the switch-out */
	bool have_stack;             /* the context-switches sample came */
	bool blocked;                /* its switch-out was not a preemption */
	bool have_in;                /* it switched in at t_in */
	bool have_wake;              /* it was woken at t_wake */
};

struct live {
	struct config *c;
	struct sampler_opts so;
	struct sampler *s;
	pid_t *pids;
	size_t npids;
	char target[160];            /* for the header */

	struct symbolizer *sy;
	struct pe_machine *m;
	struct pe_format fmt;
	struct profile *p;

	struct u32set seen_tid;      /* threads whose name we know */
	struct u32set synth_pid;     /* pids whose /proc maps were read (ns) */
	struct u32set tasks;         /* target tasks alive (not for -a) */
	bool track_tasks;
	bool target_gone;
	uint64_t last_prune_ns;

	/* Stacks waiting for the next refresh: [n, time lo, time hi, w lo,
	 * w hi, ids...] repeated. */
	uint32_t *pend;
	size_t npend, cappend;
	struct u32set off_tid;       /* --off-cpu: tid -> index + 1 in off */
	struct offcpu *off;
	size_t noff, capoff;
	bool wakeups;                /* sched:sched_wakeup samples come */
	uint64_t wake_id;            /* their tracepoint id */
	unsigned wake_pid_off;       /* the woken tid in their raw entry */
	uint64_t last_time;          /* the latest record time seen */
	size_t pend_samples;

	double window;               /* seconds; 0: everything */
	double interval;
	uint64_t origin_ns;          /* sampling began (samples' clock); 0:
					not known yet */
	double started, last_refresh;
	bool frozen;
	bool freeze_all;             /* frozen showing everything: no adding */
	uint64_t freeze_first, freeze_last;
	bool sampling_stopped;       /* -d elapsed in the view */

	/* figures for the header */
	double rate_t0;
	uint64_t rate_n0;
	double sps;
	double cpu_t0, cpu_used0;
	double cpu_pct;
	uint64_t bad_records;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Read a small /proc file into buf (NUL-terminated); its length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* The name of thread tid of pid from /proc (without its newline). */
static void learn_comm(struct live *L, uint32_t pid, uint32_t tid)
{
	char path[64], comm[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	n = read_small(path, comm, sizeof(comm));
	if (n <= 0)
		return;
	while (n > 0 && comm[n - 1] == '\n')
		n--;
	pe_machine_set_comm(L->m, pid, tid, comm, (size_t)n);
}

/* Give the tracker the executable mappings of pid from /proc/PID/maps. */
static void synth_maps(struct live *L, uint32_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	*set_add(&L->synth_pid, pid) = mono_ns();
	if (pid == 0)
		return;
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;
		struct pe_mmap id = { 0 };
		const char *name;
		size_t len;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end,
			   perms, &off, &maj, &min, &ino, &pos) < 7 ||
		    !strchr(perms, 'x') || end <= start)
			continue;
		name = line + pos;
		len = strcspn(name, "\n");
		id.pid = id.tid = pid;
		id.start = start;
		id.len = end - start;
		id.pgoff = off;
		id.mmap2 = true;
		id.maj = maj;
		id.min = min;
		id.ino = ino;
		id.prot = PROT_EXEC | (perms[0] == 'r' ? PROT_READ : 0);
		id.filename = name;
		id.filename_len = len;
		pe_machine_add_map(L->m, pid, start, end - start, off, name, len,
				   &id);
	}
	free(line);
	fclose(f);
}

/* Is task tid alive (not a zombie)?  Our own command is reaped first. */
static bool task_alive(struct live *L, uint32_t tid)
{
	char path[64], buf[512], *p;

	if (L->so.target == LIVE_COMMAND && (pid_t)tid == sampler_child(L->s) &&
	    sampler_child_done(L->s, NULL))
		return false;
	snprintf(path, sizeof(path), "/proc/%u/stat", tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	p = strrchr(buf, ')');
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

static void prune_tasks(struct live *L, uint64_t now)
{
	if (!L->track_tasks || L->target_gone)
		return;
	if (now - L->last_prune_ns >= 1000000000ull || L->tasks.n == 0) {
		L->last_prune_ns = now;
		for (size_t i = 0; L->tasks.k && i <= L->tasks.mask; i++) {
			uint32_t tid;

			if (!L->tasks.k[i])
				continue;
			tid = L->tasks.k[i] - 1;
			if (!task_alive(L, tid)) {
				set_del(&L->tasks, tid);
				i--;   /* an entry may have shifted into slot i */
			}
		}
	}
	if (L->tasks.n == 0)
		L->target_gone = true;
}

/* ---- Records --------------------------------------------------------------- */

/* A queued sample: PEND_HDR words (depth, time, weight, task), then ids. */
#define PEND_HDR 10

static void pend_push(struct live *L, const uint32_t *ids, size_t n,
		      const struct sample_meta *m, uint64_t w)
{
	uint32_t *e;

	GROW(L->pend, L->cappend, L->npend + PEND_HDR + n);
	e = L->pend + L->npend;
	e[0] = (uint32_t)n;
	e[1] = (uint32_t)m->time_ns;
	e[2] = (uint32_t)(m->time_ns >> 32);
	e[3] = (uint32_t)w;
	e[4] = (uint32_t)(w >> 32);
	e[5] = m->pid;
	e[6] = m->tid;
	e[7] = m->cpu;
	e[8] = m->comm;
	e[9] = (uint32_t)m->has_task | (uint32_t)m->has_cpu << 1;
	memcpy(e + PEND_HDR, ids, n * sizeof(*ids));
	L->npend += PEND_HDR + n;
	L->pend_samples++;
}

/* ---- Off-CPU ----------------------------------------------------------------
 *
 * --off-cpu samples the context-switches software event (period 1, with
 * callchains) and asks for PERF_RECORD_SWITCH records (attr.context_switch).
 * A thread switching out writes the sample (its stack, where it blocked),
 * then a switch-out record flagged PREEMPT when it was still runnable; it
 * writes a switch-in record when it runs again.  A thread that blocked
 * weighs, at its stack, the ns from switch-out to its wake-up (a
 * sched:sched_wakeup sample, where the sampler has them) or else to its
 * switch-in; a preempted one weighs nothing.  Waiting for a CPU is not
 * blocking, whether the thread was preempted or woken: on a loaded machine
 * counting the wait after a wake-up would inflate the blocking calls'
 * share (--wall's 47% of a 7 ms sleep read 53% beside two busy loops).
 * The rings are read one CPU after another, so a switch-in seen on one
 * CPU's ring may come before the switch-out of another's: each thread
 * keeps the times until they pair.  The idle task (tid 0) is left out.
 */
static struct offcpu *off_state(struct live *L, uint32_t tid)
{
	uint64_t *v = set_find(&L->off_tid, tid);

	if (!v) {
		GROW(L->off, L->capoff, L->noff + 1);
		memset(&L->off[L->noff], 0, sizeof(*L->off));
		L->noff++;
		v = set_add(&L->off_tid, tid);
		*v = L->noff;
	}
	return &L->off[*v - 1];
}

static void off_pair(struct live *L, struct offcpu *o)
{
	uint64_t end;

	if (!o->have_stack || !o->blocked || !o->have_in)
		return;
	end = o->t_in;
	if (o->have_wake && o->t_wake >= o->t_out && o->t_wake <= o->t_in)
		end = o->t_wake;
	if (end >= o->t_out)
		pend_push(L, o->ids, o->n, &o->meta, end - o->t_out);
	o->have_stack = o->blocked = o->have_in = o->have_wake = false;
}

static void off_sample(struct live *L, const struct pe_sample *s,
		       const struct sample_meta *meta, const uint32_t *ids,
		       size_t n)
{
	struct offcpu *o;

	if (s->tid == 0)
		return;
	o = off_state(L, s->tid);
	if (n + 1 > o->cap)
		GROW(o->ids, o->cap, n + 1);
	memcpy(o->ids, ids, n * sizeof(*ids));
	if (L->c->wall)   /* --wall: off-CPU stacks end in [off-cpu] */
		o->ids[n++] = profile_intern(L->p, "[off-cpu]", 9);
	o->n = n;
	o->t_out = s->time;
	o->meta = *meta;
	o->have_stack = true;
	o->blocked = false;
	if (o->have_in && o->t_in < o->t_out)
		o->have_in = false;   /* an older switch-in */
	if (o->have_wake && o->t_wake < o->t_out)
		o->have_wake = false;
}

/* A sched:sched_wakeup sample: its raw entry names the woken thread. */
static bool off_wakeup(struct live *L, const struct pe_sample *s)
{
	const unsigned char *raw = s->raw;
	uint16_t type;
	int32_t tid;
	uint64_t *v;
	struct offcpu *o;

	if (!L->wakeups || !raw || s->raw_size < L->wake_pid_off + 4 ||
	    s->raw_size < 2)
		return false;
	memcpy(&type, raw, 2);
	if (type != (uint16_t)L->wake_id)
		return false;
	memcpy(&tid, raw + L->wake_pid_off, 4);
	if (tid <= 0 || !s->has_time)
		return true;
	v = set_find(&L->off_tid, (uint32_t)tid);
	if (!v)
		return true;   /* not a thread of ours, or not blocked */
	o = &L->off[*v - 1];
	/* The first wake-up after the switch-out ends the blocking. */
	if (!o->have_wake || o->t_wake < o->t_out ||
	    (s->time >= o->t_out && s->time < o->t_wake)) {
		o->t_wake = s->time;
		o->have_wake = true;
	}
	off_pair(L, o);
	return true;
}

static void on_switch(struct live *L, const struct pe_record *r)
{
	struct offcpu *o;

	if (!r->sid.has_tid || r->sid.tid == 0 || !r->sid.has_time)
		return;
	o = off_state(L, r->sid.tid);
	if (r->misc & PERF_RECORD_MISC_SWITCH_OUT) {
		if (r->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			o->have_stack = false;
		else if (o->have_stack && r->sid.time >= o->t_out)
			o->blocked = true;
	} else {
		o->t_in = r->sid.time;
		o->have_in = true;
	}
	off_pair(L, o);
}

/* Threads still blocked at end_ns count up to it. */
static void off_finish(struct live *L, uint64_t end_ns)
{
	for (size_t i = 0; i < L->noff; i++) {
		struct offcpu *o = &L->off[i];

		if (o->have_stack && o->blocked && !o->have_in &&
		    end_ns > o->t_out) {
			uint64_t end = end_ns;

			if (o->have_wake && o->t_wake >= o->t_out &&
			    o->t_wake < end)
				end = o->t_wake;
			pend_push(L, o->ids, o->n, &o->meta, end - o->t_out);
		}
		o->have_stack = false;
	}
}

/* A user address of the sample outside every known mapping? */
static bool has_map_miss(struct live *L, const struct pe_sample *s)
{
	struct pe_proc *pr = pe_machine_proc(L->m, s->pid);
	bool user = s->cpumode == PERF_RECORD_MISC_USER;

	if (!s->has_callchain || s->nr == 0)
		return user && !pe_proc_find_map(pr, s->ip);
	for (uint64_t i = 0; i < s->nr; i++) {
		uint64_t v = pe_chain_at(s, i);

		if (v >= PE_CONTEXT_MAX) {
			user = v == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (user && !pe_proc_find_map(pr, v))
			return true;
	}
	return false;
}

static void on_sample(struct live *L, const struct pe_sample *s)
{
	const uint32_t *ids;
	struct sample_meta meta;
	size_t n;

	if (L->c->off_cpu && off_wakeup(L, s))
		return;
	if (s->pid != 0 && !set_find(&L->seen_tid, s->tid)) {
		set_add(&L->seen_tid, s->tid);
		if (!set_find(&L->seen_tid, s->pid) && s->pid != s->tid) {
			set_add(&L->seen_tid, s->pid);
			learn_comm(L, s->pid, s->pid);
		}
		learn_comm(L, s->pid, s->tid);
	}
	if (L->so.target != LIVE_COMMAND && s->pid != 0) {
		uint64_t *when = set_find(&L->synth_pid, s->pid);

		if (!when)
			synth_maps(L, s->pid);
		else if (mono_ns() - *when > MAPS_RETRY_NS && has_map_miss(L, s))
			synth_maps(L, s->pid);
	} else if (L->so.target == LIVE_COMMAND && s->pid != 0) {
		uint64_t *when = set_find(&L->synth_pid, s->pid);

		if ((!when || mono_ns() - *when > MAPS_RETRY_NS) &&
		    has_map_miss(L, s))
			synth_maps(L, s->pid);
	}
	if (!L->origin_ns && s->time)
		L->origin_ns = s->time;   /* not CLOCK_MONOTONIC: the first */
	ids = pe_machine_build(L->m, s, &n);
	pe_machine_meta(L->m, s, &meta);
	meta.time_ns = s->time;   /* the window needs one, even if 0 */
	if (n > PROFILE_MAX_DEPTH - 1)
		n = PROFILE_MAX_DEPTH - 1;
	/* --wall: the switch event's samples have period 1, cpu-clock's
	 * at least 10000 ns (-F is at most 100000). */
	if (L->c->off_cpu && (!L->c->wall || s->period == 1))
		off_sample(L, s, &meta, ids, n);
	else
		pend_push(L, ids, n, &meta, s->has_period ? s->period : 1);
}

static void on_record(void *ctx, const struct perf_event_header *h)
{
	struct live *L = ctx;
	struct pe_record r;
	const char *why;

	if (pe_decode(h, h->size, &L->fmt, &r, &why) < 0) {
		L->bad_records++;
		return;
	}
	{
		uint64_t t;

		if (pe_record_time(&r, &t) && t > L->last_time)
			L->last_time = t;
	}
	switch (r.type) {
	case PERF_RECORD_SAMPLE:
		on_sample(L, &r.u.sample);
		return;
	case PERF_RECORD_COMM:
		set_add(&L->seen_tid, r.u.comm.tid);
		break;
	case PERF_RECORD_FORK:
		/* A child of a process not read from /proc yet: read the
		 * parent first, so the child inherits its mappings. */
		if (L->so.target == LIVE_ALL_CPUS && r.u.task.ppid != 0 &&
		    r.u.task.pid != r.u.task.ppid &&
		    !set_find(&L->synth_pid, r.u.task.ppid))
			synth_maps(L, r.u.task.ppid);
		/* The same for its name, which the child inherits. */
		if (r.u.task.ptid != 0 && !set_find(&L->seen_tid, r.u.task.ptid)) {
			set_add(&L->seen_tid, r.u.task.ptid);
			learn_comm(L, r.u.task.ppid, r.u.task.ptid);
		}
		if (r.u.task.pid != r.u.task.ppid)
			*set_add(&L->synth_pid, r.u.task.pid) = mono_ns();
		set_add(&L->seen_tid, r.u.task.tid);
		if (L->track_tasks && !L->target_gone)
			set_add(&L->tasks, r.u.task.tid);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (L->c->off_cpu)
			on_switch(L, &r);
		return;
	case PERF_RECORD_EXIT:
		set_del(&L->seen_tid, r.u.task.tid);
		if (r.u.task.pid == r.u.task.tid)
			set_del(&L->synth_pid, r.u.task.pid);
		if (L->track_tasks)
			set_del(&L->tasks, r.u.task.tid);
		break;
	default:
		break;
	}
	pe_machine_apply(L->m, &r);
}

/* Drain the rings; true when anything arrived. */
static bool drain(struct live *L)
{
	size_t n = sampler_drain(L->s, on_record, L);

	prune_tasks(L, mono_ns());
	return n > 0;
}

/* ---- Refresh ---------------------------------------------------------------- */

/* Move the queued stacks into the profile. */
static void flush(struct live *L)
{
	size_t i = 0;

	while (i < L->npend) {
		const uint32_t *e = L->pend + i;
		struct weight w = { 0, 0, 0 };
		struct sample_meta meta = { 0 };

		meta.time_ns = (uint64_t)e[1] | (uint64_t)e[2] << 32;
		meta.has_time = true;
		meta.pid = e[5];
		meta.tid = e[6];
		meta.cpu = e[7];
		meta.comm = e[8];
		meta.has_task = e[9] & 1;
		meta.has_cpu = e[9] >> 1 & 1;
		w.v = (uint64_t)e[3] | (uint64_t)e[4] << 32;
		profile_add_stack(L->p, e + PEND_HDR, e[0], &w, &meta);
		i += PEND_HDR + e[0];
	}
	L->npend = 0;
	L->pend_samples = 0;
}

/*
 * "Now" on the samples' clock.  Once the target has exited or sampling has
 * stopped, the window ends at the last sample, so the view keeps what was
 * collected instead of sliding away from it.
 */
static uint64_t sample_now(struct live *L)
{
	uint64_t first, last;

	if (sampler_monotonic(L->s) && !L->target_gone && !L->sampling_stopped)
		return mono_ns();
	return profile_time_bounds(L->p, &first, &last) ? last : 0;
}

/* Apply the window (or the frozen range) and recompute the totals. */
static void apply_window(struct live *L)
{
	if (L->frozen) {
		if (L->freeze_all)
			profile_clear_range(L->p);
		else
			profile_set_range(L->p, L->freeze_first, L->freeze_last);
		return;
	}
	/*
	 * Only the longest window is ever needed from the timeline ("all"
	 * uses the all-time weights): forget what is older, so memory stays
	 * bounded however long the view stays open.
	 */
	{
		double keep = (L->window > windows[2] ? L->window : windows[2]) +
			      KEEP_SLACK_S;
		uint64_t now = sample_now(L), k = (uint64_t)(keep * 1e9);

		if (now > k)
			profile_forget_before(L->p, now - k);
	}
	if (L->window > 0) {
		uint64_t now = sample_now(L), span = (uint64_t)(L->window * 1e9);
		uint64_t first = now > span ? now - span : 0, tf, tl;

		/* Clamped to the samples there are, for the header's sake. */
		if (profile_time_bounds(L->p, &tf, &tl)) {
			if (first < tf)
				first = tf;
			if (now < tl)
				now = tl;
		}
		profile_set_range(L->p, first, now);
	} else {
		profile_clear_range(L->p);
	}
}

static void update_figures(struct live *L)
{
	double t = now_seconds();
	struct sampler_stats st;

	sampler_get_stats(L->s, &st);
	if (t - L->rate_t0 >= 1.0) {
		double cpu = cpu_seconds();

		L->sps = (double)(st.samples - L->rate_n0) / (t - L->rate_t0);
		L->cpu_pct = 100.0 * (cpu - L->cpu_used0) / (t - L->cpu_t0);
		L->rate_t0 = L->cpu_t0 = t;
		L->rate_n0 = st.samples;
		L->cpu_used0 = cpu;
	}
}

/* ---- TUI hooks -------------------------------------------------------------- */

static bool live_tick(void *ctx, struct profile *p)
{
	struct live *L = ctx;
	double t = now_seconds();

	(void)p;
	drain(L);
	update_figures(L);
	if (!L->sampling_stopped && L->c->duration > 0 &&
	    t - L->started >= L->c->duration) {
		sampler_enable(L->s, false);
		L->sampling_stopped = true;
	}
	if (t - L->last_refresh < L->interval || (L->frozen && L->freeze_all))
		return false;
	L->last_refresh = t;
	flush(L);
	apply_window(L);
	/*
	 * Frozen, the stacks still go in (the queue stays small) but land
	 * outside the frozen range: what is drawn does not change, while the
	 * header goes on showing the rate, lost samples and our CPU.  (Frozen
	 * on "everything", which has no range, they wait in the queue.)
	 */
	return true;
}

static void window_name(double w, char *buf, size_t cap)
{
	if (w > 0)
		snprintf(buf, cap, "last %g s", w);
	else
		snprintf(buf, cap, "everything");
}

static bool live_action(void *ctx, enum tui_action a, struct profile *p,
			char *msg, size_t cap)
{
	struct live *L = ctx;
	char wn[32];

	(void)p;
	switch (a) {
	case ACT_LIVE_RATE_UP:
	case ACT_LIVE_RATE_DOWN: {
		unsigned want = live_rate_step(sampler_freq(L->s),
					       a == ACT_LIVE_RATE_UP ? 1 : -1);
		unsigned got;
		char err[256];

		if (L->sampling_stopped || L->target_gone) {
			snprintf(msg, cap, "sampling has %s: the rate stays",
				 L->target_gone ? "ended (the target exited)" :
				 "stopped (-d)");
			return false;
		}
		if (sampler_fixed_period(L->s)) {
			snprintf(msg, cap, "the rate is fixed: every %llu "
				 "%s (-c N or a counting event; -F HZ to "
				 "sample at a rate)", (unsigned long long)
				 sampler_fixed_period(L->s),
				 sampler_event_name(L->s));
			return false;
		}
		/* The events are opened again at the new rate; what the rings
		 * held at the old rate is taken in first. */
		got = sampler_set_freq(L->s, want, on_record, L, err, sizeof(err));
		if (err[0])
			snprintf(msg, cap, "cannot sample at %u Hz: %s; still %u Hz",
				 want, err, got);
		else
			snprintf(msg, cap, "sampling at %u Hz", got);
		return false;
	}
	case ACT_LIVE_WINDOW: {
		size_t i = 0;

		while (i < ARRAY_SIZE(windows) && windows[i] != L->window)
			i++;
		if (i == ARRAY_SIZE(windows)) {
			/* A --window outside the cycle: the next larger one. */
			i = 0;
			while (windows[i] > 0 && windows[i] <= L->window)
				i++;
		} else {
			i = (i + 1) % ARRAY_SIZE(windows);
		}
		L->window = windows[i];
		window_name(L->window, wn, sizeof(wn));
		snprintf(msg, cap, "window: %s", wn);
		if (L->frozen)
			return false;
		flush(L);
		apply_window(L);
		return true;
	}
	case ACT_LIVE_FREEZE:
		if (!L->frozen) {
			uint64_t now = sample_now(L), first = 0, last = 0;
			uint64_t span = (uint64_t)(L->window * 1e9);

			flush(L);
			profile_time_bounds(L->p, &first, &last);
			L->frozen = true;
			L->freeze_all = L->window <= 0;
			L->freeze_last = now > last ? now : last;
			L->freeze_first = first;
			if (L->window > 0 && now > span && now - span > first)
				L->freeze_first = now - span;
			apply_window(L);
			snprintf(msg, cap, "frozen (sampling goes on); space "
				 "resumes");
		} else {
			L->frozen = false;
			flush(L);
			apply_window(L);
			L->last_refresh = now_seconds();
			snprintf(msg, cap, "resumed");
		}
		return true;
	case ACT_LIVE_RESET:
		L->npend = 0;
		L->pend_samples = 0;
		profile_reset_weights(L->p);
		if (L->frozen) {
			L->frozen = false;
			apply_window(L);
		}
		snprintf(msg, cap, "counts reset");
		return true;
	case ACT_LIVE_SAVE:
		tui_save_folded(L->p, "flametop-live", msg, cap);
		return false;
	default:
		return false;
	}
}

static bool live_time_origin(void *ctx, uint64_t *ns)
{
	struct live *L = ctx;

	if (!L->origin_ns)
		return false;
	*ns = L->origin_ns;
	return true;
}

static void live_status(void *ctx, char *buf, size_t cap)
{
	struct live *L = ctx;
	struct sampler_stats st;
	char wn[32], thr[24] = "", rate[40];

	sampler_get_stats(L->s, &st);
	window_name(L->window, wn, sizeof(wn));
	if (st.throttled)
		snprintf(thr, sizeof(thr), "%llu", (unsigned long long)st.throttled);
	/*
	 * The title already names the target; the most useful figures come
	 * first (an 80-column header still shows them): the window, what was
	 * lost, our CPU, then the rate asked for and the rate measured.
	 */
	if (sampler_fixed_period(L->s))
		snprintf(rate, sizeof(rate), "every %llu",
			 (unsigned long long)sampler_fixed_period(L->s));
	else
		snprintf(rate, sizeof(rate), "%u Hz", sampler_freq(L->s));
	snprintf(buf, cap, "%s%s%s | lost %llu%s%s | CPU %.1f%% | %s %s | "
		 "%.0f/s",
		 L->frozen ? "FROZEN | " : "",
		 L->target_gone ? "exited | " :
		 L->sampling_stopped ? "stopped | " : "",
		 wn, (unsigned long long)st.lost,
		 st.throttled ? ", throttled " : "", thr, L->cpu_pct,
		 sampler_event_name(L->s), rate, L->sps);
	if (L->so.dwarf_stack) {
		size_t k = strlen(buf);

		if (k < cap)
			snprintf(buf + k, cap - k, " | truncated %llu/%llu",
				 (unsigned long long)
				 pe_machine_stats(L->m)->dwarf_truncated,
				 (unsigned long long)
				 pe_machine_stats(L->m)->dwarf_stacks);
	}
}

/* ---- Setting up ------------------------------------------------------------- */

bool live_requested(const struct config *c)
{
	return c->attach || c->all_cpus || c->ncommand > 0;
}

static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "flametop: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	options_usage(stderr);
	return 2;
}

static int parse_pids(struct live *L, const char *arg)
{
	const char *s = arg;
	size_t cap = 0;

	while (*s) {
		char *end;
		unsigned long v;

		if (!isdigit((unsigned char)*s))
			return usage("-p: bad process id in '%s'", arg);
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v == 0 || v > 0x3fffffff || (*end && *end != ','))
			return usage("-p: bad process id in '%s'", arg);
		GROW(L->pids, cap, L->npids + 1);
		L->pids[L->npids++] = (pid_t)v;
		s = *end ? end + 1 : end;
	}
	if (!L->npids)
		return usage("-p: no process id");
	return 0;
}

/* Check the options and fill L->so; 0 or the exit status. */
static int setup(struct live *L, struct config *c)
{
	int targets = !!c->attach + !!c->all_cpus + (c->ncommand > 0);

	if (targets > 1)
		return usage("choose one of -p PID, -a and -- COMMAND");
	if (c->nfiles > 0)
		return usage("files and live sampling do not go together");
	if (c->user_only && c->kernel_only)
		return usage("--user-only and --kernel-only do not go together");
	if (c->call_graph && strcmp(c->call_graph, "fp") != 0) {
		char err[160];

		if (strcmp(c->call_graph, "dwarf") == 0)
			L->so.dwarf_stack = UNWIND_STACK_DEFAULT;
		else if (strncmp(c->call_graph, "dwarf,", 6) != 0)
			return usage("--call-graph: unknown mode '%s' "
				     "(fp, dwarf[,SIZE])", c->call_graph);
		else if (unwind_parse_stack_size(c->call_graph + 6,
						 &L->so.dwarf_stack, err,
						 sizeof(err)) < 0)
			return usage("%s", err);
	}
	if (c->freq && c->count)
		return usage("-F HZ and -c N do not go together (a rate or "
			     "every Nth event)");
	if (c->wall)
		c->off_cpu = true;
	if (c->off_cpu && (c->count || c->event || (c->freq && !c->wall)))
		return usage("--off-cpu samples every context switch: no -e, "
			     "-F or -c with it (--wall takes -F for its "
			     "on-CPU part)");
	{
		char err[512];

		if (live_event_parse(c->event, &L->so.event, err,
				     sizeof(err)) < 0)
			return usage("%s", err);
	}
	L->so.period = c->count;
	L->so.freq_given = c->freq != 0;
	if (c->off_cpu) {
		char err[256];

		if (live_event_parse("context-switches", &L->so.event, err,
				     sizeof(err)) < 0)
			return usage("%s", err);
		L->so.period = 1;
		L->so.context_switch = true;
		L->so.wall_clock = c->wall;
	}
	if (c->ncommand == 0 && c->command && c->command[0] == NULL &&
	    !c->attach && !c->all_cpus)
		return usage("no command after --");
	L->so.freq = c->freq ? c->freq : 99;
	L->so.stacks = c->user_only ? STACKS_USER :
		       c->kernel_only ? STACKS_KERNEL : STACKS_BOTH;
	if (c->attach) {
		int rc = parse_pids(L, c->attach);

		if (rc)
			return rc;
		L->so.target = LIVE_PIDS;
		L->so.pids = L->pids;
		L->so.npids = L->npids;
		if (L->npids == 1)
			snprintf(L->target, sizeof(L->target), "pid %d",
				 (int)L->pids[0]);
		else
			snprintf(L->target, sizeof(L->target), "pids %s",
				 c->attach);
	} else if (c->all_cpus) {
		L->so.target = LIVE_ALL_CPUS;
		snprintf(L->target, sizeof(L->target), "all CPUs");
	} else {
		L->so.target = LIVE_COMMAND;
		L->so.command = c->command;
		snprintf(L->target, sizeof(L->target), "%s", c->command[0]);
	}
	L->window = c->window > 0 ? c->window : 5;
	L->interval = c->interval > 0 ? c->interval : 1;
	return 0;
}

/* Tasks to watch and what the tracker must know before sampling starts. */
static void seed(struct live *L)
{
	L->track_tasks = L->so.target != LIVE_ALL_CPUS;
	if (L->so.target == LIVE_COMMAND) {
		set_add(&L->tasks, (uint32_t)sampler_child(L->s));
		return;
	}
	if (L->so.target != LIVE_PIDS)
		return;
	for (size_t i = 0; i < L->npids; i++) {
		char path[64];
		DIR *d;
		struct dirent *e;

		synth_maps(L, (uint32_t)L->pids[i]);
		snprintf(path, sizeof(path), "/proc/%d/task", (int)L->pids[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d)) != NULL) {
			uint32_t tid;

			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			tid = (uint32_t)strtoul(e->d_name, NULL, 10);
			learn_comm(L, (uint32_t)L->pids[i], tid);
			set_add(&L->seen_tid, tid);
			set_add(&L->tasks, tid);
		}
		closedir(d);
	}
}

static void teardown(struct live *L)
{
	sampler_close(L->s);
	pe_machine_destroy(L->m);
	sym_destroy(L->sy);
	profile_destroy(L->p);
	set_free(&L->seen_tid);
	set_free(&L->synth_pid);
	set_free(&L->tasks);
	free(L->pend);
	for (size_t i = 0; i < L->noff; i++)
		free(L->off[i].ids);
	free(L->off);
	set_free(&L->off_tid);
	free(L->pids);
}

/* Sample for the duration (or until the target exits or a signal). */
static void run_fixed(struct live *L)
{
	double end = L->c->duration > 0 ? L->started + L->c->duration : 0;

	while (!stop_requested && !L->target_gone) {
		double t = now_seconds();
		int ms = TICK_MS * 2;

		if (end > 0) {
			if (t >= end)
				break;
			if ((end - t) * 1000 < ms)
				ms = (int)((end - t) * 1000) + 1;
		}
		sampler_wait(L->s, ms);
		drain(L);
	}
	sampler_enable(L->s, false);
	drain(L);
	if (L->c->off_cpu)
		off_finish(L, sampler_attr(L->s)->use_clockid ? mono_ns()
							      : L->last_time);
	flush(L);
	profile_finish(L->p);
}

static int print_result(struct live *L)
{
	struct config *c = L->c;
	struct winsize ws;
	int rc = export_run(stdout, L->p, c, L->target,
			    isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 &&
			    ws.ws_col ? ws.ws_col : 100);

	if (rc)
		return rc;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "flametop: error writing output\n");
		return 1;
	}
	return 0;
}

static void report(struct live *L)
{
	struct sampler_stats st;
	struct diag d;

	sampler_get_stats(L->s, &st);
	diag_init(&d);
	if (st.lost)
		diag_warn(&d, "%llu samples lost (the rings were full); "
			  "try a lower -F", (unsigned long long)st.lost);
	if (st.corrupt)
		diag_warn(&d, "%llu corrupt ring reads skipped",
			  (unsigned long long)st.corrupt);
	if (L->bad_records)
		diag_warn(&d, "%llu records could not be decoded",
			  (unsigned long long)L->bad_records);
	if (pe_machine_stats(L->m)->dwarf_truncated)
		diag_warn(&d, "%llu of %llu DWARF-unwound stacks stopped early "
			  "(no CFI, or the stack copy was too small: try "
			  "--call-graph dwarf,32K); their partial stacks are "
			  "kept",
			  (unsigned long long)pe_machine_stats(L->m)->dwarf_truncated,
			  (unsigned long long)pe_machine_stats(L->m)->dwarf_stacks);
	if (L->target_gone && L->so.target == LIVE_PIDS &&
	    now_seconds() - L->started < L->c->duration - 0.5)
		diag_warn(&d, "%s after %.1f s", L->npids == 1 ?
			  "the process exited" : "the processes exited",
			  now_seconds() - L->started);
	if (L->target_gone && L->so.target == LIVE_COMMAND) {
		/* Its EXIT record can come before it is a zombie: wait. */
		int ws = sampler_child_wait(L->s);

		if (WIFEXITED(ws) && WEXITSTATUS(ws))
			diag_warn(&d, "the command exited with status %d",
				  WEXITSTATUS(ws));
		else if (WIFSIGNALED(ws))
			diag_warn(&d, "the command was killed by signal %d",
				  WTERMSIG(ws));
	}
	sym_report(L->sy, &d);
	diag_print(&d, stderr, "flametop");
	diag_free(&d);
}

int live_main(struct config *c)
{
	struct live L;
	struct sym_opts syo = { 0 };
	char err[512];
	bool tui = c->mode == MODE_TUI && isatty(1);
	int rc;

	memset(&L, 0, sizeof(L));
	L.c = c;
	rc = setup(&L, c);
	if (rc) {
		free(L.pids);
		return rc;
	}
	if (!tui && c->duration <= 0 && L.so.target != LIVE_COMMAND) {
		free(L.pids);
		return usage("without a terminal, live sampling needs -d SECS "
			     "(and --collapse or --text)");
	}
	L.so.command_quiet = tui;
	L.so.command_out_to_err = !tui;
	L.s = sampler_open(&L.so, err, sizeof(err));
	if (!L.s) {
		fprintf(stderr, "flametop: %s\n", err);
		free(L.pids);
		return 1;
	}
	L.wakeups = sampler_wakeups(L.s, &L.wake_id, &L.wake_pid_off);
	if (sampler_notes(L.s))
		fprintf(stderr, "flametop: %s\n", sampler_notes(L.s));
	syo.demangle = true;
	L.sy = sym_create(&syo);
	L.p = profile_create();
	/* Clock periods are nanoseconds of CPU time; other events' are
	 * counts of the event ("page-faults", "sched:sched_switch events"). */
	profile_note_unit(L.p, sampler_event(L.s)->clock || c->off_cpu
				       ? UNIT_NS : UNIT_SAMPLES);
	if (c->off_cpu) {
		profile_set_unit_name(L.p, c->wall ? "wall" : "off-CPU");
	} else {
		char unit[160];

		live_event_unit(sampler_event(L.s), unit, sizeof(unit));
		profile_set_unit_name(L.p, unit);
	}
	L.m = pe_machine_create(L.sy, L.p, &c->read);
	pe_format_from_attr(&L.fmt, sampler_attr(L.s));
	seed(&L);
	signal(SIGPIPE, SIG_IGN);
	if (sampler_start(L.s, err, sizeof(err)) < 0) {
		fprintf(stderr, "flametop: %s\n", err);
		teardown(&L);
		return 1;
	}
	L.started = L.last_refresh = L.rate_t0 = L.cpu_t0 = now_seconds();
	if (sampler_monotonic(L.s))
		L.origin_ns = mono_ns();
	L.cpu_used0 = cpu_seconds();

	if (tui) {
		static const struct tui_live_ops ops = {
			live_tick, live_action, live_status, live_time_origin,
		};
		struct tui_opts to = { 0 };

		to.title = L.target;
		to.flame = c->flame;
		to.search = c->search;
		to.icase = c->icase;
		to.theme = c->colors;
		to.message = sampler_notes(L.s);
		to.live = &ops;
		to.live_ctx = &L;
		profile_finish(L.p);
		rc = tui_run(L.p, &to);
	} else {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		run_fixed(&L);
		rc = print_result(&L);
		report(&L);
	}
	teardown(&L);
	return rc;
}
