/*
 * tui-view-labels.c - the labels of a pprof profile (T): each label key
 * with its values and the share of the profile's weight that carries
 * each (struct pprof_labels, filled by the reader before --tag), over the
 * screen as the help is.  Enter keeps the samples of the chosen
 * KEY=VALUE, g roots the samples per value of its key, a shows every
 * sample as read: main.c reads the profile again (tui_opts.choose_label)
 * and tui.c derives the view again.  Backspace, Esc or T closes the list.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"
#include "textfmt.h"
#include "tui-priv.h"

/* Keys in byte order, a key's values heaviest first. */
static int cmp_label(const void *a, const void *b)
{
	const struct pprof_label *x = a, *y = b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->key, y->key, n);

	if (c || x->klen != y->klen)
		return c ? c : x->klen < y->klen ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	n = x->vlen < y->vlen ? x->vlen : y->vlen;
	c = memcmp(x->value, y->value, n);
	return c ? c : (x->vlen > y->vlen) - (x->vlen < y->vlen);
}

void tui_labels_open(struct tui *t)
{
	if (!t->labels || !t->labels->n) {
		tui_set_msg(t, false, "this profile's samples carry no string labels");
		return;
	}
	t->lab_show = true;
	t->lab_sel = t->lab_top = 0;
}

/* The labels in list order (64 at most: sorted at each use). */
static const struct pprof_label *sorted(struct tui *t)
{
	static struct pprof_label l[PPROF_MAX_LABELS];

	memcpy(l, t->labels->l, t->labels->n * sizeof(*l));
	qsort(l, t->labels->n, sizeof(*l), cmp_label);
	return l;
}

/* The list's rows: a title row before each key's values. */
struct lrow {
	unsigned i;              /* the label */
	bool title;              /* its key's title */
};

static bool new_key(const struct pprof_label *l, size_t i)
{
	return i == 0 || l[i].klen != l[i - 1].klen ||
	       memcmp(l[i].key, l[i - 1].key, l[i].klen) != 0;
}

/* The rows of l[0..n) into rows; their number; *sel: the row of label sel. */
static size_t list_rows(const struct pprof_label *l, size_t n, size_t selected,
			struct lrow *rows, size_t *sel)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (new_key(l, i))
			rows[k++] = (struct lrow){ (unsigned)i, true };
		if (i == selected)
			*sel = k;
		rows[k++] = (struct lrow){ (unsigned)i, false };
	}
	return k;
}

void tui_labels_draw(struct tui *t)
{
	const struct pprof_labels *ll = t->labels;
	const struct pprof_label *l = sorted(t);
	struct lrow rows[2 * PPROF_MAX_LABELS];
	unsigned w = t->cols, vis = t->rows > 2 ? t->rows - 2 : 1;
	char *buf = tui_draw_rowbuf(t, w), line[2048], key[8 * 64],
	     val[8 * 128], amt[64], tot[64];
	size_t sel = 0, nrows = list_rows(l, ll->n, t->lab_sel, rows, &sel);

	if (sel < t->lab_top)
		t->lab_top = sel;
	if (sel >= t->lab_top + vis)
		t->lab_top = sel - vis + 1;
	tui_draw_slot(t, TS_HELP);
	profile_format_amount(t->src, ll->total, tot, sizeof(tot));
	snprintf(line, sizeof(line), " pprof labels: the share of %s that "
		 "carries each%s", tot, ll->more ? " (the first 64)" : "");
	textfmt_fit(line, strlen(line), w, ' ', buf);
	attron(A_BOLD);
	mvaddstr(0, 0, buf);
	attroff(A_BOLD);
	for (unsigned r = 0; r < vis; r++) {
		size_t k = t->lab_top + r;
		bool title = k < nrows && rows[k].title;

		line[0] = '\0';
		if (k < nrows) {
			const struct pprof_label *e = &l[rows[k].i];

			textfmt_escape(e->key, e->klen, key, sizeof(key));
			textfmt_escape(e->value, e->vlen, val, sizeof(val));
			profile_format_amount(t->src, e->weight, amt, sizeof(amt));
			if (title)
				snprintf(line, sizeof(line), " %s", key);
			else
				snprintf(line, sizeof(line), "   %6.2f%%  %-16s %s=%s%s",
					 ll->total ? 100.0 * (double)e->weight /
					 (double)ll->total : 0.0, amt, key, val,
					 e->cut ? "..." : "");
		}
		textfmt_fit(line, strlen(line), w, ' ', buf);
		if (title)
			attron(A_BOLD);
		if (k == sel)
			attron(A_REVERSE);
		mvaddstr((int)r + 1, 0, buf);
		attr_set(A_NORMAL, 0, NULL);
		tui_draw_slot(t, TS_HELP);
	}
	snprintf(line, sizeof(line), " Enter: keep these samples  g: a root "
		 "per value  a: all samples  Backspace: back");
	attron(A_REVERSE);
	textfmt_fit(line, strlen(line), w, ' ', buf);
	mvaddstr((int)vis + 1, 0, buf);
	attr_set(A_NORMAL, 0, NULL);
}

bool tui_labels_key(struct tui *t, int key)
{
	const struct pprof_label *e;
	size_t page = t->rows > 4 ? t->rows - 4 : 1;
	bool group = key == 'g';

	if (keys_list_move(key, &t->lab_sel, t->labels->n, page))
		return false;
	switch (key) {
	case 27: case KEY_BACKSPACE: case 127: case 8: case 'T': case 'q':
		t->lab_show = false;
		return false;
	case 'a':
		t->lab_show = false;
		return t->choose_label(t->type_ctx, t->src, NULL, 0, NULL, 0,
				       false, t->msg, sizeof(t->msg));
	case '\n': case '\r': case KEY_ENTER: case 'g':
		e = &sorted(t)[t->lab_sel];
		if (e->cut && !group) {
			tui_set_msg(t, true, "this value is too long to choose here: "
				"--tag KEY=VALUE");
			return false;
		}
		t->lab_show = false;
		return t->choose_label(t->type_ctx, t->src, e->key, e->klen,
				       e->value, e->vlen, group, t->msg,
				       sizeof(t->msg));
	default:
		return false;
	}
}
