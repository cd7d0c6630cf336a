/*
 * test-jitdump.c - the jitdump reader: dumps built here record by record
 * (moves, reused addresses, debug lines, bad records, the other byte
 * order, a dump growing as it is read), the dumps node and python3.13
 * wrote (tests/data/jitdump, see the README there), and the symbolizer
 * naming JIT code from a dump before a perf map.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag.h"
#include "jitdump.h"
#include "symbols.h"

/* ---- Building dumps ------------------------------------------------------ */

struct dump {
	uint8_t b[8192];
	size_t n;
	bool swap;                 /* write in the other byte order */
};

static void put(struct dump *d, const void *p, size_t n)
{
	assert_true(d->n + n <= sizeof(d->b));
	memcpy(d->b + d->n, p, n);
	d->n += n;
}

static void put32(struct dump *d, uint32_t v)
{
	if (d->swap)
		v = __builtin_bswap32(v);
	put(d, &v, 4);
}

static void put64(struct dump *d, uint64_t v)
{
	if (d->swap)
		v = __builtin_bswap64(v);
	put(d, &v, 8);
}

static void header(struct dump *d, uint32_t pid)
{
	put32(d, 0x4A695444);
	put32(d, 1);
	put32(d, 40);
	put32(d, 62);
	put32(d, 0);
	put32(d, pid);
	put64(d, 1);
	put64(d, 0);
}

static void prefix(struct dump *d, uint32_t id, uint32_t size, uint64_t t)
{
	put32(d, id);
	put32(d, size);
	put64(d, t);
}

/* A code load of pid 7 (size bytes of code, all 0x90). */
static void load(struct dump *d, uint64_t t, uint64_t addr, uint64_t size,
		 const char *name)
{
	size_t len = strlen(name) + 1;

	prefix(d, 0, (uint32_t)(16 + 40 + len + size), t);
	put32(d, 7);
	put32(d, 7);
	put64(d, addr);
	put64(d, addr);
	put64(d, size);
	put64(d, 1);
	put(d, name, len);
	for (uint64_t i = 0; i < size; i++)
		put(d, "\x90", 1);
}

static void move(struct dump *d, uint64_t t, uint64_t from, uint64_t to,
		 uint64_t size)
{
	prefix(d, 1, 16 + 48, t);
	put32(d, 7);
	put32(d, 7);
	put64(d, to);
	put64(d, from);
	put64(d, to);
	put64(d, size);
	put64(d, 1);
}

/* Debug info for code at addr: n entries (address, line, file of lens[i]
 * bytes, or strlen's when lens is NULL). */
static void debug_n(struct dump *d, uint64_t addr, size_t n,
		    const uint64_t *addrs, const int *lines, const char **files,
		    const size_t *lens)
{
	size_t size = 16 + 16, at = d->n;

	for (size_t i = 0; i < n; i++)
		size += 16 + (lens ? lens[i] : strlen(files[i])) + 1;
	prefix(d, 2, (uint32_t)((size + 7) & ~(size_t)7), 0);
	put64(d, addr);
	put64(d, n);
	for (size_t i = 0; i < n; i++) {
		put64(d, addrs[i]);
		put32(d, (uint32_t)lines[i]);
		put32(d, 0);
		put(d, files[i], (lens ? lens[i] : strlen(files[i])) + 1);
	}
	while (d->n - at < ((size + 7) & ~(size_t)7))
		put(d, "", 1);
}

static void debug(struct dump *d, uint64_t addr, size_t n,
		  const uint64_t *addrs, const int *lines, const char **files)
{
	debug_n(d, addr, n, addrs, lines, files, NULL);
}

static struct jitdump *read_dump(const struct dump *d, uint32_t pid)
{
	struct jitdump *jd = jitdump_open_mem(d->b, d->n, "x.dump", pid);

	jitdump_update(jd);
	jitdump_finish(jd);
	return jd;
}

static const char *name_at(struct jitdump *jd, uint64_t addr, uint64_t t)
{
	struct jitdump_code c;

	return jitdump_lookup(jd, addr, t, &c) ? c.name : NULL;
}

/* The one warning or skip message of jd ("" when none). */
static char *report(const struct jitdump *jd, char *buf, size_t cap)
{
	struct diag d;

	diag_init(&d);
	buf[0] = 0;
	if (jitdump_report(jd, &d)) {
		assert_int_equal(d.nfirst + d.nwarnings, 1);
		snprintf(buf, cap, "%s", d.nfirst ? d.first[0] :
			 d.warnings[0]);
	}
	diag_free(&d);
	return buf;
}

/* ---- Times and addresses ------------------------------------------------- */

static void code_moves_and_addresses_are_reused(void **state)
{
	struct dump d = { .n = 0 };
	struct jitdump *jd;

	(void)state;
	header(&d, 7);
	load(&d, 10, 0x1000, 0x100, "f");
	move(&d, 20, 0x1000, 0x2000, 0x100);
	load(&d, 30, 0x1000, 0x80, "g");
	jd = read_dump(&d, 7);
	assert_int_equal(jitdump_count(jd), 3);
	/* Before the load: nothing; then f until it moved away. */
	assert_null(name_at(jd, 0x1010, 5));
	assert_string_equal(name_at(jd, 0x1010, 10), "f");
	assert_string_equal(name_at(jd, 0x1010, 19), "f");
	assert_null(name_at(jd, 0x1010, 25));
	/* f at its new place from the move on. */
	assert_null(name_at(jd, 0x2010, 15));
	assert_string_equal(name_at(jd, 0x2010, 25), "f");
	assert_string_equal(name_at(jd, 0x20ff, 99), "f");
	assert_null(name_at(jd, 0x2100, 99));
	/* The old place holds g from its load on; any time: the latest. */
	assert_string_equal(name_at(jd, 0x1010, 30), "g");
	assert_string_equal(name_at(jd, 0x1010, JITDUMP_TIME_ANY), "g");
	assert_string_equal(name_at(jd, 0x2010, JITDUMP_TIME_ANY), "f");
	assert_null(name_at(jd, 0x1090, 35));
	jitdump_close(jd);
}

static void later_load_at_same_time_wins(void **state)
{
	struct dump d = { .n = 0 };
	struct jitdump *jd;

	(void)state;
	header(&d, 7);
	load(&d, 10, 0x1000, 0x100, "old");
	load(&d, 10, 0x1000, 0x100, "new");
	jd = read_dump(&d, 7);
	assert_string_equal(name_at(jd, 0x1000, 10), "new");
	assert_string_equal(name_at(jd, 0x1000, JITDUMP_TIME_ANY), "new");
	jitdump_close(jd);
}

static void debug_lines_follow_the_code(void **state)
{
	struct dump d = { .n = 0 };
	const uint64_t addrs[] = { 0x3000, 0x3010, 0x3030 };
	const int lines[] = { 5, 7, 9 };
	const char *files[] = { "/src/a.js", "\xff", "/src/b.js" };
	struct jitdump *jd;
	const char *file;
	unsigned line;

	(void)state;
	header(&d, 7);
	debug(&d, 0x3000, 3, addrs, lines, files);
	load(&d, 10, 0x3000, 0x40, "h");
	move(&d, 20, 0x3000, 0x5000, 0x40);
	jd = read_dump(&d, 7);
	assert_true(jitdump_line(jd, 0x3008, 15, &file, &line));
	assert_string_equal(file, "/src/a.js");
	assert_int_equal(line, 5);
	assert_true(jitdump_line(jd, 0x3020, 15, &file, &line));
	assert_string_equal(file, "/src/a.js");
	assert_int_equal(line, 7);
	/* Moved: the same lines at the new place. */
	assert_true(jitdump_line(jd, 0x5031, 25, &file, &line));
	assert_string_equal(file, "/src/b.js");
	assert_int_equal(line, 9);
	assert_false(jitdump_line(jd, 0x3008, 25, &file, &line));
	assert_string_equal(report(jd, (char[200]){ 0 }, 200), "");
	jitdump_close(jd);
}

/* Debug info for other code than the next load is not its. */
static void debug_info_of_other_code_is_dropped(void **state)
{
	struct dump d = { .n = 0 };
	const uint64_t addrs[] = { 0x3000 };
	const int lines[] = { 5 };
	const char *files[] = { "a.js" };
	struct jitdump *jd;
	const char *file;
	unsigned line;

	(void)state;
	header(&d, 7);
	debug(&d, 0x3000, 1, addrs, lines, files);
	load(&d, 10, 0x4000, 0x40, "h");
	jd = read_dump(&d, 7);
	assert_string_equal(name_at(jd, 0x4000, 10), "h");
	assert_false(jitdump_line(jd, 0x4000, 10, &file, &line));
	jitdump_close(jd);
}

/*
 * node (v20) writes the file names of some optimized code from freed
 * memory: the right length, the first 16 bytes the allocator's.  The name
 * of that length the dump holds whole that ends alike is the file (here
 * written before; node_dump: after); with two such names, or none, no
 * file is known and no line is given.
 */
/* A dump with code whose lines are in file a (and b, unless NULL), then
 * code whose file name node wrote from freed memory, at 0x4000. */
static struct jitdump *freed_dump(const char *a, const char *b)
{
	const uint64_t a1[] = { 0x3000 }, a2[] = { 0x5000 };
	const uint64_t a3[] = { 0x4000, 0x4010 };
	const int l1[] = { 2 }, l3[] = { 3, 4 };
	/* "/srv/node/app1/sort.js" (22 bytes) its first 16 overwritten;
	   then "\xff": the same file. */
	const char *freed[] = { "3Y\x02\0\0\0\0\0d\x7f\xf2\xc2\xb8\xb8\x8f\xa3"
				"ort.js", "\xff" };
	const size_t lens[] = { 22, 1 };
	struct dump d = { .n = 0 };

	header(&d, 7);
	debug(&d, 0x3000, 1, a1, l1, &a);
	load(&d, 10, 0x3000, 0x40, "JS:^sortWork");
	if (b) {
		debug(&d, 0x5000, 1, a2, l1, &b);
		load(&d, 12, 0x5000, 0x40, "JS:^other");
	}
	debug_n(&d, 0x4000, 2, a3, l3, freed, lens);
	load(&d, 20, 0x4000, 0x40, "JS:*sortWork");
	return read_dump(&d, 7);
}

static void file_names_from_freed_memory(void **state)
{
	struct jitdump *jd;
	const char *file;
	unsigned line;

	(void)state;
	jd = freed_dump("/srv/node/app1/sort.js", "/srv/node/app1/x.js");
	assert_true(jitdump_line(jd, 0x4008, 25, &file, &line));
	assert_string_equal(file, "/srv/node/app1/sort.js");
	assert_int_equal(line, 3);
	assert_true(jitdump_line(jd, 0x4018, 25, &file, &line));
	assert_string_equal(file, "/srv/node/app1/sort.js");
	assert_int_equal(line, 4);
	assert_string_equal(report(jd, (char[200]){ 0 }, 200), "");
	jitdump_close(jd);

	/* Two names end alike: which one is not known. */
	jd = freed_dump("/srv/node/app1/sort.js", "/srv/node/app2/sort.js");
	assert_string_equal(name_at(jd, 0x4008, 25), "JS:*sortWork");
	assert_false(jitdump_line(jd, 0x4008, 25, &file, &line));
	assert_true(jitdump_line(jd, 0x5008, 25, &file, &line));
	assert_string_equal(file, "/srv/node/app2/sort.js");
	jitdump_close(jd);

	/* No name of that length. */
	jd = freed_dump("/a/sort.js", NULL);
	assert_false(jitdump_line(jd, 0x4008, 25, &file, &line));
	assert_true(jitdump_line(jd, 0x3008, 15, &file, &line));
	assert_string_equal(file, "/a/sort.js");
	jitdump_close(jd);
}

/* ---- Bad input ----------------------------------------------------------- */

static void unknown_records_are_skipped_and_told(void **state)
{
	struct dump d = { .n = 0 };
	struct jitdump *jd;
	char msg[200];

	(void)state;
	header(&d, 7);
	prefix(&d, 99, 24, 0);
	put64(&d, 0);
	load(&d, 10, 0x1000, 0x10, "after");
	jd = read_dump(&d, 7);
	assert_string_equal(name_at(jd, 0x1000, 10), "after");
	assert_non_null(strstr(report(jd, msg, sizeof(msg)),
			       "x.dump: offset 40: unknown record type 99; "
			       "skipped 1 record (24 bytes)"));
	jitdump_close(jd);
}

static void bad_sizes_keep_what_came_before(void **state)
{
	struct dump d = { .n = 0 };
	struct jitdump *jd;
	char msg[200];
	size_t at;

	(void)state;
	header(&d, 7);
	load(&d, 10, 0x1000, 0x10, "good");
	/* A load whose size leaves no room for its name's NUL. */
	at = d.n;
	prefix(&d, 0, 16 + 40 + 2, 10);
	put32(&d, 7);
	put32(&d, 7);
	put64(&d, 0x2000);
	put64(&d, 0x2000);
	put64(&d, 0);
	put64(&d, 2);
	put(&d, "ab", 2);
	load(&d, 10, 0x3000, 0x10, "also good");
	/* A size smaller than a record: nothing after it can be found. */
	prefix(&d, 0, 8, 0);
	load(&d, 10, 0x4000, 0x10, "lost");
	jd = read_dump(&d, 7);
	assert_string_equal(name_at(jd, 0x1000, 10), "good");
	assert_null(name_at(jd, 0x2000, 10));
	assert_string_equal(name_at(jd, 0x3000, 10), "also good");
	assert_null(name_at(jd, 0x4000, 10));
	report(jd, msg, sizeof(msg));
	assert_non_null(strstr(msg, "code load without a name"));
	assert_non_null(strstr(msg, "skipped 2 records"));
	{
		char want[40];

		snprintf(want, sizeof(want), "offset %zu:", at);
		assert_non_null(strstr(msg, want));
	}
	jitdump_close(jd);
}

static void other_byte_order_is_read(void **state)
{
	struct dump d = { .n = 0, .swap = true };
	struct jitdump *jd;

	(void)state;
	header(&d, 7);
	load(&d, 10, 0x1000, 0x10, "swapped");
	jd = read_dump(&d, 7);
	assert_non_null(jitdump_info(jd));
	assert_true(jitdump_info(jd)->swapped);
	assert_int_equal(jitdump_info(jd)->pid, 7);
	assert_string_equal(name_at(jd, 0x100f, 10), "swapped");
	jitdump_close(jd);
}

static void other_process_or_no_dump_is_not_read(void **state)
{
	struct dump d = { .n = 0 };
	struct jitdump *jd;
	char msg[200];

	(void)state;
	header(&d, 7);
	load(&d, 10, 0x1000, 0x10, "f");
	jd = read_dump(&d, 8);
	assert_null(name_at(jd, 0x1000, 10));
	assert_null(jitdump_info(jd));
	assert_string_equal(report(jd, msg, sizeof(msg)),
			    "x.dump: written by process 7, not 8: not used");
	jitdump_close(jd);

	jd = jitdump_open_mem("PERFILE2........", 16, "x.dump", 0);
	jitdump_update(jd);
	assert_string_equal(report(jd, msg, sizeof(msg)),
			    "x.dump: not a jitdump (no \"JiTD\" magic)");
	jitdump_close(jd);

	jd = jitdump_open_mem(d.b, 20, "x.dump", 0);
	assert_int_equal(jitdump_update(jd), 0);
	assert_string_equal(report(jd, msg, sizeof(msg)), "");
	jitdump_finish(jd);
	assert_string_equal(report(jd, msg, sizeof(msg)),
			    "x.dump: too short for a jitdump header");
	jitdump_close(jd);
}

/* A dump read while it is written: each call reads the whole records. */
static void growing_dump_is_read_as_it_grows(void **state)
{
	struct dump d = { .n = 0 };
	char path[] = "/tmp/test-jitdump-XXXXXX";
	int fd = mkstemp(path);
	struct jitdump *jd;
	char err[200], msg[200];
	size_t first;

	(void)state;
	assert_true(fd >= 0);
	header(&d, 7);
	load(&d, 10, 0x1000, 0x10, "one");
	first = d.n;
	load(&d, 20, 0x2000, 0x10, "two");
	jd = jitdump_open(path, 7, err, sizeof(err));
	assert_non_null(jd);
	assert_int_equal(jitdump_update(jd), 0);            /* empty */
	assert_int_equal(write(fd, d.b, 30), 30);           /* half a header */
	assert_int_equal(jitdump_update(jd), 0);
	assert_int_equal(write(fd, d.b + 30, first + 5 - 30),
			 (ssize_t)(first + 5 - 30));        /* one and a bit */
	assert_int_equal(jitdump_update(jd), 1);
	assert_string_equal(name_at(jd, 0x1000, 10), "one");
	assert_null(name_at(jd, 0x2000, 20));
	assert_int_equal(write(fd, d.b + first + 5, d.n - first - 5),
			 (ssize_t)(d.n - first - 5));
	assert_int_equal(jitdump_update(jd), 1);
	assert_string_equal(name_at(jd, 0x2000, 20), "two");
	assert_string_equal(report(jd, msg, sizeof(msg)), "");
	/* Cut short at the end when no more will come. */
	assert_int_equal(write(fd, d.b + first, 20), 20);
	jitdump_finish(jd);
	report(jd, msg, sizeof(msg));
	assert_non_null(strstr(msg, "record cut short at the end"));
	jitdump_close(jd);
	close(fd);
	unlink(path);
}

static void links_are_not_followed(void **state)
{
	char err[200];

	(void)state;
	unlink("/tmp/test-jitdump-link.dump");
	assert_int_equal(symlink("/etc/passwd", "/tmp/test-jitdump-link.dump"),
			 0);
	assert_null(jitdump_open("/tmp/test-jitdump-link.dump", 0, err,
				 sizeof(err)));
	assert_non_null(strstr(err, "symbolic link"));
	unlink("/tmp/test-jitdump-link.dump");
}

/*
 * Anyone can write a dump that a root flametop -a reads: one owned by
 * another user than root or this one is not read, and says why; nor is a
 * FIFO, which would block.
 */
static void foreign_or_fifo_dumps_are_not_read(void **state)
{
	struct dump d = { .n = 0 };
	char path[] = "/tmp/test-jitdump-XXXXXX";
	int fd = mkstemp(path);
	struct jitdump *jd;
	char err[200];

	(void)state;
	assert_true(fd >= 0);
	header(&d, 7);
	load(&d, 10, 0x1000, 0x10, "planted");
	assert_int_equal(write(fd, d.b, d.n), (ssize_t)d.n);
	close(fd);
	if (geteuid() != 0) {
		unlink(path);
		skip();
	}
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_null(jitdump_open(path, 7, err, sizeof(err)));
	assert_non_null(strstr(err, "owned by uid 65534, and only dumps owned "
				    "by root or by this user (uid 0) are read"));
	assert_int_equal(chown(path, 0, 0), 0);
	jd = jitdump_open(path, 7, err, sizeof(err));
	assert_non_null(jd);
	assert_true(jitdump_update(jd) > 0);
	jitdump_close(jd);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_null(jitdump_open(path, 7, err, sizeof(err)));
	assert_non_null(strstr(err, "not a regular file"));
	unlink(path);
}

/*
 * The code bytes of a piece, for --disasm: the piece named as asked wins
 * over a later one of another name at the same address; a moved piece
 * keeps its bytes; a load record cut before its code has none.
 */
static void code_bytes(void **state)
{
	struct dump d = { .n = 0 };
	struct jitdump *jd;
	struct jitdump_code c;
	uint8_t *b;
	size_t n;

	(void)state;
	header(&d, 7);
	load(&d, 10, 0x1000, 6, "first");
	load(&d, 20, 0x1000, 4, "second");
	move(&d, 30, 0x1000, 0x3000, 4);
	/* A load that says 100 bytes of code and holds 3. */
	prefix(&d, 0, 16 + 40 + 6 + 3, 40);
	put32(&d, 7);
	put32(&d, 7);
	put64(&d, 0x5000);
	put64(&d, 0x5000);
	put64(&d, 100);
	put64(&d, 1);
	put(&d, "short", 6);
	put(&d, "\x90\x90\x90", 3);
	jd = read_dump(&d, 7);

	assert_true(jitdump_code_at(jd, 0x1002, "first", &c));
	assert_string_equal(c.name, "first");
	assert_int_equal(c.start, 0x1000);
	b = jitdump_code_bytes(jd, &c, &n);
	assert_non_null(b);
	assert_int_equal(n, 6);
	assert_memory_equal(b, "\x90\x90\x90\x90\x90\x90", 6);
	free(b);
	/* No name, or one no piece there has: the latest. */
	assert_true(jitdump_code_at(jd, 0x1002, NULL, &c));
	assert_string_equal(c.name, "second");
	assert_true(jitdump_code_at(jd, 0x1002, "other", &c));
	assert_string_equal(c.name, "second");
	assert_false(jitdump_code_at(jd, 0x1004, "second", &c) &&
		     strcmp(c.name, "second") == 0);
	/* Moved: the same bytes at the new place. */
	assert_true(jitdump_code_at(jd, 0x3001, "second", &c));
	assert_int_equal(c.start, 0x3000);
	b = jitdump_code_bytes(jd, &c, &n);
	assert_non_null(b);
	assert_int_equal(n, 4);
	free(b);
	/* Cut short: named, but no bytes. */
	assert_true(jitdump_code_at(jd, 0x5001, "short", &c));
	assert_null(jitdump_code_bytes(jd, &c, &n));
	assert_int_equal(n, 0);
	assert_false(jitdump_code_at(jd, 0x9000, NULL, &c));
	jitdump_close(jd);
}

/* ---- Dumps the runtimes wrote --------------------------------------------- */

static struct jitdump *read_file(const char *path)
{
	char err[200];
	struct jitdump *jd = jitdump_open(path, 0, err, sizeof(err));

	assert_non_null(jd);
	assert_true(jitdump_update(jd) > 0);
	jitdump_finish(jd);
	return jd;
}

static void node_dump(void **state)
{
	struct jitdump *jd = read_file("tests/data/jitdump/node-k1/"
				       "jit-28788.dump");
	char msg[200];
	const char *file;
	unsigned line;

	(void)state;
	assert_int_equal(jitdump_info(jd)->pid, 28788);
	/* sortWork, optimized at ...137610, and again at ...848569. */
	assert_string_equal(name_at(jd, 0x7f12e8006550, JITDUMP_TIME_ANY),
			    "JS:*sortWork /tmp/flametop-jit/sort.js:2:18");
	assert_string_equal(name_at(jd, 0x7f12e8006550, 17746333137610),
			    "JS:*sortWork /tmp/flametop-jit/sort.js:2:18");
	assert_null(name_at(jd, 0x7f12e8006550, 17746333137609));
	assert_string_equal(name_at(jd, 0x7f12e8006a50, 17746334848569),
			    "JS:*sortWork /tmp/flametop-jit/sort.js:2:18");
	assert_string_equal(name_at(jd, 0x7f12e8005e00, 17746332283237),
			    "JS:^sortWork /tmp/flametop-jit/sort.js:2:18");
	/* node writes some file names from freed memory (NULs inside):
	   the line is still read, the file is the one sortWork's baseline
	   code named. */
	assert_true(jitdump_line(jd, 0x7f12e8006580, JITDUMP_TIME_ANY, &file,
				 &line));
	assert_int_equal(line, 2);
	assert_string_equal(file, "/tmp/flametop-jit/sort.js");
	assert_string_equal(report(jd, msg, sizeof(msg)), "");
	jitdump_close(jd);
}

static void python_dump(void **state)
{
	struct jitdump *jd = read_file("tests/data/jitdump/python.dump");
	struct jitdump_unwind u;
	struct jitdump_code c;
	char msg[200];

	(void)state;
	assert_int_equal(jitdump_info(jd)->pid, 29405);
	assert_string_equal(name_at(jd, 0x7fad845628c0, 17748292412264),
			    "py::py_sort:/tmp/flametop-jit/work.py");
	assert_string_equal(name_at(jd, 0x7fad845629d5, JITDUMP_TIME_ANY),
			    "py::py_math:/tmp/flametop-jit/work.py");
	/* Each trampoline has its .eh_frame (and .eh_frame_hdr). */
	assert_true(jitdump_unwind(jd, 0x7fad845629d5, JITDUMP_TIME_ANY, &u,
				   &c));
	assert_int_equal(c.start, 0x7fad845629d0);
	assert_int_equal(u.size, 68);
	assert_int_equal(u.eh_frame_hdr_size, 20);
	assert_string_equal(report(jd, msg, sizeof(msg)), "");
	jitdump_close(jd);
}

/* ---- In the symbolizer --------------------------------------------------- */

static void write_file(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

/*
 * A process with a jitdump and a perf map: the dump names its code, the
 * map only what the dump does not know; a dump found nowhere is told once.
 */
static void dump_wins_over_perf_map(void **state)
{
	struct dump d = { .n = 0 };
	char dir[] = "/tmp/test-jitdump-XXXXXX", path[64], gone[64];
	const char map[] = "1000 100 from_map\n5000 10 only_in_map\n";
	struct symbolizer *sy;
	struct sym_opts o;
	struct diag dg;
	const char *mod;

	(void)state;
	assert_non_null(mkdtemp(dir));
	header(&d, 7);
	load(&d, 10, 0x1000, 0x100, "from_dump");
	snprintf(path, sizeof(path), "%s/jit-7.dump", dir);
	write_file(path, d.b, d.n);
	snprintf(gone, sizeof(gone), "%s/perf-7.map", dir);
	write_file(gone, map, sizeof(map) - 1);
	sym_default_opts(&o);
	o.jit_dir = dir;
	sy = sym_create(&o);
	/* Before the dump is mapped: the map. */
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, 20, &mod, NULL),
			    "from_map");
	sym_jitdump_mapped(sy, 7, path, strlen(path));
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, 20, &mod, NULL),
			    "from_dump");
	assert_string_equal(mod, path);
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x5004, 20, &mod, NULL),
			    "only_in_map");
	/* Before its load the dump knows nothing there. */
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, 5, &mod, NULL),
			    "from_map");
	/* At no time: the last load, and a note that times would help. */
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, JITDUMP_TIME_ANY,
					      &mod, NULL), "from_dump");
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1020, JITDUMP_TIME_ANY,
					      &mod, NULL), "from_dump");
	/* Not a dump's name: ignored. */
	assert_false(sym_is_jitdump("/tmp/jit-.dump", 14));
	assert_false(sym_is_jitdump("/tmp/perf-7.map", 15));
	assert_true(sym_is_jitdump("jit-12.dump", 11));
	snprintf(gone, sizeof(gone), "%s/gone/jit-9.dump", dir);
	sym_jitdump_mapped(sy, 9, gone, strlen(gone));
	assert_null(sym_jit_lookup_at(sy, 9, 0x1010, 20, &mod, NULL));
	assert_null(sym_jit_lookup_at(sy, 9, 0x1020, 20, &mod, NULL));
	diag_init(&dg);
	sym_report(sy, &dg);
	assert_int_equal(dg.nwarnings, 2);
	assert_non_null(strstr(dg.warnings[0], "jit-7.dump: the samples' "
			       "times are not on the dump's clock (record "
			       "with perf record -k 1)"));
	assert_non_null(strstr(dg.warnings[1], "jit-9.dump of process 9 not "
			       "found"));
	diag_free(&dg);
	sym_destroy(sy);
	unlink(path);
	snprintf(path, sizeof(path), "%s/perf-7.map", dir);
	unlink(path);
	rmdir(dir);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Live, a dump grows while it is read: a lookup at a time after its last
 * reading reads it again first, so new code loaded at a reused address
 * names the samples taken since, although the old code there would still
 * answer; samples from before keep the old name.  Times are the samples'
 * CLOCK_MONOTONIC.
 */
static void growing_dump_is_read_before_a_later_sample(void **state)
{
	struct dump d = { .n = 0 };
	char dir[] = "/tmp/test-jitdump-XXXXXX", path[64];
	uint64_t start = mono_ns(), later;
	struct symbolizer *sy;
	struct sym_opts o;
	const char *mod;
	size_t n0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	header(&d, 7);
	load(&d, start - 1000, 0x1000, 0x100, "old_code");
	snprintf(path, sizeof(path), "%s/jit-7.dump", dir);
	write_file(path, d.b, d.n);
	sym_default_opts(&o);
	o.jit_dir = dir;
	sy = sym_create(&o);
	sym_jitdump_mapped(sy, 7, path, strlen(path));
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, start, &mod,
					      NULL), "old_code");
	/* The runtime loads new code at the same address, then runs it. */
	n0 = d.n;
	load(&d, mono_ns(), 0x1000, 0x100, "new_code");
	f = fopen(path, "ab");
	assert_non_null(f);
	assert_int_equal(fwrite(d.b + n0, 1, d.n - n0, f), d.n - n0);
	fclose(f);
	later = mono_ns();
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, later, &mod,
					      NULL), "new_code");
	assert_string_equal(sym_jit_lookup_at(sy, 7, 0x1010, start, &mod,
					      NULL), "old_code");
	sym_destroy(sy);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(code_moves_and_addresses_are_reused),
		cmocka_unit_test(later_load_at_same_time_wins),
		cmocka_unit_test(debug_lines_follow_the_code),
		cmocka_unit_test(debug_info_of_other_code_is_dropped),
		cmocka_unit_test(file_names_from_freed_memory),
		cmocka_unit_test(unknown_records_are_skipped_and_told),
		cmocka_unit_test(bad_sizes_keep_what_came_before),
		cmocka_unit_test(other_byte_order_is_read),
		cmocka_unit_test(other_process_or_no_dump_is_not_read),
		cmocka_unit_test(growing_dump_is_read_as_it_grows),
		cmocka_unit_test(links_are_not_followed),
		cmocka_unit_test(foreign_or_fifo_dumps_are_not_read),
		cmocka_unit_test(code_bytes),
		cmocka_unit_test(node_dump),
		cmocka_unit_test(python_dump),
		cmocka_unit_test(dump_wins_over_perf_map),
		cmocka_unit_test(growing_dump_is_read_before_a_later_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
