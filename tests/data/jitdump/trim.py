#!/usr/bin/env python3
# trim.py - a jitdump cut down to its header, its first KEEP records and
# every record from the first code load whose name holds WORD on (the
# debug and unwinding info records just before that load included).
#
# usage: trim.py DUMP WORD KEEP > OUT
import struct
import sys

data = open(sys.argv[1], 'rb').read()
word = sys.argv[2].encode()
keep = int(sys.argv[3])
size = struct.unpack_from('<I', data, 8)[0]
records = []
off = size
while off + 16 <= len(data):
    kind, length = struct.unpack_from('<II', data, off)
    if length < 16 or off + length > len(data):
        break
    records.append((kind, data[off:off + length]))
    off += length
start = len(records)
for i, (kind, rec) in enumerate(records):
    if kind == 0 and word in rec[56:rec.index(b'\0', 56)]:
        start = i
        while start > 0 and records[start - 1][0] in (2, 4):
            start -= 1
        break
out = data[:size] + b''.join(r for _, r in records[:min(keep, start)])
out += b''.join(r for _, r in records[start:])
sys.stdout.buffer.write(out)
