/*
 * search.c - pcre2 search over the symbol table.
 *
 * The result is one byte per symbol id, filled in as new symbols appear
 * (live profiles grow).  Patterns are compiled in UTF mode with
 * PCRE2_MATCH_INVALID_UTF, so names holding invalid UTF-8 are still
 * searched rather than rejected.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "search.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct search {
	pcre2_code *re;
	pcre2_match_data *md;
	char *pattern;
	bool icase;
	char *literal;          /* exact-name search instead of a regex */
	size_t literal_len;
	unsigned char *hit;     /* per symbol: 1 matches */
	uint32_t nhit, caphit;
	unsigned char *state;   /* per node, for the matched weight */
	size_t capstate;
};

struct search *search_create(void)
{
	return xcalloc(1, sizeof(struct search));
}

void search_clear(struct search *s)
{
	pcre2_match_data_free(s->md);
	pcre2_code_free(s->re);
	s->md = NULL;
	s->re = NULL;
	free(s->pattern);
	free(s->literal);
	s->pattern = s->literal = NULL;
	s->nhit = 0;
}

void search_destroy(struct search *s)
{
	if (!s)
		return;
	search_clear(s);
	free(s->hit);
	free(s->state);
	free(s);
}

int search_set(struct search *s, const char *pattern, bool icase, char *err,
	       size_t errcap)
{
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *re;
	uint32_t flags = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (!*pattern) {
		search_clear(s);
		return 0;
	}
	if (icase)
		flags |= PCRE2_CASELESS;
	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, flags,
			   &ec, &eo, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(ec, msg, sizeof(msg));
		snprintf(err, errcap, "%s at offset %zu", (char *)msg,
			 (size_t)eo);
		return -1;
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);  /* optional: falls back */
	search_clear(s);
	s->re = re;
	s->md = pcre2_match_data_create_from_pattern(re, NULL);
	s->pattern = xstrdup(pattern);
	s->icase = icase;
	return 0;
}

void search_set_literal(struct search *s, const char *name, size_t len)
{
	search_clear(s);
	s->literal = xstrndup(name, len);
	s->literal_len = len;
	s->pattern = xstrndup(name, len);
}

void search_copy(struct search *dst, const struct search *src)
{
	char err[8];

	if (src->literal)
		search_set_literal(dst, src->literal, src->literal_len);
	else if (!src->re || search_set(dst, src->pattern, src->icase, err,
					sizeof(err)) < 0)
		search_clear(dst);   /* compiled once already: cannot fail */
}

bool search_active(const struct search *s)
{
	return s->re || s->literal;
}

const char *search_pattern(const struct search *s) { return s->pattern; }
bool search_icase(const struct search *s) { return s->icase; }

void search_update(struct search *s, const struct profile *p)
{
	const struct symtab *st = profile_symtab(p);
	uint32_t n = symtab_count(st);

	if (!search_active(s))
		return;
	if (n > s->caphit) {
		s->hit = xrealloc(s->hit, n);
		s->caphit = n;
	}
	for (uint32_t i = s->nhit; i < n; i++) {
		const char *name = symtab_name(st, i);
		size_t len = symtab_len(st, i);

		if (s->literal)
			s->hit[i] = len == s->literal_len &&
				    memcmp(name, s->literal, len) == 0;
		else
			s->hit[i] = pcre2_match(s->re, (PCRE2_SPTR)name, len, 0,
						0, s->md, NULL) >= 0;
	}
	s->nhit = n;
}

void search_forget(struct search *s)
{
	s->nhit = 0;
}

bool search_sym_matches(const struct search *s, uint32_t sym)
{
	return sym < s->nhit && s->hit[sym];
}

bool search_node_matches(const struct search *s, const struct profile *p,
			 uint32_t node)
{
	return search_sym_matches(s, profile_node(p, node)->sym);
}

/*
 * One pass over the node array instead of a walk: a parent's id is always
 * smaller than its children's, so each node's state follows from its
 * parent's: 0 outside root's subtree, 1 inside, 2 inside and matched (by
 * itself or an ancestor), and a node adds its weight when it matches and
 * its parent's state is 1.
 */
uint64_t search_matched_weight(struct search *s, const struct profile *p,
			       uint32_t root)
{
	size_t n = profile_node_count(p);
	uint64_t sum = 0;
	unsigned char *st;

	if (!search_active(s) || root >= n)
		return 0;
	search_update(s, p);
	GROW(s->state, s->capstate, n);
	st = s->state;
	st[root] = 1;
	if (search_node_matches(s, p, root)) {
		st[root] = 2;
		sum = profile_total(p, root);
	}
	for (size_t i = (size_t)root + 1; i < n; i++) {
		const struct pnode *nd = profile_node(p, (uint32_t)i);
		unsigned char ps = nd->parent < root ? 0 : st[nd->parent];

		if (ps == 1 && search_sym_matches(s, nd->sym)) {
			sum += profile_total(p, (uint32_t)i);
			ps = 2;
		}
		st[i] = ps;
	}
	return sum;
}
