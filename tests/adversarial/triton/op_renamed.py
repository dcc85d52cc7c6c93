# class: library ops made to look free to the guard: the schema torch
# gives each op (the name the guard reads) replaced on the op's Python
# object by a free op's (an instance's attribute, set with no audited
# event), so that gelu, its casts and its copy read as views
# expect: library compute|tampering

import torch

_OPS = ("gelu.default", "_to_copy.default", "copy_.default")


def run(x, y, n, **_):
    gelu(x, y, 0)  # a Triton launch, for show
    view = torch.ops.aten.view.default._schema
    ops = []
    for name in _OPS:
        packet, _, overload = name.partition(".")
        op = getattr(getattr(torch.ops.aten, packet), overload)
        ops.append((op, vars(op).get("_schema")))
        vars(op)["_schema"] = view
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        for op, schema in ops:
            vars(op)["_schema"] = schema
