def reference(x, rows, cols, **_):
    return x.amax(dim=1)
