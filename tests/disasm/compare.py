#!/usr/bin/env python3
"""compare.py - flametop's --annotate --disasm against perf's figures.

usage: compare.py annotate FLAMETOP_OUT PERF_ANNOTATE_OUT
       compare.py report FLAMETOP_OUT PERF_REPORT_OUT
       compare.py same-code FLAMETOP_OUT FLAMETOP_OUT2

annotate: perf annotate --stdio's per-instruction percent (of the
function's own samples) against flametop's self share of the profile
divided by the function's (its header line); every instruction perf lists
is listed at the same address, within 1 point, and the branch targets
perf names (<mix+0x39>, <step>) are flametop's.
report: perf report --sort dso,sym's per-address shares of a stripped
file ([.] 0x...11f4) against flametop's self share of each instruction.
same-code: the instructions of the first listing are in the second at
the same addresses with the same text (a stripped copy decodes alike).
Prints one line per mismatch and "N passed, N failed" last.
"""
import re
import sys

CELL = r'(\.|[\d.]+k?(?: [^\s\d%]+)?)'
PCT = r'(\.|[\d.]+%)'
ROW = re.compile(r'^[ *]\s*' + CELL + r'\s+' + PCT + r'\s+' + CELL + r'\s+' +
                 PCT + r'\s+([0-9a-f]+)  (.+)$')
HEAD = re.compile(r'^(.*) \((.*)\) self .* ([\d.]+)%, total .* ([\d.]+)%$')
PERF_ROW = re.compile(r'^\s*([\d.]+) :\s+([0-9a-f]+):\s+(.*)$')
TARGET = re.compile(r'<([^>]+)>')

passed = failed = 0


def ok():
    global passed
    passed += 1


def bad(msg):
    global failed
    failed += 1
    print('FAIL: ' + msg)


def flametop(path):
    """The function's self share (of the profile) and its rows by address."""
    share, rows = None, {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = HEAD.match(line)
            if m and share is None:
                share = float(m.group(3))
                continue
            m = ROW.match(line)
            if m:
                p = m.group(2)
                rows[int(m.group(5), 16)] = (
                    0.0 if p == '.' else float(p[:-1]), m.group(6))
    return share, rows


def cmp_annotate(ours, perf):
    share, rows = flametop(ours)
    if not share or not rows:
        bad('no function or no instructions in ' + ours)
        return
    n = 0
    with open(perf, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = PERF_ROW.match(line)
            if not m:
                continue
            n += 1
            pct, addr, text = float(m.group(1)), int(m.group(2), 16), m.group(3)
            if addr not in rows:
                bad('perf lists %x (%s), flametop does not' % (addr, text))
                continue
            local = 100.0 * rows[addr][0] / share
            if abs(local - pct) <= 1.0:
                ok()
            else:
                bad('%x: perf %.2f%%, flametop %.2f%% of the function'
                    % (addr, pct, local))
            want = TARGET.findall(text.split('#')[0])
            have = TARGET.findall(rows[addr][1])
            if want:
                if want == have:
                    ok()
                else:
                    bad('%x: perf names %s, flametop %s' % (addr, want, have))
    if n == len(rows):
        ok()
    else:
        bad('perf lists %d instructions, flametop %d' % (n, len(rows)))


def cmp_report(ours, perf):
    _, rows = flametop(ours)
    seen = 0
    with open(perf, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = re.match(r'^\s*([\d.]+)%\s+(\S+)\s+\[\.\] 0x([0-9a-f]+)', line)
            if not m or m.group(2) != 'annotate':
                continue
            seen += 1
            pct, addr = float(m.group(1)), int(m.group(3), 16)
            if addr not in rows:
                bad('perf has samples at %x, flametop lists no instruction '
                    'there' % addr)
            elif abs(rows[addr][0] - pct) <= 1.0:
                ok()
            else:
                bad('%x: perf %.2f%%, flametop %.2f%%'
                    % (addr, pct, rows[addr][0]))
    if seen:
        ok()
    else:
        bad('no address of annotate in ' + perf)


def cmp_code(a, b):
    _, ra = flametop(a)
    _, rb = flametop(b)
    for addr, (_, text) in sorted(ra.items()):
        # The stripped copy names no target: compare the text before it.
        if addr in rb and rb[addr][1].split(' <')[0] == text.split(' <')[0]:
            ok()
        else:
            bad('%x: %s / %s' % (addr, text, rb.get(addr, (0, None))[1]))


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    {'annotate': cmp_annotate, 'report': cmp_report,
     'same-code': cmp_code}[sys.argv[1]](sys.argv[2], sys.argv[3])
    print('%d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)
