/*
 * frame-locs.c - where frames came from (frame-locs.h).
 *
 * Entries are an array indexed by symbol id, grown as symbols are noted
 * (24 bytes a name: a profile has tens of thousands of names, not nodes).
 * Strings (function names, files, paths, build-ids) are interned in a
 * symtab of the table's own, so each is kept once and its pointer stays
 * valid; binaries are found again by "path\0build-id" in another.
 */
#include "frame-locs.h"

#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "util.h"

struct floc_entry {
	uint64_t addr;
	uint32_t binary;         /* number; 0: none */
	uint32_t func, file;     /* string id + 1; 0: none */
	uint32_t line;
	bool set;
};

struct frame_locs {
	struct floc_entry *e;    /* by symbol id */
	size_t ne;
	struct symtab *str;      /* the strings */
	struct symtab *keys;     /* binary k's key is id k - 1 */
	struct floc_binary *bin; /* binary k at bin[k - 1] */
	size_t nbin, capbin;
	char *kbuf;
	size_t capk;
};

struct frame_locs *floc_create(void)
{
	struct frame_locs *fl = xcalloc(1, sizeof(*fl));

	fl->str = symtab_create();
	fl->keys = symtab_create();
	return fl;
}

void floc_destroy(struct frame_locs *fl)
{
	if (!fl)
		return;
	free(fl->e);
	free(fl->bin);
	free(fl->kbuf);
	symtab_destroy(fl->str);
	symtab_destroy(fl->keys);
	free(fl);
}

/* A string's id + 1 in the table (0 for none or ""). */
static uint32_t str_id(struct frame_locs *fl, const char *s, size_t len)
{
	return s && len ? symtab_intern(fl->str, s, len) + 1 : 0;
}

static const char *str_at(const struct frame_locs *fl, uint32_t id,
			  size_t *len)
{
	if (!id) {
		*len = 0;
		return NULL;
	}
	*len = symtab_len(fl->str, id - 1);
	return symtab_name(fl->str, id - 1);
}

uint32_t floc_add_binary(struct frame_locs *fl, const struct floc_binary *b,
			 uint64_t *shift)
{
	size_t pl = b->path ? b->path_len : 0;
	size_t bl = b->build_id ? b->build_id_len : 0;
	struct floc_binary *k;
	uint32_t id;

	GROW(fl->kbuf, fl->capk, pl + bl + 1);
	if (pl)
		memcpy(fl->kbuf, b->path, pl);
	fl->kbuf[pl] = 0;
	if (bl)
		memcpy(fl->kbuf + pl + 1, b->build_id, bl);
	id = symtab_intern(fl->keys, fl->kbuf, pl + 1 + bl);
	if (id == fl->nbin) {
		size_t n;

		GROW(fl->bin, fl->capbin, fl->nbin + 1);
		k = &fl->bin[fl->nbin++];
		*k = *b;
		k->path = str_at(fl, str_id(fl, b->path, pl), &n);
		k->path_len = n;
		k->build_id = str_at(fl, str_id(fl, b->build_id, bl), &n);
		k->build_id_len = n;
		if (b->limit <= b->start)
			k->start = k->limit = k->offset = 0;
	}
	k = &fl->bin[id];
	/* Same file offset: start + (addr - b->start) + b->offset - offset. */
	*shift = k->limit && b->limit > b->start
		 ? k->start - k->offset - (b->start - b->offset) : 0;
	return id + 1;
}

bool floc_known(const struct frame_locs *fl, uint32_t sym)
{
	return sym < fl->ne && fl->e[sym].set;
}

void floc_note(struct frame_locs *fl, uint32_t sym,
	       const struct floc_frame *f)
{
	struct floc_entry *e;

	if (floc_known(fl, sym))
		return;
	if (sym >= fl->ne) {
		size_t old = fl->ne;

		GROW(fl->e, fl->ne, (size_t)sym + 1);
		memset(fl->e + old, 0, (fl->ne - old) * sizeof(*fl->e));
	}
	e = &fl->e[sym];
	e->set = true;
	e->addr = f->addr;
	e->binary = f->binary <= fl->nbin ? f->binary : 0;
	e->func = str_id(fl, f->func, f->func_len);
	e->file = str_id(fl, f->file, f->file_len);
	e->line = f->line;
	if (e->binary && f->addr) {
		struct floc_binary *b = &fl->bin[e->binary - 1];

		if (b->limit && f->addr < b->start &&
		    b->offset >= b->start - f->addr) {
			b->offset -= b->start - f->addr;
			b->start = f->addr;
		}
		if (b->limit && f->addr >= b->limit)
			b->limit = f->addr + 1;
	}
}

bool floc_get(const struct frame_locs *fl, uint32_t sym,
	      struct floc_frame *f)
{
	const struct floc_entry *e;

	memset(f, 0, sizeof(*f));
	if (!fl || !floc_known(fl, sym))
		return false;
	e = &fl->e[sym];
	f->binary = e->binary;
	f->addr = e->addr;
	f->func = str_at(fl, e->func, &f->func_len);
	f->file = str_at(fl, e->file, &f->file_len);
	f->line = e->line;
	return true;
}

uint32_t floc_binary_count(const struct frame_locs *fl)
{
	return fl ? (uint32_t)fl->nbin : 0;
}

const struct floc_binary *floc_binary_at(const struct frame_locs *fl,
					 uint32_t k)
{
	return fl && k && k <= fl->nbin ? &fl->bin[k - 1] : NULL;
}
