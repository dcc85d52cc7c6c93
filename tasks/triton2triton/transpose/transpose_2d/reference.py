def reference(x, **_):
    return x.t().contiguous()
