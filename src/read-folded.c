/*
 * read-folded.c - folded stacks: "frame;frame;... COUNT" per line.
 *
 * The count is the last whitespace-separated field (frames may hold
 * spaces); differential input has two counts, "stack BEFORE AFTER", and is
 * recognized on the first good line.  Counts are decimal with up to nine
 * fractional digits, kept exact.  Bad lines are skipped and reported.
 *
 * Folded files are usually sorted, so consecutive stacks share a prefix:
 * the reader keeps the previous stack's text and node path, and only the
 * frames after the shared prefix are looked up.
 */
#include <stdlib.h>
#include <string.h>

#include "read.h"
#include "util.h"

struct path_cache {
	char *text;          /* the previous stack */
	size_t len, cap;
	uint32_t *node;      /* node of frame i */
	size_t *end;         /* end offset of frame i in text */
	size_t depth, capdepth;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Parse the number ending at s[n-1] (after trailing spaces are gone):
 * digits with an optional '.' and fraction.  Sets *start to where it
 * begins.  Returns NULL on success or what is wrong.
 */
static const char *parse_count(const char *s, size_t n, size_t *start,
			       struct weight *w, uint64_t *out)
{
	size_t i = n, dot = SIZE_MAX;
	uint64_t v = 0;
	unsigned dec = 0;

	while (i > 0 && !is_space(s[i - 1]))
		i--;
	*start = i;
	{
		bool digit = false;

		for (size_t k = i; k < n; k++)
			digit |= s[k] >= '0' && s[k] <= '9';
		if (!digit)
			return "no sample count";
	}
	if (s[i] == '-')
		return "negative sample count";
	for (size_t k = i; k < n; k++) {
		if (s[k] == '.') {
			if (dot != SIZE_MAX || k == i)
				return "sample count is not a number";
			dot = k;
			continue;
		}
		if (s[k] < '0' || s[k] > '9')
			return i == 0 ? "no sample count"
				      : "sample count is not a number";
		if (dot != SIZE_MAX) {
			if (++dec > WEIGHT_MAX_DECIMALS)
				return "sample count has more than 9 decimals";
		}
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[k] - '0'), &v))
			return "sample count is too large";
	}
	*out = v;
	w->decimals = dec > w->decimals ? dec : w->decimals;
	return NULL;
}

static uint64_t pow10u(unsigned d)
{
	uint64_t m = 1;

	while (d--)
		m *= 10;
	return m;
}

/* Bring a count parsed with `had` decimals to w->decimals. */
static const char *align(uint64_t *v, unsigned had, unsigned want)
{
	if (__builtin_mul_overflow(*v, pow10u(want - had), v))
		return "sample count is too large";
	return NULL;
}

static void cache_store(struct path_cache *c, const char *s, size_t n)
{
	GROW(c->text, c->cap, n + 1);
	memcpy(c->text, s, n);
	c->len = n;
}

/* Length of the common prefix of a and b, n bytes at most: 8 at a time. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Nodes for the stack s[0..n): reuse the previous stack's prefix. */
static uint32_t build_path(struct profile *p, struct path_cache *c,
			   const char *s, size_t n, size_t *depth_out)
{
	size_t m = n < c->len ? n : c->len;
	size_t common = common_prefix(s, c->text, m);
	size_t keep = 0, pos;
	uint32_t node = NODE_ROOT;

	/* Frames of the previous stack wholly inside the common prefix. */
	while (keep < c->depth && c->end[keep] <= common) {
		size_t e = c->end[keep];

		if (e == common && !((e == n || s[e] == ';') &&
				     (e == c->len || c->text[e] == ';')))
			break;
		keep++;
	}
	if (keep)
		node = c->node[keep - 1];
	pos = keep ? c->end[keep - 1] + 1 : 0;
	c->depth = keep;
	while (pos <= n) {
		const char *f = s + pos;
		const char *semi = memchr(f, ';', n - pos);
		size_t flen = semi ? (size_t)(semi - f) : n - pos;

		if (c->depth >= PROFILE_MAX_DEPTH - 1) {
			/* Too deep: forget the partial path, add nothing. */
			c->depth = c->len = 0;
			*depth_out = PROFILE_MAX_DEPTH;
			return NODE_NONE;
		}
		node = profile_child(p, node, profile_intern(p, f, flen));
		if (c->depth + 1 > c->capdepth) {
			GROW(c->node, c->capdepth, c->depth + 1);
			c->end = xreallocarray(c->end, c->capdepth,
					       sizeof(*c->end));
		}
		c->node[c->depth] = node;
		c->end[c->depth++] = pos + flen;
		pos += flen + 1;
	}
	cache_store(c, s, n);
	*depth_out = c->depth;
	return node;
}

static const char *parse_line(struct profile *p, struct path_cache *c,
			      const char *s, size_t n, bool *first)
{
	size_t at, at2;
	uint64_t a = 0, b = 0;
	struct weight w = { 0, 0, 0 };
	const char *why;
	unsigned dec_a, dec_b = 0;
	size_t depth;
	uint32_t node;
	enum add_status st;

	if (memchr(s, '\0', n))
		return "NUL byte in line";
	while (n > 0 && is_space(s[n - 1]))
		n--;
	why = parse_count(s, n, &at, &w, &a);
	if (why)
		return why;
	dec_a = w.decimals;
	n = at;
	while (n > 0 && is_space(s[n - 1]))
		n--;
	if (*first) {
		/* A second count before the first: differential input. */
		struct weight t = { 0, 0, 0 };
		uint64_t x;

		if (n > 0 && parse_count(s, n, &at2, &t, &x) == NULL && at2 > 0)
			profile_set_differential(p, true);
	}
	if (profile_is_differential(p)) {
		struct weight t = { 0, 0, 0 };

		why = parse_count(s, n, &at2, &t, &b);
		if (why || at2 == 0)
			return "expected two sample counts (differential input)";
		dec_b = t.decimals;
		if (t.decimals > w.decimals)
			w.decimals = t.decimals;
		n = at2;
		while (n > 0 && is_space(s[n - 1]))
			n--;
		/* "stack BEFORE AFTER": widths follow AFTER. */
		if ((why = align(&b, dec_b, w.decimals)) ||
		    (why = align(&a, dec_a, w.decimals)))
			return why;
		w.v = a;
		w.v2 = b;
	} else {
		w.v = a;
	}
	if (n == 0)
		return "empty stack";
	*first = false;
	node = build_path(p, c, s, n, &depth);
	if (node == NODE_NONE)
		return "stack is deeper than 65534 frames";
	st = profile_add_at(p, node, &w, NULL);
	if (st == ADD_OVERFLOW)
		return "sample count would overflow the profile's total";
	return NULL;
}

int read_folded(struct profile *p, struct input *in,
		const struct read_opts *o, struct diag *d)
{
	struct path_cache c = { 0 };
	const char *line;
	size_t len;
	bool first = !profile_is_differential(p) && profile_samples(p) == 0;
	uint64_t good = 0, tick = 0;
	int r;

	while ((r = input_getline(in, &line, &len)) > 0) {
		const char *why;

		if (r == 2) {
			diag_badf(d, input_name(in), input_lineno(in),
				  "line is too long (%zu bytes)", len);
			continue;
		}
		if (len == 0 || (len && line[0] == '#'))
			continue;
		{
			size_t i = 0;

			while (i < len && is_space(line[i]))
				i++;
			if (i == len)
				continue;
		}
		why = parse_line(p, &c, line, len, &first);
		if (why)
			diag_bad(d, input_name(in), input_lineno(in), why);
		else
			good++;
		if (++tick % 65536 == 0)
			read_report_progress(o, in);
	}
	free(c.text);
	free(c.node);
	free(c.end);
	if (input_error(in))
		diag_warn(d, "%s", input_error(in));
	if (r < 0)
		return good ? 0 : -1;
	if (!good && !d->bad)
		diag_warn(d, "%s: no stacks in input", input_name(in));
	if (good)
		profile_note_unit(p, UNIT_SAMPLES);
	return good ? 0 : -1;
}
