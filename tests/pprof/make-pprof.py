#!/usr/bin/env python3
"""make-pprof.py - write the handmade pprof files of flametop's tests.

usage: make-pprof.py OUTDIR
       make-pprof.py --bomb MIB > FILE
       make-pprof.py --bomb-locations MIB > FILE

A tiny protobuf writer (varints and length-delimited fields, nothing else)
that builds profile.proto messages by field number, so that the tests can
hold inlined frames, unsymbolized locations and every kind of lie a hostile
file can tell.  Writes OUTDIR/inline.pprof (a valid profile),
OUTDIR/semicolon.pprof (a name holding ';') and the
OUTDIR/pprof-*.in cases of tests/bad.  With --bomb, writes to standard
output MIB mebibytes of empty string_table entries (bytes 0x32 0x00, a
valid profile.proto), for the tests to compress into a decompression bomb;
with --bomb-locations, MIB mebibytes of empty locations (0x22 0x00), that
protobuf-c would hold in some 100 bytes each.
"""
import gzip
import os
import sys


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def vfield(num, n):
    return varint(num << 3) + varint(n)


def lfield(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, values):
    return lfield(num, b"".join(varint(v) for v in values))


class Profile:
    """Builds a Profile message: strings are interned into the table."""

    def __init__(self):
        self.strings = [b""]
        self.parts = []

    def s(self, text):
        b = text.encode() if isinstance(text, str) else text
        if b not in self.strings:
            self.strings.append(b)
        return self.strings.index(b)

    def sample_type(self, typ, unit):
        self.parts.append(lfield(1, vfield(1, self.s(typ)) + vfield(2, self.s(unit))))

    def sample(self, locs, values):
        self.parts.append(lfield(2, packed(1, locs) + packed(2, values)))

    def labelled(self, locs, values, labels):
        """A sample with string labels: (key, value) strings or indices."""
        body = packed(1, locs) + packed(2, values)
        for k, v in labels:
            k = k if isinstance(k, int) else self.s(k)
            v = v if isinstance(v, int) else self.s(v)
            body += lfield(3, vfield(1, k) + vfield(2, v))
        self.parts.append(lfield(2, body))

    def mapping(self, mid, filename):
        self.parts.append(lfield(3, vfield(1, mid) + vfield(2, 0x400000) +
                                 vfield(3, 0x500000) + vfield(5, self.s(filename))))

    def location(self, lid, address, funcs, mapping=0):
        body = vfield(1, lid) + vfield(3, address)
        if mapping:
            body += vfield(2, mapping)
        for f in funcs:  # innermost first, the last is the caller
            body += lfield(4, vfield(1, f) + vfield(2, 10))
        self.parts.append(lfield(4, body))

    def function(self, fid, name, raw_name=None):
        idx = self.s(name) if raw_name is None else raw_name
        self.parts.append(lfield(5, vfield(1, fid) + vfield(2, idx)))

    def raw(self, data):
        self.parts.append(data)

    def encode(self, default_type=None, strings=True):
        out = b"".join(self.parts)
        if default_type is not None:
            out += vfield(14, self.s(default_type))
        if strings:
            out += b"".join(lfield(6, s) for s in self.strings)
        return out


def inline_profile():
    """Inlined frames, unsymbolized code, two types with a default."""
    p = Profile()
    p.sample_type("alloc_objects", "count")
    p.sample_type("alloc_space", "bytes")
    p.sample_type("inuse_space", "bytes")
    for fid, name in enumerate(["main", "run", "parse", "lex", "next_token",
                                "emit", "alloc"], start=1):
        p.function(fid, name)
    p.mapping(1, "/usr/lib/libfoo.so.1")
    # location 1: main; 2: run with parse and lex inlined (lex innermost)
    p.location(1, 0x401000, [1])
    p.location(2, 0x401100, [4, 3, 2])
    p.location(3, 0x401200, [5])
    p.location(4, 0x401300, [7, 6])       # alloc inlined into emit
    p.location(5, 0x4567, [], mapping=1)  # no function: the mapping's file
    p.location(6, 0x89ab, [])             # nothing known: [unknown]
    p.sample([3, 2, 1], [3, 300, 100])
    p.sample([4, 1], [2, 2048, 0])
    p.sample([5, 2, 1], [1, 1 << 20, 1 << 20])
    p.sample([6, 1], [4, 40, 40])
    p.sample([4, 2, 1], [0, 0, 5000])
    return p.encode(default_type="alloc_space")


def one_function(name, funcs=(1,)):
    """A "samples" profile with function 1 NAME at location 1."""
    p = Profile()
    p.sample_type("samples", "count")
    p.function(1, name)
    p.location(1, 0x10, list(funcs))
    return p


def bad_cases():
    good = inline_profile()
    cases = {}
    # A length that runs past the end of the file.
    cases["pprof-lying-length"] = lfield(1, vfield(1, 1))[:1] + varint(1 << 40) + b"\x08\x01"
    # Cut in the middle of a field.
    cases["pprof-truncated"] = good[: len(good) * 2 // 3]
    # String indices out of range (function name, sample type).
    p = Profile()
    p.sample_type("samples", "count")
    p.function(1, None, raw_name=999)
    p.location(1, 0x10, [1])
    p.sample([1], [5])
    cases["pprof-bad-string"] = p.encode()
    # Labels: a value with control bytes (escaped on the terminal, bytes in
    # --collapse), label string indices out of range (the label dropped),
    # a key given twice (its values joined), a numeric label (no string).
    p = one_function("main")
    p.labelled([1], [5], [("worker", "a\x1b[31mred")])
    p.labelled([1], [7], [("worker", 999), (998, "b")])
    p.labelled([1], [11], [("worker", "b"), ("worker", "c")])
    p.labelled([1], [13], [])
    p.parts.append(lfield(2, packed(1, [1]) + packed(2, [17]) +
                          lfield(3, vfield(1, p.s("worker")) + vfield(3, 4))))
    cases["pprof-labels-bad"] = p.encode()
    # Ids that point nowhere: a sample names location 42, a line function 9.
    p = one_function("main", [9, 1])
    p.sample([42, 1], [5])
    p.sample([1], [7])
    cases["pprof-bad-ids"] = p.encode()
    # A sample that repeats one location: recursion, not a cycle to follow.
    p = one_function("recurse")
    p.sample([1] * 50, [3])
    cases["pprof-recursion"] = p.encode()
    # Inlined lines that expand a sample beyond the deepest stack.
    p = one_function("f", [1] * 2000)
    p.location(2, 0x20, [1])
    p.sample([1] * 40, [1])
    p.sample([2], [1])
    cases["pprof-too-deep"] = p.encode()
    # A huge repeated field: 200,000 empty samples, and negative values
    # (gzip-compressed: 400 KB of protobuf in a small file).
    p = one_function("main")
    p.raw(lfield(2, b"") * 200000)
    p.sample([1], [-5])
    p.sample([1], [6])
    p.sample([], [2])       # no locations: [unknown], twice
    p.sample([], [3])
    cases["pprof-many-samples"] = gzip.compress(p.encode(), mtime=0)
    # Type names with escape sequences: they reach messages escaped.
    p = Profile()
    p.sample_type("ev\x1b[31mil", "co\x1bunt")
    p.function(1, "main")
    p.location(1, 0x10, [1])
    p.sample([1], [0])
    cases["pprof-escaped-type"] = p.encode()
    # No sample types at all.
    p = Profile()
    p.function(1, "main")
    p.location(1, 0x10, [1])
    p.sample([1], [1])
    cases["pprof-no-types"] = p.encode()
    # A frame name that is markup and escape sequences.
    p = Profile()
    p.sample_type("samples", "count")
    p.function(1, "<script>alert(1)</script>")
    p.function(2, "a&b\"c'\x1b[31m")
    p.location(1, 0x10, [1])
    p.location(2, 0x20, [2])
    p.sample([1, 2], [3])
    cases["pprof-hostile-names"] = p.encode()
    # Every sample invalid (location ids 99 and 0): nothing to show.
    p = one_function("main")
    p.sample([99], [10])
    p.sample([0, 1], [5])
    cases["pprof-all-bad"] = p.encode()
    # Fewer values than sample types: which value is which is unknown.
    p = Profile()
    for typ, unit in (("alloc_objects", "count"), ("alloc_space", "bytes")):
        p.sample_type(typ, unit)
    for i, name in enumerate(["main", "alloc"], start=1):
        p.function(i, name)
        p.location(i, 0x10 * i, [i])
    p.sample([2, 1], [4])
    p.sample([1], [1, 64])
    cases["pprof-few-values"] = p.encode()
    # Location 1 defined twice, function 2 too: the first of each is used.
    p = Profile()
    p.sample_type("samples", "count")
    p.function(1, "main")
    p.function(2, "first")
    p.function(2, "second")
    p.location(1, 0x10, [1])
    p.location(2, 0x20, [2])
    p.location(1, 0x30, [2])
    p.sample([2, 1], [3])
    cases["pprof-duplicate-ids"] = p.encode()
    # Values that overflow the profile's total part way: the samples
    # before and after the overflowing ones are kept, those are named.
    p = Profile()
    p.sample_type("samples", "count")
    for i, name in enumerate(["main", "alloc"], start=1):
        p.function(i, name)
        p.location(i, 0x10 * i, [i])
    for locs, value in (([2, 1], (1 << 63) - 1), ([1], (1 << 63) - 1),
                        ([2, 1], 5), ([1], 3), ([1], 1)):
        p.sample(locs, [value])
    cases["pprof-overflow"] = p.encode()
    return cases


def bomb(mib, field=6):
    """MIB MiB of empty fields (strings), written a MiB at a time."""
    chunk = lfield(field, b"") * (1 << 19)
    for _ in range(mib):
        sys.stdout.buffer.write(chunk)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--bomb":
        bomb(int(sys.argv[2]))
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--bomb-locations":
        bomb(int(sys.argv[2]), 4)
        return
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(os.path.join(out, "inline.pprof"), "wb") as f:
        f.write(inline_profile())
    # A function whose name holds ';' (folded output's separator).
    p = one_function("a;b")
    p.function(2, "c")
    p.location(2, 0x20, [2])
    p.sample([2, 1], [3])
    p.sample([1], [2])
    with open(os.path.join(out, "semicolon.pprof"), "wb") as f:
        f.write(p.encode())
    for name, data in bad_cases().items():
        with open(os.path.join(out, name + ".in"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
