/*
 * main.c - flametop's entry point: parse options, read the inputs into one
 * profile, and hand it to a front end.
 */
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
#include "timerange.h"
#include "tui.h"
#include "util.h"

#ifndef FLAMETOP_VERSION
#define FLAMETOP_VERSION "0.1.0"
#endif

static unsigned terminal_width(void)
{
	struct winsize ws;

	if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 100;
}

/* Read every input into p; 0 if at least one gave stacks. */
static int load(struct profile *p, struct config *c, struct diag *d)
{
	int ok = 0;

	for (int i = 0; i < c->nfiles; i++)
		if (read_profile(p, c->files[i], &c->read, d) == 0)
			ok++;
	return ok ? 0 : -1;
}

static int print_text(struct profile *p, struct config *c)
{
	return export_run(stdout, p, c, c->nfiles == 1 ? c->files[0] : NULL,
			  terminal_width());
}

/* The interactive view; bad input lines are mentioned in its status line. */
static int run_tui(struct profile *p, struct config *c, struct diag *d)
{
	struct tui_opts o = { 0 };
	struct profile *v;
	char msg[128];
	int rc = export_derive(p, c, &v);

	if (rc)
		return rc;

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
	int rc;

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
		printf("flametop %s\n", FLAMETOP_VERSION);
		options_free(&c);
		return 0;
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
	rc = load(p, &c, &d);
	tui_load_progress_done(&progress);
	if (rc < 0) {
		diag_print(&d, stderr, "flametop");
		diag_free(&d);
		profile_destroy(p);
		options_free(&c);
		return 1;
	}
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
	}
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
