/*
 * input.h - a profile's bytes: a file or standard input, plain, gzip or
 * zstd (recognized by magic bytes, not by name), read as lines or blocks.
 */
#ifndef FLAMETOP_INPUT_H
#define FLAMETOP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define INPUT_MAX_LINE_DEFAULT (64u << 20)

struct input;

/*
 * Open path ("-" is standard input).  On failure returns NULL and sets
 * *err to a malloc'd one-line message naming the file.
 */
struct input *input_open(const char *path, char **err);
/* Wrap an in-memory buffer (not copied; it must outlive the input). */
struct input *input_open_mem(const void *buf, size_t len, const char *name);
void input_close(struct input *in);

const char *input_name(const struct input *in);       /* for messages */
const char *input_compression(const struct input *in); /* "gzip", "zstd" or NULL */
bool input_is_stdin(const struct input *in);

/*
 * Stop after max bytes of (decompressed) data, with an error; 0: no limit.
 * The line the limit cuts is not handed out (its end was never read), nor
 * is the one a compressed stream's early end cuts.
 */
void input_set_limit(struct input *in, uint64_t max);
/*
 * For a compressed input that will be held whole: more than ratio times
 * the compressed bytes, and more than floor bytes, is an error that names
 * --max-input (a decompression bomb).  Not with input_set_limit's limit,
 * which the user chose instead.
 */
void input_set_ratio_limit(struct input *in, unsigned ratio, uint64_t floor);
/* Longest line accepted; longer ones are skipped and reported. */
void input_set_max_line(struct input *in, size_t max);

/*
 * The next line, without its "\n" or "\r\n".  Returns 1 with *line and *len
 * set (valid until the next call), 0 at the end, -1 on an error (see
 * input_error).  A line longer than the maximum comes back as 2 with its
 * length in *len and no text: the caller reports and skips it.
 */
int input_getline(struct input *in, const char **line, size_t *len);
uint64_t input_lineno(const struct input *in);  /* of the last line returned */

/*
 * Lines in bulk, for readers that parse many at once: returns 1 with every
 * complete line now buffered, in place ("\n" ends kept, "\r" not removed;
 * valid until the next call), exactly the lines input_getline would return
 * next without reading; the caller counts them with input_count_lines.
 * When no complete line is buffered, the next line is read as
 * input_getline reads it and returned as it would (already counted), with
 * 3 for one line; 2, 0 and -1 as input_getline.
 */
int input_getblock(struct input *in, const char **buf, size_t *len);
void input_count_lines(struct input *in, uint64_t n);
/*
 * From now on what input_getline or input_getblock returned stays valid
 * until the call after next (one more call than otherwise), so that a
 * reader may fetch the next block while threads still read the last:
 * a refill that needs the space goes on in a second buffer instead.
 */
void input_keep_last(struct input *in);

/*
 * A block fetched ahead (input_keep_last): a thread fetches the next
 * block while others still read the last, and the loop then takes it.
 */
struct input_ahead {
	bool fetched;
	int rc;
	const char *buf;
	size_t len;
};
/* input_getblock into a. */
void input_fetch_ahead(struct input *in, struct input_ahead *a);
/* The block fetched ahead, if any (a forgets it), else input_getblock. */
int input_next_block(struct input *in, struct input_ahead *a,
		     const char **buf, size_t *len);

/*
 * Look at the first bytes without consuming them: *buf gets up to want
 * bytes (fewer at the end of the input).  Only before the first read.
 * Up to INPUT_PEEK_SIZE bytes are read for it from a file.
 */
#define INPUT_PEEK_SIZE (64u << 10)
size_t input_peek(struct input *in, const void **buf, size_t want);

/* Read up to n bytes; returns the count, 0 at the end, -1 on an error. */
ssize_t input_read(struct input *in, void *buf, size_t n);
/*
 * Read everything that is left into a malloc'd buffer; NULL on an error.
 * Past input_set_limit's limit nothing is read: the error says so.
 */
void *input_slurp(struct input *in, size_t *len);
/*
 * The whole input in place, without copying, when it is a plain
 * (uncompressed) regular file or memory and nothing was read yet but a
 * peek: a read-only mapping owned by the input, its pages read from the
 * file as they are first touched.  NULL otherwise (then use input_slurp).
 */
const void *input_map(struct input *in, size_t *len);
/*
 * Read every page of input_map's mapping in at once, for a reader that
 * will touch them all (cheaper than a fault per page).
 */
void input_populate(struct input *in);
/*
 * The file descriptor input_map's mapping is of (from offset 0), for
 * reading parts of it with pread; -1 when there is no such mapping.
 */
int input_map_fd(const struct input *in);

/* The error message after a -1 (NULL if none). */
const char *input_error(const struct input *in);
/* True when the input ended early: a truncated gzip/zstd stream. */
bool input_truncated(const struct input *in);

/* Progress: raw bytes consumed so far, and the file's size (0 if unknown). */
uint64_t input_raw_offset(const struct input *in);
uint64_t input_raw_size(const struct input *in);

#endif
