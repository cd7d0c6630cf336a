/*
 * tui-view-labels.c - the labels of the samples (T, on a profile whose
 * samples carry labels and no times): each label key with its values and
 * the share of the source's weight that carries each (view_label_shares),
 * over the screen as the help is.  Enter keeps the samples of the chosen
 * KEY=VALUE, g roots the samples per value of its key, a shows every
 * sample: each a view step (tui_view_label), which Backspace undoes; no
 * input is read again.  A click selects a row, a double click keeps its
 * samples.  Backspace, Esc or T closes the list; ? or F1 shows the help
 * over it, and any other key says it is not used here.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfmt.h"
#include "tui-priv.h"

void tui_labels_close(struct tui *t)
{
	free(t->lab);
	t->lab = NULL;
	t->nlab = 0;
	t->lab_show = false;
}

bool tui_labels_open(struct tui *t)
{
	if (!profile_has_labels(t->src) || profile_has_timeline(t->src))
		return false;
	tui_labels_close(t);
	t->lab = view_label_shares(t->src, &t->nlab);
	if (!t->nlab) {
		tui_set_msg(t, false, "no sample carries a string label");
		return true;
	}
	t->lab_total = profile_total(t->src, NODE_ROOT);
	t->lab_show = true;
	t->lab_sel = t->lab_top = 0;
	return true;
}

/* The list's rows: a title row before each key's values. */
struct lrow {
	size_t i;                /* the label */
	bool title;              /* its key's title */
};

static bool new_key(const struct label_share *l, size_t i)
{
	return i == 0 || l[i].key != l[i - 1].key;
}

/*
 * Row k of the list (a key's title, or label i); false past the end.
 * *sel: the row of the selected label.  Keys are few beside values: the
 * rows are counted each time.
 */
static bool list_row(const struct tui *t, size_t k, struct lrow *row)
{
	size_t r = 0;

	for (size_t i = 0; i < t->nlab; i++) {
		if (new_key(t->lab, i) && r++ == k) {
			*row = (struct lrow){ i, true };
			return true;
		}
		if (r++ == k) {
			*row = (struct lrow){ i, false };
			return true;
		}
	}
	return false;
}

/* The row of label i. */
static size_t row_of(const struct tui *t, size_t i)
{
	size_t r = 0;

	for (size_t j = 0; j <= i && j < t->nlab; j++)
		r += new_key(t->lab, j) ? 2 : 1;
	return r ? r - 1 : 0;
}

/* The rows of the list on screen (between its title and its keys). */
static unsigned visible(const struct tui *t)
{
	return t->rows > 2 ? t->rows - 2 : 1;
}

void tui_labels_draw(struct tui *t)
{
	const struct labels *ll = profile_labels(t->src);
	unsigned w = t->cols, vis = visible(t);
	char *buf = tui_draw_rowbuf(t, w), line[2400], key[1024], val[1024],
	     amt[64], tot[64];
	size_t sel = row_of(t, t->lab_sel), klen, vlen;

	if (sel < t->lab_top)
		t->lab_top = sel;
	if (sel >= t->lab_top + vis)
		t->lab_top = sel - vis + 1;
	tui_draw_slot(t, TS_HELP);
	profile_format_amount(t->src, t->lab_total, tot, sizeof(tot));
	snprintf(line, sizeof(line), " labels: the share of %s that carries "
		 "each", tot);
	textfmt_fit(line, strlen(line), w, ' ', buf);
	attron(A_BOLD);
	mvaddstr(0, 0, buf);
	attroff(A_BOLD);
	for (unsigned r = 0; r < vis; r++) {
		size_t k = t->lab_top + r;
		struct lrow row = { 0, false };
		bool any = list_row(t, k, &row);

		line[0] = '\0';
		if (any) {
			const struct label_share *e = &t->lab[row.i];
			const char *ks = labels_name(ll, e->key, &klen);
			const char *vs = labels_name(ll, e->value, &vlen);

			/* Label bytes are the profile's: escaped, cut. */
			textfmt_escape(ks, klen < 120 ? klen : 120, key,
				       sizeof(key));
			textfmt_escape(vs, vlen < 120 ? vlen : 120, val,
				       sizeof(val));
			profile_format_amount(t->src, e->weight, amt, sizeof(amt));
			if (row.title)
				snprintf(line, sizeof(line), " %s%s", key,
					 klen > 120 ? "..." : "");
			else
				snprintf(line, sizeof(line), "   %6.2f%%  %-16s "
					 "%s%s=%s%s", t->lab_total ? 100.0 *
					 (double)e->weight / (double)t->lab_total
					 : 0.0, amt, key, klen > 120 ? "..." : "",
					 val, vlen > 120 ? "..." : "");
		}
		textfmt_fit(line, strlen(line), w, ' ', buf);
		tui_draw_pane_row(t, (int)r + 1, buf, row.title,
				  any && k == sel);
	}
	/* What Enter and g would do, with the selected label's names. */
	{
		const struct label_share *e = &t->lab[t->lab_sel];
		const char *ks = labels_name(ll, e->key, &klen);
		const char *vs = labels_name(ll, e->value, &vlen);

		textfmt_escape(ks, klen < 60 ? klen : 60, key, sizeof(key));
		textfmt_escape(vs, vlen < 60 ? vlen : 60, val, sizeof(val));
		snprintf(line, sizeof(line), " Enter: keep %.300s=%.300s  g: a root per "
			 "%.300s  a: all samples  Backspace: back", key, val, key);
	}
	/* A key the list does not use says so, until the next key. */
	if (t->msg[0])
		snprintf(line, sizeof(line), " %s", t->msg);
	attron(A_REVERSE);
	textfmt_fit(line, strlen(line), w, ' ', buf);
	mvaddstr((int)vis + 1, 0, buf);
	attr_set(A_NORMAL, 0, NULL);
}

/* Enter, g or a: the view step, the list closed. */
static void choose(struct tui *t, bool group, bool all)
{
	const struct labels *ll = profile_labels(t->src);
	const struct label_share *e = &t->lab[t->lab_sel];
	size_t klen, vlen;
	const char *k = labels_name(ll, e->key, &klen);
	const char *v = labels_name(ll, e->value, &vlen);

	if (all)
		tui_view_label(t, NULL, 0, NULL, 0, false);
	else
		tui_view_label(t, k, klen, v, vlen, group);
	tui_labels_close(t);
}

bool tui_labels_key(struct tui *t, int key)
{
	size_t page = t->rows > 4 ? t->rows - 4 : 1;

	if (keys_list_move(key, &t->lab_sel, t->nlab, page))
		return true;
	switch (key) {
	case 27: case KEY_BACKSPACE: case 127: case 8: case 'T': case 'q':
		tui_labels_close(t);
		return true;
	case 'a':
		choose(t, false, true);
		return true;
	case '\n': case '\r': case KEY_ENTER: case 'g':
		choose(t, key == 'g', false);
		return true;
	default:
		return false;
	}
}

void tui_labels_click(struct tui *t, int row, bool dbl)
{
	struct lrow r;

	/* Row 0 is the list's title, the last row its keys. */
	if (row < 1 || (unsigned)row > visible(t) ||
	    !list_row(t, t->lab_top + (size_t)row - 1, &r))
		return;
	t->lab_sel = r.i;
	if (dbl && !r.title)
		choose(t, false, false);
}

void tui_labels_wheel(struct tui *t, bool up)
{
	for (int k = 0; k < 3; k++)
		tui_labels_key(t, up ? KEY_UP : KEY_DOWN);
}
