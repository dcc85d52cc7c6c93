import torch


def get_inputs():
    return [torch.randn(16, 16)]


def get_init_inputs():
    return []
