// their HIP, with a PyTorch extension's bindings
