/*
 * main.c - flametop's entry point: parse options, read the inputs into one
 * profile, and hand it to a front end.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "annotate.h"
#include "diag.h"
#include "diff.h"
#include "export.h"
#include "fetch.h"
#include "keys.h"
#include "live.h"
#include "options.h"
#include "profile.h"
#include "read.h"
#include "search.h"
#include "textfmt.h"
#include "theme.h"
#include "timerange.h"
#include "tui.h"
#include "util.h"
#include "version.h"

/*
 * The width of --text without -w: COLUMNS, then the controlling terminal's
 * width (also when standard output is a pipe, as in "flametop --text F |
 * less"), then 100.
 */
static unsigned terminal_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	int fd;

	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (!*end && v > 0 && v <= 100000)
			return (unsigned)v;
	}
	if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		int r = ioctl(fd, TIOCGWINSZ, &ws);

		close(fd);
		if (r == 0 && ws.ws_col > 0)
			return ws.ws_col;
	}
	return 100;
}

/*
 * A profile from one URL (not --diff): the body it was read from is kept,
 * so that e reads another sample type without fetching again, and r in
 * the view fetches it again in the background.
 */
struct url_source {
	struct config *c;
	char *body;                  /* what the profile shown was read from */
	size_t len;
	char *prev;                  /* the fetch before it (r), or NULL */
	size_t prevlen;
	struct fetch_job *job;       /* r: the fetch under way, or NULL */
};

/*
 * Read every input into p: 0 when all were read, 1 when some could not be
 * (what could be read is still shown, and the exit status says 1), -1
 * when none gave stacks.  A URL's kept body is read instead of fetching.
 */
static int load(struct profile *p, struct config *c, struct url_source *u,
		struct diag *d)
{
	int ok = 0;

	if (u && u->body)
		return read_profile_mem(p, u->body, u->len, c->files[0],
					&c->read, d) < 0 ? -1 : 0;

	for (int i = 0; i < c->nfiles; i++)
		if (read_profile(p, c->files[i], &c->read, d) == 0)
			ok++;
	return !ok ? -1 : ok < c->nfiles ? 1 : 0;
}

/* Whether an input is standard input ("-"): it cannot be read again. */
static bool reads_stdin(const struct config *c)
{
	for (int i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], "-") == 0)
			return true;
	return false;
}

/*
 * A pipe that has not written yet would leave the terminal blank until it
 * does: say what flametop waits for (erased by tui_load_progress_done).
 */
static void say_waiting(const struct config *c, struct tui_progress *pr)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };

	if (!reads_stdin(c) || isatty(0) || !isatty(2) || poll(&pfd, 1, 0) != 0)
		return;
	fprintf(stderr, "\rflametop: waiting for input on stdin%s\033[K",
		textfmt_utf8() ? "\u2026" : "...");
	fflush(stderr);
	pr->shown = true;
}

/*
 * While a URL is fetched (a server profiling for ?seconds=N): the seconds
 * left on standard error when that is a terminal, erased by
 * tui_load_progress_done.  Ctrl-C ends flametop there as anywhere.
 */
static void say_fetching(void *ctx, const char *url, double left,
			 uint64_t bytes)
{
	struct tui_progress *pr = ctx;

	if (!isatty(2))
		return;
	if (left >= 1)
		fprintf(stderr, "\rflametop: fetching %s: %.0f s left "
			"(Ctrl-C: stop)\033[K", url, left);
	else
		fprintf(stderr, "\rflametop: fetching %s: %llu bytes so "
			"far\033[K", url, (unsigned long long)bytes);
	fflush(stderr);
	pr->shown = true;
}

/* Before reading the inputs again into p: no weights, no unit, no types. */
static void forget_weights(struct profile *p, struct config *c)
{
	c->read.progress = NULL;        /* the screen is the TUI's now */
	if (c->read.types)
		c->read.types->n = 0;   /* filled again by the reader */
	profile_reset_weights(p);
	profile_forget_unit(p);
}

/* Stop the fetch under way, if any (within about a second). */
static void url_stop(struct url_source *u)
{
	char *body, *err;
	size_t len;

	if (!u->job)
		return;
	fetch_finish(u->job, true, &body, &len, &err);
	u->job = NULL;
	free(body);
	free(err);
}

/* r: fetch again, or stop the fetch under way. */
static void url_start(void *ctx, char *msg, size_t cap)
{
	struct url_source *u = ctx;
	struct fetch_opts fo = read_fetch_opts(&u->c->read);

	if (u->job) {
		url_stop(u);
		snprintf(msg, cap, "fetch stopped: the profile shown stays");
		return;
	}
	u->job = fetch_start(u->c->files[0], &fo);
	snprintf(msg, cap, "fetching the profile again (r: stop)");
}

static bool url_poll(void *ctx, char *status, size_t cap)
{
	struct url_source *u = ctx;
	double left;

	if (!u->job)
		return false;
	if (fetch_poll(u->job, &left))
		return true;
	if (left > 0)
		snprintf(status, cap, "fetching: %.0f s left", ceil(left));
	else
		snprintf(status, cap, "fetching: waiting for the server");
	return false;
}

/*
 * What r fetched, into p: 1.  A body that is not a profile leaves p as it
 * was (0); one that fails to read is dropped and the old body read again
 * (-1).
 */
static int url_load(void *ctx, struct profile *p, char *msg, size_t cap)
{
	struct url_source *u = ctx;
	struct config *c = u->c;
	char *body, *err, what[128];
	size_t len;
	struct diag d;
	int rc = 1;

	if (fetch_finish(u->job, false, &body, &len, &err) < 0) {
		u->job = NULL;
		snprintf(msg, cap, "fetch failed, the profile shown stays: %s",
			 err);
		free(err);
		return 0;
	}
	u->job = NULL;
	if (read_detect_mem(body, len, &c->read) == FMT_UNKNOWN) {
		snprintf(msg, cap, "fetch failed, the profile shown stays: %s: "
			 "not a profile flametop can read", c->files[0]);
		free(body);
		return 0;
	}
	diag_init(&d);
	forget_weights(p, c);
	if (read_profile_mem(p, body, len, c->files[0], &c->read, &d) == 0) {
		free(u->prev);
		u->prev = u->body;
		u->prevlen = u->len;
		u->body = body;
		u->len = len;
		if (!diag_skipped(&d, NULL, what, sizeof(what)))
			what[0] = '\0';
		snprintf(msg, cap, "fetched again%s%s%s: b compares it with the "
			 "previous fetch", *what ? " (" : "", what,
			 *what ? " skipped)" : "");
	} else {
		snprintf(msg, cap, "fetch failed, the profile shown stays: %s",
			 d.nwarnings ? d.warnings[0] : "cannot read it");
		free(body);
		diag_free(&d);
		diag_init(&d);
		forget_weights(p, c);
		load(p, c, u, &d);
		rc = -1;
	}
	diag_free(&d);
	profile_finish(p);
	return rc;
}

/* The previous fetch in the sample type now chosen (e), for b. */
static struct profile *url_previous(void *ctx)
{
	struct url_source *u = ctx;
	struct profile *b;
	struct diag d;

	if (!u->prev)
		return NULL;
	b = profile_create();
	diag_init(&d);
	if (read_profile_mem(b, u->prev, u->prevlen, u->c->files[0],
			     &u->c->read, &d) < 0) {
		profile_destroy(b);
		b = NULL;
	} else {
		profile_finish(b);
	}
	diag_free(&d);
	return b;
}

static const struct tui_fetch_ops url_ops = {
	url_start, url_poll, url_load, url_previous
};

/* The input's name for the header: one file, or "BEFORE vs AFTER". */
static const char *input_title(const struct config *c, char *buf, size_t cap)
{
	if (c->diff && c->nfiles == 2) {
		snprintf(buf, cap, "%s vs %s", c->files[0], c->files[1]);
		return buf;
	}
	return c->nfiles == 1 ? c->files[0] : NULL;
}

static int print_text(struct profile *p, struct config *c)
{
	char title[8192];

	return export_run(stdout, p, c, input_title(c, title, sizeof(title)),
			  terminal_width());
}

/*
 * --svg FILE: the view the options derive, in the theme of --colors (checked
 * before anything was read), to FILE (whole or not at all) or standard
 * output.
 */
static int write_svg(struct profile *p, struct config *c)
{
	struct svg_opts so = { 0 };
	struct atomic_file af;
	struct theme th;
	const char *name = c->colors ? c->colors : THEME_DEFAULT;
	char *path = theme_find(name), err[400], title[8192];
	struct profile *v;
	const struct profile *shown;
	FILE *out;
	int rc = export_derive(p, c, &v);

	if (rc) {
		free(path);
		return rc;
	}
	theme_default(&th);
	if (path && theme_load(&th, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "flametop: %s\n", err);
		free(path);
		profile_destroy(v);
		return 2;
	}
	free(path);
	if (!(out = export_file_open(&af, c->svg))) {
		profile_destroy(v);
		return 1;
	}
	so.width = c->width;
	so.flame = c->flame;
	so.zoom = NODE_ROOT;
	/* The heading: --title, else the input's name (which the subtitle
	 * then need not repeat; standard input has none), else export_svg's
	 * "Flame Graph". */
	so.title = c->title ? c->title : input_title(c, title, sizeof(title));
	if (so.title && strcmp(so.title, "-") == 0)
		so.title = NULL;
	so.subtitle = c->title && c->nfiles == 1 ? c->files[0] : NULL;
	so.theme = &th;
	shown = v ? v : p;
	so.negated = export_negate(&shown, &v, c);
	export_svg(out, shown, &so);
	profile_destroy(v);
	return export_file_close(&af, out, c->svg);
}

/* pprof sample types in the TUI: the inputs are read again with another. */
struct type_switch {
	struct config *c;
	struct pprof_types *types;
	struct url_source *url;      /* a URL's body, or NULL */
	char name[64];
	bool warned;        /* the last reading warned (e.g. no lines) */
};

/* "alloc_space (bytes)", the names escaped: they come from the profile. */
static void type_text(const struct pprof_types *t, char *buf, size_t cap)
{
	char name[8 * sizeof(t->name[0])], unit[8 * sizeof(t->unit[0])];

	textfmt_escape(t->name[t->cur], strlen(t->name[t->cur]), name,
		       sizeof(name));
	textfmt_escape(t->unit[t->cur], strlen(t->unit[t->cur]), unit,
		       sizeof(unit));
	snprintf(buf, cap, "%s (%s)", name, unit);
}

static void type_status(void *ctx, char *buf, size_t cap)
{
	struct type_switch *ts = ctx;
	const struct pprof_types *t = ts->types;
	char ty[800];

	type_text(t, ty, sizeof(ty));
	snprintf(buf, cap, "%s%s", ty, t->n < 2 ? "" :
		 t->events ? ", e: next event" : ", e: next type");
}

/* Can the inputs be read again?  Not standard input: it was read. */
static bool can_read_again(const struct type_switch *ts, char *msg, size_t cap)
{
	for (int i = 0; i < ts->c->nfiles; i++)
		if (strcmp(ts->c->files[i], "-") == 0) {
			snprintf(msg, cap, "standard input cannot be read "
				 "again: give the profile as a FILE");
			return false;
		}
	return true;
}

/*
 * Read the inputs into p again, with the read options as the caller left
 * them; false (with the reason in msg) when they cannot be.  *bad: bad
 * samples were skipped.
 */
static bool read_again(struct type_switch *ts, struct profile *p,
		       const char *what, bool *bad, char *msg, size_t cap)
{
	struct diag d;
	bool ok;

	forget_weights(p, ts->c);
	diag_init(&d);
	ok = (ts->c->diff ? diff_reload(p, ts->c, &d) :
	      load(p, ts->c, ts->url, &d)) >= 0;
	if (!ok && d.nwarnings)
		/* Why, as the command line would say it ("no samples"). */
		snprintf(msg, cap, "%s", d.warnings[d.nwarnings - 1]);
	else if (!ok)
		snprintf(msg, cap, "cannot read the inputs again%s%s",
			 *what ? " " : "", what);
	*bad = d.bad;
	ts->warned = d.nwarnings > 0;
	diag_free(&d);
	profile_finish(p);
	return ok;
}

static bool next_type(void *ctx, struct profile *p, char *msg, size_t cap)
{
	struct type_switch *ts = ctx;
	struct pprof_types *t = ts->types;
	char ty[800], why[512];
	unsigned next;
	bool bad, ok;

	if (t->n < 2) {
		snprintf(msg, cap, "this profile has one sample type");
		return false;
	}
	if (!can_read_again(ts, msg, cap))
		return false;
	next = (t->cur + 1) % t->n;
	snprintf(ts->name, sizeof(ts->name), "%s", t->name[next]);
	if (t->events)
		ts->c->read.event_filter = ts->name;
	else
		ts->c->read.sample_type = ts->name;
	ok = read_again(ts, p, "with the next sample type", &bad, why,
			sizeof(why));
	type_text(t, ty, sizeof(ty));
	snprintf(msg, cap, "%s %s%s%s", t->events ? "event" : "sample type", ty,
		 ok ? "" : ": ", ok ? bad ? "; bad samples skipped" : "" : why);
	return true;
}

/* L in the view: the inputs read again with --lines toggled. */
static bool toggle_lines(void *ctx, struct profile *p, char *msg, size_t cap)
{
	struct type_switch *ts = ctx;
	struct config *c = ts->c;
	bool bad;

	c->read.lines = !c->read.lines;
	if (read_again(ts, p, "", &bad, msg, cap))
		snprintf(msg, cap, "%s%s%s", c->read.lines ?
			 "frames by source line (NAME FILE:LINE)" :
			 "frames by function",
			 !c->read.lines || !ts->warned ? "" : c->nfiles > 1 ?
			 "; some inputs carry no lines" :
			 "; the input carries no lines: frames stay by function",
			 bad ? "; bad samples skipped" : "");
	return true;
}

/* The interactive view; what was skipped is mentioned in its status line. */
static int run_tui(struct profile *p, struct config *c, struct url_source *u,
		   struct diag *d)
{
	struct tui_opts o = { 0 };
	struct ann_opts ao = { c->source_paths, c->nsource_paths,
			       c->prefix_maps, c->nprefix_maps,
			       c->read.symfs, false };
	struct type_switch ts = { c, c->read.types, u, "", false };
	struct profile *v;
	char msg[160], what[128], title[8192];
	struct export_tui_bufs bufs;
	const char *label_key = c->label_key;
	size_t ntags = c->ntags;
	int rc;

	/*
	 * The view options are the view's first step, not the source's: the
	 * header names them, a share is of the view and of all, and T,
	 * Backspace and V change them.  Derived once here all the same, for
	 * what is wrong with them (a name no stack has: exit status 1).
	 */
	c->label_key = NULL;
	c->ntags = 0;
	rc = export_derive(p, c, &v);
	c->label_key = label_key;
	c->ntags = ntags;
	if (rc)
		return rc;
	profile_destroy(v);
	v = NULL;
	export_tui_view(c, &o, true, &bufs);

	o.title = input_title(c, title, sizeof(title));
	o.flame = c->flame;
	o.search = c->search;
	o.icase = c->icase;
	o.theme = c->colors;
	/* Another sample type is read into p: only when p is what is shown. */
	if (!v && !c->normalize && c->read.types && c->read.types->n) {
		o.next_type = next_type;
		o.type_status = type_status;
		o.type_ctx = &ts;
	}
	/* Only files can be read again, into p only when p is shown. */
	if (!v && !c->normalize && c->nfiles && !reads_stdin(c)) {
		o.toggle_lines = toggle_lines;
		o.lines_ctx = &ts;
	}
	o.negate = c->negate;
	o.ann_opts = &ao;
	if (u && !v && !c->time) {
		/* r reads into p: only when p is what is shown. */
		o.fetch = &url_ops;
		o.fetch_ctx = u;
	}
	if (diag_skipped(d, NULL, what, sizeof(what))) {
		snprintf(msg, sizeof(msg), "%s skipped (listed on exit)", what);
		o.message = msg;
	}
	rc = tui_run(p, &o);
	if (u)
		url_stop(u);    /* quit while fetching */
	export_tui_view_free(&bufs);
	return rc;
}

int main(int argc, char **argv)
{
	struct config c;
	struct profile *p;
	struct diag d;
	struct tui_progress progress = { 0 };
	struct pprof_types types = { 0 };
	struct url_source url = { &c, NULL, 0, NULL, 0, NULL }, *up = NULL;
	int rc, partial;

	util_set_program("flametop");
	textfmt_init_locale();
	rc = options_parse(&c, argc, argv);
	if (rc) {
		options_free(&c);
		return rc;
	}
	if (c.help) {
		options_help(stdout);
		options_free(&c);
		return 0;
	}
	if (c.help_keys) {
		keys_print_help(stdout);
		options_free(&c);
		return 0;
	}
	if (c.version) {
		version_print(stdout);
		options_free(&c);
		return 0;
	}
	if (live_requested(&c) && c.svg) {
		fprintf(stderr, "flametop: --svg draws a saved profile: sample with "
			"-d SECS --collapse > FILE, then --svg OUT FILE\n");
		options_free(&c);
		return 2;
	}
	{
		char err[1024];

		if (theme_check_name(c.colors, err, sizeof(err)) < 0) {
			fprintf(stderr, "flametop: %s\n", err);
			options_free(&c);
			return 2;
		}
	}
	/* Said now, not after reading or sampling for a while. */
	if ((c.pprof && export_file_check(c.pprof)) ||
	    (c.svg && !live_requested(&c) && export_file_check(c.svg))) {
		options_free(&c);
		return 1;
	}
	if (live_requested(&c)) {
		/* -p, -a or -- COMMAND: sample instead of reading files. */
		rc = live_main(&c);
		options_free(&c);
		return rc;
	}
	if (c.nfiles == 0) {
		if (isatty(0)) {
			fprintf(stderr, "flametop: no input: give a FILE, or pipe "
					"a profile into standard input\n");
			options_usage(stderr);
			options_free(&c);
			return 2;
		}
		c.files[c.nfiles++] = "-";
	}
	p = profile_create();
	diag_init(&d);
	c.read.types = &types;
	/* Only --annotate and the TUI's a read the weights per address. */
	c.read.no_addr_tables = c.mode != MODE_ANNOTATE &&
				!(c.mode == MODE_TUI && isatty(1));
	if (c.mode == MODE_TUI && isatty(1)) {
		/* A long load shows progress instead of a frozen terminal. */
		c.read.progress = tui_load_progress;
		c.read.progress_ctx = &progress;
		progress.name = c.nfiles == 1 ? c.files[0] : NULL;
		progress.start = now_seconds();
	}
	if (c.mode == MODE_TUI && isatty(1))
		say_waiting(&c, &progress);
	c.read.fetch.progress = say_fetching;
	c.read.fetch.progress_ctx = &progress;
	if (c.diff) {
		profile_destroy(p);
		rc = diff_load(&c, &d, &p);
		tui_load_progress_done(&progress);
		if (rc == 0 && c.normalize) {
			profile_finish(p);
			rc = export_normalize(&p, &c);
		}
		if (rc) {
			diag_print(&d, stderr, "flametop");
			diag_free(&d);
			profile_destroy(p);   /* NULL when diff_load failed */
			options_free(&c);
			return rc;
		}
		c.time = NULL;   /* applied by diff_load, to each side */
	} else {
		if (c.nfiles == 1 && fetch_is_url(c.files[0])) {
			/* Fetched here, its body kept for e and r. */
			struct fetch_opts fo = read_fetch_opts(&c.read);
			char *err;

			if (fetch_url(c.files[0], &fo, NULL, &url.body, &url.len,
				      &err) == 0) {
				up = &url;
			} else {
				diag_warn(&d, "%s", err);
				free(err);
			}
		}
		rc = c.nfiles == 1 && fetch_is_url(c.files[0]) && !up ? -1 :
		     load(p, &c, up, &d);
		tui_load_progress_done(&progress);
	}
	if (rc < 0) {
		diag_print(&d, stderr, "flametop");
		diag_free(&d);
		profile_destroy(p);
		free(url.body);
		free(url.prev);
		options_free(&c);
		return 1;
	}
	partial = rc;
	profile_finish(p);
	if (c.time) {
		char msg[256];
		int t = timerange_apply(p, c.time, msg, sizeof(msg));

		if (*msg)
			fprintf(stderr, "flametop: --time: %s\n", msg);
		if (t) {
			diag_print(&d, stderr, "flametop");
			diag_free(&d);
			profile_destroy(p);
			free(url.body);
			free(url.prev);
			options_free(&c);
			return t;
		}
	}
	switch (c.mode) {
	case MODE_COLLAPSE:
	case MODE_TOP:
		rc = print_text(p, &c);
		break;
	case MODE_TUI:
		if (isatty(1)) {
			rc = run_tui(p, &c, up, &d);
			break;
		}
		rc = print_text(p, &c);
		break;
	case MODE_TEXT:
		rc = print_text(p, &c);
		break;
	case MODE_SVG:
		rc = write_svg(p, &c);
		break;
	case MODE_PPROF:
	case MODE_ANNOTATE:
		rc = print_text(p, &c);
		break;
	}
	if (rc == 0 && partial)
		rc = 1;   /* an input could not be read */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "flametop: error writing output\n");
		rc = 1;
	}
	diag_print(&d, stderr, "flametop");
	diag_free(&d);
	profile_destroy(p);
	free(url.body);
	free(url.prev);
	options_free(&c);
	return rc;
}
