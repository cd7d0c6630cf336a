/*
 * live.c - live mode: sampled records become stacks in the profile, shown
 * as a rolling window in the TUI or printed after a fixed duration.  The
 * parts are listed in live-priv.h.
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

#include "live-priv.h"
#include "search.h"
#include "symbols.h"
#include "unwind.h"
#include "util.h"

static const double windows[] = { 1, 5, 30, 0 };   /* 0: everything */

uint64_t live_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double live_cpu_seconds(void)
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
void live_learn_comm(struct live *L, uint32_t pid, uint32_t tid)
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
void live_synth_maps(struct live *L, uint32_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	*live_set_add(&L->synth_pid, pid) = live_mono_ns();
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
		/* What the command left behind exits as our child: reaped
		 * here, no zombie waits for the end. */
		if (L->so.target == LIVE_COMMAND)
			sampler_reap(L->s);
		for (size_t i = 0; L->tasks.k && i <= L->tasks.mask; i++) {
			uint32_t tid;

			if (!L->tasks.k[i])
				continue;
			tid = L->tasks.k[i] - 1;
			if (!task_alive(L, tid)) {
				live_set_del(&L->tasks, tid);
				i--;   /* an entry may have shifted into slot i */
			}
		}
	}
	if (L->tasks.n == 0) {
		L->target_gone = true;
		if (!L->gone_ns)
			L->gone_ns = now;
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

/*
 * A sample (raw at h): its stack into the queue, or held back until its
 * process's jitdump names its JIT code (live-jithold.c; since: when it was
 * first held, 0: new).
 */
static void on_sample(struct live *L, const struct pe_sample *s,
		      const struct perf_event_header *h, uint64_t since)
{
	const uint32_t *ids;
	struct sample_meta meta;
	uint64_t w;
	size_t n;

	if (s->pid != 0 && !live_set_find(&L->seen_tid, s->tid)) {
		live_set_add(&L->seen_tid, s->tid);
		if (!live_set_find(&L->seen_tid, s->pid) && s->pid != s->tid) {
			live_set_add(&L->seen_tid, s->pid);
			live_learn_comm(L, s->pid, s->pid);
		}
		live_learn_comm(L, s->pid, s->tid);
	}
	if (L->so.target != LIVE_COMMAND && s->pid != 0) {
		uint64_t *when = live_set_find(&L->synth_pid, s->pid);

		if (!when)
			live_synth_maps(L, s->pid);
		else if (live_mono_ns() - *when > MAPS_RETRY_NS && has_map_miss(L, s))
			live_synth_maps(L, s->pid);
	} else if (L->so.target == LIVE_COMMAND && s->pid != 0) {
		uint64_t *when = live_set_find(&L->synth_pid, s->pid);

		if ((!when || live_mono_ns() - *when > MAPS_RETRY_NS) &&
		    has_map_miss(L, s))
			live_synth_maps(L, s->pid);
	}
	if (!L->origin_ns && s->time)
		L->origin_ns = s->time;   /* not CLOCK_MONOTONIC: the first */
	ids = pe_machine_build(L->m, s, &n);
	/* Not --off-cpu's: its waits pair switch records in order. */
	if (pe_machine_jit_unnamed(L->m) && !L->c->off_cpu &&
	    live_hold(L, h, s->pid, since ? since : live_mono_ns())) {
		pe_machine_uncount_last(L->m);
		return;
	}
	pe_machine_meta(L->m, s, &meta);
	meta.time_ns = s->time;   /* the window needs one, even if 0 */
	if (n > PROFILE_MAX_DEPTH - 1)
		n = PROFILE_MAX_DEPTH - 1;
	/* Without PERIOD in the sample (a software event's -c N), each
	 * stands for the fixed period. */
	w = s->has_period ? s->period : sampler_fixed_period(L->s);
	/* --wall: the switch event's samples have period 1, cpu-clock's
	 * at least 10000 ns (-F is at most 100000). */
	if (L->c->off_cpu && (!L->c->wall || s->period == 1))
		live_off_sample(L, s, &meta, ids, n);
	else
		/* Its addresses get its weight with its stack, at the refresh:
		 * the tables and the tree hold the same samples. */
		live_pend_push(L, ids, n, &meta, w ? w : 1,
			       pe_machine_addr_stack(L->m));
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
		on_sample(L, &r.u.sample, h, 0);
		return;
	case PERF_RECORD_COMM:
		live_set_add(&L->seen_tid, r.u.comm.tid);
		break;
	case PERF_RECORD_FORK:
		/* A child of a process not read from /proc yet: read the
		 * parent first, so the child inherits its mappings. */
		if (L->so.target == LIVE_ALL_CPUS && r.u.task.ppid != 0 &&
		    r.u.task.pid != r.u.task.ppid &&
		    !live_set_find(&L->synth_pid, r.u.task.ppid))
			live_synth_maps(L, r.u.task.ppid);
		/* The same for its name, which the child inherits. */
		if (r.u.task.ptid != 0 && !live_set_find(&L->seen_tid, r.u.task.ptid)) {
			live_set_add(&L->seen_tid, r.u.task.ptid);
			live_learn_comm(L, r.u.task.ppid, r.u.task.ptid);
		}
		if (r.u.task.pid != r.u.task.ppid)
			*live_set_add(&L->synth_pid, r.u.task.pid) = live_mono_ns();
		live_set_add(&L->seen_tid, r.u.task.tid);
		if (L->c->off_cpu)
			live_off_fork(L, r.u.task.tid);
		if (L->track_tasks && !L->target_gone)
			live_set_add(&L->tasks, r.u.task.tid);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (L->c->off_cpu)
			live_on_switch(L, &r);
		return;
	case PERF_RECORD_EXIT:
		/* The runtime flushed its jitdump before it exited. */
		if (r.u.task.pid == r.u.task.tid && L->nheld)
			live_hold_exit(L, r.u.task.pid, live_replay);
		if (L->c->off_cpu)
			live_off_exit(L, r.u.task.tid);
		live_set_del(&L->seen_tid, r.u.task.tid);
		if (r.u.task.pid == r.u.task.tid)
			live_set_del(&L->synth_pid, r.u.task.pid);
		if (L->track_tasks) {
			uint64_t t;

			live_set_del(&L->tasks, r.u.task.tid);
			/* When the last task went: the record's time where
			 * it is on our clock (not when the ring was read). */
			if (L->tasks.n == 0 && !L->gone_ns)
				L->gone_ns = sampler_monotonic(L->s) &&
					     pe_record_time(&r, &t) && t ? t :
					     live_mono_ns();
		}
		break;
	default:
		break;
	}
	pe_machine_apply(L->m, &r);
}

void live_replay(struct live *L, const struct perf_event_header *h,
		 uint64_t since)
{
	struct pe_record r;
	const char *why;

	if (pe_decode(h, h->size, &L->fmt, &r, &why) == 0 &&
	    r.type == PERF_RECORD_SAMPLE)
		on_sample(L, &r.u.sample, h, since);
}

/* Drain the rings; true when anything arrived. */
bool live_drain(struct live *L)
{
	size_t n = sampler_drain(L->s, on_record, L);

	if (L->nheld)
		live_hold_check(L, live_replay);

	prune_tasks(L, live_mono_ns());
	return n > 0;
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
		return live_mono_ns();
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
		double cpu = live_cpu_seconds();

		L->sps = (double)(st.samples - L->rate_n0) / (t - L->rate_t0);
		L->cpu_pct = 100.0 * (cpu - L->cpu_used0) / (t - L->cpu_t0);
		L->rate_t0 = L->cpu_t0 = t;
		L->rate_n0 = st.samples;
		L->cpu_used0 = cpu;
	}
}

bool live_tick(void *ctx, struct profile *p)
{
	struct live *L = ctx;
	double t = now_seconds();

	(void)p;
	live_drain(L);
	update_figures(L);
	if (!L->sampling_stopped && L->c->duration > 0 &&
	    t - L->started >= L->c->duration) {
		uint64_t stop = live_mono_ns();

		sampler_enable(L->s, false);
		L->sampling_stopped = true;
		if (L->c->off_cpu) {   /* waits still going count up to now */
			live_drain(L);
			live_off_stop(L, stop);
		}
	}
	if (t - L->last_refresh < L->interval || (L->frozen && L->freeze_all))
		return false;
	L->last_refresh = t;
	live_flush(L);
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

/* Counts start over (R, and L's change of names); a frozen view resumes. */
static void reset_counts(struct live *L)
{
	L->npend = 0;
	L->pend_samples = 0;
	profile_reset_weights(L->p);
	if (L->frozen) {
		L->frozen = false;
		apply_window(L);
	}
}

bool live_action(void *ctx, enum tui_action a, struct profile *p,
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
		live_flush(L);
		apply_window(L);
		return true;
	}
	case ACT_LIVE_FREEZE:
		if (!L->frozen) {
			uint64_t now = sample_now(L), first = 0, last = 0;
			uint64_t span = (uint64_t)(L->window * 1e9);

			live_flush(L);
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
			live_flush(L);
			apply_window(L);
			L->last_refresh = now_seconds();
			snprintf(msg, cap, "resumed");
		}
		return true;
	case ACT_LINES:
		/* What was sampled so far keeps its names: counts start over. */
		live_flush(L);
		L->c->read.lines = !L->c->read.lines;
		pe_machine_set_lines(L->m, L->c->read.lines);
		reset_counts(L);
		snprintf(msg, cap, "%s from now on (counts reset)",
			 L->c->read.lines ?
			 "frames by source line (NAME FILE:LINE)" :
			 "frames by function");
		return true;
	case ACT_LIVE_RESET:
		reset_counts(L);
		snprintf(msg, cap, "counts reset");
		return true;
	default:
		return false;
	}
}

bool live_time_origin(void *ctx, uint64_t *ns)
{
	struct live *L = ctx;

	if (!L->origin_ns)
		return false;
	*ns = L->origin_ns;
	return true;
}

void live_status(void *ctx, char *buf, size_t cap)
{
	struct live *L = ctx;
	struct sampler_stats st;
	char wn[32], thr[24] = "", rate[160];

	sampler_get_stats(L->s, &st);
	window_name(L->window, wn, sizeof(wn));
	if (st.throttled)
		snprintf(thr, sizeof(thr), "%llu", (unsigned long long)st.throttled);
	/*
	 * The title already names the target; the most useful figures come
	 * first (an 80-column header still shows them): the window, what was
	 * lost, our CPU, then the rate asked for and the rate measured.
	 */
	if (L->c->wall)
		/* Both its parts: cpu-clock at the rate, and every switch. */
		snprintf(rate, sizeof(rate), "cpu-clock %u Hz + %s",
			 sampler_freq(L->s), sampler_event_name(L->s));
	else if (L->c->off_cpu)
		/* Every switch is taken; the weights are the waits' times. */
		snprintf(rate, sizeof(rate), "%s (all, timed)",
			 sampler_event_name(L->s));
	else if (sampler_fixed_period(L->s))
		snprintf(rate, sizeof(rate), "%s every %llu",
			 sampler_event_name(L->s),
			 (unsigned long long)sampler_fixed_period(L->s));
	else
		snprintf(rate, sizeof(rate), "%s %u Hz",
			 sampler_event_name(L->s), sampler_freq(L->s));
	/* An empty view says why (a command too brief for the rate). */
	snprintf(buf, cap, "%s%s%s | lost %llu%s%s | CPU %.1f%% | %s | "
		 "%.0f/s",
		 L->frozen ? "FROZEN | " : "",
		 L->target_gone && !profile_samples(L->p) ?
		 (L->c->off_cpu || sampler_fixed_period(L->s) == 1 ?
		  "exited with no samples | " : sampler_fixed_period(L->s) ?
		  "exited with no samples (try a smaller -c N) | " :
		  "exited with no samples (try -F HZ or -c N) | ") :
		 L->target_gone ? "exited | " :
		 L->sampling_stopped ? "stopped | " : "",
		 wn, (unsigned long long)st.lost,
		 st.throttled ? ", throttled " : "", thr, L->cpu_pct,
		 rate, L->sps);
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
