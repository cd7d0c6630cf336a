/*
 * read-common.c - what every reader uses: the whole input held in memory
 * (bounded against decompression bombs), how a reader ends, its thread
 * count and progress.  read.c runs the readers and the readers call these,
 * never read.c.
 */
#include "read.h"

#include <stdlib.h>
#include <unistd.h>

const void *read_whole(struct input *in, size_t *len, void **owned,
		       struct diag *d)
{
	const void *b = input_map(in, len);

	*owned = NULL;
	input_set_ratio_limit(in, READ_WHOLE_RATIO, READ_WHOLE_FLOOR);
	if (!b)
		b = *owned = input_slurp(in, len);
	if (!b) {
		diag_warn(d, "%s", input_error(in) ? input_error(in)
						   : "cannot read input");
		return NULL;
	}
	if (input_error(in))
		diag_warn(d, "%s", input_error(in));
	return b;
}

int read_done(struct diag *d, const char *name, bool added,
	      const uint64_t *before, const char *empty)
{
	char what[128];

	if (added)
		return 0;
	if (diag_skipped(d, before, what, sizeof(what)))
		diag_warn(d, "%s: no usable sample: %s skipped", name, what);
	else if (empty)
		diag_warn(d, "%s: %s", name, empty);
	return -1;
}

unsigned read_thread_count(unsigned max, bool *set)
{
	const char *e = getenv("FLAMETOP_THREADS");
	long n = e && *e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	*set = e && *e;
	if (n < 1)
		n = 1;
	return n > (long)max ? max : (unsigned)n;
}

size_t read_test_batch_bytes(void)
{
	const char *b = getenv("FLAMETOP_BATCH_BYTES");
	long n = b && *b ? strtol(b, NULL, 10) : 0;

	return n > 0 ? (size_t)n : 0;
}

void read_report_progress(const struct read_opts *o, struct input *in)
{
	if (o && o->progress)
		o->progress(o->progress_ctx, input_raw_offset(in),
			    input_raw_size(in));
}
