/*
 * read-perf-script-priv.h - what the perf script reader's files share.
 *
 * read-perf-script.c drives: it cuts the input into pieces, runs readers
 * on them at once and applies what they found to the profile in input
 * order.  read-perf-script-parse.c is a reader: the grammar of event and
 * frame lines, turning a piece's lines into records of stacks.
 * read-perf-script-cache.c holds a reader's caches (frame lines, stacks)
 * and its records.  Calls go driver -> parser -> caches, never back.
 *
 * The small cache look-ups below run on every frame line, so they are
 * inline here rather than calls into another file.
 */
#ifndef FLAMETOP_READ_PERF_SCRIPT_PRIV_H
#define FLAMETOP_READ_PERF_SCRIPT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "frame-locs.h"
#include "read.h"
#include "symtab.h"
#include "util.h"

/* ---- Caches ---------------------------------------------------------- */

/* A frame line's function (reader's afns id + 1; 0: unknown) and address. */
#define AFN_NONE UINT32_MAX
struct pscript_aframe {
	uint32_t fn;
	uint64_t addr;
};

/*
 * A frame line already seen: the key is the whole line (address and all:
 * what it becomes depends on nothing else) and whether the root is a java
 * process; the value, the ids of its frames.  The key's text is kept in
 * keys after a struct fkey (8-aligned) holding what a look-up compares
 * first, so that a look-up reads the key's cache lines and not the
 * entry's too: on a real recording most lines are looked up in a cache
 * far larger than the CPU's, and each line read from memory costs more
 * than the parse.
 */
struct fkey {
	uint64_t hash;
	uint32_t klen;
	uint32_t java;
};

struct fentry {
	size_t key;          /* its struct fkey in keys */
	uint32_t n;
	uint32_t next;       /* the entry of the line that came next, + 1 */
	size_t nextkey;      /* and its key */
	size_t ids;          /* in fids */
	uint32_t afn;        /* its function (reader's afns id + 1; 0: an
	                        unknown one; AFN_NONE: no frame) */
	uint64_t addr;       /* and address, for the address tables */
};

/* A slot of the frame-line table: the entry + 1 (0: empty) and its key / 8. */
struct fslot {
	uint32_t e;
	uint32_t key8;
};

/*
 * A stack of a reader's name ids (root first); node, the profile's node it
 * ends at once the stack has been added (NO_NODE until then).
 */
struct sentry {
	uint64_t hash;
	size_t ids;          /* in sids */
	uint32_t n;
	uint32_t node;
};

#define NO_NODE UINT32_MAX
#define FIRST UINT32_MAX
#define NO_STACK UINT32_MAX

/* Stop caching past these sizes (memory bound on huge inputs). */
#define STACK_CACHE_MAX_IDS (64u << 20)
#define FRAME_CACHE_MAX_KEYS (256u << 20)

/*
 * What a piece of text yields, in input order: samples, and bad lines to
 * report.  Lines are counted from the piece's start (the first line is 1;
 * a sample begun in the piece before has its event line at 0 or less).
 */
enum rec_kind { REC_SAMPLE, REC_BAD, REC_DEEP };

struct rec {
	int64_t line;            /* of the event line, or of the bad line */
	enum rec_kind kind;
	uint32_t stack;          /* in the reader's stack cache, or NO_STACK: */
	uint32_t n;              /* ... n name ids at the piece's ids[off] */
	size_t off;
	size_t aoff;             /* its address frames: the piece's */
	uint32_t an;             /* afr[aoff .. aoff + an), root first */
	uint64_t weight;
	const char *what;        /* REC_BAD */
	struct sample_meta meta; /* comm: the reader's name id */
};

struct reader;

/* A run of whole lines one reader parses. */
struct piece {
	THREAD_OWNED struct reader *r;
	const char *text;
	size_t len;
	bool one;                /* text is one line, without its end */
	uint64_t lines;
	uint32_t names_from, names_to;  /* the reader's names new here */
	struct rec *recs;
	size_t nrecs, caprecs;
	uint32_t *ids;           /* stacks not cached */
	size_t nids, capids;
	struct pscript_aframe *afr;  /* every sample's address frames */
	size_t nafr, capafr;
	/* Counts for the messages at the end. */
	uint64_t extra;          /* indented non-frame lines in samples */
	int64_t first_extra;     /* the line of the first */
	uint64_t srclines;       /* --lines: srcline lines given to frames */
	uint64_t events, blanks; /* event lines and blank lines seen */
	uint64_t oneline;        /* samples without call chains */
	uint64_t other_events;
	char *other;             /* the first other event seen */
	bool periods;            /* an event line carried a period */
};

/*
 * A reader: turns lines into stacks of its own name ids, with its own
 * caches, so that several can run at once on pieces of the input; the
 * names and stacks reach the profile afterwards, in input order (apply).
 */
struct reader {
	THREAD_OWNED const struct read_opts *o;
	const char *event;       /* the event kept (NULL: none seen yet) */
	size_t eventlen;
	struct piece *pc;        /* the piece being read */

	/* The sample being read. */
	bool in_sample;          /* pname is set: frames are collected */
	bool filtered;           /* the last event line was filtered out */
	uint32_t pname;          /* root frame id */
	bool java;               /* pname starts with "java" */
	uint64_t period;
	struct sample_meta meta;
	int64_t event_line;
	uint32_t *frames;        /* leaf first */
	size_t nframes, capframes;
	struct pscript_aframe *af;   /* the frame lines' addresses, leaf first */
	size_t naf, capaf;
	/* Functions (name, then module, NUL between) by the reader's ids,
	 * and their ids in the profile's address tables once applied. */
	struct symtab *afns;
	uint32_t *afgid;             /* id + 1; 0: not yet */
	size_t capafgid;
	uint32_t *stack;         /* root first, built at the end */
	size_t capstack;

	/* Names: this reader's ids, and the profile's once interned. */
	struct symtab *names;
	struct frame_locs *locs; /* where frames came from, by these ids
				    (NULL: none known yet), for --pprof */
	uint32_t *gid;
	size_t capgid;

	/* The last root frame's text, to skip re-interning it. */
	char *lastroot;
	size_t lastrootlen, caplastroot;
	uint32_t lastrootid;
	bool have_lastroot;

	/*
	 * The tail of the last event line whose event was found, from its
	 * e.tail on, and where its event and period were, counted from its
	 * end (the period 0 for none): a line that ends in the same bytes
	 * ends in the same event and period.
	 */
	char *ptail;
	size_t ptaillen, capptail;
	size_t ptevent, pteventlen, ptperiod, ptperiodlen;

	char *buf;               /* scratch for names */
	size_t capbuf;

	struct fentry *fe;
	size_t nfe, capfe;
	struct fslot *fslots;
	size_t fmask;
	char *keys;
	size_t nkeys, capkeys, max_keys;
	uint32_t *fids;
	size_t nfids, capfids;
	/*
	 * Stacks repeat, so the frame line after a given one is most often
	 * the one that came after it before: compared first, it needs no
	 * hash.  last: the sample's last frame line's entry + 1 (FIRST at
	 * the sample's start, 0 unknown); first: the last sample's first.
	 */
	uint32_t last, first;
	size_t firstkey;         /* first's key */

	struct sentry *se;
	size_t nse, capse;
	uint32_t *sslots;
	size_t smask;
	uint32_t *sids;
	size_t nsids, capsids, max_ids;

	int64_t lineno;          /* of the line being read, in the piece */
	struct piece *todo[2];   /* the pieces of a round, in order */
};

/* ---- Event lines ----------------------------------------------------- */

struct event_line {
	size_t commlen;
	const char *pid, *tid;   /* tid NULL: the line has one number */
	size_t pidlen, tidlen;
	size_t rest;             /* offset after "COMM PID[/TID]" */
	const char *event;       /* NULL: no "EVENT:" at the end */
	size_t eventlen;
	const char *period;      /* NULL: none */
	size_t periodlen;
	size_t tail;             /* with an event: where the ':' before
	                            "[PERIOD] EVENT:" is, the first byte
	                            pscript_match_period's reading depends on */
};

/* ---- read-perf-script-parse.c ---------------------------------------- */

/* "COMM PID[/TID] " at the start of s[0..n): an event line's head. */
bool pscript_match_event(const char *s, size_t n, struct event_line *e);

/* "/tmp/perf-DIGITS.map" anywhere in the module m (n bytes): JIT code. */
bool pscript_is_jit_module(const char *m, size_t n);
/* The event's name and the period before it, when the line has them. */
void pscript_match_period(const char *s, size_t n, struct event_line *e);
/* Read a piece's lines; its reader goes on from the state it was left in. */
void pscript_read_piece(struct reader *r, struct piece *pc, uint64_t base);

/* ---- read-perf-script-cache.c ---------------------------------------- */

struct rec *pscript_add_rec(struct reader *r, enum rec_kind kind,
			    int64_t line);
/* Cache a frame line k[0..n) (hash h) as its count frames at fids[ids]. */
void pscript_cache_add(struct reader *r, const char *k, size_t n, uint64_t h,
		       size_t ids, uint32_t count);
/* A blank line: the sample is complete. */
void pscript_end_sample(struct reader *r);
/*
 * The sample being read (if any) is damaged: it is left out, and the
 * frame lines up to the next event line go quietly.
 */
void pscript_drop_sample(struct reader *r);
void pscript_reader_free(struct reader *r);

/* ---- The frame-line cache's look-ups --------------------------------- */

/* The address of a frame line, after its frames (leaf first). */
static inline void push_aframe(struct reader *r, uint32_t fn, uint64_t addr)
{
	if (fn == AFN_NONE)
		return;
	if (r->naf == r->capaf)
		GROW(r->af, r->capaf, r->naf + 1);
	r->af[r->naf].fn = fn;
	r->af[r->naf++].addr = addr;
}

static inline void push_frames(struct reader *r, size_t ids, uint32_t n)
{
	if (r->nframes + n > r->capframes)      /* GROW is a call */
		GROW(r->frames, r->capframes, r->nframes + n);
	/* Leaf first: the line's last frame is the most leafward. */
	for (uint32_t i = n; i-- > 0;)
		r->frames[r->nframes++] = r->fids[ids + i];
}

static inline const struct fkey *fkey_at(const struct reader *r, size_t key)
{
	return (const struct fkey *)(const void *)(r->keys + key);
}

/* Whether the key is the line s[0..n) read with the reader's root. */
static inline bool fkey_is(const struct reader *r, const struct fkey *k,
			   const char *s, size_t n)
{
	return k->klen == n && k->java == r->java &&
	       memcmp(k + 1, s, n) == 0;
}

/* The cached frames of the line s[0..n) (hash h), or NULL. */
static inline const struct fentry *cache_find(const struct reader *r,
					      const char *s, size_t n,
					      uint64_t h)
{
	if (!r->fmask)
		return NULL;
	for (size_t j = (size_t)h & r->fmask; r->fslots[j].e;
	     j = (j + 1) & r->fmask) {
		const struct fslot *sl = &r->fslots[j];
		const struct fkey *k = fkey_at(r, (size_t)sl->key8 * 8);

		/* The entry is read after the key: fetch both at once. */
		__builtin_prefetch(&r->fe[sl->e - 1]);
		if (k->hash == h && fkey_is(r, k, s, n))
			return &r->fe[sl->e - 1];
	}
	return NULL;
}

/* The sample's next frame line is entry e - 1. */
static inline void link_line(struct reader *r, uint32_t e)
{
	size_t key = r->fe[e - 1].key;

	if (r->last == FIRST) {
		r->first = e;
		r->firstkey = key;
	} else if (r->last) {
		r->fe[r->last - 1].next = e;
		r->fe[r->last - 1].nextkey = key;
	}
	r->last = e;
}

/*
 * The key of the line the sample's next frame line is likely to be, or
 * NULL; *e, its entry + 1, fetched meanwhile.
 */
static inline const struct fkey *next_key(const struct reader *r,
					  uint32_t *e)
{
	const struct fkey *k;
	size_t key;

	if (r->last == FIRST) {
		*e = r->first;
		key = r->firstkey;
	} else if (r->last) {
		*e = r->fe[r->last - 1].next;
		key = r->fe[r->last - 1].nextkey;
	} else {
		return NULL;
	}
	if (!*e)
		return NULL;
	__builtin_prefetch(&r->fe[*e - 1]);
	k = fkey_at(r, key);
	return k->java == r->java ? k : NULL;
}

/* A cached frame line again: its frames and its address. */
static inline void push_line(struct reader *r, const struct fentry *x)
{
	link_line(r, (uint32_t)(x - r->fe) + 1);
	push_frames(r, x->ids, x->n);
	push_aframe(r, x->afn, x->addr);
}

/* The entry of the line s[0..n) when it is the one predicted, or NULL. */
static inline const struct fentry *predicted(const struct reader *r,
					     const char *s, size_t n)
{
	uint32_t e;
	const struct fkey *k = next_key(r, &e);

	return k && fkey_is(r, k, s, n) ? &r->fe[e - 1] : NULL;
}


#endif
