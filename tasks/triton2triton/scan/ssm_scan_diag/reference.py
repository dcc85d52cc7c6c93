import math

import torch

_CHUNK = 64


def make_inputs(params, generator, device):
    batch, seq, dim = int(params["batch"]), int(params["seq"]), int(params["dim"])
    shape = (batch, seq, dim)
    # a = exp(-delta) with delta log-uniform in [1e-3, 2] (as exp(dt * A) in
    # a selective SSM): decays from about 0.135 to 0.999, memories from one
    # step to about a thousand. b ~ N(0, 1 - a^2): the state is stationary
    # with unit variance, so one absolute tolerance fits every channel.
    delta = torch.exp(torch.empty(shape, device=device).uniform_(
        math.log(1e-3), math.log(2.0), generator=generator))
    a = torch.exp(-delta)
    b = torch.randn(shape, generator=generator, device=device) * torch.sqrt(1.0 - a * a)
    return {"a": a, "b": b}


def reference(a, b, **_):
    # h_t = a_t * h_{t-1} + b_t, h_{-1} = 0, chunk by chunk along seq. In a
    # chunk with cumulative products P_t = a_s * ... * a_t (s its start),
    # h_t = P_t * (h_{s-1} + sum_{s<=u<=t} b_u / P_u); with a >= e^-2 and 64
    # steps, P stays above 1e-56, well inside the float64 range.
    h = torch.empty_like(a)
    carry = torch.zeros_like(a[:, 0])
    for s in range(0, a.shape[1], _CHUNK):
        p = torch.cumprod(a[:, s:s + _CHUNK], dim=1)
        hc = p * (carry[:, None] + torch.cumsum(b[:, s:s + _CHUNK] / p, dim=1))
        h[:, s:s + _CHUNK] = hc
        carry = hc[:, -1]
    return h
