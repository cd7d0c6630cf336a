/*
 * test-tui.c - the interactive view without a terminal: moving, zoom and
 * its history, search and n/N, the header and status texts, time ranges
 * through the timeline keys, and the live hooks driven by a fake sampler
 * (ticks that add samples keep selection, zoom and search; live keys reach
 * the action hook only in live mode).  A last test draws into a curses
 * screen on /dev/null at several sizes, to catch crashes under ASan.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>
#include <curses.h>

#include "diff.h"
#include "profile.h"
#include "textfmt.h"
#include "tui.h"
#include "stacks.h"

static struct profile *sample(void)
{
	struct profile *p = profile_create();

	add(p, "main;alpha;leaf", 30);
	add(p, "main;alpha;other", 10);
	add(p, "main;beta;leaf", 40);
	add(p, "main;beta", 10);
	add(p, "init", 10);
	profile_finish(p);
	return p;
}

static uint32_t find(const struct profile *p, const char *path)
{
	uint32_t n = NODE_ROOT;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *tok = strtok_r(buf, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		uint32_t c;

		for (c = profile_node(p, n)->child; c != NODE_NONE;
		     c = profile_node(p, c)->next)
			if (strcmp(profile_name(p, c), tok) == 0)
				break;
		if (c == NODE_NONE)
			fail_msg("no frame %s", path);
		n = c;
	}
	return n;
}

static struct tui *open_view(struct profile *p, const struct tui_opts *o)
{
	char err[256] = "";
	struct tui *t = tui_create(p, o, err, sizeof(err));

	if (!t)
		fail_msg("tui_create: %s", err);
	tui_set_size(t, 30, 100);
	return t;
}

static void test_move_and_zoom(void **state)
{
	struct profile *p = sample();
	struct tui_opts o = { .title = "t.folded" };
	struct tui *t = open_view(p, &o);
	char buf[1024];

	(void)state;
	tui_status_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "all | 100 samples (self 0) | 100.00% of all"));
	tui_header_text(t, buf, sizeof(buf));
	assert_string_equal(buf, "t.folded | 100 samples");
	/* Down (icicle) goes to the child under the selection's middle. */
	assert_true(tui_do(t, ACT_DOWN));
	assert_int_equal(tui_selected(t), find(p, "main"));
	assert_true(tui_do(t, ACT_DOWN));
	assert_int_equal(tui_selected(t), find(p, "main;beta"));
	assert_true(tui_do(t, ACT_LEFT));
	assert_int_equal(tui_selected(t), find(p, "main;alpha"));
	assert_true(tui_do(t, ACT_LEFT));     /* first on the row: stays */
	assert_int_equal(tui_selected(t), find(p, "main;alpha"));
	assert_true(tui_do(t, ACT_RIGHT));
	assert_int_equal(tui_selected(t), find(p, "main;beta"));
	tui_status_text(t, buf, sizeof(buf));
	assert_string_equal(buf, "beta | 50 samples (self 10) | 50.00% of all | "
			    "50.00% of zoom");
	/* Up to the parent, and down again lands where the eye was. */
	tui_do(t, ACT_UP);
	assert_int_equal(tui_selected(t), find(p, "main"));
	tui_do(t, ACT_DOWN);
	assert_int_equal(tui_selected(t), find(p, "main;beta"));
	/* Zoom twice, out once (history), then reset. */
	tui_do(t, ACT_UP);
	tui_do(t, ACT_ZOOM);
	assert_int_equal(tui_zoom(t), find(p, "main"));
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_ZOOM);
	assert_int_equal(tui_zoom(t), find(p, "main;beta"));
	tui_status_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "50.00% of all | 100.00% of zoom"));
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "zoom: all > main > beta"));
	tui_do(t, ACT_UNZOOM);
	assert_int_equal(tui_zoom(t), find(p, "main"));
	tui_do(t, ACT_ZOOM);
	tui_do(t, ACT_RESET);
	assert_int_equal(tui_zoom(t), NODE_ROOT);
	tui_do(t, ACT_UNZOOM);
	assert_string_equal(tui_message(t), "not zoomed in");
	/* g and G: top and bottom rows; flipped, they swap. */
	tui_do(t, ACT_BOTTOM);
	assert_int_equal(profile_depth(p, tui_selected(t)), 3);
	tui_do(t, ACT_TOP);
	assert_int_equal(tui_selected(t), NODE_ROOT);
	tui_do(t, ACT_FLIP);
	tui_do(t, ACT_UP);    /* flame: up is toward the leaves */
	assert_int_equal(tui_selected(t), find(p, "main"));
	tui_do(t, ACT_DOWN);
	assert_int_equal(tui_selected(t), NODE_ROOT);
	assert_false(tui_do(t, ACT_QUIT));
	tui_destroy(t);
	profile_destroy(p);
}

/* A long title and zoom path are cut so that the zoomed frame shows. */
static void test_header_fits(void **state)
{
	struct profile *p = profile_create();
	struct tui_opts o = { .title = "/a/very/long/directory/name/profile.folded" };
	struct tui *t;
	char buf[1024];

	(void)state;
	add(p, "start_the_program;run_the_main_loop;handle_one_request;"
	       "parse_the_request_body;decode_json_value", 5);
	profile_finish(p);
	t = open_view(p, &o);
	tui_set_size(t, 24, 60);
	for (int i = 0; i < 5; i++) {
		tui_do(t, ACT_DOWN);
		tui_do(t, ACT_ZOOM);
	}
	tui_header_text(t, buf, sizeof(buf));
	assert_true(strncmp(buf, "profile.folded | 5 samples | zoom: ..", 37) == 0);
	assert_non_null(strstr(buf, " > decode_json_value"));
	assert_true(strlen(buf) <= 60);
	tui_set_size(t, 24, 300);
	tui_header_text(t, buf, sizeof(buf));
	assert_string_equal(buf, "/a/very/long/directory/name/profile.folded | 5 samples"
			    " | zoom: all > start_the_program > run_the_main_loop > "
			    "handle_one_request > parse_the_request_body > "
			    "decode_json_value");
	tui_destroy(t);
	profile_destroy(p);
}

/* Deep zooms: the path always ends with the zoomed frame, cut from the
 * left, at any depth (a fixed buffer once filled up near depth 95). */
static void test_header_deep_zoom(void **state)
{
	struct profile *p = profile_create();
	struct tui_opts o = { .title = "deep" };
	struct tui *t;
	static uint32_t syms[3000];
	char buf[4096], want[64];
	struct weight w = { 5, 0, 0 };
	struct sample_meta m = { .time_ns = 0, .has_time = false };
	static const unsigned depths[] = { 1, 50, 95, 96, 200, 400, 2999 };

	(void)state;
	for (unsigned d = 0; d < 3000; d++) {
		snprintf(want, sizeof(want), "frame_number_%u", d);
		syms[d] = profile_intern(p, want, strlen(want));
	}
	assert_int_equal(profile_add_stack(p, syms, 3000, &w, &m), ADD_OK);
	profile_finish(p);
	t = open_view(p, &o);
	for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		uint32_t n = NODE_ROOT;

		/* The node at depths[k]: follow the only child. */
		for (unsigned d = 0; d < depths[k]; d++)
			n = profile_node(p, n)->child;
		tui_do(t, ACT_RESET);
		while (tui_selected(t) != n)
			tui_do(t, ACT_DOWN);
		tui_do(t, ACT_ZOOM);
		assert_int_equal(tui_zoom(t), n);
		for (unsigned cols = 40; cols <= 200; cols += 80) {
			tui_set_size(t, 30, cols);
			tui_header_text(t, buf, sizeof(buf));
			/* Narrow, the name itself may be cut from the left. */
			snprintf(want, sizeof(want), cols >= 120 ?
				 " > frame_number_%u" : "ber_%u", depths[k] - 1);
			assert_true(strlen(buf) >= strlen(want));
			assert_string_equal(buf + strlen(buf) - strlen(want), want);
			assert_true(strlen(buf) <= cols);
			if (depths[k] >= 50)
				assert_non_null(strstr(buf, "zoom: .."));
		}
		tui_set_size(t, 30, 100);
	}
	tui_destroy(t);
	profile_destroy(p);
}

static void test_search(void **state)
{
	struct profile *p = sample();
	struct tui_opts o = { .title = "t", .search = "^leaf$" };
	struct tui *t = open_view(p, &o);
	char buf[1024];

	(void)state;
	tui_header_text(t, buf, sizeof(buf));
	assert_string_equal(buf, "t | 100 samples | /^leaf$/ Matched: 70 samples (70.00%)");
	/* n walks the matches in layout order and wraps. */
	tui_do(t, ACT_NEXT);
	assert_int_equal(tui_selected(t), find(p, "main;alpha;leaf"));
	assert_string_equal(tui_message(t), "match 1 of 2");
	tui_do(t, ACT_NEXT);
	assert_int_equal(tui_selected(t), find(p, "main;beta;leaf"));
	assert_string_equal(tui_message(t), "match 2 of 2");
	tui_do(t, ACT_NEXT);
	assert_int_equal(tui_selected(t), find(p, "main;alpha;leaf"));
	assert_string_equal(tui_message(t),
			    "match 1 of 2 (search wrapped around)");
	tui_do(t, ACT_PREV);
	assert_int_equal(tui_selected(t), find(p, "main;beta;leaf"));
	assert_string_equal(tui_message(t),
			    "match 2 of 2 (search wrapped around)");
	/* Zoomed into alpha, n beyond its match zooms out. */
	tui_do(t, ACT_TOP);
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_LEFT);
	assert_int_equal(tui_selected(t), find(p, "main;alpha"));
	tui_do(t, ACT_ZOOM);
	tui_do(t, ACT_NEXT);
	assert_int_equal(tui_selected(t), find(p, "main;alpha;leaf"));
	tui_do(t, ACT_NEXT);
	assert_int_equal(tui_zoom(t), NODE_ROOT);
	assert_int_equal(tui_selected(t), find(p, "main;beta;leaf"));
	/* A bad regex: pcre2's message, the old search stays. */
	tui_search(t, "le(af");
	assert_non_null(strstr(tui_message(t), "bad regex /le(af/: missing closing parenthesis"));
	assert_non_null(strstr(tui_message(t), "offset 5"));
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Matched: 70 samples (70.00%)"));
	/* Case: "LEAF" matches only with i. */
	tui_search(t, "LEAF");
	assert_string_equal(tui_message(t), "no frame matches");
	tui_do(t, ACT_ICASE);
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Matched: 70 samples (70.00%)"));
	/* # searches the selected name literally. */
	tui_do(t, ACT_UP);
	tui_do(t, ACT_SEARCH_NAME);
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Matched: 50 samples (50.00%)"));
	/* Empty clears. */
	tui_search(t, "");
	tui_header_text(t, buf, sizeof(buf));
	assert_null(strstr(buf, "Matched"));
	tui_destroy(t);
	profile_destroy(p);
}

static void test_timeline(void **state)
{
	struct profile *p = profile_create();
	struct tui_opts o = { .title = "timed" };
	struct tui *t;
	char buf[1024];

	(void)state;
	/* First second: all in "early"; second second: all in "late". */
	for (int i = 0; i < 100; i++)
		add_timed(p, i < 50 ? "main;early" : "main;late", 1,
			  1000000000ull + (uint64_t)i * 20000000ull);
	profile_finish(p);
	t = open_view(p, &o);
	assert_true(tui_do(t, ACT_TIMELINE));
	assert_true(tui_timeline_focused(t));
	/* Mark slice 0, move to the middle (minus one), mark: first half. */
	tui_key(t, '\r');
	for (int i = 0; i < 49; i++)
		tui_key(t, 'l');
	tui_key(t, ' ');
	assert_false(tui_timeline_focused(t));
	assert_int_equal(profile_total(p, NODE_ROOT), 50);
	assert_int_equal(profile_total(p, find(p, "main;early")), 50);
	assert_int_equal(profile_total(p, find(p, "main;late")), 0);
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "timed | 50 samples | time 0.000-"));
	assert_non_null(strstr(buf, " s of 1.980 s"));
	/* T: all samples again. */
	tui_key(t, 'T');
	assert_int_equal(profile_total(p, NODE_ROOT), 100);
	/* A range that empties the selected frame moves it to an ancestor. */
	tui_do(t, ACT_TOP);
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_RIGHT);
	assert_int_equal(tui_selected(t), find(p, "main;late"));
	tui_key(t, 't');
	for (int i = 0; i < 5; i++)   /* the cursor stayed at 49: back to 0 */
		tui_key(t, 'H');
	tui_key(t, '\r');
	tui_key(t, 'l');
	tui_key(t, '\r');
	assert_int_equal(tui_selected(t), find(p, "main"));
	tui_destroy(t);
	profile_destroy(p);

	/* Without timestamps: a message, no strip. */
	p = sample();
	t = open_view(p, &o);
	tui_do(t, ACT_TIMELINE);
	assert_false(tui_timeline_focused(t));
	assert_non_null(strstr(tui_message(t), "no timestamps"));
	tui_destroy(t);
	profile_destroy(p);
}

/*
 * The heat map (t, then m): a range of cells is applied as the strip's
 * ranges are, and two ranges compare, in the history.  Three seconds of
 * 10 samples at 0-90 ms and one at 500 ms; 30 rows give 25 rows of 40 ms.
 */
static void test_heatmap(void **state)
{
	struct profile *p = profile_create();
	struct tui_opts o = { .title = "heat" };
	struct tui *t;
	char buf[1024];

	(void)state;
	for (uint64_t s = 0; s < 3; s++) {
		for (uint64_t k = 0; k < 10; k++)
			add_timed(p, "main;tick", 1,
				  (10 + s) * 1000000000ull + k * 10000000ull);
		add_timed(p, "main;idle", 1, (10 + s) * 1000000000ull + 500000000ull);
	}
	profile_finish(p);
	t = open_view(p, &o);
	tui_do(t, ACT_TIMELINE);
	tui_key(t, 'm');
	assert_non_null(strstr(tui_message(t), "heat map"));
	/* From cell (0, 0) to cell (1, 0): second 0 and 40 ms of second 1. */
	tui_key(t, '\r');
	tui_key(t, 'l');
	tui_key(t, '\r');
	assert_false(tui_timeline_focused(t));
	assert_int_equal(profile_total(p, NODE_ROOT), 11 + 4);
	assert_int_equal(profile_total(p, find(p, "main;idle")), 1);
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "heat | 15 samples | time 0.000-1.040 s"));
	/* The range shown as A (c), cell (2, 0) as B. */
	tui_key(t, 't');
	tui_key(t, 'm');
	tui_key(t, 'c');
	assert_non_null(strstr(tui_message(t), "range A 0.000-1.040 s"));
	tui_key(t, 'l');
	tui_key(t, 'l');
	tui_key(t, ' ');
	tui_key(t, ' ');
	tui_header_text(t, buf, sizeof(buf));
	/* Range A named as the message named it, rounded the same. */
	assert_non_null(strstr(buf, "view: range B 2.000-2.040 s against "
			       "range A 0.000-1.040 s"));
	assert_int_equal(profile_total(tui_profile(t), NODE_ROOT), 4);
	assert_int_equal(profile_total2(tui_profile(t), NODE_ROOT), 15);
	/* Backspace: range A's graph again. */
	tui_key(t, KEY_BACKSPACE);
	tui_header_text(t, buf, sizeof(buf));
	assert_null(strstr(buf, "compare"));
	assert_int_equal(profile_total(tui_profile(t), NODE_ROOT), 15);
	/* Esc cancels a mark, then leaves timeline mode. */
	tui_key(t, 't');
	tui_key(t, 'm');
	tui_key(t, '\r');
	tui_key(t, 27);
	assert_non_null(strstr(tui_message(t), "mark cancelled"));
	assert_true(tui_timeline_focused(t));
	tui_key(t, 27);
	assert_false(tui_timeline_focused(t));

	/* Drawn at every size, marking, without crashing (ASan). */
	{
		FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
		SCREEN *sc = newterm("xterm-256color", out, in);
		static const unsigned sizes[][2] = {
			{ 24, 80 }, { 70, 300 }, { 4, 16 }, { 5, 20 }, { 8, 9 },
		};

		assert_non_null(sc);
		tui_key(t, 't');
		tui_key(t, 'm');
		tui_key(t, '\r');
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			resizeterm((int)sizes[i][0], (int)sizes[i][1]);
			tui_set_size(t, sizes[i][0], sizes[i][1]);
			tui_draw(t);
			tui_key(t, 'L');
			tui_key(t, 'j');
			tui_draw(t);
			tui_click(t, 5, 9, false);
			tui_draw(t);
		}
		tui_destroy(t);
		endwin();
		delscreen(sc);
		fclose(out);
		fclose(in);
	}
	profile_destroy(p);
}

/* ---- A fake live source ---------------------------------------------- */

struct fake {
	int ticks, actions;
	enum tui_action last;
	bool frozen;
};

static bool fake_tick(void *ctx, struct profile *p)
{
	struct fake *f = ctx;

	f->ticks++;
	if (f->frozen)
		return false;
	add(p, "main;beta;leaf", 10);
	add(p, "main;gamma", 5);
	profile_finish(p);
	return true;
}

static bool fake_action(void *ctx, enum tui_action a, struct profile *p,
			char *msg, size_t cap)
{
	struct fake *f = ctx;

	f->actions++;
	f->last = a;
	if (a == ACT_LIVE_FREEZE)
		f->frozen = !f->frozen;
	if (a == ACT_LIVE_RESET) {
		profile_reset_weights(p);
		snprintf(msg, cap, "reset");
		return true;
	}
	snprintf(msg, cap, "did %s", keys_action_name(a));
	return false;
}

static void fake_status(void *ctx, char *buf, size_t cap)
{
	struct fake *f = ctx;

	snprintf(buf, cap, "pid 42, 99 Hz, %d ticks", f->ticks);
}

static const struct tui_live_ops fake_ops = {
	fake_tick, fake_action, fake_status, NULL,
};

static void test_live_hooks(void **state)
{
	struct profile *p = sample();
	struct fake f = { 0 };
	struct tui_opts o = { .title = "live", .search = "leaf",
			      .live = &fake_ops, .live_ctx = &f };
	struct tui *t = open_view(p, &o);
	uint32_t beta = find(p, "main;beta");
	char buf[1024];

	(void)state;
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_ZOOM);
	tui_do(t, ACT_DOWN);
	assert_int_equal(tui_selected(t), beta);
	assert_true(tui_tick(t));
	assert_int_equal(f.ticks, 1);
	/* The tree grew: selection, zoom and search carry over. */
	assert_int_equal(tui_selected(t), beta);
	assert_int_equal(tui_zoom(t), find(p, "main"));
	tui_header_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "live | 115 samples | /leaf/ Matched: 80 samples"));
	assert_non_null(strstr(buf, "pid 42, 99 Hz, 1 ticks"));
	tui_status_text(t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "beta | 60 samples"));
	/* Space freezes: the action hook sees it; ticks change nothing. */
	tui_key(t, ' ');
	assert_int_equal(f.last, ACT_LIVE_FREEZE);
	assert_string_equal(tui_message(t), "did freeze");
	assert_false(tui_tick(t));
	for (const char *k = "+-wz"; *k; k++)
		tui_key(t, *k);
	assert_int_equal(f.actions, 5);
	assert_int_equal(f.last, ACT_LIVE_FREEZE);
	/* s saves what is on screen itself: the hook does not see it. */
	tui_key(t, 's');
	assert_int_equal(f.actions, 5);
	{
		const char *m = tui_message(t), *to = strstr(m, " stacks to ");
		const char *end = strstr(m, " (the live window on screen)");
		char path[512];

		assert_non_null(to);
		assert_non_null(end);
		assert_true(strncmp(m, "saved ", 6) == 0);
		to += strlen(" stacks to ");
		assert_true(end > to && (size_t)(end - to) < sizeof(path));
		memcpy(path, to, (size_t)(end - to));
		path[end - to] = '\0';
		assert_int_equal(unlink(path), 0);
	}
	/* x: the hook resets the profile; the view follows. */
	tui_key(t, 'x');
	assert_int_equal(profile_total(p, NODE_ROOT), 0);
	assert_int_equal(tui_zoom(t), NODE_ROOT);
	tui_destroy(t);
	profile_destroy(p);

	/* Not live: no hook is called, the live keys say why they do
	 * nothing (s saves: tests/tui/test-firstuse.sh). */
	p = sample();
	o.live = NULL;
	t = open_view(p, &o);
	tui_key(t, 'x');
	assert_non_null(strstr(tui_message(t), "a saved profile keeps its samples"));
	assert_int_equal(profile_total(p, NODE_ROOT), 100);
	tui_key(t, '+');
	assert_non_null(strstr(tui_message(t), "change the sampling rate"));
	tui_key(t, '-');
	assert_non_null(strstr(tui_message(t), "change the sampling rate"));
	tui_key(t, 'w');
	assert_non_null(strstr(tui_message(t), "t selects a time range"));
	tui_key(t, ' ');
	assert_non_null(strstr(tui_message(t), "does not change"));
	assert_false(tui_tick(t));
	assert_int_equal(f.actions, 6);
	tui_destroy(t);
	profile_destroy(p);
}

static void test_draw(void **state)
{
	struct profile *p = sample();
	struct tui_opts o = { .title = "draw\x1b[2J", .search = "a" };
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *s;
	struct tui *t;
	static const unsigned sizes[][2] = {
		{ 24, 80 }, { 60, 200 }, { 3, 10 }, { 1, 1 }, { 5, 20 },
	};

	(void)state;
	s = newterm("xterm-256color", out, in);
	assert_non_null(s);
	t = open_view(p, &o);
	add(p, "main;\x1b]0;evil\x07;\xff\xfe", 5);
	profile_finish(p);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		resizeterm((int)sizes[i][0], (int)sizes[i][1]);
		tui_set_size(t, sizes[i][0], sizes[i][1]);
		tui_draw(t);
		tui_do(t, ACT_BOTTOM);
		tui_do(t, ACT_HELP);
		tui_draw(t);
		tui_key(t, 'x');
		tui_do(t, ACT_FLIP);
		tui_draw(t);
		tui_do(t, ACT_THEME);
		tui_draw(t);
		tui_click(t, 3, 5, true);
		tui_draw(t);
	}
	tui_destroy(t);
	endwin();
	delscreen(s);
	fclose(out);
	fclose(in);
	profile_destroy(p);
}

/*
 * Random keys, clicks, searches, sizes and live ticks on a timed profile,
 * drawn after each step: nothing may crash, and the selection and zoom are
 * always drawable nodes.
 */
static void test_monkey(void **state)
{
	struct profile *p = profile_create();
	struct fake f = { 0 };
	struct tui_opts o = { .title = "monkey", .live = &fake_ops,
			      .live_ctx = &f };
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	static const int extra[] = { KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT,
				     KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_ENTER,
				     KEY_BACKSPACE, 27, '\r', ' ', 'x', '?' };
	static const char *const pats[] = { "a", "^main$", "(", "", "[x-a]",
					     "e|l", "\\", "z*" };
	uint64_t r = 88172645463325252ull;
	size_t nk;
	const struct key_binding *kb = keys_table(&nk);
	SCREEN *s;
	struct tui *t;

	(void)state;
	for (int i = 0; i < 300; i++) {
		char st[64];

		snprintf(st, sizeof(st), "main;f%d;g%d;h%d", i % 7, i % 5, i % 3);
		add_timed(p, st, 1 + (uint64_t)(i % 4), (uint64_t)i * 1000000u);
	}
	profile_finish(p);
	s = newterm("xterm-256color", out, in);
	assert_non_null(s);
	t = open_view(p, &o);
	for (int i = 0; i < 4000; i++) {
		unsigned what;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		what = (unsigned)(r % 100);
		if (what < 70) {
			const struct key_binding *b = &kb[(r >> 8) % nk];
			int key = b->keys[0] ? b->keys[(r >> 20) % 2 && b->keys[1] ?
						       1 : 0] :
				  extra[(r >> 8) % (sizeof(extra) / sizeof(extra[0]))];

			if (key == 'q')
				continue;
			tui_key(t, key);
		} else if (what < 80) {
			tui_click(t, (int)((r >> 8) % 32) - 1,
				  (int)((r >> 16) % 110) - 2, (r >> 30) & 1);
		} else if (what < 86) {
			tui_search(t, pats[(r >> 8) % (sizeof(pats) / sizeof(pats[0]))]);
		} else if (what < 92) {
			unsigned rows = 1 + (unsigned)((r >> 8) % 40);
			unsigned cols = 1 + (unsigned)((r >> 16) % 150);

			resizeterm((int)rows, (int)cols);
			tui_set_size(t, rows, cols);
		} else {
			tui_tick(t);
		}
		tui_draw(t);
		/* (the keys open views: the shown profile is derived) */
		assert_true(profile_total(tui_profile(t), tui_zoom(t)) > 0 ||
			    tui_zoom(t) == NODE_ROOT);
		assert_true(tui_selected(t) <
			    profile_node_count(tui_profile(t)));
	}
	tui_destroy(t);
	endwin();
	delscreen(s);
	fclose(out);
	fclose(in);
	profile_destroy(p);
}

/*
 * The status line fits one row at every width from 16 to 200 columns: of
 * each frame, zoomed or not, with long and wide names, in a comparison and
 * in the top table (tui_draw cuts what is wider, but the text is meant to
 * fit, its figures shortened first).
 */
static void status_fits(struct tui *t, const char *what)
{
	char buf[4096];

	for (unsigned w = 16; w <= 200; w++) {
		tui_set_size(t, 30, w);
		for (int k = 0; k < 6; k++) {
			size_t sw;

			tui_status_text(t, buf, sizeof(buf));
			sw = textfmt_width(buf, strlen(buf));
			if (sw > w)
				fail_msg("%s at %u columns: %zu wide: %s", what,
					 w, sw, buf);
			tui_do(t, ACT_DOWN);
		}
		for (int k = 0; k < 6; k++)
			tui_do(t, ACT_UP);
	}
}

static void test_status_one_row(void **state)
{
	struct profile *p = profile_create(), *side[2], *d;
	struct tui_opts o = { .title = "status.folded" };
	struct tui *t;

	(void)state;
	textfmt_set_utf8(true);
	add(p, "main;a_rather_long_function_name_that_goes_on_and_on;"
	       "\xe4\xb8\xad\xe6\x96\x87\xe5\x90\x8d\xe5\xad\x97\x01\xe4"
	       "\xb8\xad\xe6\x96\x87;leaf", 917835664);
	add(p, "main;other", 366733464);
	profile_finish(p);
	t = open_view(p, &o);
	status_fits(t, "flame graph");
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_DOWN);
	tui_do(t, ACT_ZOOM);
	status_fits(t, "zoomed");
	tui_do(t, ACT_TOP_TABLE);
	status_fits(t, "top table");
	tui_destroy(t);

	/* A comparison. */
	side[0] = profile_create();
	side[1] = profile_create();
	add(side[0], "main;parse;lex", 10568559960);
	add(side[0], "main;old_path", 1000);
	add(side[1], "main;parse;lex", 9869563431);
	add(side[1], "main;new_path_with_a_long_name", 24048000);
	d = diff_create();
	for (int k = 1; k >= 0; k--) {
		profile_finish(side[k]);
		assert_int_equal(diff_add(d, side[k], k == 1, NULL), 0);
		profile_destroy(side[k]);
	}
	profile_finish(d);
	t = open_view(d, &o);
	status_fits(t, "comparison");
	tui_do(t, ACT_TOP_TABLE);
	status_fits(t, "top table of a comparison");
	tui_destroy(t);
	profile_destroy(d);
	profile_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_move_and_zoom),
		cmocka_unit_test(test_header_fits),
		cmocka_unit_test(test_header_deep_zoom),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_heatmap),
		cmocka_unit_test(test_live_hooks),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_monkey),
		cmocka_unit_test(test_status_one_row),
	};

	char dir[] = "/tmp/flametop-test-tui.XXXXXX";
	int rc;
	DIR *d;

	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	/* s saves files: in a directory of our own, removed after. */
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	d = opendir(".");
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.')
			unlink(e->d_name);
	if (d)
		closedir(d);
	if (chdir("/") == 0)
		rmdir(dir);
	return rc;
}
