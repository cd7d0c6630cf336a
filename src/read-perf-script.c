/*
 * read-perf-script.c - the text of `perf script`.
 *
 * A sample is an event line, its frame lines (leaf first) and a blank line:
 *
 *   java 12688/12764 [002] 6544038.708352:   10309278 cpu-clock:
 *           7f6b2d25e364 Lio/netty/Foo;.read (/tmp/perf-23895.map)
 *       ffffffff8104f45a native_write_msr_safe+0xa ([kernel.kallsyms])
 *   <blank>
 *
 * Names and weights follow stackcollapse-perf.pl, whose output is what
 * people compare with, so the line grammar here is its grammar, matched by
 * hand rather than by regex:
 *
 *  - an event line starts with a non-blank, then "COMM PID[/TID] " where
 *    COMM is the shortest prefix of two or more characters that fits (it
 *    may hold spaces: "V8 WorkerThread 24636/25607 ...");
 *  - its last word "EVENT:" names the event, and a number just before it
 *    (after the time's ':') is the period, the sample's weight (else 1);
 *  - a frame line is "ADDR SYMBOL (MODULE)", the module being the last
 *    " (...)" on the line; "+0x.." offsets are dropped, "a->b" inline
 *    chains become frames marked "_[i]" after the first, "[unknown]" takes
 *    the module's base name, and names are tidied (';' to ':', arguments
 *    after '(' dropped unless the name is a Go method or holds
 *    "(anonymous namespace)", quotes dropped, Java's leading 'L' dropped);
 *  - only the first event type seen is kept, unless an event filter says
 *    which; '#' lines are comments; a blank line ends the sample.
 *
 * The timestamp of each sample goes to the profile's timeline.
 *
 * Speed: the same frame lines come back sample after sample, so each line
 * is tidied and interned once and cached with the ids it became (and the
 * line that followed it, tried first next time); whole stacks are cached
 * too, as the node they end at, so a repeated stack costs one lookup
 * instead of a walk down the tree.  Blocks of lines are cut at sample
 * boundaries and read by several readers at once, each with its own
 * names and caches; what they found reaches the profile in input order
 * (run_block, apply), so the result does not depend on their number.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool.h"
#include "read.h"
#include "symtab.h"
#include "util.h"

/* Character classes of Perl's \s, \d and \w on bytes. */
enum { C_WS = 1, C_DIGIT = 2, C_WORD = 4 };

static const unsigned char cclass[256] = {
	['\t'] = C_WS, ['\n'] = C_WS, ['\v'] = C_WS, ['\f'] = C_WS,
	['\r'] = C_WS, [' '] = C_WS,
	['0'] = C_DIGIT | C_WORD, ['1'] = C_DIGIT | C_WORD,
	['2'] = C_DIGIT | C_WORD, ['3'] = C_DIGIT | C_WORD,
	['4'] = C_DIGIT | C_WORD, ['5'] = C_DIGIT | C_WORD,
	['6'] = C_DIGIT | C_WORD, ['7'] = C_DIGIT | C_WORD,
	['8'] = C_DIGIT | C_WORD, ['9'] = C_DIGIT | C_WORD,
	['_'] = C_WORD,
	['a'] = C_WORD, ['b'] = C_WORD, ['c'] = C_WORD, ['d'] = C_WORD,
	['e'] = C_WORD, ['f'] = C_WORD, ['g'] = C_WORD, ['h'] = C_WORD,
	['i'] = C_WORD, ['j'] = C_WORD, ['k'] = C_WORD, ['l'] = C_WORD,
	['m'] = C_WORD, ['n'] = C_WORD, ['o'] = C_WORD, ['p'] = C_WORD,
	['q'] = C_WORD, ['r'] = C_WORD, ['s'] = C_WORD, ['t'] = C_WORD,
	['u'] = C_WORD, ['v'] = C_WORD, ['w'] = C_WORD, ['x'] = C_WORD,
	['y'] = C_WORD, ['z'] = C_WORD,
	['A'] = C_WORD, ['B'] = C_WORD, ['C'] = C_WORD, ['D'] = C_WORD,
	['E'] = C_WORD, ['F'] = C_WORD, ['G'] = C_WORD, ['H'] = C_WORD,
	['I'] = C_WORD, ['J'] = C_WORD, ['K'] = C_WORD, ['L'] = C_WORD,
	['M'] = C_WORD, ['N'] = C_WORD, ['O'] = C_WORD, ['P'] = C_WORD,
	['Q'] = C_WORD, ['R'] = C_WORD, ['S'] = C_WORD, ['T'] = C_WORD,
	['U'] = C_WORD, ['V'] = C_WORD, ['W'] = C_WORD, ['X'] = C_WORD,
	['Y'] = C_WORD, ['Z'] = C_WORD,
};

static inline bool is_ws(unsigned char c)
{
	return cclass[c] & C_WS;
}

static inline bool is_digit(unsigned char c)
{
	return cclass[c] & C_DIGIT;
}

static inline bool is_word(unsigned char c)
{
	return cclass[c] & C_WORD;
}

static inline bool is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The hash of a frame line's tail (this runs on every frame line). */
static uint64_t line_hash(const char *p, size_t n, bool java)
{
	return hash_bytes_seed(p, n, java);
}

/* ---- Caches ---------------------------------------------------------- */

/*
 * A frame line already seen: the key is the whole line (address and all:
 * what it becomes depends on nothing else) and whether the root is a java
 * process; the value, the ids of its frames.
 */
struct fentry {
	uint64_t hash;
	size_t key;          /* in keys */
	uint32_t klen;
	uint32_t n;
	size_t ids;          /* in fids */
	uint32_t next;       /* the entry of the line that came next, + 1 */
	bool java;
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
	uint64_t weight;
	const char *what;        /* REC_BAD */
	struct sample_meta meta; /* comm: the reader's name id */
};

struct reader;

/* A run of whole lines one reader parses. */
struct piece {
	struct reader *r;
	const char *text;
	size_t len;
	bool one;                /* text is one line, without its end */
	uint64_t lines;
	uint32_t names_from, names_to;  /* the reader's names new here */
	struct rec *recs;
	size_t nrecs, caprecs;
	uint32_t *ids;           /* stacks not cached */
	size_t nids, capids;
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
	const struct read_opts *o;
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
	uint32_t *stack;         /* root first, built at the end */
	size_t capstack;

	/* Names: this reader's ids, and the profile's once interned. */
	struct symtab *names;
	uint32_t *gid;
	size_t capgid;

	/* The last root frame's text, to skip re-interning it. */
	char *lastroot;
	size_t lastrootlen, caplastroot;
	uint32_t lastrootid;
	bool have_lastroot;

	char *buf;               /* scratch for names */
	size_t capbuf;

	struct fentry *fe;
	size_t nfe, capfe;
	uint32_t *fslots;
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

	struct sentry *se;
	size_t nse, capse;
	uint32_t *sslots;
	size_t smask;
	uint32_t *sids;
	size_t nsids, capsids, max_ids;

	int64_t lineno;          /* of the line being read, in the piece */
	struct piece *todo[2];   /* the pieces of a round, in order */
};

static struct rec *add_rec(struct reader *r, enum rec_kind kind, int64_t line)
{
	struct piece *pc = r->pc;
	struct rec *x;

	if (pc->nrecs == pc->caprecs)
		GROW(pc->recs, pc->caprecs, pc->nrecs + 1);
	x = &pc->recs[pc->nrecs++];
	x->kind = kind;
	x->line = line;
	return x;
}

static void bad(struct reader *r, const char *what)
{
	add_rec(r, REC_BAD, r->lineno)->what = what;
}

static uint32_t intern(struct reader *r, const char *s, size_t n)
{
	return symtab_intern(r->names, s, n);
}

static void buf_reserve(struct reader *r, size_t n)
{
	GROW(r->buf, r->capbuf, n);
}

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
};

/*
 * "COMM PID[/TID] ": COMM is two or more characters from a non-blank
 * start, the shortest that fits.  Only the first blank of a run can end
 * COMM (a later one would match the same way), which keeps this linear.
 */
static bool match_event(const char *s, size_t n, struct event_line *e)
{
	if (n < 4 || is_ws((unsigned char)s[0]))
		return false;
	for (size_t c = 2; c < n; c++) {
		size_t i = c, d0, d1, t0, t1;

		if (!is_ws((unsigned char)s[c]) ||
		    (c > 2 && is_ws((unsigned char)s[c - 1])))
			continue;
		while (i < n && is_ws((unsigned char)s[i]))
			i++;
		d0 = i;
		while (i < n && is_digit((unsigned char)s[i]))
			i++;
		d1 = i;
		if (d1 == d0)
			continue;
		while (i < n && s[i] == '/')
			i++;
		t0 = i;
		while (i < n && is_digit((unsigned char)s[i]))
			i++;
		t1 = i;
		if (i == n || !is_ws((unsigned char)s[i]))
			continue;
		e->commlen = c;
		e->pid = s + d0;
		e->pidlen = d1 - d0;
		e->tid = t1 > t0 ? s + t0 : NULL;
		e->tidlen = t1 - t0;
		e->rest = i;
		return true;
	}
	return false;
}

/*
 * The line ends in ":[ ][PERIOD] EVENT:" (blanks after it allowed): the
 * event is the last word without its ':', the period the digits between.
 */
static void match_period(const char *s, size_t n, struct event_line *e)
{
	size_t end = n, t, k, d1;

	e->event = e->period = NULL;
	while (end > 0 && is_ws((unsigned char)s[end - 1]))
		end--;
	if (end < 2 || s[end - 1] != ':')
		return;
	t = end - 1;
	while (t > 0 && !is_ws((unsigned char)s[t - 1]))
		t--;
	if (t == 0 || end - t < 2)
		return;
	k = t;
	while (k > 0 && is_ws((unsigned char)s[k - 1]))
		k--;
	d1 = k;
	while (k > 0 && is_digit((unsigned char)s[k - 1]))
		k--;
	if (k < d1) {
		size_t d0 = k;

		while (k > 0 && is_ws((unsigned char)s[k - 1]))
			k--;
		if (k == 0 || s[k - 1] != ':')
			return;
		e->period = s + d0;
		e->periodlen = d1 - d0;
	} else if (k == 0 || s[k - 1] != ':') {
		return;
	}
	e->event = s + t;
	e->eventlen = end - 1 - t;
}

/* "SECS.FRAC:" among the words after the pid: the time in ns. */
static bool parse_time(const char *s, size_t n, size_t from, uint64_t *ns)
{
	size_t i = from;

	for (int words = 0; words < 3 && i < n; words++) {
		size_t w0, w1, dot = 0;
		uint64_t sec = 0, frac = 0;
		unsigned fd = 0;
		bool ok = true;

		while (i < n && is_ws((unsigned char)s[i]))
			i++;
		w0 = i;
		while (i < n && !is_ws((unsigned char)s[i]))
			i++;
		w1 = i;
		if (w1 - w0 < 4 || s[w1 - 1] != ':' || !is_digit((unsigned char)s[w0]))
			continue;
		for (size_t k = w0; k < w1 - 1 && ok; k++) {
			unsigned char c = (unsigned char)s[k];

			if (c == '.' && !dot) {
				dot = k;
			} else if (!is_digit(c)) {
				ok = false;
			} else if (!dot) {
				ok = !__builtin_mul_overflow(sec, 10, &sec) &&
				     !__builtin_add_overflow(sec, c - '0', &sec);
			} else if (fd < 9) {
				frac = frac * 10 + (c - '0');
				fd++;
			}
		}
		if (!ok || !dot || dot == w1 - 2)
			continue;
		while (fd < 9) {
			frac *= 10;
			fd++;
		}
		if (__builtin_mul_overflow(sec, 1000000000u, &sec) ||
		    __builtin_add_overflow(sec, frac, &sec))
			return false;
		*ns = sec;
		return true;
	}
	return false;
}

/* "[CPU]" among the first two words after the pid. */
static bool parse_cpu(const char *s, size_t n, size_t from, uint32_t *cpu)
{
	size_t i = from;

	for (int words = 0; words < 2 && i < n; words++) {
		size_t w0;
		uint64_t v = 0;

		while (i < n && is_ws((unsigned char)s[i]))
			i++;
		w0 = i;
		while (i < n && !is_ws((unsigned char)s[i]))
			i++;
		if (i - w0 < 3 || s[w0] != '[' || s[i - 1] != ']')
			continue;
		for (size_t k = w0 + 1; k < i - 1; k++) {
			if (!is_digit((unsigned char)s[k]) || v > UINT32_MAX / 10)
				return false;
			v = v * 10 + (uint64_t)(s[k] - '0');
		}
		if (v > UINT32_MAX)
			return false;
		*cpu = (uint32_t)v;
		return true;
	}
	return false;
}

/* A pid or tid: decimal digits that fit 32 bits. */
static bool parse_num(const char *s, size_t n, uint32_t *v)
{
	uint64_t x = 0;

	if (!n || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

static uint32_t intern_root(struct reader *r, const char *s, size_t n)
{
	if (r->have_lastroot && n == r->lastrootlen &&
	    memcmp(s, r->lastroot, n) == 0)
		return r->lastrootid;
	GROW(r->lastroot, r->caplastroot, n + 1);
	memcpy(r->lastroot, s, n);
	r->lastrootlen = n;
	r->lastrootid = intern(r, s, n);
	r->have_lastroot = true;
	return r->lastrootid;
}

static void event_line(struct reader *r, const char *s, size_t n,
		       const struct event_line *e)
{
	const char *pid = e->pid, *tid = e->tid;
	size_t pidlen = e->pidlen, tidlen = e->tidlen, k = 0;
	uint64_t period = 0;

	/* One number is the tid; "0" counts as none. */
	if (!tid || (tidlen == 1 && tid[0] == '0')) {
		tid = pid;
		tidlen = pidlen;
		pid = "?";
		pidlen = 1;
	}
	/*
	 * r->event is set before any reader sees an event line with an event
	 * (first_event), so every reader filters alike.
	 */
	if (e->event && r->event &&
	    (e->eventlen != r->eventlen ||
	     memcmp(e->event, r->event, e->eventlen) != 0)) {
		if (!r->pc->other_events++)
			r->pc->other = xstrndup(e->event, e->eventlen);
		r->filtered = true;
		return;
	}
	r->filtered = false;
	if (e->period && !(e->periodlen == 1 && e->period[0] == '0')) {
		for (size_t i = 0; i < e->periodlen; i++) {
			if (__builtin_mul_overflow(period, 10, &period) ||
			    __builtin_add_overflow(period,
						   (uint64_t)(e->period[i] - '0'),
						   &period)) {
				bad(r, "sample period is too large");
				r->filtered = true;  /* its frames go quietly */
				r->in_sample = false;
				r->nframes = 0;
				return;
			}
		}
		r->pc->periods = true;
	} else {
		period = 1;
	}
	r->period = period;
	r->meta.has_time = parse_time(s, n, e->rest, &r->meta.time_ns);
	r->meta.has_cpu = parse_cpu(s, n, e->rest, &r->meta.cpu);
	r->meta.has_task = parse_num(tid, tidlen, &r->meta.tid);
	if (!parse_num(pid, pidlen, &r->meta.pid))
		r->meta.pid = r->meta.tid;
	r->event_line = r->lineno;

	/* The root frame: "comm", "comm-pid" or "comm-pid/tid". */
	buf_reserve(r, e->commlen + pidlen + tidlen + 3);
	memcpy(r->buf, s, e->commlen);
	k = e->commlen;
	if (r->o->tid || r->o->pid) {
		r->buf[k++] = '-';
		memcpy(r->buf + k, pid, pidlen);
		k += pidlen;
		if (r->o->tid) {
			r->buf[k++] = '/';
			memcpy(r->buf + k, tid, tidlen);
			k += tidlen;
		}
	}
	for (size_t i = 0; i < k; i++)
		if (r->buf[i] == ' ')
			r->buf[i] = '_';
	r->java = k >= 4 && memcmp(r->buf, "java", 4) == 0;
	r->pname = intern_root(r, r->buf, k);
	/* The command, spelled as in the root frame, for the timeline. */
	r->meta.comm = k == e->commlen ? r->pname
				       : intern(r, r->buf, e->commlen);
	r->in_sample = true;
	r->last = FIRST;
}

/* ---- Frame lines ----------------------------------------------------- */

struct frame_line {
	const char *pc, *func, *mod;
	size_t pclen, funclen, modlen;
};

/*
 * "ADDR SYMBOL (MODULE)" with stackcollapse-perf.pl's reading of it: ADDR
 * is a word, MODULE the last " (...)" whose text has no blank, SYMBOL what
 * lies between (at least one character, even if that means borrowing one
 * from the blanks).
 */
static bool match_frame(const char *s, size_t n, struct frame_line *f)
{
	size_t a = 0, b, c, P = SIZE_MAX, q = SIZE_MAX, close = SIZE_MAX;

	/* The last " (" with a ')' in the unbroken text after it. */
	for (size_t i = n; i-- > 0;) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == ' ' && i + 1 < n && s[i + 1] == '(' &&
		    close != SIZE_MAX) {
			P = i;
			q = close;
			break;
		}
		if (is_ws(ch))
			close = SIZE_MAX;
		else if (ch == ')' && close == SIZE_MAX)
			close = i;
	}
	if (P == SIZE_MAX)
		return false;
	while (a < n && is_ws((unsigned char)s[a]))
		a++;
	b = a;
	while (b < n && is_word((unsigned char)s[b]))
		b++;
	if (b == a)
		return false;
	c = b;
	while (c < n && is_ws((unsigned char)s[c]))
		c++;
	f->pc = s + a;
	f->pclen = b - a;
	if (P >= c + 1) {
		f->func = s + c;
		f->funclen = P - c;
	} else if (P >= b + 1) {
		f->func = s + P - 1;
		f->funclen = 1;
	} else if (P == b) {
		/*
		 * "ADDR (MODULE)": perf script -F without sym.  The regex would
		 * take ADDR's last digit as the symbol; an unknown symbol (the
		 * module's name) says more.
		 */
		f->func = "[unknown]";
		f->funclen = 9;
	} else {
		return false;
	}
	f->mod = s + P + 2;
	f->modlen = q - (P + 2);
	return true;
}

static bool has_sub(const char *s, size_t n, const char *sub, size_t k)
{
	return n >= k && memmem(s, n, sub, k) != NULL;
}

/* "/tmp/perf-DIGITS.map" anywhere in the module. */
static bool is_jit_module(const char *m, size_t n)
{
	const char *s = m, *end = m + n;

	while ((s = memmem(s, (size_t)(end - s), "/tmp/perf-", 10))) {
		const char *d = s + 10;

		while (d < end && is_digit((unsigned char)*d))
			d++;
		if (d > s + 10 && end - d >= 4 && memcmp(d, ".map", 4) == 0)
			return true;
		s++;
	}
	return false;
}

static bool is_kernel_module(const char *m, size_t n)
{
	if (has_sub(m, n, "unknown", 7))
		return false;
	return (n && m[0] == '[') ||
	       (n >= 7 && memcmp(m + n - 7, "vmlinux", 7) == 0);
}

/*
 * Tidy one frame name in r->buf[0..n) (room for n + 4 more bytes):
 * returns the new length.
 */
static size_t tidy(struct reader *r, size_t n, bool java)
{
	char *s = r->buf;
	size_t w = 0;
	const char *go;

	for (size_t i = 0; i < n; i++)
		if (s[i] == ';')
			s[i] = ':';
	/* Go methods "pkg.(*T).M" keep their parentheses. */
	go = n >= 2 ? memmem(s, n, ".(", 2) : NULL;
	if (!go || !has_sub(go + 2, (size_t)(s + n - go - 2), ").", 2)) {
		for (size_t i = 0; i < n; i++) {
			if (s[i] != '(')
				continue;
			if (n - i - 1 >= 20 &&
			    memcmp(s + i + 1, "anonymous namespace)", 20) == 0)
				continue;
			n = i;
			break;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[w++] = s[i];
	n = w;
	if (java && n && s[0] == 'L' && memchr(s, '/', n)) {
		memmove(s, s + 1, n - 1);
		n--;
	}
	return n;
}

/*
 * The frames of one frame line, in order (root-most first), appended to
 * r->fids; returns how many.  Empty pieces at the end of an "a->b" chain
 * do not count (as with Perl's split).
 */
static uint32_t make_frames(struct reader *r, const struct frame_line *f,
			    const char *func, size_t funclen)
{
	const char *s = func, *end;
	uint32_t count = 0;
	bool kernel = r->o->kernel && is_kernel_module(f->mod, f->modlen);
	bool jit = !kernel && r->o->jit && is_jit_module(f->mod, f->modlen);

	while (funclen >= 2 && func[funclen - 2] == '-' &&
	       func[funclen - 1] == '>')
		funclen -= 2;
	if (funclen == 0)
		return 0;
	end = func + funclen;
	for (;;) {
		const char *arrow = memmem(s, (size_t)(end - s), "->", 2);
		size_t plen = arrow ? (size_t)(arrow - s) : (size_t)(end - s);
		size_t n;

		if (plen == 9 && memcmp(s, "[unknown]", 9) == 0) {
			const char *base = "unknown";
			size_t blen = 7;

			if (!(f->modlen == 9 &&
			      memcmp(f->mod, "[unknown]", 9) == 0)) {
				const char *slash = f->mod + f->modlen;

				while (slash > f->mod && slash[-1] != '/')
					slash--;
				base = slash;
				blen = (size_t)(f->mod + f->modlen - slash);
			}
			buf_reserve(r, blen + f->pclen + 12);
			n = 0;
			r->buf[n++] = '[';
			memcpy(r->buf + n, base, blen);
			n += blen;
			if (r->o->addrs) {
				r->buf[n++] = ' ';
				r->buf[n++] = '<';
				memcpy(r->buf + n, f->pc, f->pclen);
				n += f->pclen;
				r->buf[n++] = '>';
			}
			r->buf[n++] = ']';
		} else {
			buf_reserve(r, plen + 8);
			memcpy(r->buf, s, plen);
			n = plen;
		}
		n = tidy(r, n, r->java);
		if (count > 0) {
			if (!has_sub(r->buf, n, "_[i]", 4)) {
				memcpy(r->buf + n, "_[i]", 4);
				n += 4;
			}
		} else if (kernel) {
			memcpy(r->buf + n, "_[k]", 4);
			n += 4;
		} else if (jit) {
			memcpy(r->buf + n, "_[j]", 4);
			n += 4;
		}
		GROW(r->fids, r->capfids, r->nfids + 1);
		r->fids[r->nfids++] = intern(r, r->buf, n);
		count++;
		if (!arrow)
			break;
		s = arrow + 2;
	}
	return count;
}

static void fslots_grow(struct reader *r)
{
	size_t nmask = r->fmask ? r->fmask * 2 + 1 : 1023;
	uint32_t *ns = xcalloc(nmask + 1, sizeof(*ns));

	for (size_t i = 0; i < r->nfe; i++) {
		size_t j = (size_t)r->fe[i].hash & nmask;

		while (ns[j])
			j = (j + 1) & nmask;
		ns[j] = (uint32_t)i + 1;
	}
	free(r->fslots);
	r->fslots = ns;
	r->fmask = nmask;
}

static void push_frames(struct reader *r, size_t ids, uint32_t n)
{
	if (r->nframes + n > r->capframes)      /* GROW is a call */
		GROW(r->frames, r->capframes, r->nframes + n);
	/* Leaf first: the line's last frame is the most leafward. */
	for (uint32_t i = n; i-- > 0;)
		r->frames[r->nframes++] = r->fids[ids + i];
}

/* The cached frames of a line whose symbol starts at k, or NULL. */
static const struct fentry *cache_find(const struct reader *r, const char *k,
				       size_t n, uint64_t h)
{
	if (!r->fmask)
		return NULL;
	for (size_t j = (size_t)h & r->fmask; r->fslots[j];
	     j = (j + 1) & r->fmask) {
		const struct fentry *x = &r->fe[r->fslots[j] - 1];

		if (x->hash == h && x->klen == n && x->java == r->java &&
		    memcmp(r->keys + x->key, k, n) == 0)
			return x;
	}
	return NULL;
}

/* The sample's next frame line is entry e - 1. */
static void link_line(struct reader *r, uint32_t e)
{
	if (r->last == FIRST)
		r->first = e;
	else if (r->last)
		r->fe[r->last - 1].next = e;
	r->last = e;
}

/* The entry the sample's next frame line is likely to be, or NULL. */
static const struct fentry *next_entry(const struct reader *r)
{
	uint32_t e = r->last == FIRST ? r->first
		     : r->last ? r->fe[r->last - 1].next : 0;
	const struct fentry *x = e ? &r->fe[e - 1] : NULL;

	return x && x->java == r->java ? x : NULL;
}

/* The entry of the line s[0..n) when it is the one predicted, or NULL. */
static const struct fentry *predicted(const struct reader *r, const char *s,
				      size_t n)
{
	const struct fentry *x = next_entry(r);

	if (x && x->klen == n && memcmp(r->keys + x->key, s, n) == 0)
		return x;
	return NULL;
}

static void cache_add(struct reader *r, const char *k, size_t n, uint64_t h,
		      size_t ids, uint32_t count)
{
	struct fentry *x;
	size_t j;

	if (n > UINT32_MAX || r->nkeys + n > r->max_keys ||
	    r->nfe >= UINT32_MAX - 1)
		return;
	if ((r->nfe + 1) * 2 > r->fmask)
		fslots_grow(r);
	GROW(r->fe, r->capfe, r->nfe + 1);
	GROW(r->keys, r->capkeys, r->nkeys + n);
	x = &r->fe[r->nfe];
	x->hash = h;
	x->key = r->nkeys;
	x->klen = (uint32_t)n;
	x->ids = ids;
	x->n = count;
	x->java = r->java;
	x->next = 0;
	memcpy(r->keys + r->nkeys, k, n);
	r->nkeys += n;
	for (j = (size_t)h & r->fmask; r->fslots[j]; j = (j + 1) & r->fmask)
		;
	r->fslots[j] = (uint32_t)++r->nfe;
	link_line(r, (uint32_t)r->nfe);
}

/*
 * Add one frame line's frames to the sample (leaf first).  key/keylen: the
 * line, to cache what it became, or NULL.
 */
static void frame_line(struct reader *r, const struct frame_line *f,
		       const char *key, size_t keylen, uint64_t h)
{
	const char *func = f->func;
	size_t funclen = f->funclen, ids = r->nfids;
	uint32_t n;

	/* A "+0x1f" offset at the end goes. */
	{
		size_t k = funclen;

		while (k > 0 && (is_digit((unsigned char)func[k - 1]) ||
				 (func[k - 1] >= 'a' && func[k - 1] <= 'f')))
			k--;
		if (k < funclen && k >= 3 && func[k - 1] == 'x' &&
		    func[k - 2] == '0' && func[k - 3] == '+')
			funclen = k - 3;
	}
	if (funclen && func[0] == '(') {
		n = 0;                   /* a process name, not a frame */
	} else {
		n = make_frames(r, f, func, funclen);
	}
	push_frames(r, ids, n);
	if (key)
		cache_add(r, key, keylen, h, ids, n);
	else
		r->nfids = ids;
}

/* ---- Stacks ---------------------------------------------------------- */

static void sslots_grow(struct reader *r)
{
	size_t nmask = r->smask ? r->smask * 2 + 1 : 1023;
	uint32_t *ns = xcalloc(nmask + 1, sizeof(*ns));

	for (size_t i = 0; i < r->nse; i++) {
		size_t j = (size_t)r->se[i].hash & nmask;

		while (ns[j])
			j = (j + 1) & nmask;
		ns[j] = (uint32_t)i + 1;
	}
	free(r->sslots);
	r->sslots = ns;
	r->smask = nmask;
}

/* The stack's index in the cache (added if new), or NO_STACK when full. */
static uint32_t stack_index(struct reader *r, const uint32_t *ids, size_t n)
{
	uint64_t h = hash_bytes(ids, n * sizeof(*ids));
	size_t j;
	struct sentry *e;

	if (r->smask) {
		for (j = (size_t)h & r->smask; r->sslots[j];
		     j = (j + 1) & r->smask) {
			const struct sentry *x = &r->se[r->sslots[j] - 1];

			if (x->hash == h && x->n == n &&
			    memcmp(r->sids + x->ids, ids, n * sizeof(*ids)) == 0)
				return r->sslots[j] - 1;
		}
	}
	if (r->nsids + n > r->max_ids || r->nse >= UINT32_MAX - 1)
		return NO_STACK;
	if ((r->nse + 1) * 2 > r->smask)
		sslots_grow(r);
	GROW(r->se, r->capse, r->nse + 1);
	GROW(r->sids, r->capsids, r->nsids + n);
	e = &r->se[r->nse];
	e->hash = h;
	e->ids = r->nsids;
	e->n = (uint32_t)n;
	e->node = NO_NODE;
	memcpy(r->sids + r->nsids, ids, n * sizeof(*ids));
	r->nsids += n;
	for (j = (size_t)h & r->smask; r->sslots[j]; j = (j + 1) & r->smask)
		;
	r->sslots[j] = (uint32_t)++r->nse;
	return (uint32_t)r->nse - 1;
}

/* A blank line: the sample is complete. */
static void end_sample(struct reader *r)
{
	size_t n = r->nframes + 1;
	struct piece *pc = r->pc;
	struct rec *x;

	if (!r->in_sample)
		return;
	r->in_sample = false;
	if (n > PROFILE_MAX_DEPTH - 1) {
		add_rec(r, REC_DEEP, r->event_line);
		r->nframes = 0;
		return;
	}
	if (n > r->capstack)
		GROW(r->stack, r->capstack, n);
	r->stack[0] = r->pname;
	for (size_t i = 0; i < r->nframes; i++)
		r->stack[n - 1 - i] = r->frames[i];
	r->nframes = 0;
	x = add_rec(r, REC_SAMPLE, r->event_line);
	x->weight = r->period;
	x->meta = r->meta;
	x->stack = stack_index(r, r->stack, n);
	x->n = (uint32_t)n;
	if (x->stack == NO_STACK) {
		GROW(pc->ids, pc->capids, pc->nids + n);
		memcpy(pc->ids + pc->nids, r->stack, n * sizeof(*r->stack));
		x->off = pc->nids;
		pc->nids += n;
	}
}

static void reader_free(struct reader *r)
{
	free(r->frames);
	free(r->stack);
	if (r->names)
		symtab_destroy(r->names);
	free(r->gid);
	free(r->lastroot);
	free(r->buf);
	free(r->fe);
	free(r->fslots);
	free(r->keys);
	free(r->fids);
	free(r->se);
	free(r->sslots);
	free(r->sids);
}

/*
 * perf script of a recording without call chains: one line per sample,
 * the command right-aligned ("    demo   730  1683.98: 1 cpu-clock: ...").
 */
static bool indented_event(const char *s, size_t n)
{
	struct event_line e;
	size_t a = 0;

	while (a < n && is_ws((unsigned char)s[a]))
		a++;
	return a > 0 && match_event(s + a, n - a, &e) &&
	       memmem(s, n, ": ", 2) != NULL;
}

/*
 * --lines: a srcline line ("  file.c:12", "  file.c:12 (inlined)", from
 * perf script -F +srcline) names the frame before it: that frame becomes
 * "NAME file.c:12", before any "_[k]"-like mark.  False when the line is
 * no srcline or the line is unknown ("??:0"): the frame keeps its name.
 */
static bool srcline_line(struct reader *r, const char *s, size_t n)
{
	size_t a = 0, e, colon, nl, sfx = 0, need;
	const char *name, *base;
	uint32_t *last;

	while (a < n && is_ws((unsigned char)s[a]))
		a++;
	for (e = a; e < n && !is_ws((unsigned char)s[e]); e++)
		;
	for (colon = e; colon > a && s[colon - 1] != ':'; colon--)
		;
	if (colon <= a + 1 || colon == e || !r->nframes)
		return false;
	for (size_t i = colon; i < e; i++)
		if (!is_digit((unsigned char)s[i]))
			return false;
	if (s[colon] == '0' || (colon - 1 - a == 2 && s[a] == '?'))
		return false;
	base = s + a;
	for (size_t i = a; i < colon - 1; i++)
		if (s[i] == '/')
			base = s + i + 1;
	last = &r->frames[r->nframes - 1];
	name = symtab_name(r->names, *last);
	nl = symtab_len(r->names, *last);
	if (nl >= 4 && name[nl - 4] == '_' && name[nl - 3] == '[' &&
	    name[nl - 1] == ']')
		sfx = 4;
	need = nl + 1 + (size_t)(s + e - base);
	buf_reserve(r, need);
	memcpy(r->buf, name, nl - sfx);
	r->buf[nl - sfx] = ' ';
	memcpy(r->buf + nl - sfx + 1, base, (size_t)(s + e - base));
	/* ';' would split the stack in --collapse. */
	for (size_t i = nl - sfx + 1; i < need - sfx; i++)
		if (r->buf[i] == ';')
			r->buf[i] = ':';
	memcpy(r->buf + need - sfx, name + nl - sfx, sfx);
	*last = intern(r, r->buf, need);
	r->pc->srclines++;
	return true;
}

static void one_line(struct reader *r, const char *s, size_t n)
{
	struct event_line e;
	struct frame_line f;
	const char *key = NULL;
	size_t keylen = 0;
	uint64_t h = 0;
	const struct fentry *x;

	if (n == 0) {
		r->pc->blanks++;
		end_sample(r);
		return;
	}
	if (s[0] == '#')
		return;
	/*
	 * A frame line seen before (the same bytes, the root java or not
	 * alike) needs no parsing.  No line held here is an event line or
	 * holds a NUL, so the lookup can come before those tests.
	 */
	if (r->in_sample) {
		/* Before the frame cache: a srcline is never cached. */
		if (r->o->lines && is_ws((unsigned char)s[0]) &&
		    srcline_line(r, s, n))
			return;
		key = s;
		keylen = n;
		x = predicted(r, s, n);
		if (!x) {
			h = line_hash(s, n, r->java);
			x = cache_find(r, s, n, h);
		}
		if (x) {
			link_line(r, (uint32_t)(x - r->fe) + 1);
			push_frames(r, x->ids, x->n);
			return;
		}
	}
	if (memchr(s, '\0', n)) {
		bad(r, "NUL byte in line");
		return;
	}
	/* Frame lines are indented; the event-line test fails fast on them. */
	if (!is_ws((unsigned char)s[0]) && match_event(s, n, &e)) {
		r->pc->events++;
		match_period(s, n, &e);
		event_line(r, s, n, &e);
		return;
	}
	if (!r->in_sample && !r->filtered && indented_event(s, n)) {
		r->pc->oneline++;
		return;
	}
	if (match_frame(s, n, &f)) {
		if (r->in_sample)
			frame_line(r, &f, key, keylen, h);
		else if (!r->filtered)
			bad(r, "frame line outside a sample (no event line "
			       "before it)");
		return;
	}
	/*
	 * Indented lines within a sample that are not frames are the extra
	 * fields perf script can print per frame (-F +srcline: "  file.c:12"):
	 * not frames, but not damage either.
	 */
	if (r->in_sample && is_ws((unsigned char)s[0])) {
		/* "ADDR SYMBOL" without a module: perf script -F without dso. */
		size_t a = 0, b, c, end = n;

		while (a < n && is_ws((unsigned char)s[a]))
			a++;
		for (b = a; b < n && is_hex((unsigned char)s[b]); b++)
			;
		for (c = b; c < n && is_ws((unsigned char)s[c]); c++)
			;
		while (end > c && is_ws((unsigned char)s[end - 1]))
			end--;
		if (b > a && c > b && end > c) {
			f.pc = s + a;
			f.pclen = b - a;
			f.func = s + c;
			f.funclen = end - c;
			f.mod = "";
			f.modlen = 0;
			frame_line(r, &f, NULL, 0, 0);
			return;
		}
		if (!r->pc->extra++)
			r->pc->first_extra = r->lineno;
		return;
	}
	bad(r, "neither an event line nor a frame line");
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
	struct piece sum;        /* the pieces' counts, added up */
	struct pool pool;        /* runs reader i's pieces on worker i */
	uint64_t block_base;     /* the line before the block's first */
};


/* Read a piece's lines; its reader goes on from the state it was left in. */
static void read_piece(struct reader *r, struct piece *pc, uint64_t base)
{
	const char *at = pc->text, *end = at + pc->len;

	r->pc = pc;
	pc->nrecs = pc->nids = 0;
	pc->extra = pc->events = pc->blanks = pc->oneline = 0;
	pc->srclines = 0;
	pc->other_events = 0;
	free(pc->other);
	pc->other = NULL;
	pc->periods = false;
	pc->names_from = symtab_count(r->names);
	/*
	 * A sample left open by the reader's last piece (the one just
	 * before this, whose first line is known): its event line counts
	 * back from here.
	 */
	if (r->in_sample)
		r->event_line -= (int64_t)base;
	r->lineno = 0;
	if (pc->one) {
		r->lineno = 1;
		one_line(r, at, pc->len);
	}
	while (!pc->one && at < end) {
		const struct fentry *x = r->in_sample ? next_entry(r) : NULL;
		const char *nl;
		size_t n;

		/*
		 * The predicted line, followed by its '\n': what one_line would
		 * do with it, without looking for the line's end first.
		 */
		if (x && (size_t)(end - at) > x->klen && at[x->klen] == '\n' &&
		    memcmp(r->keys + x->key, at, x->klen) == 0) {
			r->lineno++;
			link_line(r, (uint32_t)(x - r->fe) + 1);
			push_frames(r, x->ids, x->n);
			at += x->klen + 1;
			continue;
		}
		nl = memchr(at, '\n', (size_t)(end - at));
		n = nl ? (size_t)(nl - at) : (size_t)(end - at);
		r->lineno++;
		one_line(r, at, n && at[n - 1] == '\r' ? n - 1 : n);
		at += n + 1;
	}
	pc->lines = (uint64_t)r->lineno;
	pc->names_to = symtab_count(r->names);
}

/*
 * Reader i's pieces of the block (pool.h): its share, and for reader 0
 * the tail.  Only reader 0's first piece is numbered from the block's
 * start; the others are numbered when applied.
 */
static void read_share(void *arg, unsigned i)
{
	struct script *sc = arg;
	struct reader *r = &sc->rd[i];

	for (size_t k = 0; k < ARRAY_SIZE(r->todo) && r->todo[k]; k++)
		read_piece(r, r->todo[k], i == 0 && k == 0 ? sc->block_base : 0);
}


/* one_line takes the line s[0..n) for an event line. */
static bool event_start(const char *s, size_t n, struct event_line *e)
{
	return n && s[0] != '#' && !memchr(s, '\0', n) &&
	       match_event(s, n, e);
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
			match_period(at, k, &e);
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

/* A piece's names, samples and messages into the profile, in order. */
static void apply(struct script *sc, struct piece *pc, uint64_t base)
{
	struct reader *r = pc->r;
	const char *name = input_name(sc->in);
	struct piece *sum = &sc->sum;

	GROW(r->gid, r->capgid, pc->names_to);
	for (uint32_t i = pc->names_from; i < pc->names_to; i++)
		r->gid[i] = profile_intern(sc->p, symtab_name(r->names, i),
					   symtab_len(r->names, i));
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

/*
 * One block of whole lines (or one line, without its end): cut into
 * shares at cuts, one per reader, read at once, then applied in input
 * order.  Reader 0 takes the first share and, after the last cut, the
 * rest (which may end in a sample the next block finishes: reader 0 reads
 * the start of every block).  Nothing depends on the number of readers.
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
			const char *from = text + len / sc->nthreads * i;
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
	pool_run(&sc->pool, n);
	before = sc->lines;
	for (unsigned i = 0; i < npc; i++) {
		sc->base[i] = base;
		apply(sc, &sc->pcs[i], base);
		base += sc->pcs[i].lines;
		sc->lines += sc->pcs[i].lines;
	}
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
	sc.rd = xcalloc(sc.nthreads, sizeof(*sc.rd));
	sc.pcs = xcalloc(sc.nthreads + 1, sizeof(*sc.pcs));
	sc.base = xcalloc(sc.nthreads + 1, sizeof(*sc.base));
	pool_init(&sc.pool, sc.nthreads, read_share, &sc);
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
	while ((rc = input_getblock(in, &text, &len)) > 0) {
		if (rc == 2)
			diag_badf(d, input_name(in), input_lineno(in),
				  "line is too long (%zu bytes)", len);
		else
			run_block(&sc, text, len, rc == 3);
	}
	/*
	 * A sample cut off by the end of the input (no blank line after it)
	 * is dropped, as stackcollapse-perf.pl drops it: it may be partial.
	 */
	if (sc.rd[0].in_sample && sc.rd[0].nframes)
		diag_warn(d, "%s: the last sample has no blank line after it "
			  "(truncated input?): left out", input_name(in));
	if (input_error(in))
		diag_warn(d, "%s", input_error(in));
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
	if (sc.good)
		profile_note_unit(p, sum->periods &&
					     clock_event(sc.event, sc.eventlen)
				     ? UNIT_NS : UNIT_SAMPLES);
	rc = read_done(d, input_name(in), sc.good, before, NULL);
	pool_end(&sc.pool);
	for (unsigned i = 0; i < sc.nthreads; i++)
		reader_free(&sc.rd[i]);
	for (unsigned i = 0; i <= sc.nthreads; i++) {
		free(sc.pcs[i].recs);
		free(sc.pcs[i].ids);
		free(sc.pcs[i].other);
	}
	free(sum->other);
	free(sc.rd);
	free(sc.pcs);
	free(sc.base);
	free(sc.event);
	return rc;
}
