/*
 * symbols-kernel.c - kernel symbols from kallsyms (read on a thread of
 * their own, used only for the kernel that was recorded) and JIT symbols
 * from /tmp/perf-PID.map files.
 */
#include "symbols.h"

#include <ctype.h>
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "symbols-priv.h"
#include "symtab.h"
#include "util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- Kernel ---------------------------------------------------------------- */

void sym_set_kernel_build_id(struct symbolizer *sy, const uint8_t *bid,
			     size_t len)
{
	sy->kbid_len = len > 20 ? 20 : len;
	memcpy(sy->kbid, bid, sy->kbid_len);
	sy->kbid_hex_done = false;
}

void sym_set_kernel_release(struct symbolizer *sy, const char *rel,
			    size_t len)
{
	len = strnlen(rel, len);
	if (len >= sizeof(sy->krelease))
		len = sizeof(sy->krelease) - 1;
	memcpy(sy->krelease, rel, len);
	sy->krelease[len] = 0;
}

void sym_set_kernel_text(struct symbolizer *sy, uint64_t text_start)
{
	sy->ktext_recorded = text_start;
}

void sym_set_kernel_map(struct symbolizer *sy, uint64_t start, uint64_t len)
{
	sy->kmap_start = start;
	sy->kmap_len = len;
}

bool sym_kernel_map(const struct symbolizer *sy, uint64_t *start,
		    uint64_t *limit)
{
	if (!sy->kmap_len || sy->kmap_start + sy->kmap_len < sy->kmap_start)
		return false;
	*start = sy->kmap_start;
	*limit = sy->kmap_start + sy->kmap_len;
	return true;
}

/* The running kernel's build-id, from /sys/kernel/notes. */
static size_t running_kernel_bid(uint8_t *out)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t nsz, dsz, type;
		size_t name_off, desc_off;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + ((nsz + 3u) & ~3u);
		if (desc_off + dsz > (size_t)n || desc_off < name_off)
			break;
		if (type == NT_GNU_BUILD_ID && nsz == 4 &&
		    memcmp(buf + name_off, "GNU", 4) == 0) {
			size_t l = dsz > 20 ? 20 : dsz;

			memcpy(out, buf + desc_off, l);
			return l;
		}
		off = desc_off + ((dsz + 3u) & ~3u);
	}
	return 0;
}

const char *sym_kernel_build_id(struct symbolizer *sy, size_t *len)
{
	uint8_t now[20];
	size_t n = sy->kbid_len;
	const uint8_t *b = sy->kbid;

	if (!sy->kbid_hex_done) {
		struct utsname u;

		/* Not recorded: the running kernel's, if it is this one. */
		if (!n && !sy->o.kallsyms &&
		    (!sy->krelease[0] ||
		     (uname(&u) == 0 && !strcmp(u.release, sy->krelease)))) {
			n = running_kernel_bid(now);
			b = now;
		}
		sym_bid_hex(sy->kbid_hex, b, n);
		sy->kbid_hex_done = true;
	}
	*len = strlen(sy->kbid_hex);
	return sy->kbid_hex;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Eight lowercase hex digits (the first in the lowest byte of w) as a
 * number; false if one is not a lowercase hex digit.  Each byte's value
 * is its low nibble, plus 9 for a letter; spelling the values back out
 * as digits and comparing checks them all at once.
 */
static bool hex8(uint64_t w, uint32_t *out)
{
	const uint64_t ones = 0x0101010101010101u;
	uint64_t v = (w & 0x0f * ones) + 9 * ((w >> 6) & ones);
	uint64_t over9 = ((v + 6 * ones) >> 4) & ones;

	if ((v & 0xf0 * ones) || v + 0x30 * ones + 0x27 * over9 != w)
		return false;
	/* Pack the nibbles, the first digit the most significant. */
	v = ((v & 0x000f000f000f000fu) << 4) | ((v >> 8) & 0x000f000f000f000fu);
	v = ((v & 0x000000ff000000ffu) << 8) | ((v >> 16) & 0x000000ff000000ffu);
	v = ((v & 0x000000000000ffffu) << 16) | ((v >> 32) & 0xffffu);
	*out = (uint32_t)v;
	return true;
}

/*
 * A line's address: what strtoull(s, e, 16) gives, read by hand in the
 * usual case of up to 16 hex digits and a blank (a 64-bit kernel's 16
 * lowercase digits eight at a time).  The line ends at le (a newline or
 * the text's end): anything else is read by strtoull from a copy that
 * ends there.
 */
static unsigned long long hex_field(char *s, char *le, char **e)
{
	char buf[64], *copy, *ce, *p = s;
	unsigned long long a = 0, v;
	size_t n;

	if (le - s > 16 && s[16] == ' ') {
		uint64_t w[2];
		uint32_t hi, lo;

		memcpy(w, s, 16);
		if (hex8(le64toh(w[0]), &hi) && hex8(le64toh(w[1]), &lo)) {
			*e = s + 16;
			return (unsigned long long)hi << 32 | lo;
		}
	}
	for (; p - s < 16; p++) {
		unsigned c = (unsigned char)*p, d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		a = a << 4 | d;
	}
	if (p != s && p < le && *p == ' ') {
		*e = p;
		return a;
	}
	n = (size_t)(le - s);
	copy = n < sizeof(buf) ? buf : xmalloc(n + 1);
	memcpy(copy, s, n);
	copy[n] = 0;
	v = strtoull(copy, &ce, 16);
	*e = s + (ce - copy);
	if (copy != buf)
		free(copy);
	return v;
}

void sym_kernel_free(struct symbolizer *sy)
{
	ARR_FREE(sy->ksyms, sy->capksyms);
	if (sy->ktextmap)
		munmap(sy->ktext, sy->ktextmap);
	else
		ARR_FREE(sy->ktext, sy->ktextcap);
	sy->ktext = NULL;
	sy->capksyms = sy->ktextcap = sy->ktextmap = 0;
	sym_index_free(&sy->kix);
	symtab_destroy(sy->knames);
	sy->knames = NULL;
}

/*
 * Read a kallsyms file whole into sy->ktext: a regular file that ends
 * with a newline is mapped (read only: lookups copy what they return),
 * which spares copying it and zeroing new memory for it, about a third of
 * its reading; anything else (/proc/kallsyms) is read into an array of
 * sy->ktextcap bytes, in huge pages (about 5 MB).  Returns the length up
 * to the first NUL, 0 if unreadable or empty; errno is kept for the
 * message.
 */
static size_t kallsyms_read(struct symbolizer *sy, const char *path)
{
	struct stat st;
	int fd;
	size_t len = 0;

	errno = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	sym_kernel_free(sy);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX / 2) {
		size_t size = (size_t)st.st_size;
		char *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m != MAP_FAILED && m[size - 1] == '\n') {
			close(fd);
			sy->ktext = m;
			sy->ktextmap = size;
			return strnlen(m, size);
		}
		if (m != MAP_FAILED)
			munmap(m, size);
	}
	for (;;) {
		ssize_t got;

		if (sy->ktextcap - len < 65536 + 1) {
			size_t old = sy->ktextcap;

			sy->ktextcap = old ? old * 2 : (size_t)8 << 20;
			ARR_GROW(sy->ktext, old, sy->ktextcap);
		}
		got = read(fd, sy->ktext + len, sy->ktextcap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	/* The text ends at its first NUL, if any. */
	sy->ktext[len] = 0;
	return strlen(sy->ktext);
}

/*
 * The first byte at or after s that is at or below a newline (a tab, a
 * newline or a NUL, where kallsyms is sound), where the text up to limit
 * may be read.  The text ends in a newline or a NUL, so the search stops
 * by its end.  16 bytes at a time where they lie before limit: a line is
 * some 45 bytes, and two calls of memchr a line (its end, then a module's
 * tab) were a quarter of reading kallsyms.
 */
static char *line_stop(char *s, const char *limit)
{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	for (; limit - s >= 16; s += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_subs_epu8(v, nl), zero));

		if (m)
			return s + __builtin_ctz(m);
	}
#else
	(void)limit;
#endif
	while ((unsigned char)*s > '\n')
		s++;
	return s;
}

/*
 * The first tab or newline at or after s, or end: other control bytes (a
 * damaged file) are part of a field.
 */
static char *field_stop(char *s, const char *end, const char *limit)
{
	s = line_stop(s, limit);
	while (s < end && *s != '\t' && *s != '\n')
		s = line_stop(s + 1, limit);
	return s;
}

/*
 * The functions of kallsyms text into sy->ksyms, the text left as it is.
 * Returns false when every address is zero (kptr_restrict hides them).
 */
static bool kallsyms_parse(struct symbolizer *sy, size_t len)
{
	char *end = sy->ktext + len;
	const char *limit = sy->ktext + (sy->ktextmap ? sy->ktextmap
						     : sy->ktextcap);
	size_t n = 0;
	bool nonzero = false, sorted = true;

	sy->ktext_now = 0;
	if (sy->capksyms < len / 40 + 16) {
		ARR_FREE(sy->ksyms, sy->capksyms);
		sy->capksyms = len / 40 + 16;
		ARR_GROW(sy->ksyms, 0, sy->capksyms);
	}
	for (char *s = sy->ktext; s < end;) {
		char *le = field_stop(s, end, limit), *tab = NULL;
		char *e, *name, *mod = NULL;
		unsigned long long a;
		char type;

		if (*le == '\t') {
			/* A module's symbol: "ADDR T name\t[module]". */
			tab = le;
			le = field_stop(tab + 1, end, limit);
			while (le < end && *le == '\t')
				le = field_stop(le + 1, end, limit);
		}
		if (le > end)
			le = end;
		a = hex_field(s, le, &e);
		if (e != s && le - e >= 3 && *e == ' ' && e[2] == ' ') {
			type = e[1];
			name = e + 3;
			if (tab && tab >= name && tab < le)
				mod = tab + 1;
			if (a)
				nonzero = true;
			if (!mod && le - name == 5 && memcmp(name, "_text", 5) == 0)
				sy->ktext_now = a;
			/*
			 * __pfx_* (the padding before a function) stay, as
			 * in perf: a return address after a noreturn call
			 * lands there.
			 */
			if (type == 'T' || type == 't' || type == 'W' ||
			    type == 'w') {
				if (n == sy->capksyms) {
					size_t old = sy->capksyms;

					sy->capksyms = old * 2;
					ARR_GROW(sy->ksyms, old, sy->capksyms);
				}
				sy->ksyms[n].start = a;
				sy->ksyms[n].seq = n;
				sy->ksyms[n].name = name;
				sy->ksyms[n].mod = mod;
				if (n && a < sy->ksyms[n - 1].start)
					sorted = false;
				n++;
			}
		}
		if (le >= end || *le != '\n')
			break;
		s = le + 1;
	}
	if (!nonzero || n == 0)
		return false;
	/*
	 * Module names "[ext4]" are kept as written by kallsyms.  The
	 * kernel lists its symbols in address order: sorted only if not.
	 */
	if (!sorted)
		qsort(sy->ksyms, n, sizeof(*sy->ksyms), cmp_ksym);
	sy->nksyms = n;
	sym_index_build(&sy->kix, sy->ksyms, n, sizeof(*sy->ksyms));
	return true;
}

/*
 * *field, a name (up to a tab or the line's end) or a module (up to the
 * line's end) in the kallsyms text, as a string: copied the first time,
 * and *field then points to the copy.  Writing a NUL into the text
 * instead would copy each page it lands on when the text is a mapping of
 * the file, and, with the reader's other threads running, stop every CPU
 * they run on to drop the page from its TLB (about 200 such faults on the
 * bench's perf.data).
 */
static const char *kallsyms_string(struct symbolizer *sy, const char **field,
				   bool name)
{
	const char *s = *field, *e = s;
	size_t size = sy->ktextmap ? sy->ktextmap : sy->ktextcap;

	/* (Compared as numbers: a copy is no part of the text.) */
	if ((uintptr_t)s - (uintptr_t)sy->ktext >= size)
		return s;               /* a copy already */
	while (*e && *e != '\n' && !(name && *e == '\t'))
		e++;
	if (!sy->knames)
		sy->knames = symtab_create();
	*field = symtab_name(sy->knames,
			     symtab_intern(sy->knames, s, (size_t)(e - s)));
	return *field;
}

/*
 * Which kallsyms describes the recorded kernel: --kallsyms if given;
 * else perf record's copy in its build-id cache, written when the
 * profile was recorded (it holds the modules and addresses of that boot,
 * and reading it is cheaper than having the kernel print
 * /proc/kallsyms); else, when the kernel is the one running (or the
 * recording does not say), /proc/kallsyms.
 */
static void kernel_load(struct symbolizer *sy)
{
	const char *paths[2];
	char cached[PATH_MAX];
	size_t npaths = 0;
	bool hidden = false;

	sy->kstate = -1;
	if (sy->o.kallsyms) {
		paths[npaths++] = sy->o.kallsyms;
	} else if (sy->kbid_len) {
		uint8_t now[20];
		size_t l = running_kernel_bid(now);
		const char *home = getenv("HOME");
		char hex[41];

		sym_bid_hex(hex, sy->kbid, sy->kbid_len);
		snprintf(cached, sizeof(cached),
			 "%s/.debug/[kernel.kallsyms]/%s/kallsyms",
			 home ? home : "", hex);
		if (home && access(cached, R_OK) == 0)
			paths[npaths++] = cached;
		if (!l || (l == sy->kbid_len && !memcmp(now, sy->kbid, l)))
			paths[npaths++] = "/proc/kallsyms";
		if (!npaths) {
			sy->miss_file[SYM_MISS_KERNEL] = "the profile was "
				"recorded on another kernel";
			return;
		}
	} else {
		if (sy->krelease[0]) {
			struct utsname u;

			if (uname(&u) == 0 && strcmp(u.release, sy->krelease)) {
				snprintf(sy->kmsg, sizeof(sy->kmsg), "recorded on "
					 "kernel %s, this is %s", sy->krelease,
					 u.release);
				sy->miss_file[SYM_MISS_KERNEL] = sy->kmsg;
				return;
			}
		}
		paths[npaths++] = "/proc/kallsyms";
	}
	for (size_t i = 0; i < npaths; i++) {
		size_t len = kallsyms_read(sy, paths[i]);

		if (!len) {
			if (sy->o.kallsyms) {
				snprintf(sy->kmsg, sizeof(sy->kmsg), "cannot "
					 "read --kallsyms %.80s: %.40s",
					 paths[i], errno ? strerror(errno)
							 : "empty file");
				sy->miss_file[SYM_MISS_KERNEL] = sy->kmsg;
			}
			continue;
		}
		if (kallsyms_parse(sy, len)) {
			sy->kstate = 1;
			return;
		}
		hidden = true;
	}
	sym_kernel_free(sy);
	if (hidden)
		sy->miss_file[SYM_MISS_KERNEL] = "kernel addresses are hidden "
			"(kptr_restrict); run as root";
}

static void *kernel_thread(void *arg)
{
	kernel_load(arg);
	return NULL;
}

void sym_preload_kernel(struct symbolizer *sy)
{
	/* While the thread runs, it writes kstate: kthread_on first. */
	if (sy->kthread_on || sy->kstate != 0)
		return;
	sy->kstate = 2;         /* loading; read only after the join */
	if (pthread_create(&sy->kthread, NULL, kernel_thread, sy) == 0)
		sy->kthread_on = true;
	else
		sy->kstate = 0;
}

void sym_kernel_join(struct symbolizer *sy)
{
	if (sy->kthread_on) {
		pthread_join(sy->kthread, NULL);
		sy->kthread_on = false;
	}
}

const char *sym_kernel_lookup(struct symbolizer *sy, uint64_t addr,
			      const char **mod)
{
	size_t lo;

	*mod = "[kernel.kallsyms]";
	sym_kernel_join(sy);
	if (sy->kstate == 0)
		kernel_load(sy);
	if (sy->kstate < 0)
		return NULL;
	/* KASLR: the profile's kernel may sit elsewhere than ours. */
	if (sy->ktext_recorded && sy->ktext_now)
		sy->kdelta = (int64_t)(sy->ktext_now - sy->ktext_recorded);
	addr += (uint64_t)sy->kdelta;
	lo = sym_index_count(&sy->kix, sy->ksyms, sy->nksyms,
			     sizeof(*sy->ksyms), addr);
	if (lo == 0)
		return NULL;
	{
		struct ksym *k = &sy->ksyms[lo - 1];

		/* Past the last symbol of the kernel or a module: unknown. */
		if (lo == sy->nksyms && addr - k->start > 65536)
			return NULL;
		if (lo < sy->nksyms && (k->mod == NULL) !=
		    (sy->ksyms[lo].mod == NULL) && addr - k->start > 65536)
			return NULL;
		if (k->mod)
			*mod = kallsyms_string(sy, &k->mod, false);
		return kallsyms_string(sy, &k->name, true);
	}
}

/* ---- JIT maps ---------------------------------------------------------------- */

static int cmp_jit(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * A JIT map is trusted no more than its owner.  Any user can write
 * /tmp/perf-PID.map, for a pid of any process, and root reads it while it
 * samples every process (-a): a map is read only when it is a regular file
 * (no FIFO to block on, no link to follow) owned by root or by the user
 * flametop runs as, and only so much of it (JIT_MAX_*).
 */
#define JIT_MAX_BYTES ((size_t)64 << 20)   /* read of one map */
#define JIT_MAX_TOTAL ((size_t)256 << 20)  /* of every map held at once */
#define JIT_MAX_LINE 4096                  /* longer lines are skipped */
#define JIT_MAX_SYMS ((size_t)1 << 20)     /* entries kept of one map */

/* Keep the first note about the JIT maps for sym_report; count them all. */
static void jit_note(struct symbolizer *sy, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void jit_note(struct symbolizer *sy, const char *fmt, ...)
{
	va_list ap;

	if (sy->jit_notes++)
		return;
	va_start(ap, fmt);
	vsnprintf(sy->jit_msg, sizeof(sy->jit_msg), fmt, ap);
	va_end(ap);
}

/* The map's descriptor when it may be read (see above), else -1. */
static int jit_open(struct symbolizer *sy, const char *path, struct stat *sb,
		    bool quiet)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	uid_t me = geteuid();

	memset(sb, 0, sizeof(*sb));
	if (fd < 0) {
		if (errno == ELOOP && !quiet)
			jit_note(sy, "ignored %s: a symbolic link", path);
		return -1;
	}
	if (fstat(fd, sb) < 0 || !S_ISREG(sb->st_mode)) {
		if (!quiet)
			jit_note(sy, "ignored %s: not a regular file", path);
	} else if (sb->st_uid != 0 && sb->st_uid != me) {
		if (!quiet)
			jit_note(sy, "ignored %s: owned by uid %u, and only maps "
				 "owned by root or by this user (uid %u) are "
				 "read", path, (unsigned)sb->st_uid,
				 (unsigned)me);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

/* Up to want bytes of fd into j->text (NUL-terminated); j->size = length. */
static void jit_read(struct jit_map *j, int fd, size_t want)
{
	size_t len = 0;

	j->text = xmalloc(want + 1);
	while (len < want) {
		ssize_t got = read(fd, j->text + len, want - len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	j->text[len] = 0;
	j->size = len;
}

/* The "START SIZE NAME" lines of j->text (hex numbers) into j->syms. */
static void jit_parse(struct symbolizer *sy, struct jit_map *j,
		      const char *path)
{
	char *end = j->text + j->size;
	size_t capsyms = 0, long_lines = 0, dropped = 0;

	for (char *s = j->text; s < end;) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		char *le = nl ? nl : end;
		char *e1, *e2;
		unsigned long long a, sz;

		*le = 0;
		if (le - s > JIT_MAX_LINE) {
			long_lines++;
		} else if (!isxdigit((unsigned char)*s)) {
			/* not an entry (strtoull would take "-1" or " 1") */
		} else if (a = strtoull(s, &e1, 16), *e1 == ' ' &&
			   isxdigit((unsigned char)e1[1])) {
			sz = strtoull(e1 + 1, &e2, 16);
			if (*e2 == ' ' && a + sz >= a && j->n == JIT_MAX_SYMS) {
				dropped++;
			} else if (*e2 == ' ' && a + sz >= a) {
				GROW(j->syms, capsyms, j->n + 1);
				j->syms[j->n].start = a;
				j->syms[j->n].end = a + sz;
				j->syms[j->n].name = e2 + 1;
				j->syms[j->n].line = j->n;
				j->n++;
			}
		}
		s = le + 1;
	}
	if (long_lines)
		jit_note(sy, "%s: skipped %zu line%s longer than %d bytes",
			 path, long_lines, long_lines == 1 ? "" : "s",
			 JIT_MAX_LINE);
	if (dropped)
		jit_note(sy, "%s: kept its first %zu entries, skipped %zu",
			 path, JIT_MAX_SYMS, dropped);
	if (j->n)     /* qsort of NULL is undefined, even for 0 entries */
		qsort(j->syms, j->n, sizeof(*j->syms), cmp_jit);
}

static char *jit_path(const struct symbolizer *sy, uint32_t pid)
{
	return xasprintf("%s/perf-%u.map", sy->o.jit_dir ? sy->o.jit_dir :
			 "/tmp", pid);
}

/* Read pid's map (quiet: a reload, already reported). */
static struct jit_map *jit_load(struct symbolizer *sy, uint32_t pid,
				bool quiet)
{
	struct jit_map *j = xcalloc(1, sizeof(*j));
	char *path = jit_path(sy, pid);
	struct stat sb;
	int fd = jit_open(sy, path, &sb, quiet);

	j->pid = pid;
	j->checked = now_seconds();
	j->next = sy->jits;
	sy->jits = j;
	if (fd >= 0) {
		size_t want = sb.st_size > 0 ? (size_t)sb.st_size : 0;
		size_t room = JIT_MAX_TOTAL - sy->jit_bytes;

		if (want > JIT_MAX_BYTES || want > room) {
			want = JIT_MAX_BYTES < room ? JIT_MAX_BYTES : room;
			if (!quiet)
				jit_note(sy, "%s: read only its first %zu of "
					 "%llu bytes", path, want,
					 (unsigned long long)sb.st_size);
		}
		jit_read(j, fd, want);
		close(fd);
		sy->jit_bytes += j->size;
		jit_parse(sy, j, path);
	}
	/* Read or not, a reload waits for the file to change size. */
	j->seen = sb.st_size;
	free(path);
	return j;
}

static const char *jit_find(const struct jit_map *j, uint64_t addr);

const char *sym_jit_lookup(struct symbolizer *sy, uint32_t pid,
			   uint64_t addr)
{
	struct jit_map *j;
	const char *best;

	for (j = sy->jits; j; j = j->next)
		if (j->pid == pid)
			break;
	if (!j)
		j = jit_load(sy, pid, false);
	best = jit_find(j, addr);
	/* A JIT appends as it compiles: reload a grown map, once a second. */
	if (!best && now_seconds() - j->checked >= 1.0) {
		char *path = jit_path(sy, pid);
		struct stat sb;

		j->checked = now_seconds();
		if (lstat(path, &sb) == 0 && sb.st_size != j->seen) {
			sym_jit_map_forget(sy, pid);
			best = jit_find(jit_load(sy, pid, true), addr);
		}
		free(path);
	}
	return best;
}

static const char *jit_find(const struct jit_map *j, uint64_t addr)
{
	const char *best = NULL;
	size_t bestline = 0, lo;

	lo = sym_count_starting_by(j->syms, j->n, sizeof(*j->syms), addr);
	/* Later lines win: look back over the entries that may cover addr. */
	for (size_t i = lo, k = 0; i-- > 0 && k < 64; k++) {
		if (addr < j->syms[i].end &&
		    (!best || j->syms[i].line > bestline)) {
			best = j->syms[i].name;
			bestline = j->syms[i].line;
		}
	}
	return best;
}

void sym_jit_map_forget(struct symbolizer *sy, uint32_t pid)
{
	for (struct jit_map **pp = &sy->jits; *pp; pp = &(*pp)->next)
		if ((*pp)->pid == pid) {
			struct jit_map *j = *pp;

			*pp = j->next;
			sy->jit_bytes -= j->size;
			free(j->syms);
			free(j->text);
			free(j);
			return;
		}
}
