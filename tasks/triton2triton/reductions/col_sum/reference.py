def reference(x, **_):
    return x.sum(dim=0)
