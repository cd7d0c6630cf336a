#!/usr/bin/env python3
# trim.py - a jitdump cut down: its header, its first KEEP records, and
# every later record but the code loads whose names start with one of
# the DROP prefixes (with the debug and unwinding info records just before
# them, which are theirs).
#
# usage: trim.py DUMP KEEP [DROP...] > OUT
import struct
import sys

data = open(sys.argv[1], 'rb').read()
keep = int(sys.argv[2])
drop = tuple(p.encode() for p in sys.argv[3:])
size = struct.unpack_from('<I', data, 8)[0]
out = [data[:size]]
held = []                      # info records waiting for their load
off = size
n = 0
while off + 16 <= len(data):
    kind, length = struct.unpack_from('<II', data, off)
    if length < 16 or off + length > len(data):
        break
    rec = data[off:off + length]
    off += length
    n += 1
    if kind in (2, 4):
        held.append(rec)
        continue
    name = rec[56:rec.index(b'\0', 56)] if kind == 0 else b''
    if n > keep and drop and name.startswith(drop):
        held = []
        continue
    out += held + [rec]
    held = []
sys.stdout.buffer.write(b''.join(out))
