/*
 * read.c - recognizing an input's format and running its reader.
 */
#include "read.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch.h"
#include "util.h"

typedef int (*reader_fn)(struct profile *, struct input *,
			 const struct read_opts *, struct diag *);

static const struct {
	enum input_format fmt;
	const char *name;
	reader_fn read;
} readers[] = {
	{ FMT_FOLDED, "folded stacks", read_folded },
	{ FMT_PERF_SCRIPT, "perf script output", read_perf_script },
	{ FMT_PERF_DATA, "perf.data", read_perf_data },
	{ FMT_PPROF, "pprof", read_pprof },
	{ FMT_CPUPROFILE, "V8 .cpuprofile", read_cpuprofile },
};

const char *read_format_name(enum input_format f)
{
	for (size_t i = 0; i < ARRAY_SIZE(readers); i++)
		if (readers[i].fmt == f)
			return readers[i].name;
	return f == FMT_PERF_DATA ? "perf.data" :
	       f == FMT_PERF_SCRIPT ? "perf script output" : "unknown";
}

static bool is_hex(int c)
{
	return isxdigit((unsigned char)c);
}

/* Does the line end in a sample count, as folded lines do? */
static bool ends_in_count(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\r'))
		i--;
	if (i == 0 || !isdigit((unsigned char)s[i - 1]))
		return false;
	while (i > 0 && (isdigit((unsigned char)s[i - 1]) || s[i - 1] == '.'))
		i--;
	return i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t');
}

/*
 * Many NUL or control bytes: not a text profile.  A few are tolerated (a
 * folded file with one bad line is still a folded file, and the line is
 * reported).
 */
static bool looks_binary(const unsigned char *s, size_t len)
{
	size_t ctl = 0, nul = 0, bad8 = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		size_t k = 0;

		nul += !c;
		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
			ctl++;
		if (c < 0x80)
			continue;
		/* A well-formed UTF-8 sequence is text; stray high bytes are not. */
		if (c >= 0xc2 && c <= 0xf4)
			k = c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
		if (k && i + k < len) {
			size_t j = 1;

			while (j <= k && (s[i + j] & 0xc0) == 0x80)
				j++;
			if (j > k) {
				i += k;
				continue;
			}
		}
		bad8++;
	}
	return nul * 10 > len || ctl * 10 > len * 3 || bad8 * 10 > len;
}

/*
 * An unindented perf script line: an event line ending in "EVENT:", or a
 * frame line "ADDR SYMBOL (MODULE)" (some perf versions do not indent).
 */
static bool script_line(const char *s, size_t n)
{
	size_t i = 0;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n > 1 && s[n - 1] == ':')
		return true;
	while (i < n && is_hex(s[i]))
		i++;
	return i > 0 && i < n && s[i] == ' ' && s[n - 1] == ')' &&
	       memmem(s, n, " (", 2);
}

/*
 * perf script output has event lines followed by indented "addr sym (dso)"
 * lines; folded lines end in a count.  The first 64 KiB decide.
 */
enum input_format read_detect(const void *buf, size_t len)
{
	const char *s = buf, *end = s + len;
	unsigned folded = 0, script = 0, lines = 0, data = 0;

	if (len >= 8 && memcmp(buf, "PERFILE2", 8) == 0)
		return FMT_PERF_DATA;
	if (len >= 8 && memcmp(buf, "2ELIFREP", 8) == 0)
		return FMT_PERF_DATA;
	if (read_pprof_detect(buf, len))
		return FMT_PPROF;
	if (looks_binary(buf, len))
		return FMT_UNKNOWN;
	if (read_cpuprofile_detect(buf, len))
		return FMT_CPUPROFILE;
	while (s < end && lines < 200) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (!nl && lines > 0)
			break;      /* a partial last line says little */
		if (!nl && n == len && len >= 4096 && !memchr(s, ':', 256))
			return FMT_FOLDED;  /* one huge first line: a deep stack */
		lines++;
		if (n >= 2 && s[0] == '#' && (s[1] == ' ' || s[1] == '#' ||
					       s[1] == '=' || s[1] == '\t')) {
			if (n > 10 && memcmp(s, "# ========", 10) == 0)
				script++;
		} else if (n && (s[0] == '\t' || s[0] == ' ')) {
			size_t i = 0;

			while (i < n && (s[i] == ' ' || s[i] == '\t'))
				i++;
			if (i < n && is_hex(s[i]))
				script++;
		} else if (n && !(n == 1 && s[0] == '\r')) {
			data++;
			if (ends_in_count(s, n))
				folded++;
			else if (memmem(s, n, ": ", 2) || script_line(s, n))
				script++;
		}
		s += n + 1;
	}
	if (script > folded)
		return FMT_PERF_SCRIPT;
	/* Only comments and blank lines: the folded reader says "no stacks". */
	if (!folded && !data)
		return FMT_FOLDED;
	return folded ? FMT_FOLDED : FMT_UNKNOWN;
}

/* Recognize in's format and run its reader (in is left open). */
static int read_input(struct profile *p, struct input *in,
		      const struct read_opts *o, struct diag *d)
{
	const void *head;
	size_t n;
	enum input_format fmt;
	int rc = -1;
	bool mixed = profile_unit_mixed(p) != NULL;

	if (o->max_input)
		input_set_limit(in, o->max_input);
	n = input_peek(in, &head, INPUT_PEEK_SIZE);
	fmt = o->force != FMT_UNKNOWN ? o->force : read_detect(head, n);
	if (n == 0 && input_error(in)) {
		diag_warn(d, "%s", input_error(in));
	} else if (n == 0) {
		diag_warn(d, "%s: empty input", input_name(in));
	} else if (fmt == FMT_UNKNOWN) {
		/*
		 * Why the bytes looked at may be too few: --max-input.  Then
		 * the input is not called unreadable: only too little of it
		 * was read to tell.
		 */
		if (input_error(in)) {
			diag_warn(d, "%s", input_error(in));
			diag_warn(d, "%s: its format is not known from the "
				  "%zu bytes read (--format names it)",
				  input_name(in), n);
		} else
			diag_warn(d, "%s: not a profile flametop can read "
				  "(expected folded stacks, perf script output, "
				  "perf.data, pprof or a V8 .cpuprofile)",
				  input_name(in));
	} else {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(readers); i++)
			if (readers[i].fmt == fmt)
				break;
		if (i == ARRAY_SIZE(readers))
			diag_warn(d, "%s: reading %s is not supported yet",
				  input_name(in), read_format_name(fmt));
		else
			rc = readers[i].read(p, in, o, d);
	}
	/* This input's weights are not those of the inputs before it. */
	if (!mixed && profile_unit_mixed(p))
		diag_warn(d, "%s: the inputs weigh different things (%s): "
			  "their weights are taken as plain numbers",
			  input_name(in), profile_unit_mixed(p));
	return rc;
}

struct fetch_opts read_fetch_opts(const struct read_opts *o)
{
	struct fetch_opts fo = o->fetch;

	fo.max_bytes = o->max_input;
	return fo;
}

enum input_format read_detect_mem(const void *buf, size_t len,
				  const struct read_opts *o)
{
	struct input *in = input_open_mem(buf, len, "");
	const void *head;
	size_t n = input_peek(in, &head, INPUT_PEEK_SIZE);
	enum input_format fmt = n == 0 ? FMT_UNKNOWN :
				o->force != FMT_UNKNOWN ? o->force :
				read_detect(head, n);

	input_close(in);
	return fmt;
}

int read_profile_mem(struct profile *p, const void *buf, size_t len,
		     const char *name, const struct read_opts *o,
		     struct diag *d)
{
	struct input *in = input_open_mem(buf, len, name);
	int rc = read_input(p, in, o, d);

	input_close(in);
	return rc;
}

int read_profile(struct profile *p, const char *path,
		 const struct read_opts *o, struct diag *d)
{
	char *err = NULL;
	struct input *in;
	int rc;

	if (fetch_is_url(path)) {
		struct fetch_opts fo = read_fetch_opts(o);
		char *body;
		size_t len;

		if (fetch_url(path, &fo, NULL, &body, &len, &err) < 0) {
			diag_warn(d, "%s", err);
			free(err);
			return -1;
		}
		rc = read_profile_mem(p, body, len, path, o, d);
		free(body);
		return rc;
	}
	in = input_open(path, &err);
	if (!in) {
		diag_warn(d, "%s", err);
		free(err);
		return -1;
	}
	rc = read_input(p, in, o, d);
	input_close(in);
	return rc;
}
