/*
 * textfmt.h - frame names made safe and fitted for a terminal.
 *
 * Names come from profiles, which may come from anywhere: control
 * characters, escape sequences and invalid UTF-8 are shown as "\xNN" and
 * never sent raw.  Without a UTF-8 locale every byte outside printable
 * ASCII is escaped.  Widths are display columns (wcwidth), so a name is cut
 * or padded to exactly the columns of its frame.
 */
#ifndef FLAMETOP_TEXTFMT_H
#define FLAMETOP_TEXTFMT_H

#include <stdbool.h>
#include <stddef.h>

/* Call once at start-up: is the locale's character set UTF-8? */
bool textfmt_init_locale(void);
void textfmt_set_utf8(bool on);
bool textfmt_utf8(void);

/*
 * One display unit of s[0..n): a printable character or an escape.
 * Returns the bytes of s consumed (>= 1); *out and *outlen are the text to
 * print (out needs 8 bytes), *cols its display width.
 */
size_t textfmt_unit(const char *s, size_t n, char out[8], size_t *outlen,
		    unsigned *cols);

/* Display width of the escaped name. */
size_t textfmt_width(const char *s, size_t n);

/*
 * Write the escaped name into buf (NUL-terminated, truncated to cap) and
 * return its length in bytes.
 */
size_t textfmt_escape(const char *s, size_t n, char *buf, size_t cap);

/*
 * Fit the escaped name into exactly cols columns: cut with ".." when too
 * long, padded with pad when short.  buf needs 8*cols+1 bytes.  Returns
 * the byte length written (NUL-terminated).
 */
size_t textfmt_fit(const char *s, size_t n, unsigned cols, char pad,
		   char *buf);

/* ---- Amounts --------------------------------------------------------- */

/* What an amount measures, for its scale. */
enum amount_scale {
	AMOUNT_COUNT,        /* 917, 1.28k, 3.40M, 1.35G, ... (by 1000) */
	AMOUNT_TIME,         /* from ns: 917 ns, 12.3 µs, 366.7 ms, 1.68 s */
	AMOUNT_BYTES,        /* 512 B, 4.00 kB, 11.0 MB, ... (by 1024) */
};

/*
 * v (a count, ns or bytes) as people read it, the scale chosen for this
 * figure: three or four significant digits (two decimals under 10, one
 * above), an exact whole number below the first multiple ("917 ns",
 * "37"), never "1000.0" of one scale for "1.00" of the next.  µs is "us"
 * without a UTF-8 locale.  Every view prints amounts through this one
 * function (by way of profile_format_amount), --collapse and --pprof
 * excepted: they keep the exact weights.  Returns the length written.
 */
size_t textfmt_amount(double v, enum amount_scale s, char *buf, size_t cap);

/*
 * s right-aligned in cols display columns (µ is one column, two bytes),
 * into buf; longer text is kept whole.  Returns the length written.
 */
size_t textfmt_rjust(const char *s, unsigned cols, char *buf, size_t cap);

#endif
