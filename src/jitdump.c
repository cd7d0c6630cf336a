/*
 * jitdump.c - reading jit-PID.dump files (jitdump.h).
 *
 * Every code load and every move becomes a struct jd_code: its address
 * range and the time span it is valid in ([t_from, t_to): t_to is the time
 * it moved away, else never).  A lookup keeps, of the pieces that cover
 * the address and are valid at the time asked, the one loaded last: a
 * runtime that reuses an address loads new code there, and the new load
 * wins from its time on, while samples taken before it keep the old name.
 *
 * The pieces are kept in file order and found through an index sorted by
 * start address, with the running maximum of the ends beside it: a lookup
 * binary-searches the last piece starting at or below the address and
 * walks back only while some earlier piece may still reach it.  The index
 * is rebuilt when a lookup finds new pieces since the last one.
 *
 * Names live in one pool (offsets, as it grows), the file names of debug
 * lines once each in a symbol table; debug lines are kept as offsets from
 * the start of their code, so a moved piece shares the lines of the piece
 * it was moved from.
 *
 * The record layout (all in the writer's byte order):
 *   header:  u32 magic 'JiTD', u32 version, u32 total_size, u32 elf_mach,
 *            u32 pad, u32 pid, u64 timestamp, u64 flags
 *   prefix:  u32 id, u32 total_size, u64 timestamp
 *   LOAD:    u32 pid, tid; u64 vma, code_addr, code_size, code_index;
 *            char name[] (NUL-terminated); code bytes
 *   MOVE:    u32 pid, tid; u64 vma, old_code_addr, new_code_addr,
 *            code_size, code_index
 *   DEBUG:   u64 code_addr, nr_entry; nr_entry x { u64 addr; s32 line;
 *            s32 discrim; char file[] } ("\xff" alone: the previous file)
 *   CLOSE:   nothing
 *   UNWIND:  u64 unwinding_size, eh_frame_hdr_size, mapped_size;
 *            u8 data[unwinding_size]
 */
#include "jitdump.h"

#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symtab.h"
#include "util.h"

#define JD_MAGIC 0x4A695444u          /* "JiTD" read in the writer's order */
#define JD_MAGIC_SWAPPED 0x4454694Au
#define JD_HEADER_SIZE 40             /* the fields of version 1 */
#define JD_PREFIX_SIZE 16
#define JD_FLAG_ARCH_TIMESTAMP 1u

enum {
	JD_LOAD = 0,
	JD_MOVE = 1,
	JD_DEBUG_INFO = 2,
	JD_CLOSE = 3,
	JD_UNWINDING_INFO = 4,
};

/* Limits against hostile dumps (a dump is any user's file). */
#define JD_MAX_RECORD ((uint64_t)64 << 20)  /* debug or unwinding info */
#define JD_MAX_NAME ((uint64_t)1 << 20)     /* bytes of a name */
#define JD_MAX_CODES ((size_t)1 << 22)      /* pieces of code kept */
#define JD_MAX_POOL ((size_t)256 << 20)     /* bytes of names kept */
#define JD_MAX_LINES ((size_t)1 << 24)      /* debug lines kept */
#define JD_MAX_FILES ((uint32_t)1 << 20)    /* distinct file names kept */
#define JD_RECOVER_BUDGET ((uint64_t)1 << 24) /* names compared, in all */

#define JD_FILE_NONE UINT32_MAX            /* a line of no known file */

struct jd_code {
	uint64_t start, end;
	uint64_t t_from, t_to;
	uint64_t index;            /* the runtime's code_index */
	size_t name;               /* offset in pool */
	size_t line0, nlines;      /* its debug lines */
	size_t unwind;             /* 1 + index in unw, 0: none */
	uint64_t bytes_off;        /* where the load record holds its code */
	uint64_t nbytes;           /* bytes of it there (0: none) */
};

struct jd_line {
	uint64_t off;              /* from the start of the code */
	uint32_t line;
	uint32_t file;             /* id in files, or JD_FILE_NONE */
};

/* A debug line's file name. */
struct jd_file {
	bool freed;                /* written from freed memory (NULs inside) */
	uint32_t whole;            /* freed: the name it was (file_whole), or
	                              JD_FILE_NONE */
	uint32_t tried;            /* freed: names known when last tried */
};

struct jd_unw {
	uint8_t *data;
	uint64_t size, hdr_size, mapped;
};

enum jd_state { JD_NO_HEADER, JD_READING, JD_STOPPED, JD_REJECTED };

struct jitdump {
	char *name;
	int fd;                    /* -1: reading mem */
	uint8_t *mem;
	size_t memlen;
	uint32_t want_pid;
	enum jd_state state;
	struct jitdump_info info;
	uint64_t off;              /* the next record */
	bool finished;
	char reject[160];          /* why the dump is not read */

	struct jd_code *codes;
	size_t ncodes, capcodes;
	uint32_t *order;           /* codes by start */
	uint64_t *maxend;          /* max end of order[0..i] */
	size_t norder;             /* codes in the index */
	char *pool;
	size_t npool, cappool;
	struct jd_line *lines;
	size_t nlines, caplines;
	struct symtab *files;      /* the debug lines' file names */
	struct jd_file *finfo;     /* by id in files */
	size_t capfinfo;
	size_t file_bytes;
	uint64_t recover_budget;   /* names file_recover may still compare */
	struct jd_unw *unw;
	size_t nunw, capunw;

	/* Info records wait for the load of their code. */
	bool dbg_pending;
	uint64_t dbg_addr;
	size_t dbg_line0;
	size_t unw_pending;        /* 1 + index in unw, 0: none */

	/* What was skipped. */
	uint64_t skipped, skipped_bytes;
	uint64_t first_off;
	char first_why[120];
};

/* ---- Bytes --------------------------------------------------------------- */

static uint64_t src_size(const struct jitdump *jd)
{
	struct stat sb;

	if (jd->fd < 0)
		return jd->memlen;
	if (fstat(jd->fd, &sb) < 0 || sb.st_size < 0)
		return 0;
	return (uint64_t)sb.st_size;
}

/* n bytes at off into buf: true when all of them were there. */
static bool src_read(const struct jitdump *jd, uint64_t off, void *buf,
		     size_t n)
{
	if (jd->fd >= 0)
		return pread_full(jd->fd, buf, n, off) == n;
	if (off > jd->memlen || n > jd->memlen - off)
		return false;
	memcpy(buf, jd->mem + off, n);
	return true;
}

static uint32_t get32(const struct jitdump *jd, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return jd->info.swapped ? bswap_32(v) : v;
}

static uint64_t get64(const struct jitdump *jd, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return jd->info.swapped ? bswap_64(v) : v;
}

/* ---- Opening ------------------------------------------------------------- */

static struct jitdump *jd_new(const char *name, uint32_t pid)
{
	struct jitdump *jd = xcalloc(1, sizeof(*jd));

	jd->name = xstrdup(name);
	jd->fd = -1;
	jd->want_pid = pid;
	jd->recover_budget = JD_RECOVER_BUDGET;
	return jd;
}

struct jitdump *jitdump_open(const char *path, uint32_t pid, char *err,
			     size_t cap)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	uid_t me = geteuid();
	struct jitdump *jd;
	struct stat sb;

	if (fd < 0) {
		snprintf(err, cap, "%s: %s", path, errno == ELOOP ?
			 "a symbolic link, not read" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		snprintf(err, cap, "%s: not a regular file", path);
	} else if (sb.st_uid != 0 && sb.st_uid != me) {
		snprintf(err, cap, "%s: owned by uid %u, and only dumps owned "
			 "by root or by this user (uid %u) are read", path,
			 (unsigned)sb.st_uid, (unsigned)me);
	} else {
		jd = jd_new(path, pid);
		jd->fd = fd;
		return jd;
	}
	close(fd);
	return NULL;
}

struct jitdump *jitdump_open_mem(const void *buf, size_t len,
				 const char *name, uint32_t pid)
{
	struct jitdump *jd = jd_new(name, pid);

	jd->mem = xmalloc(len);
	if (len)
		memcpy(jd->mem, buf, len);
	jd->memlen = len;
	return jd;
}

void jitdump_close(struct jitdump *jd)
{
	if (!jd)
		return;
	if (jd->fd >= 0)
		close(jd->fd);
	for (size_t i = 0; i < jd->nunw; i++)
		free(jd->unw[i].data);
	free(jd->unw);
	free(jd->lines);
	if (jd->files)
		symtab_destroy(jd->files);
	free(jd->finfo);
	free(jd->pool);
	free(jd->order);
	free(jd->maxend);
	free(jd->codes);
	free(jd->mem);
	free(jd->name);
	free(jd);
}

const struct jitdump_info *jitdump_info(const struct jitdump *jd)
{
	return jd->state == JD_READING || jd->state == JD_STOPPED ?
	       &jd->info : NULL;
}

const char *jitdump_name(const struct jitdump *jd)
{
	return jd->name;
}

size_t jitdump_count(const struct jitdump *jd)
{
	return jd->ncodes;
}

/* ---- Reading ------------------------------------------------------------- */

/* A record of size bytes at off was skipped, for why. */
static void skip(struct jitdump *jd, uint64_t off, uint64_t size,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void skip(struct jitdump *jd, uint64_t off, uint64_t size,
		 const char *fmt, ...)
{
	va_list ap;

	if (!jd->skipped++) {
		jd->first_off = off;
		va_start(ap, fmt);
		vsnprintf(jd->first_why, sizeof(jd->first_why), fmt, ap);
		va_end(ap);
	}
	jd->skipped_bytes += size;
}

/* Keep n bytes of s (and a NUL) in the pool: their offset, or SIZE_MAX. */
static size_t pool_add(struct jitdump *jd, const char *s, size_t n)
{
	size_t at = jd->npool;

	if (n >= JD_MAX_POOL - jd->npool)
		return SIZE_MAX;
	GROW(jd->pool, jd->cappool, jd->npool + n + 1);
	memcpy(jd->pool + at, s, n);
	jd->pool[at + n] = 0;
	jd->npool += n + 1;
	return at;
}

/* The header is not all there: wait for it, or give up at the end. */
static bool too_short(struct jitdump *jd)
{
	if (jd->finished) {
		snprintf(jd->reject, sizeof(jd->reject),
			 "%s: too short for a jitdump header", jd->name);
		jd->state = JD_REJECTED;
	}
	return false;
}

static bool read_header(struct jitdump *jd)
{
	uint8_t h[JD_HEADER_SIZE];
	uint32_t magic, size;

	/* The magic as soon as it is there, the rest when all of it is. */
	if (!src_read(jd, 0, h, 4))
		return too_short(jd);
	memcpy(&magic, h, sizeof(magic));
	if (magic == JD_MAGIC_SWAPPED) {
		jd->info.swapped = true;
	} else if (magic != JD_MAGIC) {
		snprintf(jd->reject, sizeof(jd->reject),
			 "%s: not a jitdump (no \"JiTD\" magic)", jd->name);
		jd->state = JD_REJECTED;
		return false;
	}
	if (!src_read(jd, 0, h, sizeof(h)))
		return too_short(jd);
	jd->info.version = get32(jd, h + 4);
	size = get32(jd, h + 8);
	jd->info.elf_mach = get32(jd, h + 12);
	jd->info.pid = get32(jd, h + 20);
	jd->info.timestamp = get64(jd, h + 24);
	jd->info.flags = get64(jd, h + 32);
	jd->info.arch_timestamp = jd->info.flags & JD_FLAG_ARCH_TIMESTAMP;
	if (size < JD_HEADER_SIZE || size > 4096) {
		snprintf(jd->reject, sizeof(jd->reject),
			 "%s: bad jitdump header size %u", jd->name, size);
		jd->state = JD_REJECTED;
		return false;
	}
	if (jd->want_pid && jd->info.pid != jd->want_pid) {
		snprintf(jd->reject, sizeof(jd->reject),
			 "%s: written by process %u, not %u: not used",
			 jd->name, jd->info.pid, jd->want_pid);
		jd->state = JD_REJECTED;
		return false;
	}
	jd->off = size;
	jd->state = JD_READING;
	return true;
}

static uint64_t record_time(const struct jitdump *jd, uint64_t t)
{
	/* CPU counter times cannot be set against the samples' clock. */
	return jd->info.arch_timestamp ? 0 : t;
}

/* Drop the info records that waited for a load that did not come. */
static void drop_pending(struct jitdump *jd)
{
	if (jd->dbg_pending)
		jd->nlines = jd->dbg_line0;
	jd->dbg_pending = false;
	jd->unw_pending = 0;
}

static struct jd_code *new_code(struct jitdump *jd)
{
	struct jd_code *c;

	GROW(jd->codes, jd->capcodes, jd->ncodes + 1);
	c = &jd->codes[jd->ncodes++];
	memset(c, 0, sizeof(*c));
	c->t_to = JITDUMP_TIME_ANY;
	return c;
}

static void rec_load(struct jitdump *jd, uint64_t off, uint64_t size,
		     uint64_t t)
{
	uint8_t b[40];
	uint64_t addr, csize, nlen;
	char *name;
	size_t at;
	struct jd_code *c;

	if (size < JD_PREFIX_SIZE + sizeof(b) + 1 ||
	    !src_read(jd, off + JD_PREFIX_SIZE, b, sizeof(b))) {
		skip(jd, off, size, "code load record of %llu bytes",
		     (unsigned long long)size);
		return;
	}
	if (get32(jd, b) != jd->info.pid) {
		skip(jd, off, size, "code load of process %u", get32(jd, b));
		return;
	}
	addr = get64(jd, b + 16);
	csize = get64(jd, b + 24);
	/* The name runs up to the code bytes (to the end if none follow). */
	nlen = size - JD_PREFIX_SIZE - sizeof(b);
	if (csize < nlen)
		nlen -= csize;
	if (nlen > JD_MAX_NAME)
		nlen = JD_MAX_NAME;
	if (addr + csize < addr || jd->ncodes >= JD_MAX_CODES) {
		skip(jd, off, size, addr + csize < addr ?
		     "code load past the end of memory" : "too many code loads");
		return;
	}
	name = xmalloc((size_t)nlen);
	if (!src_read(jd, off + JD_PREFIX_SIZE + sizeof(b), name,
		      (size_t)nlen) || !memchr(name, 0, (size_t)nlen) ||
	    (at = pool_add(jd, name, strlen(name))) == SIZE_MAX) {
		skip(jd, off, size, "code load without a name");
		free(name);
		return;
	}
	free(name);
	c = new_code(jd);
	c->start = addr;
	c->end = addr + csize;
	c->t_from = t;
	c->index = get64(jd, b + 32);
	c->name = at;
	/* The code bytes end the record, after the name's NUL. */
	if (csize && csize <= size - JD_PREFIX_SIZE - sizeof(b) - strlen(
						jd->pool + at) - 1) {
		c->bytes_off = off + size - csize;
		c->nbytes = csize;
	}
	if (jd->dbg_pending && jd->dbg_addr == addr) {
		c->line0 = jd->dbg_line0;
		c->nlines = jd->nlines - jd->dbg_line0;
		for (size_t i = c->line0; i < jd->nlines; i++)
			jd->lines[i].off -= addr;
		jd->dbg_pending = false;
	}
	if (jd->unw_pending) {
		c->unwind = jd->unw_pending;
		jd->unw_pending = 0;
	}
	drop_pending(jd);
}

static const struct jd_code *find(struct jitdump *jd, uint64_t addr,
				  uint64_t t);

static void rec_move(struct jitdump *jd, uint64_t off, uint64_t size,
		     uint64_t t)
{
	uint8_t b[48];
	uint64_t from, to, csize;
	const struct jd_code *old;
	struct jd_code *c;
	size_t i;

	if (size < JD_PREFIX_SIZE + sizeof(b) ||
	    !src_read(jd, off + JD_PREFIX_SIZE, b, sizeof(b))) {
		skip(jd, off, size, "code move record of %llu bytes",
		     (unsigned long long)size);
		return;
	}
	from = get64(jd, b + 16);
	to = get64(jd, b + 24);
	csize = get64(jd, b + 32);
	old = find(jd, from, t);
	if (!old || to + csize < to || jd->ncodes >= JD_MAX_CODES) {
		skip(jd, off, size, "move of code not loaded");
		return;
	}
	i = (size_t)(old - jd->codes);
	c = new_code(jd);      /* (may move jd->codes) */
	*c = jd->codes[i];
	jd->codes[i].t_to = t;
	c->start = to;
	c->end = to + (csize ? csize : c->end - c->start);
	c->t_from = t;
	c->t_to = JITDUMP_TIME_ANY;
	c->index = get64(jd, b + 40);
	if (c->nbytes > c->end - c->start)
		c->nbytes = c->end - c->start;
}

/* The whole record at off (size bytes, at least min), or NULL (skipped). */
static uint8_t *read_record(struct jitdump *jd, uint64_t off, uint64_t size,
			    uint64_t min, const char *what)
{
	uint8_t *r;

	if (size < min) {
		skip(jd, off, size, "%s record of %llu bytes", what,
		     (unsigned long long)size);
		return NULL;
	}
	if (size > JD_MAX_RECORD) {
		skip(jd, off, size, "%s record of %llu bytes, more than %llu",
		     what, (unsigned long long)size,
		     (unsigned long long)JD_MAX_RECORD);
		return NULL;
	}
	r = xmalloc((size_t)size);
	if (!src_read(jd, off, r, (size_t)size)) {
		skip(jd, off, size, "%s record cut short", what);
		free(r);
		return NULL;
	}
	return r;
}

/*
 * Where the file name of a debug entry that starts at r[p] ends (its NUL),
 * or 0.  Node (v20) writes some names from freed memory: the length is
 * right but NULs stand inside, so a NUL ends a name only where what
 * follows can be the next entry (an address in the code), and the last
 * name ends at the NUL before the record's zero padding.
 */
static uint64_t name_end(const struct jitdump *jd, const uint8_t *r,
			 uint64_t size, uint64_t p, uint64_t addr, bool last)
{
	uint64_t first = 0;

	if (last) {
		uint64_t z = size;

		while (z > p && !r[z - 1])
			z--;
		return z < size ? z : 0;
	}
	for (uint64_t q = p; q < size; q++) {
		uint64_t a;

		if (r[q])
			continue;
		if (!first)
			first = q;
		if (size - q - 1 < 16)
			break;
		a = get64(jd, r + q + 1);
		if (a >= addr && a - addr < ((uint64_t)1 << 30))
			return q;
	}
	return first;
}

/* The id of file name s (n bytes; freed: NULs inside), kept once;
 * JD_FILE_NONE when too many names were kept. */
static uint32_t file_add(struct jitdump *jd, const uint8_t *s, size_t n,
			 bool freed)
{
	uint32_t id;

	if (!jd->files)
		jd->files = symtab_create();
	id = symtab_find(jd->files, (const char *)s, n);
	if (id != UINT32_MAX)
		return id;
	if (symtab_count(jd->files) >= JD_MAX_FILES ||
	    n >= JD_MAX_POOL - jd->file_bytes)
		return JD_FILE_NONE;
	jd->file_bytes += n + 1;
	id = symtab_intern(jd->files, (const char *)s, n);
	GROW(jd->finfo, jd->capfinfo, (size_t)id + 1);
	jd->finfo[id] = (struct jd_file){ freed, JD_FILE_NONE, 0 };
	return id;
}

/*
 * The file name a name written from freed memory was: node (v20) writes
 * the right length, but the allocator has overwritten its first bytes.  It
 * is the whole name of that length in the dump (where the function's other
 * code names its file) that ends as it does over the most bytes, at least
 * 3, when no other ends as it does over as many; else JD_FILE_NONE.  Tried
 * again when the dump has grown new names.
 */
static uint32_t file_whole(struct jitdump *jd, uint32_t id)
{
	struct jd_file *fi;
	uint32_t count, best = JD_FILE_NONE;
	const uint8_t *s;
	size_t n, most = 2;
	bool tie = false;

	if (id == JD_FILE_NONE || !jd->finfo[id].freed)
		return id;
	fi = &jd->finfo[id];
	count = symtab_count(jd->files);
	if (fi->whole != JD_FILE_NONE || fi->tried == count)
		return fi->whole;
	fi->tried = count;
	s = (const uint8_t *)symtab_name(jd->files, id);
	n = symtab_len(jd->files, id);
	for (uint32_t i = 0; i < count && jd->recover_budget; i++) {
		const uint8_t *f;
		size_t k = 0;

		jd->recover_budget--;
		if (jd->finfo[i].freed || symtab_len(jd->files, i) != n)
			continue;
		f = (const uint8_t *)symtab_name(jd->files, i);
		while (k < n && f[n - 1 - k] == s[n - 1 - k])
			k++;
		if (k > most) {
			best = i;
			most = k;
			tie = false;
		} else if (k == most && best != JD_FILE_NONE) {
			tie = true;
		}
	}
	fi->whole = tie ? JD_FILE_NONE : best;
	return fi->whole;
}

static void rec_debug(struct jitdump *jd, uint64_t off, uint64_t size)
{
	uint8_t *r;
	uint64_t addr, nr, p = JD_PREFIX_SIZE + 16;
	uint32_t prev = JD_FILE_NONE;
	bool have_prev = false;
	size_t line0;

	if (jd->dbg_pending)       /* lines of no code: dropped */
		jd->nlines = jd->dbg_line0;
	jd->dbg_pending = false;
	line0 = jd->nlines;
	if (!(r = read_record(jd, off, size, p, "debug info")))
		return;
	addr = get64(jd, r + JD_PREFIX_SIZE);
	nr = get64(jd, r + JD_PREFIX_SIZE + 8);
	for (uint64_t k = 0; k < nr; k++) {
		uint64_t a, end, file, name;
		int32_t line;

		if (size - p < 17 || !(end = name_end(jd, r, size, p + 16,
						       addr, k + 1 == nr))) {
			skip(jd, off, size, "debug info entry %llu of %llu "
			     "cut short", (unsigned long long)k,
			     (unsigned long long)nr);
			jd->nlines = line0;
			free(r);
			return;
		}
		a = get64(jd, r + p);
		line = (int32_t)get32(jd, r + p + 8);
		name = p + 16;
		/* After the name's last NUL inside, if any. */
		for (file = end; file > name && r[file - 1]; file--)
			;
		p = end + 1;
		/* "\xff" alone: the file of the entry before. */
		if (!(r[file] == 0xff && end == file + 1) || !have_prev) {
			prev = file > name ?
			       file_add(jd, r + name, (size_t)(end - name), true) :
			       file_add(jd, r + file, (size_t)(end - file), false);
			have_prev = true;
		}
		if (line <= 0 || a < addr || jd->nlines >= JD_MAX_LINES)
			continue;
		GROW(jd->lines, jd->caplines, jd->nlines + 1);
		jd->lines[jd->nlines].off = a;   /* made relative at the load */
		jd->lines[jd->nlines].line = (uint32_t)line;
		jd->lines[jd->nlines].file = prev;
		jd->nlines++;
	}
	free(r);
	jd->dbg_pending = true;
	jd->dbg_addr = addr;
	jd->dbg_line0 = line0;
}

static void rec_unwind(struct jitdump *jd, uint64_t off, uint64_t size)
{
	uint8_t *r;
	uint64_t usize, hsize, p = JD_PREFIX_SIZE + 24;
	struct jd_unw *u;

	if (!(r = read_record(jd, off, size, p, "unwinding info")))
		return;
	usize = get64(jd, r + JD_PREFIX_SIZE);
	hsize = get64(jd, r + JD_PREFIX_SIZE + 8);
	if (usize > size - p || hsize > usize) {
		skip(jd, off, size, "unwinding info of %llu bytes in a record "
		     "of %llu", (unsigned long long)usize,
		     (unsigned long long)size);
		free(r);
		return;
	}
	GROW(jd->unw, jd->capunw, jd->nunw + 1);
	u = &jd->unw[jd->nunw++];
	u->size = usize;
	u->hdr_size = hsize;
	u->mapped = get64(jd, r + JD_PREFIX_SIZE + 16);
	u->data = xmalloc((size_t)usize);
	if (usize)
		memcpy(u->data, r + p, (size_t)usize);
	free(r);
	/*
	 * The record does not name its code: it is that of the next load.
	 * A debug info record may come between them.
	 */
	jd->unw_pending = jd->nunw;
}

size_t jitdump_update(struct jitdump *jd)
{
	size_t n = 0;
	uint64_t end;

	if (jd->state == JD_NO_HEADER && !read_header(jd))
		return 0;
	if (jd->state != JD_READING)
		return 0;
	end = src_size(jd);
	while (jd->off <= end && end - jd->off >= JD_PREFIX_SIZE) {
		uint8_t h[JD_PREFIX_SIZE];
		uint32_t id, size;
		uint64_t t, off = jd->off;

		if (!src_read(jd, off, h, sizeof(h)))
			break;
		id = get32(jd, h);
		size = get32(jd, h + 4);
		t = record_time(jd, get64(jd, h + 8));
		if (size < JD_PREFIX_SIZE) {
			/* No way to the next record: the rest is lost. */
			skip(jd, off, end - off, "record size %u, the rest "
			     "of the file not read", size);
			jd->state = JD_STOPPED;
			break;
		}
		if (size > end - off)
			break;             /* not all written yet */
		switch (id) {
		case JD_LOAD:
			rec_load(jd, off, size, t);
			break;
		case JD_MOVE:
			rec_move(jd, off, size, t);
			break;
		case JD_DEBUG_INFO:
			rec_debug(jd, off, size);
			break;
		case JD_UNWINDING_INFO:
			rec_unwind(jd, off, size);
			break;
		case JD_CLOSE:
			drop_pending(jd);
			break;
		default:
			skip(jd, off, size, "unknown record type %u", id);
			break;
		}
		jd->off = off + size;
		n++;
	}
	return n;
}

void jitdump_finish(struct jitdump *jd)
{
	uint64_t end;

	jd->finished = true;
	if (jd->state == JD_NO_HEADER)
		read_header(jd);
	jitdump_update(jd);
	end = src_size(jd);
	if (jd->state == JD_READING && end > jd->off)
		skip(jd, jd->off, end - jd->off, "record cut short at the "
		     "end of the file");
}

/* ---- Lookup -------------------------------------------------------------- */

static struct jitdump *sort_jd;     /* qsort has no argument; one thread */

static int cmp_order(const void *a, const void *b)
{
	const struct jd_code *x = &sort_jd->codes[*(const uint32_t *)a];
	const struct jd_code *y = &sort_jd->codes[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void index_codes(struct jitdump *jd)
{
	if (jd->norder == jd->ncodes)
		return;
	jd->order = xreallocarray(jd->order, jd->ncodes, sizeof(*jd->order));
	jd->maxend = xreallocarray(jd->maxend, jd->ncodes,
				   sizeof(*jd->maxend));
	for (size_t i = 0; i < jd->ncodes; i++)
		jd->order[i] = (uint32_t)i;
	sort_jd = jd;
	qsort(jd->order, jd->ncodes, sizeof(*jd->order), cmp_order);
	sort_jd = NULL;
	for (size_t i = 0; i < jd->ncodes; i++) {
		uint64_t e = jd->codes[jd->order[i]].end;

		jd->maxend[i] = i && jd->maxend[i - 1] > e ?
				jd->maxend[i - 1] : e;
	}
	jd->norder = jd->ncodes;
}

/* Is a a better answer than b (NULL) at time t? */
static bool better(const struct jd_code *a,
		   const struct jd_code *b, uint64_t t)
{
	if (t == JITDUMP_TIME_ANY) {
		/* The code still there, loaded last. */
		if ((a->t_to == JITDUMP_TIME_ANY) != (!b || b->t_to ==
						      JITDUMP_TIME_ANY))
			return a->t_to == JITDUMP_TIME_ANY;
	} else if (a->t_from > t || t >= a->t_to) {
		return false;
	}
	if (!b)
		return true;
	if (a->t_from != b->t_from)
		return a->t_from > b->t_from;
	return a > b;      /* the same time: the later record */
}

static const struct jd_code *find(struct jitdump *jd, uint64_t addr,
				  uint64_t t)
{
	const struct jd_code *best = NULL;
	size_t lo = 0, hi;

	if (jd->info.arch_timestamp)
		t = JITDUMP_TIME_ANY;
	index_codes(jd);
	hi = jd->ncodes;
	while (lo < hi) {         /* the pieces starting at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (jd->codes[jd->order[mid]].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && jd->maxend[i] > addr;) {
		const struct jd_code *c = &jd->codes[jd->order[i]];

		if (addr < c->end && better(c, best, t))
			best = c;
	}
	return best;
}

static void fill(const struct jitdump *jd, const struct jd_code *c,
		 struct jitdump_code *out)
{
	out->name = jd->pool + c->name;
	out->start = c->start;
	out->end = c->end;
	out->load_time = c->t_from;
	out->code_index = c->index;
	out->id = (size_t)(c - jd->codes);
}

static void fill_unwind(const struct jitdump *jd, const struct jd_code *c,
			struct jitdump_unwind *out)
{
	const struct jd_unw *u = &jd->unw[c->unwind - 1];

	out->data = u->data;
	out->size = u->size;
	out->eh_frame_hdr_size = u->hdr_size;
	out->mapped_size = u->mapped;
}

bool jitdump_lookup(struct jitdump *jd, uint64_t addr, uint64_t t,
		    struct jitdump_code *out)
{
	const struct jd_code *c = find(jd, addr, t);

	if (c && out)
		fill(jd, c, out);
	return c != NULL;
}

bool jitdump_code_at(struct jitdump *jd, uint64_t addr, const char *name,
		     struct jitdump_code *out)
{
	const struct jd_code *best = NULL;
	bool named = false;

	/* Any order will do: every piece is looked at. */
	for (size_t i = 0; i < jd->ncodes; i++) {
		const struct jd_code *c = &jd->codes[i];
		bool is = name && strcmp(jd->pool + c->name, name) == 0;

		if (addr < c->start || addr >= c->end || (named && !is))
			continue;
		if (!best || (is && !named) || c->t_from >= best->t_from)
			best = c;
		named = named || is;
	}
	if (best)
		fill(jd, best, out);
	return best != NULL;
}

uint8_t *jitdump_code_bytes(struct jitdump *jd, const struct jitdump_code *c,
			    size_t *len)
{
	const struct jd_code *k;
	uint8_t *b;

	*len = 0;
	if (c->id >= jd->ncodes || !(k = &jd->codes[c->id])->nbytes ||
	    k->nbytes > JD_MAX_RECORD)
		return NULL;
	b = xmalloc((size_t)k->nbytes);
	if (!src_read(jd, k->bytes_off, b, (size_t)k->nbytes)) {
		free(b);
		return NULL;
	}
	*len = (size_t)k->nbytes;
	return b;
}

bool jitdump_line(struct jitdump *jd, uint64_t addr, uint64_t t,
		  const char **file, unsigned *line)
{
	const struct jd_code *c = find(jd, addr, t);
	const struct jd_line *best = NULL;
	uint64_t off;
	uint32_t f;

	if (!c || !c->nlines)
		return false;
	off = addr - c->start;
	/* The entry of the highest address at or below addr. */
	for (size_t i = c->line0; i < c->line0 + c->nlines; i++) {
		const struct jd_line *l = &jd->lines[i];

		if (l->off <= off && (!best || l->off >= best->off))
			best = l;
	}
	if (!best || (f = file_whole(jd, best->file)) == JD_FILE_NONE)
		return false;
	*file = symtab_name(jd->files, f);
	*line = best->line;
	return true;
}

bool jitdump_unwind(struct jitdump *jd, uint64_t addr, uint64_t t,
		    struct jitdump_unwind *out, struct jitdump_code *code)
{
	const struct jd_code *c = find(jd, addr, t);

	if (!c || !c->unwind)
		return false;
	fill_unwind(jd, c, out);
	if (code)
		fill(jd, c, code);
	return true;
}

bool jitdump_unwind_next(struct jitdump *jd, size_t *pos,
			 struct jitdump_unwind *out, struct jitdump_code *code)
{
	for (; *pos < jd->ncodes; (*pos)++) {
		const struct jd_code *c = &jd->codes[*pos];

		if (c->unwind && c->t_to == JITDUMP_TIME_ANY) {
			fill_unwind(jd, c, out);
			fill(jd, c, code);
			(*pos)++;
			return true;
		}
	}
	return false;
}

bool jitdump_report(const struct jitdump *jd, struct diag *d)
{
	if (jd->state == JD_REJECTED) {
		diag_warn(d, "%s", jd->reject);
		return true;
	}
	if (!jd->skipped)
		return false;
	diag_skip(d, DIAG_RECORD, jd->skipped, jd->name,
		  "offset %llu: %s; skipped %llu record%s (%llu bytes)",
		  (unsigned long long)jd->first_off, jd->first_why,
		  (unsigned long long)jd->skipped, jd->skipped == 1 ? "" : "s",
		  (unsigned long long)jd->skipped_bytes);
	return true;
}
