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

#include "keys.h"
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

static void use_slot(struct tui *t, enum theme_slot s)
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

void tui_draw_color(struct tui *t, uint32_t fg, uint32_t bg, unsigned attrs)
{
	use(t, fg, bg, ta_attrs(attrs));
}

void tui_draw_slot(struct tui *t, enum theme_slot s)
{
	use_slot(t, s);
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

static char *rowbuf(struct tui *t, size_t cols)
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
static void line(struct tui *t, int y, const char *text)
{
	char *b = rowbuf(t, t->cols);

	textfmt_fit(text, strlen(text), t->cols, ' ', b);
	mvaddstr(y, 0, b);
}

/*
 * A frame of the shown profile, or (p not t->p: the sandwich's callers
 * pane) of another one, which has no selection, no search marks and takes
 * its colors from the theme directly (the color cache is by t->p's ids).
 */
static void draw_frame(struct tui *t, const struct profile *p,
		       const struct layout_rect *r, int y, char *buf)
{
	bool own = p == t->p;
	bool hit = own && search_active(t->search) &&
		   search_node_matches(t->search, p, r->node);
	bool sel = own && r->node == t->sel;
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

static void draw_timeline(struct tui *t, int y)
{
	static const char *const bars_utf8[9] = {
		" ", "\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char bars_ascii[] = " ._-=+*#@";
	uint64_t max = 0, ra = 0, rb = 0;
	bool ranged = profile_range(t->p, &ra, &rb);
	int lo = -1, hi = -1;

	if (!t->tl_n || t->tl_n != t->cols)
		tui_timeline_refresh(t);
	for (unsigned i = 0; i < t->tl_n; i++)
		if (t->tl_weight[i] > max)
			max = t->tl_weight[i];
	if (t->tl_mark >= 0) {
		lo = t->tl_mark < t->tl_cur ? t->tl_mark : t->tl_cur;
		hi = t->tl_mark < t->tl_cur ? t->tl_cur : t->tl_mark;
	}
	move(y, 0);
	for (unsigned i = 0; i < t->tl_n && i < t->cols; i++) {
		uint64_t a, b;
		unsigned lv = max ? (unsigned)((t->tl_weight[i] * 8 + max - 1) /
					       max) : 0;
		bool in;

		tui_slice_times(t, i, &a, &b);
		in = (lo >= 0 && (int)i >= lo && (int)i <= hi) ||
		     (lo < 0 && ranged && b >= ra && a <= rb);
		use_slot(t, in ? TS_RANGE : TS_TIMELINE);
		if (t->tl_focus && (int)i == t->tl_cur)
			attron(A_REVERSE);
		if (textfmt_utf8())
			mvaddstr(y, (int)i, bars_utf8[lv > 8 ? 8 : lv]);
		else
			mvaddch(y, (int)i, (chtype)bars_ascii[lv > 8 ? 8 : lv]);
	}
	attr_set(A_NORMAL, 0, NULL);
}

/* The key table as the help overlay's lines; bold marks a section title. */
static size_t help_lines(const struct tui *t, char (*lines)[256], bool *bold,
			 size_t cap)
{
	size_t n, k = 0;
	const struct key_binding *kb = keys_table(&n);
	int last = -1;

	for (size_t i = 0; i < n && k + 3 < cap; i++) {
		if ((int)kb[i].ctx != last) {
			if (last >= 0) {
				lines[k][0] = '\0';
				bold[k++] = false;
			}
			last = (int)kb[i].ctx;
			snprintf(lines[k], sizeof(lines[k]), " %s%s",
				 keys_context_title(kb[i].ctx),
				 last == KCTX_LIVE && !t->live ?
				 " (a saved profile: s saves, the others say "
				 "why not)" : "");
			bold[k++] = true;
		}
		snprintf(lines[k], sizeof(lines[k]), "   %-14s %s", kb[i].label,
			 kb[i].help);
		bold[k++] = false;
	}
	return k;
}

static void draw_help(struct tui *t)
{
	static char lines[128][256];
	static bool bold[128];
	size_t n = help_lines(t, lines, bold, 128);
	unsigned w = t->cols > 74 ? 70 : t->cols > 4 ? t->cols - 4 : t->cols;
	/* Rows 1 to the last: the footer is the last row when the help
	 * scrolls, so nothing of the status line shows below it. */
	unsigned h = t->rows > 2 ? t->rows - 1 : t->rows;
	unsigned x = (t->cols - w) / 2, y = 1, vis = h > 1 ? h - 1 : 1;
	size_t top = t->help_top, max = n > vis ? n - vis : 0;
	char foot[128];

	if (top > max)
		top = t->help_top = max;
	use_slot(t, TS_HELP);
	for (unsigned r = 0; r < vis && top + r < n; r++) {
		textfmt_fit(lines[top + r], strlen(lines[top + r]), w, ' ',
			    rowbuf(t, w));
		if (bold[top + r])
			attron(A_BOLD);
		mvaddstr((int)(y + r), (int)x, rowbuf(t, w));
		if (bold[top + r])
			attroff(A_BOLD);
	}
	if (max)
		snprintf(foot, sizeof(foot), " lines %zu-%zu of %zu: j/k, PgUp/PgDn "
			 "scroll; other keys close", top + 1,
			 top + vis < n ? top + vis : n, n);
	else
		snprintf(foot, sizeof(foot), " any key closes this help");
	attron(A_REVERSE);
	textfmt_fit(foot, strlen(foot), w, ' ', rowbuf(t, w));
	mvaddstr((int)(y + (n < vis ? n : vis)), (int)x, rowbuf(t, w));
	attr_set(A_NORMAL, 0, NULL);
}

/* ---- The screen ------------------------------------------------------ */

void tui_draw(struct tui *t)
{
	unsigned top, R, srows;
	char text[4096], *buf;

	if (t->repaint) {
		/* Ctrl-L: what another program wrote is not in curses' idea
		 * of the screen, so the next refresh clears and sends all. */
		clearok(curscr, TRUE);
		t->repaint = false;
	}
	erase();
	if (t->rows < 4 || t->cols < 16) {
		attr_set(A_NORMAL, 0, NULL);
		mvaddnstr(0, 0, t->cols >= 18 ? "terminal too small" :
			  "too small", (int)t->cols);
		if (t->rows > 1)
			mvaddnstr(1, 0, "(q quits)", (int)t->cols);
		refresh();
		return;
	}
	if (t->dirty)
		tui_relayout(t);
	top = tui_top_rows(t);
	srows = tui_status_rows(t);
	R = tui_frame_rows(t);

	/* Header. */
	use_slot(t, TS_HEADER);
	tui_header_text(t, text, sizeof(text));
	line(t, 0, text);
	if (t->tl_show && !tui_heat_shown(t))
		draw_timeline(t, 1);
	{
		/* The sandwich's callers pane: callers above what they call. */
		unsigned S = tui_sandwich_rows(t), y0 = 1 + (t->tl_show ? 1 : 0);

		buf = rowbuf(t, t->cols);
		for (unsigned pr = 0; pr < S; pr++) {
			unsigned d = 2 + (S - 1 - pr);

			for (size_t i = t->sand_lay.row_start[d];
			     i < t->sand_lay.row_start[d + 1]; i++)
				draw_frame(t, t->sand, &t->sand_lay.rects[i],
					   (int)(y0 + pr), buf);
		}
	}

	/* Frames, or the top table over them. */
	buf = rowbuf(t, t->cols);
	if (tui_heat_shown(t)) {
		tui_heat_draw(t, 1, t->rows - srows - 1);
		R = 0;
	} else if (t->v.top) {
		tui_top_draw(t, top, R);
		R = 0;
	}
	for (unsigned fr = 0; fr < R; fr++) {
		unsigned d = t->flame ? t->scroll + (R - 1 - fr) : t->scroll + fr;
		int y = (int)(top + fr);

		if (d >= t->lay.rows)
			continue;
		for (size_t i = t->lay.row_start[d]; i < t->lay.row_start[d + 1];
		     i++)
			draw_frame(t, t->p, &t->lay.rects[i], y, buf);
	}
	attr_set(A_NORMAL, 0, NULL);
	/* More above or below: a marker in the last column. */
	if (R && t->lay.rows > t->scroll + R) {
		int y = (int)(t->flame ? top : top + R - 1);

		use_slot(t, TS_HEADER);
		mvaddstr(y, (int)t->cols - 1, t->flame ?
			 (textfmt_utf8() ? "\u25b2" : "^") :
			 (textfmt_utf8() ? "\u25bc" : "v"));
	}
	if (R && t->scroll > 0) {
		int y = (int)(t->flame ? top + R - 1 : top);

		use_slot(t, TS_HEADER);
		mvaddstr(y, (int)t->cols - 1, t->flame ?
			 (textfmt_utf8() ? "\u25bc" : "v") :
			 (textfmt_utf8() ? "\u25b2" : "^"));
	}

	/* Status. */
	if (t->prompting) {
		char shown[2048];

		static const char *const label[] = {
			[PROMPT_SEARCH] = "/", [PROMPT_INCLUDE] = "filter: keep /",
			[PROMPT_EXCLUDE] = "filter: drop /",
			[PROMPT_TASKS] = "filter (pid= tid= cpu= comm=): ",
			[PROMPT_TOP_FILTER] = "top filter: /",
		};
		size_t cur;

		textfmt_escape(t->prompt, t->prompt_len, shown, sizeof(shown));
		snprintf(text, sizeof(text), "%s%s", label[t->prompt_kind], shown);
		cur = textfmt_width(text, strlen(text));
		if (!t->prompt_len && t->nhist && t->prompt_kind == PROMPT_SEARCH) {
			/* Say that the last patterns are a key away. */
			char last[256];
			size_t k = strlen(text);

			textfmt_escape(t->hist[t->nhist - 1],
				       strlen(t->hist[t->nhist - 1]), last,
				       sizeof(last));
			snprintf(text + k, sizeof(text) - k,
				 "      (Up: %s, and older searches)", last);
		}
		use_slot(t, TS_PROMPT);
		line(t, (int)(t->rows - 1), text);
		curs_set(1);
		move((int)(t->rows - 1), (int)(cur < t->cols ? cur : t->cols - 1));
	} else {
		curs_set(0);
		if (t->msg[0]) {
			char shown[1024];

			textfmt_escape(t->msg, strlen(t->msg), shown,
				       sizeof(shown));
			use_slot(t, t->msg_error ? TS_ERROR : TS_STATUS);
			line(t, (int)(t->rows - 1), shown);
		} else {
			size_t len, off = 0;

			tui_status_text(t, text, sizeof(text));
			len = strlen(text);
			use_slot(t, TS_STATUS);
			for (unsigned k = 0; k < srows; k++) {
				/* Wrap: each row takes what fits. */
				char u[8];
				size_t start = off, used = 0, ul;
				unsigned c;

				while (off < len) {
					size_t step = textfmt_unit(text + off,
						len - off, u, &ul, &c);

					if (used + c > t->cols)
						break;
					used += c;
					off += step;
				}
				if (off < len) {
					/* Break after a space when one is near. */
					size_t sp = off;

					while (sp > start && text[sp - 1] != ' ')
						sp--;
					if (sp > start && used > 8 &&
					    off - sp < used / 2)
						off = sp;
				}
				if (k + 1 == srows && off < len) {
					char *b = rowbuf(t, t->cols);

					textfmt_fit(text + start, len - start,
						    t->cols, ' ', b);
					mvaddstr((int)(t->rows - srows + k), 0,
						 b);
				} else {
					char save = text[off];

					text[off] = '\0';
					line(t, (int)(t->rows - srows + k),
					     text + start);
					text[off] = save;
				}
			}
		}
	}
	attr_set(A_NORMAL, 0, NULL);
	if (t->help)
		draw_help(t);
	refresh();
}
