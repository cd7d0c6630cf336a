/*
 * diff.c - differential profiles (diff.h).
 *
 * A side is merged in one forward pass over its nodes: a parent's id is
 * smaller than its children's, so each node's counterpart in the merged
 * tree is the child, named alike, of its parent's counterpart.  Names are
 * interned once per symbol, not once per node.
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "options.h"
#include "read.h"
#include "timerange.h"
#include "util.h"

static const uint64_t pow10_u64[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL,
};

struct profile *diff_create(void)
{
	struct profile *d = profile_create();

	profile_set_differential(d, true);
	return d;
}

/* round(v * num / den) in whole units; den > 0.  Saturates. */
static uint64_t scale_round(uint64_t v, uint64_t num, unsigned __int128 den)
{
	unsigned __int128 q = ((unsigned __int128)v * num + den / 2) / den;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

int diff_add(struct profile *d, const struct profile *src, bool after,
	     const struct weight *norm)
{
	const struct symtab *st = profile_symtab(src);
	size_t nn = profile_node_count(src);
	uint32_t nsym = symtab_count(st), *map, *symmap;
	unsigned dec = profile_decimals(src);
	uint64_t tot = profile_total(src, NODE_ROOT);
	unsigned __int128 den = 0;
	int rc = 0;

	if (!after && norm && tot) {
		/*
		 * value(w) * value(norm) / value(tot)
		 *   = w * norm / (tot * 10^norm->decimals), in whole units.
		 */
		unsigned nd = norm->decimals > WEIGHT_MAX_DECIMALS
			      ? WEIGHT_MAX_DECIMALS : norm->decimals;

		den = (unsigned __int128)tot * pow10_u64[nd];
	}
	profile_note_unit(d, profile_unit(src));
	map = xmalloc((nn ? nn : 1) * sizeof(*map));
	symmap = xmalloc((nsym ? nsym : 1) * sizeof(*symmap));
	memset(symmap, 0xff, (nsym ? nsym : 1) * sizeof(*symmap));
	map[NODE_ROOT] = NODE_ROOT;
	for (uint32_t n = 1; n < nn; n++) {
		const struct pnode *pn = profile_node(src, n);
		uint32_t up = map[pn->parent];
		uint64_t self;
		struct weight w = { 0, 0, dec };

		map[n] = NODE_NONE;
		if (up == NODE_NONE || profile_total(src, n) == 0)
			continue;   /* no weight here or below */
		if (symmap[pn->sym] == UINT32_MAX)
			symmap[pn->sym] = profile_intern(d, symtab_name(st, pn->sym),
							 symtab_len(st, pn->sym));
		map[n] = profile_child(d, up, symmap[pn->sym]);
		self = profile_self(src, n);
		if (!self)
			continue;
		if (after) {
			w.v = self;
		} else if (den) {
			w.v2 = scale_round(self, norm->v, den);
			w.decimals = 0;
		} else {
			w.v2 = self;
		}
		if (profile_add_at(d, map[n], &w, NULL) != ADD_OK)
			rc = -1;
	}
	free(map);
	free(symmap);
	return rc;
}

/*
 * Read one side into a profile of its own: --time, then the per-sample
 * views, which need the side's timeline.  Returns 0 or an exit status.
 */
static int load_side(const struct config *c, const char *path,
		     struct diag *d, struct profile **out)
{
	struct profile *p = profile_create(), *v = NULL;
	struct config cs;

	*out = NULL;
	if (read_profile(p, path, &c->read, d) != 0) {
		profile_destroy(p);
		return 1;
	}
	profile_finish(p);
	if (c->time) {
		char msg[256];
		int t = timerange_apply(p, c->time, msg, sizeof(msg));

		if (*msg)
			fprintf(stderr, "flametop: --time: %s: %s\n", path, msg);
		if (t) {
			profile_destroy(p);
			return t;
		}
	}
	if (c->comms || c->pids || c->tids || c->cpus || c->group) {
		int rc;

		memset(&cs, 0, sizeof(cs));
		cs.comms = c->comms;
		cs.pids = c->pids;
		cs.tids = c->tids;
		cs.cpus = c->cpus;
		cs.group = c->group;
		rc = export_derive(p, &cs, &v);
		if (rc) {
			profile_destroy(p);
			return rc;
		}
		if (v) {
			profile_destroy(p);
			p = v;
		}
	}
	*out = p;
	return 0;
}

int diff_load(struct config *c, struct diag *d, struct profile **out)
{
	struct profile *dp, *side;
	struct weight norm = { 0, 0, 0 };
	int rc;

	*out = NULL;
	/* AFTER first: its total scales BEFORE; one side in memory at a time. */
	if ((rc = load_side(c, c->files[1], d, &side)) != 0)
		return rc;
	dp = diff_create();
	profile_set_order(dp, profile_order(side));
	norm.v = profile_total(side, NODE_ROOT);
	norm.decimals = profile_decimals(side);
	if (diff_add(dp, side, true, NULL) < 0)
		fprintf(stderr, "flametop: %s: weights overflow; some "
			"stacks were skipped\n", c->files[1]);
	profile_destroy(side);
	if ((rc = load_side(c, c->files[0], d, &side)) != 0) {
		profile_destroy(dp);
		return rc;
	}
	if (diff_add(dp, side, false, c->normalize ? &norm : NULL) < 0)
		fprintf(stderr, "flametop: %s: weights overflow; some "
			"stacks were skipped\n", c->files[0]);
	profile_destroy(side);
	profile_finish(dp);
	/* Applied to each side; the merged profile has no timeline. */
	c->comms = c->pids = c->tids = c->cpus = c->group = NULL;
	*out = dp;
	return 0;
}
