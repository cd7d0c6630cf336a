/*
 * tui.c - the interactive view: its state, the actions of the key table,
 * and the main loop around curses.
 *
 * The view is a layout (layout.h, the same as --text) of the zoom root's
 * subtree at the screen's width, every depth at once; only the rows on
 * screen are drawn (tui-draw.c).  The selection is a node id, and node ids
 * are stable for the profile's life, so the selection, the zoom and its
 * history survive a relayout (resize, time range, a live refresh).  When
 * the selected node is no longer drawn (it became narrower than a column,
 * or its weight dropped to zero) the nearest drawn ancestor takes over.
 *
 * Signals: SIGINT, SIGTERM and SIGHUP only set a flag; the loop polls the
 * keyboard with a 100 ms timeout (the live tick), sees the flag, restores
 * the terminal and returns 128 + the signal.  Fatal errors restore it
 * through util_set_teardown.
 */
#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "export.h"
#include "diff.h"
#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

#define NO_EYE UINT32_MAX

/* ---- Geometry -------------------------------------------------------- */

unsigned tui_top_rows(const struct tui *t)
{
	return 1 + (t->tl_show ? 1 : 0) + tui_sandwich_rows(t);
}

unsigned tui_status_rows(struct tui *t)
{
	char buf[4096];
	size_t w, lines;

	if (t->prompting || t->msg[0] || t->cols == 0)
		return 1;
	tui_status_text(t, buf, sizeof(buf));
	w = textfmt_width(buf, strlen(buf));
	lines = (w + t->cols - 1) / t->cols;
	if (lines < 1)
		lines = 1;
	if (lines > 3)
		lines = 3;
	while (lines > 1 && t->rows < tui_top_rows(t) + lines + 3)
		lines--;
	return (unsigned)lines;
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

static void ensure_layout(struct tui *t)
{
	if (t->dirty)
		tui_relayout(t);
}

ssize_t tui_rect_of(const struct tui *t, uint32_t node)
{
	unsigned d = profile_depth(t->p, node);

	if (d >= t->lay.rows)
		return -1;
	for (size_t i = t->lay.row_start[d]; i < t->lay.row_start[d + 1]; i++)
		if (t->lay.rects[i].node == node)
			return (ssize_t)i;
	return -1;
}

/*
 * Zoomed into a deep frame, its ancestors fold into one row (its parent's;
 * the header names the whole path), so its subtree gets the screen: the
 * smallest scroll.  Selecting a frame above unfolds as far as needed.
 */
static unsigned fold_floor(const struct tui *t)
{
	unsigned z = profile_depth(t->p, t->zoom), d;

	if (t->unfold || z < 2)
		return 0;
	d = profile_depth(t->p, t->sel);
	return d < z - 1 ? d : z - 1;
}

static void clamp_scroll(struct tui *t)
{
	unsigned R = tui_frame_rows(t);
	unsigned max = t->lay.rows > R ? t->lay.rows - R : 0;

	if (t->scroll > max)
		t->scroll = max;
	if (t->scroll < fold_floor(t))
		t->scroll = fold_floor(t);
}

static void ensure_visible(struct tui *t)
{
	unsigned R = tui_frame_rows(t), d;

	if (!R)
		return;
	d = profile_depth(t->p, t->sel);
	if (d < t->scroll)
		t->scroll = d;
	else if (d >= t->scroll + R)
		t->scroll = d - R + 1;
	clamp_scroll(t);
}

/* After any change of the profile, zoom or size: a valid zoom and selection. */
static void fix_view(struct tui *t)
{
	while (t->zoom != NODE_ROOT && profile_total(t->p, t->zoom) == 0)
		t->zoom = profile_node(t->p, t->zoom)->parent;
	ensure_layout(t);
	while (t->sel != NODE_ROOT && tui_rect_of(t, t->sel) < 0)
		t->sel = profile_node(t->p, t->sel)->parent;
	ensure_visible(t);
}

static void select_node(struct tui *t, uint32_t node, bool keep_eye)
{
	t->sel = node;
	if (!keep_eye)
		t->eye = NO_EYE;
	ensure_visible(t);
}

static uint32_t rect_center(const struct layout_rect *r)
{
	return r->col + r->width / 2;
}

static uint32_t col_distance(const struct layout_rect *r, uint32_t col)
{
	if (col < r->col)
		return r->col - col;
	if (col >= r->col + r->width)
		return col - (r->col + r->width - 1);
	return 0;
}

/* The rect on row depth nearest to col (-1 if the row is empty). */
static ssize_t nearest_on_row(const struct tui *t, unsigned depth,
			      uint32_t col, uint32_t parent)
{
	ssize_t best = -1;
	uint32_t bestd = UINT32_MAX;

	if (depth >= t->lay.rows)
		return -1;
	for (size_t i = t->lay.row_start[depth]; i < t->lay.row_start[depth + 1];
	     i++) {
		const struct layout_rect *r = &t->lay.rects[i];
		uint32_t dd;

		if (parent != NODE_NONE &&
		    profile_node(t->p, r->node)->parent != parent)
			continue;
		dd = col_distance(r, col);
		if (dd < bestd) {
			bestd = dd;
			best = (ssize_t)i;
		}
	}
	return best;
}

/* ---- Moving ---------------------------------------------------------- */

static uint32_t sel_center(struct tui *t)
{
	ssize_t i = tui_rect_of(t, t->sel);

	return i < 0 ? 0 : rect_center(&t->lay.rects[i]);
}

static void move_parent(struct tui *t)
{
	uint32_t up = profile_node(t->p, t->sel)->parent;

	if (up == NODE_NONE)
		return;
	if (t->eye == NO_EYE)
		t->eye = sel_center(t);
	select_node(t, up, true);
}

static void move_child(struct tui *t)
{
	ssize_t i;

	if (t->eye == NO_EYE)
		t->eye = sel_center(t);
	i = nearest_on_row(t, profile_depth(t->p, t->sel) + 1, t->eye, t->sel);
	if (i >= 0)
		select_node(t, t->lay.rects[i].node, true);
}

static void move_side(struct tui *t, int dir)
{
	ssize_t i = tui_rect_of(t, t->sel);
	unsigned d;

	if (i < 0)
		return;
	d = t->lay.rects[i].depth;
	if (dir < 0 && (size_t)i > t->lay.row_start[d])
		select_node(t, t->lay.rects[i - 1].node, false);
	else if (dir > 0 && (size_t)i + 1 < t->lay.row_start[d + 1])
		select_node(t, t->lay.rects[i + 1].node, false);
}

static void select_row(struct tui *t, unsigned depth)
{
	ssize_t i = nearest_on_row(t, depth, sel_center(t), NODE_NONE);

	if (i >= 0)
		select_node(t, t->lay.rects[i].node, false);
}

/* Scroll by n rows toward the deeper frames (n < 0: toward the root). */
static void scroll_depth(struct tui *t, int n)
{
	unsigned R = tui_frame_rows(t), d;
	long s = (long)t->scroll + n;

	if (!R)
		return;
	if (s < 0)
		s = 0;
	t->scroll = (unsigned)s;
	clamp_scroll(t);
	d = profile_depth(t->p, t->sel);
	if (d < t->scroll)
		select_row(t, t->scroll);
	else if (d >= t->scroll + R)
		select_row(t, t->scroll + R - 1);
}

/* ---- Zoom ------------------------------------------------------------ */

static void set_zoom(struct tui *t, uint32_t z, bool remember)
{
	if (z == t->zoom)
		return;
	if (remember) {
		GROW(t->zhist, t->capzhist, t->nzhist + 1);
		t->zhist[t->nzhist++] = t->zoom;
	}
	t->zoom = z;
	t->dirty = true;
	fix_view(t);
}

/* ---- Search ---------------------------------------------------------- */

static void search_refresh(struct tui *t)
{
	t->matched = 0;
	if (!search_active(t->search))
		return;
	search_update(t->search, t->p);
	t->matched = search_matched_weight(t->search, t->p, NODE_ROOT);
}

#define set_msg tui_set_msg

void tui_set_msg(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_error = error;
}

static size_t count_visible_matches(struct tui *t)
{
	size_t n = 0;

	ensure_layout(t);
	for (size_t i = 0; i < t->lay.n; i++)
		if (search_node_matches(t->search, t->p, t->lay.rects[i].node))
			n++;
	return n;
}

/* Remember a pattern typed at the prompt (the last one first for Up). */
static void history_add(struct tui *t, const char *pattern)
{
	if (!*pattern)
		return;
	/* Once only, at its latest place. */
	for (size_t i = 0; i < t->nhist; i++)
		if (strcmp(t->hist[i], pattern) == 0) {
			free(t->hist[i]);
			memmove(t->hist + i, t->hist + i + 1,
				(t->nhist - i - 1) * sizeof(*t->hist));
			t->nhist--;
			break;
		}
	if (t->nhist == TUI_HISTORY) {
		free(t->hist[0]);
		memmove(t->hist, t->hist + 1, (t->nhist - 1) * sizeof(*t->hist));
		t->nhist--;
	}
	GROW(t->hist, t->caphist, t->nhist + 1);
	t->hist[t->nhist++] = xstrdup(pattern);
}

void tui_prompt_history(struct tui *t, int dir)
{
	const char *s;

	if (!t->prompting || !t->nhist)
		return;
	if (t->hist_pos == t->nhist && dir < 0) {
		/* Leaving the line being typed: keep it for Down. */
		free(t->hist_typed);
		t->hist_typed = xstrdup(t->prompt);
	}
	if (dir < 0 && t->hist_pos > 0)
		t->hist_pos--;
	else if (dir > 0 && t->hist_pos < t->nhist)
		t->hist_pos++;
	else
		return;
	s = t->hist_pos < t->nhist ? t->hist[t->hist_pos] :
	    t->hist_typed ? t->hist_typed : "";
	snprintf(t->prompt, sizeof(t->prompt), "%s", s);
	t->prompt_len = strlen(t->prompt);
}

void tui_search(struct tui *t, const char *pattern)
{
	char err[300];

	if (!*pattern) {
		search_clear(t->search);
		free(t->pattern);
		t->pattern = NULL;
		t->matched = 0;
		set_msg(t, false, "search cleared");
		return;
	}
	if (search_set(t->search, pattern, t->icase, err, sizeof(err)) < 0) {
		char shown[200];

		textfmt_escape(pattern, strlen(pattern), shown, sizeof(shown));
		set_msg(t, true, "bad regex /%s/: %s", shown, err);
		return;
	}
	free(t->pattern);
	t->pattern = xstrdup(pattern);
	t->literal = false;
	search_refresh(t);
	if (!t->matched)
		set_msg(t, false, "no frame matches");
	else if (!count_visible_matches(t))
		set_msg(t, false, "matches are too narrow to draw; zoom in");
}

static void search_name(struct tui *t)
{
	const char *name = profile_name(t->p, t->sel);
	size_t len = profile_name_len(t->p, t->sel);

	search_set_literal(t->search, name, len);
	free(t->pattern);
	t->pattern = xstrndup(name, len);
	t->literal = true;
	search_refresh(t);
}

static void toggle_icase(struct tui *t)
{
	t->icase = !t->icase;
	if (t->pattern && !t->literal) {
		char *pat = xstrdup(t->pattern);

		tui_search(t, pat);
		free(pat);
	}
	if (!t->msg[0])
		set_msg(t, false, "case-insensitive search %s",
			t->icase ? "on" : "off");
}

/* Is rect a before (depth, col) in layout order? */
static bool before(const struct layout_rect *a, unsigned d, uint32_t col)
{
	return a->depth < d || (a->depth == d && a->col < col);
}

static void next_match(struct tui *t, int dir)
{
	ssize_t cur, found = -1;
	unsigned d;
	uint32_t col;

	if (!search_active(t->search)) {
		set_msg(t, false, "no search: press / to search");
		return;
	}
	ensure_layout(t);
	cur = tui_rect_of(t, t->sel);
	d = cur >= 0 ? t->lay.rects[cur].depth : 0;
	col = cur >= 0 ? t->lay.rects[cur].col : 0;
	for (size_t k = 0; k < t->lay.n; k++) {
		size_t i = dir > 0 ? k : t->lay.n - 1 - k;
		const struct layout_rect *r = &t->lay.rects[i];

		if (!search_node_matches(t->search, t->p, r->node))
			continue;
		if (dir > 0 ? (!before(r, d, col) && (r->depth != d ||
						      r->col != col))
			    : before(r, d, col)) {
			found = (ssize_t)i;
			break;
		}
	}
	if (found < 0 && t->zoom != NODE_ROOT) {
		/* Nothing further in the zoomed view: zoom out and go on. */
		set_zoom(t, NODE_ROOT, true);
		set_msg(t, false, "zoomed out to find more matches");
		cur = tui_rect_of(t, t->sel);
		d = cur >= 0 ? t->lay.rects[cur].depth : 0;
		col = cur >= 0 ? t->lay.rects[cur].col : 0;
		for (size_t k = 0; k < t->lay.n && found < 0; k++) {
			size_t i = dir > 0 ? k : t->lay.n - 1 - k;
			const struct layout_rect *r = &t->lay.rects[i];

			if (search_node_matches(t->search, t->p, r->node) &&
			    (dir > 0 ? !before(r, d, col) &&
				       (r->depth != d || r->col != col)
				     : before(r, d, col)))
				found = (ssize_t)i;
		}
	}
	if (found < 0) {
		/* Wrap around. */
		for (size_t k = 0; k < t->lay.n && found < 0; k++) {
			size_t i = dir > 0 ? k : t->lay.n - 1 - k;

			if (search_node_matches(t->search, t->p,
						t->lay.rects[i].node))
				found = (ssize_t)i;
		}
		if (found >= 0 && t->lay.rects[found].node != t->sel)
			set_msg(t, false, "search wrapped around");
	}
	if (found < 0) {
		set_msg(t, false, "no matching frame is wide enough to draw");
		return;
	}
	select_node(t, t->lay.rects[found].node, false);
	{
		/* "match k of N" among the matching frames drawn. */
		size_t k = 0, n = 0;

		for (size_t i = 0; i < t->lay.n; i++)
			if (search_node_matches(t->search, t->p,
						t->lay.rects[i].node)) {
				n++;
				if (i == (size_t)found)
					k = n;
			}
		if (t->msg[0]) {
			char why[sizeof(t->msg)];

			memcpy(why, t->msg, sizeof(why));
			set_msg(t, false, "match %zu of %zu (%s)", k, n, why);
		} else
			set_msg(t, false, "match %zu of %zu", k, n);
	}
}

/* ---- Time ranges ----------------------------------------------------- */

#define TIMELINE_HINT "timeline: Left/Right move, Enter marks the start, " \
	"Enter again the end; Esc, t or q leave"

void tui_slice_times(const struct tui *t, unsigned i, uint64_t *a,
		     uint64_t *b)
{
	unsigned __int128 span = (unsigned __int128)(t->tl_last - t->tl_first) + 1;

	*a = t->tl_first + (uint64_t)(span * i / t->tl_n);
	if (i + 1 >= t->tl_n)
		*b = t->tl_last;
	else
		*b = t->tl_first + (uint64_t)(span * (i + 1) / t->tl_n) - 1;
}

void tui_timeline_refresh(struct tui *t)
{
	t->tl_n = 0;
	if (!profile_has_timeline(t->p) || !t->cols ||
	    !profile_time_bounds(t->p, &t->tl_first, &t->tl_last))
		return;
	t->tl_n = t->cols;
	t->tl_weight = xreallocarray(t->tl_weight, t->tl_n,
				     sizeof(*t->tl_weight));
	for (unsigned i = 0; i < t->tl_n; i++) {
		uint64_t a, b, w = 0;

		tui_slice_times(t, i, &a, &b);
		if (a <= b)
			profile_count_range(t->p, a, b, &w);
		t->tl_weight[i] = w;
	}
	if (t->tl_cur >= (int)t->tl_n)
		t->tl_cur = (int)t->tl_n - 1;
	if (t->tl_mark >= (int)t->tl_n)
		t->tl_mark = -1;
	tui_heat_stale(t);
}

/* The profile's weights changed: search, layout, selection. */
static void profile_changed(struct tui *t)
{
	search_refresh(t);
	t->dirty = true;
	fix_view(t);
	if (t->tl_show)
		tui_timeline_refresh(t);
}

static void timeline_open(struct tui *t)
{
	uint64_t a, b;

	if (!profile_has_timeline(t->p)) {
		set_msg(t, false, "no timeline: this profile has no timestamps "
			"(perf script and perf.data have them)");
		return;
	}
	t->tl_show = t->tl_focus = true;
	t->tl_mark = -1;
	tui_timeline_refresh(t);
	t->tl_cur = 0;
	if (profile_range(t->p, &a, &b) && t->tl_n) {
		for (unsigned i = 0; i < t->tl_n; i++) {
			uint64_t x, y;

			tui_slice_times(t, i, &x, &y);
			if (y >= a) {
				t->tl_cur = (int)i;
				break;
			}
		}
	}
	ensure_visible(t);
	set_msg(t, false, TIMELINE_HINT);
}

static void timeline_mark(struct tui *t)
{
	uint64_t a, b, x;
	int lo, hi;

	if (!t->tl_n)
		return;
	if (t->tl_mark < 0) {
		t->tl_mark = t->tl_cur;
		tui_slice_times(t, (unsigned)t->tl_cur, &a, &b);
		set_msg(t, false, "range starts at %.3f s; move and press Enter "
			"to end it", (double)(a - t->tl_first) / 1e9);
		return;
	}
	lo = t->tl_mark < t->tl_cur ? t->tl_mark : t->tl_cur;
	hi = t->tl_mark < t->tl_cur ? t->tl_cur : t->tl_mark;
	tui_slice_times(t, (unsigned)lo, &a, &x);
	tui_slice_times(t, (unsigned)hi, &x, &b);
	tui_range_marked(t, a, b);
}

/* A range [a, b] was marked, on the strip or the heat map (tui-heatmap.c). */
void tui_range_marked(struct tui *t, uint64_t a, uint64_t b)
{
	if (t->cmp_pending) {
		/* Range B: shown against range A, a view of its own. */
		t->cmp_pending = false;
		t->tl_mark = -1;
		t->tl_show = t->tl_focus = false;
		tui_view_compare_ranges(t, t->cmp_pa0, t->cmp_pa1, a, b);
		profile_changed(t);
		return;
	}
	profile_set_range(t->p, a, b);
	t->tl_mark = -1;
	t->tl_focus = false;
	profile_changed(t);
	set_msg(t, false, "range %.3f-%.3f s applied; timeline mode left "
		"(t: select again, T: all samples)",
		(double)(a - t->tl_first) / 1e9, (double)(b - t->tl_first) / 1e9);
}

/* c: the range being marked (or the one shown) becomes range A. */
static void timeline_compare(struct tui *t)
{
	uint64_t a, b, x;
	int lo, hi;

	if (!t->tl_n)
		return;
	if (profile_is_differential(t->src)) {
		set_msg(t, false, "this profile is a comparison already: no "
			"ranges to compare");
		return;
	}
	if (t->tl_mark >= 0) {
		lo = t->tl_mark < t->tl_cur ? t->tl_mark : t->tl_cur;
		hi = t->tl_mark < t->tl_cur ? t->tl_cur : t->tl_mark;
		tui_slice_times(t, (unsigned)lo, &a, &x);
		tui_slice_times(t, (unsigned)hi, &x, &b);
	} else if (!profile_range(t->p, &a, &b)) {
		set_msg(t, false, "compare: mark range A first (Enter at its "
			"start, c at its end)");
		return;
	}
	tui_range_take_a(t, a, b);
}

/* [a, b] becomes range A, on the strip or the heat map. */
void tui_range_take_a(struct tui *t, uint64_t a, uint64_t b)
{
	t->cmp_pending = true;
	t->cmp_pa0 = a;
	t->cmp_pa1 = b;
	t->tl_mark = -1;
	set_msg(t, false, "range A %.3f-%.3f s; now mark range B (Enter, "
		"Enter): it is shown against A", (double)(a - t->tl_first) / 1e9,
		(double)(b - t->tl_first) / 1e9);
}

static void timeline_move(struct tui *t, int n)
{
	long c = (long)t->tl_cur + n;
	uint64_t a, b;
	char num[64];

	if (!t->tl_n)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)t->tl_n)
		c = (long)t->tl_n - 1;
	t->tl_cur = (int)c;
	/* Say where the cursor is: its slice's times and samples. */
	tui_slice_times(t, (unsigned)c, &a, &b);
	profile_format_amount(t->p, t->tl_weight[c], num, sizeof(num));
	set_msg(t, false, "%.3f-%.3f s: %s%s",
		(double)(a - t->tl_first) / 1e9,
		(double)(b - t->tl_first) / 1e9, num,
		t->tl_mark >= 0 ? "; Enter ends the range" :
				  "; Enter starts a range");
}

/* ---- Themes ---------------------------------------------------------- */

static int load_theme(struct theme *th, const char *name, char *err,
		      size_t errcap)
{
	char *path = theme_find(name);
	int rc;

	if (!path) {
		if (strcmp(name, THEME_DEFAULT) == 0) {
			theme_default(th);
			return 0;
		}
		snprintf(err, errcap, "no theme '%s' (see doc/themes.md for "
			 "where themes are looked for)", name);
		return -1;
	}
	rc = theme_load(th, path, err, errcap);
	free(path);
	return rc;
}

static void next_theme(struct tui *t)
{
	char **names, err[400];
	size_t n = theme_names(&names), i;
	struct theme th;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], t->theme.name) == 0)
			break;
	i = i < n ? (i + 1) % n : 0;
	if (load_theme(&th, names[i], err, sizeof(err)) < 0) {
		set_msg(t, true, "%s", err);
	} else {
		t->theme = th;
		tui_draw_theme_changed(t);
		set_msg(t, false, "theme %s: %s", th.name, th.description);
	}
	theme_names_free(names, n);
}

/* ---- Saving ---------------------------------------------------------- */

int tui_save_folded(const struct profile *p, const char *prefix, char *msg,
		    size_t cap)
{
	char name[96], stamp[64], path[512], cwd[256];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;
	size_t n;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "%s-%s.folded", prefix, stamp);
	snprintf(path, sizeof(path), "%s", name);
	f = fopen(path, "wx");
	for (int i = 2; !f && errno == EEXIST && i < 100; i++) {
		snprintf(path, sizeof(path), "%s-%s-%d.folded", prefix, stamp, i);
		f = fopen(path, "wx");
	}
	if (!f) {
		/* A directory we cannot write: /tmp. */
		snprintf(path, sizeof(path), "/tmp/%s", name);
		f = fopen(path, "w");
	}
	if (!f) {
		snprintf(msg, cap, "cannot save: %s", strerror(errno));
		return -1;
	}
	n = export_collapse(f, p);
	if (fclose(f) != 0) {
		snprintf(msg, cap, "cannot save %s: %s", path, strerror(errno));
		return -1;
	}
	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(msg, cap, "saved %zu stacks to %s/%s", n, cwd, path);
	else
		snprintf(msg, cap, "saved %zu stacks to %s", n, path);
	return 0;
}

/* A live key on a saved profile: s saves, the others say why not. */
static void saved_profile_key(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_LIVE_SAVE: {
		char m[sizeof(t->msg) - 64];
		uint64_t x, y;
		bool ranged = profile_range(t->p, &x, &y);
		int rc = tui_save_folded(t->p, "flametop-view", m, sizeof(m));

		set_msg(t, rc < 0, "%s%s", m, rc < 0 ? "" : ranged ?
			" (the time range shown, the whole graph)" :
			" (the whole graph)");
		return;
	}
	case ACT_LIVE_RATE_UP:
	case ACT_LIVE_RATE_DOWN:
		set_msg(t, false, "+ and - change the sampling rate of live "
			"sampling (-p, -a, -- COMMAND); this profile is saved");
		return;
	case ACT_LIVE_WINDOW:
		set_msg(t, false, "w changes the live window; on a saved profile "
			"t selects a time range");
		return;
	case ACT_LIVE_FREEZE:
		set_msg(t, false, "space freezes live sampling; a saved profile "
			"does not change");
		return;
	case ACT_LIVE_RESET:
		set_msg(t, false, "x forgets live samples; a saved profile keeps "
			"its samples (T: all of them again)");
		return;
	default:
		return;
	}
}

/* ---- Actions --------------------------------------------------------- */

/* Open the prompt line for kind. */
static void start_prompt(struct tui *t, enum tui_prompt kind)
{
	t->prompting = true;
	t->prompt_kind = kind;
	t->prompt_len = 0;
	t->prompt[0] = '\0';
	t->hist_pos = t->nhist;
}

/* The prompt was answered with Enter. */
static void prompt_done(struct tui *t)
{
	t->prompting = false;
	if (t->prompt_kind == PROMPT_SEARCH) {
		history_add(t, t->prompt);
		tui_search(t, t->prompt);
	}
	else if (t->prompt_kind == PROMPT_TOP_FILTER)
		tui_top_set_filter(t, t->prompt);
	else
		tui_view_prompt_done(t, t->prompt_kind, t->prompt);
	t->dirty = true;
	fix_view(t);
}

bool tui_do(struct tui *t, enum tui_action a)
{
	bool live = t->live != NULL;

	t->msg[0] = '\0';
	if (t->v.top && tui_top_action(t, a))
		return true;
	ensure_layout(t);
	switch (a) {
	case ACT_TOP_TABLE:
	case ACT_CALLERS:
	case ACT_CALLEES:
	case ACT_SANDWICH:
	case ACT_INVERT:
	case ACT_NEGATE:
	case ACT_ORDER:
	case ACT_FOLD:
	case ACT_IDLE:
	case ACT_GROUP:
	case ACT_VIEW_RESET:
		tui_view_action(t, a);
		t->dirty = true;
		fix_view(t);
		break;
	case ACT_UNFOLD:
		t->unfold = !t->unfold;
		if (t->unfold && t->scroll > 0 &&
		    profile_depth(t->p, t->zoom) >= 2)
			t->scroll = 0;
		ensure_visible(t);
		set_msg(t, false, t->unfold ? "ancestors of the zoomed frame "
			"unfolded" : "ancestors of the zoomed frame folded");
		break;
	case ACT_INCLUDE:
		start_prompt(t, PROMPT_INCLUDE);
		break;
	case ACT_EXCLUDE:
		start_prompt(t, PROMPT_EXCLUDE);
		break;
	case ACT_TASKS:
		start_prompt(t, PROMPT_TASKS);
		break;
	case ACT_TOP_FILTER:
		start_prompt(t, PROMPT_TOP_FILTER);
		break;
	case ACT_COPY_NAME:
	case ACT_COPY_STACK:
		tui_view_copy(t, a == ACT_COPY_STACK);
		break;
	case ACT_TOP_BY_SELF:
	case ACT_TOP_BY_TOTAL:
	case ACT_TOP_BY_NAME:
		break;
	case ACT_NONE:
	case ACT_MOUSE_DOC:
	case ACT_PROMPT_DOC:
		break;
	case ACT_UP:
		t->flame ? move_child(t) : move_parent(t);
		break;
	case ACT_DOWN:
		t->flame ? move_parent(t) : move_child(t);
		break;
	case ACT_LEFT:
		move_side(t, -1);
		break;
	case ACT_RIGHT:
		move_side(t, +1);
		break;
	case ACT_TOP:
		t->flame ? select_row(t, t->lay.rows - 1) : select_row(t, 0);
		break;
	case ACT_BOTTOM:
		t->flame ? select_row(t, 0) : select_row(t, t->lay.rows - 1);
		break;
	case ACT_PGUP:
		scroll_depth(t, (t->flame ? 1 : -1) * (int)tui_frame_rows(t));
		break;
	case ACT_PGDN:
		scroll_depth(t, (t->flame ? -1 : 1) * (int)tui_frame_rows(t));
		break;
	case ACT_ZOOM:
		if (t->sel == t->zoom)
			set_msg(t, false, "already zoomed to this frame");
		else
			set_zoom(t, t->sel, true);
		break;
	case ACT_UNZOOM:
		if (!t->nzhist && tui_view_back(t)) {
			/* No zoom to undo: the previous view. */
			t->dirty = true;
			fix_view(t);
			set_msg(t, false, "view: %s", t->vdesc[0] ? t->vdesc
				: "the profile as read");
			break;
		}
		if (!t->nzhist) {
			set_msg(t, false, "not zoomed in");
			break;
		}
		t->zoom = t->zhist[--t->nzhist];
		t->dirty = true;
		fix_view(t);
		break;
	case ACT_RESET:
		t->nzhist = 0;
		if (t->zoom != NODE_ROOT) {
			t->zoom = NODE_ROOT;
			t->dirty = true;
			fix_view(t);
		}
		break;
	case ACT_SEARCH:
		start_prompt(t, PROMPT_SEARCH);
		break;
	case ACT_NEXT:
		next_match(t, +1);
		break;
	case ACT_PREV:
		next_match(t, -1);
		break;
	case ACT_SEARCH_NAME:
		search_name(t);
		break;
	case ACT_ICASE:
		toggle_icase(t);
		break;
	case ACT_TIMELINE:
		if (t->tl_show && !t->tl_focus) {
			t->tl_focus = true;
			set_msg(t, false, TIMELINE_HINT);
		} else if (t->tl_show) {
			t->tl_show = t->tl_focus = false;
			ensure_visible(t);
			set_msg(t, false, "timeline mode left");
		} else {
			timeline_open(t);
		}
		break;
	case ACT_RANGE_CLEAR:
		if (profile_range(t->p, &(uint64_t){ 0 }, &(uint64_t){ 0 })) {
			profile_clear_range(t->p);
			profile_changed(t);
			set_msg(t, false, "all samples (no time range)");
		}
		break;
	case ACT_TL_LEFT:
		timeline_move(t, -1);
		break;
	case ACT_TL_RIGHT:
		timeline_move(t, 1);
		break;
	case ACT_TL_FAST_LEFT:
		timeline_move(t, -10);
		break;
	case ACT_TL_FAST_RIGHT:
		timeline_move(t, 10);
		break;
	case ACT_TL_MARK:
		timeline_mark(t);
		break;
	case ACT_TL_COMPARE:
		timeline_compare(t);
		break;
	case ACT_HEATMAP: case ACT_HM_UP: case ACT_HM_DOWN: case ACT_HM_LEFT:
	case ACT_HM_RIGHT: case ACT_HM_FAST_LEFT: case ACT_HM_FAST_RIGHT:
	case ACT_HM_MARK: case ACT_HM_COMPARE: case ACT_HM_LEAVE:
		tui_heat_action(t, a);   /* tui-heatmap.c */
		break;
	case ACT_LIVE_BASELINE:
		if (!live) {
			set_msg(t, false, "b takes a live window as the baseline; "
				"on a saved profile compare time ranges: t, then c");
			break;
		}
		tui_view_baseline(t);
		profile_changed(t);
		break;
	case ACT_TL_LEAVE:
		if (t->tl_mark >= 0) {
			t->tl_mark = -1;
			set_msg(t, false, "mark cancelled; " TIMELINE_HINT);
		} else if (t->cmp_pending) {
			t->cmp_pending = false;
			set_msg(t, false, "compare cancelled; " TIMELINE_HINT);
		} else {
			t->tl_show = t->tl_focus = false;
			ensure_visible(t);
			set_msg(t, false, "timeline mode left");
		}
		break;
	case ACT_THEME:
		next_theme(t);
		break;
	case ACT_FLIP:
		t->flame = !t->flame;
		break;
	case ACT_HELP:
		t->help = !t->help;
		t->help_top = 0;
		break;
	case ACT_REDRAW:
		t->repaint = true;   /* tui_draw repaints every cell */
		break;
	case ACT_QUIT:
		return false;
	case ACT_SAMPLE_TYPE:
		if (!t->next_type)
			set_msg(t, false, "only pprof profiles have sample types");
		else if (t->next_type(t->type_ctx, t->p, t->msg, sizeof(t->msg)))
			profile_changed(t);
		break;
	case ACT_LIVE_RATE_UP:
	case ACT_LIVE_RATE_DOWN:
	case ACT_LIVE_WINDOW:
	case ACT_LIVE_FREEZE:
	case ACT_LIVE_RESET:
	case ACT_LIVE_SAVE:
		if (!live || !t->live->action) {
			saved_profile_key(t, a);
			break;
		}
		if (t->live->action(t->live_ctx, a, t->src, t->msg,
				    sizeof(t->msg))) {
			tui_view_source_changed(t);
			profile_changed(t);
		}
		break;
	case ACT_COUNT:
		break;
	}
	return true;
}

bool tui_key(struct tui *t, int key)
{
	enum key_context ctx = tui_heat_shown(t) ? KCTX_HEATMAP :
			       t->tl_focus ? KCTX_TIMELINE :
			       t->v.top ? KCTX_TOP : KCTX_VIEW;

	if (t->help) {
		/* The overlay scrolls; any other key closes it. */
		size_t page = t->rows > 4 ? t->rows - 4 : 1;

		if (key == 'j' || key == KEY_DOWN)
			t->help_top++;
		else if ((key == 'k' || key == KEY_UP) && t->help_top)
			t->help_top--;
		else if (key == KEY_NPAGE || key == ' ')
			t->help_top += page;
		else if (key == KEY_PPAGE)
			t->help_top = t->help_top > page ? t->help_top - page : 0;
		else
			t->help = false;
		return true;
	}
	return tui_do(t, keys_lookup(ctx, key, t->live != NULL));
}

bool tui_tick(struct tui *t)
{
	if (!t->live || !t->live->tick)
		return false;
	if (!t->live->tick(t->live_ctx, t->src))
		return false;
	tui_view_source_changed(t);
	profile_changed(t);
	return true;
}

void tui_click(struct tui *t, int row, int col, bool dbl)
{
	unsigned top = tui_top_rows(t), R = tui_frame_rows(t), d;
	ssize_t i;

	t->msg[0] = '\0';
	ensure_layout(t);
	if (row < 0 || col < 0)
		return;
	if (tui_heat_click(t, row, col))
		return;
	if (t->tl_show && row == 1) {
		if (!t->tl_n)
			return;
		t->tl_focus = true;
		t->tl_cur = col < (int)t->tl_n ? col : (int)t->tl_n - 1;
		timeline_mark(t);
		return;
	}
	if ((unsigned)row < top || (unsigned)row >= top + R)
		return;
	row -= (int)top;
	d = t->flame ? t->scroll + (R - 1 - (unsigned)row) :
		       t->scroll + (unsigned)row;
	i = layout_at(&t->lay, d, (unsigned)col);
	if (i < 0)
		return;
	select_node(t, t->lay.rects[i].node, false);
	if (dbl)
		tui_do(t, ACT_ZOOM);
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
 * The header: [TIMELINE |] title | samples | /search/ Matched | live | time
 * range | rows | zoom path.  When it does not fit, the rows part goes (the
 * markers say it), the title becomes its base name, and the zoom path is
 * cut from the left so that the zoomed frame stays readable.  Live figures
 * come before the time range, the most useful first, so that an 80-column
 * screen shows the window, the lost count and flametop's CPU.
 */
void tui_header_text(struct tui *t, char *buf, size_t cap)
{
	char num[64], name[512], mid[2048], pat[256];
	size_t len = 0, mlen = 0;
	uint64_t total = profile_total(t->p, NODE_ROOT), a, b;
	const char *title = !t->title ? "flametop" :
			    strcmp(t->title, "-") == 0 ? "stdin" : t->title;
	unsigned R;
	char *path = NULL;

	ensure_layout(t);
	R = tui_frame_rows(t);
	profile_format_amount(t->p, total, num, sizeof(num));
	mlen = append(mid, sizeof(mid), mlen, " | %s", num);
	if (search_active(t->search)) {
		textfmt_escape(t->pattern ? t->pattern : "", t->pattern ?
			       strlen(t->pattern) : 0, pat, sizeof(pat));
		profile_format_amount(t->p, t->matched, num, sizeof(num));
		mlen = append(mid, sizeof(mid), mlen,
			      t->literal ? " | \"%s\" Matched: %s (%.2f%%)" :
			      " | /%s/ Matched: %s (%.2f%%)", pat, num,
			      pct(t->matched, total));
	}
	if (t->vdesc[0])
		mlen = append(mid, sizeof(mid), mlen, " | view: %s", t->vdesc);
	if (t->v.top && t->top_filter) {
		textfmt_escape(t->top_filter, strlen(t->top_filter), name,
			       sizeof(name));
		mlen = append(mid, sizeof(mid), mlen, " | top filter: /%s/", name);
	}
	if (t->live && t->live->status) {
		char live[256];

		live[0] = '\0';
		t->live->status(t->live_ctx, live, sizeof(live));
		if (live[0])
			mlen = append(mid, sizeof(mid), mlen, " | %s", live);
	}
	if (t->type_status) {
		char ty[128];

		ty[0] = '\0';
		t->type_status(t->type_ctx, ty, sizeof(ty));
		if (ty[0])
			mlen = append(mid, sizeof(mid), mlen, " | %s", ty);
	}
	if (profile_range(t->p, &a, &b)) {
		uint64_t f = 0, l = 0;

		profile_time_bounds(t->p, &f, &l);
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
	len = append(buf, cap, len, "%s%s%s", t->tl_focus ? "TIMELINE | " : "",
		     name, mid);
	if (t->lay.rows > R && R)
		len = append(buf, cap, len, " | rows %u-%u of %u", t->scroll + 1,
			     t->scroll + R, t->lay.rows);
	if (t->zoom != NODE_ROOT) {
		path = zoom_path(t, t->cols ? t->cols : 0);
		len = append(buf, cap, len, " | zoom: %s", path);
		free(path);
	}
	if (!t->cols || textfmt_width(buf, len) <= t->cols)
		return;

	/* Too long: a shorter title, no rows, the path cut from the left. */
	{
		const char *slash = strrchr(title, '/');
		const char *vs = strstr(title, " vs ");
		char two[4096];
		size_t used, avail;

		if (vs && profile_is_differential(t->src)) {
			/* "DIR/BEFORE vs DIR/AFTER": both names, short. */
			const char *bn = vs, *an = vs + 4;

			while (bn > title && bn[-1] != '/')
				bn--;
			if (slash && slash > an && slash[1])
				an = slash + 1;
			snprintf(two, sizeof(two), "%.*s vs %s",
				 (int)(vs - bn), bn, an);
			title = two;
		} else if (slash && slash[1]) {
			title = slash + 1;
		}
		textfmt_escape(title, strlen(title), name, sizeof(name));
		len = 0;
		len = append(buf, cap, len, "%s%s%s", t->tl_focus ?
			     "TIMELINE | " : "", name, mid);
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
 * The status line: name | total (self) | % of all [| before] [| % of
 * zoom].  The numbers are what the user looks for, so they keep their
 * room: a name too long for the line is cut with ".." to what is left.
 */
void tui_status_text(struct tui *t, char *buf, size_t cap)
{
	char rest[512], tot[64], self[64], *name;
	uint32_t s = t->sel;
	uint64_t total = profile_total(t->p, NODE_ROOT);
	uint64_t z = profile_total(t->p, t->zoom), w = profile_total(t->p, s);
	size_t rlen = 0, nlen = profile_name_len(t->p, s), nw, rw;
	bool in_zoom = profile_depth(t->p, s) >= profile_depth(t->p, t->zoom);

	if (t->v.top) {
		tui_top_status_text(t, buf, cap);
		return;
	}
	profile_format_amount(t->p, w, tot, sizeof(tot));
	if (profile_unit(t->p) == UNIT_NS)
		profile_format_amount(t->p, profile_self(t->p, s), self,
				      sizeof(self));
	else
		profile_format_weight(t->p, profile_self(t->p, s), self,
				      sizeof(self));
	rlen = append(rest, sizeof(rest), rlen, " | %s (self %s) | %.2f%% of all",
		      tot, self, pct(w, total));
	if (profile_is_differential(t->p)) {
		/* Before, after and the change, in weight and in share. */
		char dd[256];

		diff_describe(t->p, s, t->v.negate, dd, sizeof(dd));
		rlen = append(rest, sizeof(rest), rlen, " | %s", dd);
	}
	if (in_zoom)
		rlen = append(rest, sizeof(rest), rlen, " | %.2f%% of zoom",
			      pct(w, z));
	nw = textfmt_width(profile_name(t->p, s), nlen);
	rw = textfmt_width(rest, rlen);
	name = xmalloc(8 * (nlen + t->cols) + 16);   /* escaped or fitted */
	if (t->cols && nw + rw > t->cols &&
	    nw > (t->cols > rw + 8 ? t->cols - rw : 8)) {
		unsigned room = t->cols > rw + 8 ? (unsigned)(t->cols - rw) : 8;

		textfmt_fit(profile_name(t->p, s), nlen, room, ' ', name);
	} else {
		textfmt_escape(profile_name(t->p, s), nlen, name,
			       8 * (nlen + t->cols) + 16);
	}
	snprintf(buf, cap, "%s%s", name, rest);
	free(name);
}

/* ---- Creating -------------------------------------------------------- */

struct tui *tui_create(struct profile *p, const struct tui_opts *o,
		       char *err, size_t errcap)
{
	struct tui *t = xcalloc(1, sizeof(*t));

	tui_view_init(t, p);
	t->title = o->title;
	t->live = o->live;
	t->live_ctx = o->live_ctx;
	t->next_type = o->next_type;
	t->type_status = o->type_status;
	t->type_ctx = o->type_ctx;
	t->flame = o->flame;
	t->icase = o->icase;
	t->zoom = t->sel = NODE_ROOT;
	t->tl_mark = -1;
	t->eye = NO_EYE;
	t->dirty = true;
	if (o->negate && profile_is_differential(p)) {
		t->v.negate = true;
		tui_view_apply(t);
	}
	layout_init(&t->lay);
	t->search = search_create();
	theme_default(&t->theme);
	if (theme_check_name(o->theme, err, errcap) < 0) {
		tui_destroy(t);
		return NULL;
	}
	if (load_theme(&t->theme, o->theme ? o->theme : THEME_DEFAULT, err,
		       errcap) < 0) {
		/* A broken theme file: the default stays, and the user is told. */
		set_msg(t, true, "%s", err);
		theme_default(&t->theme);
	}
	if (o->search && *o->search) {
		char e[300];

		if (search_set(t->search, o->search, o->icase, e, sizeof(e)) < 0) {
			snprintf(err, errcap, "--search: %s", e);
			tui_destroy(t);
			return NULL;
		}
		t->pattern = xstrdup(o->search);
		history_add(t, o->search);
		search_refresh(t);
	}
	if (o->message && !t->msg[0])
		set_msg(t, false, "%s", o->message);
	return t;
}

void tui_destroy(struct tui *t)
{
	if (!t)
		return;
	tui_draw_free(t);
	tui_view_free(t);
	layout_free(&t->lay);
	search_destroy(t->search);
	free(t->pattern);
	free(t->zhist);
	free(t->tl_weight);
	tui_heat_free(t);
	for (size_t i = 0; i < t->nhist; i++)
		free(t->hist[i]);
	free(t->hist);
	free(t->hist_typed);
	free(t);
}

void tui_set_size(struct tui *t, unsigned rows, unsigned cols)
{
	if (rows == t->rows && cols == t->cols)
		return;
	t->rows = rows;
	t->cols = cols;
	t->dirty = true;
	fix_view(t);
	if (t->tl_show)
		tui_timeline_refresh(t);
}

const struct profile *tui_profile(const struct tui *t) { return t->p; }
uint32_t tui_selected(const struct tui *t) { return t->sel; }
uint32_t tui_zoom(const struct tui *t) { return t->zoom; }
bool tui_timeline_focused(const struct tui *t) { return t->tl_focus; }
const char *tui_message(const struct tui *t) { return t->msg; }

/* ---- Loading progress ------------------------------------------------ */

static void human(char *buf, size_t cap, uint64_t n)
{
	if (n >= (1u << 30))
		snprintf(buf, cap, "%.1f GB", (double)n / (1u << 30));
	else
		snprintf(buf, cap, "%.1f MB", (double)n / (1u << 20));
}

void tui_load_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct tui_progress *pr = ctx;
	double now = now_seconds();
	char a[32], b[32];

	if (!pr->start)
		pr->start = now;   /* the caller should have set it */
	if (now - pr->start < 0.5 || now - pr->last < 0.1 || !isatty(2))
		return;
	pr->last = now;
	pr->shown = true;
	human(a, sizeof(a), done);
	if (total) {
		human(b, sizeof(b), total);
		fprintf(stderr, "\rflametop: reading %s: %s of %s (%.0f%%)\033[K",
			pr->name ? pr->name : "input", a, b,
			100.0 * (double)done / (double)total);
	} else {
		fprintf(stderr, "\rflametop: reading %s: %s\033[K",
			pr->name ? pr->name : "input", a);
	}
	fflush(stderr);
}

void tui_load_progress_done(struct tui_progress *pr)
{
	if (pr->shown && isatty(2)) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	pr->shown = false;
}

/* ---- The terminal ---------------------------------------------------- */

static SCREEN *screen;
static FILE *tty_in;
static volatile sig_atomic_t got_signal;

static void restore_terminal(void)
{
	if (screen) {
		endwin();
		delscreen(screen);
		screen = NULL;
	}
	if (tty_in && tty_in != stdin)
		fclose(tty_in);
	tty_in = NULL;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static void catch_signals(bool on)
{
	struct sigaction sa;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Is there a terminfo entry for name?  Asked before newterm, because a
 * newterm that fails keeps memory it cannot give back; the directories
 * are ncurses' own search list.
 */
static bool term_exists(const char *name)
{
	const char *env = getenv("TERMINFO"), *dirs = getenv("TERMINFO_DIRS");
	const char *home = getenv("HOME");
	static const char *const std[] = {
		"/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo",
		"/usr/lib/terminfo", "/usr/share/lib/terminfo",
	};
	char path[4096];

	if (!name || !*name || strchr(name, '/'))
		return false;
#define TRY(dir) do { \
		snprintf(path, sizeof(path), "%s/%c/%s", (dir), name[0], name); \
		if (access(path, R_OK) == 0) \
			return true; \
		snprintf(path, sizeof(path), "%s/%02x/%s", (dir), \
			 (unsigned char)name[0], name); \
		if (access(path, R_OK) == 0) \
			return true; \
	} while (0)
	if (env && *env)
		TRY(env);
	if (home && *home) {
		char h[2048];

		snprintf(h, sizeof(h), "%s/.terminfo", home);
		TRY(h);
	}
	while (dirs && *dirs) {
		size_t n = strcspn(dirs, ":");
		char d[2048];

		snprintf(d, sizeof(d), "%.*s", (int)n, dirs);
		if (n)
			TRY(d);
		dirs += n + (dirs[n] == ':');
	}
	for (size_t i = 0; i < ARRAY_SIZE(std); i++)
		TRY(std[i]);
#undef TRY
	return false;
}

/* COLORTERM promises 24-bit color: try the "-direct" flavor of TERM. */
static SCREEN *open_screen(FILE *in)
{
	const char *term = getenv("TERM"), *ct = getenv("COLORTERM");
	const char *nc = getenv("NO_COLOR");
	SCREEN *s = NULL;

	if (term && ct && (!nc || !*nc) && !strstr(term, "direct") &&
	    (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0)) {
		char direct[128];
		size_t n = strcspn(term, "-");

		snprintf(direct, sizeof(direct), "%.*s-direct", (int)n, term);
		if (term_exists(direct))
			s = newterm(direct, stdout, in);
	}
	if (!s && term_exists(term))
		s = newterm(NULL, stdout, in);
	return s;
}

/* A key typed at the "/" prompt; wide characters come as UTF-8. */
static void prompt_key(struct tui *t, int r, wint_t ch)
{
	if (r == KEY_CODE_YES) {
		if (ch == KEY_ENTER) {
			prompt_done(t);
		} else if (ch == KEY_BACKSPACE) {
			goto backspace;
		} else if (ch == KEY_UP || ch == KEY_DOWN) {
			tui_prompt_history(t, ch == KEY_UP ? -1 : 1);
		}
		return;
	}
	if (ch == '\n' || ch == '\r') {
		prompt_done(t);
		return;
	}
	if (ch == 27) {
		t->prompting = false;
		return;
	}
	if (ch == 127 || ch == 8)
		goto backspace;
	if (ch == 21) {   /* Ctrl-U */
		t->prompt_len = 0;
		t->prompt[0] = '\0';
		return;
	}
	if (ch < 0x20)
		return;
	{
		char mb[MB_LEN_MAX];
		mbstate_t st;
		size_t n;

		memset(&st, 0, sizeof(st));
		n = wcrtomb(mb, (wchar_t)ch, &st);
		if (n == (size_t)-1 || t->prompt_len + n >= sizeof(t->prompt))
			return;
		memcpy(t->prompt + t->prompt_len, mb, n);
		t->prompt_len += n;
		t->prompt[t->prompt_len] = '\0';
	}
	return;
backspace:
	while (t->prompt_len > 0) {
		unsigned char c = (unsigned char)t->prompt[--t->prompt_len];

		if ((c & 0xc0) != 0x80)
			break;
	}
	t->prompt[t->prompt_len] = '\0';
}

static void mouse_event(struct tui *t)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		tui_click(t, ev.y, ev.x, true);
	else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
		tui_click(t, ev.y, ev.x, false);
#ifdef BUTTON4_PRESSED
	else if (ev.bstate & BUTTON4_PRESSED)
		scroll_depth(t, t->flame ? 3 : -3);
#endif
#ifdef BUTTON5_PRESSED
	else if (ev.bstate & BUTTON5_PRESSED)
		scroll_depth(t, t->flame ? -3 : 3);
#endif
}

int tui_run(struct profile *p, const struct tui_opts *o)
{
	char err[512];
	struct tui *t = tui_create(p, o, err, sizeof(err));
	int rc = 0;
	bool redraw = true;
	double last_tick = now_seconds();

	if (!t) {
		fprintf(stderr, "flametop: %s\n", err);
		return 2;
	}
	tty_in = isatty(0) ? stdin : fopen("/dev/tty", "r");
	if (!tty_in) {
		fprintf(stderr, "flametop: no terminal to read keys from "
			"(/dev/tty: %s); use --text\n", strerror(errno));
		tui_destroy(t);
		return 1;
	}
	screen = open_screen(tty_in);
	if (!screen) {
		fprintf(stderr, "flametop: cannot use terminal type '%s'; "
			"use --text\n", getenv("TERM") ? getenv("TERM") : "");
		restore_terminal();
		tui_destroy(t);
		return 1;
	}
	{
		/* A terminal that cannot move the cursor (dumb): print instead. */
		const char *cup = tigetstr("cup");

		if (!cup || cup == (const char *)-1) {
			struct text_opts to = { 0 };
			const char *term = getenv("TERM");

			to.width = COLS > 0 ? (unsigned)COLS : 80;
			to.flame = t->flame;
			to.zoom = NODE_ROOT;
			to.search = search_active(t->search) ? t->search : NULL;
			to.title = t->title;
			restore_terminal();
			fprintf(stderr, "flametop: terminal '%s' cannot move the "
				"cursor: printing the flame graph as text\n",
				term ? term : "");
			export_text(stdout, p, &to);
			tui_destroy(t);
			return 0;
		}
	}
	util_set_teardown(restore_terminal);
	got_signal = 0;
	catch_signals(true);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED
#ifdef BUTTON4_PRESSED
		  | BUTTON4_PRESSED
#endif
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	mouseinterval(200);
	wtimeout(stdscr, 100);
	tui_draw_init(t);
	for (;;) {
		wint_t ch;
		int r;

		if (redraw) {
			tui_set_size(t, (unsigned)LINES, (unsigned)COLS);
			tui_draw(t);
			redraw = false;
			if (t->osc) {
				/* Copy to the clipboard: straight to the terminal. */
				fputs(t->osc, stdout);
				fflush(stdout);
				free(t->osc);
				t->osc = NULL;
			}
		}
		r = wget_wch(stdscr, &ch);
		if (got_signal) {
			rc = 128 + got_signal;
			break;
		}
		/* The live tick, every 100 ms even while keys keep coming. */
		if (now_seconds() - last_tick >= 0.1) {
			last_tick = now_seconds();
			if (tui_tick(t))
				redraw = true;
		}
		if (r == ERR)
			continue;
		redraw = true;
		if (r == KEY_CODE_YES && ch == KEY_RESIZE)
			continue;
		if (r == KEY_CODE_YES && ch == KEY_MOUSE) {
			mouse_event(t);
			continue;
		}
		if (t->prompting) {
			prompt_key(t, r, ch);
			continue;
		}
		if (!tui_key(t, (int)ch))
			break;
	}
	catch_signals(false);
	util_set_teardown(NULL);
	restore_terminal();
	tui_destroy(t);
	return rc;
}
