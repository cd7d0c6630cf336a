/*
 * timerange.h - time ranges written by people: "--time START,END" in
 * seconds from the first sample, and perf's percentages ("10%/2", the
 * second tenth; "10%-20%").  The result is a pair of absolute timestamps
 * for profile_set_range.  Used by the command line and the TUI.
 */
#ifndef FLAMETOP_TIMERANGE_H
#define FLAMETOP_TIMERANGE_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/*
 * Turn spec into [*t0, *t1] (ns, absolute) for a profile whose samples run
 * from first to last (ns).  Accepted:
 *
 *   START,END    seconds from the first sample ("1.5,3"); either side may
 *                be empty: ",2" is the first two seconds, "10," from 10 s
 *                to the end
 *   P%/N         the N-th slice of P percent ("10%/2": 10% to 20%)
 *   P%-Q%        from P to Q percent of the profile's duration
 *
 * Returns 0, or -1 with a one-line reason in err (cap bytes).  The spec is
 * checked the same way whatever first and last are, so calling it with
 * (0, 0) validates an option before the input is read.
 */
int timerange_parse(const char *spec, uint64_t first, uint64_t last,
		    uint64_t *t0, uint64_t *t1, char *err, size_t errcap);

/*
 * Describe [t0, t1] relative to first as "1.500-3.000 s", in seconds
 * rounded to the ms: every message, header and error that names a range
 * writes it with this.  Returns the length written (as snprintf).
 */
int timerange_describe(char *buf, size_t cap, uint64_t first, uint64_t t0,
		       uint64_t t1);

/*
 * Show only the samples of p (finished) in spec's range.  Returns 0 (msg
 * empty, or a warning such as "no samples in 1.000s-2.000s"), 1 when the
 * profile has no timestamps, 2 for a bad spec; msg says why.
 */
int timerange_apply(struct profile *p, const char *spec, char *msg,
		    size_t cap);

#endif
