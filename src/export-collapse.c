/*
 * export-collapse.c - the profile as folded stacks.
 *
 * Every node with self weight ends one distinct stack, and the lines must
 * come out sorted as whole stacks in byte order, the order of `sort` and of
 * stackcollapse-perf.pl's output.  Walking the tree in sibling (name) order
 * is not enough: with siblings "foo" and "foo::bar", byte order puts
 * "a;foo::bar;x" (':' is 0x3a) between "a;foo" and "a;foo;y" (';' is
 * 0x3b).  So each node stands in its parent's list as two items: its own
 * stack, keyed by its name followed by the end of the string, and its
 * children's stacks, keyed by its name followed by ';'.  Two stacks first
 * differ within one frame, and under that frame's parent their items
 * compare as the whole stacks do; so sorting each node's items and walking
 * them depth-first writes the stacks in byte order, one path at a time,
 * without holding the text of every stack in memory (that took as much
 * again as the tree on a 300 MB profile).
 *
 * Written to a file or a pipe, the names are the profile's bytes, as
 * scripts expect.  Written to a terminal, they are escaped as everywhere
 * else on screen, so a name cannot send the terminal control sequences.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "textfmt.h"
#include "util.h"

#define OUT_CHUNK (1u << 20)

struct item {
	const char *name;
	uint32_t len;
	uint32_t node;
	int next;            /* the key's byte after the name: -1 (end) or ';' */
};

struct frame {
	size_t next, end;    /* its items left to walk, in the item stack */
	size_t pathlen;      /* length of the frame's node's path */
	unsigned depth;      /* of the frame's node (root 0) */
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	uint32_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n), cx, cy;

	if (c)
		return c;
	cx = x->len > n ? (unsigned char)x->name[n] : x->next;
	cy = y->len > n ? (unsigned char)y->name[n] : y->next;
	return (cx > cy) - (cx < cy);
}

static void push_item(struct item **items, size_t *n, size_t *cap,
		      const struct item *it)
{
	GROW(*items, *cap, *n + 1);
	(*items)[(*n)++] = *it;
}

/* Push the sorted items of node's children; returns how many. */
static size_t push_items(const struct profile *p, uint32_t node, bool diff,
			 struct item **items, size_t *n, size_t *cap)
{
	size_t start = *n;

	for (uint32_t c = profile_node(p, node)->child; c != NODE_NONE;
	     c = profile_node(p, c)->next) {
		struct item it = { profile_name(p, c),
				   (uint32_t)profile_name_len(p, c), c, -1 };

		if (profile_self(p, c) || (diff && profile_self2(p, c)))
			push_item(items, n, cap, &it);
		/* Weight below c: its children's stacks. */
		if (profile_total(p, c) > profile_self(p, c) ||
		    (diff && profile_total2(p, c) > profile_self2(p, c))) {
			it.next = ';';
			push_item(items, n, cap, &it);
		}
	}
	if (*n - start > 1)
		qsort(*items + start, *n - start, sizeof(**items), cmp_item);
	return *n - start;
}

/* The line's text, escaped for a terminal (the '\n' stays a newline). */
static size_t escape_line(const char *line, size_t len, char **buf,
			  size_t *cap)
{
	size_t n;

	GROW(*buf, *cap, 4 * len + 2);
	n = textfmt_escape(line, len - 1, *buf, *cap - 1);
	(*buf)[n++] = '\n';
	return n;
}

size_t export_collapse(FILE *out, const struct profile *p)
{
	struct item *items = NULL;
	struct frame *st = NULL;
	size_t nitems = 0, capitems = 0, top = 0, capst = 0, lines = 0;
	char *line = NULL, *obuf = xmalloc(OUT_CHUNK);
	char *esc = NULL;
	size_t cap = 0, olen = 0, capesc = 0;
	bool diff = profile_is_differential(p);
	bool tty = isatty(fileno(out));

	/*
	 * A stack of frames, one per node on the current path, each with its
	 * children's items; the items of the deepest frame are the last on
	 * the item stack.  line[0..pathlen) is the deepest frame's path.
	 */
	GROW(st, capst, 1);
	st[0] = (struct frame){ 0, 0, 0, 0 };
	st[0].end = push_items(p, NODE_ROOT, diff, &items, &nitems, &capitems);
	top = 1;
	while (top) {
		struct frame *f = &st[top - 1];
		struct item it;
		size_t len;

		if (f->next == f->end) {
			top--;
			if (top)
				nitems = st[top - 1].end;
			continue;
		}
		it = items[f->next++];
		len = f->pathlen + (f->depth ? 1 : 0) + it.len;
		GROW(line, cap, len + 2 * 48 + 3);
		if (f->depth)
			line[f->pathlen] = ';';
		memcpy(line + len - it.len, it.name, it.len);
		if (it.next < 0) {
			/* The stack ending at it.node: "path [COUNT2] COUNT". */
			if (diff) {
				line[len++] = ' ';
				len += profile_format_weight(p, profile_self2(p, it.node),
							     line + len, 48);
			}
			line[len++] = ' ';
			len += profile_format_weight(p, profile_self(p, it.node),
						     line + len, 48);
			line[len++] = '\n';
			const char *text = line;

			if (tty) {
				len = escape_line(line, len, &esc, &capesc);
				text = esc;
			}
			/* Big writes: stdio's 4 KiB would be a system call each. */
			if (olen + len > OUT_CHUNK) {
				fwrite(obuf, 1, olen, out);
				olen = 0;
			}
			if (len > OUT_CHUNK) {
				fwrite(text, 1, len, out);
			} else {
				memcpy(obuf + olen, text, len);
				olen += len;
			}
			lines++;
		} else {
			size_t start = nitems, n;

			n = push_items(p, it.node, diff, &items, &nitems,
				       &capitems);
			GROW(st, capst, top + 1);
			st[top].next = start;
			st[top].end = start + n;
			st[top].pathlen = len;
			st[top].depth = st[top - 1].depth + 1;
			top++;
		}
	}
	free(items);
	free(st);
	fwrite(obuf, 1, olen, out);
	free(obuf);
	free(line);
	free(esc);
	return lines;
}
