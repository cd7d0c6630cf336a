#!/usr/bin/env python3
"""Consistency check: what flametop shows against its own --collapse.

usage: check.py BIN GENDIR < CASES    (flametop runs in GENDIR; run.sh links
                                       samples/ and tests/ into it)

"figures INPUT [INPUT2] | OPTIONS | REGEX..." runs "BIN OPTIONS --collapse
INPUT" (two inputs: --diff), recomputes from those stacks alone the total,
the distinct stacks, the depth, each function's self and total (total:
once per stack, even when the function recurses), each node's weight and
the share of the stacks holding a frame that matches each REGEX, and
compares them with what flametop prints for the same view: the footer of
--text and its "Matched:" line, every row of --top 0, the title, subtitle
and every frame of --svg -.  A comparison allows half a unit of the last
digit printed, no more.  "derive INPUT | OPTIONS" recomputes the view
itself from its source (the input's own lines, or the raw samples of the
generated perf script) and compares the stacks.  Then the interactive
view, in a private tmux server: the header's total and Matched: share, the
status line of a selected frame (its stack copied with Y), the top table,
n's match count, what s saves and the heat map's cells, each against the
same view given as options or against the raw samples.  Nothing here is
shared with flametop.

The generated inputs (small.folded, rand.folded, ..., tasks.perf-script)
are written into GENDIR from fixed seeds.  A failure prints the command
that shows it.  Checks named in KNOWN_BUGS (the environment, one name a
line) are expected to fail: they count as passed while they fail, and as
failed once they pass, so that the list is emptied when the bugs are
fixed.
"""
import bisect
import html
import os
import random
import re
import shlex
import subprocess
import sys
import time
from fractions import Fraction

BIN, GEN = sys.argv[1], sys.argv[2]
KNOWN = set(l.strip() for l in os.environ.get("KNOWN_BUGS", "").split("\n")
            if l.strip())
passed = failed = 0


def run(args, check=True):
    p = subprocess.run([BIN] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, cwd=GEN)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if check and p.returncode != 0:
        raise RuntimeError("exit %d: %s" % (p.returncode, err.strip()[:300]))
    if re.search(r"Sanitizer|runtime error", err):
        raise RuntimeError("sanitizer: " + err.strip()[:600])
    return out


def show(args):
    return "flametop " + " ".join(shlex.quote(a) for a in args)


def verdict(name, problems, repro):
    """Count one check; problems is a list of strings (empty: it holds)."""
    global passed, failed
    if name in KNOWN:
        if problems:
            passed += 1
            print("XFAIL %s (known bug): %s" % (name, problems[0]))
        else:
            failed += 1
            print("FAIL %s: listed in KNOWN_BUGS but holds now; "
                  "take it off the list" % name)
        return
    if not problems:
        passed += 1
        return
    failed += 1
    print("FAIL %s\n    %s" % (name, repro))
    for p in problems[:6]:
        print("    " + p)


# ---- Stacks and what they add up to ---------------------------------------

def parse_collapse(text, diff):
    """[(frames, after, before)]: 'a;b 3' or, for a diff, 'a;b BEFORE AFTER'."""
    out = []
    for line in text.splitlines():
        if diff:
            stack, b, a = line.rsplit(" ", 2)
        else:
            (stack, a), b = line.rsplit(" ", 1), "0"
        out.append((tuple(stack.split(";")), num(a), num(b)))
    return out


def num(text):
    """A weight, exact: an int where it is one (much faster to add)."""
    return int(text) if text.isdigit() else Fraction(text)


def sums(stacks, side):
    """Total, each function's self and total; side 1 is AFTER, 2 BEFORE."""
    tot, self_, incl = 0, {}, {}
    for st in stacks:
        w = st[side]
        tot += w
        self_[st[0][-1]] = self_.get(st[0][-1], 0) + w
        for f in set(st[0]):
            incl[f] = incl.get(f, 0) + w
    for f in incl:
        self_.setdefault(f, 0)
    return tot, self_, incl


def matched(stacks, rx, side, icase=False):
    """The weight of the stacks holding a frame that matches.  The root
    frame "all" is a frame like the others, as in flamegraph.pl: a
    pattern that matches "all" matches every stack."""
    r = re.compile(rx, re.I if icase else 0)
    if r.search("all"):
        return sum(st[side] for st in stacks)
    return sum((st[side] for st in stacks if any(r.search(f) for f in st[0])),
               Fraction(0))


# ---- Reading what flametop prints -----------------------------------------

AMOUNT_UNITS = {"ns": 1, "\u00b5s": 10 ** 3, "us": 10 ** 3, "ms": 10 ** 6,
                "s": 10 ** 9, "B": 1, "kB": 2 ** 10, "MB": 2 ** 20,
                "GB": 2 ** 30, "TB": 2 ** 40, "PB": 2 ** 50}
AMOUNT_COUNTS = {"": 1, "k": 10 ** 3, "M": 10 ** 6, "G": 10 ** 9,
                 "T": 10 ** 12, "P": 10 ** 15}
# An amount's figure alone, as in a top table's cells: "366.7 ms", "1.28k".
FIGURE = (r"-?[0-9.]+(?:[kMGTP]| (?:%s))?" %
          "|".join(sorted(AMOUNT_UNITS, key=len, reverse=True)))


def amount(s):
    """'37 samples', '3.88 samples', '1.28k page-faults', '1.68 s CPU',
    '366.7 ms', '11.0 MB': (value in the weights' unit, half a unit of the
    last digit shown at the figure's scale; 0 for a whole number shown
    exactly)."""
    m = re.fullmatch(r"(-?[0-9.]+) (%s)( .*)?" % "|".join(AMOUNT_UNITS), s)
    if m:
        scale = AMOUNT_UNITS[m.group(2)]
    else:
        m = re.fullmatch(r"(-?[0-9.]+)([kMGTP]?)( .*)?", s)
        if not m:
            raise ValueError("not an amount: %r" % s)
        scale = AMOUNT_COUNTS[m.group(2)]
    dec = len(m.group(1).partition(".")[2])
    tol = Fraction(0) if dec == 0 and scale == 1 else \
        Fraction(scale, 2 * 10 ** dec)
    return Fraction(m.group(1)) * scale, tol


def near(got, want, tol):
    return abs(Fraction(got) - Fraction(want)) <= tol


def pct(x, of):
    return Fraction(100) * x / of if of else Fraction(0)


HALF = Fraction(1, 200)          # half of 0.01, the last digit of "59.46%"


def check_amount(problems, what, text, want):
    try:
        got, tol = amount(text)
    except ValueError as e:
        problems.append("%s: %s" % (what, e))
        return
    if not near(got, want, tol):
        problems.append("%s: shows %s, recomputed %s" %
                        (what, text, fmt(want)))


def fmt(x):
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else "%.6f" % float(x)


FOOT = re.compile(r"^(?P<name>.*?): (?P<amt>[^,]+), (?P<n>[0-9]+) distinct "
                  r"stacks, depth (?P<d>[0-9]+)(?:; (?P<rest>.*))?$")


def check_text(case, args, stacks, diff, searches, icase):
    """Footer and Matched: line of --text, once per search."""
    side = 2 if "--negate" in args else 1
    tot, _, _ = sums(stacks, side)
    depth = max((len(s[0]) for s in stacks), default=0)
    for rx in searches or [None]:
        # Wide enough for the whole footer: a narrower one shortens it
        # (its words, then its depth and count), which is not checked here.
        targs = args + ["--text", "-w", "400"] + (["-s", rx] if rx else [])
        problems = []
        lines = run(targs).rstrip("\n").splitlines()
        foot = [l for l in lines if FOOT.match(l)]
        if len(foot) != 1:
            verdict(case + " text", ["no footer line"], show(targs))
            continue
        m = FOOT.match(foot[0])
        check_amount(problems, "footer total", m.group("amt"), tot)
        if int(m.group("n")) != len(stacks):
            problems.append("footer: %s distinct stacks, the collapse has %d"
                            % (m.group("n"), len(stacks)))
        if int(m.group("d")) != depth:
            problems.append("footer: depth %s, the collapse's deepest is %d"
                            % (m.group("d"), depth))
        if diff:
            other, _, _ = sums(stacks, 3 - side)
            want = "sized by before, after " if side == 2 else "before "
            rest = m.group("rest") or ""
            if not rest.startswith(want):
                problems.append("footer: %r, want %r..." % (rest, want))
            else:
                check_amount(problems, "footer other side",
                             rest[len(want):], other)
        if rx:
            mm = [l for l in lines if l.startswith("Matched: ")]
            want = matched(stacks, rx, side, icase)
            g = mm and re.fullmatch(r"Matched: (.*) \(([0-9.]+)%\)", mm[0])
            if not g:
                problems.append("no Matched: line")
            else:
                check_amount(problems, "Matched", g.group(1), want)
                if not near(Fraction(g.group(2)), pct(want, tot), HALF):
                    problems.append("Matched: %s%%, the collapse gives %.4f%%"
                                    % (g.group(2), float(pct(want, tot))))
        verdict(case + " text" + (" /%s/" % rx if rx else ""), problems,
                show(targs))


def top_problems(rows, stacks, diff, whole=True):
    """What is wrong in the rows of a top table (--top 0, the view's v):
    each cell against the collapse, the order (self, or for a comparison
    the size of the self change, largest first), the set of functions
    (when the whole table is shown)."""
    ta, sa, ia = sums(stacks, 1)
    tb, sb, ib = sums(stacks, 2)
    problems, seen, prev = [], set(), None
    for l in rows:
        # Cells, then two spaces and the name (which may be empty); the
        # figures of a single profile's table carry their scale ("366.7
        # ms", "1.28k").
        if diff:
            f = re.match(r" *" + r"(\S+) +" * 6 + r"?(.*)$", l).groups()
            f = f[:-1] + (f[-1][1:],)
        else:
            g = re.match(r" *(\S+) +(\S+) +(%s) +(%s)(?:  (.*))?$"
                         % (FIGURE, FIGURE), l)
            if not g:
                problems.append("top: cannot read the row %r" % l)
                continue
            f = g.groups("")
        name = f[-1]
        seen.add(name)
        if name not in ia:
            problems.append("top: %s is in no stack" % name)
            continue
        if diff:
            b, a = pct(sb[name], tb), pct(sa[name], ta)
            bt, at = pct(ib[name], tb), pct(ia[name], ta)
            want = [(b, HALF), (a, HALF), (a - b, HALF), (bt, HALF),
                    (at, HALF), (at - bt, HALF)]
            key = abs(a - b)
        else:
            want = [(pct(sa[name], ta), HALF), (pct(ia[name], ta), HALF),
                    (sa[name], None), (ia[name], None)]
            key = sa[name]
        for i, (w, tol) in enumerate(want):
            cell = f[i].rstrip("%")
            if tol is None:             # an amount: its own rounding
                got, tol = amount(cell)
            else:
                got = cell
            if cell not in ("new", "gone") and not near(Fraction(got), w, tol):
                problems.append("top %s column %d: %s, the collapse gives %s"
                                % (name, i + 1, f[i], fmt(w)))
        if prev is not None and key > prev:
            problems.append("top: %s (%s) comes after a smaller one (%s)"
                            % (name, fmt(key), fmt(prev)))
        prev = key
    if seen != set(ia) and (whole or seen - set(ia)):
        problems.append("top: functions %s missing, %s extra" %
                        (sorted(set(ia) - seen)[:5], sorted(seen - set(ia))[:5]))
    return problems


def check_top(case, args, stacks, diff):
    targs = args + ["--top", "0"]
    rows = [l for l in run(targs).splitlines() if not l.startswith("#")]
    verdict(case + " top", top_problems(rows, stacks, diff), show(targs))


def check_svg(case, args, stacks, diff):
    targs = args + ["--svg", "-"]
    svg = run(targs)
    problems = []
    side = 2 if "--negate" in args else 1
    tot, _, _ = sums(stacks, side)
    sub = re.search(r'id="subtitle"[^>]*>(?:.*?: )?([0-9.]+[kMGTP]?(?: [^,]*)?), ([0-9]+) '
                    r'distinct stacks(?:, sized by before)?</text>', svg)
    root = re.search(r"<title>all \(([^,]*), 100\.00%(?:; (?:before|after): ([^)]*))?"
                     r"\)</title>", svg)
    for what, m in (("subtitle", sub), ("root frame", root)):
        if m:
            check_amount(problems, "svg " + what, m.group(1), tot)
        elif what == "subtitle" or tot:     # an empty view draws no frame
            problems.append("svg: no %s" % what)
    if sub and int(sub.group(2)) != len(stacks):
        problems.append("svg subtitle: %s distinct stacks, the collapse "
                        "has %d" % (sub.group(2), len(stacks)))
    if diff and root and root.group(2) is None:
        problems.append("svg root: no 'before:' weight")
    elif diff and root:
        check_amount(problems, "svg root, the other side", root.group(2),
                     sums(stacks, 3 - side)[0])
    problems += svg_frame_problems(svg, stacks, side, "weight" in args)
    verdict(case + " svg", problems, show(targs))


def node_weights(stacks):
    """Each node of the tree (a path from the root) and its (AFTER, BEFORE)."""
    nodes = {(): [0, 0]}
    for st in stacks:
        for i in range(len(st[0]) + 1):
            w = nodes.setdefault(st[0][:i], [0, 0])
            w[0] += st[1]
            w[1] += st[2]
    return nodes


SVG_FRAME = re.compile(r'<g class="f"[^>]*><title>([^<]*)</title><rect '
                       r'x="([0-9.]+)" y="([0-9]+)" width="([0-9.]+)"')
SVG_TITLE = re.compile(r"(.*) \(([^()]*), ([0-9.]+)%(?:; (?:before|after): ([^()]*))?\)",
                       re.S)


def svg_frame_problems(svg, stacks, side, by_weight):
    """Every frame of the SVG: its weight, share and width against the node
    of the collapse it stands for (its parent: the frame a row up that
    holds its middle), siblings in order, and every node wide enough to
    draw drawn.  Widths are laid out in tenths of a pixel: one tenth is
    allowed."""
    nodes = node_weights(stacks)
    tot = nodes[()][side - 1]
    px = Fraction(1180)
    rows, problems = {}, []
    for m in SVG_FRAME.finditer(svg):
        t = SVG_TITLE.fullmatch(html.unescape(m.group(1)))
        x, w = Fraction(m.group(2)), Fraction(m.group(4))
        rows.setdefault(int(m.group(3)), []).append((x, w, t))
    drawn, prev = set(), None
    for y in sorted(rows):
        row = []
        for x, w, t in rows[y]:
            if prev is None:
                path = ()
            else:
                mid = x + w / 2
                j = bisect.bisect_right(starts, mid) - 1
                up = [prev[j][2]] if j >= 0 and mid <= prev[j][0] + prev[j][1] else []
                if not up or not t:
                    problems.append("svg: frame at x=%s y=%d has no parent "
                                    "or no title" % (fmt(x), y))
                    continue
                path = up[0] + (t.group(1),)
            row.append((x, w, path))
            drawn.add(path)
            node = nodes.get(path)
            if node is None:
                problems.append("svg frame %r: no such stack" % ";".join(path))
                continue
            where = "svg frame %r" % ";".join(path)[-80:]
            check_amount(problems, where, t.group(2), node[side - 1])
            if not near(Fraction(t.group(3)), pct(node[side - 1], tot), HALF):
                problems.append("%s: %s%%, the collapse gives %.4f%%" %
                                (where, t.group(3), float(pct(node[side - 1], tot))))
            if tot and not near(w, px * node[side - 1] / tot, Fraction(1, 10)):
                problems.append("%s: %s px wide, the collapse gives %.2f" %
                                (where, fmt(w), float(px * node[side - 1] / tot)))
        prev = sorted(row)
        starts = [r[0] for r in prev]
        # Siblings left to right: by name (byte order), or heaviest first.
        for (_, _, a), (_, _, b) in zip(prev, prev[1:]):
            if a[:-1] != b[:-1] or a not in nodes or b not in nodes:
                continue
            if (nodes[a][side - 1] < nodes[b][side - 1] if by_weight
                    else a[-1].encode() > b[-1].encode()):
                problems.append("svg: %r drawn before its sibling %r" %
                                (";".join(a)[-60:], b[-1]))
    wide = Fraction(13, 10)
    for path, node in nodes.items():
        if (tot and path[:-1] in drawn and path not in drawn
                and px * node[side - 1] / tot >= wide):
            problems.append("svg: %r (%.2f px) is not drawn" %
                            (";".join(path)[-80:], float(px * node[side - 1] / tot)))
    return problems


def is_diff(args):
    """A comparison: --diff, or one input of two-column folded lines (its
    --top says before and after)."""
    return "--diff" in args or run(args + ["--top", "1"]).startswith("# before")


def figures(case, args, searches, icase=False):
    """Every figure of one view against that view's --collapse."""
    cargs = args + ["--collapse"]
    try:
        diff = is_diff(args)
        stacks = parse_collapse(run(cargs), diff)
        check_text(case, args, stacks, diff, searches, icase)
        check_top(case, args, stacks, diff)
        check_svg(case, args, stacks, diff)
    except (RuntimeError, ValueError) as e:
        verdict(case, [str(e)], show(cargs))


# ---- Views recomputed from a source -----------------------------------------

def read_folded(path):
    """A folded file's own lines summed per stack (the reference)."""
    acc = {}
    with open(os.path.join(GEN, path), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, w = line.rsplit(" ", 1)
            # Weights hold nine decimals: a longer count is rounded.
            w = round(num(w), 9)
            acc[stack] = acc.get(stack, Fraction(0)) + w
    return acc


def derive(stacks, args):
    """The view of OPTIONS, computed the way the README orders it: filters,
    then --callers/--callees, then --fold-recursion, then --invert."""
    it = iter(args)
    inc, exc, who, fold, inv = [], [], None, False, False
    for a in it:
        if a == "--include":
            inc.append(re.compile(next(it)))
        elif a == "--exclude":
            exc.append(re.compile(next(it)))
        elif a in ("--callers", "--callees"):
            who = (a, next(it))
        elif a == "--fold-recursion":
            fold = True
        elif a == "--invert":
            inv = True
    out = {}
    for stack, w in stacks.items():
        fr = stack.split(";")
        if inc and not any(r.search(f) for r in inc for f in fr):
            continue
        if any(r.search(f) for r in exc for f in fr):
            continue
        if who:
            if who[1] not in fr:
                continue
            k = fr.index(who[1])       # the outermost call
            fr = fr[k::-1] if who[0] == "--callers" else fr[k:]
        if fold:
            fr = [f for i, f in enumerate(fr) if i == 0 or fr[i - 1] != f]
        if inv:
            fr = fr[::-1]
        key = ";".join(fr)
        out[key] = out.get(key, Fraction(0)) + w
    return out


def compare_stacks(case, args, want):
    """The view's --collapse against stacks recomputed; a comparison's
    weights are (BEFORE, AFTER) pairs."""
    cargs = args + ["--collapse"]
    try:
        diff = is_diff(args)
        got = {";".join(s[0]): (s[2], s[1]) if diff else s[1]
               for s in parse_collapse(run(cargs), diff)}
    except (RuntimeError, ValueError) as e:
        verdict(case, [str(e)], show(cargs))
        return
    show_w = lambda w: " ".join(map(fmt, w)) if diff else fmt(w)
    problems = []
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            problems.append("stack %r: flametop %s, recomputed %s" %
                            (k[:90], show_w(got[k]) if k in got else "-",
                             show_w(want[k]) if k in want else "-"))
    verdict(case, problems, show(cargs))


def compare_sides(before, after, normalize):
    """Two folded inputs joined by stack: (BEFORE, AFTER); --normalize
    scales BEFORE by AFTER's total over BEFORE's and truncates, as
    difffolded.pl -n does (int())."""
    tb, ta = sum(before.values()), sum(after.values())
    out = {}
    for k in set(before) | set(after):
        b = before.get(k, Fraction(0))
        if normalize and tb:
            b = Fraction(int(b * ta / tb))
        out[k] = (b, after.get(k, Fraction(0)))
    return out


# ---- Generated inputs (fixed seed) ----------------------------------------

SMALL = ("main;a;b;c 10\nmain;a;b 5\nmain;a;a;b;c 4\nmain;b;a 3\nmain;c 2\n"
         "other;a;c 6\nmain;a;x;a;b 7\n")


def gen_folded(seed, lines, fractional):
    """Random stacks with repeated names, recursion (adjacent and not),
    repeated stacks and, if asked, weights with up to three decimals."""
    r = random.Random(seed)
    names = ["main", "run", "parse", "eval", "eval", "alloc", "free", "lex",
             "hash_get", "hash_put", "walk", "emit", "read", "write",
             "std::vector<int>::push_back", "[unknown]", "do_page_fault"]
    out = []
    roots = ["app", "app", "app", "worker", "gc"]
    for _ in range(lines):
        st = [r.choice(roots)]
        for _ in range(r.randint(0, 9)):
            x = r.random()
            if x < 0.12:
                st.append(st[-1])                      # a;a
            elif x < 0.22 and len(st) > 2:
                st.append(st[r.randrange(1, len(st))])  # a;b;a
            else:
                st.append(r.choice(names))
        if fractional and r.random() < 0.5:
            w = "%d.%s" % (r.randint(0, 50), r.choice(["5", "25", "125", "75", "001"]))
        else:
            w = str(r.randint(1, 60))
        out.append(";".join(st) + " " + w)
        if r.random() < 0.1:
            out.append(out[-1])
    return "\n".join(out) + "\n"


def gen_perf_script(seed, n):
    """perf script text: three commands, their processes and threads, four
    CPUs, times over ~4 s, cpu-clock periods; also the raw samples."""
    r = random.Random(seed)
    tasks = [("server", 300, 300), ("server", 300, 301), ("server", 300, 302),
             ("client", 400, 400), ("client", 410, 410), ("cron", 500, 500)]
    funcs = ["main", "loop", "handle", "parse", "alloc", "memcpy", "read",
             "poll", "compute", "compute", "hash"]
    t, raw, out = 1000.0, [], []
    for _ in range(n):
        comm, pid, tid = r.choice(tasks)
        cpu = r.randrange(4)
        t += r.randint(1, 20000) / 1e6
        period = r.choice([1000000, 1000000, 1001001, 999999, 2000000])
        st = ["_start", "main"] + [r.choice(funcs) for _ in range(r.randint(0, 6))]
        raw.append((comm, pid, tid, cpu, round(t, 6), period, st))
        out.append("%s %d/%d [%03d] %.6f: %d cpu-clock:ppp: " %
                   (comm, pid, tid, cpu, t, period))
        for i, f in enumerate(reversed(st)):
            out.append("\t%x %s+0x%x (/usr/bin/%s)" % (0x1000 + 16 * i, f, i, comm))
        out.append("")
    return "\n".join(out) + "\n", raw


def perf_view(raw, args):
    """The stacks of a generated perf script under the task filters, the
    time range (START,END seconds from the first sample) and the grouping."""
    it = iter(args)
    keep = []
    group, t0 = None, raw[0][4]

    def ids(spec):
        s = set()
        for part in spec.split(","):
            lo, _, hi = part.partition("-")
            s.update(range(int(lo), int(hi or lo) + 1))
        return s
    for a in it:
        if a == "--pids":
            v = ids(next(it)); keep.append(lambda s, v=v: s[1] in v)
        elif a == "--tids":
            v = ids(next(it)); keep.append(lambda s, v=v: s[2] in v)
        elif a == "--cpus":
            v = ids(next(it)); keep.append(lambda s, v=v: s[3] in v)
        elif a == "--comm":
            v = set(next(it).split(",")); keep.append(lambda s, v=v: s[0] in v)
        elif a == "--time":
            lo, hi = (float(x) for x in next(it).split(","))
            keep.append(lambda s, lo=lo, hi=hi: lo <= s[4] - t0 <= hi)
        elif a == "--group":
            group = next(it)
    out = {}
    for s in raw:
        if not all(k(s) for k in keep):
            continue
        root = {"process": "%s-%d" % (s[0], s[1]),
                "thread": "%s-%d/%d" % (s[0], s[1], s[2]),
                "merged": None}.get(group, s[0])
        key = ";".join(([root] if root else []) + s[6])
        out[key] = out.get(key, Fraction(0)) + s[5]
    return out


# ---- The interactive view ---------------------------------------------------

class Tui:
    count = 0

    def __init__(self, args):
        Tui.count += 1                  # a new server each time: no race
        self.sock = "ft-consist-%d-%d" % (os.getpid(), Tui.count)
        self.args = args
        cmd = " ".join(shlex.quote(a) for a in [BIN] + args)
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new",
                        "-d", "-x", "160", "-y", "35", "-c", GEN,
                        "env -u COLUMNS -u LINES LC_ALL=C.UTF-8 TERM=tmux-256color " + cmd +
                        "; sleep 600"], check=True)
        # Y copies the selected frame's stack with OSC 52: into a buffer.
        self.tmux("set", "-g", "set-clipboard", "on")
        self.zoom = ()
        self.wait(lambda s: " | " in s.splitlines()[0] if s else False)

    def path(self):
        """The selected frame's stack, copied with Y."""
        self.tmux("set-buffer", "-b", "flametop", "(nothing)")
        self.tmux("send-keys", "Y")
        # A busy machine may answer after the screen has looked settled.
        end = time.time() + 20
        got = self.tmux("show-buffer")
        while got == "(nothing)" and time.time() < end:
            time.sleep(0.05)
            got = self.tmux("show-buffer")
        self.settle()
        if got == "(nothing)":
            raise RuntimeError("Y copied nothing")
        return tuple(got.split(";"))

    def tmux(self, *a):
        return subprocess.run(["tmux", "-L", self.sock] + list(a),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
                              ).stdout.decode("utf-8", "replace")

    def screen(self):
        return self.tmux("capture-pane", "-p")

    def wait(self, cond, limit=20):
        end = time.time() + limit
        s = self.screen()
        while not cond(s) and time.time() < end:
            time.sleep(0.05)
            s = self.screen()
        return s

    def settle(self):
        """Until three captures 60 ms apart agree."""
        prev, same, end = self.screen(), 0, time.time() + 20
        while same < 2 and time.time() < end:
            time.sleep(0.06)
            cur = self.screen()
            same = same + 1 if cur == prev else 0
            prev = cur
        return prev

    def keys(self, *k):
        self.tmux("send-keys", *k)
        return self.settle()

    def save(self):
        """s, waiting for its 'saved N stacks to FILE' (a busy machine may
        answer after the screen has looked settled); the match or None."""
        rx = re.compile(r"saved [0-9]+ stacks to (\S+)")
        old = rx.search(self.screen())
        old = old.group(0) if old else None
        self.tmux("send-keys", "s")
        self.wait(lambda scr: any(m.group(0) != old
                                  for m in [rx.search(scr)] if m))
        return rx.search(self.settle())

    def close(self):
        sock = self.tmux("display", "-p", "#{socket_path}").strip()
        self.tmux("kill-server")
        if sock.startswith("/") and os.path.exists(sock):
            os.remove(sock)             # tmux leaves it behind


def check_tui(case, scr, args, rx, t):
    """The header 'NAME | TOTAL | /re/ Matched: AMOUNT (P%) | ...' (and the
    top table when it is shown) against the --collapse of the same view
    given as options, or (args None) against what the view's s saves."""
    head = scr.splitlines()[0].split(" | ")
    problems = []
    diff = "--diff" in t.args
    if args is None:
        saved = t.save()
        if not saved:
            raise RuntimeError("s saved nothing")
        with open(saved.group(1), encoding="utf-8") as f:
            stacks = parse_collapse(f.read(), diff)
        side, cargs = 1, None
    else:
        side = 2 if "--negate" in args else 1
        cargs = args + ["--collapse"]
        stacks = parse_collapse(run(cargs), diff)
    tot = sums(stacks, side)[0]
    check_amount(problems, "header total", head[1], tot)
    if rx:
        m = [re.fullmatch(r"/(.*)/ Matched: (.*) \(([0-9.]+)%\)", h) for h in head]
        m = [x for x in m if x]
        want = matched(stacks, rx, side)
        if not m or m[0].group(1) != rx:
            problems.append("header: no /%s/ Matched:" % rx)
        else:
            check_amount(problems, "header Matched", m[0].group(2), want)
            if not near(Fraction(m[0].group(3)), pct(want, tot), HALF):
                problems.append("header Matched: %s%%, the collapse gives "
                                "%.4f%%" % (m[0].group(3), float(pct(want, tot))))
    if "view: top" in head[-1]:
        rows = [l for l in scr.splitlines()[1:] if re.match(r" *[0-9.]+% ", l)]
        # The table fills the screen but the header and the last line.
        problems += top_problems(rows, stacks, diff,
                                 len(rows) < len(scr.splitlines()) - 3)
    problems = ["%s (header: %s)" % (p, " | ".join(head)) for p in problems]
    verdict(case, problems, "in the view; the same view: " +
            (show(cargs) if cargs else "what s saves"))


def selected(name):
    """A step that asserts the selected frame (the last line, 'NAME | ...')."""
    def step(t, scr):
        last = scr.rstrip("\n").splitlines()[-1]
        if last.split(" | ")[0] != name:
            verdict("tui selection", ["%r is selected, not %r" %
                                      (last.split(" | ")[0], name)], last)
        return scr
    return step


def match_count(args, rx):
    """A step: n selects the next match and says 'match K of N'; N must be
    the number of frames of the view (its --collapse's nodes) matching rx
    (on small.folded every frame is wide enough to draw)."""
    def step(t, scr):
        scr = t.keys("n")
        cargs = args + t.args + ["--collapse"]
        r = re.compile(rx)
        want = sum(1 for p in node_weights(parse_collapse(run(cargs), False))
                   if p and r.search(p[-1]))
        m = re.search(r"match [0-9]+ of ([0-9]+)", scr.splitlines()[-1])
        problems = [] if m and int(m.group(1)) == want else [
            "n says %r; the view has %d matching frames"
            % (scr.splitlines()[-1], want)]
        verdict("tui %s n after %s" % (" ".join(t.args), " ".join(args) or
                                        "the search"), problems,
                "in the view; the same view: " + show(cargs))
        return scr
    return step


def saved_is(args):
    """A step: what s saves of the view is the --collapse of the same view
    given as options."""
    def step(t, scr):
        saved = t.save()
        cargs = args + t.args + ["--collapse"]
        problems = []
        if not saved:
            problems.append("s saved nothing")
        else:
            with open(saved.group(1), encoding="utf-8", errors="replace") as f:
                got = sorted(f.read().splitlines())
            want = sorted(run(cargs).splitlines())
            problems = ["saved %r, the option gives %r" % (g, w)
                        for g, w in zip(got + ["-"] * len(want),
                                        want + ["-"] * len(got)) if g != w]
        verdict("tui %s s after %s" % (" ".join(t.args), " ".join(args)),
                problems, "in the view; the same view: " + show(cargs))
        return t.settle()
    return step


def zoom_in(t, scr):
    """A step: zoom into the selected frame (Enter), remembering its stack."""
    t.zoom = t.path()
    return t.keys("Enter")


DIFF_STATUS = re.compile(r"(?:new: |gone: )?before (.+?)(?: \(([0-9.]+)%\))?, "
                         r"after (.+?)(?: \(([0-9.]+)%\))?"
                         r"(?:, \+?(.+?), \+?(-?[0-9.]+) pts)?")


def status(args, of_all=True):
    """A step: the status line of the selected frame, 'NAME | TOTAL (self
    SELF) | P% of all | [comparison: before B (P%), after A (Q%), +D, +X
    pts |] Q% of zoom', against its node in the --collapse of the same view
    (args), its stack found with Y.  The share of all is checked only where
    the view is the whole profile (of_all)."""
    def step(t, scr):
        last = scr.rstrip("\n").splitlines()[-1].split(" | ")
        path = t.path()
        cargs = args + t.args + ["--collapse"]
        diff = "--diff" in cargs
        i = 1 if "--negate" in cargs else 0
        stacks = parse_collapse(run(cargs), diff)
        nodes = node_weights(stacks)
        leaf = sum((st[1 + i] for st in stacks if st[0] == path), Fraction(0))
        problems = []
        m = [re.fullmatch(r"(.*) \(self (.*)\)", x) for x in last[1:]]
        m = [x for x in m if x]
        if path not in nodes or not m:
            problems.append("no node %r, or no total in %r" % (path, last))
        else:
            node, root = nodes[path], nodes[()]
            check_amount(problems, "status total", m[0].group(1), node[i])
            check_amount(problems, "status self", m[0].group(2), leaf)
            shares = [("of zoom", nodes.get(t.zoom, [0, 0])[i])]
            if of_all:
                shares.append(("of all", root[i]))
            for what, of in shares:
                g = [re.fullmatch(r"([0-9.]+)% " + what, x) for x in last]
                g = [x for x in g if x]
                if not g:
                    problems.append("status: no '%% %s'" % what)
                elif not near(Fraction(g[0].group(1)), pct(node[i], of), HALF):
                    problems.append("status: %s%% %s, the collapse gives %.4f%%"
                                    % (g[0].group(1), what,
                                       float(pct(node[i], of))))
            d = [DIFF_STATUS.fullmatch(x) for x in last] if diff else []
            d = [x for x in d if x]
            if diff and not d:
                problems.append("status: no 'before ..., after ...'")
            for g in d[:1]:
                b, a = pct(node[1], root[1]), pct(node[0], root[0])
                check_amount(problems, "status before", g.group(1), node[1])
                check_amount(problems, "status after", g.group(3), node[0])
                if g.group(5):
                    check_amount(problems, "status change", g.group(5),
                                 node[0] - node[1])
                for what, got, want in (("before", g.group(2), b),
                                        ("after", g.group(4), a),
                                        ("change", g.group(6), a - b)):
                    if got and not near(Fraction(got), want, HALF):
                        problems.append("status %s: %s, the collapse gives "
                                        "%.4f" % (what, got, float(want)))
        verdict("tui %s status of %s" % (" ".join(t.args), ";".join(path)[-60:]),
                ["%s (status: %s)" % (p, " | ".join(last)) for p in problems],
                "in the view; the same view: " + show(cargs))
        return scr
    return step


def tui_cases(path, steps, diff=False):
    """steps: (name, keys, options of the same view, search regex)."""
    t = Tui((["--diff"] if diff else []) + path.split())
    try:
        for name, keys, opts, rx in steps:
            scr = t.settle()
            try:
                for k in keys:
                    if k == ("r",):         # the zoom reset
                        t.zoom = ()
                    scr = t.keys(*k) if isinstance(k, tuple) else k(t, scr)
                if opts is not None:
                    opts = (["--diff"] if diff else []) + opts + path.split()
                check_tui("tui %s %s" % (os.path.basename(path), name), scr,
                          opts, rx, t)
            except (RuntimeError, ValueError, IndexError) as e:
                verdict("tui %s %s" % (path, name), [str(e)], scr)
    finally:
        t.close()


# ---- The cases ----------------------------------------------------------------

def main():
    def write(name, text):
        with open(os.path.join(GEN, name), "w", encoding="utf-8") as f:
            f.write(text)
    write("small.folded", SMALL)
    write("rand.folded", gen_folded(27, 300, False))
    write("frac.folded", gen_folded(28, 200, True))
    write("before.folded", gen_folded(29, 150, False))
    write("after.folded", gen_folded(30, 150, False))
    write("frac-before.folded", gen_folded(31, 120, True))
    text, raw = gen_perf_script(32, 400)
    write("tasks.perf-script", text)
    write("idle.folded", "myapp;main;reap_idle_connections 50\n"
          "myapp;main;work 50\n"
          "swapper;cpu_startup_entry;do_idle;default_idle 100\n")
    write("names.folded", "main;cmp<bool  5\nmain;f 14.2343983248722834234\n"
          "main;g 2\n")

    for line in sys.stdin:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = shlex.split(line)
        kind, fields = words[0], [[]]
        for w in words[1:]:             # fields split at unquoted "|"
            if w == "|":
                fields.append([])
            else:
                fields[-1].append(w)
        if kind == "figures":           # figures INPUTS | OPTIONS | REGEX...
            inputs, opts = fields[0], fields[1]
            icase = "-i" in opts
            args = (["--diff"] if len(inputs) == 2 else []) + \
                [o for o in opts if o != "-i"] + (["-i"] if icase else []) + inputs
            name = "%s [%s]" % (" ".join(inputs), " ".join(opts))
            figures(name, args, fields[2] if len(fields) > 2 else [], icase)
        elif kind == "derive":          # derive INPUT | OPTIONS
            inputs, opts = fields[0], fields[1]
            name = "derive %s [%s]" % (inputs[0], " ".join(opts))
            if len(inputs) == 2:
                name = "derive %s [%s]" % (" ".join(inputs), " ".join(opts))
                want = compare_sides(read_folded(inputs[0]),
                                     read_folded(inputs[1]),
                                     "--normalize" in opts)
                opts = ["--diff"] + opts
            elif inputs[0].endswith(".perf-script"):
                want = perf_view(raw, opts)
            else:
                want = derive(read_folded(inputs[0]), opts)
            compare_stacks(name, opts + inputs, want)
    if os.environ.get("CONSIST_TUI", "1") == "1":
        run_tui(raw)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def select_down(n):
    """Move the selection n rows down."""
    return ("Down",) * n


def tui_heat(raw):
    """The heat map's cells (m in timeline mode) against the raw samples of
    the generated perf script: each cell visited gives its time span,
    samples and weight on the top line, and the heaviest cell's weight."""
    t0 = Fraction(str(raw[0][4]))
    t = Tui(["tasks.perf-script"])
    try:
        t.keys("t")
        scr = t.keys("m")
        m = re.search(r"cells 1 s x ([0-9]+) ms, most (.*)$", scr.splitlines()[1])
        if not m:
            verdict("tui heat map", ["no 'cells 1 s x N ms'"], scr.splitlines()[1])
            return
        step = Fraction(int(m.group(1)), 1000)
        cells = {}
        for s in raw:
            c = cells.setdefault(int((Fraction(str(s[4])) - t0) / step), [0, 0])
            c[0] += 1
            c[1] += s[5]
        problems = []
        check_amount(problems, "heaviest cell", m.group(2),
                     max(c[1] for c in cells.values()))
        for mv in [()] + [("Down",)] * 3 + [("Right",), ("Down",) * 5,
                                            ("Right",) * 2, ("Up",)]:
            line = (t.keys(*mv) if mv else scr).splitlines()[1]
            g = re.search(r"\| ([0-9.]+)-[0-9.]+ s: ([0-9]+) samples?, ([^|]*?) \|",
                          line)
            if not g:
                problems.append("no cell in %r" % line)
                continue
            c = cells.get(int(Fraction(g.group(1)) / step + Fraction(1, 2)), [0, 0])
            if int(g.group(2)) != c[0]:
                problems.append("cell %s s: %s samples, the raw samples give %d"
                                % (g.group(1), g.group(2), c[0]))
            check_amount(problems, "cell %s s" % g.group(1), g.group(3), c[1])
        verdict("tui heat map", problems, "flametop tasks.perf-script, t, m")
    finally:
        t.close()


def run_tui(raw):
    if subprocess.run(["sh", "-c", "command -v tmux"],
                      stdout=subprocess.DEVNULL).returncode != 0:
        print("tui: SKIP, tmux is not installed")
        return
    tui_cases("small.folded", [
        ("search", [("/",), ("^c$", "Enter"), match_count([], "^c$")],
         [], "^c$"),
        ("search then exclude", [("X",), ("^other$", "Enter"),
                                 match_count(["--exclude", "^other$"], "^c$"),
                                 saved_is(["--exclude", "^other$"])],
         ["--exclude", "^other$"], "^c$"),
        ("back to the profile", [("V",)], [], "^c$"),
        ("include", [("F",), ("^x$", "Enter"), saved_is(["--include", "^x$"])],
         ["--include", "^x$"], "^c$"),
        ("invert", [("V",), ("I",), match_count(["--invert"], "^c$"),
                    saved_is(["--invert"])],
         ["--invert"], "^c$"),
        ("fold", [("V",), ("R",), saved_is(["--fold-recursion"])],
         ["--fold-recursion"], "^c$"),
        ("status", [("V",), ("g",), select_down(3), status([]), zoom_in,
                    select_down(1), status([])], [], "^c$"),
        ("callers", [("V",), ("r",), ("g",), select_down(2), selected("a"),
                     ("<",), saved_is(["--callers", "a"])],
         ["--callers", "a"], "^c$"),
        ("new search in callers", [("/",), ("b", "Enter"), select_down(2),
                                   status(["--callers", "a"], False)],
         ["--callers", "a"], "b"),
    ])
    tui_cases("samples/flametop-load.perf-script.zst", [
        ("search", [("/",), ("clear_page", "Enter")], [], "clear_page"),
        ("include", [("F",), ("page_fault", "Enter")],
         ["--include", "page_fault"], "clear_page"),
        ("include then exclude", [("X",), ("clear_page", "Enter")],
         ["--include", "page_fault", "--exclude", "clear_page"], "clear_page"),
        ("top table", [("v",)],
         ["--include", "page_fault", "--exclude", "clear_page"], None),
    ])
    tui_cases("tasks.perf-script", [
        ("search", [("/",), ("^compute$", "Enter")], [], "^compute$"),
        ("status", [select_down(4), status([]), zoom_in, select_down(2),
                    status([]), ("r",)], [], "^compute$"),
        ("per process", [("P",)], ["--group", "process"], "^compute$"),
        ("per thread", [("P",)], ["--group", "thread"], "^compute$"),
        ("pid filter", [("%",), ("pid=300", "Enter"),
                        saved_is(["--group", "thread", "--pids", "300"])],
         ["--group", "thread", "--pids", "300"], "^compute$"),
        ("top table", [("v",)], ["--group", "thread", "--pids", "300"], None),
        ("time range", [("v",), ("V",), ("t",), ("Right",) * 10, ("Enter",),
                        ("Right",) * 20, ("Enter",)], None, "^compute$"),
        ("time range, per process", [("P",)], None, "^compute$"),
        ("time range, callers", [select_down(3), ("<",)], None, "^compute$"),
    ])
    tui_cases("before.folded after.folded", [
        ("search", [("/",), ("eval", "Enter")], [], "eval"),
        ("status", [("g",), select_down(3), status([]), ("Right",),
                    status([]), zoom_in, select_down(1), status([]),
                    ("r",)], [], "eval"),
        ("sized by before", [("B",), saved_is(["--negate"])], ["--negate"],
         "eval"),
        ("status sized by before", [("g",), select_down(2), status(["--negate"]),
                                    ("Right",), status(["--negate"])],
         ["--negate"], None),
        ("top table", [("v",)], ["--negate"], None),
    ], diff=True)
    tui_heat(raw)
    # The idle task: the kernel's idle frames, not every name holding "idle".
    tui_cases("idle.folded", [
        ("hide idle", [("H",)],
         ["--exclude", "^(cpu_startup_entry|do_idle|default_idle)$"], None),
    ])


if __name__ == "__main__":
    sys.exit(main())
