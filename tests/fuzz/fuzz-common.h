/*
 * fuzz-common.h - what every reader's fuzz target does after reading:
 * finish the profile, run the exporters and the diagnostics over it (to
 * /dev/null), and free everything.
 */
#ifndef FLAMETOP_FUZZ_COMMON_H
#define FLAMETOP_FUZZ_COMMON_H

#include <stdio.h>

#include "diag.h"
#include "export.h"
#include "input.h"
#include "profile.h"

static inline void fuzz_export_and_free(struct profile *p, struct input *in,
					struct diag *d)
{
	struct text_opts t = { .width = 80, .zoom = NODE_ROOT };
	FILE *null = fopen("/dev/null", "w");

	if (null) {
		export_collapse(null, p);
		export_text(null, p, &t);
		diag_print(d, null, "fuzz");
		fclose(null);
	}
	input_close(in);
	diag_free(d);
	profile_destroy(p);
}

#endif
