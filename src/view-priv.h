/*
 * view-priv.h - what the two halves of deriving a view share: the deriver's
 * state, the view's tree (view.c: nodes made as the source's nodes are
 * mapped, the chains of inverted and callers views) and the walk of the
 * timeline's samples (view-sample.c: the contexts a sample is rooted in,
 * the per-sample filters, the samples added in time order).  Private to
 * view.c and view-sample.c.
 */
#ifndef FLAMETOP_VIEW_PRIV_H
#define FLAMETOP_VIEW_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "symtab.h"
#include "view.h"

#define F_INC 1u
#define F_EXC 2u
#define F_IDLE 4u

/* Who appends children to a view node (see view_child). */
#define OWN_NONE UINT64_MAX
#define OWN_SHARED (UINT64_MAX - 1)

/* A child of a shared view node, by (parent, symbol). */
struct oslot {
	uint32_t parent, sym;
	uint32_t node;       /* view node + 1; 0 empty */
};

/*
 * A context: how a sample's stack is rooted (under a group frame or not;
 * its command frame stripped or not).  Samples of one context map source
 * nodes to view nodes alike.
 */
struct vctx {
	uint32_t gsym;       /* view symbol of the group frame, or UINT32_MAX */
	bool strip;
	uint32_t base;       /* view node the stacks start from */
};

/* A distinct view sequence of an inverted or callers view. */
struct seqkey {
	size_t off;          /* in the pool */
	uint32_t len;
	uint32_t out;        /* its view node, once built */
};

/* A source node's view node in context stamp - 1 (stamp 0: none yet). */
struct memo {
	uint32_t stamp;
	uint32_t node;
};

/* A task's group frame, by (comm, pid, tid). */
struct gslot {
	uint32_t comm, pid, tid;
	uint32_t gsym;       /* + 1; 0 empty */
};

struct deriver {
	const struct profile *src;
	const struct view_spec *spec;
	struct profile *out;
	const struct symtab *st;
	const struct pnode *sn;   /* the source's node array */
	size_t nsym;

	unsigned char *symflag;   /* per source symbol: F_INC, F_EXC */
	uint32_t *symmap;         /* source symbol -> view symbol */
	unsigned char *commok;    /* per source symbol: a --comm name */
	uint32_t focus;           /* source symbol of callers/callees */

	unsigned char *flags;     /* per node: the path's F_INC, F_EXC */
	uint32_t *anchor;         /* per node: outermost focus on the path */
	uint32_t *first;          /* per node: its stack's first frame */
	struct memo *memo;        /* per node: its view node, in one context */

	uint64_t *owner;          /* per view node: who adds its children */
	size_t capo;
	struct oslot *hs;         /* children of shared view nodes */
	size_t hmask, hn;

	struct vctx *ctx;
	size_t nctx, capctx;
	uint32_t *ctxof;          /* (gsym + 1) * 2 + strip -> context + 1 */
	size_t capctxof;
	struct gslot *gs;         /* group frames of the tasks seen */
	size_t gmask, gn;

	bool chained;             /* inverted or callers: see view_chains */
	uint32_t *pool;           /* their view sequences, one after the other */
	size_t npool, cappool, maxseq;
	struct seqkey *keys;
	size_t nkeys, capkeys;
	uint32_t *rank;           /* per view symbol: its place in name order */

	uint32_t *path;           /* scratch: source nodes or view symbols */
	size_t cappath;
	uint32_t *seq;
	size_t capseq;
	char *buf;
	size_t capbuf;

	bool *lskeep;             /* per label set: kept by the tags (NULL: all) */
	uint32_t *lsgsym;         /* per label set: its group frame + 1 */
	size_t nls;
	uint32_t lkey;            /* label_key's string id (UINT32_MAX: none) */
	uint64_t gbytes_left;     /* the group names may take this much more */
	uint64_t overflow;        /* samples rooted in KEY=[more values] */
	uint32_t moresym;         /* "KEY=[more values]", once made */
};

/*
 * A label group's name keeps GROUP_NAME_MAX bytes of its values ("..."
 * after); all names together GROUP_BYTES_PER_BYTE per byte of the label
 * table and a constant (a few label bytes can name a long string many
 * times).  Past that, the samples of a new group are rooted in
 * "KEY=[more values]".
 */
#define GROUP_NAME_MAX 256
#define GROUP_BYTES_PER_BYTE 2
#define GROUP_BYTES_BASE (8u << 20)

/* Intern source symbol s in the view (the slow path of view_sym). */
uint32_t view_sym_new(struct deriver *d, uint32_t s);

/* The view's symbol for source symbol s (once per node: inline). */
static inline uint32_t view_sym(struct deriver *d, uint32_t s)
{
	uint32_t y = d->symmap[s];

	return y != UINT32_MAX ? y : view_sym_new(d, s);
}

/* ---- view.c: the view's tree ---- */

/* The child of view node o named sym, created if new (key: see view.c). */
uint32_t view_child(struct deriver *d, uint32_t o, uint64_t key,
		    uint32_t sym);
/* The view node of a sample at source node n in context c. */
uint32_t view_node(struct deriver *d, uint32_t n, uint32_t c);
/* Inverted and callers views: the tree from the sequences mapped. */
void view_chains(struct deriver *d);
/* Does the view keep the stack of source node n (the regexes, the focus,
 * the idle frames where the task is not known)? */
bool view_keep_node(const struct deriver *d, uint32_t n, bool task_known);
/* Add weight at view node o (meta NULL: untimed weight). */
void view_add_at(struct deriver *d, uint32_t o, uint64_t v, uint64_t v2,
		 const struct sample_meta *m);

/* ---- view-sample.c: the timeline's samples ---- */

/* The context (gsym, strip), added if new; context 0 is the stacks as read. */
uint32_t view_ctx(struct deriver *d, uint32_t gsym, bool strip);
/* Every timed sample in [rf, rl] (all when !ranged) the spec keeps, and the
 * weight the timeline does not hold. */
void view_walk_timeline(struct deriver *d, bool ranged, uint64_t rf,
			uint64_t rl);

#endif
