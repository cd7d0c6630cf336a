/*
 * symtab.h - interned frame names.
 *
 * Every distinct frame name is stored once and known by a small integer id.
 * The tree, search and colors work with ids; a name is turned back into
 * text only when it is drawn.  The kind of a frame (kernel, JIT, inlined,
 * waker) is read from flamegraph.pl's annotation suffixes, which stay part
 * of the name as written.
 */
#ifndef FLAMETOP_SYMTAB_H
#define FLAMETOP_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

enum sym_kind {
	SYM_USER,       /* no annotation */
	SYM_KERNEL,     /* "_[k]" */
	SYM_JIT,        /* "_[j]" */
	SYM_INLINED,    /* "_[i]" */
	SYM_WAKER,      /* "_[w]" */
};

struct symtab;

struct symtab *symtab_create(void);
void symtab_destroy(struct symtab *st);
/* Forget every name (ids start again at 0); the memory is kept for reuse. */
void symtab_clear(struct symtab *st);

/* The id of name[0..len), adding it if new.  Names may hold any byte. */
uint32_t symtab_intern(struct symtab *st, const char *name, size_t len);

/* Like symtab_intern, but UINT32_MAX when the name is not interned. */
uint32_t symtab_find(const struct symtab *st, const char *name, size_t len);

/* A name to look up: its bytes, not NUL-terminated. */
struct symtab_ref {
	const char *name;
	size_t len;
};

/*
 * symtab_find of n names at once, ids[i] for refs[i]: the table's memory
 * for all of them is fetched together rather than one miss after another
 * (a stack's frames, for a large profile whose names outgrow the caches).
 */
void symtab_find_many(const struct symtab *st, const struct symtab_ref *refs,
		      size_t n, uint32_t *ids);

/*
 * The name of id (NUL-terminated, owned by the table) and its length.  A
 * name's text never moves while the table lives (until symtab_clear).
 */
const char *symtab_name(const struct symtab *st, uint32_t id);
size_t symtab_len(const struct symtab *st, uint32_t id);
enum sym_kind symtab_kind(const struct symtab *st, uint32_t id);
uint32_t symtab_count(const struct symtab *st);

/* The kind a name's suffix announces (exposed for tests and readers). */
enum sym_kind sym_kind_of(const char *name, size_t len);

#endif
