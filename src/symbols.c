/*
 * symbols.c - the symbolizer: mapped files (dsos) with sorted symbol
 * tables, kernel symbols from kallsyms, JIT maps, per-process Dwfls.
 * This file holds the symbolizer, its table of dsos and its statistics;
 * the parts are listed in symbols-priv.h.
 *
 * A dso is shared by every process that maps it: found by build-id where
 * one is known, else by path and dev:inode, in a hash table.  It is loaded
 * once, on its first lookup (symbols-elf.c).
 */
#include "symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols-priv.h"
#include "util.h"

static struct sym_opts default_opts = { .demangle = true };

void sym_default_opts(struct sym_opts *o)
{
	*o = default_opts;
}

void sym_set_defaults(const struct sym_opts *o)
{
	default_opts = *o;
}

struct symbolizer *sym_create(const struct sym_opts *o)
{
	struct symbolizer *sy = xcalloc(1, sizeof(*sy));

	if (o)
		sy->o = *o;
	if (!sy->o.debuginfod)
		unsetenv("DEBUGINFOD_URLS");
	sy->nbuckets = 256;
	sy->buckets = xcalloc(sy->nbuckets, sizeof(*sy->buckets));
	sy->vdso_fd = -1;
	return sy;
}

static void dso_free(struct sym_dso *d)
{
	free(d->path);
	free(d->syms);
	sym_index_free(&d->ix);
	free(d->names);
	free(d->segs);
	free(d->loaded_from);
	for (size_t i = 0; i < d->ndm; i++)
		free(d->dm[i]);
	free(d->dm);
	sym_lines_free(d->lines);
	free(d);
}

void sym_destroy(struct symbolizer *sy)
{
	if (!sy)
		return;
	sym_kernel_join(sy);
	for (size_t i = 0; i < sy->nbuckets; i++) {
		struct sym_dso *d = sy->buckets[i], *nx;

		for (; d; d = nx) {
			nx = d->next;
			dso_free(d);
		}
	}
	free(sy->buckets);
	for (size_t i = 0; i < sy->nbids; i++)
		free(sy->bids[i].path);
	free(sy->bids);
	while (sy->jits) {
		struct jit_map *j = sy->jits;

		sy->jits = j->next;
		free(j->syms);
		free(j->text);
		free(j);
	}
	sym_jitdumps_free(sy);
	sym_kernel_free(sy);
	if (sy->vdso_fd >= 0)
		close(sy->vdso_fd);
	free(sy);
}

/* ---- Dsos ----------------------------------------------------------------- */

static uint64_t dso_hash(const char *path, size_t len,
			 const struct sym_file_id *id)
{
	uint64_t h = hash_bytes(path, len);

	if (id && id->build_id_len)
		h ^= hash_bytes(id->build_id, id->build_id_len) * 31;
	else if (id)
		h ^= hash_u64(id->ino ^ ((uint64_t)id->maj << 40) ^
			      ((uint64_t)id->min << 20));
	return h;
}

static bool dso_same(const struct sym_dso *d, const char *path, size_t len,
		     const struct sym_file_id *id)
{
	size_t bl = id && id->build_id_len ? id->build_id_len : 0;

	if (bl > 20)
		bl = 20;
	if (strlen(d->path) != len || memcmp(d->path, path, len) != 0)
		return false;
	if (bl != d->bid_len || (bl && memcmp(d->bid, id->build_id, bl)))
		return false;
	if (!bl && id && (d->ino != id->ino || d->maj != id->maj ||
			  d->min != id->min))
		return false;
	if (!bl && !id && d->ino)
		return false;
	return true;
}

struct sym_dso *sym_dso_get(struct symbolizer *sy, const char *path,
			    size_t path_len, const struct sym_file_id *id)
{
	uint64_t h;
	size_t b;
	struct sym_dso *d;

	path_len = strnlen(path, path_len);
	h = dso_hash(path, path_len, id);
	b = h & (sy->nbuckets - 1);
	for (d = sy->buckets[b]; d; d = d->next)
		if (dso_same(d, path, path_len, id))
			return d;
	d = xcalloc(1, sizeof(*d));
	d->path = xstrndup(path, path_len);
	{
		const char *sl = strrchr(d->path, '/');

		d->base = sl ? sl + 1 : d->path;
	}
	if (id) {
		d->bid_len = id->build_id_len > 20 ? 20 : id->build_id_len;
		if (d->bid_len)
			memcpy(d->bid, id->build_id, d->bid_len);
		else {
			d->maj = id->maj;
			d->min = id->min;
			d->ino = id->ino;
		}
	}
	d->special = d->path[0] == '[';
	if (sy->ndsos + 1 > sy->nbuckets) {
		/* Rehash into twice the buckets. */
		size_t nb = sy->nbuckets * 2;
		struct sym_dso **nbk = xcalloc(nb, sizeof(*nbk));

		for (size_t i = 0; i < sy->nbuckets; i++) {
			struct sym_dso *e = sy->buckets[i], *nx;

			for (; e; e = nx) {
				size_t k = dso_hash(e->path, strlen(e->path),
						    &(struct sym_file_id){
							e->maj, e->min, e->ino,
							e->bid_len ? e->bid : NULL,
							e->bid_len }) & (nb - 1);

				nx = e->next;
				e->next = nbk[k];
				nbk[k] = e;
			}
		}
		free(sy->buckets);
		sy->buckets = nbk;
		sy->nbuckets = nb;
		b = h & (nb - 1);
	}
	d->next = sy->buckets[b];
	sy->buckets[b] = d;
	sy->ndsos++;
	return d;
}

void sym_add_build_id(struct symbolizer *sy, const char *path, size_t len,
		      const uint8_t *bid, size_t bid_len)
{
	struct bid_entry *e;

	if (bid_len == 0)
		return;
	GROW(sy->bids, sy->capbids, sy->nbids + 1);
	e = &sy->bids[sy->nbids++];
	e->path = xstrndup(path, strnlen(path, len));
	e->len = bid_len > 20 ? 20 : bid_len;
	memcpy(e->bid, bid, e->len);
}

const char *sym_dso_path(const struct sym_dso *d)
{
	return d->path;
}

const char *sym_dso_basename(const struct sym_dso *d)
{
	return d->base;
}

bool sym_dso_is_special(const struct sym_dso *d)
{
	return d->special;
}

/* ---- Statistics -------------------------------------------------------------- */

void sym_count_misses(struct symbolizer *sy, enum sym_miss why, uint64_t n)
{
	if ((unsigned)why < SYM_MISS_COUNT)
		sy->misses[why] += n;
}

void sym_count_miss(struct symbolizer *sy, enum sym_miss why)
{
	sym_count_misses(sy, why, 1);
}

uint64_t sym_misses(const struct symbolizer *sy, enum sym_miss why)
{
	return (unsigned)why < SYM_MISS_COUNT ? sy->misses[why] : 0;
}

void sym_report(const struct symbolizer *sy, struct diag *d)
{
	static const char *const what[SYM_MISS_COUNT] = {
		[SYM_MISS_NO_FILE] = "in files missing on this machine",
		[SYM_MISS_BUILD_ID] = "in files that differ from the profiled "
				      "ones (build-id mismatch)",
		[SYM_MISS_NOT_ELF] = "in files that are not readable ELF",
		[SYM_MISS_STRIPPED] = "in stripped files (no symbol table; "
				      "install debug symbols)",
		[SYM_MISS_KERNEL] = "in the kernel",
		[SYM_MISS_JIT] = "in JIT code named by no jitdump or "
				 "/tmp/perf-PID.map entry",
	};

	for (int i = 0; i < SYM_MISS_COUNT; i++) {
		if (!what[i] || !sy->misses[i])
			continue;
		if (i == SYM_MISS_NO_FILE && sy->o.root)
			diag_warn(d, "%llu frames unresolved in files missing "
				  "under --symfs %s (%s)",
				  (unsigned long long)sy->misses[i], sy->o.root,
				  sy->miss_file[i] ? sy->miss_file[i] : "?");
		else if (sy->miss_file[i])
			diag_warn(d, "%llu frames unresolved %s (%s)",
				  (unsigned long long)sy->misses[i], what[i],
				  sy->miss_file[i]);
		else
			diag_warn(d, "%llu frames unresolved %s",
				  (unsigned long long)sy->misses[i], what[i]);
	}
	if (sy->jit_notes > 1)
		diag_warn(d, "%s (and %llu more notes about JIT maps)",
			  sy->jit_msg, (unsigned long long)(sy->jit_notes - 1));
	else if (sy->jit_notes)
		diag_warn(d, "%s", sy->jit_msg);
	sym_jitdumps_report(sy, d);
}
