def py_sort(n):
    a = [(i * 7919) % 1000 for i in range(n)]
    a.sort()
    return a[0]

def py_math(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s

for _ in range(3):
    py_sort(1000)
    py_math(1000)
