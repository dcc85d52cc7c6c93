# a Triton kernel and its wrapper
