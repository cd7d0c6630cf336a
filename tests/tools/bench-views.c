/*
 * bench-views.c - the derived views' speed on a big tree: build a profile
 * of about a million nodes (deterministic pseudo-random stacks over 50,000
 * names, as bench-tui), once without times and once with a timeline of
 * timed samples from a few hundred threads on 8 CPUs, then time each view
 * (view_derive) and the top table (view_top).  Prints the median and best
 * of several runs in milliseconds, wall-clock and CPU time of the process
 * (on a busy machine the CPU time is the steadier figure).
 *
 * usage: bench-views [NODES [WHAT]]
 *   WHAT: run only the views whose name contains it ("invert", "top")
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile.h"
#include "util.h"
#include "view.h"
#include "view-top.h"

#include "bench-common.h"

#define RUNS 7

static const char *only;     /* NULL, or the views to run */

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A tree of about want nodes; timed: every sample with time, task, CPU. */
static struct profile *build(size_t want, bool timed, size_t *samples)
{
	struct profile *p = profile_create();
	uint32_t names[50000], comms[4], stack[64];
	char buf[32];
	uint64_t t = 0;

	for (unsigned i = 0; i < 50000; i++) {
		int n = snprintf(buf, sizeof(buf), "fn_%u_%s", i,
				 i % 3 ? "work" : "io");

		names[i] = profile_intern(p, buf, (size_t)n);
	}
	for (unsigned i = 0; i < 4; i++) {
		int n = snprintf(buf, sizeof(buf), "cmd%u", i);

		comms[i] = profile_intern(p, buf, (size_t)n);
	}
	*samples = 0;
	while (profile_node_count(p) < want) {
		unsigned depth = 8 + next_rand() % 40;
		struct weight w = { 1 + next_rand() % 100, 0, 0 };
		struct sample_meta m = { 0 };
		unsigned c = next_rand() % 4;

		/* Recursion now and then, for --fold-recursion. */
		for (unsigned d = 0; d < depth; d++) {
			unsigned fan = d < 3 ? 2 + d : d < 10 ? 6 : 50000;

			stack[d] = d > 12 && next_rand() % 8 == 0 ? stack[d - 1]
				   : names[(d * 977 + next_rand() % fan) % 50000];
		}
		if (timed) {
			stack[0] = comms[c];
			m.time_ns = t += 1000000;
			m.has_time = m.has_task = m.has_cpu = true;
			m.pid = 100 + c;
			m.tid = m.pid * 1000 + next_rand() % 64;
			m.cpu = next_rand() % 8;
			m.comm = comms[c];
		}
		profile_add_stack(p, stack, depth, &w, timed ? &m : NULL);
		(*samples)++;
	}
	profile_finish(p);
	return p;
}

static void bench(const struct profile *p, const char *what,
		  const struct view_spec *s, double target)
{
	double ms[RUNS], cpu[RUNS];
	size_t nodes = 0;

	if (only && !strstr(what, only))
		return;
	for (int i = 0; i < RUNS; i++) {
		double t0 = now_seconds(), c0 = cpu_seconds();
		struct profile *v = NULL;
		char err[256];

		if (s) {
			if (view_derive(p, s, &v, err, sizeof(err))) {
				printf("   %-44s %s\n", what, err);
				return;
			}
			nodes = profile_node_count(v);
		} else {
			struct view_top_row *rows;

			nodes = view_top(p, &rows);
			free(rows);
		}
		ms[i] = (now_seconds() - t0) * 1000;
		cpu[i] = (cpu_seconds() - c0) * 1000;
		profile_destroy(v);
	}
	qsort(ms, RUNS, sizeof(*ms), cmp_double);
	qsort(cpu, RUNS, sizeof(*cpu), cmp_double);
	printf("   %-30s median %7.2f ms, best %7.2f ms, CPU %7.2f ms "
	       "(target <= %3.0f ms: %s; %zu %s)\n", what, ms[RUNS / 2], ms[0],
	       cpu[RUNS / 2], target, ms[0] <= target ? "ok" : "OVER", nodes,
	       s ? "nodes" : "rows");
}

static void bench_all(const struct profile *p, bool timed)
{
	const char *inc[] = { "_io$" }, *exc[] = { "^fn_1[0-9]*_work$" };
	const char *focus = profile_name(p, profile_node(p,
					 profile_node(p, NODE_ROOT)->child)->child);
	struct view_spec s;
	uint64_t lo, hi;
	char err[64];

#define SPEC(...) (memset(&s, 0, sizeof(s)), __VA_ARGS__, &s)
	bench(p, "top table", NULL, 50);
	bench(p, "include _io$", SPEC(s.include = inc, s.ninclude = 1), 150);
	bench(p, "exclude ^fn_1[0-9]*_work$",
	      SPEC(s.exclude = exc, s.nexclude = 1), 150);
	bench(p, "callees of a frame at depth 2", SPEC(s.callees = focus), 150);
	bench(p, "callers of a frame at depth 2", SPEC(s.callers = focus), 150);
	bench(p, "invert", SPEC(s.invert = true), 150);
	bench(p, "fold recursion", SPEC(s.fold_recursion = true), 150);
	bench(p, "weight order", SPEC(s.order = ORDER_WEIGHT,
				      s.fold_recursion = true), 150);
	if (!timed)
		return;
	bench(p, "group per thread", SPEC(s.group = GROUP_THREAD), 150);
	memset(&s, 0, sizeof(s));
	view_list_parse(&s.cpus, "0-3", err, sizeof(err));
	bench(p, "cpus 0-3", &s, 150);
	view_list_free(&s.cpus);
	if (profile_time_bounds(p, &lo, &hi))
		bench(p, "time range (middle half)",
		      SPEC(s.has_range = true, s.first = lo + (hi - lo) / 4,
			   s.last = hi - (hi - lo) / 4), 150);
}

int main(int argc, char **argv)
{
	char *end = NULL;
	size_t want = argc > 1 ? strtoul(argv[1], &end, 10) : 1000000, n;
	double t0 = now_seconds();
	struct profile *p;

	if (argc > 1 && (end == argv[1] || *end || want == 0)) {
		fprintf(stderr, "usage: bench-views [NODES [WHAT]]: NODES is a "
			"number of nodes, 1 or more\n");
		return 2;
	}
	only = argc > 2 ? argv[2] : NULL;
	p = build(want, false, &n);

	printf("   tree: %zu nodes, %zu stacks, built in %.2f s\n",
	       profile_node_count(p), n, now_seconds() - t0);
	bench_all(p, false);
	profile_destroy(p);
	t0 = now_seconds();
	p = build(want, true, &n);
	printf("   timed tree: %zu nodes, %zu samples with time, thread and "
	       "CPU, built in %.2f s\n", profile_node_count(p), n,
	       now_seconds() - t0);
	bench_all(p, true);
	profile_destroy(p);
	return 0;
}
