/*
 * live-setup.c - starting live mode: the options checked and turned into
 * a sampler and its target (a command flametop starts, -p processes, -a),
 * what the tracker must know before the first sample, then either the TUI
 * or a fixed-duration run, and the report printed at the end.
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

#include "annotate.h"
#include "diag.h"
#include "export.h"
#include "live-priv.h"
#include "symbols.h"
#include "tui.h"
#include "unwind.h"
#include "util.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

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

/* A runtime error (no permission, nothing to sample): status 1, no usage. */
static int failure(const char *msg)
{
	fprintf(stderr, "flametop: %s\n", msg);
	return 1;
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

/* Check the options and fill L->so; 0 or the exit status (2: bad usage,
 * 1: an event that cannot be sampled here). */
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
		int rc = live_event_parse(c->event, &L->so.event, err,
					  sizeof(err));

		if (rc == -1)
			return usage("%s", err);
		if (rc < 0)
			return failure(err);
	}
	L->so.period = c->count;
	L->so.freq_given = c->freq != 0;
	if (c->off_cpu) {
		char err[256];

		if (live_event_parse("context-switches", &L->so.event, err,
				     sizeof(err)) < 0)
			return failure(err);
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
		live_set_add(&L->tasks, (uint32_t)sampler_child(L->s));
		return;
	}
	if (L->so.target != LIVE_PIDS)
		return;
	for (size_t i = 0; i < L->npids; i++) {
		char path[64];
		DIR *d;
		struct dirent *e;

		live_synth_maps(L, (uint32_t)L->pids[i]);
		snprintf(path, sizeof(path), "/proc/%d/task", (int)L->pids[i]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d)) != NULL) {
			uint32_t tid;

			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			tid = (uint32_t)strtoul(e->d_name, NULL, 10);
			live_learn_comm(L, (uint32_t)L->pids[i], tid);
			live_set_add(&L->seen_tid, tid);
			live_set_add(&L->tasks, tid);
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
	live_set_free(&L->seen_tid);
	live_set_free(&L->synth_pid);
	live_set_free(&L->tasks);
	free(L->pend);
	live_hold_free(L);
	for (size_t i = 0; i < L->noff; i++)
		free(L->off[i].ids);
	free(L->off);
	live_set_free(&L->off_tid);
	free(L->pids);
}

/* Sample for the duration (or until the target exits or a signal). */
static void run_fixed(struct live *L)
{
	double end = L->c->duration > 0 ? L->started + L->c->duration : 0;
	uint64_t stop;

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
		live_drain(L);
	}
	stop = live_mono_ns();
	sampler_enable(L->s, false);
	live_drain(L);
	live_hold_end(L, live_replay);
	if (L->c->off_cpu)
		live_off_stop(L, stop);
	live_flush(L);
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

/*
 * What would lose fewer samples, by how the event is sampled: a rate (-F),
 * every Nth event (-c), or every event whatever the period (a tracepoint,
 * the switches of --off-cpu and --wall): then only a smaller target helps.
 */
static void lost_hint(const struct live *L, char *buf, size_t cap)
{
	const struct live_event *ev = sampler_event(L->s);
	uint64_t period = sampler_fixed_period(L->s);

	if (L->c->off_cpu || ev->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, cap, "%s is sampled at every event: sample "
			 "fewer tasks or CPUs", L->c->off_cpu ?
			 (L->c->wall ? "--wall" : "--off-cpu") : ev->name);
	else if (period == 1)
		snprintf(buf, cap, "try -c N to sample every Nth event (now "
			 "every one)");
	else if (period)
		snprintf(buf, cap, "try a larger -c (now one sample every "
			 "%llu %s)", (unsigned long long)period,
			 ev->clock ? "ns" : "events");
	else
		snprintf(buf, cap, "try a lower -F (now %u Hz)",
			 sampler_freq(L->s));
}

/*
 * What would have sampled a run that gave nothing: a higher rate or a
 * smaller period when it was too brief (cpu_ms: the command's CPU time,
 * -1 when not known), or the event never came.
 */
static void no_sample_hint(const struct live *L, double ms, double cpu_ms,
			   char *buf, size_t cap)
{
	const struct live_event *ev = sampler_event(L->s);
	uint64_t period = sampler_fixed_period(L->s);

	if (L->c->off_cpu && !L->c->wall) {
		snprintf(buf, cap, "it never blocked while sampled (--off-cpu "
			 "weighs only the time off a CPU)");
	} else if (ev->type == PERF_TYPE_TRACEPOINT ||
		   (period == 1 && !ev->clock)) {
		snprintf(buf, cap, "no %s event occurred", ev->name);
	} else if (period) {
		snprintf(buf, cap, "one sample every %llu %s: try a smaller -c N",
			 (unsigned long long)period,
			 ev->clock ? "ns of CPU time" : "events");
	} else {
		double every = 1e3 / sampler_freq(L->s);
		int k = 0;

		if (cpu_ms >= 0)
			k = snprintf(buf, cap, "it ran %.1f ms on a CPU, and ",
				     cpu_ms);
		if (k < 0 || (size_t)k >= cap)
			return;
		snprintf(buf + k, cap - (size_t)k, "at %u Hz one sample comes "
			 "every %.1f ms%s: sample more often with -F HZ, or "
			 "every Nth event with -c N%s", sampler_freq(L->s), every,
			 ev->clock ? " of CPU time" : "",
			 ev->clock && cpu_ms >= 0 && cpu_ms < every && ms > 2 * every
			 ? " (or see where it waited with --off-cpu)" : "");
	}
}

/* Nothing was sampled: what ran, for how long, and what would sample it. */
static void warn_no_samples(struct live *L, struct diag *d)
{
	uint64_t end = L->gone_ns ? L->gone_ns : live_mono_ns();
	double ms = end > L->start_ns ? (double)(end - L->start_ns) / 1e6 : 0;
	double cpu_ms = -1;
	char hint[400];

	if (L->so.target == LIVE_COMMAND && L->target_gone) {
		sampler_child_wait(L->s);   /* exiting: its CPU time */
		cpu_ms = sampler_child_cpu_ms(L->s);
	}
	no_sample_hint(L, ms, cpu_ms, hint, sizeof(hint));
	if (L->target_gone)
		diag_warn(d, "%s exited after %.*f ms with no samples: %s",
			  L->so.target == LIVE_COMMAND ? "the command" :
			  L->npids == 1 ? "the process" : "the processes",
			  ms < 10 ? 1 : 0, ms, hint);
	else
		diag_warn(d, "no samples of %s in %.1f s: %s", L->target,
			  ms / 1e3, hint);
}

static void report(struct live *L)
{
	struct sampler_stats st;
	struct diag d;

	sampler_get_stats(L->s, &st);
	diag_init(&d);
	if (profile_samples(L->p) == 0)
		warn_no_samples(L, &d);
	if (st.lost) {
		char hint[256];

		lost_hint(L, hint, sizeof(hint));
		diag_warn(&d, "%llu samples lost (the rings were full); %s",
			  (unsigned long long)st.lost, hint);
	}
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
	    profile_samples(L->p) > 0 &&
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
	/*
	 * Standard output a file or a pipe: the view cannot open there.  A
	 * command without --collapse or --text would be sampled unseen until
	 * it ends (its output on the terminal, q ignored): more often than
	 * not, a redirection meant for the command.  Say so instead.
	 */
	if (!tui && c->duration <= 0 && L.so.target == LIVE_COMMAND &&
	    c->mode == MODE_TUI) {
		free(L.pids);
		return usage("standard output is not a terminal, so the view "
			     "cannot open: to print the profile when the "
			     "command ends, add --collapse, --text or --pprof "
			     "FILE (and -d "
			     "SECS to stop sooner); to send the command's own "
			     "output elsewhere, redirect it inside: flametop "
			     "-- sh -c 'COMMAND > FILE'");
	}
	if (!tui && c->duration <= 0 && L.so.target != LIVE_COMMAND) {
		free(L.pids);
		return usage("without a terminal, live sampling needs -d SECS "
			     "(and --collapse, --text or --pprof FILE)");
	}
	L.so.command_quiet = tui;
	L.so.command_out_to_err = !tui;
	/* kallsyms takes the kernel tens of ms to print (more on a busy
	 * machine): it is read while the events are opened, and waited for
	 * before sampling starts, not in the first drain, where a burst of
	 * samples would fill the rings meanwhile. */
	syo.demangle = true;
	L.sy = sym_create(&syo);
	if (L.so.stacks != STACKS_USER)
		sym_preload_kernel(L.sy);
	L.s = sampler_open(&L.so, err, sizeof(err));
	if (!L.s) {
		fprintf(stderr, "flametop: %s\n", err);
		sym_destroy(L.sy);
		free(L.pids);
		return 1;
	}
	if (sampler_notes(L.s))
		fprintf(stderr, "flametop: %s\n", sampler_notes(L.s));
	L.p = profile_create();
	/* Clock periods are nanoseconds of CPU time; other events' are
	 * counts of the event ("page-faults", "sched:sched_switch events"). */
	{
		char unit[160];

		if (c->off_cpu)
			snprintf(unit, sizeof(unit), "%s",
				 c->wall ? "wall" : "off-CPU");
		else
			live_event_unit(sampler_event(L.s), unit, sizeof(unit));
		profile_note_unit_named(L.p, sampler_event(L.s)->clock ||
					c->off_cpu ? UNIT_NS : UNIT_SAMPLES,
					unit);
	}
	L.m = pe_machine_create(L.sy, L.p, &c->read);
	pe_machine_jit_times(L.m, sampler_monotonic(L.s));
	L.hold_to_exit = !tui;
	pe_format_from_attr(&L.fmt, sampler_attr(L.s));
	seed(&L);
	signal(SIGPIPE, SIG_IGN);
	sym_kernel_join(L.sy);
	L.start_ns = live_mono_ns();   /* the command's exec follows */
	if (sampler_start(L.s, err, sizeof(err)) < 0) {
		fprintf(stderr, "flametop: %s\n", err);
		teardown(&L);
		return 1;
	}
	L.started = L.last_refresh = L.rate_t0 = L.cpu_t0 = now_seconds();
	if (sampler_monotonic(L.s))
		L.origin_ns = live_mono_ns();
	L.cpu_used0 = live_cpu_seconds();

	if (tui) {
		static const struct tui_live_ops ops = {
			live_tick, live_action, live_status, live_time_origin,
		};
		struct tui_opts to = { 0 };
		struct export_tui_bufs vb;
		struct ann_opts ao = { c->source_paths, c->nsource_paths,
				       c->prefix_maps, c->nprefix_maps, NULL,
				       false };

		to.ann_opts = &ao;
		to.title = L.target;
		to.flame = c->flame;
		to.search = c->search;
		to.icase = c->icase;
		to.theme = c->colors;
		to.message = sampler_notes(L.s);
		to.live = &ops;
		to.live_ctx = &L;
		/*
		 * The view options, as with a file: the view's first step.
		 * Not --callers or --callees: no stack has the name before
		 * the first samples come.
		 */
		export_tui_view(c, &to, false, &vb);
		profile_finish(L.p);
		rc = tui_run(L.p, &to);
		export_tui_view_free(&vb);
	} else {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		run_fixed(&L);
		/* No sample is an error, as for an input without one: the
		 * report says why, and nothing is printed. */
		rc = profile_samples(L.p) ? print_result(&L) : 1;
		report(&L);
	}
	teardown(&L);
	return rc;
}
