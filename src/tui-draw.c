/*
 * tui-draw.c - the screen: header, timeline strip, frames, status line and
 * the help overlay, in the colors the terminal offers.
 *
 * Colors: a theme gives 24-bit RGB; the terminal gets them as direct
 * colors (a "-direct" terminfo chosen when COLORTERM says truecolor), as
 * the nearest of the 256-color cube and gray ramp, or as the nearest of
 * the 8 ANSI colors.  Color pairs are made on demand and kept in a small
 * hash table; each symbol's frame color is computed once per theme.
 * Without colors (NO_COLOR, a monochrome terminal) frames are drawn the
 * way --text draws them, "[name]" and "{match}", with the selection in
 * reverse video and matches in bold and underline.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "diff.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

#define PAIR_SLOTS 8192u

struct draw_cache {
	uint64_t key[PAIR_SLOTS];   /* (fg << 32 | bg) + 1; 0 is empty */
	int pair[PAIR_SLOTS];
	int npairs, maxpairs;
	uint32_t *symcolor;         /* RGB per symbol, + 1; 0: not yet */
	size_t nsym;
	char *buf;                  /* a row of text: 8 * cols + 1 bytes */
	size_t bufcap;
};

static struct draw_cache *cache(struct tui *t)
{
	if (!t->draw)
		t->draw = xcalloc(1, sizeof(struct draw_cache));
	return t->draw;
}

void tui_draw_free(struct tui *t)
{
	struct draw_cache *c = t->draw;

	if (!c)
		return;
	free(c->symcolor);
	free(c->buf);
	free(c);
	t->draw = NULL;
}

static void reset_pairs(struct draw_cache *c)
{
	memset(c->key, 0, sizeof(c->key));
	c->npairs = 0;
}

void tui_draw_theme_changed(struct tui *t)
{
	struct draw_cache *c = cache(t);

	free(c->symcolor);
	c->symcolor = NULL;
	c->nsym = 0;
	reset_pairs(c);
}

void tui_draw_init(struct tui *t)
{
	const char *nc = getenv("NO_COLOR");
	struct draw_cache *c = cache(t);

	t->cmode = CM_NONE;
	if ((nc && *nc) || !has_colors() || start_color() != OK || COLORS < 8)
		return;
	use_default_colors();
	if (COLORS >= 0x1000000)
		t->cmode = CM_DIRECT;
	else if (COLORS >= 256)
		t->cmode = CM_256;
	else
		t->cmode = CM_8;
	c->maxpairs = COLOR_PAIRS - 1;
	if (c->maxpairs > 32000)
		c->maxpairs = 32000;
	if (c->maxpairs < 1)
		t->cmode = CM_NONE;
	reset_pairs(c);
}

/* ---- Colors ---------------------------------------------------------- */

static int cube_level(unsigned v)
{
	static const unsigned lv[6] = { 0, 95, 135, 175, 215, 255 };
	int best = 0;

	for (int i = 1; i < 6; i++)
		if ((v > lv[i] ? v - lv[i] : lv[i] - v) <
		    (v > lv[best] ? v - lv[best] : lv[best] - v))
			best = i;
	return best;
}

static unsigned dist2(unsigned r1, unsigned g1, unsigned b1, unsigned r2,
		      unsigned g2, unsigned b2)
{
	int dr = (int)r1 - (int)r2, dg = (int)g1 - (int)g2,
	    db = (int)b1 - (int)b2;

	return (unsigned)(dr * dr * 3 + dg * dg * 4 + db * db * 2);
}

static int to_256(uint32_t rgb)
{
	static const unsigned lv[6] = { 0, 95, 135, 175, 215, 255 };
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	int ri = cube_level(r), gi = cube_level(g), bi = cube_level(b);
	unsigned avg = (r + g + b) / 3, gray_i = avg > 238 ? 23 : avg < 8 ? 0 :
						 (avg - 8) / 10;
	unsigned gv = 8 + 10 * gray_i;

	if (dist2(r, g, b, gv, gv, gv) <
	    dist2(r, g, b, lv[ri], lv[gi], lv[bi]))
		return 232 + (int)gray_i;
	return 16 + 36 * ri + 6 * gi + bi;
}

static int to_8(uint32_t rgb)
{
	static const uint32_t base[8] = {
		0x000000, 0xcd0000, 0x00cd00, 0xcdcd00,
		0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	};
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	int best = 0;
	unsigned bd = UINT32_MAX;

	for (int i = 0; i < 8; i++) {
		unsigned d = dist2(r, g, b, base[i] >> 16 & 255,
				   base[i] >> 8 & 255, base[i] & 255);

		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

static int term_color(const struct tui *t, uint32_t rgb)
{
	if (rgb == THEME_COLOR_DEFAULT)
		return -1;
	switch (t->cmode) {
	case CM_DIRECT: return (int)(rgb & 0xffffff);
	case CM_256: return to_256(rgb);
	case CM_8: return to_8(rgb);
	case CM_NONE: break;
	}
	return -1;
}

static int pair_of(struct tui *t, uint32_t fg, uint32_t bg)
{
	struct draw_cache *c = cache(t);
	int f = term_color(t, fg), b = term_color(t, bg);
	uint64_t key = (((uint64_t)(uint32_t)f << 32) | (uint32_t)b) + 1;
	uint32_t h = (uint32_t)hash_u64(key) & (PAIR_SLOTS - 1);

	if (t->cmode == CM_NONE)
		return 0;
	for (;;) {
		if (c->key[h] == key)
			return c->pair[h];
		if (!c->key[h])
			break;
		h = (h + 1) & (PAIR_SLOTS - 1);
	}
	if (c->npairs >= c->maxpairs || c->npairs >= (int)(PAIR_SLOTS * 3 / 4)) {
		reset_pairs(c);
		return pair_of(t, fg, bg);
	}
	c->key[h] = key;
	c->pair[h] = ++c->npairs;
	init_extended_pair(c->pair[h], f, b);
	return c->pair[h];
}

static attr_t ta_attrs(unsigned a)
{
	attr_t r = A_NORMAL;

	if (a & TA_BOLD)
		r |= A_BOLD;
	if (a & TA_REVERSE)
		r |= A_REVERSE;
	if (a & TA_UNDERLINE)
		r |= A_UNDERLINE;
	return r;
}

static void use(struct tui *t, uint32_t fg, uint32_t bg, attr_t attrs)
{
	int pair = pair_of(t, fg, bg);

	attr_set(attrs, 0, &pair);
}

void tui_draw_color(struct tui *t, uint32_t fg, uint32_t bg, unsigned attrs)
{
	use(t, fg, bg, ta_attrs(attrs));
}

void tui_draw_slot(struct tui *t, enum theme_slot s)
{
	const struct theme_style *st = &t->theme.slot[s];

	if (t->cmode == CM_NONE) {
		/* Monochrome: bars stand out in reverse video. */
		attr_t a = ta_attrs(st->attrs);

		if (s == TS_HEADER || s == TS_STATUS || s == TS_HELP ||
		    s == TS_ERROR || s == TS_RANGE)
			a |= A_REVERSE;
		attr_set(a, 0, NULL);
		return;
	}
	use(t, st->fg, st->bg, ta_attrs(st->attrs));
}

/*
 * One row of a pane over the graph (the annotation, the label list): the
 * help slot's style, bold where asked; the selected row in the other
 * video, so that it shows in monochrome too, where the slot is reverse.
 */
void tui_draw_pane_row(struct tui *t, int y, const char *text, bool bold,
		       bool selected)
{
	attr_t a;
	short pair;

	tui_draw_slot(t, TS_HELP);
	if (bold)
		attron(A_BOLD);
	if (selected) {
		attr_get(&a, &pair, NULL);
		if (a & A_REVERSE)
			attroff(A_REVERSE);
		else
			attron(A_REVERSE);
	}
	mvaddstr(y, 0, text);
	attr_set(A_NORMAL, 0, NULL);
}

static uint32_t frame_color(struct tui *t, uint32_t node)
{
	struct draw_cache *c = cache(t);
	uint32_t sym = profile_node(t->p, node)->sym;
	const struct symtab *st = profile_symtab(t->p);

	if (profile_is_differential(t->p))
		return diff_color(&t->theme, t->p, node, t->v.negate);

	if (sym >= c->nsym) {
		size_t n = symtab_count(st);

		c->symcolor = xreallocarray(c->symcolor, n, sizeof(uint32_t));
		memset(c->symcolor + c->nsym, 0,
		       (n - c->nsym) * sizeof(uint32_t));
		c->nsym = n;
	}
	if (!c->symcolor[sym])
		c->symcolor[sym] = 1 + theme_frame_color(
			&t->theme, symtab_name(st, sym), symtab_len(st, sym),
			(int)symtab_kind(st, sym));
	return c->symcolor[sym] - 1;
}

/* ---- Pieces ---------------------------------------------------------- */

char *tui_draw_rowbuf(struct tui *t, size_t cols)
{
	struct draw_cache *c = cache(t);
	size_t need = cols * 8 + 16;

	if (need > c->bufcap) {
		c->buf = xrealloc(c->buf, need);
		c->bufcap = need;
	}
	return c->buf;
}

/* Text (already escaped) on row y, cut or padded to the screen's width. */
void tui_draw_line(struct tui *t, int y, const char *text)
{
	char *b = tui_draw_rowbuf(t, t->cols);

	textfmt_fit(text, strlen(text), t->cols, ' ', b);
	mvaddstr(y, 0, b);
}

/*
 * A frame of the shown profile, or (p not t->p: the sandwich's callers
 * pane) of another one, which has its own selection (shown while it has
 * the focus) and search marks (t->sand_search) and takes its colors from
 * the theme directly (the color cache is by t->p's ids).
 */
void tui_draw_frame(struct tui *t, const struct profile *p,
		    const struct layout_rect *r, int y, char *buf)
{
	bool own = p == t->p;
	const struct search *sr = own ? t->search : t->sand_search;
	bool hit = (own || p == t->sand) && search_active(t->search) &&
		   search_node_matches(sr, p, r->node);
	bool sel = own ? !t->sand_focus && r->node == t->sel :
		   p == t->sand && t->sand_focus && r->node == t->sand_sel;
	const char *name = profile_name(p, r->node);
	size_t len = profile_name_len(p, r->node), k;
	unsigned w = r->width;

	if (t->cmode == CM_NONE) {
		attr_t a = A_NORMAL;

		if (sel)
			a |= A_REVERSE;
		if (hit)
			a |= A_BOLD | A_UNDERLINE;
		attr_set(a, 0, NULL);
		if (w == 1) {
			mvaddch(y, (int)r->col, hit ? '!' : '|');
			return;
		}
		buf[0] = hit ? '{' : '[';
		k = 0;
		if (own && profile_is_differential(p) && w > 2) {
			struct diff_info di;

			diff_info(p, r->node, t->v.negate, &di);
			if (diff_mark(di.kind))
				buf[1 + k++] = diff_mark(di.kind);
		}
		k += textfmt_fit(name, len, w - 2 - k, ' ', buf + 1 + k);
		buf[1 + k] = hit ? '}' : ']';
		buf[2 + k] = '\0';
		mvaddstr(y, (int)r->col, buf);
		return;
	}
	{
		const struct theme_style *ms = &t->theme.slot[TS_MATCH];
		const struct theme_style *ss = &t->theme.slot[TS_SELECTED];
		uint32_t fg = hit ? ms->fg : t->theme.slot[TS_TEXT].fg;
		const struct symtab *st = profile_symtab(p);
		uint32_t sym = profile_node(p, r->node)->sym;
		uint32_t bg = hit ? ms->bg : own ? frame_color(t, r->node) :
			      theme_frame_color(&t->theme, symtab_name(st, sym),
						symtab_len(st, sym),
						(int)symtab_kind(st, sym));
		attr_t a = hit ? ta_attrs(ms->attrs) : A_NORMAL;

		if (sel) {
			if (ss->fg != THEME_COLOR_DEFAULT)
				fg = ss->fg;
			if (ss->bg != THEME_COLOR_DEFAULT)
				bg = ss->bg;
			a |= ta_attrs(ss->attrs);
		}
		use(t, fg, bg, a);
		if (w == 1) {
			mvaddch(y, (int)r->col, ' ');
			return;
		}
		k = textfmt_fit(name, len, w - 1, ' ', buf);
		buf[k] = '\0';
		mvaddstr(y, (int)r->col, buf);
		attr_set(A_NORMAL, 0, NULL);
		mvaddch(y, (int)(r->col + w - 1), ' ');
	}
}

/* ---- The status line ------------------------------------------------- */

/* The first screen's hint, at the right end of the status line. */
static const char hint_text[] = "? help  q quit";

const char *tui_hint(const struct tui *t)
{
	/* Shown until the first key, where the status line keeps room. */
	return t->hint && t->cols >= 2 * sizeof(hint_text) ? hint_text : NULL;
}

unsigned tui_status_cols(const struct tui *t)
{
	/* The hint and two spaces before it. */
	return tui_hint(t) ? t->cols - (unsigned)sizeof(hint_text) - 1 : t->cols;
}

/*
 * The status line, the last row: the message when there is one (text
 * unused), else text (the status text, escaped, shortened to the width by
 * tui_status_text; anything longer is cut, never wrapped); on the first
 * screen the hint at its right end.
 */
void tui_draw_status(struct tui *t, const char *text)
{
	unsigned w = tui_status_cols(t);
	const char *hint = tui_hint(t);
	char *b = tui_draw_rowbuf(t, t->cols);
	int y = (int)(t->rows - 1);

	curs_set(0);
	if (t->msg[0]) {
		char shown[1024];

		textfmt_escape(t->msg, strlen(t->msg), shown, sizeof(shown));
		tui_draw_slot(t, t->msg_error ? TS_ERROR : TS_STATUS);
		textfmt_fit(shown, strlen(shown), w, ' ', b);
	} else {
		tui_draw_slot(t, TS_STATUS);
		textfmt_fit(text, strlen(text), w, ' ', b);
	}
	mvaddstr(y, 0, b);
	if (hint) {
		char hb[64];

		snprintf(hb, sizeof(hb), "  %s", hint);   /* fills the rest */
		tui_draw_slot(t, TS_STATUS);
		attron(A_BOLD);
		mvaddnstr(y, (int)w, hb, (int)(t->cols - w));
		attroff(A_BOLD);
	}
}
