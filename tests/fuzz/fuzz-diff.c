/*
 * fuzz-diff.c - --diff BEFORE AFTER on arbitrary bytes: two inputs split
 * from one buffer, read as flametop reads them (any format, each side its
 * own), then normalized, swapped, exported and tabled as --diff does.
 *
 * Input: a flags byte, BEFORE's length (4 bytes, little-endian; cut to
 * what follows), BEFORE, then AFTER.  Flags: 1 --normalize, 2 --negate,
 * 4 and 8 a --time range (seconds, then percent).  No file of this
 * machine is read for symbols (see fuzz-perf-data.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "diff.h"
#include "export.h"
#include "fuzz-common.h"
#include "options.h"
#include "profile.h"
#include "symbols.h"

static void show(const struct profile *p, bool negated, FILE *null)
{
	struct text_opts t = { .width = 80, .zoom = NODE_ROOT };
	struct diff_top_row *rows;
	struct diff_info di;
	char buf[256];
	size_t n = diff_top_rows(p, negated, &rows);

	export_collapse(null, p);
	export_text(null, p, &t);
	diff_print_top(null, p, 10);
	diff_info(p, NODE_ROOT, negated, &di);
	for (unsigned terse = 0; terse <= 3; terse++)
		diff_describe(p, NODE_ROOT, negated, terse, buf, sizeof(buf));
	free(rows);
	(void)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	const char *files[2];
	char before[160], after[160];
	struct profile *p = NULL;
	struct diag d;
	uint32_t blen;
	uint8_t flags;
	FILE *null;
	const char *dir;

	if (size < 5)
		return 0;
	flags = data[0];
	memcpy(&blen, data + 1, 4);
	data += 5;
	size -= 5;
	if (blen > size)
		blen = (uint32_t)size;
	fuzz_quiet_stderr();
	fuzz_no_machine_files(NULL);
	setenv("FLAMETOP_THREADS", "1", 1);
	fuzz_write_file("before", data, blen);
	dir = fuzz_write_file("after", data + blen, size - blen);
	snprintf(before, sizeof(before), "%s/before", dir);
	snprintf(after, sizeof(after), "%s/after", dir);
	memset(&c, 0, sizeof(c));
	files[0] = before;
	files[1] = after;
	c.files = files;
	c.nfiles = 2;
	c.diff = true;
	c.read.max_input = (uint64_t)16 << 20;   /* bombs: fuzz-folded's */
	if (flags & 4)
		c.time = "0.001,0.5";
	else if (flags & 8)
		c.time = "10%/2";
	diag_init(&d);
	null = fopen("/dev/null", "w");
	if (null && diff_load(&c, &d, &p) == 0) {
		struct profile *show_p, *norm = NULL, *neg = NULL;

		profile_finish(p);
		show_p = p;
		if (flags & 1)
			show_p = norm = diff_normalize(p);
		if (flags & 2)
			show_p = neg = diff_swap(show_p);
		show(show_p, flags & 2, null);
		profile_destroy(neg);
		profile_destroy(norm);
	}
	if (null)
		fclose(null);
	profile_destroy(p);
	fuzz_diag_done(&d);
	return 0;
}
