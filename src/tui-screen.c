/*
 * tui-screen.c - where things go on the screen and what the header and
 * status lines say, computed from the view's state: the rows of the
 * header, timeline, sandwich pane, frames and status line, the layout of
 * the zoom root, the zoom path, and the header and status texts.  It reads
 * the state of the views below it (the top table's status, the sandwich's
 * rows) and never calls the loop or the actions above it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

/* ---- Geometry -------------------------------------------------------- */

unsigned tui_top_rows(const struct tui *t)
{
	return 1 + (t->tl_show ? 1 : 0) + tui_sandwich_rows(t);
}

/* The status line is one row at any width: its text is shortened to fit. */
unsigned tui_status_rows(struct tui *t)
{
	(void)t;
	return 1;
}

unsigned tui_frame_rows(const struct tui *t)
{
	unsigned used = tui_top_rows(t) + tui_status_rows((struct tui *)t);

	return t->rows > used ? t->rows - used : 0;
}

void tui_relayout(struct tui *t)
{
	layout_build(&t->lay, t->p, t->zoom, t->cols, 0, 1);
	tui_sandwich_relayout(t);
	t->dirty = false;
}

void tui_ensure_layout(struct tui *t)
{
	if (t->dirty)
		tui_relayout(t);
}

/* ---- Text of the header and status lines ----------------------------- */

static size_t append(char *buf, size_t cap, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= cap)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, cap - len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return len;
	len += (size_t)n;
	return len < cap ? len : cap - 1;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* Append the escaped name of node to a malloc'd string (len, cap). */
static void append_name(const struct tui *t, uint32_t node, char **s,
			size_t *len, size_t *cap)
{
	size_t n = profile_name_len(t->p, node), need = *len + 8 * n + 8;

	GROW(*s, *cap, need);
	*len += textfmt_escape(profile_name(t->p, node), n, *s + *len,
			       *cap - *len);
}

/*
 * The zoom path "all > main > ... > frame", at most avail columns (0: no
 * limit): it always ends with the zoomed frame, and when it is too long it
 * is cut from the left and starts with "..".  Only the ancestors that can
 * show are visited, so any depth costs what fits.  Returns a malloc'd
 * string.
 */
static char *zoom_path(const struct tui *t, size_t avail)
{
	uint32_t *chain = NULL;
	size_t nc = 0, capc = 0, w = 0, len = 0, cap = 0, skip = 0;
	bool cut = false;
	char *path = NULL, *out;

	for (uint32_t n = t->zoom; n != NODE_NONE;
	     n = profile_node(t->p, n)->parent) {
		GROW(chain, capc, nc + 1);
		chain[nc++] = n;
		w += textfmt_width(profile_name(t->p, n),
				   profile_name_len(t->p, n)) + 3;
		if (avail && w > avail + 3 &&
		    profile_node(t->p, n)->parent != NODE_NONE) {
			cut = true;   /* the rest cannot show */
			break;
		}
	}
	for (size_t k = nc; k-- > 0;) {
		if (k + 1 != nc) {
			GROW(path, cap, len + 4);
			memcpy(path + len, " > ", 3);
			len += 3;
		}
		append_name(t, chain[k], &path, &len, &cap);
	}
	if (cut) {
		/* The ancestors left out: the path starts with " > ". */
		GROW(path, cap, len + 4);
		memmove(path + 3, path, len);
		memcpy(path, " > ", 3);
		len += 3;
	}
	free(chain);
	w = textfmt_width(path, len);
	if (avail && (cut || w > avail)) {
		char u[8];
		size_t ul;
		unsigned c;

		while (skip < len && w + 2 > avail) {
			skip += textfmt_unit(path + skip, len - skip, u, &ul, &c);
			w -= c;
		}
		cut = true;
	}
	out = xmalloc(len - skip + 3);
	snprintf(out, len - skip + 3, "%s%.*s", cut ? ".." : "",
		 (int)(len - skip), path + skip);
	free(path);
	return out;
}

/*
 * The header: [TIMELINE | or HEAT MAP |] title | samples | /search/[i]
 * Matched | live | time range | rows (the top table's: functions) | zoom
 * path.  When it does not fit, the rows part goes (the markers say it; the
 * top table keeps its functions part when it fits), the title becomes its
 * base name, and the zoom path is cut from the left so that the zoomed
 * frame stays readable.  Live figures
 * come before the time range, the most useful first, so that an 80-column
 * screen shows the window, the lost count and flametop's CPU.
 */
void tui_header_text(struct tui *t, char *buf, size_t cap)
{
	char num[64], name[512], mid[2048], pat[256], rows[80] = "";
	size_t len = 0, mlen = 0;
	uint64_t total = profile_total(t->p, NODE_ROOT), a, b;
	const struct profile *rp = t->p;
	const char *title = !t->title ? "flametop" :
			    strcmp(t->title, "-") == 0 ? "stdin" : t->title;
	/* Timeline mode, on the strip or the heat map (tui-heatmap.c). */
	const char *mode = !t->tl_focus ? "" : t->heat_on && t->tl_show ?
			   "HEAT MAP | " : "TIMELINE | ";
	unsigned R;
	char *path = NULL;

	tui_ensure_layout(t);
	R = tui_frame_rows(t);
	if (t->v.top) {
		/* The table's own rows (the column titles take one), as its
		 * status line counts them. */
		size_t page = R > 1 ? R - 1 : 1, last;

		tui_top_refresh(t);
		last = t->top_scroll + page < t->nshown ? t->top_scroll + page :
		       t->nshown;
		if (t->nshown > page)
			snprintf(rows, sizeof(rows), " | functions %zu-%zu of %zu",
				 t->top_scroll + 1, last, t->nshown);
	} else if (t->lay.rows > R && R) {
		snprintf(rows, sizeof(rows), " | rows %u-%u of %u",
			 t->scroll + 1, t->scroll + R, t->lay.rows);
	}
	profile_format_amount(t->p, total, num, sizeof(num));
	mlen = append(mid, sizeof(mid), mlen, " | %s", num);
	if (search_active(t->search)) {
		textfmt_escape(t->pattern ? t->pattern : "", t->pattern ?
			       strlen(t->pattern) : 0, pat, sizeof(pat));
		profile_format_amount(t->p, t->matched, num, sizeof(num));
		/* "/re/i": the regex ignores case (i, -i). */
		mlen = append(mid, sizeof(mid), mlen,
			      t->literal ? " | \"%s\" Matched: %s (%.2f%%)" :
			      t->icase ? " | /%s/i Matched: %s (%.2f%%)" :
			      " | /%s/ Matched: %s (%.2f%%)", pat, num,
			      pct(t->matched, total));
	}
	if (t->vdesc[0])
		mlen = append(mid, sizeof(mid), mlen, " | view: %s", t->vdesc);
	if (t->v.top && t->top_filter) {
		textfmt_escape(t->top_filter, strlen(t->top_filter), name,
			       sizeof(name));
		mlen = append(mid, sizeof(mid), mlen, " | top filter: /%s/%s",
			      name, t->icase ? "i" : "");
	}
	if (t->live && t->live->status) {
		char live[256];

		live[0] = '\0';
		t->live->status(t->live_ctx, live, sizeof(live));
		if (live[0])
			mlen = append(mid, sizeof(mid), mlen, " | %s", live);
	}
	if (t->fetch_status[0])
		mlen = append(mid, sizeof(mid), mlen, " | %s", t->fetch_status);
	if (t->type_status) {
		char ty[128];

		ty[0] = '\0';
		t->type_status(t->type_ctx, ty, sizeof(ty));
		if (ty[0])
			mlen = append(mid, sizeof(mid), mlen, " | %s", ty);
	}
	/* A view derived from the source's range or live window (not a
	 * comparison of two ranges): the source's range. */
	if (t->p != t->src && !t->cmpsrc && !profile_range(t->p, &a, &b))
		rp = t->src;
	if (profile_range(rp, &a, &b)) {
		uint64_t f = 0, l = 0;

		profile_time_bounds(rp, &f, &l);
		/* Live: seconds since sampling began. */
		if (t->live && t->live->time_origin)
			t->live->time_origin(t->live_ctx, &f);
		if (l < b)
			l = b;
		mlen = append(mid, sizeof(mid), mlen,
			      " | time %.3f-%.3f s of %.3f s",
			      (double)(a > f ? a - f : 0) / 1e9,
			      (double)(b > f ? b - f : 0) / 1e9,
			      (double)(l > f ? l - f : 0) / 1e9);
	}
	textfmt_escape(title, strlen(title), name, sizeof(name));
	len = append(buf, cap, len, "%s%s%s", mode, name, mid);
	len = append(buf, cap, len, "%s", rows);
	if (t->zoom != NODE_ROOT) {
		path = zoom_path(t, t->cols ? t->cols : 0);
		len = append(buf, cap, len, " | zoom: %s", path);
		free(path);
	}
	if (!t->cols || textfmt_width(buf, len) <= t->cols)
		return;

	/* Too long: a shorter title, no rows, the path cut from the left. */
	{
		char base[4096];
		size_t used, avail;

		/* "DIR/BEFORE vs DIR/AFTER": both names, short. */
		title_base_names(title, profile_is_differential(t->src), base,
				 sizeof(base));
		textfmt_escape(base, strlen(base), name, sizeof(name));
		len = 0;
		len = append(buf, cap, len, "%s%s%s", mode, name, mid);
		/* The table has no scroll markers: its rows stay if they fit. */
		if (t->v.top && textfmt_width(buf, len) + strlen(rows) <= t->cols)
			len = append(buf, cap, len, "%s", rows);
		if (t->zoom == NODE_ROOT)
			return;
		used = textfmt_width(buf, len) + 9;    /* " | zoom: " */
		avail = t->cols > used + 8 ? t->cols - used : 8;
		path = zoom_path(t, avail);
		len = append(buf, cap, len, " | zoom: %s", path);
		free(path);
	}
}

/*
 * The status line: name | total (self) | share [| share of all] [| before
 * and after] [| % of zoom], on one row.  The share is of what the graph
 * shows: "% of all" when the view keeps every sample of the profile (or is
 * the profile), else "% of view" followed by "% of all", the share of the
 * whole profile (in its time range or live window; a comparison keeps its
 * own shares).  It never takes a second row; when it does not fit, it is
 * shortened by priority: first the name is cut with ".." (to 8 columns at
 * the least), then the second figures go (the zoom's share, self, the
 * share of all; in a comparison its own share, the shares of before and
 * after and their difference), then the words ("% of all" becomes "%",
 * "before B, after A" becomes "B -> A"), and what still does not fit is
 * cut.
 */
enum { SP_TOTAL, SP_SELF, SP_SHARE, SP_ALL, SP_DIFF, SP_ZOOM, SP_N };

/*
 * Shorten the parts of the status line one step further; false when
 * there is no step left.  A comparison's share of all is its after's,
 * which before and after say again.
 */
static bool status_shorten(const struct tui *t, const struct profile *p,
			   uint32_t sel, char part[SP_N][256], int step)
{
	bool diff = profile_is_differential(p);
	char dd[200], *pc;

	switch (step) {
	case 0:
		part[SP_ZOOM][0] = '\0';
		return true;
	case 1:
		part[SP_SELF][0] = '\0';
		return true;
	case 2:
		part[SP_ALL][0] = '\0';
		return true;
	case 3:
		if (diff)
			part[SP_SHARE][0] = '\0';
		return true;
	case 4:
	case 5:
		/* A comparison's second figures: the shares, the difference. */
		if (diff) {
			diff_describe(p, sel, t->v.negate,
				      (unsigned)step - 3, dd, sizeof(dd));
			snprintf(part[SP_DIFF], sizeof(part[0]), " | %s", dd);
		}
		return true;
	case 6:
		/* The words: "12.34% of all" is "12.34%". */
		pc = strchr(part[SP_SHARE], '%');
		if (pc)
			pc[1] = '\0';
		if (diff) {
			diff_describe(p, sel, t->v.negate, 3, dd,
				      sizeof(dd));
			snprintf(part[SP_DIFF], sizeof(part[0]), " | %s", dd);
		}
		return true;
	default:
		return false;
	}
}

void tui_status_text(struct tui *t, char *buf, size_t cap)
{
	char part[SP_N][256], rest[1400], num[64], *name;
	/* A caller in the sandwich's callers pane: its total is what of the
	 * function's weight passes through it, its tree's self (the stacks
	 * it starts) is left out and it is not in the graph's zoom. */
	bool caller = t->sand_focus;
	const struct profile *p = caller ? t->sand : t->p;
	uint32_t s = caller ? t->sand_sel : t->sel;
	const struct profile *from = t->cmpsrc ? t->cmpsrc : t->src;
	uint64_t total = profile_total(p, NODE_ROOT);
	uint64_t all = profile_total(from, NODE_ROOT);
	uint64_t z = profile_total(t->p, t->zoom), w = profile_total(p, s);
	size_t rlen, nlen = profile_name_len(p, s), nw, rw, keep;
	bool in_zoom = !caller &&
		       profile_depth(p, s) >= profile_depth(t->p, t->zoom);
	bool diff = profile_is_differential(p);
	/* A comparison's view has a share of all too; sized by its before
	 * (B), its weights are not the whole comparison's (after). */
	bool subset = p != from && !(diff && t->v.negate) && total != all;
	unsigned cols = tui_status_cols(t);

	if (t->v.top) {
		tui_top_status_text(t, buf, cap);
		return;
	}
	for (int k = 0; k < SP_N; k++)
		part[k][0] = '\0';
	profile_format_amount(p, w, num, sizeof(num));
	snprintf(part[SP_TOTAL], sizeof(part[0]), " | %s", num);
	profile_format_figure(p, profile_self(p, s), num, sizeof(num));
	if (!caller)
		snprintf(part[SP_SELF], sizeof(part[0]), " (self %s)", num);
	snprintf(part[SP_SHARE], sizeof(part[0]), " | %.2f%% of %s",
		 pct(w, total), subset ? "view" : "all");
	if (subset)
		snprintf(part[SP_ALL], sizeof(part[0]), " | %.2f%% of all",
			 pct(w, all));
	if (diff) {
		/* Before, after and the change, in weight and in share. */
		char dd[200];

		diff_describe(p, s, t->v.negate, 0, dd, sizeof(dd));
		snprintf(part[SP_DIFF], sizeof(part[0]), " | %s", dd);
	}
	if (in_zoom)
		snprintf(part[SP_ZOOM], sizeof(part[0]), " | %.2f%% of zoom",
			 pct(w, z));
	nw = textfmt_width(profile_name(p, s), nlen);
	keep = nw < 8 ? nw : 8;   /* the name's columns, at least */
	for (int step = 0;; step++) {
		rlen = 0;
		for (int k = 0; k < SP_N; k++)
			rlen = append(rest, sizeof(rest), rlen, "%s", part[k]);
		rw = textfmt_width(rest, rlen);
		if (!cols || rw + keep <= cols ||
		    !status_shorten(t, p, s, part, step))
			break;
	}
	name = xmalloc(8 * (nlen + cols + sizeof(rest)) + 16);
	if (cols && rw + keep > cols) {
		/* A screen narrower than the numbers: they are cut too, by
		 * columns, or left out when only the name fits. */
		if (cols > keep + 2) {
			textfmt_fit(rest, rlen, (unsigned)(cols - keep), ' ',
				    name);
			snprintf(rest, sizeof(rest), "%s", name);
			rw = cols - keep;
		} else {
			rest[0] = '\0';
			rw = 0;
		}
	}
	if (cols && nw + rw > cols) {
		textfmt_fit(profile_name(p, s), nlen,
			    (unsigned)(cols - rw), ' ', name);
	} else {
		textfmt_escape(profile_name(p, s), nlen, name,
			       8 * (nlen + cols) + 16);
	}
	snprintf(buf, cap, "%s%s", name, rest);
	free(name);
}
