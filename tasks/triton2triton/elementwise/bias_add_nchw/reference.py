def reference(x, bias, **_):
    return x + bias[None, :, None, None]
