/*
 * timerange.c - "--time" specifications to absolute time ranges.
 *
 * Numbers are read as exact fixed-point values with nine decimals (seconds
 * to nanoseconds, percentages to billionths of a percent), so "0.1,0.3"
 * means exactly 100 ms to 300 ms; a percentage of the duration is computed
 * in 128 bits.
 */
#include "timerange.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define E9 1000000000ULL
#define FORMS "START,END in seconds, P%/N or P%-Q%"

static int fail(char *err, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (cap) {
		va_start(ap, fmt);
		vsnprintf(err, cap, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * A decimal number at *s ("12", "1.5", ".25") as value * 10^9; *s moves
 * past it.  Digits beyond the ninth decimal are dropped.  False if there is
 * no number or it does not fit.
 */
static bool parse_fixed(const char **s, uint64_t *out)
{
	const char *p = *s;
	uint64_t ip = 0, fp = 0;
	unsigned fd = 0;
	bool digits = false;

	while (*p >= '0' && *p <= '9') {
		if (__builtin_mul_overflow(ip, 10, &ip) ||
		    __builtin_add_overflow(ip, (uint64_t)(*p - '0'), &ip))
			return false;
		digits = true;
		p++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (fd < 9) {
				fp = fp * 10 + (uint64_t)(*p - '0');
				fd++;
			}
			digits = true;
			p++;
		}
	}
	if (!digits)
		return false;
	while (fd++ < 9)
		fp *= 10;
	if (__builtin_mul_overflow(ip, E9, &ip) ||
	    __builtin_add_overflow(ip, fp, &ip))
		return false;
	*out = ip;
	*s = p;
	return true;
}

/* first + span * pct / 100%, pct in billionths of a percent. */
static uint64_t at_percent(uint64_t first, uint64_t last, uint64_t pct)
{
	unsigned __int128 span = last >= first ? last - first : 0;

	return first + (uint64_t)(span * pct / (100 * E9));
}

static int parse_percent(const char *spec, uint64_t first, uint64_t last,
			 uint64_t *t0, uint64_t *t1, char *err, size_t cap)
{
	const char *s = spec;
	uint64_t p, q;

	if (!parse_fixed(&s, &p) || *s != '%')
		return fail(err, cap, "'%s': expected a percentage before '%%' "
			    "(%s)", spec, FORMS);
	s++;
	if (*s == '/') {
		uint64_t n = 0;

		s++;
		if (*s < '0' || *s > '9')
			return fail(err, cap, "'%s': expected a slice number "
				    "after '/'", spec);
		while (*s >= '0' && *s <= '9') {
			if (__builtin_mul_overflow(n, 10, &n) ||
			    __builtin_add_overflow(n, (uint64_t)(*s - '0'), &n))
				return fail(err, cap, "'%s': slice number is too "
					    "large", spec);
			s++;
		}
		if (*s)
			return fail(err, cap, "'%s': unexpected '%s' after the "
				    "slice number%s", spec, s,
				    *s == ',' ? " (one range only)" : "");
		if (p == 0)
			return fail(err, cap, "'%s': the slice size must be more "
				    "than 0%%", spec);
		if (n == 0)
			return fail(err, cap, "'%s': slices are numbered from 1",
				    spec);
		if (__builtin_mul_overflow(p, n, &q) || q > 100 * E9)
			return fail(err, cap, "'%s': slice %llu ends after 100%%",
				    spec, (unsigned long long)n);
		*t0 = at_percent(first, last, q - p);
		*t1 = at_percent(first, last, q);
		return 0;
	}
	if (*s != '-')
		return fail(err, cap, "'%s': expected '/N' or '-Q%%' after the "
			    "percentage (%s)", spec, FORMS);
	s++;
	if (!parse_fixed(&s, &q) || *s != '%')
		return fail(err, cap, "'%s': expected a percentage after '-'",
			    spec);
	s++;
	if (*s)
		return fail(err, cap, "'%s': unexpected '%s' after the range%s",
			    spec, s, *s == ',' ? " (one range only)" : "");
	if (p > 100 * E9 || q > 100 * E9)
		return fail(err, cap, "'%s': percentages go from 0%% to 100%%",
			    spec);
	if (p > q)
		return fail(err, cap, "'%s': the start is after the end", spec);
	*t0 = at_percent(first, last, p);
	*t1 = at_percent(first, last, q);
	return 0;
}

int timerange_parse(const char *spec, uint64_t first, uint64_t last,
		    uint64_t *t0, uint64_t *t1, char *err, size_t errcap)
{
	const char *s = spec, *comma;
	uint64_t a = 0, b = 0;
	bool has_a = false, has_b = false;

	if (!spec || !*spec)
		return fail(err, errcap, "empty time range (%s)", FORMS);
	if (strchr(spec, '%'))
		return parse_percent(spec, first, last, t0, t1, err, errcap);
	comma = strchr(spec, ',');
	if (!comma)
		return fail(err, errcap, "'%s' is not a time range (%s)", spec,
			    FORMS);
	if (strchr(comma + 1, ','))
		return fail(err, errcap, "'%s': one range only", spec);
	if (s != comma) {
		if (!parse_fixed(&s, &a) || s != comma)
			return fail(err, errcap, "'%s': the start is not a number "
				    "of seconds", spec);
		has_a = true;
	}
	s = comma + 1;
	if (*s) {
		if (!parse_fixed(&s, &b) || *s)
			return fail(err, errcap, "'%s': the end is not a number "
				    "of seconds", spec);
		has_b = true;
	}
	if (!has_a && !has_b)
		return fail(err, errcap, "'%s': give a start, an end or both",
			    spec);
	if (has_a && has_b && a > b)
		return fail(err, errcap, "'%s': the start is after the end", spec);
	if (__builtin_add_overflow(first, a, t0) ||
	    (has_b && __builtin_add_overflow(first, b, t1)))
		return fail(err, errcap, "'%s': too far from the first sample",
			    spec);
	if (!has_a)
		*t0 = first;
	if (!has_b)
		*t1 = last > *t0 ? last : *t0;
	return 0;
}

int timerange_describe(char *buf, size_t cap, uint64_t first, uint64_t t0,
		       uint64_t t1)
{
	uint64_t a = t0 > first ? t0 - first : 0;
	uint64_t b = t1 > first ? t1 - first : 0;

	/* Rounded to the ms, as the header's "time 1.500-3.000 s" is: a
	 * range ending at the last ns of a second ends at that second. */
	return snprintf(buf, cap, "%.3f-%.3f s", (double)a / 1e9,
			(double)b / 1e9);
}

int timerange_apply(struct profile *p, const char *spec, char *msg,
		    size_t cap)
{
	uint64_t first, last, t0, t1;
	char want[64], span[64];

	if (cap)
		*msg = '\0';
	if (!profile_time_bounds(p, &first, &last)) {
		fail(msg, cap, "the profile has no timestamps (perf script and "
		     "perf.data samples have them, folded stacks do not)");
		return 1;
	}
	if (timerange_parse(spec, first, last, &t0, &t1, msg, cap) < 0)
		return 2;
	profile_set_range(p, t0, t1);
	if (profile_count_range(p, t0, t1, NULL) == 0) {
		timerange_describe(want, sizeof(want), first, t0, t1);
		timerange_describe(span, sizeof(span), first, first, last);
		fail(msg, cap, "no samples in %s (the samples span %s)", want,
		     span);
	}
	return 0;
}
