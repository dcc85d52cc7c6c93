def reference(x, rows, cols, **_):
    return x.sum(dim=1)
