/*
 * main.c - flametop's entry point: parse options, read the inputs into one
 * profile, and hand it to a front end.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
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

/*
 * A pipe that has not written yet would leave the terminal blank until it
 * does: say what flametop waits for (erased by tui_load_progress_done).
 */
static void say_waiting(const struct config *c, struct tui_progress *pr)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	bool stdin_used = false;

	for (int i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], "-") == 0)
			stdin_used = true;
	if (!stdin_used || isatty(0) || !isatty(2) || poll(&pfd, 1, 0) != 0)
		return;
	fprintf(stderr, "\rflametop: waiting for input on stdin%s\033[K",
		textfmt_utf8() ? "\u2026" : "...");
	fflush(stderr);
	pr->shown = true;
}

static int print_text(struct profile *p, struct config *c)
{
	struct text_opts to = { 0 };
	struct search *s = NULL;
	int rc = 0;

	to.width = c->width ? c->width : terminal_width();
	to.height = c->height;
	to.flame = c->flame;
	to.zoom = NODE_ROOT;
	to.title = c->nfiles == 1 ? c->files[0] : NULL;
	if (c->search) {
		char err[300];

		s = search_create();
		if (search_set(s, c->search, c->icase, err, sizeof(err)) < 0) {
			fprintf(stderr, "flametop: --search: %s\n", err);
			search_destroy(s);
			return 2;
		}
		to.search = s;
	}
	export_text(stdout, p, &to);
	search_destroy(s);
	return rc;
}

/* The interactive view; bad input lines are mentioned in its status line. */
static int run_tui(struct profile *p, struct config *c, struct diag *d)
{
	struct tui_opts o = { 0 };
	char msg[128];

	o.title = c->nfiles == 1 ? c->files[0] : NULL;
	o.flame = c->flame;
	o.search = c->search;
	o.icase = c->icase;
	o.theme = c->colors;
	if (d->bad) {
		snprintf(msg, sizeof(msg), "%llu bad input lines skipped "
			 "(listed on exit)", (unsigned long long)d->bad);
		o.message = msg;
	}
	return tui_run(p, &o);
}

int main(int argc, char **argv)
{
	struct config c;
	struct profile *p;
	struct diag d;
	struct tui_progress progress = { 0 };
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
	{
		char err[1024];

		if (theme_check_name(c.colors, err, sizeof(err)) < 0) {
			fprintf(stderr, "flametop: %s\n", err);
			options_free(&c);
			return 2;
		}
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
	if (c.mode == MODE_TUI && isatty(1)) {
		/* A long load shows progress instead of a frozen terminal. */
		c.read.progress = tui_load_progress;
		c.read.progress_ctx = &progress;
		progress.name = c.nfiles == 1 ? c.files[0] : NULL;
		progress.start = now_seconds();
	}
	if (c.mode == MODE_TUI && isatty(1))
		say_waiting(&c, &progress);
	rc = load(p, &c, &d);
	tui_load_progress_done(&progress);
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
		export_collapse(stdout, p);
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
