def reference(p, new, decay, **_):
    return {"p": decay * p + (1.0 - decay) * new}
