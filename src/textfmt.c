/*
 * textfmt.c - escaping and fitting frame names; amounts with their scale.
 */
#include "textfmt.h"

#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <locale.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

static bool utf8_mode;

bool textfmt_init_locale(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	utf8_mode = cs && (strcasecmp(cs, "UTF-8") == 0 ||
			   strcasecmp(cs, "utf8") == 0);
	return utf8_mode;
}

void textfmt_set_utf8(bool on) { utf8_mode = on; }
bool textfmt_utf8(void) { return utf8_mode; }

static size_t escape_byte(unsigned char c, char out[8], size_t *outlen,
			  unsigned *cols)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	*outlen = 4;
	*cols = 4;
	return 1;
}

/* Decode one UTF-8 sequence; 0 if invalid (overlong, surrogate, cut). */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], v, need, min;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	if (c < 0xe0) {
		need = 1; v = c & 0x1f; min = 0x80;
	} else if (c < 0xf0) {
		need = 2; v = c & 0x0f; min = 0x800;
	} else {
		need = 3; v = c & 0x07; min = 0x10000;
	}
	if (n < need + 1)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return need + 1;
}

size_t textfmt_unit(const char *str, size_t n, char out[8], size_t *outlen,
		    unsigned *cols)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned cp;
	size_t k;
	int w;

	if (s[0] >= 0x20 && s[0] < 0x7f) {
		out[0] = (char)s[0];
		*outlen = 1;
		*cols = 1;
		return 1;
	}
	if (s[0] < 0x80 || !utf8_mode)
		return escape_byte(s[0], out, outlen, cols);
	k = utf8_decode(s, n, &cp);
	if (!k || cp < 0xa0)    /* invalid, or a C1 control */
		return escape_byte(s[0], out, outlen, cols);
	w = wcwidth((wchar_t)cp);
	if (w <= 0)             /* unprintable or combining: show it */
		return escape_byte(s[0], out, outlen, cols);
	memcpy(out, s, k);
	*outlen = k;
	*cols = (unsigned)w;
	return k;
}

size_t textfmt_width(const char *s, size_t n)
{
	size_t w = 0;
	char u[8];

	while (n) {
		size_t ul;
		unsigned c;
		size_t k = textfmt_unit(s, n, u, &ul, &c);

		w += c;
		s += k;
		n -= k;
	}
	return w;
}

size_t textfmt_escape(const char *s, size_t n, char *buf, size_t cap)
{
	size_t len = 0;
	char u[8];

	if (!cap)
		return 0;
	while (n) {
		size_t ul;
		unsigned c;
		size_t k = textfmt_unit(s, n, u, &ul, &c);

		if (len + ul >= cap)
			break;
		memcpy(buf + len, u, ul);
		len += ul;
		s += k;
		n -= k;
	}
	buf[len] = '\0';
	return len;
}

size_t textfmt_fit(const char *s, size_t n, unsigned cols, char pad,
		   char *buf)
{
	size_t len = 0, width = textfmt_width(s, n);
	unsigned used = 0, room = cols;
	char u[8];

	if (width > cols)
		room = cols >= 2 ? cols - 2 : 0;   /* leave space for ".." */
	while (n) {
		size_t ul;
		unsigned c;
		size_t k = textfmt_unit(s, n, u, &ul, &c);

		if (used + c > room)
			break;
		memcpy(buf + len, u, ul);
		len += ul;
		used += c;
		s += k;
		n -= k;
	}
	if (width > cols) {
		while (used < cols) {
			buf[len++] = '.';
			used++;
		}
	}
	while (used < cols) {
		buf[len++] = pad;
		used++;
	}
	buf[len] = '\0';
	return len;
}

size_t textfmt_amount(double v, enum amount_scale s, char *buf, size_t cap)
{
	static const char *const count[] = { "", "k", "M", "G", "T", "P" };
	static const char *const bytes[] = { " B", " kB", " MB", " GB", " TB",
					     " PB" };
	static const char *const time_utf8[] = { " ns", " \u00b5s", " ms",
						  " s" };
	static const char *const time_ascii[] = { " ns", " us", " ms", " s" };
	const char *const *u = s == AMOUNT_TIME ?
			       (utf8_mode ? time_utf8 : time_ascii) :
			       s == AMOUNT_BYTES ? bytes : count;
	unsigned nu = s == AMOUNT_TIME ? 4 : 6, i = 0;
	double base = s == AMOUNT_BYTES ? 1024 : 1000;
	int dec, n;

	if (!(v > 0))           /* negative, -0 or NaN: never "-0" */
		v = 0;
	/* 999.95 would print as "1000.0": the next scale's "1.00". */
	while (i + 1 < nu && v >= 999.95) {
		v /= base;
		i++;
	}
	dec = i == 0 && v == floor(v) ? 0 : v < 9.995 ? 2 : 1;
	n = snprintf(buf, cap, "%.*f%s", dec, v, u[i]);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

size_t textfmt_rjust(const char *s, unsigned cols, char *buf, size_t cap)
{
	size_t len = strlen(s), w = textfmt_width(s, len), pad, k = 0;

	if (!cap)
		return 0;
	pad = w < cols ? cols - w : 0;
	while (pad-- && k + 1 < cap)
		buf[k++] = ' ';
	if (len > cap - 1 - k)
		len = cap - 1 - k;
	memcpy(buf + k, s, len);
	k += len;
	buf[k] = '\0';
	return k;
}
