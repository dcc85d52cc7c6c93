import torch


def reference(img, pts, n, c, h, w, p, **_):
    grid = pts.reshape(n, p, 1, 2)
    out = torch.nn.functional.grid_sample(img, grid, mode="bilinear", padding_mode="zeros",
                                          align_corners=False)
    return out.reshape(n, c, p)
