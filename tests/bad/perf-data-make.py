#!/usr/bin/env python3
# perf-data-make.py - writes the damaged perf.data inputs of the
# perf-data-* bad-input cases beside this script (run it from anywhere).
# Each is a small stream built record by record: one cpu-clock event, a
# process "victim" whose binary is not on any machine, three samples; then
# damaged in one way per case.
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
IP, TID, TIME, CALLCHAIN, PERIOD = 1, 2, 4, 32, 256
STYPE = IP | TID | TIME | CALLCHAIN | PERIOD
USER = (1 << 64) - 512


def rec(rtype, body, misc=0):
    body += b"\0" * (-len(body) % 8)
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def attr():
    # struct perf_event_attr, 128 bytes: type, size, config, period,
    # sample_type, read_format, flags (bit 18: sample_id_all).
    a = struct.pack("<IIQQQQQ", 1, 128, 0, 1000000, STYPE, 0, 1 << 18)
    return a + b"\0" * (128 - len(a))


def trailer(pid, t):
    return struct.pack("<IIQ", pid, pid, t)


def comm(pid, name, t):
    body = struct.pack("<II", pid, pid) + name + b"\0"
    body += b"\0" * (-len(body) % 8)
    return rec(3, body + trailer(pid, t))


def mmap2(pid, start, length, path, t):
    body = struct.pack("<IIQQQIIQQII", pid, pid, start, length, 0, 8, 1,
                       4242, 0, 5, 2) + path + b"\0"
    body += b"\0" * (-len(body) % 8)
    return rec(10, body + trailer(pid, t), misc=2)


def sample(pid, t, ips, nr=None):
    body = struct.pack("<QIIQQQ", ips[0], pid, pid, t, 1000000,
                       len(ips) + 1 if nr is None else nr)
    body += struct.pack("<Q", USER) + b"".join(struct.pack("<Q", i) for i in ips)
    return rec(9, body, misc=2)


def stream(*records, attrs=True):
    out = b"PERFILE2" + struct.pack("<Q", 16)
    if attrs:
        out += rec(64, attr() + struct.pack("<Q", 1))
    return out + b"".join(records)


head = [comm(100, b"victim", 1), mmap2(100, 0x400000, 0x10000,
                                        b"/nonexistent/victim", 2)]
s1 = sample(100, 10, [0x401000, 0x402000])
s2 = sample(100, 11, [0x401000, 0x403000])
s3 = sample(100, 12, [0x401000, 0x402000])
cases = {
    # cut in the middle of the third sample
    "truncated": stream(*head, s1, s2, s3)[:-20],
    # written on a big-endian machine
    "bigendian": b"2ELIFREP" + struct.pack(">Q", 16) + b"\0" * 64,
    # a record whose size is smaller than a record header
    "bad-size": stream(*head, s1, struct.pack("<IHH", 9, 0, 4), s2),
    # a sample claiming 2^62 callchain entries
    "huge-nr": stream(*head, s1, sample(100, 11, [0x401000], nr=1 << 62), s3),
    # samples, but no attribute to decode them with
    "no-attr": stream(*head, s1, attrs=False),
    # file mode, the attribute section points past the end
    "header-lies": b"PERFILE2" + struct.pack("<QQQQQQQQ", 104, 144, 1 << 40,
                                            144, 104, 0, 0, 0)
                   + b"\0" * 32,
}
for name, data in cases.items():
    with open(os.path.join(here, "perf-data-%s.in" % name), "wb") as f:
        f.write(data)
