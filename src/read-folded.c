/*
 * read-folded.c - folded stacks: "frame;frame;... COUNT" per line.
 *
 * The count is the last whitespace-separated field (frames may hold
 * spaces); differential input has two counts, "stack BEFORE AFTER", and is
 * recognized on the first good line.  The stack ends one blank before the
 * (first) count, as flamegraph.pl reads it: further blanks are part of the
 * last frame ("cmp<bool  5" is the frame "cmp<bool "), so --collapse gives
 * back the bytes it read.  Counts are decimal, kept exact to nine
 * fractional digits; more are rounded to nine.  Bad lines are skipped and
 * reported.
 *
 * Two stages.  Parsing turns lines into records (frame ids, counts, line
 * number) and bad-line messages; it runs on several threads, which take
 * the pieces of a block of whole lines in turn, and the profile's name
 * table is only read meanwhile: a name it does not hold yet goes to the
 * piece's own table, and after the block the new names are added in
 * input order (the first piece's, then the next one's), so every name
 * gets the id a single thread would give it.  Building then adds a batch
 * of records to the tree: the stacks are sorted by their frames' names
 * and merged into the tree (whose siblings are in name order) as sorted
 * lists merge, a new node appended in its place without any lookup
 * (profile_append_child);
 * into a tree that is not sorted, each stack reuses the previous one's
 * path.  Weights are then added in input order and the messages of
 * the batch come out in line order, so the result, the messages and their
 * order do not depend on the number of threads (FLAMETOP_THREADS, default
 * the number of CPUs).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool.h"
#include "read.h"
#include "util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define LOCAL_ID 0x80000000u        /* an id in a piece's own table */
#define MAX_FRAMES (PROFILE_MAX_DEPTH - 1)
#define BATCH_BYTES (8u << 20)      /* parsed before building: bounds memory */
#define BATCH_FIRST (1u << 20)      /* the first batches: building starts early */
#define BATCH_TAIL (1u << 20)       /* the smallest, near the input's end */
#define PARALLEL_MIN (128u << 10)   /* smaller blocks: one thread */
#define MAX_THREADS 16
#define CHUNKS 4                    /* pieces of a block per thread */
#define CHUNK_MIN (32u << 10)       /* no piece smaller, but one a thread */
#define SORT_AHEAD 8                /* stacks whose keys are fetched ahead */
#define MERGE_AHEAD 4               /* sorted stacks whose frames are fetched ahead */

/*
 * One good (or too deep) line, or a run of consecutive lines that repeat
 * one stack with one count (a file of one stack repeated is a handful).
 */
struct rec {
	uint64_t line;       /* the first line */
	uint64_t v, v2;
	uint32_t off;        /* its first frame in ids[] */
	uint32_t depth;
	uint32_t nlines;     /* lines in the run */
	uint8_t decimals;
	bool too_deep;       /* nodes only, no weight: the line is reported */
};

/* A bad line: why, or "line is too long" (why NULL) of len bytes. */
struct bad {
	uint64_t line;
	const char *why;
	size_t len;
};

/* Parsed lines: a piece of a block, or the batch the pieces join. */
struct part {
	uint32_t *ids;
	size_t nids, capids;
	struct rec *recs;
	size_t nrecs, caprecs;
	struct bad *bad;
	size_t nbad, capbad;
	uint64_t lines;      /* lines seen (a piece) */

	struct symtab *global;      /* the profile's names */
	struct symtab *local;       /* NULL: intern into global directly */
	bool differential;

	const char *text;           /* a piece of the block */
	size_t len;
	uint32_t nsyms;             /* names in the profile when handed over */

	/*
	 * The previous stack (sorted files share long prefixes): its text
	 * (in the block being parsed), the id of each frame and where it
	 * ends; frames inside the common prefix are not interned again.  A
	 * line that repeats it whole shares its record's frames (prev_rec,
	 * its index + 1; 0: none).
	 */
	const char *prev;
	size_t prevlen;
	uint32_t *prev_id;
	size_t *prev_end;
	size_t prev_depth, capprev_depth;
	size_t prev_rec;
	struct symtab_ref *refs;    /* a line's frames still to intern */
	size_t caprefs;
};

/*
 * Builds batches into the profile, on a thread of its own while the next
 * batch is parsed.  It reads the profile's names (which never move) but
 * never adds any, and only it touches the profile and the diagnostics
 * until the reading ends.
 */
struct builder {
	struct profile *p;
	struct diag *d;
	const char *name;
	struct part work;           /* the batch being built */
	uint32_t *rank, *byrank;    /* name order: id -> rank, rank -> id */
	uint32_t nrank;
	/* Scratch kept from batch to batch (no allocator churn). */
	uint32_t *node, *path;      /* node of each record; the current path */
	uint32_t *chain;            /* names of new nodes to append */
	size_t capnode, cappath, capchain;
	struct sort_key *order;
	size_t caporder;
	uint64_t good;              /* lines added */

	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool started, failed, busy, quit;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Parse the number ending at s[n-1] (after trailing spaces are gone):
 * digits with an optional '.' and fraction, whose digits past the ninth
 * are rounded off (half up: 14.2343983248722834234 is 14.234398325, what
 * the weights hold).  Sets *start to where it begins.  Returns NULL on
 * success or what is wrong.
 */
static const char *parse_count(const char *s, size_t n, size_t *start,
			       struct weight *w, uint64_t *out)
{
	size_t i = n, dot = SIZE_MAX;
	uint64_t v = 0;
	unsigned dec = 0;
	bool up = false;    /* the first digit cut off is 5 or more */

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
		if (dot != SIZE_MAX && dec == WEIGHT_MAX_DECIMALS) {
			if (k == dot + WEIGHT_MAX_DECIMALS + 1)
				up = s[k] >= '5';
			continue;
		}
		if (dot != SIZE_MAX)
			dec++;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[k] - '0'), &v))
			return "sample count is too large";
	}
	if (up && __builtin_add_overflow(v, 1, &v))
		return "sample count is too large";
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

#ifdef __SSE2__
/* Bit k set: s[k] is ';' (k < 16). */
static unsigned semi_mask(const char *s)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
}
#endif

/*
 * The first ';' in s[i..n), or n.  Frames are short, so a call to memchr
 * per frame cost more than the search: 16 bytes at a time inline, the last
 * bytes through 16 read up to s + n.
 */
static size_t find_semi(const char *s, size_t i, size_t n)
{
	const char *p;

#ifdef __SSE2__
	if (n >= 16) {
		unsigned m;

		for (; i + 16 <= n; i += 16)
			if ((m = semi_mask(s + i)) != 0)
				return i + (size_t)__builtin_ctz(m);
		if (i == n)
			return n;
		m = semi_mask(s + n - 16) >> (16 - (n - i));
		return m ? i + (size_t)__builtin_ctz(m) : n;
	}
#endif
	p = memchr(s + i, ';', n - i);
	return p ? (size_t)(p - s) : n;
}

static void add_bad(struct part *w, uint64_t line, const char *why, size_t len)
{
	GROW(w->bad, w->capbad, w->nbad + 1);
	w->bad[w->nbad++] = (struct bad){ line, why, len };
}

/*
 * The ids of a line's frames: looked up in the profile's names all at
 * once, and a name it does not hold interned into the piece's own table
 * (flagged), or into the profile's on the calling thread, in frame order.
 */
static void part_intern(struct part *w, const struct symtab_ref *refs,
			size_t n, uint32_t *ids)
{
	symtab_find_many(w->global, refs, n, ids);
	for (size_t i = 0; i < n; i++) {
		if (ids[i] != UINT32_MAX)
			continue;
		if (!w->local) {
			ids[i] = symtab_intern(w->global, refs[i].name, refs[i].len);
			continue;
		}
		ids[i] = symtab_intern(w->local, refs[i].name, refs[i].len);
		if (ids[i] >= LOCAL_ID)
			fatal("too many frame names");
		ids[i] |= LOCAL_ID;
	}
}

/* Forget the previous line (its text is about to go). */
static void forget_prev(struct part *w)
{
	w->prev_depth = w->prevlen = w->prev_rec = 0;
}

/*
 * One line (without its end) into a record or a bad-line message.  *first:
 * no good line yet, so a second count makes p differential (only parsed on
 * the calling thread, p is NULL elsewhere).
 */
static void parse_line(struct part *w, const char *s, size_t n,
		       uint64_t line, bool *first, struct profile *p)
{
	size_t at, at2, pos;
	uint64_t a = 0, b = 0;
	struct weight wt = { 0, 0, 0 };
	const char *why;
	unsigned dec_a, dec_b = 0;
	struct rec *r;

	if (memchr(s, '\0', n)) {
		add_bad(w, line, "NUL byte in line", 0);
		return;
	}
	while (n > 0 && is_space(s[n - 1]))
		n--;
	why = parse_count(s, n, &at, &wt, &a);
	if (why) {
		add_bad(w, line, why, 0);
		return;
	}
	dec_a = wt.decimals;
	n = at;
	/* Blanks between two counts are a separator (only the stack's end is
	 * taken as written, below). */
	while (n > 0 && is_space(s[n - 1]))
		n--;
	if (*first && p) {
		/* A second count before the first: differential input. */
		struct weight t = { 0, 0, 0 };
		uint64_t x;

		if (n > 0 && parse_count(s, n, &at2, &t, &x) == NULL && at2 > 0) {
			profile_set_differential(p, true);
			w->differential = true;
		}
	}
	if (w->differential) {
		struct weight t = { 0, 0, 0 };

		why = parse_count(s, n, &at2, &t, &b);
		if (why || at2 == 0) {
			add_bad(w, line, "expected two sample counts (differential input)", 0);
			return;
		}
		dec_b = t.decimals;
		if (t.decimals > wt.decimals)
			wt.decimals = t.decimals;
		at = at2;
		/* "stack BEFORE AFTER": widths follow AFTER. */
		if ((why = align(&b, dec_b, wt.decimals)) ||
		    (why = align(&a, dec_a, wt.decimals))) {
			add_bad(w, line, why, 0);
			return;
		}
		wt.v = a;
		wt.v2 = b;
	} else {
		wt.v = a;
	}
	/* The stack ends one blank before its count (at > 0: parse_count
	 * stopped at a blank): any others are the last frame's. */
	n = at > 0 ? at - 1 : 0;
	if (n == 0) {
		add_bad(w, line, "empty stack", 0);
		return;
	}
	*first = false;
	if (w->prev_rec && n == w->prevlen && memcmp(s, w->prev, n) == 0) {
		/* The previous stack again: the same run, or its frames shared. */
		struct rec *q = &w->recs[w->prev_rec - 1];

		if (w->prev_rec == w->nrecs && q->line + q->nlines == line &&
		    q->v == wt.v && q->v2 == wt.v2 && q->decimals == wt.decimals &&
		    q->nlines < UINT32_MAX) {
			q->nlines++;
			return;
		}
		ARR_NEED(w->recs, w->caprecs, w->nrecs + 1);
		q = &w->recs[w->prev_rec - 1];
		w->recs[w->nrecs++] = (struct rec){
			.off = q->off, .depth = q->depth, .line = line,
			.nlines = 1, .v = wt.v, .v2 = wt.v2,
			.decimals = (uint8_t)wt.decimals };
		w->prev_rec = w->nrecs;
		return;
	}
	if (w->nids + n + 1 > UINT32_MAX)
		fatal("too many frames in one block");
	ARR_NEED(w->recs, w->caprecs, w->nrecs + 1);
	r = &w->recs[w->nrecs++];
	*r = (struct rec){ .off = (uint32_t)w->nids, .line = line, .nlines = 1,
			   .v = wt.v, .v2 = wt.v2, .decimals = (uint8_t)wt.decimals };
	ARR_NEED(w->ids, w->capids, w->nids + n + 1);  /* n bytes: n + 1 frames at most */
	{
		/* Frames of the previous stack wholly inside the common prefix. */
		size_t common = common_prefix(s, w->prev,
					      n < w->prevlen ? n : w->prevlen);
		size_t keep = 0;

		while (keep < w->prev_depth && w->prev_end[keep] <= common) {
			size_t e = w->prev_end[keep];

			if (e == common && !((e == n || s[e] == ';') &&
					     (e == w->prevlen || w->prev[e] == ';')))
				break;
			keep++;
		}
		if (keep)
			memcpy(w->ids + w->nids, w->prev_id, keep * sizeof(*w->ids));
		w->nids += keep;
		r->depth = (uint32_t)keep;
		pos = keep ? w->prev_end[keep - 1] + 1 : 0;
	}
	{
		/* "a;;b" has an empty frame, "a;" ends with one. */
		size_t nf = 0;
		bool deep = false;
		uint32_t *ids = w->ids + w->nids;

		while (pos <= n) {
			const char *f = s + pos;
			size_t flen = find_semi(s, pos, n) - pos;

			if (r->depth + nf >= MAX_FRAMES) {
				deep = true;
				break;
			}
			if (nf == w->caprefs)
				GROW(w->refs, w->caprefs, nf + 1);
			w->refs[nf++] = (struct symtab_ref){ f, flen };
			pos += flen + 1;
		}
		if (r->depth + nf > w->capprev_depth) {
			GROW(w->prev_id, w->capprev_depth, r->depth + nf);
			w->prev_end = xreallocarray(w->prev_end, w->capprev_depth,
						    sizeof(*w->prev_end));
		}
		part_intern(w, w->refs, nf, ids);
		for (size_t i = 0; i < nf; i++) {
			w->prev_id[r->depth] = ids[i];
			w->prev_end[r->depth++] =
				(size_t)(w->refs[i].name - s) + w->refs[i].len;
		}
		w->nids += nf;
		if (deep) {
			/* The frames so far become nodes, as one by one. */
			r->too_deep = true;
			add_bad(w, line, "stack is deeper than 65534 frames", 0);
			forget_prev(w);
			return;
		}
	}
	w->prev_depth = r->depth;
	w->prev = s;
	w->prevlen = n;
	w->prev_rec = w->nrecs;
}

/* Is the line blank, a comment or only spaces? */
static bool skip_line(const char *s, size_t n)
{
	size_t i = 0;

	if (n == 0 || s[0] == '#')
		return true;
	while (i < n && is_space(s[i]))
		i++;
	return i == n;
}

/*
 * Parse the whole lines of text[0..len) (each ends in "\n"), numbered
 * from line + 1; returns the number of lines.  With first set, stops after
 * the first good line, and *len says how far it read.
 */
static uint64_t parse_lines(struct part *w, const char *text, size_t *len,
			    uint64_t line, bool *first, struct profile *p)
{
	const char *s = text, *end = text + *len;
	uint64_t k = 0;

	forget_prev(w);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)(nl - s);
		bool was_first = *first;

		k++;
		if (n && s[n - 1] == '\r')
			n--;
		if (!skip_line(s, n))
			parse_line(w, s, n, line + k, first, p);
		s = nl + 1;
		if (was_first && !*first)
			break;
	}
	*len = (size_t)(s - text);
	return k;
}

static void *parse_thread(void *arg)
{
	struct part *w = arg;
	size_t len = w->len;
	bool first = false;

	w->lines = parse_lines(w, w->text, &len, 0, &first, NULL);
	return NULL;
}

/* Append a piece to the batch: its new names first, in order. */
static void join_part(struct part *batch, struct part *w, uint64_t base)
{
	uint32_t nlocal = symtab_count(w->local), *map = NULL;
	uint64_t off = batch->nids;

	if (nlocal) {
		map = xreallocarray(NULL, nlocal, sizeof(*map));
		for (uint32_t i = 0; i < nlocal; i++)
			map[i] = symtab_intern(batch->global,
					       symtab_name(w->local, i),
					       symtab_len(w->local, i));
	}
	ARR_NEED(batch->ids, batch->capids, batch->nids + w->nids);
	for (size_t i = 0; i < w->nids; i++) {
		uint32_t id = w->ids[i];

		batch->ids[batch->nids++] = id & LOCAL_ID ? map[id & ~LOCAL_ID] : id;
	}
	ARR_NEED(batch->recs, batch->caprecs, batch->nrecs + w->nrecs);
	for (size_t i = 0; i < w->nrecs; i++) {
		struct rec *r = &batch->recs[batch->nrecs++];

		*r = w->recs[i];
		if (r->off + off > UINT32_MAX)
			fatal("too many frames in one batch");
		r->off += (uint32_t)off;
		r->line += base;
	}
	for (size_t i = 0; i < w->nbad; i++)
		add_bad(batch, w->bad[i].line + base, w->bad[i].why, w->bad[i].len);
	free(map);
	if (nlocal)
		symtab_clear(w->local);
	w->nids = w->nrecs = w->nbad = 0;
	forget_prev(w);     /* its ids may be local ones */
}

/*
 * The parsing threads' work: the pieces of a block, and the next block,
 * which the thread that parsed piece 0 fetches from the input while the
 * others parse the next pieces (input_keep_last keeps their block in
 * place meanwhile): the input's copy is then off the path the others
 * wait on.
 */
struct shares {
	struct part *parts;
	struct input *in;           /* NULL: no fetching ahead */
	struct input_ahead next;
};

/* Piece i of a block, on whichever thread took it (pool_run_claimed). */
static void parse_share(void *arg, unsigned i)
{
	struct shares *sh = arg;

	parse_thread(&sh->parts[i]);
	if (i == 0 && sh->in)
		input_fetch_ahead(sh->in, &sh->next);
}

/*
 * Parse text[0..len), whole lines numbered from line + 1, on nthreads
 * threads (this one too) into the batch; returns the number of lines.
 * The block is cut into pieces (CHUNKS a thread) that the threads take
 * in turn (pool_run_claimed): a thread held up by other work (the
 * builder, or another program) takes fewer, and the others do not wait
 * for it as they would for one share of its own.  The pieces are joined
 * in order, so where they are cut changes nothing but the time.
 */
static uint64_t parse_parallel(struct part *batch, struct pool *pl,
			       unsigned nthreads, const char *text, size_t len,
			       uint64_t line)
{
	struct part *parts = ((struct shares *)pl->ctx)->parts;
	const char *s = text, *end = text + len;
	unsigned used = 0, n = nthreads * CHUNKS;
	uint64_t base = line;

	if (nthreads < 2) {
		bool first = false;

		return parse_lines(batch, text, &len, line, &first, NULL);
	}
	while (n > nthreads && len / n < CHUNK_MIN)
		n--;
	/* Pieces cut after a line end. */
	for (unsigned i = 0; i < n && s < end; i++) {
		const char *cut = i + 1 == n ? end
				  : text + (size_t)((double)len * (i + 1) / n);
		struct part *w = &parts[i];

		if (cut < s)
			cut = s;
		if (cut < end) {
			const char *nl = memchr(cut, '\n', (size_t)(end - cut));

			cut = nl ? nl + 1 : end;
		}
		if (!w->local) {
			w->global = batch->global;
			w->local = symtab_create();
		}
		w->text = s;
		w->len = (size_t)(cut - s);
		w->differential = batch->differential;
		s = cut;
		used = i + 1;
	}
	pool_run_claimed(pl, used);
	for (unsigned i = 0; i < used; i++) {
		join_part(batch, &parts[i], base);
		base += parts[i].lines;
	}
	return base - line;
}

/* Ranks of the names in byte order (shorter first on a tie). */
struct by_name {
	const char *name;
	uint32_t len, id;
};

static int cmp_by_name(const void *a, const void *b)
{
	const struct by_name *x = a, *y = b;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* Does the name of id sort before x's? */
static bool name_before(const struct symtab *st, uint32_t id,
			const struct by_name *x)
{
	struct by_name a = { symtab_name(st, id), (uint32_t)symtab_len(st, id), id };

	return cmp_by_name(&a, x) < 0;
}

/*
 * The first of byrank[lo..n) (names in order) whose name does not sort
 * before x's: probing lo, lo + 1, lo + 3, lo + 7... then halving, so a
 * batch's few new names cost a few comparisons each, not one pass over
 * every name known.
 */
static uint32_t place_name(const struct symtab *st, const uint32_t *byrank,
			   uint32_t lo, uint32_t n, const struct by_name *x)
{
	uint32_t hi;

	for (uint64_t step = 1;; step *= 2) {
		if (lo + step - 1 >= n) {
			hi = n;
			break;
		}
		hi = (uint32_t)(lo + step - 1);
		if (!name_before(st, byrank[hi], x))
			break;
		lo = hi + 1;
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (name_before(st, byrank[mid], x))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A stack to sort: its frames' ranks. */
struct sort_key {
	const uint32_t *key;
	uint32_t depth, rec;
};

/* Rank of frame d, or -1 past the end: a stack sorts before its callees'. */
static int64_t key_at(const struct sort_key *k, uint32_t d)
{
	return d < k->depth ? (int64_t)k->key[d] : -1;
}

static void swap_keys(struct sort_key *a, struct sort_key *b)
{
	struct sort_key t = *a;

	*a = *b;
	*b = t;
}

/*
 * Sort stacks that agree on their first d frames (multikey quicksort: a
 * three-way split on frame d, so a common prefix is compared once, not at
 * every comparison).  Equal stacks end in any order: they share a node.
 */
static void sort_stacks(struct sort_key *a, size_t n, uint32_t d)
{
	while (n > 1) {
		size_t lt = 0, i = 1, gt = n;
		int64_t v;

		if (n < 12) {
			for (size_t j = 1; j < n; j++) {
				for (size_t k = j; k > 0; k--) {
					uint32_t e = d;

					while (key_at(&a[k - 1], e) == key_at(&a[k], e) &&
					       key_at(&a[k], e) >= 0)
						e++;
					if (key_at(&a[k - 1], e) <= key_at(&a[k], e))
						break;
					swap_keys(&a[k - 1], &a[k]);
				}
			}
			return;
		}
		{
			/* The median of three as the pivot, moved to a[0]. */
			size_t m = n / 2;
			int64_t x = key_at(&a[0], d), y = key_at(&a[m], d),
				z = key_at(&a[n - 1], d);

			if ((x < y) != (x < z))
				m = 0;
			else if ((z < x) != (z < y))
				m = n - 1;
			swap_keys(&a[0], &a[m]);
		}
		v = key_at(&a[0], d);
		while (i < gt) {
			int64_t c;

			/* The keys lie all over the batch: fetch both ends' ahead. */
			if (gt - i > 2 * SORT_AHEAD) {
				__builtin_prefetch(a[i + SORT_AHEAD].key + d);
				__builtin_prefetch(a[gt - SORT_AHEAD].key + d);
			}
			c = key_at(&a[i], d);

			if (c < v)
				swap_keys(&a[lt++], &a[i++]);
			else if (c > v)
				swap_keys(&a[i], &a[--gt]);
			else
				i++;
		}
		sort_stacks(a, lt, d);
		sort_stacks(a + gt, n - gt, d);
		if (v < 0)
			return;         /* the equal ones ended here: all equal */
		a += lt;
		n = gt - lt;
		d++;
	}
}

/* Does record i repeat the stack of record i - 1 (sharing its frames)? */
static bool same_as_previous(const struct part *batch, size_t i)
{
	return i > 0 && batch->recs[i].off == batch->recs[i - 1].off;
}

/*
 * Into a tree whose siblings are in name order: the stacks sorted by name,
 * each merged into the tree as two sorted lists merge.  A stack looks for
 * its next frame among the children of its parent from where the previous
 * stack left off; a frame not found is appended in its place, and so are
 * all frames below it, without any lookup.
 */
static void build_merge(struct profile *p, struct part *batch,
			uint32_t *node, struct builder *b)
{
	const struct symtab *st = profile_symtab(p);
	uint32_t nsym = batch->nsyms, *rank = b->rank, *byrank = b->byrank;
	uint32_t *path, prevdepth = 0;
	const struct pnode *nodes;
	struct sort_key *order;
	const uint32_t *prev = NULL;
	size_t norder = 0;

	if (b->nrank != nsym) {
		/*
		 * New names since the last batch: sort them, merge them into
		 * the names already in order, and number them all again.
		 */
		uint32_t nnew = nsym - b->nrank, i = 0, j = 0, k = 0;
		struct by_name *names = xreallocarray(NULL, nnew, sizeof(*names));
		uint32_t *merged = xreallocarray(NULL, nsym, sizeof(*merged));

		for (uint32_t n = 0; n < nnew; n++) {
			uint32_t id = b->nrank + n;

			names[n] = (struct by_name){ symtab_name(st, id),
						     (uint32_t)symtab_len(st, id), id };
		}
		qsort(names, nnew, sizeof(*names), cmp_by_name);
		for (j = 0; j < nnew; j++) {
			uint32_t at = place_name(st, byrank, i, b->nrank, &names[j]);

			if (at > i)
				memcpy(merged + k, byrank + i, (at - i) * sizeof(*merged));
			k += at - i;
			i = at;
			merged[k++] = names[j].id;
		}
		if (i < b->nrank)
			memcpy(merged + k, byrank + i, (b->nrank - i) * sizeof(*merged));
		free(names);
		free(byrank);
		byrank = b->byrank = merged;
		rank = b->rank = xreallocarray(rank, nsym, sizeof(*rank));
		for (uint32_t n = 0; n < nsym; n++)
			rank[byrank[n]] = n;
		b->nrank = nsym;
	}
	/* Frame ids become their names' ranks, in place. */
	for (size_t i = 0; i < batch->nids; i++)
		batch->ids[i] = rank[batch->ids[i]];
	ARR_NEED(b->order, b->caporder, batch->nrecs);
	order = b->order;
	for (size_t i = 0; i < batch->nrecs; i++)
		if (!same_as_previous(batch, i))
			order[norder++] = (struct sort_key){
				batch->ids + batch->recs[i].off,
				batch->recs[i].depth, (uint32_t)i };
	sort_stacks(order, norder, 0);
	/* The node array, fetched again after each append (it may move). */
	nodes = profile_node(p, NODE_ROOT);
	for (size_t k = 0; k < norder; k++) {
		const uint32_t *ids = order[k].key;
		uint32_t depth = order[k].depth;
		uint32_t c = 0, m = depth < prevdepth ? depth : prevdepth;

		while (c < m && ids[c] == prev[c])
			c++;
		/* The stacks come from all over the batch: fetch ahead. */
		if (k + MERGE_AHEAD < norder) {
			const uint32_t *ahead = order[k + MERGE_AHEAD].key;

			for (uint32_t j = 0; j < order[k + MERGE_AHEAD].depth; j += 16)
				__builtin_prefetch(ahead + j);
		}
		GROW(b->path, b->cappath, depth);
		GROW(b->chain, b->capchain, depth);
		path = b->path;
		for (uint32_t i = c; i < depth; i++) {
			uint32_t parent = i ? path[i - 1] : NODE_ROOT;
			uint32_t after = i == c && prevdepth > c ? path[i] : NODE_NONE;
			uint32_t cand, have = 0, want = ids[i], first;

			/* Ranks compared, the names' ids fetched only to append. */
			cand = after == NODE_NONE ? nodes[parent].child
						  : nodes[after].next;
			while (cand != NODE_NONE && (have = rank[nodes[cand].sym]) < want) {
				after = cand;
				cand = nodes[cand].next;
			}
			if (cand != NODE_NONE && have == want) {
				path[i] = cand;
				continue;
			}
			/* Not found: it and every frame below it are new nodes,
			 * one chain with consecutive ids. */
			for (uint32_t j = i; j < depth; j++)
				b->chain[j - i] = byrank[ids[j]];
			first = profile_append_chain(p, parent, after, b->chain,
						     depth - i);
			for (uint32_t j = i; j < depth; j++)
				path[j] = first + (j - i);
			nodes = profile_node(p, NODE_ROOT);
			break;
		}
		node[order[k].rec] = path[depth - 1];
		prev = ids;
		prevdepth = depth;
	}
	for (size_t i = 1; i < batch->nrecs; i++)
		if (same_as_previous(batch, i))
			node[i] = node[i - 1];
}

/* Into a tree that has stacks: each stack reuses the previous one's path. */
static void build_lookup(struct profile *p, const struct part *batch,
			 uint32_t *node, struct builder *b)
{
	uint32_t *path = b->path, prevdepth = 0;
	const uint32_t *prev = NULL;

	for (size_t k = 0; k < batch->nrecs; k++) {
		const struct rec *r = &batch->recs[k];
		const uint32_t *ids = batch->ids + r->off;
		uint32_t c = 0, m = r->depth < prevdepth ? r->depth : prevdepth;

		if (same_as_previous(batch, k)) {
			node[k] = node[k - 1];
			continue;
		}
		while (c < m && ids[c] == prev[c])
			c++;
		GROW(b->path, b->cappath, r->depth);
		path = b->path;
		for (uint32_t i = c; i < r->depth; i++)
			path[i] = profile_child(p, i ? path[i - 1] : NODE_ROOT, ids[i]);
		node[k] = path[r->depth - 1];
		prev = ids;
		prevdepth = r->depth;
	}
}

static void report(struct diag *d, const char *name, const struct bad *b)
{
	if (b->why)
		diag_bad(d, name, b->line, b->why);
	else
		diag_badf(d, name, b->line, "line is too long (%zu bytes)", b->len);
}

/*
 * Add the builder's batch to the tree, then its weights in input order;
 * report its bad lines in line order and count the good ones.
 */
static void build_batch(struct builder *b)
{
	struct profile *p = b->p;
	struct part *batch = &b->work;
	uint32_t *node;
	size_t bi = 0;

	ARR_NEED(b->node, b->capnode, batch->nrecs);
	node = b->node;

	if (batch->nrecs > UINT32_MAX)
		fatal("too many stacks in one batch");
	if (profile_siblings_sorted(p))
		build_merge(p, batch, node, b);
	else
		build_lookup(p, batch, node, b);
	for (size_t k = 0; k < batch->nrecs; k++) {
		const struct rec *r = &batch->recs[k];
		struct weight w = { r->v, r->v2, r->decimals };

		while (bi < batch->nbad && batch->bad[bi].line < r->line)
			report(b->d, b->name, &batch->bad[bi++]);
		if (r->too_deep)
			continue;
		if (r->nlines > 1) {
			/*
			 * A run at once when its sum fits (then every line
			 * would have), else line by line.
			 */
			struct weight all = w;

			if (!__builtin_mul_overflow(r->v, r->nlines, &all.v) &&
			    !__builtin_mul_overflow(r->v2, r->nlines, &all.v2) &&
			    profile_add_at(p, node[k], &all, NULL) == ADD_OK) {
				b->good += r->nlines;
				continue;
			}
		}
		for (uint32_t i = 0; i < r->nlines; i++) {
			if (profile_add_at(p, node[k], &w, NULL) == ADD_OVERFLOW)
				diag_bad(b->d, b->name, r->line + i,
					 "sample count would overflow the profile's total");
			else
				b->good++;
		}
	}
	while (bi < batch->nbad)
		report(b->d, b->name, &batch->bad[bi++]);
	batch->nids = batch->nrecs = batch->nbad = 0;
}

static void *builder_thread(void *arg)
{
	struct builder *b = arg;

	pthread_mutex_lock(&b->mu);
	for (;;) {
		while (!b->busy && !b->quit)
			pthread_cond_wait(&b->cv, &b->mu);
		if (!b->busy)
			break;
		pthread_mutex_unlock(&b->mu);
		build_batch(b);
		pthread_mutex_lock(&b->mu);
		b->busy = false;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

/* Wait until the builder has built what it was given. */
static void builder_wait(struct builder *b)
{
	if (!b->started)
		return;
	pthread_mutex_lock(&b->mu);
	while (b->busy)
		pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

/*
 * Hand the batch to the builder (its emptied arrays come back for the
 * next one): built meanwhile on the builder's thread when async, else
 * here and now.  Either way batches are built one after the other, in
 * input order.
 */
static void builder_submit(struct builder *b, struct part *batch, bool async)
{
	struct part t;

	builder_wait(b);
	batch->nsyms = symtab_count(batch->global);
	t = b->work;
	b->work.ids = batch->ids;
	b->work.nids = batch->nids;
	b->work.capids = batch->capids;
	b->work.recs = batch->recs;
	b->work.nrecs = batch->nrecs;
	b->work.caprecs = batch->caprecs;
	b->work.bad = batch->bad;
	b->work.nbad = batch->nbad;
	b->work.capbad = batch->capbad;
	b->work.nsyms = batch->nsyms;
	batch->ids = t.ids;
	batch->capids = t.capids;
	batch->recs = t.recs;
	batch->caprecs = t.caprecs;
	batch->bad = t.bad;
	batch->capbad = t.capbad;
	batch->nids = batch->nrecs = batch->nbad = 0;
	forget_prev(batch);
	if (async && !b->started && !b->failed) {
		pthread_mutex_init(&b->mu, NULL);
		pthread_cond_init(&b->cv, NULL);
		if (pthread_create(&b->thread, NULL, builder_thread, b) == 0) {
			b->started = true;
		} else {
			pthread_mutex_destroy(&b->mu);
			pthread_cond_destroy(&b->cv);
			b->failed = true;
		}
	}
	if (async && b->started) {
		pthread_mutex_lock(&b->mu);
		b->busy = true;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
	} else {
		build_batch(b);
	}
}

static void builder_end(struct builder *b)
{
	if (b->started) {
		pthread_mutex_lock(&b->mu);
		b->quit = true;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		pthread_join(b->thread, NULL);
		pthread_mutex_destroy(&b->mu);
		pthread_cond_destroy(&b->cv);
	}
	ARR_FREE(b->work.ids, b->work.capids);
	ARR_FREE(b->work.recs, b->work.caprecs);
	free(b->work.bad);
	free(b->rank);
	free(b->byrank);
	ARR_FREE(b->node, b->capnode);
	free(b->path);
	free(b->chain);
	ARR_FREE(b->order, b->caporder);
}

/*
 * FLAMETOP_THREADS, or the number of CPUs.  Set, it also splits blocks of
 * any size, so that tests reach the threads with small inputs;
 * FLAMETOP_BATCH_BYTES (tests only) fixes the size of every batch (0:
 * batch_size decides).
 */
static unsigned thread_count(size_t *parallel_min, size_t *batch_bytes)
{
	bool set;
	unsigned n = read_thread_count(MAX_THREADS, &set);

	*parallel_min = set ? 0 : PARALLEL_MIN;
	*batch_bytes = read_test_batch_bytes();
	return n;
}

/*
 * Records to gather before building: half of what was built so far, from
 * 1 MB up to 8 MB, and less near the end.  Small batches first, so that
 * building starts beside the parsing early (a 32 MB file is one 8 MB batch
 * otherwise, built after the parsing); large ones later, when the walks
 * down a large tree are shared by more stacks.
 */
static size_t batch_size(size_t fixed, size_t submitted, size_t held,
			 const struct input *in)
{
	size_t want = submitted / 2;
	uint64_t off = in ? input_raw_offset(in) : 0;
	uint64_t size = in ? input_raw_size(in) : 0;

	if (fixed)
		return fixed;
	want = want < BATCH_FIRST ? BATCH_FIRST : want > BATCH_BYTES ? BATCH_BYTES : want;
	/*
	 * Near the end of an input of known size (in: NULL on one thread):
	 * half the records still to come (as many a byte read as so far),
	 * down to BATCH_TAIL.  The last batch is built after the parsing, on
	 * one thread while the others wait, so it is kept small.
	 */
	if (off > 0 && size > off) {
		double left = (double)(submitted + held) * (double)(size - off) /
			      (double)off / 2;

		if (left < (double)want)
			want = left < BATCH_TAIL ? BATCH_TAIL : (size_t)left;
	}
	return want;
}

static void free_part(struct part *w)
{
	free(w->refs);
	free(w->prev_id);
	free(w->prev_end);
	ARR_FREE(w->ids, w->capids);
	ARR_FREE(w->recs, w->caprecs);
	free(w->bad);
	symtab_destroy(w->local);
}

int read_folded(struct profile *p, struct input *in,
		const struct read_opts *o, struct diag *d)
{
	struct part batch = { 0 }, parts[MAX_THREADS * CHUNKS];
	size_t parallel_min, batch_bytes, held, submitted = 0;
	unsigned nthreads = thread_count(&parallel_min, &batch_bytes);
	const char *text;
	size_t len;
	bool first = !profile_is_differential(p) && profile_samples(p) == 0;
	struct builder b = { .p = p, .d = d, .name = input_name(in) };
	struct shares sh = { .parts = parts, .in = nthreads > 1 ? in : NULL };
	struct pool pool;
	uint64_t before[DIAG_UNITS];
	int r;

	memcpy(before, d->nbad, sizeof(before));
	/* The name table stays valid: symtab_intern never moves names. */
	batch.global = (struct symtab *)profile_symtab(p);
	batch.differential = profile_is_differential(p);
	memset(parts, 0, sizeof(parts));
	pool_init(&pool, nthreads, parse_share, &sh);
	if (sh.in)
		input_keep_last(in);
	r = input_getblock(in, &text, &len);
	while (r > 0) {
		uint64_t line = input_lineno(in);

		if (r == 2) {
			add_bad(&batch, line, NULL, len);
		} else if (r == 3) {
			size_t n = len;

			forget_prev(&batch);
			if (!skip_line(text, n))
				parse_line(&batch, text, n, line, &first, p);
		} else {
			uint64_t k = 0;

			if (first) {
				size_t n = len;

				k = parse_lines(&batch, text, &n, line, &first, p);
				text += n;
				len -= n;
			}
			k += parse_parallel(&batch, &pool,
					    len < parallel_min ? 1 : nthreads,
					    text, len, line + k);
			input_count_lines(in, k);
		}
		read_report_progress(o, in);
		/* Built beside the parsing once the first good line is in. */
		held = batch.nids * sizeof(*batch.ids) +
		       batch.nrecs * sizeof(*batch.recs);
		if (held >= batch_size(batch_bytes, submitted, held,
					 nthreads > 1 ? in : NULL)) {
			submitted += held;
			builder_submit(&b, &batch, nthreads > 1 && !first);
		}
		r = input_next_block(in, &sh.next, &text, &len);
	}
	pool_end(&pool);
	builder_submit(&b, &batch, false);
	builder_end(&b);
	free_part(&batch);
	for (unsigned i = 0; i < MAX_THREADS * CHUNKS; i++)
		free_part(&parts[i]);
	if (input_error(in))
		diag_warn(d, "%s", input_error(in));
	if (r < 0)
		return b.good ? 0 : -1;
	if (b.good)
		profile_note_unit(p, UNIT_SAMPLES);
	if (b.good && o->lines)
		diag_warn(d, "%s: folded stacks carry no source lines: --lines "
			  "names functions only", input_name(in));
	return read_done(d, input_name(in), b.good, before,
			 "no stacks in input");
}
