/*
 * theme.c - parsing theme files and coloring frames by name.
 *
 * A frame's color is picked from the first rule that matches it: each
 * channel runs from lo to hi, and where in that span it lands is one of
 * three numbers in [0, 1) taken from a hash of the name.  Channels that
 * share a number move together (a shade), channels with different numbers
 * vary independently (a hue spread), which is how one palette description
 * covers reds-to-yellows as well as a single tinted color.
 */
#include "theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symtab.h"
#include "util.h"

#ifndef FLAMETOP_DATADIR
#define FLAMETOP_DATADIR "/usr/local/share/flametop"
#endif

static const char *const slot_names[TS_COUNT] = {
	[TS_HEADER] = "header", [TS_STATUS] = "status",
	[TS_PROMPT] = "prompt", [TS_ERROR] = "error", [TS_MATCH] = "match",
	[TS_SELECTED] = "selected", [TS_TIMELINE] = "timeline",
	[TS_RANGE] = "range", [TS_HELP] = "help", [TS_TEXT] = "text",
	[TS_GREW] = "grew", [TS_SHRANK] = "shrank", [TS_SAME] = "same",
	[TS_HEAT_LOW] = "heat-low", [TS_HEAT_HIGH] = "heat-high",
};

const char *theme_slot_name(enum theme_slot s)
{
	return s < TS_COUNT ? slot_names[s] : "";
}

static void set_style(struct theme_style *s, uint32_t fg, uint32_t bg,
		      unsigned attrs)
{
	s->fg = fg;
	s->bg = bg;
	s->attrs = attrs;
}

/* The screen's parts, shared by every theme unless it says otherwise. */
static void default_slots(struct theme *t)
{
	set_style(&t->slot[TS_HEADER], 0xffffff, 0x303060, TA_BOLD);
	set_style(&t->slot[TS_STATUS], 0xffffff, 0x303030, 0);
	set_style(&t->slot[TS_PROMPT], 0xffffff, 0x000000, TA_BOLD);
	set_style(&t->slot[TS_ERROR], 0xffffff, 0xa00000, TA_BOLD);
	set_style(&t->slot[TS_MATCH], 0x000000, 0xe600e6, TA_BOLD);
	set_style(&t->slot[TS_SELECTED], THEME_COLOR_DEFAULT,
		  THEME_COLOR_DEFAULT, TA_REVERSE | TA_BOLD);
	set_style(&t->slot[TS_TIMELINE], 0x60a0ff, THEME_COLOR_DEFAULT, 0);
	set_style(&t->slot[TS_RANGE], 0x000000, 0x60a0ff, 0);
	set_style(&t->slot[TS_HELP], 0xffffff, 0x202040, 0);
	set_style(&t->slot[TS_TEXT], 0x000000, THEME_COLOR_DEFAULT, 0);
	set_style(&t->slot[TS_GREW], THEME_COLOR_DEFAULT, 0xff2828, 0);
	set_style(&t->slot[TS_SHRANK], THEME_COLOR_DEFAULT, 0x2828ff, 0);
	set_style(&t->slot[TS_SAME], THEME_COLOR_DEFAULT, 0xffffff, 0);
	set_style(&t->slot[TS_HEAT_LOW], THEME_COLOR_DEFAULT, 0xfff0b4, 0);
	set_style(&t->slot[TS_HEAT_HIGH], THEME_COLOR_DEFAULT, 0xb40000, 0);
}

void theme_default(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", THEME_DEFAULT);
	snprintf(t->description, sizeof(t->description),
		 "reds to yellows (built in)");
	t->nrules = 1;
	t->rules[0].match = TM_ANY;
	t->rules[0].ch[0] = (struct theme_channel){ 205, 255, 2 };
	t->rules[0].ch[1] = (struct theme_channel){ 0, 230, 0 };
	t->rules[0].ch[2] = (struct theme_channel){ 0, 55, 1 };
	default_slots(t);
}

/* ---- Parsing --------------------------------------------------------- */

struct parser {
	const char *file;
	unsigned line;
	char *err;
	size_t errcap;
};

static int perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *ps, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errcap, "%s:%u: %s", ps->file, ps->line, what);
	return -1;
}

/* Split the next whitespace-separated word off *s; NULL at the end. */
static char *word(char **s)
{
	char *p = *s, *w;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	w = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

static bool parse_byte(const char *s, char **end, uint8_t *v)
{
	long x;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	x = strtol(s, end, 10);
	if (errno || x < 0 || x > 255)
		return false;
	*v = (uint8_t)x;
	return true;
}

/* "N", "N-M" or "N-M:V" (V 1..3). */
static int parse_channel(struct parser *ps, const char *w,
			 struct theme_channel *c)
{
	char *end;

	if (!parse_byte(w, &end, &c->lo))
		return perr(ps, "bad color channel '%s' (want N, N-M or N-M:V, "
			    "N and M 0..255, V 1..3)", w);
	c->hi = c->lo;
	c->var = 0;
	if (*end == '-') {
		if (!parse_byte(end + 1, &end, &c->hi))
			return perr(ps, "bad color channel '%s' (want N, N-M or "
				    "N-M:V, N and M 0..255, V 1..3)", w);
	}
	if (*end == ':') {
		if (end[1] < '1' || end[1] > '3' || end[2])
			return perr(ps, "bad hash number in '%s' (want 1, 2 or 3)",
				    w);
		c->var = (uint8_t)(end[1] - '1');
		end += 2;
	}
	if (*end)
		return perr(ps, "bad color channel '%s' (want N, N-M or N-M:V, "
			    "N and M 0..255, V 1..3)", w);
	return 0;
}

static int parse_color(struct parser *ps, const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (strcmp(s, "default") == 0) {
		*out = THEME_COLOR_DEFAULT;
		return 0;
	}
	if (s[0] != '#' || strlen(s) != 7)
		return perr(ps, "bad color '%s' (want #rrggbb or default)", s);
	for (int i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)s[i]))
			return perr(ps, "bad color '%s' (want #rrggbb or "
				    "default)", s);
	v = strtoul(s + 1, &end, 16);
	*out = (uint32_t)v;
	return 0;
}

static int parse_frame(struct parser *ps, struct theme *t, char *rest)
{
	struct theme_rule r;
	char *m = word(&rest), *w;
	static const struct { const char *name; int kind; } kinds[] = {
		{ "user", SYM_USER }, { "kernel", SYM_KERNEL },
		{ "jit", SYM_JIT }, { "inlined", SYM_INLINED },
		{ "waker", SYM_WAKER },
	};

	memset(&r, 0, sizeof(r));
	if (!m)
		return perr(ps, "%s", "frame: missing match (*, user, kernel, "
			    "jit, inlined, waker, contains:T, prefix:T, suffix:T)");
	if (strcmp(m, "*") == 0) {
		r.match = TM_ANY;
	} else if (strchr(m, ':')) {
		char *colon = strchr(m, ':');
		size_t n = strlen(colon + 1);

		*colon = '\0';
		if (strcmp(m, "contains") == 0)
			r.match = TM_CONTAINS;
		else if (strcmp(m, "prefix") == 0)
			r.match = TM_PREFIX;
		else if (strcmp(m, "suffix") == 0)
			r.match = TM_SUFFIX;
		else
			return perr(ps, "frame: unknown match '%s'", m);
		if (n == 0 || n >= sizeof(r.text))
			return perr(ps, "frame: the text of '%s:' must be 1 to 31 "
				    "bytes", m);
		memcpy(r.text, colon + 1, n + 1);
	} else {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(kinds); i++)
			if (strcmp(m, kinds[i].name) == 0)
				break;
		if (i == ARRAY_SIZE(kinds))
			return perr(ps, "frame: unknown match '%s'", m);
		r.match = TM_KIND;
		r.kind = kinds[i].kind;
	}
	for (int c = 0; c < 3; c++) {
		if (!(w = word(&rest)))
			return perr(ps, "%s", "frame: want three channels: "
				    "red green blue");
		if (parse_channel(ps, w, &r.ch[c]) < 0)
			return -1;
	}
	if ((w = word(&rest)))
		return perr(ps, "frame: unexpected '%s' after the blue channel",
			    w);
	if (t->nrules >= THEME_MAX_RULES)
		return perr(ps, "%s", "too many frame rules (at most 16)");
	t->rules[t->nrules++] = r;
	return 0;
}

static int parse_ui(struct parser *ps, struct theme *t, char *rest)
{
	char *s = word(&rest), *w;
	struct theme_style st = { THEME_COLOR_DEFAULT, THEME_COLOR_DEFAULT, 0 };
	int slot;

	if (!s)
		return perr(ps, "%s", "ui: missing part name");
	for (slot = 0; slot < TS_COUNT; slot++)
		if (strcmp(s, slot_names[slot]) == 0)
			break;
	if (slot == TS_COUNT)
		return perr(ps, "ui: unknown part '%s'", s);
	while ((w = word(&rest))) {
		if (strncmp(w, "fg=", 3) == 0) {
			if (parse_color(ps, w + 3, &st.fg) < 0)
				return -1;
		} else if (strncmp(w, "bg=", 3) == 0) {
			if (parse_color(ps, w + 3, &st.bg) < 0)
				return -1;
		} else if (strcmp(w, "bold") == 0) {
			st.attrs |= TA_BOLD;
		} else if (strcmp(w, "reverse") == 0) {
			st.attrs |= TA_REVERSE;
		} else if (strcmp(w, "underline") == 0) {
			st.attrs |= TA_UNDERLINE;
		} else {
			return perr(ps, "ui: unknown attribute '%s' (fg=, bg=, "
				    "bold, reverse, underline)", w);
		}
	}
	t->slot[slot] = st;
	return 0;
}

int theme_parse(struct theme *out, const char *text, size_t len,
		const char *file, char *err, size_t errcap)
{
	struct theme t;
	struct parser ps = { file, 0, err, errcap };
	const char *p = text, *end = text + len;
	char line[512];

	memset(&t, 0, sizeof(t));
	default_slots(&t);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *rest = line, *kw;

		ps.line++;
		if (n >= sizeof(line)) {
			return perr(&ps, "%s", "line too long");
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl ? 1 : 0);
		if (memchr(line, '\0', n))
			return perr(&ps, "%s", "NUL byte in a theme file");
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		kw = word(&rest);
		if (!kw || kw[0] == '#')
			continue;
		if (strcmp(kw, "name") == 0) {
			char *v = word(&rest);

			if (!v || word(&rest))
				return perr(&ps, "%s", "name: want one word");
			if (strlen(v) >= sizeof(t.name))
				return perr(&ps, "%s", "name: too long");
			snprintf(t.name, sizeof(t.name), "%s", v);
		} else if (strcmp(kw, "description") == 0) {
			while (*rest == ' ' || *rest == '\t')
				rest++;
			snprintf(t.description, sizeof(t.description), "%s",
				 rest);
		} else if (strcmp(kw, "frame") == 0) {
			if (parse_frame(&ps, &t, rest) < 0)
				return -1;
		} else if (strcmp(kw, "ui") == 0) {
			if (parse_ui(&ps, &t, rest) < 0)
				return -1;
		} else {
			return perr(&ps, "unknown keyword '%s' (name, description, "
				    "frame, ui)", kw);
		}
	}
	ps.line = 0;
	if (!t.name[0]) {
		snprintf(err, errcap, "%s: no 'name' line", file);
		return -1;
	}
	if (t.nrules == 0) {
		snprintf(err, errcap, "%s: no 'frame' rule", file);
		return -1;
	}
	*out = t;
	return 0;
}

int theme_load(struct theme *out, const char *path, char *err, size_t errcap)
{
	FILE *f = fopen(path, "rb");
	char buf[64 * 1024];
	size_t n;
	int rc;

	if (!f) {
		snprintf(err, errcap, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	if (ferror(f)) {
		snprintf(err, errcap, "%s: %s", path, strerror(errno));
		fclose(f);
		return -1;
	}
	if (n == sizeof(buf)) {
		snprintf(err, errcap, "%s: too big for a theme file", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	rc = theme_parse(out, buf, n, path, err, errcap);
	return rc;
}

/* ---- Colors ---------------------------------------------------------- */

static bool rule_matches(const struct theme_rule *r, const char *name,
			 size_t len, int kind)
{
	size_t n = strlen(r->text);

	switch (r->match) {
	case TM_ANY:
		return true;
	case TM_KIND:
		return kind == r->kind;
	case TM_CONTAINS:
		return n <= len && memmem(name, len, r->text, n) != NULL;
	case TM_PREFIX:
		return n <= len && memcmp(name, r->text, n) == 0;
	case TM_SUFFIX:
		return n <= len && memcmp(name + len - n, r->text, n) == 0;
	}
	return false;
}

uint32_t theme_frame_color(const struct theme *t, const char *name,
			   size_t len, int kind)
{
	uint64_t h = hash_bytes(name, len);
	double v[3];

	v[0] = (double)(h & 0xffff) / 65536.0;
	v[1] = (double)((h >> 16) & 0xffff) / 65536.0;
	v[2] = (double)((h >> 32) & 0xffff) / 65536.0;
	for (unsigned i = 0; i < t->nrules; i++) {
		const struct theme_rule *r = &t->rules[i];
		uint32_t rgb = 0;

		if (!rule_matches(r, name, len, kind))
			continue;
		for (int c = 0; c < 3; c++) {
			const struct theme_channel *ch = &r->ch[c];
			double x = ch->lo + ((double)ch->hi - ch->lo) * v[ch->var];

			rgb = (rgb << 8) | ((uint32_t)(x + 0.5) & 0xff);
		}
		return rgb;
	}
	return 0xa0a0a0;
}

/* ---- Finding themes -------------------------------------------------- */

static void add_dir(char ***dirs, size_t *n, size_t *cap, char *d)
{
	struct stat st;

	if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(d);
		return;
	}
	for (size_t i = 0; i < *n; i++) {
		char a[PATH_MAX], b[PATH_MAX];

		if (realpath((*dirs)[i], a) && realpath(d, b) &&
		    strcmp(a, b) == 0) {
			free(d);
			return;
		}
	}
	GROW(*dirs, *cap, *n + 1);
	(*dirs)[(*n)++] = d;
}

size_t theme_dirs(char ***dirs)
{
	size_t n = 0, cap = 0;
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char exe[PATH_MAX];
	ssize_t k;

	*dirs = NULL;
	if (xdg && *xdg)
		add_dir(dirs, &n, &cap, xasprintf("%s/flametop/themes", xdg));
	else if (home && *home)
		add_dir(dirs, &n, &cap,
			xasprintf("%s/.config/flametop/themes", home));
	add_dir(dirs, &n, &cap, xstrdup("themes"));
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k > 0) {
		exe[k] = '\0';
		for (int up = 0; up < 3; up++) {
			char *slash = strrchr(exe, '/');

			if (!slash || slash == exe)
				break;
			*slash = '\0';
			add_dir(dirs, &n, &cap, xasprintf("%s/themes", exe));
		}
	}
	add_dir(dirs, &n, &cap, xstrdup(FLAMETOP_DATADIR "/themes"));
	return n;
}

void theme_dirs_free(char **dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

char *theme_find(const char *name)
{
	char **dirs;
	size_t n = theme_dirs(&dirs);
	char *found = NULL;

	if (strchr(name, '/')) {
		theme_dirs_free(dirs, n);
		return access(name, R_OK) == 0 ? xstrdup(name) : NULL;
	}
	for (size_t i = 0; i < n && !found; i++) {
		char *path = xasprintf("%s/%s.theme", dirs[i], name);

		if (access(path, R_OK) == 0)
			found = path;
		else
			free(path);
	}
	theme_dirs_free(dirs, n);
	return found;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t theme_names(char ***names)
{
	char **dirs;
	size_t nd = theme_dirs(&dirs), n = 0, cap = 0, k = 0;

	*names = NULL;
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len <= 6 || e->d_name[0] == '.' ||
			    strcmp(e->d_name + len - 6, ".theme") != 0)
				continue;
			GROW(*names, cap, n + 1);
			(*names)[n++] = xstrndup(e->d_name, len - 6);
		}
		closedir(d);
	}
	theme_dirs_free(dirs, nd);
	if (!n) {
		GROW(*names, cap, 1);
		(*names)[n++] = xstrdup(THEME_DEFAULT);
	}
	qsort(*names, n, sizeof(**names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (k && strcmp((*names)[k - 1], (*names)[i]) == 0) {
			free((*names)[i]);
			continue;
		}
		(*names)[k++] = (*names)[i];
	}
	return k;
}

void theme_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int theme_check_name(const char *name, char *err, size_t errcap)
{
	char **names, *path;
	size_t n, len;

	if (!name || strchr(name, '/') || strcmp(name, THEME_DEFAULT) == 0)
		return 0;
	path = theme_find(name);
	if (path) {
		free(path);
		return 0;
	}
	n = theme_names(&names);
	len = (size_t)snprintf(err, errcap, "--colors: no theme '%s' (have:", name);
	for (size_t i = 0; i < n && len < errcap; i++)
		len += (size_t)snprintf(err + len, errcap - len, " %s", names[i]);
	if (len < errcap)
		snprintf(err + len, errcap - len, ")");
	theme_names_free(names, n);
	return -1;
}
