/*
 * tui-view-help.c - the help overlay: the key table (tui-keys.c) as
 * sections of "keys  what they do", drawn over the screen with
 * tui-draw.c, scrolled with j/k and PgUp/PgDn; any other key closes it.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "textfmt.h"
#include "tui-priv.h"

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
				 "why not)" : last == KCTX_URL && !t->fetch ?
				 " (not this one: r resets the zoom here)" : "");
			bold[k++] = true;
		}
		snprintf(lines[k], sizeof(lines[k]), "   %-14s %s", kb[i].label,
			 kb[i].help);
		bold[k++] = false;
	}
	return k;
}

/*
 * The help covers the whole screen, so no frame shows through at its
 * edges: the key table from the first row, blank rows below it, and the
 * footer on the last row.
 */
void tui_help_draw(struct tui *t)
{
	static char lines[128][256];
	static bool bold[128];
	size_t n = help_lines(t, lines, bold, 128);
	unsigned w = t->cols, vis = t->rows > 1 ? t->rows - 1 : 1;
	size_t top = t->help_top, max = n > vis ? n - vis : 0;
	char foot[128], *buf = tui_draw_rowbuf(t, w);

	if (top > max)
		top = t->help_top = max;
	tui_draw_slot(t, TS_HELP);
	for (unsigned r = 0; r < vis; r++) {
		const char *s = top + r < n ? lines[top + r] : "";
		bool b = top + r < n && bold[top + r];

		textfmt_fit(s, strlen(s), w, ' ', buf);
		if (b)
			attron(A_BOLD);
		mvaddstr((int)r, 0, buf);
		if (b)
			attroff(A_BOLD);
	}
	if (max)
		snprintf(foot, sizeof(foot), " lines %zu-%zu of %zu: j/k, PgUp/PgDn "
			 "scroll; other keys close", top + 1,
			 top + vis < n ? top + vis : n, n);
	else
		snprintf(foot, sizeof(foot), " any key closes this help");
	attron(A_REVERSE);
	textfmt_fit(foot, strlen(foot), w, ' ', buf);
	mvaddstr((int)vis, 0, buf);
	attr_set(A_NORMAL, 0, NULL);
}

/* A key while the help is shown: it scrolls, or closes the overlay. */
void tui_help_key(struct tui *t, int key)
{
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
}
