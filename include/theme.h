/*
 * theme.h - color themes: how a frame's name becomes a color, and the
 * colors of the screen's other parts (header, status line, selection,
 * search matches, timeline).
 *
 * A theme is a small text file (doc/themes.md): "frame" rules map a kind
 * of frame to a color range, and a frame's place in that range comes from
 * a hash of its name, so the same name has the same color in every view
 * and every run.  The parser rejects a bad line with "file:line: what" and
 * leaves the caller's current theme untouched.  Curses-free: the TUI maps
 * these RGB colors to what the terminal offers.
 */
#ifndef FLAMETOP_THEME_H
#define FLAMETOP_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define THEME_MAX_RULES 16
#define THEME_NAME_MAX 64
#define THEME_DEFAULT "hot"

/* 0xRRGGBB, or THEME_COLOR_DEFAULT for the terminal's own color. */
#define THEME_COLOR_DEFAULT 0xff000000u

/* Which frames a rule applies to. */
enum theme_match {
	TM_ANY,          /* "*" */
	TM_KIND,         /* kernel, jit, inlined, waker, user */
	TM_CONTAINS,     /* contains:TEXT */
	TM_PREFIX,       /* prefix:TEXT */
	TM_SUFFIX,       /* suffix:TEXT */
};

/* One channel: lo + (hi - lo) * v[var], v in [0, 1). */
struct theme_channel {
	uint8_t lo, hi;
	uint8_t var;     /* 0..2: which of the name's three hash values */
};

struct theme_rule {
	enum theme_match match;
	int kind;                 /* enum sym_kind for TM_KIND */
	char text[32];            /* for contains/prefix/suffix */
	struct theme_channel ch[3];   /* red, green, blue */
};

/* The screen's parts. */
enum theme_slot {
	TS_HEADER, TS_STATUS, TS_PROMPT, TS_ERROR, TS_MATCH, TS_SELECTED,
	TS_TIMELINE, TS_RANGE, TS_HELP, TS_TEXT,
	TS_GREW, TS_SHRANK, TS_SAME,   /* differential profiles: frame bg */
	TS_HEAT_LOW, TS_HEAT_HIGH,     /* the heat map's scale: cell bg */
	TS_COUNT
};

#define TA_BOLD 1u
#define TA_REVERSE 2u
#define TA_UNDERLINE 4u

struct theme_style {
	uint32_t fg, bg;          /* 0xRRGGBB or THEME_COLOR_DEFAULT */
	unsigned attrs;           /* TA_* */
};

struct theme {
	char name[THEME_NAME_MAX];
	char description[96];
	struct theme_rule rules[THEME_MAX_RULES];
	unsigned nrules;
	struct theme_style slot[TS_COUNT];
};

/* The built-in default theme (flamegraph.pl's "hot"). */
void theme_default(struct theme *t);

/*
 * Parse a theme from text; file names it in messages.  On success fills
 * *out and returns 0; on error returns -1 with "file:line: what" in err and
 * *out unchanged.
 */
int theme_parse(struct theme *out, const char *text, size_t len,
		const char *file, char *err, size_t errcap);
/* The same from a file. */
int theme_load(struct theme *out, const char *path, char *err, size_t errcap);

/* The frame color (0xRRGGBB) of a name with its symbol kind. */
uint32_t theme_frame_color(const struct theme *t, const char *name,
			   size_t len, int kind);
/* The slot's name, e.g. "match" ("" when out of range). */
const char *theme_slot_name(enum theme_slot s);

/* ---- Finding themes -------------------------------------------------- */

/*
 * The directories searched, first match wins: $XDG_CONFIG_HOME/flametop/
 * themes (or ~/.config/...), ./themes, themes beside the binary and up to
 * two levels above it (a build directory in the source tree), and
 * FLAMETOP_DATADIR/themes.  Returns the count; dirs[i] are malloc'd.
 */
size_t theme_dirs(char ***dirs);
void theme_dirs_free(char **dirs, size_t n);

/* The path of NAME.theme (or NAME itself when it holds a '/'), or NULL. */
char *theme_find(const char *name);

/* The sorted, distinct names of the themes found; free with theme_names_free. */
size_t theme_names(char ***names);
void theme_names_free(char **names, size_t n);

/*
 * Is name a theme that can be found (a path, with a '/', is left to
 * theme_load)?  0, or -1 with "-c: no theme 'x' (have: a b ...)" in err.
 * Every mode checks -c with it, so a bad name is a usage error everywhere.
 */
int theme_check_name(const char *name, char *err, size_t errcap);

#endif
