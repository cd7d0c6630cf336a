#!/usr/bin/env python3
"""raw-mappings.py - the mappings and addresses of `go tool pprof -raw`.

usage: go tool pprof -symbolize=none -raw FILE | raw-mappings.py

Prints, sorted and without repeats:
  "map PATH BUILD-ID"  for each mapping with a file ("-" when it has no
                       build-id; go tool pprof adds one without a file to
                       a profile that has none);
  "at PATH ADDR"       for each location with a mapping: the address as an
                       offset in the file (address - start + file offset)
                       when the mapping's range is known, else as it is, in
                       hex without 0x, as `perf script -F ip,dso` prints
                       addresses;
  "out PATH ADDR"      for such a location whose address lies outside its
                       mapping's known range (there should be none).
"""
import re
import sys

section = None
maps = {}
locs = []
text = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
for line in text.splitlines():
    if line in ("Samples:", "Locations", "Mappings"):
        section = line
        continue
    if section == "Locations":
        m = re.match(r"^\s*\d+: 0x([0-9a-f]+) M=(\d+) ", line)
        if m:
            locs.append((int(m.group(1), 16), int(m.group(2))))
    elif section == "Mappings":
        m = re.match(r"^(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x([0-9a-f]+) +"
                     r"(\S+)(?: ([0-9a-f]+))?", line)
        if m and m.group(5) != "[FN]":
            maps[int(m.group(1))] = (int(m.group(2), 16),
                                     int(m.group(3), 16),
                                     int(m.group(4), 16), m.group(5),
                                     m.group(6) or "-")
out = set()
for start, limit, off, path, bid in maps.values():
    out.add("map %s %s" % (path, bid))
for addr, mid in locs:
    if mid not in maps:
        continue   # go tool pprof's own mapping of a profile without any
    start, limit, off, path, bid = maps[mid]
    if limit > start:
        out.add("at %s %x" % (path, addr - start + off))
        if not start <= addr < limit:
            out.add("out %s %x" % (path, addr))
    else:
        out.add("at %s %x" % (path, addr))
for line in sorted(out):
    print(line)
