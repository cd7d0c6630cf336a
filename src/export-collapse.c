/*
 * export-collapse.c - the profile as folded stacks.
 *
 * Every node with self weight ends one distinct stack.  The lines are built
 * by a depth-first walk and then sorted as whole stacks in byte order, which
 * is the order of `sort` and of stackcollapse-perf.pl's output; sorting by
 * sibling name alone would differ when one name is a prefix of another
 * ("foo" and "foo bar").
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

struct line {
	size_t off;       /* in the text buffer */
	size_t stack_len;
	size_t len;       /* with the counts */
};

static const char *text_base;

static int cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	size_t n = x->stack_len < y->stack_len ? x->stack_len : y->stack_len;
	int c = memcmp(text_base + x->off, text_base + y->off, n);

	if (c)
		return c;
	return (x->stack_len > y->stack_len) - (x->stack_len < y->stack_len);
}

static void append(char **buf, size_t *len, size_t *cap, const char *s,
		   size_t n)
{
	if (!n)
		return;
	GROW(*buf, *cap, *len + n);
	memcpy(*buf + *len, s, n);
	*len += n;
}

size_t export_collapse(FILE *out, const struct profile *p)
{
	char *text = NULL, *path = NULL;
	size_t tlen = 0, tcap = 0, plen = 0, pcap = 0;
	struct line *lines = NULL;
	size_t nlines = 0, caplines = 0;
	size_t *plens = NULL, capplens = 0;
	uint32_t *stack = NULL;
	size_t top = 0, capstack = 0;
	bool diff = profile_is_differential(p);
	char num[48];

	/* Depth-first; plens[d] is the path length at depth d. */
	GROW(stack, capstack, 1);
	stack[top++] = NODE_ROOT;
	while (top) {
		uint32_t n = stack[--top];
		unsigned d = profile_depth(p, n);

		if (n != NODE_ROOT) {
			GROW(plens, capplens, (size_t)d + 1);
			plen = d > 1 ? plens[d - 1] : 0;
			if (d > 1)
				append(&path, &plen, &pcap, ";", 1);
			append(&path, &plen, &pcap, profile_name(p, n),
			       profile_name_len(p, n));
			plens[d] = plen;
			if (profile_self(p, n) || (diff && profile_self2(p, n))) {
				struct line *l;
				size_t k;

				GROW(lines, caplines, nlines + 1);
				l = &lines[nlines++];
				l->off = tlen;
				l->stack_len = plen;
				append(&text, &tlen, &tcap, path, plen);
				if (diff) {
					append(&text, &tlen, &tcap, " ", 1);
					k = profile_format_weight(p, profile_self2(p, n),
								  num, sizeof(num));
					append(&text, &tlen, &tcap, num, k);
				}
				append(&text, &tlen, &tcap, " ", 1);
				k = profile_format_weight(p, profile_self(p, n), num,
							  sizeof(num));
				append(&text, &tlen, &tcap, num, k);
				append(&text, &tlen, &tcap, "\n", 1);
				l->len = tlen - l->off;
			}
		}
		for (uint32_t c = profile_node(p, n)->child; c != NODE_NONE;
		     c = profile_node(p, c)->next) {
			if (!profile_total(p, c) && !(diff && profile_total2(p, c)))
				continue;
			GROW(stack, capstack, top + 1);
			stack[top++] = c;
		}
	}
	text_base = text;
	if (nlines)
		qsort(lines, nlines, sizeof(*lines), cmp_line);
	for (size_t i = 0; i < nlines; i++)
		fwrite(text + lines[i].off, 1, lines[i].len, out);
	free(text);
	free(path);
	free(lines);
	free(plens);
	free(stack);
	return nlines;
}
