/*
 * export-view.c - the command line's derived view and what prints it:
 * the view options (--include, --callers, --invert, ...) become a view
 * spec, and the derived profile goes to --top, --collapse, --text or
 * --pprof.  The file and live front ends share it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "annotate.h"
#include "diag.h"
#include "diff.h"
#include "export.h"
#include "options.h"
#include "search.h"
#include "symtab.h"
#include "textfmt.h"
#include "util.h"
#include "view.h"
#include "tui.h"
#include "view-top.h"

/* Split "a,b,c" into spec->comms (pointers into a copy kept in *buf). */
static void split_comms(struct view_spec *s, const char *list, char **buf)
{
	char *p;

	*buf = xstrdup(list);
	for (p = *buf;;) {
		char *e = strchr(p, ',');

		if (e)
			*e = 0;
		if (*p) {
			s->comms = xreallocarray(s->comms, s->ncomms + 1,
						 sizeof(*s->comms));
			s->comms[s->ncomms++] = p;
		}
		if (!e)
			break;
		p = e + 1;
	}
}

/*
 * Do p's samples say what c's per-sample views read: the task for --comm,
 * --pids, --tids and --group, the CPU for --cpus?  Folded stacks (and
 * pprof) say neither, and those views would keep nothing, silently: say
 * so, naming the option, and return false.  A profile with no samples
 * (live, nothing sampled) has nothing to say.
 */
static bool samples_known(const struct profile *p, const struct config *c)
{
	const char *opt = c->comms ? "--comm" : c->pids ? "--pids"
			  : c->tids ? "--tids" : c->group ? "--group" : NULL;
	bool none = profile_samples(p) == 0;
	bool task = !opt || none, cpu = !c->cpus || none;
	size_t n = profile_timeline_len(p);
	const char *what;

	for (size_t i = 0; i < n && !(task && cpu); i++) {
		struct sample_meta m;
		uint64_t w;

		profile_timeline_sample(p, i, &w, &m);
		task |= m.has_task;
		cpu |= m.has_cpu;
	}
	if (task && cpu)
		return true;
	if (!task) {
		what = strcmp(opt, "--comm") ? "process and thread" : "command";
	} else {
		opt = "--cpus";
		what = "CPU";
	}
	fprintf(stderr, "flametop: %s: the input does not say which %s took "
		"each sample (folded stacks never do; perf script and perf.data "
		"do when their samples carry it)\n", opt, what);
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Append to buf[*at..cap), cut to fit: *at stays below cap. */
static void appendf(char *buf, size_t cap, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void appendf(char *buf, size_t cap, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at + 1 >= cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *at, cap - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at = *at + (size_t)k < cap ? *at + (size_t)k : cap - 1;
}

/* Append the sorted v[0..n) to buf as "1, 3-5, 9", at most 12 runs. */
static void put_runs(char *buf, size_t cap, size_t *at, uint32_t *v, size_t n)
{
	size_t runs = 0;

	qsort(v, n, sizeof(*v), cmp_u32);
	for (size_t i = 0; i < n; runs++) {
		size_t j = i;

		while (j + 1 < n && (v[j + 1] == v[j] || v[j + 1] == v[j] + 1))
			j++;
		if (runs == 12) {
			appendf(buf, cap, at, ", ...");
			break;
		}
		if (v[j] > v[i])
			appendf(buf, cap, at, "%s%u-%u", runs ? ", " : "", v[i],
				v[j]);
		else
			appendf(buf, cap, at, "%s%u", runs ? ", " : "", v[i]);
		i = j + 1;
	}
}

/*
 * --comm, --pids, --tids or --cpus that keep none of p's samples: a
 * misspelt command or a pid of another run leaves an empty view with no
 * word why.  Say so, with the commands (heaviest first), processes,
 * threads or CPUs the samples have.
 */
static void task_filter_note(const struct profile *p, const struct config *c)
{
	const struct symtab *st = profile_symtab(p);
	size_t ntl = profile_timeline_len(p), nut = profile_untimed_len(p);
	size_t n = ntl + nut, at = 0, o = 0;
	uint32_t *pid = xcalloc(n ? n : 1, sizeof(*pid));
	uint32_t *tid = xcalloc(n ? n : 1, sizeof(*tid));
	uint32_t *cpu = xcalloc(n ? n : 1, sizeof(*cpu));
	uint64_t *commw = xcalloc(symtab_count(st) + 1, sizeof(*commw));
	const char *name[] = { "--comm", "--pids", "--tids", "--cpus" };
	const char *val[] = { c->comms, c->pids, c->tids, c->cpus };
	size_t np = 0, nc = 0;
	unsigned given = 0;
	char why[1024] = "", opts[512] = "";

	for (size_t i = 0; i < n; i++) {
		struct sample_meta m;
		uint64_t w;

		if (i < ntl)
			profile_timeline_sample(p, i, &w, &m);
		else
			profile_untimed_sample(p, i - ntl, &w, &m);
		if (m.has_task) {
			pid[np] = m.pid;
			tid[np++] = m.tid;
			if (m.comm < symtab_count(st))
				commw[m.comm] += w ? w : 1;
		}
		if (m.has_cpu)
			cpu[nc++] = m.cpu;
	}
	if (c->comms) {
		appendf(why, sizeof(why), &at, "commands: ");
		for (unsigned k = 0; k < 6; k++) {
			uint32_t best = UINT32_MAX;

			for (uint32_t y = 0; y < symtab_count(st); y++)
				if (commw[y] && (best == UINT32_MAX ||
						 commw[y] > commw[best]))
					best = y;
			if (best == UINT32_MAX)
				break;
			commw[best] = 0;
			if (k)
				appendf(why, sizeof(why), &at, ", ");
			at += textfmt_escape(symtab_name(st, best),
					     symtab_len(st, best), why + at,
					     sizeof(why) - at);
		}
	}
	if (c->pids) {
		appendf(why, sizeof(why), &at, "%sprocesses: ", at ? "; " : "");
		put_runs(why, sizeof(why), &at, pid, np);
	}
	if (c->tids) {
		appendf(why, sizeof(why), &at, "%sthreads: ", at ? "; " : "");
		put_runs(why, sizeof(why), &at, tid, np);
	}
	if (c->cpus) {
		appendf(why, sizeof(why), &at, "%sCPUs: ", at ? "; " : "");
		put_runs(why, sizeof(why), &at, cpu, nc);
	}
	for (unsigned i = 0; i < 4; i++)
		if (val[i])
			appendf(opts, sizeof(opts), &o, "%s%s %s", given++ ? " " : "",
				name[i], val[i]);
	fprintf(stderr, "flametop: %s%s%s keep%s none of its %llu samples (the "
		"samples' %s)\n", c->nfiles == 1 ? c->files[0] : "",
		c->nfiles == 1 ? ": " : "", opts, given > 1 ? "" : "s",
		(unsigned long long)profile_samples(p), why);
	free(pid);
	free(tid);
	free(cpu);
	free(commw);
}

/*
 * export_derive, or with samples_only the per-sample views of c alone
 * (--comm, --pids, --tids, --cpus, --group, --tag), in name order.
 */
static int derive(struct profile *p, const struct config *c,
		  bool samples_only, struct profile **out)
{
	struct view_spec s;
	char err[512], *commbuf = NULL;
	enum view_status st;
	int rc = 0;

	*out = NULL;
	memset(&s, 0, sizeof(s));
	if (!samples_only) {
		s.include = c->include;
		s.ninclude = c->ninclude;
		s.exclude = c->exclude;
		s.nexclude = c->nexclude;
		s.icase = c->icase;
		s.callers = c->callers;
		s.callees = c->callees;
		s.invert = c->invert;
		s.fold_recursion = c->fold_recursion;
	}
	/* The lists were checked by options_parse. */
	if (c->pids)
		view_list_parse(&s.pids, c->pids, err, sizeof(err));
	if (c->tids)
		view_list_parse(&s.tids, c->tids, err, sizeof(err));
	if (c->cpus)
		view_list_parse(&s.cpus, c->cpus, err, sizeof(err));
	if (c->comms)
		split_comms(&s, c->comms, &commbuf);
	if (c->group)
		s.group = strcmp(c->group, "process") == 0 ? GROUP_PROCESS
			: strcmp(c->group, "thread") == 0 ? GROUP_THREAD
			: GROUP_MERGED;
	s.tags = c->tags;
	s.ntags = c->ntags;
	s.label_key = c->label_key;
	s.order = !samples_only && c->order && strcmp(c->order, "weight") == 0
		  ? ORDER_WEIGHT : ORDER_NAME;
	st = VIEW_OK;
	if (!samples_known(p, c)) {
		rc = 1;
	} else if (!view_spec_active(&s)) {
		if (s.order != profile_order(p)) {
			profile_set_order(p, s.order);
			profile_finish(p);
		}
	} else {
		st = view_derive(p, &s, out, err, sizeof(err));
		if (err[0])     /* an error, or a note */
			fprintf(stderr, "flametop: %s\n", err);
		if (!st && (c->comms || c->pids || c->tids || c->cpus) &&
		    profile_samples(p) && !profile_total(*out, NODE_ROOT) &&
		    profile_total(p, NODE_ROOT))
			task_filter_note(p, c);
		if (!st && c->ntags && profile_samples(p) &&
		    !profile_total(*out, NODE_ROOT) && profile_total(p, NODE_ROOT))
			fprintf(stderr, "flametop: %s%s--tag leaves none of its "
				"%llu samples%s\n", c->nfiles == 1 ? c->files[0] : "",
				c->nfiles == 1 ? ": " : "",
				(unsigned long long)profile_samples(p),
				profile_has_labels(p) ? "" :
				" (none carries a label)");
	}
	view_list_free(&s.pids);
	view_list_free(&s.tids);
	view_list_free(&s.cpus);
	free(s.comms);
	free(commbuf);
	return rc ? rc : st == VIEW_BAD_REGEX ? 2 : st == VIEW_NO_NAME ? 1 : 0;
}

int export_derive(struct profile *p, const struct config *c,
		  struct profile **out)
{
	return derive(p, c, false, out);
}

int export_normalize(struct profile **p, struct config *c)
{
	struct profile *v = NULL, *n;
	int rc;

	/* The per-sample views (labels too) first: BEFORE is scaled to
	 * what they keep of AFTER. */
	if (c->comms || c->pids || c->tids || c->cpus || c->group ||
	    c->ntags || c->label_key) {
		if ((rc = derive(*p, c, true, &v)) != 0)
			return rc;
		c->comms = c->pids = c->tids = c->cpus = c->group = NULL;
		c->ntags = 0;
		c->label_key = NULL;
	}
	n = diff_normalize(v ? v : *p);
	profile_destroy(v);
	profile_destroy(*p);
	*p = n;
	return 0;
}

bool export_negate(const struct profile **shown, struct profile **v,
		   const struct config *c)
{
	struct profile *sw;

	if (!c->negate || !profile_is_differential(*shown))
		return false;
	/* Sized by BEFORE; the marks keep their meaning. */
	sw = diff_swap(*shown);
	profile_destroy(*v);
	*shown = *v = sw;
	return true;
}

FILE *export_file_open(struct atomic_file *af, const char *path)
{
	FILE *f;

	if (strcmp(path, "-") == 0)
		return stdout;
	if (!(f = atomic_file_open(af, path, true)))
		fprintf(stderr, "flametop: %s: cannot write: %s\n", path,
			strerror(errno));
	return f;
}

int export_file_check(const char *path)
{
	struct atomic_file af;
	struct stat st;

	/* Not opened: a FIFO would wait for its reader. */
	if (strcmp(path, "-") == 0 ||
	    (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
		return 0;
	if (!export_file_open(&af, path))
		return 1;
	atomic_file_abort(&af);
	return 0;
}

int export_file_close(struct atomic_file *af, FILE *f, const char *path)
{
	if (f == stdout)
		return 0;
	if (atomic_file_commit(af, NULL) == 0)
		return 0;
	fprintf(stderr, "flametop: %s: error writing: %s (not written)\n",
		path, strerror(errno));
	atomic_file_abort(af);
	return 1;
}

/*
 * --pprof FILE: shown (the view of p) as a pprof profile, its weights
 * named as p's were read.  A comparison has two counts per stack and
 * pprof one: refused.
 */
static int write_pprof(const struct profile *p, const struct profile *shown,
		       const struct config *c)
{
	const struct pprof_types *ty = c->read.types;
	struct pprof_source src = { profile_unit(p), profile_unit_name(p),
				    NULL, NULL, NULL, NULL };
	struct pprof_stats st;
	struct atomic_file af;
	FILE *f;
	int rc;

	if (profile_is_differential(shown)) {
		fprintf(stderr, "flametop: --pprof: this is a comparison, with "
			"two counts per stack, and a pprof profile has one: "
			"write each input on its own (go tool pprof "
			"-diff_base compares them)\n");
		return 1;
	}
	/* A pprof input's own type; perf.data's events are named below. */
	if (ty && ty->n && ty->cur < ty->n && !ty->events) {
		src.type = ty->name[ty->cur];
		src.type_unit = ty->unit[ty->cur];
	}
	src.locs = profile_frame_locs_get(p);
	src.names = profile_symtab(p);
	if (!(f = export_file_open(&af, c->pprof)))
		return 1;
	rc = export_pprof(f, shown, &src, &st);
	if (f == stdout) {
		rc = rc || fflush(stdout) != 0 || ferror(stdout);
		if (rc)
			fprintf(stderr, "flametop: error writing output\n");
	} else if (rc) {
		fprintf(stderr, "flametop: %s: error writing: %s (not "
			"written)\n", c->pprof, strerror(af.err ? af.err : EIO));
		atomic_file_abort(&af);
		rc = 1;
	} else {
		rc = export_file_close(&af, f, c->pprof);
	}
	if (rc == 0 && st.rounded)
		fprintf(stderr, "flametop: --pprof: pprof values are whole "
			"numbers: fractional weights were rounded\n");
	return rc;
}

int export_run(FILE *f, struct profile *p, const struct config *c,
	       const char *title, unsigned width)
{
	struct profile *v;
	const struct profile *shown;
	bool negated = false;
	int rc;

	if (c->mode == MODE_ANNOTATE) {
		/* The address tables are the profile's: no derived view. */
		struct ann_opts ao = { c->source_paths, c->nsource_paths,
				       c->prefix_maps, c->nprefix_maps,
				       c->read.symfs, c->disasm };
		struct diag d;

		diag_init(&d);
		rc = export_annotate(f, p, c->annotate, &ao, &d);
		diag_print(&d, stderr, "flametop");
		diag_free(&d);
		return rc;
	}
	rc = export_derive(p, c, &v);

	if (rc)
		return rc;
	shown = v ? v : p;
	if (c->mode != MODE_COLLAPSE && c->mode != MODE_TOP)
		negated = export_negate(&shown, &v, c);
	if (c->mode == MODE_TOP && profile_is_differential(shown)) {
		diff_print_top(f, shown, c->top_n);
	} else if (c->mode == MODE_TOP) {
		view_print_top(f, shown, p, c->top_n);
	} else if (c->mode == MODE_COLLAPSE) {
		export_collapse(f, shown);
	} else if (c->mode == MODE_PPROF) {
		rc = write_pprof(p, shown, c);
	} else {
		struct text_opts to = { 0 };
		struct search *srch = NULL;

		to.width = c->width ? c->width : width;
		to.height = c->height;
		to.flame = c->flame;
		to.zoom = NODE_ROOT;
		to.title = title;
		to.negated = negated;
		if (c->search) {
			char err[300];

			srch = search_create();
			if (search_set(srch, c->search, c->icase, err,
				       sizeof(err)) < 0) {
				fprintf(stderr, "flametop: --search: %s\n", err);
				search_destroy(srch);
				profile_destroy(v);
				return 2;
			}
			to.search = srch;
		}
		export_text(f, shown, &to);
		search_destroy(srch);
	}
	profile_destroy(v);
	return rc;
}

/*
 * Regexes given with a repeatable option (any matches) as one, the view's
 * step's: "(?:a)|(?:b)"; the one itself, or NULL for none.  *buf: what to
 * free.
 */
static const char *joined(const char **re, size_t n, char **buf)
{
	size_t len = 0, at = 0;

	if (n <= 1)
		return n ? re[0] : NULL;
	for (size_t i = 0; i < n; i++)
		len += strlen(re[i]) + 6;
	*buf = xmalloc(len + 1);
	for (size_t i = 0; i < n; i++)
		at += (size_t)sprintf(*buf + at, "%s(?:%s)", i ? "|" : "", re[i]);
	return *buf;
}

/*
 * --comm, --pids, --tids and --cpus as the view's task filter:
 * "comm=a,b pid=1 tid=2 cpu=0-3" (a command's blanks as its root frame
 * spells them, '_'), or NULL.  *buf: what to free.
 */
static const char *tasks_of(const struct config *c, char **buf)
{
	const char *key[] = { "comm", "pid", "tid", "cpu" };
	const char *val[] = { c->comms, c->pids, c->tids, c->cpus };
	size_t len = 0, at = 0;

	for (int i = 0; i < 4; i++)
		len += val[i] ? strlen(val[i]) + 6 : 0;
	if (!len)
		return NULL;
	*buf = xmalloc(len + 1);
	for (int i = 0; i < 4; i++) {
		if (!val[i])
			continue;
		at += (size_t)sprintf(*buf + at, "%s%s=", at ? " " : "", key[i]);
		for (const char *q = val[i]; *q; q++)
			(*buf)[at++] = *q == ' ' ? '_' : *q;
		(*buf)[at] = 0;
	}
	return *buf;
}

void export_tui_view(const struct config *c, struct tui_opts *o, bool focus,
		     struct export_tui_bufs *b)
{
	memset(b, 0, sizeof(*b));
	o->tags = (const char *const *)c->tags;
	o->ntags = c->ntags;
	o->label_key = c->label_key;
	o->include = joined(c->include, c->ninclude, &b->include);
	o->exclude = joined(c->exclude, c->nexclude, &b->exclude);
	if (focus) {
		o->focus = c->callers ? c->callers : c->callees;
		o->callers = c->callers != NULL;
	}
	o->invert = c->invert;
	o->fold = c->fold_recursion;
	o->weight = c->order && strcmp(c->order, "weight") == 0;
	o->tasks = tasks_of(c, &b->tasks);
	o->group = !c->group ? GROUP_ASREAD
		   : strcmp(c->group, "process") == 0 ? GROUP_PROCESS
		   : strcmp(c->group, "thread") == 0 ? GROUP_THREAD
		   : GROUP_MERGED;
}

void export_tui_view_free(struct export_tui_bufs *b)
{
	free(b->include);
	free(b->exclude);
	free(b->tasks);
}
