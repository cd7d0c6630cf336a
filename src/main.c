/*
 * main.c - flametop's entry point: parse options, read the inputs into one
 * profile, and hand it to a front end.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
#include "diff.h"
#include "export.h"
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
 * Read every input into p: 0 when all were read, 1 when some could not be
 * (what could be read is still shown, and the exit status says 1), -1
 * when none gave stacks.
 */
static int load(struct profile *p, struct config *c, struct diag *d)
{
	int ok = 0;

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

/*
 * Read the inputs into p again (the view's e and L keys), with c as it is
 * now; p is finished, whatever the result.
 */
static int read_again(struct profile *p, struct config *c, struct diag *d)
{
	int rc;

	c->read.progress = NULL;        /* the screen is the TUI's now */
	profile_reset_weights(p);
	profile_forget_unit(p);
	rc = c->diff ? diff_reload(p, c, d) : load(p, c, d);
	profile_finish(p);
	return rc;
}

/* pprof sample types in the TUI: the inputs are read again with another. */
struct type_switch {
	struct config *c;
	struct pprof_types *types;
	char name[64];
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

static bool next_type(void *ctx, struct profile *p, char *msg, size_t cap)
{
	struct type_switch *ts = ctx;
	struct pprof_types *t = ts->types;
	struct diag d;
	unsigned next;

	if (t->n < 2) {
		snprintf(msg, cap, "this profile has one sample type");
		return false;
	}
	next = (t->cur + 1) % t->n;
	snprintf(ts->name, sizeof(ts->name), "%s", t->name[next]);
	if (t->events)
		ts->c->read.event_filter = ts->name;
	else
		ts->c->read.sample_type = ts->name;
	t->n = 0;                       /* filled again by the reader */
	diag_init(&d);
	if (read_again(p, ts->c, &d) < 0) {
		snprintf(msg, cap, "cannot read the inputs again with the next "
			 "sample type");
	} else {
		char ty[800];

		type_text(t, ty, sizeof(ty));
		snprintf(msg, cap, "%s %s%s", t->events ? "event" : "sample type", ty,
			 d.bad ? "; bad samples skipped" : "");
	}
	diag_free(&d);
	return true;
}

/* L in the view: the inputs read again with --lines toggled. */
static bool toggle_lines(void *ctx, struct profile *p, char *msg, size_t cap)
{
	struct config *c = ctx;
	struct diag d;

	c->read.lines = !c->read.lines;
	if (c->read.types)
		c->read.types->n = 0;   /* filled again by the reader */
	diag_init(&d);
	if (read_again(p, c, &d) < 0)
		snprintf(msg, cap, "cannot read the inputs again");
	else
		snprintf(msg, cap, "%s%s", c->read.lines ?
			 "frames by source line (NAME FILE:LINE)" :
			 "frames by function",
			 c->read.lines && d.nwarnings ? "; some inputs carry no "
			 "lines" : "");
	diag_free(&d);
	return true;
}

/* The interactive view; what was skipped is mentioned in its status line. */
static int run_tui(struct profile *p, struct config *c, struct diag *d)
{
	struct tui_opts o = { 0 };
	struct type_switch ts = { c, c->read.types, "" };
	struct profile *v;
	char msg[160], what[128], title[8192];
	int rc = export_derive(p, c, &v);

	if (rc)
		return rc;

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
		o.lines_ctx = c;
	}
	o.negate = c->negate;
	if (diag_skipped(d, NULL, what, sizeof(what))) {
		snprintf(msg, sizeof(msg), "%s skipped (listed on exit)", what);
		o.message = msg;
	}
	rc = tui_run(v ? v : p, &o);
	profile_destroy(v);
	return rc;
}

int main(int argc, char **argv)
{
	struct config c;
	struct profile *p;
	struct diag d;
	struct tui_progress progress = { 0 };
	struct pprof_types types = { 0 };
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
	if (c.mode == MODE_TUI && isatty(1)) {
		/* A long load shows progress instead of a frozen terminal. */
		c.read.progress = tui_load_progress;
		c.read.progress_ctx = &progress;
		progress.name = c.nfiles == 1 ? c.files[0] : NULL;
		progress.start = now_seconds();
	}
	if (c.mode == MODE_TUI && isatty(1))
		say_waiting(&c, &progress);
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
		rc = load(p, &c, &d);
		tui_load_progress_done(&progress);
	}
	if (rc < 0) {
		diag_print(&d, stderr, "flametop");
		diag_free(&d);
		profile_destroy(p);
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
			rc = run_tui(p, &c, &d);
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
	options_free(&c);
	return rc;
}
