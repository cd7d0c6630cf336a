/*
 * options.c - the option table and its parser.
 *
 * GNU-style: "--name value", "--name=value", "-x value", "-xvalue" and
 * bundled short flags ("-ih").  "--" ends the options; what follows is a
 * command to run and sample.
 */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labels.h"
#include "timerange.h"
#include "util.h"
#include "view.h"

enum opt_type {
	OPT_FLAG,        /* bool, set to true */
	OPT_UINT,        /* unsigned, within [min, max] */
	OPT_STR,         /* const char *, borrowed from argv */
	OPT_BYTES,       /* uint64_t, with an optional K/M/G suffix */
	OPT_FORMAT,      /* enum input_format by name */
	OPT_ALL,         /* --all */
	OPT_SECS,        /* double seconds, > 0 and <= max */
	OPT_STRS,        /* repeatable: const char ** with a size_t count after */
	OPT_PERIOD,      /* uint64_t, a number of events (no suffix) */
};

struct opt_def {
	const char *name;
	char short_name;
	enum opt_type type;
	const char *arg;         /* shown in --help: "N", "REGEX" */
	size_t offset;
	uint64_t min, max;
	const char *group;
	const char *help;
};

#define OFF(f) offsetof(struct config, f)

static const struct opt_def opts[] = {
	{ "collapse", 0, OPT_FLAG, NULL, OFF(collapse), 0, 0, "Output",
	  "print the profile as folded stacks, sorted" },
	{ "text", 0, OPT_FLAG, NULL, OFF(text), 0, 0, "Output",
	  "print the flame graph as text" },
	{ "width", 'w', OPT_UINT, "N", OFF(width), 1, 100000, "Output",
	  "text width in columns (default: the terminal's, or 100)" },
	{ "height", 0, OPT_UINT, "N", OFF(height), 1, 1000000, "Output",
	  "print at most N rows of frames" },
	{ "flame", 0, OPT_FLAG, NULL, OFF(flame), 0, 0, "Output",
	  "root at the bottom (default: root at the top, icicle)" },
	{ "search", 's', OPT_STR, "REGEX", OFF(search), 0, 0, "Output",
	  "highlight frames matching a pcre2 regex" },
	{ "ignore-case", 'i', OPT_FLAG, NULL, OFF(icase), 0, 0, "Output",
	  "search without regard to case" },
	{ "colors", 0, OPT_STR, "NAME", OFF(colors), 0, 0, "Output",
	  "color theme (hot, mem, io, java, js, ...)" },
	{ "svg", 0, OPT_STR, "FILE", OFF(svg), 0, 0, "Output",
	  "write an interactive SVG flame graph to FILE ('-': stdout)" },
	{ "pprof", 0, OPT_STR, "FILE", OFF(pprof), 0, 0, "Output",
	  "write the profile (the view the options derive) to FILE as a "
	  "gzip'd pprof profile.proto, with the binaries, build-ids, "
	  "addresses and lines the input has, for go tool pprof ('-': "
	  "stdout)" },
	{ "lines", 0, OPT_FLAG, NULL, OFF(read.lines), 0, 0, "Output",
	  "one frame per source line: \"NAME FILE:LINE\" (perf.data, live, "
	  "perf script with srcline, pprof, .cpuprofile)" },
	{ "annotate", 0, OPT_STR, "NAME", OFF(annotate), 0, 0, "Output",
	  "print the source lines of function NAME (a name or a regex) with "
	  "self and total weight and share; hottest lines marked '*'" },
	{ "disasm", 0, OPT_FLAG, NULL, OFF(disasm), 0, 0, "Output",
	  "--annotate: the instructions (capstone), each with its weight, "
	  "the source line above each run, branch targets named" },
	{ "source-path", 0, OPT_STRS, "DIR", OFF(source_paths), 0, 0,
	  "Output", "--annotate and the view's a: look for sources under DIR "
	  "too (repeatable)" },
	{ "prefix-map", 0, OPT_STRS, "OLD=NEW", OFF(prefix_maps), 0, 0,
	  "Output", "--annotate and the view's a: read a source recorded "
	  "under OLD from NEW (repeatable)" },
	{ "title", 0, OPT_STR, "TEXT", OFF(title), 0, 0, "Output",
	  "the SVG's title (default: the input's name, else \"Flame Graph\")" },
	{ "pid", 0, OPT_FLAG, NULL, OFF(read.pid), 0, 0, "perf input",
	  "root frame is comm-PID" },
	{ "tid", 0, OPT_FLAG, NULL, OFF(read.tid), 0, 0, "perf input",
	  "root frame is comm-PID/TID" },
	{ "kernel", 0, OPT_FLAG, NULL, OFF(read.kernel), 0, 0, "perf input",
	  "mark kernel frames with _[k]" },
	{ "jit", 0, OPT_FLAG, NULL, OFF(read.jit), 0, 0, "perf input",
	  "mark JIT frames with _[j]" },
	{ "all", 0, OPT_ALL, NULL, 0, 0, 0, "perf input",
	  "--kernel and --jit" },
	{ "addrs", 0, OPT_FLAG, NULL, OFF(read.addrs), 0, 0, "perf input",
	  "show unknown symbols as raw addresses" },
	{ "no-inline", 0, OPT_FLAG, NULL, OFF(read.no_inline), 0, 0,
	  "perf input", "DWARF stacks: no frames for inlined functions" },
	{ "event-filter", 0, OPT_STR, "EVENT", OFF(read.event_filter), 0, 0,
	  "perf input", "keep samples of EVENT only (default: the first seen)" },
	{ "kallsyms", 0, OPT_STR, "FILE", OFF(read.kallsyms), 0, 0,
	  "perf input", "perf.data: kernel symbols from FILE, trusted even "
	  "when the kernel differs (default: /proc/kallsyms)" },
	{ "symfs", 0, OPT_STR, "DIR", OFF(read.symfs), 0, 0, "perf input",
	  "perf.data: look binaries and jitdumps up under DIR, by their "
	  "recorded path and in DIR/.build-id/" },
	{ "time", 0, OPT_STR, "RANGE", OFF(time), 0, 0, "perf input",
	  "samples in RANGE only: START,END (seconds from the first "
	  "sample), P%/N or P%-Q%" },
	{ "format", 0, OPT_FORMAT, "FMT", 0, 0, 0, "Input",
	  "input format: folded, perf-script, perf-data, pprof, cpuprofile "
	  "(default: detect)" },
	{ "sample-type", 0, OPT_STR, "NAME", OFF(read.sample_type), 0, 0,
	  "Input", "pprof: the value to show (cpu, alloc_space, ...; default: "
	  "the profile's default, else its last)" },
	{ "max-input", 0, OPT_BYTES, "BYTES", OFF(read.max_input), 1,
	  UINT64_MAX, "Input", "stop reading an input after BYTES (K, M, G); default for "
	  "compressed pprof and perf.data: 100 times its compressed size, at "
	  "least 64M" },
	{ "header", 0, OPT_STRS, "'NAME: VALUE'", OFF(read.fetch.headers), 0, 0,
	  "Input", "URL: send this HTTP header too (repeatable), e.g. a token" },
	{ "timeout", 0, OPT_SECS, "SECS", OFF(read.fetch.timeout), 0, 31536000,
	  "Input", "URL: give up after SECS (default: the URL's seconds=N "
	  "plus 30, else 30)" },
	{ "attach", 'p', OPT_STR, "PID[,PID]", OFF(attach), 0, 0,
	  "Live sampling", "sample these processes (all their threads)" },
	{ "all-cpus", 'a', OPT_FLAG, NULL, OFF(all_cpus), 0, 0,
	  "Live sampling", "sample every CPU (system-wide)" },
	{ "freq", 'F', OPT_UINT, "HZ", OFF(freq), 1, 100000, "Live sampling",
	  "sampling frequency (default 99)" },
	{ "count", 'c', OPT_PERIOD, "N", OFF(count), 1, UINT64_MAX,
	  "Live sampling", "sample every Nth event (perf's -c; the "
	  "alternative to -F)" },
	{ "duration", 'd', OPT_SECS, "SECS", OFF(duration), 0, 31536000,
	  "Live sampling", "sample for SECS, then print (--collapse, "
	  "--text) or write (--pprof)" },
	{ "event", 'e', OPT_STR, "NAME", OFF(event), 0, 0, "Live sampling",
	  "perf's name: cpu-clock (default), page-faults, "
	  "context-switches, cycles, SUBSYS:NAME tracepoints, ... (man page)" },
	{ "off-cpu", 0, OPT_FLAG, NULL, OFF(off_cpu), 0, 0, "Live sampling",
	  "where threads wait: each stack weighs the ns its thread was "
	  "blocked, switch-out to switch-in (preempted: nothing)" },
	{ "wall", 0, OPT_FLAG, NULL, OFF(wall), 0, 0, "Live sampling",
	  "on-CPU (cpu-clock) and off-CPU time together, in ns; off-CPU "
	  "stacks end in [off-cpu], preempted ones in [preempted];[off-cpu]" },
	{ "user-only", 0, OPT_FLAG, NULL, OFF(user_only), 0, 0, "Live sampling",
	  "user-space frames only" },
	{ "kernel-only", 0, OPT_FLAG, NULL, OFF(kernel_only), 0, 0,
	  "Live sampling", "kernel frames only" },
	{ "call-graph", 0, OPT_STR, "MODE", OFF(call_graph), 0, 0,
	  "Live sampling", "fp: frame pointers (the default); dwarf[,SIZE]: "
	  "unwind a SIZE-byte stack copy (default 16K, at most 64K)" },
	{ "interval", 0, OPT_SECS, "SECS", OFF(interval), 0, 3600,
	  "Live sampling", "refresh the view every SECS (default 1)" },
	{ "window", 0, OPT_SECS, "SECS", OFF(window), 0, 31536000,
	  "Live sampling", "show the last SECS of samples (default 5)" },
	{ "top", 0, OPT_STR, "N", OFF(top), 0, 0, "Views",
	  "print the N functions with most self weight (0: all): self %, "
	  "total %, self, total (366.7 ms, 1.28k), name" },
	{ "include", 0, OPT_STRS, "RE", OFF(include), 0, 0, "Views",
	  "keep the stacks with a frame matching RE (repeatable: any)" },
	{ "exclude", 0, OPT_STRS, "RE", OFF(exclude), 0, 0, "Views",
	  "drop the stacks with a frame matching RE (repeatable)" },
	{ "callers", 0, OPT_STR, "NAME", OFF(callers), 0, 0, "Views",
	  "the callers of function NAME, NAME at the root" },
	{ "callees", 0, OPT_STR, "NAME", OFF(callees), 0, 0, "Views",
	  "the callees of function NAME, NAME at the root" },
	{ "invert", 0, OPT_FLAG, NULL, OFF(invert), 0, 0, "Views",
	  "invert the stacks: the leaf first (bottom-up)" },
	{ "fold-recursion", 0, OPT_FLAG, NULL, OFF(fold_recursion), 0, 0,
	  "Views", "fold repeats of a frame (a;a;b) into one (a;b)" },
	{ "comm", 0, OPT_STR, "LIST", OFF(comms), 0, 0, "Views",
	  "keep the samples of these commands (comma-separated)" },
	{ "pids", 0, OPT_STR, "LIST", OFF(pids), 0, 0, "Views",
	  "keep the samples of these processes (0-3,5)" },
	{ "tids", 0, OPT_STR, "LIST", OFF(tids), 0, 0, "Views",
	  "keep the samples of these threads" },
	{ "cpus", 0, OPT_STR, "LIST", OFF(cpus), 0, 0, "Views",
	  "keep the samples taken on these CPUs" },
	{ "group", 0, OPT_STR, "HOW", OFF(group), 0, 0, "Views",
	  "root per process, per thread, or merged (process, thread, merged); "
	  "label:KEY: per value of a pprof label" },
	{ "tag", 0, OPT_STRS, "KEY=VALUE", OFF(tags), 0, 0, "Views",
	  "pprof: keep samples labelled with any KEY=VALUE given; KEY!=VALUE: "
	  "drop those labelled so (repeatable)" },
	{ "order", 0, OPT_STR, "ORDER", OFF(order), 0, 0, "Views",
	  "siblings by name (default) or heaviest first (weight)" },
	{ "diff", 0, OPT_FLAG, NULL, OFF(diff), 0, 0, "Compare",
	  "FILE1 FILE2: compare two profiles, BEFORE and AFTER (any formats)" },
	{ "normalize", 0, OPT_FLAG, NULL, OFF(normalize), 0, 0, "Compare",
	  "--diff: scale BEFORE's counts to AFTER's total" },
	{ "negate", 0, OPT_FLAG, NULL, OFF(negate), 0, 0, "Compare",
	  "size frames by BEFORE instead of AFTER (shows what went away)" },
	{ "help", 'h', OPT_FLAG, NULL, OFF(help), 0, 0, "Other",
	  "show this help" },
	{ "help-keys", 0, OPT_FLAG, NULL, OFF(help_keys), 0, 0, "Other",
	  "list the keys of the interactive view" },
	{ "version", 'V', OPT_FLAG, NULL, OFF(version), 0, 0, "Other",
	  "show the version" },
};

void options_usage(FILE *out)
{
	fprintf(out, "usage: flametop [OPTIONS] [FILE...]\n"
		     "       flametop [OPTIONS] -p PID | -a | -- COMMAND [ARGS]\n"
		     "Try 'flametop --help' for more information.\n");
}

void options_help(FILE *out)
{
	const char *group = NULL;

	fprintf(out,
		"usage: flametop [OPTIONS] [FILE...]\n"
		"       flametop [OPTIONS] -p PID | -a | -- COMMAND [ARGS]\n"
		"\n"
		"An interactive flame graph viewer for the terminal.  Reads folded\n"
		"stacks, perf script output, perf.data, pprof and V8 .cpuprofile\n"
		"(plain, gzip or zstd); FILE '-' or no FILE with a pipe reads standard\n"
		"input.  A FILE that is an http:// or https:// URL is fetched: a Go\n"
		"service's /debug/pprof/profile?seconds=30, /heap, /allocs, /block,\n"
		"/mutex, or any URL serving such a file (r in the view fetches it\n"
		"again).  With -p, -a or a command it samples live (perf_event_open)\n"
		"and shows the last seconds, refreshed; with -d and --collapse or\n"
		"--text it prints, with --pprof FILE it writes a pprof profile.  The\n"
		"view needs a terminal on standard output; a command run with\n"
		"standard output redirected needs --collapse, --text, --pprof or -d.\n");
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const struct opt_def *o = &opts[i];
		char left[64];

		if (!group || strcmp(group, o->group) != 0) {
			group = o->group;
			fprintf(out, "\n%s:\n", group);
		}
		snprintf(left, sizeof(left), "%c%c%s--%s%s%s",
			 o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ',
			 o->short_name ? ", " : "  ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-28s %s\n", left, o->help);
	}
	fprintf(out, "\nExit status: 0 ok, 1 error reading or sampling, "
		     "2 bad usage.\n");
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Print "flametop: MESSAGE" and the usage lines; the exit status 2. */
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "flametop: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	options_usage(stderr);
	return 2;
}

static bool parse_u64(const char *s, uint64_t *v, bool suffixes)
{
	char *end;
	unsigned long long x;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (suffixes && *end) {
		unsigned shift = 0;

		switch (toupper((unsigned char)*end)) {
		case 'K': shift = 10; break;
		case 'M': shift = 20; break;
		case 'G': shift = 30; break;
		case 'T': shift = 40; break;
		default: return false;
		}
		end++;
		if (toupper((unsigned char)*end) == 'B' ||
		    (toupper((unsigned char)*end) == 'I' &&
		     toupper((unsigned char)end[1]) == 'B'))
			end += *end == 'B' || *end == 'b' ? 1 : 2;
		if (x > (UINT64_MAX >> shift))
			return false;
		x <<= shift;
	}
	if (*end)
		return false;
	*v = x;
	return true;
}

static int set_value(struct config *c, const struct opt_def *o,
		     const char *arg)
{
	char *base = (char *)c;
	uint64_t v;

	switch (o->type) {
	case OPT_FLAG:
		*(bool *)(base + o->offset) = true;
		return 0;
	case OPT_ALL:
		c->all = c->read.kernel = c->read.jit = true;
		return 0;
	case OPT_STR:
		*(const char **)(base + o->offset) = arg;
		return 0;
	case OPT_STRS: {
		const char ***list = (const char ***)(base + o->offset);
		size_t *n = (size_t *)(base + o->offset + sizeof(*list));

		*list = xreallocarray(*list, *n + 1, sizeof(**list));
		(*list)[(*n)++] = arg;
		return 0;
	}
	case OPT_SECS: {
		char *end;
		double d;

		errno = 0;
		d = strtod(arg, &end);
		if (errno || end == arg || *end || !(d > 0) ||
		    d > (double)o->max) {
			fprintf(stderr, "flametop: --%s: bad value '%s' (seconds, "
				"more than 0 and at most %llu)\n", o->name, arg,
				(unsigned long long)o->max);
			options_usage(stderr);
			return 2;
		}
		*(double *)(base + o->offset) = d;
		return 0;
	}
	case OPT_FORMAT:
		if (strcmp(arg, "folded") == 0)
			c->read.force = FMT_FOLDED;
		else if (strcmp(arg, "perf-script") == 0)
			c->read.force = FMT_PERF_SCRIPT;
		else if (strcmp(arg, "perf-data") == 0)
			c->read.force = FMT_PERF_DATA;
		else if (strcmp(arg, "pprof") == 0)
			c->read.force = FMT_PPROF;
		else if (strcmp(arg, "cpuprofile") == 0)
			c->read.force = FMT_CPUPROFILE;
		else
			return usage_error("--format: unknown format '%s'%s", arg,
					   " (folded, perf-script, perf-data, pprof, "
					   "cpuprofile)");
		c->format = arg;
		return 0;
	case OPT_UINT:
	case OPT_BYTES:
	case OPT_PERIOD:
		if (!parse_u64(arg, &v, o->type == OPT_BYTES) || v < o->min ||
		    v > o->max) {
			char range[96];

			if (o->type == OPT_BYTES)
				snprintf(range, sizeof(range),
					 " (a size such as 500M)");
			else if (o->type == OPT_PERIOD)
				snprintf(range, sizeof(range),
					 " (a period: the number of events "
					 "between samples, 1 or more)");
			else
				snprintf(range, sizeof(range),
					 " (a number from %llu to %llu)",
					 (unsigned long long)o->min,
					 (unsigned long long)o->max);
			fprintf(stderr, "flametop: --%s: bad value '%s'%s\n",
				o->name, arg, range);
			options_usage(stderr);
			return 2;
		}
		if (o->type == OPT_BYTES || o->type == OPT_PERIOD)
			*(uint64_t *)(base + o->offset) = v;
		else
			*(unsigned *)(base + o->offset) = (unsigned)v;
		return 0;
	}
	return 2;
}

static const struct opt_def *find_long(const char *name, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (strlen(opts[i].name) == n &&
		    memcmp(opts[i].name, name, n) == 0)
			return &opts[i];
	return NULL;
}

static const struct opt_def *find_short(char ch)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].short_name == ch)
			return &opts[i];
	return NULL;
}

static bool takes_arg(const struct opt_def *o)
{
	return o->type != OPT_FLAG && o->type != OPT_ALL;
}

/* The view options' values, checked before any input is read. */
static int check_views(struct config *c)
{
	const char *lists[] = { c->pids, c->tids, c->cpus };
	const char *names[] = { "pids", "tids", "cpus" };
	uint64_t v;

	if (c->top && (!parse_u64(c->top, &v, false) || v > UINT32_MAX))
		return usage_error("--top: bad value '%s' (a number; 0: all)",
				   c->top);
	if (c->top)
		c->top_n = (unsigned)v;
	if (c->top && (c->text || c->collapse))
		return usage_error("--top and --%s do not go together",
				   c->text ? "text" : "collapse");
	if (c->callers && c->callees)
		return usage_error("--callers and --callees do not go together");
	if (c->order && strcmp(c->order, "name") != 0 &&
	    strcmp(c->order, "weight") != 0)
		return usage_error("--order: unknown order '%s' (name, weight)",
				   c->order);
	if (c->group && strncmp(c->group, "label:", 6) == 0) {
		if (!c->group[6])
			return usage_error("--group label:KEY: no KEY");
		c->label_key = c->group + 6;
		c->group = NULL;
	}
	for (size_t i = 0; i < c->ntags; i++) {
		const char *t = c->tags[i];
		bool neg;
		size_t klen, voff;

		if (!labels_tag_parse(t, &neg, &klen, &voff))
			return usage_error("--tag: '%s' is not KEY=VALUE or "
					   "KEY!=VALUE", t);
	}
	if (c->group && strcmp(c->group, "process") != 0 &&
	    strcmp(c->group, "thread") != 0 && strcmp(c->group, "merged") != 0)
		return usage_error("--group: unknown grouping '%s' (process, "
				   "thread, merged, label:KEY)", c->group);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		struct view_list l = { 0 };
		char err[256];
		int bad;

		if (!lists[i])
			continue;
		bad = view_list_parse(&l, lists[i], err, sizeof(err));
		view_list_free(&l);
		if (bad)
			return usage_error("--%s: %s", names[i], err);
	}
	return 0;
}

int options_parse(struct config *c, int argc, char **argv)
{
	int i, rc;

	memset(c, 0, sizeof(*c));
	c->files = xcalloc((size_t)argc + 1, sizeof(*c->files));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			c->command = argv + i + 1;
			c->ncommand = argc - i - 1;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			const struct opt_def *o = find_long(a + 2, n);
			const char *arg = eq ? eq + 1 : NULL;

			if (!o)
				return usage_error("unknown option '%s'", a);
			if (!takes_arg(o) && eq)
				return usage_error("option '--%s' takes no value",
						   o->name);
			if (takes_arg(o) && !arg) {
				if (i + 1 >= argc)
					return usage_error("option '--%s' needs a "
							   "value", o->name);
				arg = argv[++i];
			}
			if ((rc = set_value(c, o, arg)) != 0)
				return rc;
		} else if (a[0] == '-' && a[1]) {
			for (const char *p = a + 1; *p; p++) {
				const struct opt_def *o = find_short(*p);
				char name[2] = { *p, 0 };
				const char *arg;

				if (!o)
					return usage_error("unknown option '-%s'",
							   name);
				if (!takes_arg(o)) {
					if ((rc = set_value(c, o, NULL)) != 0)
						return rc;
					continue;
				}
				arg = p[1] ? p + 1 : NULL;
				if (!arg) {
					if (i + 1 >= argc)
						return usage_error("option '-%s' "
								   "needs a value",
								   name);
					arg = argv[++i];
				}
				if ((rc = set_value(c, o, arg)) != 0)
					return rc;
				break;
			}
		} else {
			c->files[c->nfiles++] = argv[i];
		}
	}
	if (c->text && c->collapse)
		return usage_error("--text and --collapse do not go together");
	if (c->svg && (c->text || c->collapse))
		return usage_error("--svg goes with neither --text nor --collapse");
	if (c->pprof && (c->text || c->collapse || c->svg || c->top))
		return usage_error("--pprof goes with none of --text, --collapse, "
				   "--svg and --top");
	if (c->pprof && strcmp(c->pprof, "-") == 0 && isatty(1))
		return usage_error("--pprof -: standard output is a terminal; "
				   "give a FILE, or redirect it");
	if (c->pprof && c->diff)
		return usage_error("--pprof writes one profile, and --diff "
				   "compares two: write each with --pprof (go "
				   "tool pprof -diff_base compares them)");
	if (c->time) {
		char err[256];
		uint64_t t0, t1;

		if (timerange_parse(c->time, 0, 0, &t0, &t1, err, sizeof(err)))
			return usage_error("--time: %s", err);
	}
	if ((rc = check_views(c)) != 0)
		return rc;
	for (size_t k = 0; k < c->read.fetch.nheaders; k++) {
		const char *h = c->read.fetch.headers[k], *colon = strchr(h, ':');

		if (!colon || colon == h || strpbrk(h, "\r\n"))
			return usage_error("--header: bad header '%s' (NAME: "
					   "VALUE, on one line)", h);
	}
	if (c->diff && c->nfiles != 2)
		return usage_error("--diff compares two inputs: give BEFORE "
				   "and AFTER");
	if (c->diff && (c->attach || c->all_cpus || c->ncommand))
		return usage_error("--diff reads two inputs; it does not "
				   "sample");
	if (c->normalize && !c->diff)
		return usage_error("--normalize goes with --diff");
	if (c->annotate && (c->text || c->collapse || c->svg || c->top ||
			    c->pprof))
		return usage_error("--annotate goes with none of --text, "
				   "--collapse, --svg, --top and --pprof");
	if (c->annotate && c->diff)
		return usage_error("--annotate reads one profile; --diff "
				   "compares two");
	for (size_t k = 0; k < c->nprefix_maps; k++) {
		const char *eq = strchr(c->prefix_maps[k], '=');

		if (!eq || eq == c->prefix_maps[k])
			return usage_error("--prefix-map: '%s' is not "
					   "OLD=NEW", c->prefix_maps[k]);
	}
	if (c->disasm && !c->annotate)
		return usage_error("--disasm goes with --annotate NAME");
	if ((c->nsource_paths || c->nprefix_maps) && !c->annotate &&
	    (c->text || c->collapse || c->svg || c->top || c->pprof))
		return usage_error("--source-path and --prefix-map go with "
				   "--annotate or the view (a)");
	c->mode = c->annotate ? MODE_ANNOTATE
		: c->top ? MODE_TOP : c->collapse ? MODE_COLLAPSE
		: c->text ? MODE_TEXT : c->svg ? MODE_SVG
		: c->pprof ? MODE_PPROF : MODE_TUI;
	/* Only --annotate and the view's a read the address tables. */
	c->read.no_addr_tables = c->mode != MODE_ANNOTATE &&
				 c->mode != MODE_TUI;
	return 0;
}

void options_free(struct config *c)
{
	free(c->files);
	free(c->include);
	free(c->tags);
	free(c->exclude);
	free(c->read.fetch.headers);
	c->read.fetch.headers = NULL;
	free(c->source_paths);
	free(c->prefix_maps);
	c->source_paths = c->prefix_maps = NULL;
	c->files = NULL;
	c->include = c->exclude = NULL;
}
