# class: honest control (a faster block size)
# expect: pass

def run(x, y, n, **_):
    gelu(x, y, n)
