/*
 * tui-view.c - the interactive view's derived views: the settings the
 * keys change (invert, weight order, folded recursion, include/exclude
 * filters, idle hidden, grouping, task filters, callers/callees, the top
 * table), the profile derived from them (view.h), the history that
 * Backspace walks back after the zoom history, the header's description of
 * the view, and copying a name with OSC 52.  Curses-free.
 *
 * Labels (T, --tag, --group label:KEY) are view settings like the task
 * filters: the samples keep their label sets, and the view filters or
 * groups them without reading the input again.
 *
 * The source profile (read or sampled) stays as it is; a view is a new
 * profile derived from it and owned here.  Deriving the same settings from
 * the same source gives the same node ids, so a view returned to gets its
 * zoom and selection back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"
#include "export.h"
#include "textfmt.h"
#include "timerange.h"
#include "tui-priv.h"
#include "util.h"

void tui_view_init(struct tui *t, struct profile *src)
{
	t->src = t->p = src;
	t->top_stale = true;
	t->top_sort = TOP_BY_CHANGE;   /* by self when not a comparison */
}

static void vstate_free(struct tui_vstate *v)
{
	free(v->include);
	free(v->exclude);
	free(v->focus);
	free(v->tasks);
	for (size_t i = 0; i < v->ntags; i++)
		free(v->tags[i]);
	free(v->tags);
	free(v->label_key);
	memset(v, 0, sizeof(*v));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct tui_vstate vstate_copy(const struct tui_vstate *v)
{
	struct tui_vstate c = *v;

	c.include = dup_or_null(v->include);
	c.exclude = dup_or_null(v->exclude);
	c.focus = dup_or_null(v->focus);
	c.tasks = dup_or_null(v->tasks);
	c.label_key = dup_or_null(v->label_key);
	c.tags = v->ntags ? xreallocarray(NULL, v->ntags, sizeof(*c.tags))
			  : NULL;
	for (size_t i = 0; i < v->ntags; i++)
		c.tags[i] = xstrdup(v->tags[i]);
	return c;
}

void tui_view_free(struct tui *t)
{
	vstate_free(&t->v);
	for (size_t i = 0; i < t->nvhist; i++)
		vstate_free(&t->vhist[i]);
	free(t->vhist);
	profile_destroy(t->own);
	profile_destroy(t->cmpsrc);
	profile_destroy(t->baseline);
	free(t->osc);
	tui_top_free(t);
	tui_sandwich_free(t);
}

/* Split "pid=1,2 cpu=0-3 comm=a,b tid=7" into spec; false on a bad word. */
static bool parse_tasks(const char *text, struct view_spec *s, char **commbuf,
			char *err, size_t errcap)
{
	char *copy = xstrdup(text), *save = NULL;
	bool ok = true;

	*commbuf = copy;
	for (char *w = strtok_r(copy, " ", &save); w && ok;
	     w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		struct view_list *l = NULL;

		if (!eq) {
			snprintf(err, errcap, "'%s': write pid=, tid=, cpu= or comm=",
				 w);
			return false;
		}
		*eq = 0;
		if (strcmp(w, "pid") == 0)
			l = &s->pids;
		else if (strcmp(w, "tid") == 0)
			l = &s->tids;
		else if (strcmp(w, "cpu") == 0)
			l = &s->cpus;
		if (l) {
			ok = view_list_parse(l, eq + 1, err, errcap) == 0;
		} else if (strcmp(w, "comm") == 0) {
			for (char *c = eq + 1, *e;; c = e + 1) {
				e = strchr(c, ',');
				if (e)
					*e = 0;
				s->comms = xreallocarray(s->comms, s->ncomms + 1,
							 sizeof(*s->comms));
				s->comms[s->ncomms++] = c;
				if (!e)
					break;
			}
		} else {
			snprintf(err, errcap, "'%s': write pid=, tid=, cpu= or comm=",
				 w);
			ok = false;
		}
	}
	return ok;
}

static size_t describe(const struct tui_vstate *v, uint64_t first,
		       char *buf, size_t cap)
{
	static const char *const groups[] = { "", "per process", "per thread",
					      "merged" };
	size_t n = 0;
	char shown[256];

#define ADD(...) do { \
		int k_ = snprintf(buf + n, cap - n, "%s", n ? ", " : ""); \
		n += k_ > 0 && (size_t)k_ < cap - n ? (size_t)k_ : 0; \
		k_ = snprintf(buf + n, cap - n, __VA_ARGS__); \
		n += k_ > 0 && (size_t)k_ < cap - n ? (size_t)k_ : 0; \
	} while (0)
	/* A string of the user's or the profile's, escaped into fmt's %s. */
#define ADD_SHOWN(fmt, s) do { \
		textfmt_escape((s), strlen(s), shown, sizeof(shown)); \
		ADD(fmt, shown); \
	} while (0)
	buf[0] = 0;
	if (v->top)
		ADD("top");
	if (v->focus) {
		textfmt_escape(v->focus, strlen(v->focus), shown, sizeof(shown));
		ADD("%s of %s", v->sandwich ? "sandwich (callers above, callees "
		    "below)" : v->callers ? "callers" : "callees", shown);
	}
	if (v->cmp) {
		char a[64], b[64];

		/* As the messages name them (tui-view-timeline.c). */
		timerange_describe(a, sizeof(a), first, v->cmp_a0, v->cmp_a1);
		timerange_describe(b, sizeof(b), first, v->cmp_b0, v->cmp_b1);
		ADD("range B %s against range A %s", b, a);
	}
	if (v->baseline)
		ADD("compare against the baseline");
	if (v->negate)
		ADD("sized by %s", v->cmp ? "A" : "before");
	if (v->invert)
		ADD("inverted");
	if (v->fold)
		ADD("recursion folded");
	if (v->weight)
		ADD("weight order");
	if (v->include)
		ADD_SHOWN("filter +/%s/", v->include);
	if (v->exclude)
		ADD_SHOWN("filter -/%s/", v->exclude);
	if (v->hide_idle)
		ADD("idle hidden");
	if (v->tasks)
		ADD_SHOWN("filter %s", v->tasks);
	if (v->group)
		ADD("%s", groups[v->group]);
	for (size_t i = 0; i < v->ntags; i++)
		ADD_SHOWN("label %s", v->tags[i]);
	if (v->label_key)
		ADD_SHOWN("per label %s", v->label_key);
#undef ADD_SHOWN
#undef ADD
	return n;
}

/* Switch the screen to profile p, at zoom and sel when they exist in it. */
void tui_after_profile_switch(struct tui *t, uint32_t zoom, uint32_t sel)
{
	size_t n = profile_node_count(t->p);

	t->nzhist = 0;
	t->zoom = zoom < n ? zoom : NODE_ROOT;
	t->sel = sel < n ? sel : t->zoom;
	t->scroll = 0;
	t->tl_mark = -1;
	t->sand_focus = false;
	t->sand_sel = NODE_ROOT;
	t->sand_eye = NO_EYE;
	t->sand_scroll = 0;
}

static void free_spec_lists(struct view_spec *s, char *commbuf)
{
	view_list_free(&s->pids);
	view_list_free(&s->tids);
	view_list_free(&s->cpus);
	free(s->comms);
	free(commbuf);
}

/*
 * The comparison the view asks for, built from the source: its samples in
 * range A (BEFORE) and in range B (AFTER), or the baseline (BEFORE) and
 * the source as it is now (AFTER).  NULL when the view compares nothing.
 */
static struct profile *build_comparison(struct tui *t)
{
	struct profile *c;
	uint64_t f = 0, l = 0;
	bool ranged;

	if (!t->v.cmp && !(t->v.baseline && t->baseline))
		return NULL;
	c = diff_create();
	if (t->v.cmp) {
		ranged = profile_range(t->src, &f, &l);
		profile_set_range(t->src, t->v.cmp_a0, t->v.cmp_a1);
		diff_add(c, t->src, false, NULL);
		profile_set_range(t->src, t->v.cmp_b0, t->v.cmp_b1);
		diff_add(c, t->src, true, NULL);
		if (ranged)
			profile_set_range(t->src, f, l);
		else
			profile_clear_range(t->src);
		profile_set_sides(c, "A", "B");
	} else {
		diff_add(c, t->baseline, false, NULL);
		diff_add(c, t->src, true, NULL);
	}
	profile_finish(c);
	return c;
}

/*
 * The view's steps as a spec for view_derive: inc and exc hold room for
 * the view's include and exclude regexes; drop (NULL: none) is a search
 * whose matching stacks are dropped as well.  false (err set) on a bad task filter; the lists
 * are freed by free_spec_lists either way.
 */
static bool spec_of(const struct tui *t, struct view_spec *s,
		    const char *inc[1], const char *exc[1],
		    const struct search *drop,
		    char **commbuf, char *err, size_t errcap)
{
	memset(s, 0, sizeof(*s));
	*commbuf = NULL;
	s->invert = t->v.invert;
	s->fold_recursion = t->v.fold;
	s->order = t->v.weight ? ORDER_WEIGHT : ORDER_NAME;
	s->hide_idle = t->v.hide_idle;
	s->group = t->v.group;
	s->tags = (const char *const *)t->v.tags;
	s->ntags = t->v.ntags;
	s->label_key = t->v.label_key;
	s->icase = t->icase;
	if (t->v.include) {
		inc[0] = t->v.include;
		s->include = inc;
		s->ninclude = 1;
	}
	if (t->v.exclude) {
		exc[0] = t->v.exclude;
		s->exclude = exc;
		s->nexclude = 1;
	}
	s->exclude_search = drop;
	if (t->v.focus) {
		if (t->v.callers && !t->v.sandwich)
			s->callers = t->v.focus;
		else
			s->callees = t->v.focus;
	}
	return !t->v.tasks || parse_tasks(t->v.tasks, s, commbuf, err, errcap);
}

static uint64_t weight_without(struct tui *t, const struct search *drop)
{
	struct view_spec s;
	struct profile *d = NULL, *cmp = build_comparison(t);
	const char *inc[1], *exc[1];
	char err[512], *commbuf;
	uint64_t w = 0;

	if (spec_of(t, &s, inc, exc, drop, &commbuf, err, sizeof(err)) &&
	    view_derive(cmp ? cmp : t->src, &s, &d, err, sizeof(err)) ==
	    VIEW_OK) {
		if (t->v.negate && profile_is_differential(d)) {
			struct profile *sw = diff_swap(d);

			profile_destroy(d);
			d = sw;
		}
		w = profile_total(d, NODE_ROOT);
	}
	profile_destroy(d);
	profile_destroy(cmp);
	free_spec_lists(&s, commbuf);
	return w;
}

void tui_view_sandwich_matched(struct tui *t)
{
	uint64_t total, left;

	t->sand_stale = false;
	if (!t->sand || !search_active(t->search))
		return;
	total = profile_total(t->p, NODE_ROOT);
	left = weight_without(t, t->search);
	t->matched = total > left ? total - left : 0;
}

bool tui_view_apply(struct tui *t)
{
	struct view_spec s;
	struct profile *d = NULL, *cmp = build_comparison(t);
	struct profile *base = cmp ? cmp : t->src;
	const char *inc[1], *exc[1];
	char err[512], *commbuf = NULL;
	enum view_status st = VIEW_OK;
	bool ok = true;

	if (!spec_of(t, &s, inc, exc, NULL, &commbuf, err, sizeof(err))) {
		tui_set_msg(t, true, "%s", err);
		ok = false;
	}
	if (ok && view_spec_active(&s)) {
		st = view_derive(base, &s, &d, err, sizeof(err));
		if (st) {
			tui_set_msg(t, true, "%s", err);
			ok = false;
		} else if (err[0]) {
			tui_set_msg(t, false, "%s", err);   /* a note */
		}
	} else if (ok && profile_order(base) != s.order) {
		profile_set_order(base, s.order);
		profile_finish(base);
	}
	if (!ok) {
		free_spec_lists(&s, commbuf);
		profile_destroy(cmp);
		return false;
	}
	if (d && profile_order(base) != ORDER_NAME) {
		/* The source itself goes back to name order. */
		profile_set_order(base, ORDER_NAME);
		profile_finish(base);
	}
	if (t->v.negate && profile_is_differential(base)) {
		struct profile *sw = diff_swap(d ? d : base);

		profile_destroy(d);
		d = sw;
	}
	profile_destroy(t->own);
	profile_destroy(t->cmpsrc);
	t->own = d;
	t->cmpsrc = cmp;
	t->p = d ? d : base;
	if (t->v.sandwich)
		tui_sandwich_build(t, &s);
	else
		tui_sandwich_free(t);
	free_spec_lists(&s, commbuf);
	{
		uint64_t first = 0, last = 0;

		profile_time_bounds(t->src, &first, &last);
		describe(&t->v, first, t->vdesc, sizeof(t->vdesc));
	}
	/* The one place a view's tree replaces the shown one. */
	tui_shown_changed(t, true);
	return true;
}

/* Make next the view, remembering the present one; false if it failed. */
static bool go(struct tui *t, struct tui_vstate *next)
{
	struct tui_vstate prev = t->v;

	prev.zoom = t->zoom;
	prev.sel = t->sel;
	t->v = *next;
	if (!tui_view_apply(t)) {
		/* Keep the view as it was (the message says why); the caller
		 * frees next. */
		t->v = prev;
		return false;
	}
	GROW(t->vhist, t->capvhist, t->nvhist + 1);
	t->vhist[t->nvhist++] = prev;
	tui_after_profile_switch(t, NODE_ROOT, NODE_ROOT);
	return true;
}

bool tui_view_back(struct tui *t)
{
	struct tui_vstate cur;

	if (!t->nvhist)
		return false;
	cur = t->v;
	t->v = t->vhist[--t->nvhist];
	if (!tui_view_apply(t)) {
		/* The source changed under it (live): clear every view. */
		vstate_free(&t->v);
		tui_view_apply(t);
	}
	tui_after_profile_switch(t, t->v.zoom, t->v.sel);
	vstate_free(&cur);
	return true;
}

void tui_view_source_changed(struct tui *t)
{
	uint32_t z = t->zoom, s = t->sel;

	if (!t->own && !t->v.weight && !t->cmpsrc)
		return;
	if (!tui_view_apply(t)) {
		vstate_free(&t->v);
		tui_view_apply(t);
	}
	/* Same settings: the node ids of what was there stay. */
	t->zoom = z < profile_node_count(t->p) ? z : NODE_ROOT;
	t->sel = s < profile_node_count(t->p) ? s : t->zoom;
}

const char *tui_view_subject(struct tui *t, size_t *len)
{
	const char *name = NULL;

	*len = 0;
	if (t->v.top) {
		name = tui_top_selected_name(t);
		*len = name ? strlen(name) : 0;
	} else if (t->sand_focus) {   /* a caller in the sandwich */
		name = profile_name(t->sand, t->sand_sel);
		*len = profile_name_len(t->sand, t->sand_sel);
	} else if (t->sel != NODE_ROOT) {
		name = profile_name(t->p, t->sel);
		*len = profile_name_len(t->p, t->sel);
	}
	return name;
}

const char *tui_view_inlined_into(struct tui *t, size_t *len)
{
	const struct symtab *st = profile_symtab(t->p);
	uint32_t id = t->sel;

	*len = 0;
	if (t->v.top || t->sand_focus || t->v.invert ||
	    (t->v.focus && t->v.callers) || id == NODE_ROOT ||
	    symtab_kind(st, profile_node(t->p, id)->sym) != SYM_INLINED)
		return NULL;
	while (id != NODE_ROOT &&
	       symtab_kind(st, profile_node(t->p, id)->sym) == SYM_INLINED)
		id = profile_node(t->p, id)->parent;
	if (id == NODE_ROOT)
		return NULL;
	*len = profile_name_len(t->p, id);
	return profile_name(t->p, id);
}

void tui_view_action(struct tui *t, enum tui_action a)
{
	struct tui_vstate n = vstate_copy(&t->v);
	const char *name;
	size_t len;

	switch (a) {
	case ACT_TOP_TABLE:
		n.top = !n.top;
		break;
	case ACT_CALLERS:
	case ACT_CALLEES:
	case ACT_SANDWICH:
		name = tui_view_subject(t, &len);
		if (!name) {
			tui_set_msg(t, false, "select a function first");
			vstate_free(&n);
			return;
		}
		free(n.focus);
		n.focus = xstrdup(name);
		n.callers = a == ACT_CALLERS;
		n.sandwich = a == ACT_SANDWICH;
		n.top = false;
		/* The view of one function starts from its plain stacks. */
		n.invert = false;
		break;
	case ACT_INVERT:
		n.invert = !n.invert;
		break;
	case ACT_NEGATE:
		if (!profile_is_differential(t->cmpsrc ? t->cmpsrc : t->src)) {
			tui_set_msg(t, false, "not a comparison: nothing to "
				    "size by BEFORE");
			vstate_free(&n);
			return;
		}
		n.negate = !n.negate;
		break;
	case ACT_ORDER:
		n.weight = !n.weight;
		break;
	case ACT_FOLD:
		n.fold = !n.fold;
		break;
	case ACT_IDLE:
		n.hide_idle = !n.hide_idle;
		break;
	case ACT_GROUP:
		n.group = (enum view_group)((n.group + 1) % 4);
		free(n.label_key);      /* one grouping at a time */
		n.label_key = NULL;
		break;
	case ACT_VIEW_RESET:
		if (!t->own && !t->v.top && !t->v.weight) {
			tui_set_msg(t, false, "no view or filter to reset");
			vstate_free(&n);
			return;
		}
		vstate_free(&n);
		break;
	default:
		vstate_free(&n);
		return;
	}
	if (!go(t, &n))
		vstate_free(&n);
	else if (a == ACT_GROUP && n.group && !profile_has_timeline(t->src))
		tui_set_msg(t, false, "this input does not know processes "
			    "or threads: grouping changes nothing");
	else if (t->vdesc[0])
		tui_set_msg(t, false, "view: %s", t->vdesc);
	else
		tui_set_msg(t, false, "view: the profile as read");
}

/* Does the list of words in s (spaces between) hold one of key=?  keylen
 * counts the "=". */
static bool has_key(const char *s, const char *key, size_t keylen)
{
	for (; *s; s += strcspn(s, " ")) {
		s += strspn(s, " ");
		if (strncmp(s, key, keylen) == 0)
			return true;
	}
	return false;
}

/*
 * A second % adds to the task filter, as F adds to X: each KEY=LIST word
 * typed replaces that key's list (KEY= alone drops it), the old filter's
 * other words stay.  An empty answer clears the filter.  Returns a malloc'd
 * string, or NULL for no filter.
 */
static char *merge_tasks(const char *old, const char *text)
{
	size_t cap = (old ? strlen(old) : 0) + strlen(text) + 2, n = 0;
	char *out = xmalloc(cap);
	const char *w;

	if (!text[strspn(text, " ")]) {
		free(out);
		return NULL;
	}
	/* The old words whose key is not typed again, then the typed ones. */
	for (int pass = 0; pass < 2; pass++) {
		for (w = pass ? text : old ? old : ""; *w;) {
			size_t len, key;

			w += strspn(w, " ");
			len = strcspn(w, " ");
			key = strcspn(w, "= ");
			key += key < len;   /* with its "=" */
			if (len && (pass ? key < len || w[key - 1] != '=' :
				    !has_key(text, w, key)))
				n += (size_t)snprintf(out + n, cap - n, "%s%.*s",
						      n ? " " : "", (int)len, w);
			w += len;
		}
	}
	if (!n) {
		free(out);
		return NULL;
	}
	return out;
}

void tui_view_prompt_done(struct tui *t, enum tui_prompt kind,
			  const char *text)
{
	struct tui_vstate n = vstate_copy(&t->v);
	char **slot = kind == PROMPT_INCLUDE ? &n.include :
		      kind == PROMPT_EXCLUDE ? &n.exclude : &n.tasks;

	if (kind == PROMPT_TASKS && *text && !profile_has_timeline(t->src)) {
		/* As --pids on folded input: say so, keep the view. */
		tui_set_msg(t, true, "this input does not say which process, "
			    "thread or CPU took its samples: the filter would "
			    "keep nothing");
		vstate_free(&n);
		return;
	}
	if (kind == PROMPT_TASKS) {
		char *m = merge_tasks(n.tasks, text);

		free(n.tasks);
		n.tasks = m;
	} else {
		free(*slot);
		*slot = *text ? xstrdup(text) : NULL;
	}
	if (!go(t, &n))
		vstate_free(&n);
	else
		tui_set_msg(t, false, "view: %s",
			    t->vdesc[0] ? t->vdesc : "the profile as read");
}

/* ---- Copying (OSC 52) ----------------------------------------------------- */

static char *base64(const char *s, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = xmalloc(4 * (n / 3 + 1) + 1), *o = out;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)(unsigned char)s[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)(unsigned char)s[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)s[i + 2];
		*o++ = tab[v >> 18 & 63];
		*o++ = tab[v >> 12 & 63];
		*o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? tab[v & 63] : '=';
	}
	*o = 0;
	return out;
}

/*
 * Inside tmux?  Its default (set-clipboard external) keeps an OSC 52 from
 * the programs it runs: the copy arrives only with set-clipboard on.
 */
static bool under_tmux(void)
{
	const char *tmux = getenv("TMUX"), *term = getenv("TERM");

	return (tmux && *tmux) || (term && strncmp(term, "tmux", 4) == 0);
}

void tui_view_copy(struct tui *t, bool stack)
{
	char *text = NULL, *b64;
	size_t len = 0, cap = 0, shown = 0, capc = 0, nc = 0;
	uint32_t *chain = NULL;
	const char *name = t->v.top ? tui_top_selected_name(t) : NULL;
	/* A caller in the sandwich: its chain runs from it, the outermost,
	 * down to the function (the callers profile is inverted). */
	const struct profile *p = t->sand_focus ? t->sand : t->p;
	uint32_t sel = t->sand_focus ? t->sand_sel : t->sel;

	if (!t->v.top && sel != NODE_ROOT) {
		for (uint32_t x = sel; x != NODE_ROOT && x != NODE_NONE;
		     x = profile_node(p, x)->parent) {
			GROW(chain, capc, nc + 1);
			chain[nc++] = x;
		}
		if (!stack)
			nc = 1;
	}
	if (!name && !nc) {
		tui_set_msg(t, false, "select a frame to copy");
		free(chain);
		return;
	}
	/* Names are escaped as on screen: no control bytes leave. */
	for (size_t k = name ? 1 : nc; k-- > 0;) {
		size_t j = t->sand_focus ? nc - 1 - k : k;
		const char *s = name ? name : profile_name(p, chain[j]);
		size_t n = name ? strlen(name) : profile_name_len(p, chain[j]);

		GROW(text, cap, len + 4 * n + 2);
		if (len)
			text[len++] = ';';
		len += textfmt_escape(s, n, text + len, cap - len);
		shown++;
	}
	b64 = base64(text, len);
	free(t->osc);
	t->osc = xasprintf("\033]52;c;%s\a", b64);
	if (under_tmux())
		tui_set_msg(t, false, "copied %s (%zu bytes); tmux passes it "
			    "on with: set -s set-clipboard on",
			    stack && shown > 1 ? "the stack" : "the name", len);
	else
		tui_set_msg(t, false, "copied %s (%zu bytes) to the clipboard",
			    stack && shown > 1 ? "the stack" : "the name", len);
	free(b64);
	free(text);
	free(chain);
}

void tui_view_compare_ranges(struct tui *t, uint64_t a0, uint64_t a1,
			     uint64_t b0, uint64_t b1)
{
	struct tui_vstate n = vstate_copy(&t->v);

	n.cmp = true;
	n.baseline = false;
	n.cmp_a0 = a0;
	n.cmp_a1 = a1;
	n.cmp_b0 = b0;
	n.cmp_b1 = b1;
	n.top = false;
	if (!go(t, &n))
		vstate_free(&n);
	else
		tui_set_msg(t, false, "view: %s (Backspace: back)", t->vdesc);
}

void tui_view_baseline(struct tui *t)
{
	struct tui_vstate n = vstate_copy(&t->v);

	if (t->v.baseline) {
		n.baseline = false;
	} else {
		if (profile_is_differential(t->src)) {
			tui_set_msg(t, false, "this profile is a comparison "
				    "already: no baseline to take");
			vstate_free(&n);
			return;
		}
		profile_destroy(t->baseline);
		t->baseline = tui_view_snapshot(t);
		t->fetched_again = false;
		n.baseline = true;
		n.cmp = false;
	}
	if (!go(t, &n))
		vstate_free(&n);
	else if (n.baseline)
		tui_set_msg(t, false, "baseline taken: the view compares the "
			    "window against it (b again: no baseline)");
	else
		tui_set_msg(t, false, "no baseline: the window as it is");
}

struct profile *tui_view_snapshot(const struct tui *t)
{
	struct profile *b = profile_create();

	profile_set_order(b, ORDER_NAME);
	diff_add(b, t->src, true, NULL);
	profile_finish(b);
	return b;
}

void tui_view_previous_fetch(struct tui *t, struct profile *prev)
{
	profile_destroy(t->baseline);
	t->baseline = prev;
	t->fetched_again = true;
}

void tui_view_compare_previous(struct tui *t)
{
	struct tui_vstate n;

	if (!t->v.baseline && (!t->baseline || !t->fetched_again)) {
		tui_set_msg(t, false, "b compares with the previous fetch: "
			    "r fetches the profile again first");
		return;
	}
	if (!t->v.baseline && profile_is_differential(t->src)) {
		tui_set_msg(t, false, "this profile is a comparison already");
		return;
	}
	n = vstate_copy(&t->v);
	n.baseline = !t->v.baseline;
	n.cmp = false;
	if (!go(t, &n))
		vstate_free(&n);
	else if (n.baseline)
		tui_set_msg(t, false, "view: this fetch against the previous "
			    "one (b again: this fetch alone; B: sized by the "
			    "previous)");
	else
		tui_set_msg(t, false, "this fetch alone");
}

/* ---- Labels ----------------------------------------------------------- */

void tui_view_label(struct tui *t, const char *key, size_t klen,
		    const char *value, size_t vlen, bool group)
{
	struct tui_vstate n = vstate_copy(&t->v);
	char shown[512];

	t->msg[0] = '\0';
	/* A filter or a grouping, as --tag and --group label:KEY: a C
	 * string of its own, which a key or value with a NUL byte (or a key
	 * with '=') cannot be. */
	if (key && (memchr(key, 0, klen) || memchr(key, '=', klen) ||
		    (klen && key[klen - 1] == '!') ||
		    (!group && memchr(value, 0, vlen)))) {
		tui_set_msg(t, true, "this label cannot be chosen here: its key "
			    "or value holds a NUL, '=' or a final '!'");
		vstate_free(&n);
		return;
	}
	for (size_t i = 0; i < n.ntags; i++)
		free(n.tags[i]);
	free(n.tags);
	n.tags = NULL;
	n.ntags = 0;
	free(n.label_key);
	n.label_key = NULL;
	if (key && group) {
		n.label_key = xstrndup(key, klen);
		n.group = GROUP_ASREAD;         /* one grouping at a time */
	} else if (key) {
		n.tags = xmalloc(sizeof(*n.tags));
		n.tags[0] = xasprintf("%.*s=%.*s", (int)klen, key, (int)vlen,
				      value);
		n.ntags = 1;
	}
	if (!go(t, &n)) {
		vstate_free(&n);
		return;
	}
	if (key)
		textfmt_escape(group ? n.label_key : n.tags[0],
			       strlen(group ? n.label_key : n.tags[0]), shown,
			       sizeof(shown));
	if (t->msg[0] && !t->msg_error)
		return;         /* the view's note (a grouping cut short) */
	tui_set_msg(t, false, "%s%s (Backspace: back)", !key ?
		    "all samples, as read" : group ? "a root per value of " :
		    "the samples labelled ", key ? shown : "");
}

void tui_view_set_start(struct tui *t, const struct tui_opts *o)
{
	struct tui_vstate *v = &t->v, prev;

	if (!o->ntags && !o->label_key && !o->include && !o->exclude &&
	    !o->focus && !o->invert && !o->fold && !o->weight && !o->tasks &&
	    !o->group)
		return;
	/* The profile as read, where Backspace goes back to. */
	prev = vstate_copy(v);
	v->tags = o->ntags ? xreallocarray(NULL, o->ntags, sizeof(*v->tags))
			   : NULL;
	for (size_t i = 0; i < o->ntags; i++)
		v->tags[i] = xstrdup(o->tags[i]);
	v->ntags = o->ntags;
	v->label_key = dup_or_null(o->label_key);
	v->include = dup_or_null(o->include);
	v->exclude = dup_or_null(o->exclude);
	v->focus = dup_or_null(o->focus);
	v->callers = o->callers;
	v->invert = o->invert;
	v->fold = o->fold;
	v->weight = o->weight;
	v->tasks = dup_or_null(o->tasks);
	v->group = (enum view_group)o->group;
	if (!tui_view_apply(t)) {
		vstate_free(&t->v);
		t->v = prev;
		tui_view_apply(t);
		return;
	}
	prev.zoom = prev.sel = NODE_ROOT;
	GROW(t->vhist, t->capvhist, t->nvhist + 1);
	t->vhist[t->nvhist++] = prev;
}

/* ---- Saving ---------------------------------------------------------- */

/*
 * The file is written whole beside its name and renamed into place only
 * then (a full disk leaves no empty or partial file), under the first of
 * PREFIX-STAMP.folded, PREFIX-STAMP-2.folded, ... that is not taken, in
 * the current directory or, when that cannot be written, in /tmp.
 */
int tui_save_folded(const struct profile *p, const char *prefix, char *msg,
		    size_t cap)
{
	char name[96], stamp[64], path[512], cwd[256];
	const char *dir = "";
	time_t now = time(NULL);
	struct atomic_file af;
	struct tm tm;
	size_t n;
	int rc;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "%s-%s.folded", prefix, stamp);
	if (!atomic_file_open(&af, name, false)) {
		/* A directory we cannot write: /tmp. */
		dir = "/tmp/";
		snprintf(path, sizeof(path), "%s%s", dir, name);
		if (!atomic_file_open(&af, path, false)) {
			snprintf(msg, cap, "cannot save: %s", strerror(errno));
			return -1;
		}
	}
	n = export_collapse(af.f, p);
	rc = atomic_file_commit(&af, name);
	for (int i = 2; rc != 0 && errno == EEXIST && i < 100; i++) {
		snprintf(name, sizeof(name), "%s-%s-%d.folded", prefix, stamp, i);
		rc = atomic_file_commit(&af, name);
	}
	if (!dir[0] && getcwd(cwd, sizeof(cwd)))
		snprintf(path, sizeof(path), "%s/%s", cwd, name);
	else
		snprintf(path, sizeof(path), "%s%s", dir, name);
	if (rc != 0) {
		snprintf(msg, cap, "cannot save %s: %s (nothing saved)", path,
			 strerror(errno));
		atomic_file_abort(&af);
		return -1;
	}
	snprintf(msg, cap, "saved %zu stacks to %s", n, path);
	return 0;
}

/*
 * s: save what is on screen as folded stacks: the view (its filters,
 * inversion, callers or callees), within the time range or live window
 * shown; the status line says which.
 */
void tui_view_save(struct tui *t)
{
	char m[sizeof(t->msg) / 2];
	uint64_t x, y;
	bool ranged = profile_range(t->src, &x, &y);
	/* Sized by BEFORE (B), t->p has its columns swapped: the file keeps
	 * "stack AFTER BEFORE" as read, so that it reads back the same way. */
	struct profile *unswapped = t->v.negate && profile_is_differential(t->p)
		? diff_swap(t->p) : NULL;
	int rc = tui_save_folded(unswapped ? unswapped : t->p,
				 t->live ? "flametop-live" : "flametop-view", m,
				 sizeof(m));

	profile_destroy(unswapped);

	if (rc < 0)
		tui_set_msg(t, true, "%s", m);
	else if (t->vdesc[0])
		tui_set_msg(t, false, "%s (the view on screen: %s%s)", m,
			    t->vdesc, t->live ? ", the live window" : ranged ?
			    ", the time range shown" : "");
	else
		tui_set_msg(t, false, "%s%s", m, t->live ?
			    " (the live window on screen)" : ranged ?
			    " (the time range shown, the whole graph)" :
			    " (the whole graph)");
}
