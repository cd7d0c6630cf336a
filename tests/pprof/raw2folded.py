#!/usr/bin/env python3
"""raw2folded.py - `go tool pprof -raw` output as folded stacks.

usage: go tool pprof -symbolize=none -raw FILE | raw2folded.py TYPE [--lines]

Aggregates the values of sample type TYPE per stack (function names, root
first; a location's inlined functions outermost first), drops stacks whose
sum is zero, and sorts the lines in byte order, as `flametop --collapse`
prints them.  Locations without a function are named by flametop's rule:
"[file]" from their mapping's file name, else "[unknown]".  Names are
taken as bytes (they may hold spaces and need not be UTF-8): a line of a
location is "NAME FILE:LINE s=N", FILE without spaces.  With --lines a
frame is "NAME BASE:LINE" (BASE: FILE's last path component) where the
line is known (above 0), as `flametop --lines` names it (a kind's
annotation such as "_[i]" after the line: "NAME BASE:LINE_[i]").
"""
import re
import sys

want = sys.argv[1]
lines = "--lines" in sys.argv[2:]
section = None
types = []
samples = []
locs = {}
loc_map = {}
maps = {}
cur = None


def frame(text):
    """The function name of a location's line: NAME FILE:LINE s=N."""
    m = re.match(r"^(.*) (\S*):(-?\d+) s=\d+", text)
    if not m:
        return text.split(" ")[0]
    base = m.group(2).rsplit("/", 1)[-1]
    if lines and base and int(m.group(3)) > 0:
        # flametop's annotation of a frame's kind comes after its line.
        k = re.match(r"^(.*)(_\[[kjiw]\])$", m.group(1))
        name, kind = k.groups() if k else (m.group(1), "")
        return "%s %s:%s%s" % (name, base, m.group(3), kind)
    return m.group(1)


text = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
for line in text.splitlines():
    if line in ("Samples:", "Locations", "Mappings"):
        section = line
        continue
    if section == "Samples:":
        if not types:
            types = [t.split("/")[0] for t in line.split()]
            continue
        m = re.match(r"^\s*([-\d ]+):((?: \d+)*)\s*$", line)
        if m:
            vals = [int(v) for v in m.group(1).split()]
            ids = [int(i) for i in m.group(2).split()]
            samples.append((vals, ids))
    elif section == "Locations":
        m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ (M=(\d+) )?(.*)$", line)
        if m:
            cur = int(m.group(1))
            loc_map[cur] = int(m.group(3)) if m.group(3) else 0
            rest = m.group(4).strip()
            locs[cur] = [frame(rest)] if rest else []
        elif cur is not None and line.strip():
            locs[cur].append(frame(line.strip()))
    elif section == "Mappings":
        m = re.match(r"^(\d+): \S+ ?(\S*)", line)
        if m:
            maps[int(m.group(1))] = m.group(2)

# "[dflt]" marks the default type in the header.
types = [t.replace("[dflt]", "") for t in types]
k = types.index(want)
sums = {}
for vals, ids in samples:
    frames = []
    for lid in reversed(ids):
        names = locs.get(lid, [])
        if names:
            frames.extend(reversed(names))
        elif maps.get(loc_map.get(lid, 0)):
            frames.append("[" + maps[loc_map[lid]].rsplit("/", 1)[-1] + "]")
        else:
            frames.append("[unknown]")
    key = ";".join(frames) if frames else "[unknown]"
    sums[key] = sums.get(key, 0) + vals[k]
out = sys.stdout.buffer
enc = {s.encode("utf-8", "surrogateescape"): s for s in sums if sums[s] > 0}
for key in sorted(enc):
    out.write(key + b" " + str(sums[enc[key]]).encode() + b"\n")
