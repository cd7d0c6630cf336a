/*
 * fuzz-views.c - derived views: random specs applied to random profiles.
 *
 * Input: 8 bytes of spec, then lines.  The first three lines are an
 * include regex, an exclude regex and a callers/callees name (empty: none);
 * each further line is a stack ("a;b;c"), added with a weight, a time, a
 * task and a CPU made from its position (when the spec asks for a
 * timeline), its first frame as the command.  The view is derived, derived
 * again with inversion toggled (views of views), exported, and its top
 * table printed, all to /dev/null.  A view never weighs more than its
 * source, and a function's self never exceeds its total.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "profile.h"
#include "view.h"
#include "view-top.h"

#define MAX_FRAMES 64

/* The next line of data[*pos..size), without its '\n'. */
static const uint8_t *next_line(const uint8_t *data, size_t size, size_t *pos,
				size_t *len)
{
	const uint8_t *s = data + *pos, *e;

	if (*pos >= size)
		return NULL;
	e = memchr(s, '\n', size - *pos);
	*len = e ? (size_t)(e - s) : size - *pos;
	*pos += *len + (e ? 1 : 0);
	return s;
}

static char *dup_line(const uint8_t *s, size_t n)
{
	char *c = malloc(n + 1);

	if (!c)
		abort();
	memcpy(c, s, n);
	c[n] = 0;
	/* A regex holding a NUL ends there (the spec takes C strings). */
	return c;
}

static void add_stacks(struct profile *p, const uint8_t *data, size_t size,
		       size_t pos, uint8_t flags, unsigned decimals)
{
	uint32_t syms[MAX_FRAMES];
	const uint8_t *s;
	size_t len;
	unsigned line = 0;

	while ((s = next_line(data, size, &pos, &len)) != NULL) {
		struct weight w = { line % 7 + 1, 0, decimals };
		struct sample_meta m = { 0 };
		size_t n = 0, a = 0;

		for (size_t i = 0; i <= len && n < MAX_FRAMES; i++)
			if (i == len || s[i] == ';') {
				syms[n++] = profile_intern(p, (const char *)s + a,
							   i - a);
				a = i + 1;
			}
		if (flags & 0x20) {
			m.has_time = true;
			m.time_ns = (uint64_t)line * 1000;
			m.has_task = line % 5 != 4;
			m.pid = line % 4;
			m.tid = m.pid * 10 + line % 3;
			m.comm = syms[0];
			m.has_cpu = line % 6 != 5;
			m.cpu = line % 3;
		}
		profile_add_stack(p, syms, n, &w, &m);
		line++;
	}
}

static void check_top(const struct profile *p)
{
	struct view_top_row *rows;
	size_t n = view_top(p, &rows);

	for (size_t i = 0; i < n; i++)
		if (rows[i].self > rows[i].total ||
		    rows[i].total > profile_total(p, NODE_ROOT))
			__builtin_trap();
	free(rows);
}

static void show(const struct profile *v, const struct profile *whole,
		 FILE *null)
{
	struct text_opts t = { .width = 80, .zoom = NODE_ROOT };

	export_collapse(null, v);
	export_text(null, v, &t);
	view_print_top(null, v, whole, 5);
	check_top(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p, *v = NULL, *w = NULL;
	struct view_spec s = { 0 };
	const uint8_t *l[3];
	size_t len[3], pos = 8;
	char *re[3] = { NULL, NULL, NULL }, err[256];
	const char *inc[1], *exc[1];
	uint32_t plo, phi, clo, chi;
	FILE *null;

	if (size < 8)
		return 0;
	for (int i = 0; i < 3; i++) {
		l[i] = next_line(data, size, &pos, &len[i]);
		re[i] = l[i] && len[i] ? dup_line(l[i], len[i]) : NULL;
	}
	p = profile_create();
	add_stacks(p, data, size, pos, data[0], data[1] % 3);
	profile_finish(p);
	if (data[0] & 0x40 && profile_has_timeline(p))
		profile_set_range(p, data[5] * 1000u, data[5] * 1000u + data[6] * 500u);
	if (re[0]) {
		inc[0] = re[0];
		s.include = inc;
		s.ninclude = 1;
	}
	if (re[1]) {
		exc[0] = re[1];
		s.exclude = exc;
		s.nexclude = 1;
	}
	if (re[2] && (data[0] & 3) == 1)
		s.callers = re[2];
	else if (re[2] && (data[0] & 3) == 2)
		s.callees = re[2];
	s.invert = data[0] & 4;
	s.fold_recursion = data[0] & 8;
	s.icase = data[0] & 16;
	s.group = (enum view_group)(data[1] >> 2 & 3);
	s.order = data[1] & 0x10 ? ORDER_WEIGHT : ORDER_NAME;
	if (data[1] & 0x20) {
		s.has_range = true;
		s.first = data[2] * 700u;
		s.last = s.first + data[3] * 900u;
	}
	if (data[4] & 1) {
		plo = data[4] >> 1 & 3;
		phi = data[4] >> 3 & 3;
		s.pids.lo = &plo;
		s.pids.hi = &phi;
		s.pids.n = 1;
	}
	if (data[4] & 0x20) {
		clo = data[7] & 3;
		chi = data[7] >> 2 & 3;
		s.cpus.lo = &clo;
		s.cpus.hi = &chi;
		s.cpus.n = 1;
	}
	null = fopen("/dev/null", "w");
	if (null && view_derive(p, &s, &v, err, sizeof(err)) == VIEW_OK) {
		if (profile_total(v, NODE_ROOT) > profile_total(p, NODE_ROOT))
			__builtin_trap();
		show(v, p, null);
		memset(&s, 0, sizeof(s));
		s.invert = !(data[0] & 4);
		s.fold_recursion = data[7] & 0x80;
		if (view_derive(v, &s, &w, err, sizeof(err)) == VIEW_OK) {
			if (profile_total(w, NODE_ROOT) > profile_total(v, NODE_ROOT))
				__builtin_trap();
			show(w, p, null);
		}
	}
	if (null)
		fclose(null);
	profile_destroy(w);
	profile_destroy(v);
	profile_destroy(p);
	for (int i = 0; i < 3; i++)
		free(re[i]);
	return 0;
}
