/*
 * read-perf-script.c - the text of `perf script`: the driver.
 *
 * The input comes in blocks of whole lines.  Each block is cut at sample
 * boundaries into pieces that several readers (read-perf-script-parse.c)
 * read at once, each with its own names and caches; what they found
 * reaches the profile in input order (run_block, apply), so the result
 * does not depend on their number.  The line grammar, and how names and
 * weights follow stackcollapse-perf.pl, are described in
 * read-perf-script-parse.c.
 *
 * The timestamp of each sample goes to the profile's timeline.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf-event.h"
#include "pool.h"
#include "profile-addr.h"
#include "read-perf-script-priv.h"

/*
 * Is event e[0..n), as perf script spells it, a tracepoint
 * ("sched:sched_switch"), not an event with modifiers ("cycles:ppp")?
 * Modifiers are letters of perf's set only.
 */
static bool tracepoint_name(const char *e, size_t n)
{
	const char *c = memchr(e, ':', n);

	if (!c || c + 1 == e + n)
		return false;
	for (const char *q = c + 1; q < e + n; q++)
		if (!*q || !strchr("ukhIGHpPSDWeb", *q))
			return true;
	return false;
}

/*
 * cpu-clock and task-clock count time: their periods are nanoseconds
 * ("cpu-clock", "cpu-clock:ppp", "task-clock:u").
 */
static bool clock_event(const char *e, size_t n)
{
	static const char *const names[] = { "cpu-clock", "task-clock" };

	if (!e)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t k = strlen(names[i]);

		if (n >= k && memcmp(e, names[i], k) == 0 &&
		    (n == k || e[k] == ':'))
			return true;
	}
	return false;
}

/* ---- Pieces, rounds and the profile --------------------------------- */

#define MAX_THREADS 64
#define PARALLEL_MIN (128u << 10)   /* smaller blocks: one reader */

struct script {
	struct profile *p;
	const struct read_opts *o;
	struct diag *d;
	struct input *in;
	struct reader *rd;
	unsigned nthreads;
	size_t parallel_min;
	struct piece *pcs;       /* nthreads + 1: the shares, then a tail */
	uint64_t *base;          /* the line before each piece's first */

	/* The event filter: the user's, or the first event seen. */
	char *event;
	size_t eventlen;
	bool event_defaulted;

	uint64_t good, lines;
	struct paddr_frame *af;   /* scratch: a sample's address frames */
	size_t capaf;
	struct piece sum;        /* the pieces' counts, added up */
	struct pool pool;        /* runs reader i's pieces on worker i */
	uint64_t block_base;     /* the line before the block's first */
	/*
	 * Reader i applies its share in turn, once the shares before it are
	 * applied, while reader 0 reads the tail; idle[i], the seconds it
	 * waited for that.
	 */
	struct turn turn;
	double idle[MAX_THREADS];
	uint64_t apply_base;     /* the line before the next one's first */
	/* The next block, fetched by reader 0 while the others still read
	 * (input_keep_last keeps this one in place meanwhile). */
	struct input_ahead next;
};


static void apply_piece(struct script *sc, unsigned i);

/*
 * Apply reader i's share, the block's piece i, once pieces 0 .. i - 1
 * are: the profile takes them in input order, and one at a time.
 */
static void apply_in_turn(struct script *sc, unsigned i)
{
	sc->idle[i] = turn_wait(&sc->turn, i);
	apply_piece(sc, i);
	turn_pass(&sc->turn, i);
}

/*
 * Reader i's pieces of the block (pool.h): its share, and for reader 0
 * the tail.  Only reader 0's first piece is numbered from the block's
 * start; the others are numbered when applied.  Each reader applies its
 * share in turn (apply_in_turn: apply touches the profile and that
 * reader only), so that the profile takes the shares while the readers
 * after still read theirs and reader 0 reads the tail.  Reader 0 then
 * fetches the next block from the input; the time these take counts in
 * a reader's rate, so that its shares shrink by as much (pool_cut).
 */
static void read_share(void *arg, unsigned i)
{
	struct script *sc = arg;
	struct reader *r = &sc->rd[i];

	for (size_t k = 0; k < ARRAY_SIZE(r->todo) && r->todo[k]; k++) {
		pscript_read_piece(r, r->todo[k],
				   i == 0 && k == 0 ? sc->block_base : 0);
		if (k == 0)
			apply_in_turn(sc, i);
	}
	if (i == 0) {
		input_fetch_ahead(sc->in, &sc->next);
	}
}

/* one_line takes the line s[0..n) for an event line. */
static bool event_start(const char *s, size_t n, struct event_line *e)
{
	return n && s[0] != '#' && !memchr(s, '\0', n) &&
	       pscript_match_event(s, n, e);
}

/*
 * A cut: p starts a line in text[0..end) that follows a blank line and is
 * an event line.  A reader's state there is the same whatever came before
 * (the blank line ended any sample, the event line sets the rest), so the
 * text from p on can go to another reader.
 */
static bool is_cut(const char *text, const char *end, const char *p)
{
	const char *q = p - 1, *nl;
	struct event_line e;
	size_t n;

	if (p <= text || p >= end || p[-1] != '\n')
		return false;
	if (q > text && q[-1] == '\r')
		q--;
	if (q > text && q[-1] != '\n')
		return false;               /* the line before is not blank */
	nl = memchr(p, '\n', (size_t)(end - p));
	n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return event_start(p, n && p[n - 1] == '\r' ? n - 1 : n, &e);
}

/* The first cut at or after from, or NULL. */
static const char *cut_after(const char *text, const char *end,
			     const char *from)
{
	const char *s = from, *nl;

	if (s > text && s[-1] != '\n') {
		nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	while (s < end) {
		if (is_cut(text, end, s))
			return s;
		nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	return NULL;
}

/* The last cut at or after lo, or NULL. */
static const char *cut_before(const char *text, const char *end,
			      const char *lo)
{
	const char *p = end;

	while (p >= lo) {
		const char *nl;

		if (is_cut(text, end, p))
			return p;
		nl = p - 1 > text ? memrchr(text, '\n', (size_t)(p - 1 - text))
				  : NULL;
		p = nl ? nl + 1 : text;
	}
	return NULL;
}

/*
 * Before any reader filters: the event kept by default is the first one
 * in the input, which may be in this text.
 */
static void first_event(struct script *sc, const char *text, size_t len,
			bool one)
{
	const char *at = text, *end = text + len;
	struct event_line e;

	while (at < end || (one && at == text)) {
		const char *nl = one ? NULL : memchr(at, '\n', (size_t)(end - at));
		size_t n = nl ? (size_t)(nl - at) : (size_t)(end - at);
		size_t k = n && at[n - 1] == '\r' && !one ? n - 1 : n;

		if (event_start(at, k, &e)) {
			pscript_match_period(at, k, &e);
			if (e.event) {
				sc->event = xstrndup(e.event, e.eventlen);
				sc->eventlen = e.eventlen;
				sc->event_defaulted = true;
				for (unsigned i = 0; i < sc->nthreads; i++) {
					sc->rd[i].event = sc->event;
					sc->rd[i].eventlen = sc->eventlen;
				}
				return;
			}
		}
		at += n + 1;
	}
}

/* The profile's node of a stack of a reader's ids. */
static uint32_t walk(struct script *sc, const struct reader *r,
		     const uint32_t *ids, size_t n)
{
	uint32_t node = NODE_ROOT;

	for (size_t i = 0; i < n; i++)
		node = profile_child(sc->p, node, r->gid[ids[i]]);
	return node;
}

/*
 * A sample's address frames into the profile's address tables (made on
 * the first sample that has any): each reader's function is interned
 * there once.  A module that is a path holds ELF addresses, as perf
 * script prints them for files (map-relative).
 */
static void apply_addrs(struct script *sc, struct reader *r,
			const struct piece *pc, const struct rec *x)
{
	struct paddr *pa = profile_paddr(sc->p, true);

	if (x->an > sc->capaf)
		GROW(sc->af, sc->capaf, x->an);
	if (r->afns && symtab_count(r->afns) > r->capafgid) {
		size_t had = r->capafgid;

		GROW(r->afgid, r->capafgid, symtab_count(r->afns));
		memset(r->afgid + had, 0,
		       (r->capafgid - had) * sizeof(*r->afgid));
	}
	uint32_t n = 0;

	for (uint32_t i = 0; i < x->an; i++) {
		const struct pscript_aframe *a = &pc->afr[x->aoff + i];
		uint32_t id = a->fn - 1;
		const char *nm;

		if (!a->fn) {
			sc->af[n].func = PADDR_NONE;
			sc->af[n++].addr = a->addr;
			continue;
		}
		nm = symtab_name(r->afns, id);

		/*
		 * perf script --inline prints the functions inlined at an
		 * address as frames of no module at the same address: the
		 * code is the outer function's (annotation follows the inline
		 * chain in its DWARF), and their address is no return address.
		 */
		if (n && a->addr == sc->af[n - 1].addr &&
		    !nm[strlen(nm) + 1])
			continue;

		if (!r->afgid[id]) {
			struct paddr_func f = { 0 };

			f.name = symtab_name(r->afns, id);
			f.module = f.name + strlen(f.name) + 1;
			f.jit = pscript_is_jit_module(f.module,
						      strlen(f.module));
			f.elf_vaddr = f.module[0] == '/' && !f.jit;
			r->afgid[id] = paddr_func_intern(pa, &f) + 1;
		}
		sc->af[n].func = r->afgid[id] - 1;
		sc->af[n++].addr = a->addr;
	}
	paddr_add_stack(pa, sc->af, n, x->weight);
}

/*
 * What a reader's table says of its name i, into p's of name y: the
 * first piece to name a frame, in input order, says where it came from.
 */
static void note_name(struct profile *p, const struct frame_locs *from,
		      uint32_t i, uint32_t y)
{
	struct frame_locs *to;
	struct floc_frame f;
	uint64_t shift = 0;

	if (!floc_get(from, i, &f))
		return;
	to = profile_frame_locs(p);
	if (floc_known(to, y))
		return;
	if (f.binary)
		f.binary = floc_add_binary(to, floc_binary_at(from, f.binary),
					   &shift);
	floc_note(to, y, &f);
}

/* A piece's names, samples and messages into the profile, in order. */
static void apply(struct script *sc, struct piece *pc, uint64_t base)
{
	struct reader *r = pc->r;
	const char *name = input_name(sc->in);
	struct piece *sum = &sc->sum;

	GROW(r->gid, r->capgid, pc->names_to);
	for (uint32_t i = pc->names_from; i < pc->names_to; i++) {
		r->gid[i] = profile_intern(sc->p, symtab_name(r->names, i),
					   symtab_len(r->names, i));
		note_name(sc->p, r->locs, i, r->gid[i]);
	}
	for (size_t i = 0; i < pc->nrecs; i++) {
		struct rec *x = &pc->recs[i];
		uint64_t line = (uint64_t)((int64_t)base + x->line);
		struct weight w = { x->weight, 0, 0 };
		uint32_t node;

		if (x->kind == REC_BAD) {
			diag_bad(sc->d, name, line, x->what);
			continue;
		}
		if (x->kind == REC_DEEP) {
			diag_badf(sc->d, name, line, "stack is deeper than %u "
				  "frames", PROFILE_MAX_DEPTH - 1);
			continue;
		}
		if (x->stack == NO_STACK) {
			node = walk(sc, r, pc->ids + x->off, x->n);
		} else {
			struct sentry *e = &r->se[x->stack];

			if (e->node == NO_NODE)
				e->node = walk(sc, r, r->sids + e->ids, e->n);
			node = e->node;
		}
		x->meta.comm = r->gid[x->meta.comm];
		if (profile_add_at(sc->p, node, &w, &x->meta) == ADD_OVERFLOW) {
			diag_badf(sc->d, name, line, "sample weight would "
				  "overflow the profile's total");
			continue;
		}
		if (x->an)
			apply_addrs(sc, r, pc, x);
		sc->good++;
	}
	if (pc->extra && !sum->extra)
		sum->first_extra = (int64_t)base + pc->first_extra;
	sum->extra += pc->extra;
	sum->srclines += pc->srclines;
	sum->events += pc->events;
	sum->blanks += pc->blanks;
	sum->oneline += pc->oneline;
	if (pc->other && !sum->other) {
		sum->other = pc->other;
		pc->other = NULL;
	}
	sum->other_events += pc->other_events;
	sum->periods |= pc->periods;
}

/* Apply the block's piece i, the next in input order. */
static void apply_piece(struct script *sc, unsigned i)
{
	struct piece *pc = &sc->pcs[i];

	sc->base[i] = sc->apply_base;
	apply(sc, pc, sc->apply_base);
	sc->apply_base += pc->lines;
	sc->lines += pc->lines;
}

/*
 * One block of whole lines (or one line, without its end): cut into
 * shares at cuts, one per reader, read at once and applied in input
 * order, each by its reader in turn.  Reader 0 takes the first share
 * and, after the last cut, the rest (which may end in a sample the next
 * block finishes: reader 0 reads the start of every block).  Nothing
 * depends on the number of readers.
 */
static void run_block(struct script *sc, const char *text, size_t len,
		      bool one)
{
	const char *end = text + len, *cut[MAX_THREADS + 1], *last = NULL;
	unsigned n = 1, npc;
	uint64_t base = input_lineno(sc->in) - (one ? 1 : 0), before;

	if (!sc->event)
		first_event(sc, text, len, one);
	cut[0] = text;
	if (!one && sc->nthreads > 1 && len >= sc->parallel_min) {
		for (unsigned i = 1; i < sc->nthreads; i++) {
			const char *from = text + pool_cut(&sc->pool, len, i);
			const char *c;

			if (from <= cut[n - 1])
				from = cut[n - 1] + 1;
			c = from < end ? cut_after(text, end, from) : NULL;
			if (!c)
				break;
			cut[n++] = c;
		}
		last = cut_before(text, end, n > 1 ? cut[n - 1] : text + 1);
	}
	if (last && n > 1 && last == cut[n - 1])
		n--;                        /* no share between them */
	if (!last) {
		n = 1;
		cut[1] = end;
	} else {
		cut[n] = last;
	}
	for (unsigned i = 0; i < n; i++) {
		struct piece *pc = &sc->pcs[i];

		pc->r = &sc->rd[i];
		pc->text = cut[i];
		pc->len = (size_t)(cut[i + 1] - cut[i]);
		pc->one = one;
		sc->rd[i].todo[0] = pc;
		sc->rd[i].todo[1] = NULL;
	}
	npc = n;
	if (last) {
		struct piece *pc = &sc->pcs[npc++];

		pc->r = &sc->rd[0];
		pc->text = last;
		pc->len = (size_t)(end - last);
		pc->one = false;
		sc->rd[0].todo[1] = pc;
	}
	sc->block_base = base;
	turn_reset(&sc->turn);
	sc->apply_base = base;
	before = sc->lines;
	pool_run(&sc->pool, n);
	for (unsigned i = 0; n > 1 && i < n; i++)
		pool_note(&sc->pool, i, sc->pcs[i].len, sc->idle[i]);
	for (unsigned i = n; i < npc; i++)
		apply_piece(sc, i);
	/* Reader 0 read the last piece: an open sample's event line, absolute. */
	if (sc->rd[0].in_sample)
		sc->rd[0].event_line += (int64_t)sc->base[npc - 1];
	if (!one)
		input_count_lines(sc->in, sc->lines - before);
	if (sc->lines / 65536 != before / 65536)
		read_report_progress(sc->o, sc->in);
}

/*
 * FLAMETOP_THREADS, or the number of CPUs.  Set, it also splits small
 * blocks, so that tests reach the readers with small inputs.
 */
static unsigned script_threads(size_t *parallel_min)
{
	bool set;
	unsigned n = read_thread_count(MAX_THREADS, &set);

	*parallel_min = set ? 0 : PARALLEL_MIN;
	return n;
}

int read_perf_script(struct profile *p, struct input *in,
		     const struct read_opts *o, struct diag *d)
{
	struct script sc = { 0 };
	struct piece *sum = &sc.sum;
	const char *text;
	size_t len;
	uint64_t before[DIAG_UNITS];
	int rc;

	memcpy(before, d->nbad, sizeof(before));
	sc.p = p;
	sc.o = o;
	sc.d = d;
	sc.in = in;
	sc.nthreads = script_threads(&sc.parallel_min);
	sc.rd = xcalloc_owned(sc.nthreads, sizeof(*sc.rd));
	sc.pcs = xcalloc_owned(sc.nthreads + 1, sizeof(*sc.pcs));
	sc.base = xcalloc(sc.nthreads + 1, sizeof(*sc.base));
	pool_init(&sc.pool, sc.nthreads, read_share, &sc);
	turn_init(&sc.turn);
	if (o->event_filter && *o->event_filter) {
		sc.event = xstrdup(o->event_filter);
		sc.eventlen = strlen(o->event_filter);
	}
	for (unsigned i = 0; i < sc.nthreads; i++) {
		struct reader *r = &sc.rd[i];

		r->o = o;
		r->event = sc.event;
		r->eventlen = sc.eventlen;
		r->names = symtab_create();
		r->max_keys = FRAME_CACHE_MAX_KEYS / sc.nthreads;
		r->max_ids = STACK_CACHE_MAX_IDS / sc.nthreads;
	}
	input_keep_last(in);
	rc = input_getblock(in, &text, &len);
	while (rc > 0) {
		if (rc == 2) {
			/*
			 * Not read, the line leaves a hole in the sample it
			 * is in (reader 0 ends every block): one frame short,
			 * that sample would be a stack that never ran.
			 */
			bool open = sc.rd[0].in_sample;

			if (open)
				pscript_drop_sample(&sc.rd[0]);
			diag_badf(d, input_name(in), input_lineno(in),
				  open ? "line is too long (%zu bytes): its sample "
				       "is left out" : "line is too long (%zu bytes)",
				  len);
		} else
			run_block(&sc, text, len, rc == 3);
		rc = input_next_block(in, &sc.next, &text, &len);
	}
	/*
	 * A sample cut off by the end of the input (no blank line after it)
	 * is dropped, as stackcollapse-perf.pl drops it: it may be partial.
	 * Where the input knows why it ended (--max-input, a truncated
	 * stream) that is said first, and the sample is not guessed at.
	 */
	if (input_error(in))
		diag_warn(d, "%s", input_error(in));
	if (sc.rd[0].in_sample && sc.rd[0].nframes)
		diag_warn(d, "%s: the last sample has no blank line after it%s: "
			  "left out", input_name(in), input_error(in) ? "" :
			  " (truncated input?)");
	if (o->lines && !sum->srclines && sc.good)
		diag_warn(d, "%s: no source lines in this perf script (perf "
			  "script -F +srcline prints them): --lines names "
			  "functions only", input_name(in));
	if (sum->extra)
		diag_warn(d, "%s:%llu: %llu indented line%s in samples %s "
			  "(extra perf script fields such as srcline?): "
			  "ignored", input_name(in),
			  (unsigned long long)sum->first_extra,
			  (unsigned long long)sum->extra, sum->extra == 1 ? "" : "s",
			  sum->extra == 1 ? "is not a frame" : "are not frames");
	if (sum->other_events && sc.event_defaulted)
		diag_warn(d, "%s: kept the samples of event '%s' only (the "
			  "first seen); %llu sample%s of other events left "
			  "out (--event-filter=EVENT chooses)", input_name(in),
			  sc.event, (unsigned long long)sum->other_events,
			  sum->other_events == 1 ? "" : "s");
	if (!sc.good && sum->oneline)
		diag_warn(d, "%s: %llu sample%s without call chains, one line "
			  "each: a recording made without -g? (perf record -g "
			  "records the stacks a flame graph needs)",
			  input_name(in), (unsigned long long)sum->oneline,
			  sum->oneline == 1 ? "" : "s");
	else if (!sc.good && !diag_skipped(d, before, NULL, 0)) {
		if (sum->other_events && !sc.event_defaulted)
			diag_warn(d, "%s: no samples of event '%s' (the "
				  "first event in the input is '%s')",
				  input_name(in), sc.event, sum->other);
		else
			diag_warn(d, "%s: no samples in input%s", input_name(in),
				  sum->events > 1 && !sum->blanks ?
				  " (no blank line ends a sample: a recording "
				  "without call chains? perf record -g records "
				  "them)" : "");
	}
	if (sc.good) {
		bool clock = clock_event(sc.event, sc.eventlen);
		char unit[160] = "";

		/* Periods of another event count that event, as perf.data's. */
		if (sum->periods && !clock && sc.event)
			pe_event_unit(sc.event, sc.eventlen,
				      tracepoint_name(sc.event, sc.eventlen),
				      unit, sizeof(unit));
		profile_note_unit_named(p, sum->periods && clock ? UNIT_NS
				       : UNIT_SAMPLES, unit);
	}
	rc = read_done(d, input_name(in), sc.good, before, NULL);
	pool_end(&sc.pool);
	turn_destroy(&sc.turn);
	for (unsigned i = 0; i < sc.nthreads; i++)
		pscript_reader_free(&sc.rd[i]);
	for (unsigned i = 0; i <= sc.nthreads; i++) {
		free(sc.pcs[i].recs);
		free(sc.pcs[i].ids);
		free(sc.pcs[i].afr);
		free(sc.pcs[i].other);
	}
	free(sum->other);
	free(sc.rd);
	free(sc.pcs);
	free(sc.base);
	free(sc.event);
	free(sc.af);
	return rc;
}

