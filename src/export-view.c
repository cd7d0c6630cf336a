/*
 * export-view.c - the command line's derived view and what prints it:
 * the view options (--include, --callers, --invert, ...) become a view
 * spec, and the derived profile goes to --top, --collapse or --text.  The
 * file and live front ends share it.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "export.h"
#include "options.h"
#include "search.h"
#include "util.h"
#include "view.h"
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

int export_derive(struct profile *p, const struct config *c,
		  struct profile **out)
{
	struct view_spec s;
	char err[512], *commbuf = NULL;
	enum view_status st;

	*out = NULL;
	memset(&s, 0, sizeof(s));
	s.include = c->include;
	s.ninclude = c->ninclude;
	s.exclude = c->exclude;
	s.nexclude = c->nexclude;
	s.icase = c->icase;
	s.callers = c->callers;
	s.callees = c->callees;
	s.invert = c->invert;
	s.fold_recursion = c->fold_recursion;
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
	s.order = c->order && strcmp(c->order, "weight") == 0 ? ORDER_WEIGHT
							       : ORDER_NAME;
	if (!view_spec_active(&s)) {
		if (s.order != profile_order(p)) {
			profile_set_order(p, s.order);
			profile_finish(p);
		}
		st = VIEW_OK;
	} else {
		st = view_derive(p, &s, out, err, sizeof(err));
		if (st)
			fprintf(stderr, "flametop: %s\n", err);
	}
	view_list_free(&s.pids);
	view_list_free(&s.tids);
	view_list_free(&s.cpus);
	free(s.comms);
	free(commbuf);
	return st == VIEW_BAD_REGEX ? 2 : st == VIEW_NO_NAME ? 1 : 0;
}

int export_run(FILE *f, struct profile *p, const struct config *c,
	       const char *title, unsigned width)
{
	struct profile *v;
	const struct profile *shown;
	bool negated = false;
	int rc = export_derive(p, c, &v);

	if (rc)
		return rc;
	shown = v ? v : p;
	if (c->negate && profile_is_differential(shown) &&
	    c->mode != MODE_COLLAPSE && c->mode != MODE_TOP) {
		/* Sized by BEFORE; the marks keep their meaning. */
		struct profile *sw = diff_swap(shown);

		profile_destroy(v);
		shown = v = sw;
		negated = true;
	}
	if (c->mode == MODE_TOP && profile_is_differential(shown)) {
		diff_print_top(f, shown, c->top_n);
	} else if (c->mode == MODE_TOP) {
		view_print_top(f, shown, c->top_n);
	} else if (c->mode == MODE_COLLAPSE) {
		export_collapse(f, shown);
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
	return 0;
}
