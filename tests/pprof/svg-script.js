// svg-script.js - run the script of a flametop SVG in node, against a
// small stand-in for the browser's document built from the SVG's frames,
// and check what zoom, reset and search do.
//
// usage: node svg-script.js FILE.svg REGEX EXPECTED_PERCENT
// Prints one "ok ..." or "FAIL ..." line per check.
'use strict';
const fs = require('fs');
const [file, regex, expected] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');

function unescape(s) {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

// An element: attributes, text, children, and a class list.
function el(tag, attrs, content) {
  const e = {
    tag, attrs: Object.assign({}, attrs), children: [], textContent: content || '',
    namespaceURI: 'svg',
    getAttribute(k) { return k in this.attrs ? String(this.attrs[k]) : null; },
    setAttribute(k, v) { this.attrs[k] = String(v); },
    appendChild(c) { this.children.push(c); c.parent = this; },
    querySelector(t) { return this.children.find((c) => c.tag === t) || null; },
    closest(sel) {
      for (let n = this; n; n = n.parent)
        if (sel === 'g.f' && n.tag === 'g' && n.classList.contains('f')) return n;
      return null;
    },
  };
  e.classList = {
    list: () => (e.attrs.class || '').split(' ').filter(Boolean),
    contains: (c) => e.classList.list().includes(c),
    add(c) { if (!this.contains(c)) e.attrs.class = this.list().concat(c).join(' '); },
    remove(c) { e.attrs.class = this.list().filter((x) => x !== c).join(' '); },
    toggle(c, on) { on ? this.add(c) : this.remove(c); },
  };
  return e;
}

function attrsOf(s) {
  const a = {};
  for (const m of s.matchAll(/([\w-]+)="([^"]*)"/g)) a[m[1]] = unescape(m[2]);
  return a;
}

const byId = {};
for (const m of text.matchAll(/<(text|g) id="(\w+)"([^>]*?)(\/>|>([^<]*)<\/text>)/g))
  byId[m[2]] = el(m[1], attrsOf(m[0]), m[5] ? unescape(m[5]) : '');
const frames = [];
const frameRe = /<g class="f" data-v="(\d+)"><title>([^<]*)<\/title><rect ([^>]*)\/>(?:<text ([^>]*)>([^<]*)<\/text>)?<\/g>/g;
for (const m of text.matchAll(frameRe)) {
  const g = el('g', { class: 'f', 'data-v': m[1] });
  g.appendChild(el('title', {}, unescape(m[2])));
  g.appendChild(el('rect', attrsOf(m[3])));
  if (m[4] !== undefined) g.appendChild(el('text', attrsOf(m[4]), unescape(m[5])));
  frames.push(g);
}
const handlers = {};
const root = el('svg', {});
root.addEventListener = (ev, f) => { handlers[ev] = f; };
global.document = {
  documentElement: root,
  getElementById: (id) => byId[id] || null,
  querySelectorAll: (sel) => (sel === 'g.f' ? frames : []),
  createElementNS: (ns, tag) => el(tag, {}),
};
global.location = { hash: '' };
global.window = global;
global.addEventListener = () => {};
const script = text.split('<![CDATA[')[1].split(']]>')[0];
eval(script);

let failed = 0;
function check(name, cond) {
  console.log((cond ? 'ok ' : 'FAIL ') + name);
  if (!cond) failed++;
}
const ft = global.flametop;
check('every frame read back', ft.frames.length === frames.length && frames.length > 0);
const pad = 10, width = +byId.cfg.getAttribute('data-width');
// Zoom to the narrowest frame that has children: it fills the width.
const target = ft.frames.filter((f) => f.w < width - 2 * pad - 1)
  .sort((a, b) => b.w - a.w)[0];
ft.zoom(target);
check('zoomed frame fills the width',
  Math.abs(+target.r.getAttribute('width') - (width - 2 * pad)) < 0.11 &&
  +target.r.getAttribute('x') === pad);
const hidden = ft.frames.filter((f) => f.g.classList.contains('hide'));
check('frames beside the zoomed one are hidden', hidden.length > 0 &&
  hidden.every((f) => f.x + f.w <= target.x + 0.01 || f.x >= target.x + target.w - 0.01 ||
    f.y === target.y));
check('ancestors are faded', ft.frames.some((f) => f.g.classList.contains('anc')));
check('Reset Zoom shows', byId.reset.getAttribute('class') === 'btn');
handlers.click({ target: byId.reset });
check('reset: nothing hidden, widths back', ft.frames.every((f) =>
  !f.g.classList.contains('hide') && +f.r.getAttribute('width') === f.w));
handlers.click({ target: target.t || target.r });
check('a click on a frame zooms to it', !byId.reset.getAttribute('class').includes('hide'));
handlers.click({ target: byId.reset });
ft.search(new RegExp(regex));
check('search: Matched: ' + expected + ' (got ' + byId.matched.textContent + ')',
  byId.matched.textContent === 'Matched: ' + expected);
check('search highlights', ft.frames.some((f) => f.r.getAttribute('fill') === 'rgb(230,0,230)'));
ft.search(null);
check('search cleared', byId.matched.textContent === '' &&
  ft.frames.every((f) => f.r.getAttribute('fill') === f.fill));
process.exit(failed ? 1 : 0);
