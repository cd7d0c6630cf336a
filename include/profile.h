/*
 * profile.h - the loaded profile: interned names, the call tree, the
 * timeline, and the stack sink every reader feeds.
 *
 * Readers turn their input into stacks (frame ids, root first) with a
 * weight and, where known, a timestamp, and hand them to profile_add_stack.
 * No reader knows how the tree is stored; no front end knows which reader
 * ran.  After the last stack, profile_finish() sorts siblings by name and
 * computes totals; the tree may then be drawn, searched and exported, and
 * (for live sampling) stacks may be added again before the next finish.
 *
 * Node 0 is the root ("all").  Node ids are stable for the profile's
 * lifetime: a node is never removed, its weight may only drop to zero when a
 * time range is selected, so a front end can hold a selection or zoom across
 * refreshes.
 */
#ifndef FLAMETOP_PROFILE_H
#define FLAMETOP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "labels.h"
#include "symtab.h"

#define NODE_ROOT 0u
#define NODE_NONE UINT32_MAX
#define WEIGHT_MAX_DECIMALS 9

struct profile;

/* ---- Weights --------------------------------------------------------- */

/*
 * A sample's weight, as a fixed-point number value / 10^decimals, so that a
 * folded count like 1.5 is kept exact.  Weights in the tree share one scale,
 * the largest number of decimals seen so far.
 */
struct weight {
	uint64_t v;          /* the weight (differential: the second count) */
	uint64_t v2;         /* differential input only: the first count */
	unsigned decimals;   /* 0..WEIGHT_MAX_DECIMALS */
};

/*
 * What a reader knows of a sample besides its stack.  The task, CPU and
 * label set are kept with the sample (timed: in the timeline; untimed,
 * when it carries labels: in the profile's untimed samples), for the views
 * that filter or group by process, thread, CPU or label (view.h).
 */
struct sample_meta {
	uint64_t time_ns;    /* timestamp, in nanoseconds */
	bool has_time;
	bool has_task;       /* pid, tid and comm are known */
	bool has_cpu;        /* cpu is known */
	uint32_t pid, tid;
	uint32_t cpu;
	uint32_t comm;       /* profile_intern'd command name of the thread */
	uint32_t labels;     /* its label set in profile_labels (0: none) */
};

enum add_status {
	ADD_OK = 0,
	ADD_EMPTY,           /* no frames */
	ADD_OVERFLOW,        /* the weight would overflow the profile's total */
	ADD_TOO_DEEP,        /* more than PROFILE_MAX_DEPTH frames */
};

#define PROFILE_MAX_DEPTH 65535u

/* ---- Building -------------------------------------------------------- */

struct profile *profile_create(void);
void profile_destroy(struct profile *p);
/* Whether p is as profile_create made it: nothing read, nothing set. */
bool profile_is_new(const struct profile *p);
/* Make p new again (a reader that starts over). */
void profile_renew(struct profile *p);
/* Make room for nodes more nodes (a hint: building a tree of known size). */
void profile_reserve(struct profile *p, size_t nodes);
/* The same for the node arrays only (a tree built without the index). */
void profile_reserve_nodes(struct profile *p, size_t nodes);
/* Make room for n more timed samples (a hint: their number is known). */
void profile_reserve_timed(struct profile *p, size_t n);

/* Differential input carries two counts per stack; set before adding. */
void profile_set_differential(struct profile *p, bool on);
bool profile_is_differential(const struct profile *p);

/*
 * --diff reads its BEFORE input into AFTER's tree: while on, the profile is
 * differential, the weight of every stack added (w->v) goes to the first
 * count (BEFORE) and the timeline marks it so; readers see a profile that
 * is not differential yet and has no samples (profile_is_differential and
 * profile_samples), so they read the input as they would alone.
 */
void profile_set_before_column(struct profile *p, bool on);
/*
 * Move the timed samples of the first count (BEFORE) so that the first of
 * them is at the time of the first AFTER sample: two recordings then share
 * one time axis, from their starts.
 */
void profile_align_columns(struct profile *p);
/* First and last timestamps of one count's samples; false: it has none. */
bool profile_column_bounds(const struct profile *p, bool before,
			   uint64_t *first, uint64_t *last);

/* Intern a frame name (the profile's own symbol table); a ';' in it becomes ':'. */
uint32_t profile_intern(struct profile *p, const char *name, size_t len);

/* The sink: add one stack of depth frame ids, root first. */
enum add_status profile_add_stack(struct profile *p, const uint32_t *syms,
				  size_t depth, const struct weight *w,
				  const struct sample_meta *meta);
/*
 * The same, telling the node where the stack ended (*leaf, on ADD_OK):
 * nodes are not renumbered while stacks are added, so a reader may add
 * the same stack there again with profile_add_at.
 */
enum add_status profile_add_stack_leaf(struct profile *p,
				       const uint32_t *syms, size_t depth,
				       const struct weight *w,
				       const struct sample_meta *meta,
				       uint32_t *leaf);

/*
 * The same in two steps, for readers that reuse a path they built for the
 * previous stack: the child of parent named sym (created if new), and the
 * weight added at a node (the end of a stack).
 */
uint32_t profile_child(struct profile *p, uint32_t parent, uint32_t sym);
enum add_status profile_add_at(struct profile *p, uint32_t node,
			       const struct weight *w,
			       const struct sample_meta *meta);

/*
 * Bulk building, for a reader that adds many stacks in name order: a new
 * child of parent, which must not have a child named sym yet, linked after
 * its child prev (NODE_NONE: first).  It is not looked up nor indexed:
 * profile_child indexes every node again the next time it is called.
 * While every sibling list is in name order (profile_siblings_sorted),
 * profile_finish does not sort them again.
 */
uint32_t profile_append_child(struct profile *p, uint32_t parent,
			      uint32_t prev, uint32_t sym);
/*
 * The same, for a caller that knows sym's name sorts after prev's and
 * before the next sibling's (it merges in name order): no names compared.
 */
uint32_t profile_append_child_ordered(struct profile *p, uint32_t parent,
				      uint32_t prev, uint32_t sym);
/*
 * The same for a chain of k new nodes named syms[0..k): the first a child
 * of parent linked after prev, each next one the only child of the one
 * before.  Their ids are consecutive; returns the first (NODE_NONE: k 0).
 */
uint32_t profile_append_chain(struct profile *p, uint32_t parent,
			      uint32_t prev, const uint32_t *syms, size_t k);
/*
 * Move src's tree (all below its root) under dst's node at, which has no
 * children yet: src's node i > 0 becomes dst's node base + i - 1, where
 * base, returned, is dst's node count before; depths are shifted by at's.
 * Only the tree moves (src's weights are none: it was only built, by the
 * calls above, with dst's names).  src is left a lone root, its arrays
 * kept for the next tree.  A reader builds parts of one tree at once
 * this way, each into a profile of its own.
 */
uint32_t profile_graft(struct profile *dst, uint32_t at, struct profile *src);
bool profile_siblings_sorted(const struct profile *p);
/*
 * A new child of parent, which must not have a child named sym yet, linked
 * first: neither looked up nor indexed, and the siblings are sorted again
 * at profile_finish.
 */
uint32_t profile_push_child(struct profile *p, uint32_t parent, uint32_t sym);
/*
 * Every symbol's place in name order (as the siblings are sorted): an
 * array of symtab_count ranks, malloc'ed.
 */
uint32_t *profile_name_ranks(const struct profile *p);

/* Sort siblings by name and compute totals; call before reading the tree. */
void profile_finish(struct profile *p);

/*
 * Sibling order: by name (the default, as flamegraph.pl) or heaviest total
 * first (ties by name).  Takes effect at the next profile_finish, and is
 * kept through time ranges.
 */
enum profile_order { ORDER_NAME, ORDER_WEIGHT };
void profile_set_order(struct profile *p, enum profile_order o);
enum profile_order profile_order(const struct profile *p);

/* Forget every weight and the timeline (the tree's shape stays). */
void profile_reset_weights(struct profile *p);

/* ---- Time ranges ----------------------------------------------------- */

bool profile_has_timeline(const struct profile *p);
/* First and last timestamps seen (ns); false when there are none. */
bool profile_time_bounds(const struct profile *p, uint64_t *first,
			 uint64_t *last);
/*
 * Show only samples with first <= time <= last (then profile_finish is not
 * needed).  Samples without a timestamp drop out of a range.
 * profile_clear_range shows everything again.
 */
void profile_set_range(struct profile *p, uint64_t first, uint64_t last);
void profile_clear_range(struct profile *p);
/*
 * The same, with a range of its own for the first count of a differential
 * profile (--diff --time: each side's range from its own samples).
 */
void profile_set_ranges(struct profile *p, uint64_t first, uint64_t last,
			uint64_t first2, uint64_t last2);
bool profile_range(const struct profile *p, uint64_t *first, uint64_t *last);

/*
 * The timeline's samples, for views that re-derive a tree from them: the
 * i-th sample (0 <= i < profile_timeline_len) as its node (the end of its
 * stack), its weight in the tree's scale and what the reader knew of it.
 * The order is not specified.
 */
size_t profile_timeline_len(const struct profile *p);
uint32_t profile_timeline_sample(const struct profile *p, size_t i,
				 uint64_t *weight, struct sample_meta *meta);
/* The i-th sample is a weight of the first count (BEFORE, differential). */
bool profile_timeline_before(const struct profile *p, size_t i);
/*
 * Untimed samples that carry something besides their stack (a label set):
 * the i-th (0 <= i < profile_untimed_len) as its node, weight and meta
 * (has_time false), in the order they were added.  Untimed samples with
 * nothing to say are only weight at their node.
 */
size_t profile_untimed_len(const struct profile *p);
uint32_t profile_untimed_sample(const struct profile *p, size_t i,
				uint64_t *weight, struct sample_meta *meta);
/* The i-th untimed sample is a weight of the first count (BEFORE). */
bool profile_untimed_before(const struct profile *p, size_t i);

/*
 * The label sets the samples' meta.labels name (labels.h).  A reader
 * interns into profile_labels_w; a view shares its source's table
 * (profile_copy_labels) so that the ids stay.
 */
const struct labels *profile_labels(const struct profile *p);
struct labels *profile_labels_w(struct profile *p);
void profile_copy_labels(struct profile *dst, const struct profile *src);
/* Does any sample carry a label? */
bool profile_has_labels(const struct profile *p);

/* Self weight of id over all time, whatever range is selected. */
uint64_t profile_self_all(const struct profile *p, uint32_t id);
/* Number of timed samples in [first, last], weight summed into *weight. */
size_t profile_count_range(const struct profile *p, uint64_t first,
			   uint64_t last, uint64_t *weight);
/*
 * Forget the timeline before time t (live mode bounds its memory so).  The
 * all-time weights stay: with no range selected the tree still shows every
 * sample; ranges can only be taken from t on.
 */
void profile_forget_before(struct profile *p, uint64_t t);

/* ---- Reading the tree ------------------------------------------------ */

struct pnode {
	uint32_t parent;     /* NODE_NONE for the root */
	uint32_t child;      /* first child, NODE_NONE if none */
	uint32_t next;       /* next sibling, NODE_NONE if none */
	uint32_t sym;        /* symbol id; the root's is "all" */
};

const struct symtab *profile_symtab(const struct profile *p);
size_t profile_node_count(const struct profile *p);
const struct pnode *profile_node(const struct profile *p, uint32_t id);
uint64_t profile_total(const struct profile *p, uint32_t id);
uint64_t profile_self(const struct profile *p, uint32_t id);
uint64_t profile_total2(const struct profile *p, uint32_t id);  /* diff */
uint64_t profile_self2(const struct profile *p, uint32_t id);   /* diff */
unsigned profile_depth(const struct profile *p, uint32_t id);   /* root 0 */
const char *profile_name(const struct profile *p, uint32_t id);
size_t profile_name_len(const struct profile *p, uint32_t id);

/*
 * Where the frames came from (frame-locs.h), keyed by this profile's
 * symbol ids: readers that know binaries, addresses or source lines fill
 * it, made on the first call; the other NULL when none did (folded input).
 */
struct frame_locs;
struct frame_locs *profile_frame_locs(struct profile *p);
const struct frame_locs *profile_frame_locs_get(const struct profile *p);

/*
 * A root frame's task suffix, "-PID" or with tid "-PID/TID", into buf (of
 * cap bytes, 24 are enough); a pid or tid of UINT32_MAX, the -1 perf
 * records for a task it did not know, is "?".  Returns its length.
 */
size_t profile_task_suffix(char *buf, size_t cap, uint32_t pid,
			   const uint32_t *tid);

/* Number of add calls, distinct stacks with weight, deepest stack. */
uint64_t profile_samples(const struct profile *p);
size_t profile_distinct_stacks(const struct profile *p);
unsigned profile_max_depth(const struct profile *p);
/*
 * Differential: the largest change of share, in points (|after% -
 * before%|), of any node; 0 otherwise.  Diff colors are scaled to it.
 */
double profile_max_change(const struct profile *p);

/* Decimals of the tree's weights; weight / 10^decimals is the value. */
unsigned profile_decimals(const struct profile *p);
/*
 * Can whole weights (no decimals) summing to v be added, in any number of
 * adds, without one of them overflowing the profile's totals?
 */
bool profile_can_add(const struct profile *p, uint64_t v);
/* Write w (in the tree's scale) as exact decimal text: "12", "1.5" (for
 * data: --collapse; people read profile_format_amount). */
size_t profile_format_weight(const struct profile *p, uint64_t w, char *buf,
			     size_t cap);
/* w as a plain number (for percentages and display). */
double profile_weight_value(const struct profile *p, uint64_t w);

/* ---- What weights measure -------------------------------------------- */

enum weight_unit {
	UNIT_SAMPLES,        /* sample counts (folded counts, other periods) */
	UNIT_NS,             /* CPU time in ns: cpu-clock/task-clock periods */
	UNIT_NANOS,          /* other time in ns (pprof: delay, wall): "1.5 s" */
	UNIT_BYTES,          /* bytes (pprof: alloc_space): "1.50 MB" */
	UNIT_COUNT,          /* counts of something (pprof: objects): "1234" */
};

/*
 * A reader says what its weights measure.  The first one decides; inputs
 * that disagree make it UNIT_SAMPLES for good.
 */
void profile_note_unit(struct profile *p, enum weight_unit u);
/*
 * The same, with what the weights count (profile_set_unit_name's name;
 * "" the default): inputs that name it differently (page-faults and CPU
 * time, or page-faults and plain samples) make it UNIT_SAMPLES, unnamed.
 */
void profile_note_unit_named(struct profile *p, enum weight_unit u,
			     const char *name);
/*
 * When inputs disagreed on what the weights measure: the two first seen,
 * "CPU time and page-faults", for a message; else NULL.
 */
const char *profile_unit_mixed(const struct profile *p);
enum weight_unit profile_unit(const struct profile *p);
/* Forget the unit (before reading the inputs again, e.g. another pprof
 * sample type). */
void profile_forget_unit(struct profile *p);
/*
 * What the weights count, for display: "page-faults", "sched:sched_switch
 * events"; for UNIT_NS what the time is ("CPU", "off-CPU").  Default:
 * "samples", "CPU".  Copied.
 */
void profile_set_unit_name(struct profile *p, const char *name);
/* The name set, or "" when none was. */
const char *profile_unit_name(const struct profile *p);
/* dst's weights measure what src's do: its unit and name, and a
 * comparison's names of its sides (for views and comparisons built from
 * src). */
void profile_copy_unit(struct profile *dst, const struct profile *src);
/*
 * A comparison's names for its two weights, as every view of it says
 * them: "before" and "after" (the default, NULL or ""), "A" and "B" for
 * two time ranges.  Copied (15 bytes at most).
 */
void profile_set_sides(struct profile *p, const char *before,
		       const char *after);
const char *profile_side(const struct profile *p, bool after);
/*
 * w as a person reads it, with what it counts: "37 samples", "1.28k
 * page-faults", "366.7 ms CPU", "11.0 MB" (textfmt_amount's scales).
 */
size_t profile_format_amount(const struct profile *p, uint64_t w, char *buf,
			     size_t cap);
/*
 * The same figure without the words, for a table's cell or beside an
 * amount that says them: "37", "1.28k", "366.7 ms", "11.0 MB".
 */
size_t profile_format_figure(const struct profile *p, uint64_t w, char *buf,
			     size_t cap);

#endif
