/*
 * read-perf-script-parse.c - the lines of `perf script`.
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
 * A reader turns a piece's lines into records (samples of its own name
 * ids, bad lines); the frame lines it has seen it finds in its caches
 * (read-perf-script-cache.c) instead of parsing them again.
 */
#include <stdlib.h>
#include <string.h>

#include "read-perf-script-priv.h"

/*
 * Character classes of Perl's \s, \d and \w on bytes, and C_TIDY: the
 * bytes tidy changes or acts on.
 */
enum { C_WS = 1, C_DIGIT = 2, C_WORD = 4, C_TIDY = 8 };

static const unsigned char cclass[256] = {
	['\t'] = C_WS, ['\n'] = C_WS, ['\v'] = C_WS, ['\f'] = C_WS,
	['\r'] = C_WS, [' '] = C_WS,
	[';'] = C_TIDY, ['('] = C_TIDY, ['"'] = C_TIDY, ['\''] = C_TIDY,
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

static void bad(struct reader *r, const char *what)
{
	pscript_add_rec(r, REC_BAD, r->lineno)->what = what;
}

static uint32_t intern(struct reader *r, const char *s, size_t n)
{
	return symtab_intern(r->names, s, n);
}

static void buf_reserve(struct reader *r, size_t n)
{
	GROW(r->buf, r->capbuf, n);
}


/*
 * Digits from s[i] on, or "-1" (the pid or tid perf prints for a task it
 * did not know): where they end.
 */
static inline size_t task_number(const char *s, size_t n, size_t i)
{
	size_t d = i;

	while (d < n && is_digit((unsigned char)s[d]))
		d++;
	if (d == i && i + 1 < n && s[i] == '-' && s[i + 1] == '1' &&
	    (i + 2 == n || !is_digit((unsigned char)s[i + 2])))
		return i + 2;
	return d;
}

/*
 * "COMM PID[/TID] ": COMM is two or more characters from a non-blank
 * start, the shortest that fits.  Only the first blank of a run can end
 * COMM (a later one would match the same way), which keeps this linear.
 */
bool pscript_match_event(const char *s, size_t n, struct event_line *e)
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
		i = d1 = task_number(s, n, i);
		if (d1 == d0)
			continue;
		while (i < n && s[i] == '/')
			i++;
		t0 = i;
		i = t1 = task_number(s, n, i);
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
void pscript_match_period(const char *s, size_t n, struct event_line *e)
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
	e->tail = k - 1;
}

/*
 * pscript_match_period, for a line that ends as the last one whose event
 * was found: what it reads lies in the bytes from the ':' before the
 * period on, so the same bytes read the same (a recording's lines mostly
 * differ before them, in the time, unless each sample has its period).
 */
static void match_period_kept(struct reader *r, const char *s, size_t n,
			      struct event_line *e)
{
	size_t k = r->ptaillen;

	if (k && n >= k && memcmp(s + n - k, r->ptail, k) == 0) {
		e->event = s + n - r->ptevent;
		e->eventlen = r->pteventlen;
		e->period = r->ptperiod ? s + n - r->ptperiod : NULL;
		e->periodlen = r->ptperiodlen;
		e->tail = n - k;
		return;
	}
	pscript_match_period(s, n, e);
	if (!e->event)
		return;
	k = n - e->tail;
	GROW(r->ptail, r->capptail, k);
	memcpy(r->ptail, s + e->tail, k);
	r->ptaillen = k;
	r->ptevent = (size_t)(s + n - e->event);
	r->pteventlen = e->eventlen;
	r->ptperiod = e->period ? (size_t)(s + n - e->period) : 0;
	r->ptperiodlen = e->period ? e->periodlen : 0;
}

/*
 * The word at s[*i] (up to a blank or n) as a time, "SECS.FRAC:" (digits,
 * a dot, digits, a colon): 1 and the time in ns; 0 if it is not one; -1
 * if it is one too large for 64 bits of ns.  *i ends after the word.  One
 * pass over the word: each event line has one.
 */
static int time_word(const char *s, size_t n, size_t *i, uint64_t *ns)
{
	size_t k = *i, nd = 0, nf = 0;
	uint64_t sec = 0, frac = 0;
	bool big = false;       /* the seconds do not fit 64 bits */

	for (; k < n && is_digit((unsigned char)s[k]); k++, nd++) {
		unsigned d = (unsigned)(s[k] - '0');

		if (nd < 19)    /* below 10^19: no overflow */
			sec = sec * 10 + d;
		else if (__builtin_mul_overflow(sec, 10, &sec) ||
			 __builtin_add_overflow(sec, d, &sec))
			big = true;
	}
	if (!nd || k >= n || s[k] != '.')
		goto other;
	for (k++; k < n && is_digit((unsigned char)s[k]); k++, nf++)
		if (nf < 9)
			frac = frac * 10 + (uint64_t)(s[k] - '0');
	if (!nf || big || k >= n || s[k] != ':' ||
	    (k + 1 < n && !is_ws((unsigned char)s[k + 1])))
		goto other;
	*i = k + 1;
	for (; nf < 9; nf++)
		frac *= 10;
	if (__builtin_mul_overflow(sec, 1000000000u, &sec) ||
	    __builtin_add_overflow(sec, frac, &sec))
		return -1;
	*ns = sec;
	return 1;
other:
	while (k < n && !is_ws((unsigned char)s[k]))
		k++;
	*i = k;
	return 0;
}

/* "SECS.FRAC:" among the three words after the pid: the time in ns. */
static bool parse_time(const char *s, size_t n, size_t from, uint64_t *ns)
{
	size_t i = from;

	for (int words = 0; words < 3 && i < n; words++) {
		int t;

		while (i < n && is_ws((unsigned char)s[i]))
			i++;
		t = time_word(s, n, &i, ns);
		if (t)
			return t > 0;
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
				pscript_drop_sample(r);
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
	/*
	 * "-1", the only number with a sign the event line matcher takes, is
	 * a task perf did not know: UINT32_MAX, as perf.data has it.
	 */
	if (tid[0] == '-') {
		r->meta.tid = UINT32_MAX;
		r->meta.has_task = true;
	} else {
		r->meta.has_task = parse_num(tid, tidlen, &r->meta.tid);
	}
	if (pid[0] == '-')
		r->meta.pid = UINT32_MAX;
	else if (!parse_num(pid, pidlen, &r->meta.pid))
		r->meta.pid = r->meta.tid;
	r->event_line = r->lineno;

	/* perf's -1: "?" in the root, as an unprinted pid is. */
	if (pid[0] == '-') {
		pid = "?";
		pidlen = 1;
	}
	if (tid[0] == '-') {
		tid = "?";
		tidlen = 1;
	}
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
	r->naf = 0;
	r->last = FIRST;
}


/* ---- Frame lines ----------------------------------------------------- */

struct frame_line {
	const char *pc, *func, *mod;
	size_t pclen, funclen, modlen;
};

/*
 * "ADDR SYMBOL (/path (deleted))": perf marks a mapped file deleted since
 * (a library upgraded under a running program, a memfd).  Read by the
 * rule below, the module would be "deleted)" and the symbol would keep
 * " (/path".  With P at the blank before "(deleted))": the blank before
 * the "(" that opens the path, or P as it was.
 */
static size_t deleted_path(const char *s, size_t n, size_t P)
{
	static const char tail[] = " (deleted))";
	size_t k = sizeof(tail) - 1, o;

	if (P != n - k || memcmp(s + P, tail, k) != 0)
		return P;
	for (o = P; o > 1 && !(s[o - 1] == '(' && s[o - 2] == ' '); o--)
		if (is_ws((unsigned char)s[o - 1]))
			return P;
	return o > 1 ? o - 2 : P;
}

/*
 * "ADDR SYMBOL (MODULE)" with stackcollapse-perf.pl's reading of it: ADDR
 * is a word, MODULE the last " (...)" whose text has no blank, SYMBOL what
 * lies between (at least one character, even if that means borrowing one
 * from the blanks).
 */
static bool match_frame(const char *s, size_t n, struct frame_line *f)
{
	size_t a = 0, b, c, P = SIZE_MAX, q = SIZE_MAX, close = SIZE_MAX;
	const char *open = n ? memrchr(s, '(', n) : NULL;

	/*
	 * The last " (" with a ')' in the unbroken text after it.  Most
	 * often that '(' is the line's last, which memrchr finds: then the
	 * ')' is the last one before the blank that ends the text after it.
	 */
	if (open && open > s && open[-1] == ' ') {
		size_t o = (size_t)(open - s), e = o + 1;

		while (e < n && !is_ws((unsigned char)s[e]))
			e++;
		while (--e > o && s[e] != ')')
			;
		if (e > o) {
			P = o - 1;
			q = e;
		}
	}
	for (size_t i = n; P == SIZE_MAX && i-- > 0;) {
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
	if (q == n - 1) {
		size_t D = deleted_path(s, n, P);

		if (D != P) {
			P = D;
			q = n - 1 - 10;     /* the module's end, " (deleted))" off */
		}
	}
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

bool pscript_is_jit_module(const char *m, size_t n)
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
	size_t i = 0;

	/* Most names hold none of the bytes the passes below act on. */
	while (i < n && !(cclass[(unsigned char)s[i]] & C_TIDY))
		i++;
	if (i < n) {
		const char *go;
		size_t w = 0;
		bool keep;

		for (; i < n; i++)
			if (s[i] == ';')
				s[i] = ':';
		/* Go methods "pkg.(*T).M" keep their parentheses. */
		go = n >= 2 ? memmem(s, n, ".(", 2) : NULL;
		keep = go && has_sub(go + 2, (size_t)(s + n - go - 2), ").", 2);
		for (i = keep ? n : 0; i < n; i++) {
			if (s[i] != '(')
				continue;
			if (n - i - 1 >= 20 &&
			    !memcmp(s + i + 1, "anonymous namespace)", 20))
				continue;
			n = i;
			break;
		}
		for (i = 0; i < n; i++)
			if (s[i] != '"' && s[i] != '\'')
				s[w++] = s[i];
		n = w;
	}
	if (java && n && s[0] == 'L' && memchr(s, '/', n)) {
		memmove(s, s + 1, n - 1);
		n--;
	}
	return n;
}

/*
 * Note where frame id of a frame line came from (frame-locs.h, for
 * --pprof): its module and address, its function's name (the frame's).
 */
static void note_frame(struct reader *r, uint32_t id,
		       const struct frame_line *f)
{
	struct floc_frame fr = { 0 };
	uint64_t shift = 0;

	if (!r->locs)
		r->locs = floc_create();
	if (floc_known(r->locs, id))
		return;
	if (f->modlen && !(f->modlen == 9 && !memcmp(f->mod, "[unknown]", 9))) {
		struct floc_binary b = { f->mod, f->modlen, NULL, 0, 0, 0, 0 };

		fr.binary = floc_add_binary(r->locs, &b, &shift);
	}
	for (size_t i = 0; i < f->pclen && i < 16; i++) {
		unsigned char c = (unsigned char)f->pc[i];

		if (!is_hex(c)) {
			fr.addr = 0;
			break;
		}
		fr.addr = fr.addr << 4 |
			  (uint64_t)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	fr.func = symtab_name(r->names, id);
	fr.func_len = symtab_len(r->names, id);
	floc_note(r->locs, id, &fr);
}

/*
 * The first "->" in [s, end), or NULL: by its '>', which few names hold
 * (memmem costs more on names this short).
 */
static const char *find_arrow(const char *s, const char *end)
{
	const char *g = s;

	while (g < end && (g = memchr(g, '>', (size_t)(end - g)))) {
		if (g > s && g[-1] == '-')
			return g - 1;
		g++;
	}
	return NULL;
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
	bool jit = !kernel && r->o->jit &&
		   pscript_is_jit_module(f->mod, f->modlen);

	while (funclen >= 2 && func[funclen - 2] == '-' &&
	       func[funclen - 1] == '>')
		funclen -= 2;
	if (funclen == 0)
		return 0;
	end = func + funclen;
	for (;;) {
		const char *arrow = find_arrow(s, end);
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
		r->fids[r->nfids] = intern(r, r->buf, n);
		note_frame(r, r->fids[r->nfids++], f);
		count++;
		if (!arrow)
			break;
		s = arrow + 2;
	}
	return count;
}

/*
 * The function of a frame line for the address tables: its leafward
 * frame's name without a "_[k]"-like mark, then a NUL and the module, in
 * the reader's afns (id + 1); 0 for a frame without a symbol (it keeps
 * its place: a caller's address stays a caller's), AFN_NONE for a line
 * that is no frame.
 */
static uint32_t line_func(struct reader *r, const struct frame_line *f,
			  size_t ids, uint32_t n)
{
	const char *name;
	size_t nl;

	if (!n)
		return AFN_NONE;
	if (f->funclen == 9 && memcmp(f->func, "[unknown]", 9) == 0)
		return 0;
	name = symtab_name(r->names, r->fids[ids + n - 1]);
	nl = symtab_len(r->names, r->fids[ids + n - 1]);
	if (nl > 4 && name[nl - 4] == '_' && name[nl - 3] == '[' &&
	    name[nl - 1] == ']')
		nl -= 4;
	buf_reserve(r, nl + 1 + f->modlen);
	memcpy(r->buf, name, nl);
	r->buf[nl] = 0;
	memcpy(r->buf + nl + 1, f->mod, f->modlen);
	if (!r->afns)
		r->afns = symtab_create();
	return symtab_intern(r->afns, r->buf, nl + 1 + f->modlen) + 1;
}

/* A frame line's address: its first word in hex (0: none). */
static uint64_t line_addr(const struct frame_line *f)
{
	uint64_t a = 0;

	for (size_t i = 0; i < f->pclen && i < 16; i++) {
		unsigned char c = (unsigned char)f->pc[i];

		if (!is_hex(c))
			return 0;
		a = a << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return a;
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
	{
		/* No address tables: the line keeps no function (AFN_NONE). */
		uint32_t fn = r->o->no_addr_tables ? AFN_NONE
						   : line_func(r, f, ids, n);
		uint64_t addr = fn == AFN_NONE ? 0 : line_addr(f);
		size_t had = r->nfe;

		push_aframe(r, fn, addr);
		if (key)
			pscript_cache_add(r, key, keylen, h, ids, n);
		else
			r->nfids = ids;
		if (r->nfe > had) {
			r->fe[had].afn = fn;
			r->fe[had].addr = addr;
		}
	}
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
	return a > 0 && pscript_match_event(s + a, n - a, &e) &&
	       memmem(s, n, ": ", 2) != NULL;
}

/*
 * --lines: a srcline line ("  file.c:12", "  file.c:12 (inlined)", from
 * perf script -F +srcline) names the frame before it: that frame becomes
 * "NAME file.c:12", before any "_[k]"-like mark.  False when the line is
 * no srcline or the line is unknown ("??:0"): the frame keeps its name.
 */
/*
 * The shape of a srcline line: blanks, "FILE:DIGITS", then nothing but
 * " (inlined)".  Sets [*a, *e) to "FILE:DIGITS" and *colon just after the
 * ':'.  A frame line never has it: its first word is a hex address.
 */
static bool srcline_shape(const char *s, size_t n, size_t *a, size_t *e,
			  size_t *colon)
{
	size_t i = 0, j, c, rest;

	while (i < n && is_ws((unsigned char)s[i]))
		i++;
	/* Most frame lines have no ':' at all. */
	if (i == 0 || !memchr(s + i, ':', n - i))
		return false;
	/* The first word, and just after its last ':' (i: none). */
	for (j = c = i; j < n && !is_ws((unsigned char)s[j]); j++)
		if (s[j] == ':')
			c = j + 1;
	if (c <= i + 1 || c == j)
		return false;
	for (size_t k = c; k < j; k++)
		if (!is_digit((unsigned char)s[k]))
			return false;
	rest = j;
	while (rest < n && is_ws((unsigned char)s[rest]))
		rest++;
	if (rest < n && (n - rest != 9 || memcmp(s + rest, "(inlined)", 9)))
		return false;
	*a = i;
	*e = j;
	*colon = c;
	return true;
}

static bool srcline_line(struct reader *r, const char *s, size_t n)
{
	size_t a, e, colon, nl, sfx = 0, need;
	const char *name, *base;
	uint32_t *last;

	if (!srcline_shape(s, n, &a, &e, &colon) || !r->nframes)
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
	{
		/* The function and file of the line; its address is not
		 * known here (the frame line may have come from the cache):
		 * the binary is the frame's. */
		struct floc_frame fr = { 0 };
		uint32_t id = intern(r, r->buf, need);

		if (r->locs && !floc_known(r->locs, id)) {
			floc_get(r->locs, *last, &fr);
			fr.addr = 0;
			fr.file = s + a;
			fr.file_len = colon - 1 - a;
			fr.line = 0;
			for (size_t i = colon; i < e && fr.line < 100000000u; i++)
				fr.line = fr.line * 10 + (unsigned)(s[i] - '0');
			fr.func = name;     /* the frame's, without the line */
			fr.func_len = nl;
			floc_note(r->locs, id, &fr);
		}
		*last = id;
	}
	r->pc->srclines++;
	return true;
}

/* An indented line within a sample that is no frame: counted, ignored. */
static void extra_line(struct reader *r)
{
	if (!r->pc->extra++)
		r->pc->first_extra = r->lineno;
}

/* hash: the line's hash with the reader's seed, when known (else NULL). */
static void one_line(struct reader *r, const char *s, size_t n,
		     const uint64_t *hash)
{
	struct event_line e;
	struct frame_line f;
	const char *key = NULL;
	size_t keylen = 0;
	uint64_t h = 0;
	const struct fentry *x;

	if (n == 0) {
		r->pc->blanks++;
		pscript_end_sample(r);
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
		key = s;
		keylen = n;
		x = predicted(r, s, n);
		if (!x) {
			h = hash ? *hash : line_hash(s, n, r->java);
			x = cache_find(r, s, n, h);
		}
		if (x) {
			push_line(r, x);
			return;
		}
		/*
		 * After the frame cache, which never holds a line of this
		 * shape: a srcline.  Without --lines (or when it names no line)
		 * it is an extra field, not a frame: "  inline.c:31 (inlined)"
		 * reads as one otherwise.
		 */
		if (is_ws((unsigned char)s[0])) {
			size_t a, end, colon;

			if (r->o->lines && srcline_line(r, s, n))
				return;
			if (srcline_shape(s, n, &a, &end, &colon)) {
				extra_line(r);
				return;
			}
		}
	}
	if (memchr(s, '\0', n)) {
		/* In a sample, a frame lost: the sample would be a stack
		 * that never ran. */
		if (!r->in_sample) {
			bad(r, "NUL byte in line");
			return;
		}
		bad(r, "NUL byte in line: its sample is left out");
		pscript_drop_sample(r);
		return;
	}
	/* Frame lines are indented; the event-line test fails fast on them. */
	if (!is_ws((unsigned char)s[0]) && pscript_match_event(s, n, &e)) {
		r->pc->events++;
		match_period_kept(r, s, n, &e);
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
		extra_line(r);
		return;
	}
	bad(r, "neither an event line nor a frame line");
}

/*
 * Frame lines are looked up ahead of their turn.  On a real recording
 * most samples' leaf lines are not the line predicted, and their look-up
 * in a table far larger than the CPU's caches would wait for memory twice
 * (the slot, then the key): FETCH_AHEAD lines ahead, a frame line is
 * hashed and its slot fetched; FETCH_KEY lines ahead, the key the slot
 * names.  The hashes are kept for the line's turn (AHEAD_RING of them).
 */
#define FETCH_AHEAD 8
#define FETCH_KEY 4
#define AHEAD_RING 16            /* a power of 2 above FETCH_AHEAD */

struct ahead {
	uint64_t h;
	size_t n;                /* the line's length, without its '\n' */
	bool frame;              /* the line may be a frame line: h is set */
	bool java;               /* the seed of h */
};

/* Hash the frame line at s (before end), if it is one, and fetch its slot. */
static const char *fetch_ahead(const struct reader *r, const char *s,
			       const char *end, struct ahead *a)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

	a->n = n;
	a->frame = n && is_ws((unsigned char)s[0]);
	if (a->frame) {
		a->java = r->java;
		a->h = line_hash(s, s[n - 1] == '\r' ? n - 1 : n, r->java);
		if (r->fmask)
			__builtin_prefetch(&r->fslots[(size_t)a->h & r->fmask]);
	}
	return nl ? nl + 1 : end;
}

/* Fetch the key of a line hashed ahead, now its slot has come. */
static void fetch_key(const struct reader *r, const struct ahead *a)
{
	const struct fslot *sl;

	if (!a->frame || !r->fmask)
		return;
	sl = &r->fslots[(size_t)a->h & r->fmask];
	if (sl->e) {
		const char *k = r->keys + (size_t)sl->key8 * 8;

		__builtin_prefetch(k);
		__builtin_prefetch(k + 64);
	}
}

/* Read a piece's lines; its reader goes on from the state it was left in. */
void pscript_read_piece(struct reader *r, struct piece *pc, uint64_t base)
{
	const char *at = pc->text, *end = at + pc->len, *ahead;
	int64_t lahead = 0;      /* the lines before ahead */
	struct ahead ring[AHEAD_RING];

	r->pc = pc;
	pc->nrecs = pc->nids = 0;
	pc->nafr = 0;
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
		one_line(r, at, pc->len, NULL);
	}
	ahead = at;
	while (!pc->one && at < end) {
		uint32_t e = 0;
		const struct fkey *k;
		const struct ahead *now;
		size_t n;

		for (; ahead < end && r->lineno + FETCH_AHEAD > lahead; lahead++)
			ahead = fetch_ahead(r, ahead, end,
					    &ring[lahead % AHEAD_RING]);
		if (r->lineno + FETCH_KEY < lahead)
			fetch_key(r, &ring[(r->lineno + FETCH_KEY) % AHEAD_RING]);
		now = &ring[r->lineno % AHEAD_RING];
		k = r->in_sample ? next_key(r, &e) : NULL;

		/*
		 * The predicted line, followed by its '\n': what one_line would
		 * do with it, without looking for the line's end first.
		 */
		if (k && (size_t)(end - at) > k->klen && at[k->klen] == '\n' &&
		    memcmp(k + 1, at, k->klen) == 0) {
			r->lineno++;
			push_line(r, &r->fe[e - 1]);
			at += k->klen + 1;
			continue;
		}
		/* The line's end, found when it was hashed ahead. */
		n = now->n;
		r->lineno++;
		one_line(r, at, n && at[n - 1] == '\r' ? n - 1 : n,
			 now->frame && now->java == r->java ? &now->h : NULL);
		at += n + 1;
	}
	pc->lines = (uint64_t)r->lineno;
	pc->names_to = symtab_count(r->names);
}
