#!/usr/bin/env python3
"""reference.py - folded stacks of a V8 .cpuprofile, read independently of
flametop, for tests/cpuprofile/run.sh to compare with its --collapse.

A sample's stack is the functionNames (empty: "(anonymous)") from below the
"(root)" node down to its node; it weighs the microseconds until the next
sample in time (the last: until endTime), as nanoseconds.  With --lines a
frame is "NAME FILE:LINE" where the callFrame has a url and a lineNumber:
FILE the url's last path component, LINE the 0-based lineNumber plus 1.

usage: reference.py FILE [--lines]"""
import json
import sys


def frame(cf, lines):
    name = cf["functionName"] or "(anonymous)"
    url, line = cf.get("url", ""), cf.get("lineNumber", -1)
    if lines and url and line >= 0:
        base = url.split("/")[-1] or url
        name = "%s %s:%d" % (name, base, line + 1)
    return name


def main(path, lines):
    with open(path, encoding="utf-8") as f:
        prof = json.load(f)
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {}
    for n in prof["nodes"]:
        for c in n.get("children", []):
            parent[c] = n["id"]

    def stack(i):
        names = []
        while True:
            n = nodes[i]
            name = frame(n["callFrame"], lines)
            if i not in parent and n["callFrame"]["functionName"] == "(root)":
                break
            names.append(name)
            if i not in parent:
                break
            i = parent[i]
        return ";".join(reversed(names))

    t = prof.get("startTime", 0)
    times = []
    for k, (i, dt) in enumerate(zip(prof["samples"], prof["timeDeltas"])):
        t += dt
        times.append((t, k, i))
    times.sort()
    folded = {}
    for k, (t, _, i) in enumerate(times):
        nxt = times[k + 1][0] if k + 1 < len(times) else prof["endTime"]
        s = stack(i)
        folded[s] = folded.get(s, 0) + max(nxt - t, 0) * 1000
    for s in sorted(folded):
        if folded[s]:
            print("%s %d" % (s, folded[s]))


main(sys.argv[1], "--lines" in sys.argv[2:])
