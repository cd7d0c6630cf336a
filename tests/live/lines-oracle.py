#!/usr/bin/env python3
"""lines-oracle.py - the folded stacks `flametop --lines` should give for a
perf.data, from perf's and binutils' reading of it, sharing no code with
flametop.

usage: lines-oracle.py TARGET NM SCRIPT

TARGET is the recorded binary, NM the output of `nm TARGET`, SCRIPT the
output of `perf script -F period,ip,sym,symoff,dso`.  Only the target's
frames are kept.  Each frame's address is its symbol's address (nm) plus
the offset perf prints, minus 1 for callers (a return address: the call
is the byte before); `addr2line -a -i` gives the address's inline chain,
whose last line is the function's own; a frame with no line there ("??")
is left out.  A frame is "NAME FILE:LINE" (FILE a base name); stacks root
first, summed by period, sorted."""
import re
import subprocess
import sys

target, nmfile, script = sys.argv[1:4]
base = {}
for l in open(nmfile):
    p = l.split()
    if len(p) == 3 and p[1] in "tT":
        base[p[2]] = int(p[0], 16)
samples, cur = [], None
for l in open(script):
    l = l.rstrip("\n")
    if re.match(r"^ *\d+ *$", l):
        cur = [int(l), []]
        samples.append(cur)
    elif l.strip() and cur is not None:
        m = re.match(r"^\s*[0-9a-f]+ (\S+) \((.*)\)$", l)
        depth = len(cur[1])
        cur[1].append(None)
        if not m or m.group(2) != target:
            continue
        s = re.match(r"^(.*?)(?:\+0x([0-9a-f]+))?$", m.group(1))
        if s.group(1) in base:
            cur[1][-1] = (s.group(1), base[s.group(1)] +
                          int(s.group(2) or "0", 16) - (depth > 0))
addrs = sorted({f[1] for _, st in samples for f in st if f})
out = subprocess.run(["addr2line", "-a", "-i", "-e", target] +
                     ["0x%x" % a for a in addrs], capture_output=True,
                     text=True, check=True).stdout
own, a = {}, None
for l in out.splitlines():
    if l.startswith("0x"):
        a = int(l, 16)
    else:
        own[a] = l.split(" ")[0].rsplit("/", 1)[-1]
sums = {}
for w, st in samples:
    # A frame addr2line names no line of ("??:0": the PLT, which perf
    # names _init) is left out, as the test keeps flametop's frames that
    # name a line of the target only.
    k = ";".join("%s %s" % (f[0], own[f[1]]) for f in reversed(st)
                 if f and not own[f[1]].startswith("??"))
    sums[k] = sums.get(k, 0) + w
for k in sorted(sums):
    print(k, sums[k])
