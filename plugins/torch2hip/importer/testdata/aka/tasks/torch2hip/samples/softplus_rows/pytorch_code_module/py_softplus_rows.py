import torch
import torch.nn as nn


class SoftplusRows(nn.Module):
    """Softplus of a matrix, then each row scaled by a learned weight."""

    def __init__(self, rows_hint):
        super().__init__()
        self.rows_hint = rows_hint

    def forward(self, x, w):
        return torch.nn.functional.softplus(x) * w[:, None]


def get_inputs():
    # Several sizes, each its own case.
    for rows, cols in [(256, 1024), (1024, 4096), (4096, 512)]:
        yield [torch.randn(rows, cols), torch.rand(rows)]


def get_init_inputs():
    return [0]
