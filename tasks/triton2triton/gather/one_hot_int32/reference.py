import torch


def reference(labels, n, classes, **_):
    return torch.nn.functional.one_hot(labels, num_classes=classes).to(torch.float16)
