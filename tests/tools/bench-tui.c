/*
 * bench-tui.c - the TUI's speed on a big tree: build a profile of about a
 * million nodes in memory (deterministic pseudo-random stacks over 50,000
 * names), then time, on a curses screen that writes to /dev/null:
 *   - layout + draw of one screen after a change (a resize, a zoom, a key),
 *   - a regex search over the whole tree (compile, match every name once,
 *     the matched weight, the frames highlighted on screen).
 * Prints the median and best of several runs in milliseconds.
 *
 * usage: bench-tui [NODES [ROWS COLS]]
 */
#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "tui.h"
#include "util.h"

#include "bench-common.h"

#define RUNS 15

static void report(const char *what, double *ms, int n, double target)
{
	qsort(ms, (size_t)n, sizeof(*ms), cmp_double);
	printf("   %-44s median %7.2f ms, best %7.2f ms (target <= %.0f ms)\n",
	       what, ms[n / 2], ms[0], target);
}

int main(int argc, char **argv)
{
	size_t want = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	unsigned rows = argc > 3 ? (unsigned)atoi(argv[2]) : 60;
	unsigned cols = argc > 3 ? (unsigned)atoi(argv[3]) : 200;
	struct profile *p = profile_create();
	uint32_t *names = xmalloc(50000 * sizeof(*names));
	uint32_t stack[64];
	struct tui_opts o = { .title = "bench" };
	char err[256], buf[32];
	struct tui *t;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *s;
	double ms[RUNS], t0, build;
	size_t stacks = 0;

	if (!out || !in)
		return 1;
	t0 = now_seconds();
	for (unsigned i = 0; i < 50000; i++) {
		int n = snprintf(buf, sizeof(buf), "fn_%u_%s", i,
				 i % 3 ? "work" : "io");

		names[i] = profile_intern(p, buf, (size_t)n);
	}
	/*
	 * Stacks share prefixes the way real ones do: a few roots, a
	 * narrowing choice of callees near the top, and wide variety below.
	 */
	while (profile_node_count(p) < want) {
		unsigned depth = 8 + next_rand() % 40;
		struct weight w = { 1 + next_rand() % 100, 0, 0 };

		for (unsigned d = 0; d < depth; d++) {
			unsigned fan = d < 3 ? 2 + d : d < 10 ? 6 : 50000;

			stack[d] = names[(d * 977 + next_rand() % fan) % 50000];
		}
		profile_add_stack(p, stack, depth, &w, NULL);
		stacks++;
	}
	profile_finish(p);
	build = now_seconds() - t0;
	printf("   tree: %zu nodes, %zu stacks, %u names, built in %.2f s; "
	       "screen %ux%u\n", profile_node_count(p), stacks, 50000u, build,
	       cols, rows);

	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	s = newterm("xterm-256color", out, in);
	if (!s) {
		printf("   SKIP: no xterm-256color terminfo\n");
		return 0;
	}
	resizeterm((int)rows, (int)cols);
	t = tui_create(p, &o, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "bench-tui: %s\n", err);
		return 1;
	}
	tui_set_size(t, rows, cols);
	tui_draw(t);

	/* A resize: the whole tree laid out again, then drawn. */
	for (int i = 0; i < RUNS; i++) {
		t0 = now_seconds();
		tui_set_size(t, rows, cols - (unsigned)(i & 1));
		tui_draw(t);
		ms[i] = (now_seconds() - t0) * 1e3;
	}
	report("layout+draw after a resize:", ms, RUNS, 16);

	/* Zoom in and out: a relayout each. */
	tui_do(t, ACT_DOWN);
	for (int i = 0; i < RUNS; i++) {
		t0 = now_seconds();
		tui_do(t, i & 1 ? ACT_UNZOOM : ACT_ZOOM);
		tui_draw(t);
		ms[i] = (now_seconds() - t0) * 1e3;
	}
	report("key (zoom in/out) + layout + draw:", ms, RUNS, 16);

	/* A move: no relayout, a redraw. */
	for (int i = 0; i < RUNS; i++) {
		t0 = now_seconds();
		tui_do(t, i & 1 ? ACT_LEFT : ACT_RIGHT);
		tui_draw(t);
		ms[i] = (now_seconds() - t0) * 1e3;
	}
	report("key (move) + draw:", ms, RUNS, 16);

	/* A regex search over the whole tree. */
	for (int i = 0; i < RUNS; i++) {
		t0 = now_seconds();
		tui_search(t, i & 1 ? "fn_1[0-9]*7_io$" : "^fn_[0-9]*3_work");
		ms[i] = (now_seconds() - t0) * 1e3;
	}
	report("regex search (1M nodes):", ms, RUNS, 50);
	for (int i = 0; i < RUNS; i++) {
		t0 = now_seconds();
		tui_search(t, i & 1 ? "fn_1[0-9]*7_io$" : "^fn_[0-9]*3_work");
		tui_draw(t);
		ms[i] = (now_seconds() - t0) * 1e3;
	}
	report("regex search + draw:", ms, RUNS, 50);

	tui_destroy(t);
	endwin();
	delscreen(s);
	fclose(out);
	fclose(in);
	free(names);
	profile_destroy(p);
	return 0;
}
