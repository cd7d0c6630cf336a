# jit-work.py - Python that spends CPU time (thread time, not wall time)
# in two functions, for tests/live/test-jitdump-python.sh.
# usage: python3 jit-work.py CPU_SECONDS
import sys
import time


def py_math(n):
    s = 0
    for i in range(n):
        s += (i * i) % 7
    return s


def py_sort(n):
    a = [(i * 7919) % 1000 for i in range(n)]
    a.sort()
    return a[0]


def main():
    limit = time.thread_time() + float(sys.argv[1])
    acc = 0
    while time.thread_time() < limit:
        acc += py_math(3000)
        acc += py_sort(3000)
    return acc


main()
