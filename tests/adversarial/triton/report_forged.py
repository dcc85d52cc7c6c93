# class: the launch observer's reports made by the subject, for the rest
# of the runner's life: a take of its own written into the observer's own
# attributes (reached through the runner's frame), which come before its
# class's; its reports say nothing was launched but the subject's Triton
# kernels, while torch computes the outputs with the runner's flag down.
# Reports reach the judge signed under a key only the real observer holds.
# expect: tampering|library compute


class _Quiet:
    description = "cupti"

    def __init__(self, real):
        self.real, self.taken = real, 0

    def watch(self, mode):
        pass

    def allowed(self, on):
        pass

    def key(self, fd):
        self.real.key(fd)

    def take(self, state):
        self.taken += 1
        state["handles"], state["fills"] = set(), 0
        return {"report": f"arena-launches 1\nseq {self.taken}\noff 0\nmore 0\nmac none\n",
                "handles": [], "fills": 0, "kernels": [], "triton": [], "takes": self.taken}


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    observer = runner_local("observer")
    if "take" not in vars(observer):
        vars(observer)["take"] = _Quiet(observer).take
    torch_gelu_with_the_flag_down(x, y)
