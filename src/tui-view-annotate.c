/*
 * tui-view-annotate.c - a function's source lines over the screen (a on a
 * frame), as --annotate prints them: each line with its self and total
 * share, the hottest selected.  n and N go to the next and previous
 * hottest line, s orders them by self or by total, / searches the text
 * (the prompt is tui.c's: tui_annotate_search), Backspace, Esc, q or a go
 * back to the graph.  Tab or d switches to the function's instructions
 * (annotate-disasm.h's rows: the source line above each run, each
 * instruction's shares, branch targets named) and back; the same keys
 * move, rank and search there.  Live, the annotation is made again at each
 * refresh (tui_annotate_refresh), the selected line kept, from the samples
 * of the graph's window (the address tables follow the profile's range).
 * A click selects a line and the wheel moves the selection: the graph
 * under the pane takes neither.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "annotate-disasm.h"
#include "annotate.h"
#include "diag.h"
#include "frame-locs.h"
#include "profile-addr.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

/* The rows: a file's title, or one of its lines (l: its weights, or NULL). */
struct arow {
	uint32_t file;
	unsigned line;             /* 0: the file's title */
	const struct ann_line *l;
};

static struct arow *rows_of(const struct annotation *an, size_t *n)
{
	struct arow *r = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < an->nlines;) {
		uint32_t f = an->lines[i].file;
		const struct ann_file *af = &an->files[f];
		unsigned first = an->lines[i].line, last = first;
		size_t j = i;

		while (j < an->nlines && an->lines[j].file == f)
			last = an->lines[j++].line;
		/* With the text: every line between, two around. */
		if (af->text) {
			first = first > 2 ? first - 2 : 1;
			last = last + 2 <= af->nlines ? last + 2
						      : (unsigned)af->nlines;
		}
		GROW(r, cap, k + 1);
		r[k++] = (struct arow){ f, 0, NULL };
		for (unsigned ln = first; ln <= last; ln++) {
			const struct ann_line *l = NULL;

			while (i < j && an->lines[i].line < ln)
				i++;
			if (i < j && an->lines[i].line == ln)
				l = &an->lines[i];
			if (!l && !af->text)
				continue;
			GROW(r, cap, k + 1);
			r[k++] = (struct arow){ f, ln, l };
		}
		i = j;
	}
	*n = k;
	return r;
}

/* The rows listed: the instructions' (Tab, d) or the source lines'. */
static size_t nrows(const struct tui *t)
{
	return t->ann_dis ? t->ann_dis->nrows : t->ann_nrows;
}

/* Row i's weight, by self or by total (s). */
static uint64_t weight_at(const struct tui *t, size_t i)
{
	const struct arow *r;

	if (t->ann_dis) {
		const struct adis_row *d = &t->ann_dis->rows[i];

		if (d->kind != ADIS_INSN)
			return 0;
		return t->ann_by_total ? d->total : d->self;
	}
	r = &t->ann_rows[i];
	if (!r->l)
		return 0;
	return t->ann_by_total ? r->l->total : r->l->self;
}

/* The rows with weight, heaviest first (ties: in listing order). */
static void rank(struct tui *t)
{
	size_t n = 0, all = nrows(t);

	free(t->ann_rank);
	t->ann_rank = xmalloc((all ? all : 1) * sizeof(*t->ann_rank));
	for (size_t i = 0; i < all; i++)
		if (weight_at(t, i))
			t->ann_rank[n++] = i;
	/* Insertion sort: a function has few lines with weight. */
	for (size_t i = 1; i < n; i++) {
		size_t v = t->ann_rank[i], j = i;

		while (j > 0 && weight_at(t, t->ann_rank[j - 1]) <
				weight_at(t, v)) {
			t->ann_rank[j] = t->ann_rank[j - 1];
			j--;
		}
		t->ann_rank[j] = v;
	}
	t->ann_nrank = n;
}

static void select_hottest(struct tui *t)
{
	t->ann_sel = t->ann_nrank ? t->ann_rank[0] : 0;
	t->ann_pos = 0;
}

/*
 * Build the annotation of function id; false (message set) when none.
 * Quiet (a live refresh): a missing source was said when it opened.
 */
static bool build(struct tui *t, uint32_t id, bool quiet)
{
	struct diag d;
	struct annotation *an;

	diag_init(&d);
	an = ann_build(t->src, id, t->ann_opts, &d);
	/* Without lines it has no rows here: its instructions may (Tab). */
	if (an->refused) {
		tui_set_msg(t, true, "%s", an->why);
		ann_free(an);
		diag_free(&d);
		return false;
	}
	/* A source not found: said, the lines shown without text. */
	if (d.nwarnings && !quiet)
		tui_set_msg(t, false, "%s", d.warnings[0]);
	diag_free(&d);
	ann_free(t->ann);
	free(t->ann_rows);
	t->ann = an;
	t->ann_func = id;
	t->ann_rows = rows_of(an, &t->ann_nrows);
	rank(t);
	return true;
}

/*
 * Tab, d: the instructions instead of the source lines, or back.  The
 * hottest instruction is selected; false (message set) when the code
 * cannot be decoded.
 */
static bool toggle_disasm(struct tui *t)
{
	struct ann_disasm *ad;

	if (t->ann_dis && !t->ann->has_lines) {
		tui_set_msg(t, false, "Tab: %s has no source lines",
			    t->ann->name);
		return false;
	}
	if (t->ann_dis) {
		ann_disasm_free(t->ann_dis);
		t->ann_dis = NULL;
	} else {
		ad = ann_disasm_build(profile_paddr_const(t->src), t->ann,
				      t->ann_opts);
		if (!ad->nrows) {
			/* Opening on them (no lines): said over the graph. */
			tui_set_msg(t, true, "no instructions of %s: %s",
				    t->ann->name, ad->why);
			ann_disasm_free(ad);
			return false;
		}
		t->ann_dis = ad;
	}
	t->ann_top = 0;
	rank(t);
	select_hottest(t);
	return true;
}

/* Live: the annotation made again, the selected instruction kept. */
static void refresh_disasm(struct tui *t)
{
	const struct adis_row *r = &t->ann_dis->rows[t->ann_sel];
	uint64_t addr = r->in ? r->in->addr : 0;
	struct ann_disasm *ad;

	if (!build(t, t->ann_func, true))
		return;
	ad = ann_disasm_build(profile_paddr_const(t->src), t->ann,
			      t->ann_opts);
	if (!ad->nrows) {
		ann_disasm_free(ad);
		return;
	}
	ann_disasm_free(t->ann_dis);
	t->ann_dis = ad;
	rank(t);
	if (t->ann_sel >= ad->nrows)
		t->ann_sel = ad->nrows - 1;
	for (size_t i = 0; i < ad->nrows; i++)
		if (ad->rows[i].kind == ADIS_INSN && ad->rows[i].in->addr == addr)
			t->ann_sel = i;
}

/* A frame's marks ("_[k]") are no part of its function's name. */
static size_t unmarked_len(const char *name, size_t len)
{
	if (len > 4 && name[len - 4] == '_' && name[len - 3] == '[' &&
	    name[len - 1] == ']')
		len -= 4;
	return len;
}

/* The address tables' function named exactly name[0..len), or -1. */
static long find_exact(const struct paddr *a, const char *name, size_t len)
{
	char *fn = xstrndup(name, unmarked_len(name, len)), err[256];
	uint32_t *ids = NULL;
	long n = ann_find(a, fn, &ids, err, sizeof(err)), id = -1;

	/* The exact name (a name is no pattern here). */
	if (n > 0 && strcmp(paddr_func_get(a, ids[0])->name, fn) == 0)
		id = ids[0];
	free(ids);
	free(fn);
	return id;
}

void tui_annotate_open(struct tui *t, const char *name, size_t len,
		       const char *into, size_t into_len)
{
	const struct paddr *a = profile_paddr_const(t->src);
	char esc[512], esc2[512];
	long id;
	bool inlined = false, marked_inlined;

	if (!a) {
		tui_set_msg(t, true, "a: this profile has no addresses (folded "
			    "stacks carry names only)");
		return;
	}
	/* A frame by source line (L, --lines: "NAME FILE:LINE"): the
	 * function its line is of, as the reader noted it. */
	{
		struct floc_frame f;
		uint32_t sym = symtab_find(profile_symtab(t->src), name, len);

		if (sym != UINT32_MAX &&
		    floc_get(profile_frame_locs_get(t->src), sym, &f) &&
		    f.line && f.func && f.func_len) {
			name = f.func;
			len = f.func_len;
		}
	}
	marked_inlined = sym_kind_of(name, len) == SYM_INLINED;
	len = unmarked_len(name, len);
	textfmt_escape(name, len, esc, sizeof(esc));
	id = find_exact(a, name, len);
	/* Inlined code has the addresses of the function it is in. */
	if (id < 0 && into) {
		id = find_exact(a, into, into_len);
		inlined = id >= 0;
	}
	if (id < 0 && marked_inlined) {
		tui_set_msg(t, true, "a: %s is inlined, with no addresses of "
			    "its own: a on one of its frames in the graph "
			    "opens the function it is in", esc);
		return;
	}
	if (id < 0) {
		tui_set_msg(t, true, "a: no addresses of %s (only functions "
			    "sampled in code a binary or the profile maps)",
			    esc);
		return;
	}
	if (!build(t, (uint32_t)id, false))
		return;
	t->ann_show = true;
	t->ann_by_total = false;
	rank(t);
	select_hottest(t);
	if (inlined) {
		textfmt_escape(into, unmarked_len(into, into_len), esc2,
			       sizeof(esc2));
		tui_set_msg(t, false, "%s is inlined into %s: its lines "
			    "are among those of %s", esc, esc2, esc2);
	}
	/* No source lines: its instructions, or why not. */
	if (!t->ann->has_lines) {
		if (!toggle_disasm(t))
			tui_annotate_close(t);
	}
}

void tui_annotate_close(struct tui *t)
{
	t->ann_show = false;
	ann_disasm_free(t->ann_dis);
	t->ann_dis = NULL;
	ann_free(t->ann);
	t->ann = NULL;
	free(t->ann_rows);
	t->ann_rows = NULL;
	free(t->ann_rank);
	t->ann_rank = NULL;
	t->ann_nrows = t->ann_nrank = 0;
}

void tui_annotate_refresh(struct tui *t)
{
	uint32_t file;
	unsigned line;

	if (!t->ann_show || t->ann_sel >= nrows(t))
		return;
	if (t->ann_dis) {
		refresh_disasm(t);
		return;
	}
	file = t->ann_rows[t->ann_sel].file;
	line = t->ann_rows[t->ann_sel].line;
	if (!build(t, t->ann_func, true))
		return;
	for (size_t i = 0; i < t->ann_nrows; i++)
		if (t->ann_rows[i].file == file && t->ann_rows[i].line == line)
			t->ann_sel = i;
}

/* What / searches in row i: its source text, or its instruction. */
static const char *row_text(const struct tui *t, size_t i, size_t *n)
{
	const struct arow *r;

	if (t->ann_dis) {
		const struct adis_row *d = &t->ann_dis->rows[i];

		if (d->kind == ADIS_INSN) {
			*n = strlen(d->in->text);
			return d->in->text;
		}
		return ann_disasm_source(t->ann, d, n);
	}
	r = &t->ann_rows[i];
	if (!r->line)
		return NULL;
	{
		struct ann_line l = { r->file, r->line, 0, 0, false };

		return ann_text(t->ann, &l, n);
	}
}

void tui_annotate_search(struct tui *t, const char *re)
{
	pcre2_code *c;
	pcre2_match_data *md;
	int ec;
	PCRE2_SIZE off;

	if (!t->ann_show || !*re)
		return;
	c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &ec,
			  &off, NULL);
	if (!c) {
		PCRE2_UCHAR m[160];

		pcre2_get_error_message(ec, m, sizeof(m));
		tui_set_msg(t, true, "bad pattern at offset %zu: %s",
			    (size_t)off, (const char *)m);
		return;
	}
	md = pcre2_match_data_create_from_pattern(c, NULL);
	for (size_t k = 1; k <= nrows(t); k++) {
		size_t i = (t->ann_sel + k) % nrows(t);
		const char *s;
		size_t n = 0;

		if (!(s = row_text(t, i, &n)))
			continue;
		if (pcre2_match(c, (PCRE2_SPTR)s, n, 0, 0, md, NULL) >= 0) {
			t->ann_sel = i;
			break;
		}
		if (k == nrows(t))
			tui_set_msg(t, false, "no line matches");
	}
	pcre2_match_data_free(md);
	pcre2_code_free(c);
}

/* A share of the profile's total: "12.5%", or "." for none. */
static void share(const struct annotation *an, uint64_t w, char *buf,
		  size_t cap)
{
	if (!w)
		snprintf(buf, cap, ".");
	else
		snprintf(buf, cap, "%.1f%%",
			 an->grand ? 100.0 * (double)w / (double)an->grand : 0);
}

/* Source text with tabs to spaces, then escaped like frame names. */
static void source_text(const char *s, size_t n, char *out, size_t cap)
{
	char text[2048];
	size_t tl = 0;

	for (size_t i = 0; s && i < n && tl + 9 < 512; i++) {
		if (s[i] == '\t')
			do
				text[tl++] = ' ';
			while (tl % 8);
		else
			text[tl++] = s[i];
	}
	textfmt_escape(text, tl, out, cap);
}

/* Row k is marked hot: at least half the hottest row's weight. */
static bool is_hot(const struct tui *t, size_t k)
{
	uint64_t w = weight_at(t, k);

	return t->ann_nrank && w &&
	       w * 10 >= weight_at(t, t->ann_rank[0]) * 5;
}

/* Row k of the instructions: a source line, a gap or an instruction. */
static void disasm_row(const struct tui *t, size_t k, char *line, size_t cap,
		       bool *hot, bool *bold)
{
	const struct adis_row *r = &t->ann_dis->rows[k];
	const struct disasm_insn *in = r->in;
	char s1[16], s2[16], text[1024], target[1040] = "";
	const char *src;
	size_t n = 0;

	switch (r->kind) {
	case ADIS_GAP:
		snprintf(line, cap, "%26s...", "");
		return;
	case ADIS_SOURCE:
		src = ann_disasm_source(t->ann, r, &n);
		source_text(src, n, text, sizeof(text));
		textfmt_escape(in->base, strlen(in->base), target,
			       sizeof(target));
		snprintf(line, cap, "%26s%s:%u  %s", "", target, in->line,
			 text);
		*bold = true;
		return;
	case ADIS_INSN:
		break;
	}
	share(t->ann, r->self, s1, sizeof(s1));
	share(t->ann, r->total, s2, sizeof(s2));
	*hot = is_hot(t, k);
	if (in->target_name) {
		textfmt_escape(in->target_name, strlen(in->target_name), text,
			       sizeof(text));
		snprintf(target, sizeof(target), " <%s>", text);
	}
	snprintf(line, cap, "%c%7s %7s %8llx  %s%s", *hot ? '*' : ' ', s1, s2,
		 (unsigned long long)in->addr, in->text, target);
}

/*
 * The annotation's header, on one row of cols columns: " annotate NAME:
 * self S, total T; hottest by self | AMOUNT (self AMOUNT)".  Shortened by
 * priority as the status line is: the name is cut with ".." (to 8 columns
 * at the least), then the self amount goes, then the words ("hottest by
 * self" becomes "by self"), then the amount; what still does not fit is
 * cut by the caller.
 */
static void header_text(struct tui *t, unsigned cols, char *out, size_t cap)
{
	const struct annotation *an = t->ann;
	const char *by = t->ann_by_total ? "total" : "self";
	char s1[16], s2[16], a1[64], a2[64], rest[512], *name;
	size_t nlen = strlen(an->name), nw = textfmt_width(an->name, nlen);
	size_t keep = nw < 8 ? nw : 8, rw = 0, head = 10;  /* " annotate " */

	share(an, an->self, s1, sizeof(s1));
	share(an, an->total, s2, sizeof(s2));
	/* Its weights as the graph's status line gives a frame's. */
	profile_format_amount(t->src, an->total, a2, sizeof(a2));
	profile_format_figure(t->src, an->self, a1, sizeof(a1));
	for (int step = 0; step < 4; step++) {
		bool words = step < 2;

		snprintf(rest, sizeof(rest), "%s: self %s, total %s; %s%s%s%s%s%s%s",
			 !t->ann_dis ? "" : t->ann->has_lines ?
			 " (instructions)" : " (instructions; no source lines)",
			 s1, s2, words ? "hottest by " : "by ", by,
			 step < 3 ? " | " : "", step < 3 ? a2 : "",
			 step < 1 ? " (self " : "", step < 1 ? a1 : "",
			 step < 1 ? ")" : "");
		rw = textfmt_width(rest, strlen(rest));
		if (!cols || head + keep + rw <= cols)
			break;
	}
	name = xmalloc(8 * (nlen + cols) + 16);
	if (cols && head + nw + rw > cols) {
		/* The name's columns: what the rest leaves, 8 at the least
		 * (then the rest is cut). */
		size_t avail = cols > head + rw ? cols - head - rw : 0;

		textfmt_fit(an->name, nlen,
			    (unsigned)(avail > keep ? avail : keep), ' ', name);
	} else
		textfmt_escape(an->name, nlen, name, 8 * (nlen + cols) + 16);
	snprintf(out, cap, " annotate %s%s", name, rest);
	free(name);
}

void tui_annotate_draw(struct tui *t)
{
	const struct annotation *an = t->ann;
	unsigned w = t->cols, vis = t->rows > 2 ? t->rows - 2 : 1;
	char *buf = tui_draw_rowbuf(t, w), line[4096], name[512], s1[16], s2[16];
	uint64_t r0, r1;

	if (t->ann_sel < t->ann_top)
		t->ann_top = t->ann_sel;
	if (t->ann_sel >= t->ann_top + vis)
		t->ann_top = t->ann_sel - vis + 1;
	tui_draw_slot(t, TS_HELP);
	header_text(t, w, line, sizeof(line));
	textfmt_fit(line, strlen(line), w, ' ', buf);
	attron(A_BOLD);
	mvaddstr(0, 0, buf);
	attroff(A_BOLD);
	for (unsigned y = 0; y < vis; y++) {
		size_t k = t->ann_top + y;
		const struct arow *r = k < t->ann_nrows && !t->ann_dis ?
				       &t->ann_rows[k] : NULL;
		bool hot = false, bold = r && !r->line;
		size_t n = 0;

		line[0] = 0;
		if (t->ann_dis && k < nrows(t)) {
			disasm_row(t, k, line, sizeof(line), &hot, &bold);
		} else if (r && !r->line) {
			const char *p = an->files[r->file].path;

			textfmt_escape(p, strlen(p), name, sizeof(name));
			snprintf(line, sizeof(line), " %s", name);
		} else if (r) {
			struct ann_line l = { r->file, r->line, 0, 0, false };
			const char *s = ann_text(an, &l, &n);

			source_text(s, n, name, sizeof(name));
			share(an, r->l ? r->l->self : 0, s1, sizeof(s1));
			share(an, r->l ? r->l->total : 0, s2, sizeof(s2));
			hot = is_hot(t, k);
			snprintf(line, sizeof(line), "%c%7s %7s %6u  %s",
				 hot ? '*' : ' ', s1, s2, r->line, name);
		}
		textfmt_fit(line, strlen(line), w, ' ', buf);
		tui_draw_pane_row(t, (int)y + 1, buf, bold || hot,
				  k == t->ann_sel);
	}
	if (t->ann_dis) {
		const struct adis_row *r = t->ann_sel < nrows(t) ?
					   &t->ann_dis->rows[t->ann_sel] : NULL;

		if (r && r->kind != ADIS_GAP)
			snprintf(name, sizeof(name), " %#llx |",
				 (unsigned long long)r->in->addr);
		else
			name[0] = 0;
	} else {
		const struct arow *r = t->ann_sel < t->ann_nrows ?
				       &t->ann_rows[t->ann_sel] : NULL;

		if (r && r->line)
			snprintf(name, sizeof(name), " line %u |", r->line);
		else
			name[0] = 0;
	}
	snprintf(line, sizeof(line), "%s n/N: next/previous hottest  s: by "
		 "%s  Tab: %s  /: search  Backspace: back%s", name,
		 t->ann_by_total ? "self" : "total",
		 t->ann_dis ? "source" : "asm",
		 !t->live ? "" : profile_range(t->src, &r0, &r1) ?
		 "  (live: the window's samples, as the graph)" :
		 "  (live: every sample so far)");
	/* The message of the last key (tui_set_msg) over it, as in the
	 * graph. */
	tui_draw_status(t, line);
	attr_set(A_NORMAL, 0, NULL);
}

/* The rank of the selected row, or where it would go. */
static size_t rank_of_sel(const struct tui *t)
{
	for (size_t i = 0; i < t->ann_nrank; i++)
		if (t->ann_rank[i] == t->ann_sel)
			return i;
	return t->ann_pos;
}

bool tui_annotate_key(struct tui *t, int key)
{
	size_t page = t->rows > 4 ? t->rows - 4 : 1, r;

	if (keys_list_move(key, &t->ann_sel, nrows(t), page))
		return true;
	switch (key) {
	case 'g': case KEY_HOME:
		t->ann_sel = 0;
		return true;
	case 'G': case KEY_END:
		t->ann_sel = nrows(t) ? nrows(t) - 1 : 0;
		return true;
	case '\t': case 'd':
		toggle_disasm(t);
		return true;
	case 'n': case 'N':
		if (!t->ann_nrank)
			return true;
		r = rank_of_sel(t);
		if (key == 'n')
			r = r + 1 < t->ann_nrank ? r + 1 : 0;
		else
			r = r ? r - 1 : t->ann_nrank - 1;
		t->ann_pos = r;
		t->ann_sel = t->ann_rank[r];
		return true;
	case 's':
		t->ann_by_total = !t->ann_by_total;
		rank(t);
		select_hottest(t);
		return true;
	case 27: case KEY_BACKSPACE: case 127: case 8: case 'q': case 'a':
		tui_annotate_close(t);
		return true;
	default:
		return false;
	}
}

void tui_annotate_click(struct tui *t, int row)
{
	unsigned vis = t->rows > 2 ? t->rows - 2 : 1;

	/* Row 0 is the title, the last row the keys. */
	t->msg[0] = '\0';
	if (row >= 1 && (unsigned)row <= vis &&
	    t->ann_top + (size_t)row - 1 < nrows(t))
		t->ann_sel = t->ann_top + (size_t)row - 1;
}

void tui_annotate_wheel(struct tui *t, bool up)
{
	for (int k = 0; k < 3; k++)
		tui_annotate_key(t, up ? KEY_UP : KEY_DOWN);
}
