def py_sort(n):
    a = [(i * 7919) % 1000 for i in range(n)]
    a.sort()
    return a[0]

def py_math(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s

# Three rounds, or as many as fill ARGV[1] seconds of CPU time.
import sys, time
secs = float(sys.argv[1]) if len(sys.argv) > 1 else 0
rounds = 0
while rounds < 3 or time.process_time() < secs:
    py_sort(1000)
    py_math(1000)
    rounds += 1
