/*
 * input.c - reading profiles from files, pipes and memory, decompressing
 * gzip and zstd on the way.
 *
 * Bytes flow raw fd -> raw buffer -> (inflate / zstd) -> data buffer, and
 * lines are cut from the data buffer in place: a line is returned as a
 * pointer into the buffer, copied only when the buffer is compacted.  The
 * format is recognized from the first bytes of the raw stream (gzip 1f 8b,
 * zstd 28 b5 2f fd); concatenated gzip members and zstd frames are read as
 * one stream, as zcat and zstdcat do.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "util.h"

#define RAW_SIZE (1u << 18)
#define DATA_SIZE (1u << 20)

enum codec { CODEC_NONE, CODEC_GZIP, CODEC_ZSTD };

struct input {
	char *name;
	int fd;                  /* -1 for memory input */
	bool close_fd, is_stdin;
	enum codec codec;

	const unsigned char *mem;    /* memory input */
	size_t memlen, mempos;

	unsigned char *raw;          /* compressed bytes waiting */
	size_t rawpos, rawlen, rawcap;
	bool raw_eof;
	uint64_t raw_off, raw_size;

	z_stream z;
	bool z_init, z_member_done;
	ZSTD_DStream *zs;
	bool zs_frame_open;

	unsigned char *data;         /* decompressed bytes */
	size_t start, end, cap;
	/*
	 * input_keep_last: the lines handed out last stay where they are
	 * during the next call, a refill going on in spare (the buffers
	 * swap at most once a call: keep_armed).
	 */
	unsigned char *spare;
	size_t sparecap;
	bool keep, keep_armed;
	bool data_eof;
	uint64_t produced, limit;
	uint64_t ratio, floor;       /* input_set_ratio_limit */
	size_t max_line;
	uint64_t lineno;
	bool started;                /* a line or block was consumed */
	bool truncated;
	bool truncated_said;         /* err is the truncation's message */
	bool cut;                    /* stopped at the limit, not the end */
	bool cut_said;               /* err is the limit's message */
	char *err;
	void *map;                   /* input_map's mapping */
	bool populated;              /* every page of it read in */
	size_t maplen;
};

static void set_err(struct input *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Keep the first error: "NAME: " followed by the formatted text. */
static void set_err(struct input *in, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (in->err)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	in->err = xasprintf("%s: %s", in->name, buf);
}

/* Buffers of size bytes: small for small memory inputs (fuzzing). */
static struct input *alloc_input(const char *name, size_t size)
{
	struct input *in = xcalloc(1, sizeof(*in));

	in->name = xstrdup(name);
	in->fd = -1;
	in->max_line = INPUT_MAX_LINE_DEFAULT;
	in->cap = size;
	in->data = xmalloc(in->cap);
	in->rawcap = size < RAW_SIZE ? size : RAW_SIZE;
	return in;
}

/* Fill the raw buffer from the fd or memory; false at its end or error. */
static bool fill_raw(struct input *in)
{
	ssize_t n;

	if (in->rawpos < in->rawlen)
		return true;
	if (in->raw_eof)
		return false;
	in->rawpos = in->rawlen = 0;
	if (in->fd < 0) {
		size_t k = in->memlen - in->mempos;

		if (k > in->rawcap)
			k = in->rawcap;
		memcpy(in->raw, in->mem + in->mempos, k);
		in->mempos += k;
		n = (ssize_t)k;
	} else {
		do
			n = read(in->fd, in->raw, in->rawcap);
		while (n < 0 && errno == EINTR);
	}
	if (n < 0) {
		set_err(in, "read error: %s", strerror(errno));
		in->raw_eof = true;
		return false;
	}
	if (n == 0) {
		in->raw_eof = true;
		return false;
	}
	in->rawlen = (size_t)n;
	in->raw_off += (uint64_t)n;
	return true;
}

static void detect_codec(struct input *in)
{
	const unsigned char *r;

	/*
	 * Read until 4 bytes are there, or the input ends.  At first no more
	 * than format detection looks at: a file that is then mapped is read
	 * no further.
	 */
	while (in->rawlen < 4 && !in->raw_eof) {
		size_t room = in->rawcap - in->rawlen;
		ssize_t n;

		if (room > INPUT_PEEK_SIZE)
			room = INPUT_PEEK_SIZE;

		if (in->fd < 0) {
			size_t k = in->memlen - in->mempos;

			if (k > room)
				k = room;
			memcpy(in->raw + in->rawlen, in->mem + in->mempos, k);
			in->mempos += k;
			n = (ssize_t)k;
		} else {
			do
				n = read(in->fd, in->raw + in->rawlen, room);
			while (n < 0 && errno == EINTR);
		}
		if (n < 0)
			set_err(in, "read error: %s", strerror(errno));
		if (n <= 0) {
			in->raw_eof = true;
			break;
		}
		in->rawlen += (size_t)n;
		in->raw_off += (uint64_t)n;
	}
	r = in->raw;
	if (in->rawlen >= 2 && r[0] == 0x1f && r[1] == 0x8b) {
		in->codec = CODEC_GZIP;
		if (inflateInit2(&in->z, 15 + 16) != Z_OK)
			fatal("cannot initialise zlib");
		in->z_init = true;
	} else if (in->rawlen >= 4 && r[0] == 0x28 && r[1] == 0xb5 &&
		   r[2] == 0x2f && r[3] == 0xfd) {
		in->codec = CODEC_ZSTD;
		in->zs = ZSTD_createDStream();
		if (!in->zs || ZSTD_isError(ZSTD_initDStream(in->zs)))
			fatal("cannot initialise zstd");
	}
}

static struct input *finish_open(struct input *in)
{
	in->raw = xmalloc(in->rawcap);
	detect_codec(in);
	return in;
}

struct input *input_open(const char *path, char **err)
{
	struct input *in;
	struct stat sb;
	int fd;

	if (strcmp(path, "-") == 0) {
		in = alloc_input("<stdin>", DATA_SIZE);
		in->fd = 0;
		in->is_stdin = true;
		if (fstat(0, &sb) == 0 && S_ISREG(sb.st_mode))
			in->raw_size = (uint64_t)sb.st_size;
		return finish_open(in);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		*err = xasprintf("%s: is a directory", path);
		close(fd);
		return NULL;
	}
	in = alloc_input(path, DATA_SIZE);
	in->fd = fd;
	in->close_fd = true;
	if (S_ISREG(sb.st_mode)) {
		in->raw_size = (uint64_t)sb.st_size;
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	return finish_open(in);
}

struct input *input_open_mem(const void *buf, size_t len, const char *name)
{
	struct input *in = alloc_input(name, len < DATA_SIZE / 16 ? 4096 : DATA_SIZE);

	in->mem = buf;
	in->memlen = len;
	in->raw_size = len;
	return finish_open(in);
}

void input_close(struct input *in)
{
	if (!in)
		return;
	if (in->map)
		munmap(in->map, in->maplen);
	if (in->close_fd)
		close(in->fd);
	if (in->z_init)
		inflateEnd(&in->z);
	ZSTD_freeDStream(in->zs);
	free(in->raw);
	free(in->data);
	free(in->spare);
	free(in->name);
	free(in->err);
	free(in);
}

const char *input_name(const struct input *in) { return in->name; }
bool input_is_stdin(const struct input *in) { return in->is_stdin; }
void input_set_limit(struct input *in, uint64_t max) { in->limit = max; }

void input_set_ratio_limit(struct input *in, unsigned ratio, uint64_t floor)
{
	in->ratio = ratio;
	in->floor = floor;
}
void input_set_max_line(struct input *in, size_t max) { in->max_line = max; }
uint64_t input_lineno(const struct input *in) { return in->lineno; }
const char *input_error(const struct input *in) { return in->err; }
bool input_truncated(const struct input *in) { return in->truncated; }
uint64_t input_raw_offset(const struct input *in) { return in->raw_off; }
uint64_t input_raw_size(const struct input *in) { return in->raw_size; }

const char *input_compression(const struct input *in)
{
	switch (in->codec) {
	case CODEC_GZIP: return "gzip";
	case CODEC_ZSTD: return "zstd";
	default: return NULL;
	}
}

/* Decompress (or copy) up to room bytes to dst; 0 at the end. */
/*
 * Plain input from a descriptor, once nothing waits in the raw buffer:
 * read straight into dst, saving a copy of every byte.
 */
static size_t read_direct(struct input *in, unsigned char *dst, size_t room)
{
	ssize_t n;

	do
		n = read(in->fd, dst, room);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		set_err(in, "read error: %s", strerror(errno));
		in->raw_eof = true;
		return 0;
	}
	if (n == 0) {
		in->raw_eof = true;
		return 0;
	}
	in->raw_off += (uint64_t)n;
	return (size_t)n;
}

static size_t produce(struct input *in, unsigned char *dst, size_t room)
{
	for (;;) {
		if (in->err)
			return 0;
		if (in->codec == CODEC_NONE) {
			size_t k;

			if (in->fd >= 0 && in->rawpos == in->rawlen &&
			    !in->raw_eof)
				return read_direct(in, dst, room);
			if (!fill_raw(in))
				return 0;
			k = in->rawlen - in->rawpos;
			if (k > room)
				k = room;
			memcpy(dst, in->raw + in->rawpos, k);
			in->rawpos += k;
			return k;
		}
		if (!fill_raw(in)) {
			bool open = in->codec == CODEC_GZIP ? !in->z_member_done
							    : in->zs_frame_open;
			if (open) {
				in->truncated = true;
				in->truncated_said = !in->err;
				set_err(in, "%s stream is truncated",
					in->codec == CODEC_GZIP ? "gzip" : "zstd");
			}
			return 0;
		}
		if (in->codec == CODEC_GZIP) {
			int rc;
			size_t got;

			if (in->z_member_done) {
				/* Another member follows: start it afresh. */
				if (inflateReset(&in->z) != Z_OK)
					fatal("zlib reset failed");
				in->z_member_done = false;
			}
			in->z.next_in = in->raw + in->rawpos;
			in->z.avail_in = (uInt)(in->rawlen - in->rawpos);
			in->z.next_out = dst;
			in->z.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
			rc = inflate(&in->z, Z_NO_FLUSH);
			in->rawpos = in->rawlen - in->z.avail_in;
			got = (size_t)(in->z.next_out - dst);
			if (rc == Z_STREAM_END) {
				in->z_member_done = true;
			} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
				set_err(in, "corrupt gzip data: %s",
					in->z.msg ? in->z.msg : "inflate failed");
				return 0;
			}
			if (got)
				return got;
		} else {
			ZSTD_inBuffer ib = { in->raw, in->rawlen, in->rawpos };
			ZSTD_outBuffer ob = { dst, room, 0 };
			size_t rc = ZSTD_decompressStream(in->zs, &ob, &ib);

			in->rawpos = ib.pos;
			if (ZSTD_isError(rc)) {
				set_err(in, "corrupt zstd data: %s",
					ZSTD_getErrorName(rc));
				return 0;
			}
			in->zs_frame_open = rc != 0;
			if (ob.pos)
				return ob.pos;
		}
	}
}

/*
 * Would got more bytes take a compressed input past input_set_ratio_limit?
 * Then the input fails (an error, not a truncation: what came is not
 * read), naming the option that lifts the limit.  The compressed bytes
 * counted are those consumed, not those read ahead.
 */
static bool over_ratio(struct input *in, size_t got)
{
	uint64_t used, allowed;

	if (!in->ratio || in->limit || in->codec == CODEC_NONE)
		return false;
	used = in->raw_off - (in->rawlen - in->rawpos);
	allowed = used > UINT64_MAX / in->ratio ? UINT64_MAX : used * in->ratio;
	if (allowed < in->floor)
		allowed = in->floor;
	if (in->produced + got <= allowed)
		return false;
	set_err(in, "decompresses to more than %llu MiB (%llu:1); raise "
		"--max-input to read it", (unsigned long long)(allowed >> 20),
		(unsigned long long)((in->produced + got) / (used ? used : 1)));
	return true;
}

/* The limit's message, ending in what became of the input. */
static void say_limit(struct input *in, const char *what)
{
	free(in->err);
	in->err = xasprintf("%s: input is larger than --max-input (%llu bytes)%s",
			    in->name, (unsigned long long)in->limit, what);
	in->cut_said = true;
}

/* Append decompressed bytes at in->end; false when nothing more comes. */
static bool more_data(struct input *in)
{
	size_t got;

	if (in->data_eof)
		return false;
	if (in->end == in->cap) {
		if (in->start > 0 && in->keep_armed) {
			/* The kept lines stay put: the rest goes on in spare. */
			unsigned char *t = in->spare;
			size_t tcap = in->sparecap;

			if (tcap < in->cap) {
				free(t);
				tcap = in->cap;
				t = xmalloc(tcap);
			}
			memcpy(t, in->data + in->start, in->end - in->start);
			in->spare = in->data;
			in->sparecap = in->cap;
			in->data = t;
			in->cap = tcap;
			in->end -= in->start;
			in->start = 0;
			in->keep_armed = false;
		} else if (in->start > 0) {
			memmove(in->data, in->data + in->start, in->end - in->start);
			in->end -= in->start;
			in->start = 0;
		} else {
			in->cap *= 2;
			in->data = xrealloc(in->data, in->cap);
		}
	}
	got = produce(in, in->data + in->end, in->cap - in->end);
	if (got && over_ratio(in, got))
		got = 0;
	if (got && in->limit && in->produced + got > in->limit) {
		got = in->produced < in->limit ? (size_t)(in->limit - in->produced) : 0;
		in->cut = true;
		if (!in->err)
			say_limit(in, "; stopped there");
	}
	in->produced += got;
	in->end += got;
	if (!got)
		in->data_eof = true;
	return got > 0;
}

size_t input_peek(struct input *in, const void **buf, size_t want)
{
	while (in->end - in->start < want && more_data(in))
		;
	*buf = in->data + in->start;
	return in->end - in->start < want ? in->end - in->start : want;
}

static int getline_in(struct input *in, const char **line, size_t *len);

/*
 * A stream's early end cut a line: the message says it is not read.  (Not
 * which line: a reader that fetches ahead counts the lines of a block
 * after the next one is fetched.)
 */
static void say_cut_line(struct input *in)
{
	char *was = in->err;

	if (!in->truncated_said)
		return;
	in->err = xasprintf("%s: the line it cuts is not read", was);
	in->truncated_said = false;
	free(was);
}

void input_keep_last(struct input *in)
{
	in->keep = true;
}

int input_getline(struct input *in, const char **line, size_t *len)
{
	in->keep_armed = in->keep;
	return getline_in(in, line, len);
}

static int getline_in(struct input *in, const char **line, size_t *len)
{
	size_t scan = in->start;
	bool skipping = false;
	uint64_t skipped = 0;

	for (;;) {
		unsigned char *nl = memchr(in->data + scan, '\n', in->end - scan);

		if (nl) {
			size_t n = (size_t)(nl - (in->data + in->start));
			const char *s = (const char *)in->data + in->start;

			in->start += n + 1;
			in->lineno++;
			if (skipping) {
				*line = NULL;
				*len = (size_t)(skipped + n);
				return 2;
			}
			if (n && s[n - 1] == '\r')
				n--;
			*line = s;
			*len = n;
			return 1;
		}
		if (!skipping && in->end - in->start > in->max_line) {
			/* Too long: drop what we have and look for its end. */
			skipping = true;
		}
		if (skipping) {
			skipped += in->end - in->start;
			in->start = in->end;
		}
		scan = in->end;
		{
			size_t off = scan - in->start;

			if (!more_data(in)) {
				/*
				 * A line the limit or a stream's early end cut
				 * is not the input's: its end (a count's last
				 * digits) was never read.
				 */
				if ((in->cut || in->truncated) && !skipping &&
				    in->start < in->end) {
					in->start = in->end;
					say_cut_line(in);
				}
				if (in->start == in->end && !skipping)
					return in->err && !in->truncated ? -1 : 0;
				/* The last line has no newline. */
				*len = in->end - in->start;
				*line = (const char *)in->data + in->start;
				in->start = in->end;
				in->lineno++;
				if (skipping) {
					*line = NULL;
					*len = (size_t)(skipped + *len);
					return 2;
				}
				if (*len && (*line)[*len - 1] == '\r')
					(*len)--;
				return 1;
			}
			scan = in->start + off;
		}
	}
}

int input_getblock(struct input *in, const char **buf, size_t *len)
{
	const unsigned char *nl = NULL;
	int r;

	in->keep_armed = in->keep;
	if (in->start < in->end)
		nl = memrchr(in->data + in->start, '\n', in->end - in->start);
	if (nl) {
		/* input_getline would find each of these ends without reading. */
		size_t n = (size_t)(nl + 1 - (in->data + in->start));

		*buf = (const char *)in->data + in->start;
		*len = n;
		in->start += n;
		return 1;
	}
	r = getline_in(in, buf, len);
	return r == 1 ? 3 : r;
}

void input_count_lines(struct input *in, uint64_t n)
{
	in->lineno += n;
}

void input_fetch_ahead(struct input *in, struct input_ahead *a)
{
	a->rc = input_getblock(in, &a->buf, &a->len);
	a->fetched = true;
}

int input_next_block(struct input *in, struct input_ahead *a,
		     const char **buf, size_t *len)
{
	if (!a->fetched)
		return input_getblock(in, buf, len);
	a->fetched = false;
	*buf = a->buf;
	*len = a->len;
	return a->rc;
}

ssize_t input_read(struct input *in, void *buf, size_t n)
{
	size_t have = in->end - in->start;

	if (!have && !more_data(in))
		return in->err && !in->truncated ? -1 : 0;
	have = in->end - in->start;
	if (n > have)
		n = have;
	memcpy(buf, in->data + in->start, n);
	in->start += n;
	return (ssize_t)n;
}

void input_populate(struct input *in)
{
	if (!in->map || in->populated)
		return;
	/* A kernel before 5.14 says EINVAL: the pages come as touched. */
	madvise(in->map, in->maplen, MADV_POPULATE_READ);
	in->populated = true;
}

const void *input_map(struct input *in, size_t *len)
{
	if (in->codec != CODEC_NONE || in->start != 0 || in->limit ||
	    in->produced > in->end)
		return NULL;
	if (in->fd < 0) {
		*len = in->memlen;
		return in->mem;
	}
	if (in->raw_size == 0 || in->raw_size > SIZE_MAX)
		return NULL;
	if (!in->map) {
		void *m = mmap(NULL, (size_t)in->raw_size, PROT_READ,
			       MAP_PRIVATE, in->fd, 0);

		if (m == MAP_FAILED)
			return NULL;
		in->map = m;
		in->maplen = (size_t)in->raw_size;
	}
	*len = in->maplen;
	return in->map;
}

int input_map_fd(const struct input *in)
{
	return in->map ? in->fd : -1;
}

void *input_slurp(struct input *in, size_t *len)
{
	size_t cap = 1u << 20, n = 0;
	unsigned char *buf = xmalloc(cap);

	for (;;) {
		ssize_t k;

		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		k = input_read(in, buf + n, cap - n);
		if (k < 0) {
			/* Not "stopped there": nothing of it is read. */
			if (in->cut_said)
				say_limit(in, ": not read (this format is read "
					  "whole)");
			free(buf);
			return NULL;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	*len = n;
	return buf;
}
