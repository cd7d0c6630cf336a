/*
 * search.h - regex search over frame names (pcre2, JIT where available).
 *
 * A pattern is matched against each distinct name once (names are interned),
 * not against each node, so searching a million-node tree costs as many
 * matches as there are names.  The matched share counts a frame only when
 * none of its ancestors matched, so nested matches are not counted twice.
 */
#ifndef FLAMETOP_SEARCH_H
#define FLAMETOP_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct search;

struct search *search_create(void);
void search_destroy(struct search *s);

/*
 * Compile pattern (an empty pattern clears the search).  On a bad pattern
 * returns -1 and writes pcre2's message with the offset into err, keeping
 * the previous search.
 */
int search_set(struct search *s, const char *pattern, bool icase, char *err,
	       size_t errcap);
/* Search for exactly this name (a literal, not a pattern). */
void search_set_literal(struct search *s, const char *name, size_t len);
void search_clear(struct search *s);
/* dst searches for what src does (for another profile: search_update). */
void search_copy(struct search *dst, const struct search *src);
bool search_active(const struct search *s);
const char *search_pattern(const struct search *s);
bool search_icase(const struct search *s);

/* Match the names the profile has gained since the last call. */
void search_update(struct search *s, const struct profile *p);
/*
 * Forget every match: the next search_update matches all the names again.
 * For another profile (a derived view has a symbol table of its own, so
 * the same id may name another function).
 */
void search_forget(struct search *s);
bool search_sym_matches(const struct search *s, uint32_t sym);
bool search_node_matches(const struct search *s, const struct profile *p,
			 uint32_t node);

/* Weight of the matching frames under root, each nested match once. */
uint64_t search_matched_weight(struct search *s, const struct profile *p,
			       uint32_t root);

#endif
