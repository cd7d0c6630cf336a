/*
 * export-svg.c - the flame graph as a self-contained interactive SVG
 * (--svg FILE), for sharing with someone who is not on the server.
 *
 * The frames come from the same layout as the TUI and --text, at a finer
 * grain: the frame area is laid out in tenths of a pixel, and a frame
 * narrower than 0.1% of the width is left out with its subtree (so the
 * size of the file depends on what can be seen, not on the profile's).
 * Each frame is a group with a hover title (name, weight, share), a rect
 * and its name cut to fit; colors come from the theme as in the TUI, or
 * red and blue for differential profiles.
 *
 * The script at the end (written for flametop, nothing loaded from
 * elsewhere) reads the frames back from the document: click zooms, "Reset
 * Zoom" or Escape returns, "Search" or Ctrl-F highlights frames matching a
 * regular expression and prints the matched share; "#z=N" (zoom to the
 * N-th frame) and "#s=REGEX" after the file's address do the same at
 * load, for links that point at something.  No name from the
 * profile is ever part of the script: names are escaped for display
 * (control bytes and invalid UTF-8 as \xNN) and then for XML.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "export.h"
#include "layout.h"
#include "symtab.h"
#include "textfmt.h"
#include "theme.h"
#include "util.h"

#define SVG_WIDTH 1200u
#define SVG_PAD 10u              /* left and right margins, px */
#define SVG_ROW 16u              /* frame height plus the gap */
#define SVG_TOP 48u              /* title, subtitle and buttons */
#define SVG_BOTTOM 28u           /* the details line */
#define SVG_SUB 10u              /* layout units per pixel */
#define SVG_CHAR 7.2             /* px per character: 12 px monospace */

/*
 * Write s (escaped for display: no control bytes, valid UTF-8) as XML
 * character data or attribute text.  U+FFFE and U+FFFF are valid UTF-8
 * but not XML characters: they are written as their bytes' escapes.
 */
static void xml_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i + 2 < n && (unsigned char)s[i] == 0xef &&
		    (unsigned char)s[i + 1] == 0xbf &&
		    ((unsigned char)s[i + 2] & 0xfe) == 0xbe) {
			fprintf(out, "\\xef\\xbf\\x%02x", (unsigned char)s[i + 2]);
			i += 2;
			continue;
		}
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(s[i], out);
		}
	}
}

/* A name escaped for display (\xNN), then for XML. */
static void xml_name(FILE *out, const char *s, size_t n, char **buf,
		     size_t *cap)
{
	size_t k;

	GROW(*buf, *cap, n * 4 + 1);
	k = textfmt_escape(s, n, *buf, *cap);
	xml_text(out, *buf, k);
}

/* The name as drawn in w px: whole, cut with "..", or nothing. */
static void fitted_name(FILE *out, const char *s, size_t n, double w,
			char **buf, size_t *cap)
{
	long maxc = (long)((w - 6) / SVG_CHAR);
	size_t k;

	if (maxc < 3)
		return;
	GROW(*buf, *cap, n * 4 + 1);
	k = textfmt_escape(s, n, *buf, *cap);
	if (textfmt_width(*buf, k) > (size_t)maxc) {
		GROW(*buf, *cap, (size_t)maxc * 8 + 1);
		k = textfmt_fit(s, n, (unsigned)maxc, ' ', *buf);
		while (k > 0 && (*buf)[k - 1] == ' ')
			k--;
	}
	xml_text(out, *buf, k);
}

static uint32_t frame_color(const struct profile *p, const struct theme *th,
			    uint32_t node, bool negated)
{
	const struct symtab *st = profile_symtab(p);
	uint32_t sym = profile_node(p, node)->sym;
	uint32_t c;

	if (profile_is_differential(p))
		return diff_color(th, p, node, negated);
	c = theme_frame_color(th, symtab_name(st, sym), symtab_len(st, sym),
			      (int)symtab_kind(st, sym));
	return c == THEME_COLOR_DEFAULT ? 0xe0a040u : c & 0xffffffu;
}

/*
 * The script.  Frames are the groups of class "f": the rect gives x, width
 * and row, data-v the weight, the title the name.  Kept free of "]]>" and
 * of any address: it runs from the file alone.
 */
static const char script[] =
"(function () {\n"
"'use strict';\n"
"var svg = document.documentElement, NS = svg.namespaceURI;\n"
"var cfg = document.getElementById('cfg');\n"
"var W = +cfg.getAttribute('data-width'), PAD = +cfg.getAttribute('data-pad');\n"
"var CH = +cfg.getAttribute('data-char'), ROOTV = +cfg.getAttribute('data-total');\n"
"var FLAME = cfg.getAttribute('data-flame') === '1';\n"
"var details = document.getElementById('details');\n"
"var matched = document.getElementById('matched');\n"
"var resetBtn = document.getElementById('reset');\n"
"var searchBtn = document.getElementById('search');\n"
"var frames = [], zoomed = null, query = null;\n"
"function fit(name, w) {\n"
"  var max = Math.floor((w - 6) / CH);\n"
"  if (max < 3) return '';\n"
"  return name.length <= max ? name : name.slice(0, max - 2) + '..';\n"
"}\n"
"var gs = document.querySelectorAll('g.f');\n"
"for (var i = 0; i < gs.length; i++) {\n"
"  var g = gs[i], r = g.querySelector('rect'), t = g.querySelector('text');\n"
"  var title = g.querySelector('title').textContent;\n"
"  var cut = title.lastIndexOf(' (');\n"
"  if (!t) {\n"
"    t = document.createElementNS(NS, 'text');\n"
"    t.setAttribute('y', +r.getAttribute('y') + 11);\n"
"    g.appendChild(t);\n"
"  }\n"
"  frames.push({ g: g, r: r, t: t, title: title,\n"
"    name: cut > 0 ? title.slice(0, cut) : title,\n"
"    x: +r.getAttribute('x'), w: +r.getAttribute('width'),\n"
"    y: +r.getAttribute('y'), v: +g.getAttribute('data-v'),\n"
"    fill: r.getAttribute('fill') });\n"
"}\n"
"/* Row order from the root: icicle rows go down, flame rows go up. */\n"
"function depth(f) { return FLAME ? -f.y : f.y; }\n"
"function place(f, x, w) {\n"
"  f.r.setAttribute('x', x.toFixed(1));\n"
"  f.r.setAttribute('width', w.toFixed(1));\n"
"  f.t.setAttribute('x', (x + 3).toFixed(1));\n"
"  f.t.textContent = fit(f.name, w);\n"
"}\n"
"function zoom(z) {\n"
"  var scale = (W - 2 * PAD) / z.w, e = 0.01;\n"
"  zoomed = z;\n"
"  resetBtn.setAttribute('class', 'btn');\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], show = true;\n"
"    f.g.classList.remove('anc');\n"
"    if (depth(f) < depth(z)) {\n"
"      show = f.x <= z.x + e && f.x + f.w >= z.x + z.w - e;\n"
"      if (show) { f.g.classList.add('anc'); place(f, PAD, W - 2 * PAD); }\n"
"    } else {\n"
"      show = f.x >= z.x - e && f.x + f.w <= z.x + z.w + e;\n"
"      if (show) place(f, PAD + (f.x - z.x) * scale, f.w * scale);\n"
"    }\n"
"    f.g.classList.toggle('hide', !show);\n"
"  }\n"
"}\n"
"function reset() {\n"
"  zoomed = null;\n"
"  resetBtn.setAttribute('class', 'btn hide');\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    f.g.classList.remove('hide');\n"
"    f.g.classList.remove('anc');\n"
"    place(f, f.x, f.w);\n"
"  }\n"
"}\n"
"/* Highlight matches; the share counts a frame once, not under a match. */\n"
"function search(re) {\n"
"  var hits = [];\n"
"  query = re;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], hit = re !== null && re.test(f.name);\n"
"    f.r.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);\n"
"    if (hit) hits.push(f);\n"
"  }\n"
"  hits.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"  var sum = 0, end = -1;\n"
"  for (var k = 0; k < hits.length; k++) {\n"
"    if (hits[k].x >= end - 0.01) { sum += hits[k].v; end = hits[k].x + hits[k].w; }\n"
"  }\n"
"  matched.textContent = re === null ? '' :\n"
"    'Matched: ' + (ROOTV > 0 ? 100 * sum / ROOTV : 0).toFixed(2) + '%';\n"
"  searchBtn.textContent = re === null ? 'Search' : 'Clear search';\n"
"  return sum;\n"
"}\n"
"function ask() {\n"
"  if (query !== null) { search(null); return; }\n"
"  var s = window.prompt('Search frames (regular expression):', '');\n"
"  if (s === null || s === '') return;\n"
"  try { search(new RegExp(s)); }\n"
"  catch (err) { matched.textContent = 'bad regex: ' + err.message; }\n"
"}\n"
"svg.addEventListener('click', function (ev) {\n"
"  var g = ev.target.closest ? ev.target.closest('g.f') : null;\n"
"  if (ev.target === resetBtn) { reset(); return; }\n"
"  if (ev.target === searchBtn) { ask(); return; }\n"
"  if (!g) return;\n"
"  for (var i = 0; i < frames.length; i++)\n"
"    if (frames[i].g === g) { zoom(frames[i]); return; }\n"
"});\n"
"svg.addEventListener('mouseover', function (ev) {\n"
"  var g = ev.target.closest ? ev.target.closest('g.f') : null;\n"
"  if (g) details.textContent = g.querySelector('title').textContent;\n"
"});\n"
"svg.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"window.addEventListener('keydown', function (ev) {\n"
"  if (ev.key === 'Escape') { reset(); search(null); }\n"
"  else if ((ev.ctrlKey && ev.key === 'f') || ev.key === '/') { ev.preventDefault(); ask(); }\n"
"});\n"
"/* #z=N zooms to the N-th frame, #s=REGEX searches: links that say what to look at. */\n"
"var h = {};\n"
"location.hash.slice(1).split('&').forEach(function (kv) {\n"
"  var i = kv.indexOf('=');\n"
"  if (i > 0) try { h[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (err) {}\n"
"});\n"
"if (h.z !== undefined && frames[+h.z]) zoom(frames[+h.z]);\n"
"if (h.s) { try { search(new RegExp(h.s)); } catch (err) { matched.textContent = 'bad regex'; } }\n"
"window.flametop = { frames: frames, zoom: zoom, reset: reset, search: search };\n"
"})();\n";

size_t export_svg(FILE *out, const struct profile *p,
		  const struct svg_opts *o)
{
	struct theme def;
	const struct theme *th = o->theme;
	unsigned W = o->width ? o->width : SVG_WIDTH;
	unsigned cols, H;
	struct layout l;
	uint64_t total = profile_total(p, NODE_ROOT);
	uint64_t ztotal = profile_total(p, o->zoom);
	char *buf = NULL, num[64];
	size_t cap = 0, drawn = 0;
	const char *title = o->title ? o->title : "Flame Graph";

	if (W < 200)
		W = 200;
	cols = (W - 2 * SVG_PAD) * SVG_SUB;
	if (!th) {
		theme_default(&def);
		th = &def;
	}
	layout_init(&l);
	layout_build(&l, p, o->zoom, cols, 0, cols / 1000);
	H = SVG_TOP + (l.rows ? l.rows : 1) * SVG_ROW + SVG_BOTTOM;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n", W, H, W, H);
	fputs("<style>\n"
	      "text { font: 12px monospace; fill: #000; }\n"
	      "#title { font-size: 17px; }\n"
	      ".btn { cursor: pointer; fill: #1a4fa0; }\n"
	      ".btn:hover { text-decoration: underline; }\n"
	      ".f { cursor: pointer; }\n"
	      ".f rect { stroke: #fff; stroke-width: 0.5; }\n"
	      ".f:hover rect { stroke: #000; stroke-width: 1; }\n"
	      ".f text { pointer-events: none; }\n"
	      ".anc rect { opacity: 0.55; }\n"
	      ".hide { display: none; }\n"
	      "</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
		"fill=\"#f6f6ee\"/>\n", W, H);
	fprintf(out, "<text id=\"title\" x=\"%u\" y=\"20\" "
		"text-anchor=\"middle\">", W / 2);
	xml_name(out, title, strlen(title), &buf, &cap);
	fputs("</text>\n", out);
	profile_format_amount(p, total, num, sizeof(num));
	fprintf(out, "<text id=\"subtitle\" x=\"%u\" y=\"38\" "
		"text-anchor=\"middle\" fill=\"#555\">", W / 2);
	if (o->subtitle) {
		xml_name(out, o->subtitle, strlen(o->subtitle), &buf, &cap);
		fputs(": ", out);
	}
	xml_text(out, num, strlen(num));
	fprintf(out, ", %zu distinct stacks%s</text>\n",
		profile_distinct_stacks(p),
		o->negated ? ", sized by before" : "");
	fprintf(out, "<text id=\"reset\" class=\"btn hide\" x=\"%u\" y=\"20\">"
		"Reset Zoom</text>\n", SVG_PAD);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%u\" y=\"20\" "
		"text-anchor=\"end\">Search</text>\n", W - SVG_PAD);
	fprintf(out, "<text id=\"details\" x=\"%u\" y=\"%u\"> </text>\n",
		SVG_PAD, H - 10);
	fprintf(out, "<text id=\"matched\" x=\"%u\" y=\"%u\" "
		"text-anchor=\"end\"></text>\n", W - SVG_PAD, H - 10);
	fprintf(out, "<g id=\"cfg\" data-width=\"%u\" data-pad=\"%u\" "
		"data-char=\"%.1f\" data-total=\"%llu\" data-flame=\"%d\"/>\n",
		W, SVG_PAD, SVG_CHAR, (unsigned long long)ztotal,
		o->flame ? 1 : 0);

	fputs("<g id=\"frames\">\n", out);
	for (size_t i = 0; i < l.n; i++) {
		const struct layout_rect *r = &l.rects[i];
		uint64_t w = profile_total(p, r->node);
		unsigned row = o->flame ? l.rows - 1 - r->depth : r->depth;
		double x = SVG_PAD + (double)r->col / SVG_SUB;
		double wd = (double)r->width / SVG_SUB;
		unsigned y = SVG_TOP + row * SVG_ROW;
		uint32_t c = frame_color(p, th, r->node, o->negated);

		fprintf(out, "<g class=\"f\" data-v=\"%llu\"><title>",
			(unsigned long long)w);
		xml_name(out, profile_name(p, r->node),
			 profile_name_len(p, r->node), &buf, &cap);
		profile_format_amount(p, w, num, sizeof(num));
		fprintf(out, " (%s, %.2f%%", num,
			total ? 100.0 * (double)w / (double)total : 0.0);
		if (profile_is_differential(p)) {
			uint64_t w2 = profile_total2(p, r->node);

			profile_format_figure(p, w2, num, sizeof(num));
			fprintf(out, "; %s: %s", o->negated ? "after" : "before",
				num);
		}
		fprintf(out, ")</title><rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" "
			"height=\"%u\" fill=\"#%06x\"/>", x, y, wd,
			SVG_ROW - 1, (unsigned)c);
		if ((wd - 6) / SVG_CHAR >= 3) {
			fprintf(out, "<text x=\"%.1f\" y=\"%u\">", x + 3, y + 11);
			fitted_name(out, profile_name(p, r->node),
				    profile_name_len(p, r->node), wd, &buf,
				    &cap);
			fputs("</text>", out);
		}
		fputs("</g>\n", out);
		drawn++;
	}
	fputs("</g>\n<script><![CDATA[\n", out);
	fputs(script, out);
	fputs("]]></script>\n</svg>\n", out);
	layout_free(&l);
	free(buf);
	return drawn;
}
