/*
 * test-view.c - derived views on small trees: include/exclude, callers,
 * callees, invert, folded recursion, their order, task/CPU filters and
 * grouping, time ranges, weight order, the top table, and the errors.
 * Each view is compared as its folded stacks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export.h"
#include "profile.h"
#include "stacks.h"
#include "search.h"
#include "view.h"
#include "view-top.h"

/* The profile as folded stacks, into a static buffer. */
static const char *folded(const struct profile *p)
{
	static char out[4096];
	FILE *f;

	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out), "w");

	assert_non_null(f);
	export_collapse(f, p);
	assert_int_equal(fclose(f), 0);
	return out;
}

/* Derive spec from p; it must succeed.  The caller destroys the result. */
static struct profile *derive(const struct profile *p,
			      const struct view_spec *s)
{
	struct profile *v;
	char err[256];

	assert_int_equal(view_derive(p, s, &v, err, sizeof(err)), VIEW_OK);
	assert_non_null(v);
	return v;
}

static struct profile *sample_profile(void)
{
	struct profile *p = profile_create();

	add(p, "main;foo;bar", 3);
	add(p, "main;baz", 2);
	add(p, "idle", 5);
	add(p, "a;foo;b;foo;c", 1);
	add(p, "x;foo", 2);
	profile_finish(p);
	return p;
}

#define CHECK_VIEW(p, spec, want) do { \
		struct profile *v_ = derive((p), (spec)); \
		assert_string_equal(folded(v_), (want)); \
		profile_destroy(v_); \
	} while (0)

static void include_exclude(void **state)
{
	struct profile *p = sample_profile();
	const char *inc[] = { "^ba[rz]$", "^c$" }, *exc[] = { "^b$" };
	struct view_spec s = { 0 };

	(void)state;
	s.include = inc;
	s.ninclude = 1;
	CHECK_VIEW(p, &s, "main;baz 2\nmain;foo;bar 3\n");
	s.ninclude = 2;    /* any of them */
	CHECK_VIEW(p, &s, "a;foo;b;foo;c 1\nmain;baz 2\nmain;foo;bar 3\n");
	s.exclude = exc;
	s.nexclude = 1;    /* both: kept by one, dropped by the other */
	CHECK_VIEW(p, &s, "main;baz 2\nmain;foo;bar 3\n");
	s.ninclude = 0;
	CHECK_VIEW(p, &s, "idle 5\nmain;baz 2\nmain;foo;bar 3\nx;foo 2\n");
	profile_destroy(p);
}

/* exclude_search: a search's matching stacks dropped too, an exact name
 * that no regex could spell (bytes that are not UTF-8) included, each
 * search with its own case. */
static void exclude_by_search(void **state)
{
	struct profile *p = profile_create();
	struct search *q = search_create();
	const char *exc[] = { "^y$" };
	struct view_spec s = { 0 };
	char err[64];

	(void)state;
	add(p, "main;a\xffz;c", 5);
	add(p, "main;c", 3);
	add(p, "main;A\xffZ;c", 4);
	add(p, "main;y;c", 1);
	profile_finish(p);
	search_set_literal(q, "a\xffz", 3);
	s.exclude_search = q;
	s.callees = "c";
	CHECK_VIEW(p, &s, "c 8\n");
	s.exclude = exc;    /* both: dropped by either */
	s.nexclude = 1;
	CHECK_VIEW(p, &s, "c 7\n");
	assert_int_equal(search_set(q, "^a", true, err, sizeof(err)), 0);
	s.nexclude = 0;
	CHECK_VIEW(p, &s, "c 4\n");   /* its case: both a\xffz and A\xffZ */
	search_destroy(q);
	profile_destroy(p);
}

static void callees_callers(void **state)
{
	struct profile *p = sample_profile();
	struct view_spec s = { 0 };

	(void)state;
	s.callees = "foo";   /* from the outermost foo, recursion kept */
	CHECK_VIEW(p, &s, "foo 2\nfoo;b;foo;c 1\nfoo;bar 3\n");
	s.callees = NULL;
	s.callers = "foo";
	CHECK_VIEW(p, &s, "foo;a 1\nfoo;main 3\nfoo;x 2\n");
	s.callers = "c";
	CHECK_VIEW(p, &s, "c;foo;b;foo;a 1\n");
	profile_destroy(p);
}

static void invert_and_order_of_steps(void **state)
{
	struct profile *p = profile_create();
	struct view_spec s = { 0 };

	(void)state;
	add(p, "m;f;f;g", 1);
	add(p, "m;f", 2);
	add(p, "m;h;f;f;f", 4);
	profile_finish(p);
	s.invert = true;
	CHECK_VIEW(p, &s, "f;f;f;h;m 4\nf;m 2\ng;f;f;m 1\n");
	s.fold_recursion = true;
	CHECK_VIEW(p, &s, "f;h;m 4\nf;m 2\ng;f;m 1\n");
	/* callees first, then fold, then invert */
	s.callees = "f";
	CHECK_VIEW(p, &s, "f 6\ng;f 1\n");
	s.invert = false;
	CHECK_VIEW(p, &s, "f 6\nf;g 1\n");
	s.callees = NULL;
	s.callers = "g";
	s.invert = true;   /* callers inverted: the path down to g */
	CHECK_VIEW(p, &s, "m;f;g 1\n");
	profile_destroy(p);
}

static void fold_recursion(void **state)
{
	struct profile *p = profile_create();
	struct view_spec s = { 0 };

	(void)state;
	add(p, "a;a;a;b;b;a", 1);
	add(p, "a;b", 2);
	add(p, "a", 3);
	add(p, "a;a", 4);
	profile_finish(p);
	s.fold_recursion = true;
	CHECK_VIEW(p, &s, "a 7\na;b 2\na;b;a 1\n");
	profile_destroy(p);
}

static void empty_results(void **state)
{
	struct profile *p = sample_profile(), *v;
	const char *inc[] = { "nothing matches this" };
	struct view_spec s = { 0 };
	char err[256];

	(void)state;
	s.include = inc;
	s.ninclude = 1;
	v = derive(p, &s);
	assert_int_equal(profile_total(v, NODE_ROOT), 0);
	assert_string_equal(folded(v), "");
	profile_destroy(v);
	memset(&s, 0, sizeof(s));
	s.callers = "nope";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_null(v);
	assert_string_equal(err, "no stack contains nope");
	/* "all" is the root, not a frame of any stack */
	s.callers = "all";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	profile_destroy(p);
}

/*
 * A name no frame has: the message names what the user may have meant,
 * escaped: where frames are source lines (--lines), the function's
 * heaviest line frame; else frames that hold the name.
 */
static void no_name_line_frames(void **state)
{
	struct profile *p = profile_create(), *v;
	struct view_spec s = { 0 };
	char err[256];

	(void)state;
	add(p, "main m.c:3;work w.c:7", 2);
	add(p, "main m.c:3;work w.c:9", 5);
	add(p, "main m.c:3;worker w.c:1", 9);
	add(p, "main m.c:4;b x\033y.c:1", 1);
	profile_finish(p);
	s.callers = "work";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_string_equal(err, "no stack contains work (its frames are "
			    "source lines here: --callers 'work w.c:9')");
	s.callers = NULL;
	s.callees = "b";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_null(strchr(err, 0x1b));
	assert_non_null(strstr(err, "--callees 'b"));
	/* The heaviest line frame of the function is named. */
	s.callees = "main";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_string_equal(err, "no stack contains main (its frames are "
			    "source lines here: --callees 'main m.c:3')");
	/* Else the 3 heaviest frames that hold the name, in any case. */
	s.callees = "ORK";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_string_equal(err, "no stack contains ORK (did you mean --callees "
			    "'worker w.c:1', 'work w.c:9' or 'work w.c:7'?)");
	s.callees = "w.c:9";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_string_equal(err, "no stack contains w.c:9 (did you mean "
			    "--callees 'work w.c:9'?)");
	s.callees = "nothing";
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_NO_NAME);
	assert_string_equal(err, "no stack contains nothing");
	profile_destroy(p);
}

static void bad_regex(void **state)
{
	struct profile *p = sample_profile(), *v;
	const char *exc[] = { "ok", "a(b" };
	struct view_spec s = { 0 };
	char err[256];

	(void)state;
	s.exclude = exc;
	s.nexclude = 2;
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)),
			 VIEW_BAD_REGEX);
	assert_null(v);
	assert_non_null(strstr(err, "--exclude 'a(b'"));
	assert_non_null(strstr(err, "offset 3"));
	profile_destroy(p);
}

static void names_with_spaces_and_fractions(void **state)
{
	struct profile *p = profile_create();
	const char *inc[] = { "do work" };
	struct view_spec s = { 0 };

	(void)state;
	assert_int_equal(stack_add_full(p, "main;do work;x y", 15, 1, -1),
			 ADD_OK);
	assert_int_equal(stack_add_full(p, "main;other", 25, 2, -1), ADD_OK);
	profile_finish(p);
	s.include = inc;
	s.ninclude = 1;
	s.invert = true;
	CHECK_VIEW(p, &s, "x y;do work;main 1.5\n");
	s.ninclude = 0;
	CHECK_VIEW(p, &s, "other;main 0.25\nx y;do work;main 1.5\n");
	profile_destroy(p);
}

/* Add a timed sample of a task on a CPU. */
static void add_task(struct profile *p, const char *stack, uint64_t v,
		     uint64_t t, const char *comm, uint32_t pid, uint32_t tid,
		     uint32_t cpu)
{
	uint32_t syms[16];
	size_t n = 0;
	struct weight w = { v, 0, 0 };
	struct sample_meta m = { 0 };
	char *copy = strdup(stack), *save = NULL;

	for (char *f = strtok_r(copy, ";", &save); f;
	     f = strtok_r(NULL, ";", &save))
		syms[n++] = profile_intern(p, f, strlen(f));
	m.time_ns = t;
	m.has_time = m.has_task = m.has_cpu = true;
	m.pid = pid;
	m.tid = tid;
	m.cpu = cpu;
	m.comm = profile_intern(p, comm, strlen(comm));
	assert_int_equal(profile_add_stack(p, syms, n, &w, &m), ADD_OK);
	free(copy);
}

static struct profile *task_profile(void)
{
	struct profile *p = profile_create();

	add_task(p, "web;main;serve", 3, 100, "web", 10, 10, 0);
	add_task(p, "web;main;serve", 2, 200, "web", 10, 11, 1);
	add_task(p, "web;worker;serve", 4, 300, "web", 10, 11, 2);
	add_task(p, "swapper;cpu_idle", 7, 400, "swapper", 0, 0, 3);
	add_task(p, "web;main", 1, 500, "web", 20, 20, 1);
	profile_finish(p);
	return p;
}

static void task_filters(void **state)
{
	struct profile *p = task_profile();
	const char *comms[] = { "swapper" };
	struct view_spec s = { 0 };
	char err[64];

	(void)state;
	assert_int_equal(view_list_parse(&s.pids, "10", err, sizeof(err)), 0);
	CHECK_VIEW(p, &s, "web;main;serve 5\nweb;worker;serve 4\n");
	view_list_free(&s.pids);
	assert_int_equal(view_list_parse(&s.tids, "11,20", err, sizeof(err)),
			 0);
	CHECK_VIEW(p, &s, "web;main 1\nweb;main;serve 2\nweb;worker;serve 4\n");
	view_list_free(&s.tids);
	assert_int_equal(view_list_parse(&s.cpus, "2-3", err, sizeof(err)), 0);
	CHECK_VIEW(p, &s, "swapper;cpu_idle 7\nweb;worker;serve 4\n");
	view_list_free(&s.cpus);
	s.comms = comms;
	s.ncomms = 1;
	CHECK_VIEW(p, &s, "swapper;cpu_idle 7\n");
	s.ncomms = 0;
	assert_int_equal(view_list_parse(&s.cpus, "3-", err, sizeof(err)), -1);
	assert_int_equal(view_list_parse(&s.cpus, "3,x", err, sizeof(err)), -1);
	assert_int_equal(view_list_parse(&s.cpus, "5-2", err, sizeof(err)), -1);
	view_list_free(&s.cpus);
	profile_destroy(p);
}

static void grouping(void **state)
{
	struct profile *p = task_profile(), *v;
	struct view_spec s = { 0 };

	(void)state;
	s.group = GROUP_PROCESS;
	CHECK_VIEW(p, &s, "swapper-0;cpu_idle 7\nweb-10;main;serve 5\n"
			  "web-10;worker;serve 4\nweb-20;main 1\n");
	s.group = GROUP_THREAD;
	CHECK_VIEW(p, &s, "swapper-0/0;cpu_idle 7\nweb-10/10;main;serve 3\n"
			  "web-10/11;main;serve 2\nweb-10/11;worker;serve 4\n"
			  "web-20/20;main 1\n");
	s.group = GROUP_MERGED;
	CHECK_VIEW(p, &s, "cpu_idle 7\nmain 1\nmain;serve 5\nworker;serve 4\n");
	/* grouping, then callers */
	s.group = GROUP_PROCESS;
	s.callers = "serve";
	CHECK_VIEW(p, &s, "serve;main;web-10 5\nserve;worker;web-10 4\n");
	/* the derived view keeps the timeline and the tasks */
	v = derive(p, &s);
	assert_true(profile_has_timeline(v));
	assert_int_equal(profile_timeline_len(v), 3);
	profile_destroy(v);
	profile_destroy(p);
}

/* The names of node n's children, in order, ";"-separated. */
static const char *children(const struct profile *p, uint32_t n)
{
	static char out[1024];
	size_t k = 0;

	out[0] = 0;
	for (uint32_t c = profile_node(p, n)->child; c != NODE_NONE;
	     c = profile_node(p, c)->next)
		k += (size_t)snprintf(out + k, sizeof(out) - k, "%s%s",
				      k ? ";" : "", profile_name(p, c));
	return out;
}

static void inverted_names_in_order(void **state)
{
	struct profile *p = profile_create(), *v;
	struct view_spec s = { 0 };

	(void)state;
	/* Names alike in their first 8 bytes, one a prefix of another. */
	add(p, "main;function_b", 1);
	add(p, "main;function_ab", 2);
	add(p, "main;function", 3);
	add(p, "other;function_ab", 4);
	add(p, "main;function_a x", 5);
	add(p, "main;f", 6);
	profile_finish(p);
	s.invert = true;
	v = derive(p, &s);
	assert_string_equal(children(v, NODE_ROOT),
			    "f;function;function_a x;function_ab;function_b");
	assert_string_equal(folded(v),
			    "f;main 6\nfunction;main 3\nfunction_a x;main 5\n"
			    "function_ab;main 2\nfunction_ab;other 4\n"
			    "function_b;main 1\n");
	profile_destroy(v);
	/* callers: one sequence per place the function is called from */
	memset(&s, 0, sizeof(s));
	s.callers = "function_ab";
	CHECK_VIEW(p, &s, "function_ab;main 2\nfunction_ab;other 4\n");
	profile_destroy(p);
}

static void grouped_roots_merge(void **state)
{
	struct profile *p = profile_create(), *v;
	struct view_spec s = { 0 };
	char err[256];

	(void)state;
	/* One thread: its command frame stripped in one stack, absent in the
	 * other; both go under the thread's root. */
	add_task(p, "web;main", 1, 100, "web", 10, 10, 0);
	add_task(p, "main;x", 2, 200, "web", 10, 10, 0);
	add_task(p, "web;main;x", 4, 300, "web", 10, 10, 1);
	/* Recursion folded into a node that has children of its own. */
	add_task(p, "web;main;main;y", 8, 400, "web", 10, 10, 1);
	/* Nothing but the command frame: the root's own weight, or none. */
	add_task(p, "web", 16, 500, "web", 10, 10, 1);
	profile_finish(p);
	s.group = GROUP_THREAD;
	s.fold_recursion = true;
	CHECK_VIEW(p, &s, "web-10/10 16\nweb-10/10;main 1\n"
			  "web-10/10;main;x 6\nweb-10/10;main;y 8\n");
	s.group = GROUP_MERGED;
	s.invert = true;
	CHECK_VIEW(p, &s, "main 1\nx;main 6\ny;main 8\n");
	s.invert = false;
	s.callers = "web";     /* the stripped frame: an empty stack */
	assert_int_equal(view_derive(p, &s, &v, err, sizeof(err)), VIEW_OK);
	assert_int_equal(profile_total(v, NODE_ROOT), 0);
	profile_destroy(v);
	profile_destroy(p);
}

static void view_of_a_view(void **state)
{
	struct profile *p = profile_create(), *v;
	const char *inc[] = { "." };
	struct view_spec s = { 0 };

	(void)state;
	/* The commands are interned after the frames: the view numbers its
	 * names otherwise, and its samples name their commands by its own. */
	add_task(p, "a;b", 1, 100, "web", 10, 10, 0);
	add_task(p, "c;d", 2, 200, "srv", 20, 21, 0);
	profile_finish(p);
	s.include = inc;
	s.ninclude = 1;
	v = derive(p, &s);
	memset(&s, 0, sizeof(s));
	s.group = GROUP_PROCESS;
	CHECK_VIEW(v, &s, "srv-20;c;d 2\nweb-10;a;b 1\n");
	s.group = GROUP_THREAD;
	s.invert = true;
	CHECK_VIEW(v, &s, "b;a;web-10/10 1\nd;c;srv-20/21 2\n");
	profile_destroy(v);
	profile_destroy(p);
}

static void hide_idle(void **state)
{
	struct profile *p = task_profile(), *f = profile_create();
	struct view_spec s = { 0 };

	(void)state;
	s.hide_idle = true;
	/* tasks known: the idle task is pid 0, whatever its frames */
	CHECK_VIEW(p, &s, "web;main 1\nweb;main;serve 5\nweb;worker;serve 4\n");
	/*
	 * No tasks (folded): a frame named exactly as the idle task or a
	 * kernel idle loop function, with or without _[k], case and all
	 * (also under -i); names that only hold "idle" are work.
	 */
	add(f, "swapper;secondary_startup_64;cpu_startup_entry;do_idle", 5);
	add(f, "swapper;cpu_startup_entry;do_idle;default_idle", 100);
	add(f, "swapper/3;intel_idle", 1);
	add(f, "kworker;cpu_startup_entry", 1);
	add(f, "acpi_idle_do_entry_[k]", 1);
	add(f, "app;main;poll_idle_wait", 2);
	add(f, "myapp;main;reap_idle_connections", 50);
	add(f, "myapp;main;work", 50);
	add(f, "app;Do_Idle", 1);
	add(f, "app;do_idle_x", 1);
	add(f, "swapperd;run", 1);
	profile_finish(f);
	CHECK_VIEW(f, &s, "app;Do_Idle 1\napp;do_idle_x 1\n"
		   "app;main;poll_idle_wait 2\nmyapp;main;reap_idle_connections 50\n"
		   "myapp;main;work 50\nswapperd;run 1\n");
	s.icase = true;
	CHECK_VIEW(f, &s, "app;Do_Idle 1\napp;do_idle_x 1\n"
		   "app;main;poll_idle_wait 2\nmyapp;main;reap_idle_connections 50\n"
		   "myapp;main;work 50\nswapperd;run 1\n");
	profile_destroy(f);
	profile_destroy(p);
}

static void time_range(void **state)
{
	struct profile *p = task_profile();
	struct view_spec s = { 0 };

	(void)state;
	s.has_range = true;
	s.first = 150;
	s.last = 300;
	CHECK_VIEW(p, &s, "web;main;serve 2\nweb;worker;serve 4\n");
	/* the source's own range applies as well */
	profile_set_range(p, 250, 1000);
	CHECK_VIEW(p, &s, "web;worker;serve 4\n");
	s.has_range = false;
	CHECK_VIEW(p, &s, "swapper;cpu_idle 7\nweb;main 1\nweb;worker;serve 4\n");
	profile_destroy(p);
}

static void untimed_weight_kept(void **state)
{
	struct profile *p = profile_create();
	struct view_spec s = { 0 };

	(void)state;
	add(p, "a;b", 2);
	add_timed(p, "a;b", 3, 10);
	add_timed(p, "a;c", 1, 20);
	profile_finish(p);
	s.invert = true;
	CHECK_VIEW(p, &s, "b;a 5\nc;a 1\n");
	profile_destroy(p);
}

/*
 * Add stack with weight v and the labels "k=v,k2=v2" (untimed, as pprof's
 * samples): the labels go into p's table and the sample keeps its set.
 */
static void add_labelled(struct profile *p, const char *stack, uint64_t v,
			 const char *labels)
{
	struct labels *l = profile_labels_w(p);
	uint32_t syms[16], pairs[16];
	size_t n = 0, np = 0;
	struct weight w = { v, 0, 0 };
	struct sample_meta m = { .labels = 0 };
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", stack);
	for (char *f = strtok_r(buf, ";", &save); f; f = strtok_r(NULL, ";", &save))
		syms[n++] = profile_intern(p, f, strlen(f));
	snprintf(buf, sizeof(buf), "%s", labels);
	for (char *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(f, '=');

		pairs[2 * np] = labels_str(l, f, (size_t)(eq - f));
		pairs[2 * np++ + 1] = labels_str(l, eq + 1, strlen(eq + 1));
	}
	m.labels = labels_set(l, pairs, np);
	assert_int_equal(profile_add_stack(p, syms, n, &w, &m), ADD_OK);
}

static struct profile *labelled_profile(void)
{
	struct profile *p = profile_create();

	add_labelled(p, "main;a", 3, "worker=x");
	add_labelled(p, "main;a", 2, "worker=y,kind=batch");
	add_labelled(p, "main;b", 4, "worker=y");
	add_labelled(p, "main;a", 1, "worker=x");
	add(p, "main;c", 5);            /* no labels */
	profile_finish(p);
	return p;
}

/* Label sets: one id per distinct set, set 0 the empty one. */
static void label_sets(void **state)
{
	struct labels *l = labels_create();
	uint32_t a = labels_str(l, "k", 1), b = labels_str(l, "v", 1);
	uint32_t p1[] = { a, b }, p2[] = { a, b, a, a };
	size_t n;

	(void)state;
	assert_int_equal(labels_set(l, p1, 0), 0);
	assert_int_equal(labels_set(l, p1, 1), 1);
	assert_int_equal(labels_set(l, p2, 2), 2);
	assert_int_equal(labels_set(l, p1, 1), 1);
	assert_int_equal(labels_count(l), 3);
	assert_int_equal(labels_pairs(l, 2, &n)[3], a);
	assert_int_equal(n, 2);
	/* Many sets: the table grows, ids stay. */
	for (uint32_t i = 0; i < 5000; i++) {
		uint32_t q[] = { a, labels_str(l, (const char *)&i, sizeof(i)) };

		assert_int_equal(labels_set(l, q, 1), 3 + i);
	}
	assert_int_equal(labels_set(l, p2, 2), 2);
	assert_ptr_equal(labels_share(l), l);
	labels_destroy(l);
	assert_int_equal(labels_set(l, p1, 1), 1);   /* still held */
	labels_destroy(l);
}

/* --tag: any KEY=VALUE keeps, a KEY!=VALUE drops; samples without labels
 * are kept only when no KEY=VALUE is asked for. */
static void label_filters(void **state)
{
	struct profile *p = labelled_profile();
	const char *x[] = { "worker=x" }, *xb[] = { "worker=x", "kind=batch" },
		   *noty[] = { "worker!=y" }, *none[] = { "worker=zzz" };
	struct view_spec s = { 0 };

	(void)state;
	s.tags = x;
	s.ntags = 1;
	CHECK_VIEW(p, &s, "main;a 4\n");
	s.tags = xb;
	s.ntags = 2;
	CHECK_VIEW(p, &s, "main;a 6\n");
	s.tags = noty;
	s.ntags = 1;
	CHECK_VIEW(p, &s, "main;a 4\nmain;c 5\n");
	s.tags = none;
	CHECK_VIEW(p, &s, "");
	/* With inversion, and a view of a view keeps the labels. */
	{
		struct view_spec a = { 0 }, b = { 0 };
		struct profile *v;

		a.tags = noty;
		a.ntags = 1;
		a.invert = true;
		v = derive(p, &a);
		assert_string_equal(folded(v), "a;main 4\nc;main 5\n");
		b.label_key = "worker";
		CHECK_VIEW(v, &b, "worker=;c;main 5\nworker=x;a;main 4\n");
		profile_destroy(v);
	}
	profile_destroy(p);
}

/* --group label:KEY: a root per value, "KEY=" for none; the shares. */
static void label_group(void **state)
{
	struct profile *p = labelled_profile();
	struct view_spec s = { 0 };
	struct label_share *sh;
	size_t n, len;
	const struct labels *l = profile_labels(p);

	(void)state;
	s.label_key = "worker";
	CHECK_VIEW(p, &s, "worker=;main;c 5\nworker=x;main;a 4\n"
		   "worker=y;main;a 2\nworker=y;main;b 4\n");
	s.label_key = "kind";
	s.callers = "a";
	CHECK_VIEW(p, &s, "a;main;kind= 4\na;main;kind=batch 2\n");
	sh = view_label_shares(p, &n);
	assert_int_equal(n, 3);
	assert_string_equal(labels_name(l, sh[0].key, &len), "kind");
	assert_int_equal(sh[0].weight, 2);
	assert_string_equal(labels_name(l, sh[1].value, &len), "y");
	assert_int_equal(sh[1].weight, 6);
	assert_string_equal(labels_name(l, sh[2].value, &len), "x");
	assert_int_equal(sh[2].weight, 4);
	free(sh);
	profile_destroy(p);
}

static void weight_order(void **state)
{
	struct profile *p = sample_profile(), *v;
	struct view_spec s = { 0 };
	uint32_t c;
	/* main and idle weigh 5 each: their tie stays in name order */
	const char *want[] = { "idle", "main", "x", "a" };
	int i = 0;

	(void)state;
	s.order = ORDER_WEIGHT;
	s.fold_recursion = true;
	v = derive(p, &s);
	for (c = profile_node(v, NODE_ROOT)->child; c != NODE_NONE;
	     c = profile_node(v, c)->next)
		assert_string_equal(profile_name(v, c), want[i++]);
	assert_int_equal(i, 4);
	profile_destroy(v);
	/* and back to names on the source itself */
	profile_set_order(p, ORDER_WEIGHT);
	profile_finish(p);
	assert_string_equal(profile_name(p, profile_node(p, NODE_ROOT)->child),
			    "idle");
	profile_set_range(p, 0, 0);   /* no timed sample: all weigh 0 */
	assert_string_equal(profile_name(p, profile_node(p, NODE_ROOT)->child),
			    "a");
	profile_clear_range(p);
	add(p, "x;y", 10);
	profile_finish(p);
	assert_string_equal(profile_name(p, profile_node(p, NODE_ROOT)->child),
			    "x");
	profile_set_order(p, ORDER_NAME);
	profile_finish(p);
	assert_string_equal(profile_name(p, profile_node(p, NODE_ROOT)->child),
			    "a");
	profile_destroy(p);
}

static const struct view_top_row *row(const struct profile *p,
				      const struct view_top_row *r, size_t n,
				      const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(symtab_name(profile_symtab(p), r[i].sym), name) == 0)
			return &r[i];
	fail_msg("no row %s", name);
	return NULL;
}

static void top_table(void **state)
{
	struct profile *p = profile_create();
	struct view_top_row *r;
	size_t n;

	(void)state;
	add(p, "a;b;a;b", 3);
	add(p, "a;c", 1);
	add(p, "a;b;a", 2);
	profile_finish(p);
	n = view_top(p, &r);
	assert_int_equal(n, 3);
	/* sorted by self: b 3, a 2, c 1 */
	assert_string_equal(symtab_name(profile_symtab(p), r[0].sym), "b");
	assert_int_equal(row(p, r, n, "a")->self, 2);
	assert_int_equal(row(p, r, n, "a")->total, 6);  /* once per stack */
	assert_int_equal(row(p, r, n, "b")->self, 3);
	assert_int_equal(row(p, r, n, "b")->total, 5);
	assert_int_equal(row(p, r, n, "c")->total, 1);
	view_top_sort(p, r, n, TOP_BY_TOTAL);
	assert_string_equal(symtab_name(profile_symtab(p), r[0].sym), "a");
	view_top_sort(p, r, n, TOP_BY_NAME);
	assert_string_equal(symtab_name(profile_symtab(p), r[2].sym), "c");
	free(r);
	profile_destroy(p);
}

static void top_printed(void **state)
{
	struct profile *p = profile_create();
	char out[1024];
	FILE *f = fmemopen(out, sizeof(out), "w");

	(void)state;
	assert_int_equal(stack_add_full(p, "main;do\x1bwork", 15, 1, -1), ADD_OK);
	assert_int_equal(stack_add_full(p, "main;x y", 5, 1, -1), ADD_OK);
	profile_finish(p);
	assert_int_equal(view_print_top(f, p, NULL, 1), 1);
	fclose(f);
	assert_string_equal(out,
		"# all: 2 samples\n"
		"# self%  total%      self     total  function\n"
		" 75.00%  75.00%      1.50      1.50  do\\x1bwork\n");
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(include_exclude),
		cmocka_unit_test(exclude_by_search),
		cmocka_unit_test(callees_callers),
		cmocka_unit_test(invert_and_order_of_steps),
		cmocka_unit_test(fold_recursion),
		cmocka_unit_test(empty_results),
		cmocka_unit_test(no_name_line_frames),
		cmocka_unit_test(bad_regex),
		cmocka_unit_test(names_with_spaces_and_fractions),
		cmocka_unit_test(task_filters),
		cmocka_unit_test(grouping),
		cmocka_unit_test(inverted_names_in_order),
		cmocka_unit_test(grouped_roots_merge),
		cmocka_unit_test(view_of_a_view),
		cmocka_unit_test(hide_idle),
		cmocka_unit_test(time_range),
		cmocka_unit_test(untimed_weight_kept),
		cmocka_unit_test(label_sets),
		cmocka_unit_test(label_filters),
		cmocka_unit_test(label_group),
		cmocka_unit_test(weight_order),
		cmocka_unit_test(top_table),
		cmocka_unit_test(top_printed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
