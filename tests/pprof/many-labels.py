#!/usr/bin/env python3
"""many-labels.py - a hostile labelled pprof profile on standard output.

usage: many-labels.py SAMPLES

Each sample of function main carries seven labels worker=V, V one of 16
strings of 36 bytes, picked by the sample's index: every sample a
distinct combination, whose --group label:worker name (7 values, 259
bytes) is longer than the sample's 50 bytes.  For tests/pprof/labels.sh.
"""
import importlib.util
import os
import sys
spec = importlib.util.spec_from_file_location(
    "mk", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-pprof.py"))
mk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk)
n = int(sys.argv[1])
p = mk.one_function("main")
vals = [mk.varint(p.s(("%x" % i) * 36)) for i in range(16)]
key = mk.vfield(1, p.s("worker"))
head = mk.lfield(1, mk.varint(1)) + mk.lfield(2, mk.varint(1))
out = []
for i in range(n):
    body = head + b"".join(mk.lfield(3, key + mk.varint(2 << 3) + vals[(i >> (4 * k)) & 15]) for k in range(7))
    out.append(mk.lfield(2, body))
p.parts.append(b"".join(out))
sys.stdout.buffer.write(p.encode())
