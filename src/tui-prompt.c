/*
 * tui-prompt.c - the prompt line: what is typed at "/" (search), at the
 * include, exclude and task filter prompts and at the top table's filter,
 * the history of searches that Up and Down recall, and the prompt's row at
 * the bottom of the screen.  Enter hands the line to the view it is for.
 */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "textfmt.h"
#include "tui-priv.h"
#include "util.h"

/* Remember a pattern typed at the prompt (the last one first for Up). */
void tui_prompt_history_add(struct tui *t, const char *pattern)
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

/* Open the prompt line for kind. */
void tui_prompt_start(struct tui *t, enum tui_prompt kind)
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
		tui_prompt_history_add(t, t->prompt);
		tui_search(t, t->prompt);
	}
	else if (t->prompt_kind == PROMPT_TOP_FILTER)
		tui_top_set_filter(t, t->prompt);
	else if (t->prompt_kind == PROMPT_ANNOTATE)
		tui_annotate_search(t, t->prompt);
	else
		tui_view_prompt_done(t, t->prompt_kind, t->prompt);
	t->dirty = true;
	tui_fix_view(t);
}

/* A key typed at the "/" prompt; wide characters come as UTF-8. */
void tui_prompt_key(struct tui *t, int r, wint_t ch)
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

/* The prompt's row at the bottom, with the cursor at its end. */
void tui_prompt_draw(struct tui *t)
{
	char text[4096], shown[2048];
	static const char *const label[] = {
		[PROMPT_SEARCH] = "/", [PROMPT_INCLUDE] = "filter: keep /",
		[PROMPT_EXCLUDE] = "filter: drop /",
		[PROMPT_TASKS] = "filter (pid= tid= cpu= comm=): ",
		[PROMPT_TOP_FILTER] = "top filter: /",
		[PROMPT_ANNOTATE] = "search the source: /",
	};
	size_t cur;

	textfmt_escape(t->prompt, t->prompt_len, shown, sizeof(shown));
	if (t->prompt_kind == PROMPT_TASKS && t->v.tasks) {
		/* A second filter adds to the first: say to what. */
		char now[256];

		textfmt_escape(t->v.tasks, strlen(t->v.tasks), now, sizeof(now));
		snprintf(text, sizeof(text), "filter (adds to %s; pid= drops "
			 "pids; empty: none): %s", now, shown);
	} else {
		snprintf(text, sizeof(text), "%s%s", label[t->prompt_kind],
			 shown);
	}
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
	tui_draw_slot(t, TS_PROMPT);
	tui_draw_line(t, (int)(t->rows - 1), text);
	curs_set(1);
	move((int)(t->rows - 1), (int)(cur < t->cols ? cur : t->cols - 1));
}
