/*
 * tui-state.c - small queries and updates of the view's state that every
 * layer of the TUI uses: the status message, the rectangle a node is drawn
 * in, and the accessors of tui.h.  It calls no other tui file.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tui-priv.h"

void tui_set_msg(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_error = error;
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

const struct profile *tui_profile(const struct tui *t) { return t->p; }
uint32_t tui_selected(const struct tui *t) { return t->sel; }
uint32_t tui_zoom(const struct tui *t) { return t->zoom; }
bool tui_timeline_focused(const struct tui *t) { return t->tl_focus; }
const char *tui_message(const struct tui *t) { return t->msg; }
