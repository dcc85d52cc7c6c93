# class: host compute (numpy on the data, no kernel)
# expect: host compute|no Triton kernel

import numpy as np


def run(x, y, n, **_):
    a = x.numpy().astype(np.float32)
    y.numpy()[:] = (0.5 * a * (1 + np.tanh(0.7978845608 * (a + 0.044715 * a ** 3)))).astype(np.float16)
