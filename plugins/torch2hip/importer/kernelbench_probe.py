"""Plans one PyTorch-to-HIP task from a KernelBench problem file.

Run by the importers (importers.cc), sandboxed, as

    python kernelbench_probe.py [--aka] PROBLEM.py

--aka: an AgentKernelArena module file: the nn.Module may have any name,
and get_inputs() may yield several input sets (cases), each its own
configuration.

A problem file defines Model (an nn.Module), get_inputs() and
get_init_inputs(), with its sizes as module-level integer constants. This
script runs the problem on PyTorch's meta device (shapes without data) at
its own sizes and at sizes derived from them, and prints one JSON object:

    {"tasks": [{"suffix": S, "task_yaml": TEXT, "reference_py": TEXT}]}
                                                the task(s), ready to write
                                                (one per rank of the inputs)
    {"refused": REASON}                         what stops the conversion

Sizes: the constants that look like sizes (8 or more, and not a kernel size,
stride, padding, dilation or group count, which define the operation) are
varied; the others stay as written. Tuning: the problem's own sizes and
sizes scaled around them. Held-out: sizes that are not multiples of 8, a
single-row batch, and a few scales the tuning ones do not have. Every
configuration is one the model accepts (checked on the meta device) and
whose tensors fit a budget. Shapes are named after the constant a
dimension equals in every configuration, else after the tensor and the
dimension (a parameter of its own, per configuration).
"""
import ast
import inspect
import json
import operator
import re
import sys

import torch

FIXED = re.compile(r"kernel|stride|pad|dilation|group", re.I)
BYTES_BUDGET = 6 << 30  # per configuration, inputs + outputs + weights
SMALL_NUMEL = 1 << 16
DTYPES = {
    torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
    torch.float64: "float64", torch.int8: "int8", torch.uint8: "uint8", torch.int16: "int16",
    torch.int32: "int32", torch.int64: "int64", torch.bool: "bool",
}
SIZES = {torch.float32: 4, torch.float16: 2, torch.bfloat16: 2, torch.float64: 8, torch.int8: 1,
         torch.uint8: 1, torch.int16: 2, torch.int32: 4, torch.int64: 8, torch.bool: 1}


class Refused(Exception):
    pass


OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}


def evaluate(node):
    """An integer (or a tuple of integers) written with literals and + - * //,
    else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = evaluate(node.operand)
        return -v if isinstance(v, int) else None
    if isinstance(node, ast.BinOp) and type(node.op) in OPS:
        a, b = evaluate(node.left), evaluate(node.right)
        if not isinstance(a, int) or not isinstance(b, int) or (isinstance(node.op, ast.FloorDiv) and b == 0):
            return None
        return OPS[type(node.op)](a, b)
    if isinstance(node, ast.Tuple):
        items = [evaluate(e) for e in node.elts]
        return tuple(items) if items and all(isinstance(i, int) for i in items) else None
    return None


def constants_of(tree):
    """Module-level NAME = <integer or tuple of integers> assignments, in
    order, flattened: a tuple's items are NAME_0, NAME_1, ...; and the tuples'
    lengths."""
    flat, tuples = {}, {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = evaluate(node.value)
            name = node.targets[0].id
            if isinstance(v, int):
                flat[name] = v
            elif isinstance(v, tuple):
                tuples[name] = len(v)
                for i, item in enumerate(v):
                    flat[f"{name}_{i}"] = item
    return flat, tuples


def lift_sizes(source, tree):
    """Sizes written as literals inside get_inputs (8 or more) become
    module-level constants (input_size_K), so that they can vary like the
    others; the rest of the text is kept as written."""
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_inputs"), None)
    if fn is None:
        return source
    sites = [n for n in ast.walk(fn) if isinstance(n, ast.Constant) and type(n.value) is int and n.value >= 8
             and n.lineno == n.end_lineno]
    if not sites:
        return source
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    lines = source.splitlines(keepends=True)
    named, k = [], 0
    for n in sorted(sites, key=lambda n: (n.lineno, n.col_offset)):
        while f"input_size_{k}" in taken:
            k += 1
        named.append((n, f"input_size_{k}"))
        taken.add(f"input_size_{k}")
    defs = [f"{name} = {n.value}\n" for n, name in named]
    for n, name in reversed(named):
        line = lines[n.lineno - 1]
        # col_offset counts UTF-8 bytes.
        raw = line.encode("utf-8")
        lines[n.lineno - 1] = (raw[:n.col_offset] + name.encode() + raw[n.end_col_offset:]).decode("utf-8")
    at = fn.lineno - 1 - len(fn.decorator_list)
    lines[at:at] = defs + ["\n"]
    return "".join(lines)


AKA = False
LABEL = None  # how the task names its source ("KernelBench 19_ReLU" by default)
MODEL_CLASS = "Model"  # the module's class, as the file names it
INIT_PAIR = False  # get_init_inputs() returns [args, {kwargs}]


def load(source, path):
    global MODEL_CLASS
    g = {"__name__": "kernelbench_problem", "__file__": path}
    exec(compile(source, path, "exec"), g)  # noqa: S102 (sandboxed)
    if AKA and "Model" not in g:
        modules = [v for v in g.values() if isinstance(v, type) and issubclass(v, torch.nn.Module) and
                   v.__module__ == "kernelbench_problem"]
        if len(modules) != 1:
            raise Refused(f"{len(modules)} nn.Module classes; which one is the task is not known")
        g["Model"] = modules[0]
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if name not in g:
            raise Refused(f"the file defines no {name}")
    MODEL_CLASS = g["Model"].__name__
    return g


def tensors(values, what):
    out = []
    for i, v in enumerate(values):
        if not isinstance(v, torch.Tensor):
            raise Refused(f"{what}[{i}] is a {type(v).__name__}, not a tensor (a HIP kernel takes tensors)")
        if v.dtype not in DTYPES:
            raise Refused(f"{what}[{i}] has dtype {v.dtype}, which the arena's ABI has no name for")
        out.append(v)
    return out


TUPLES = {}  # tuple constants: name -> length (their items are NAME_i)


def apply(g, config):
    for k, v in config.items():
        g[k] = v
    for name, n in TUPLES.items():
        g[name] = tuple(config[f"{name}_{i}"] for i in range(n))


def is_pair(a):
    return isinstance(a, (list, tuple)) and len(a) == 2 and isinstance(a[0], (list, tuple)) and isinstance(a[1], dict)


def args_kwargs(a):
    """[args, {kwargs}] (a convention of some suites) or plain args."""
    return (list(a[0]), dict(a[1])) if is_pair(a) else (list(a), {})


def make_model(g):
    args, kwargs = args_kwargs(g["get_init_inputs"]())
    return g["Model"](*args, **kwargs)


def input_set(x):
    args, kwargs = args_kwargs(x)
    if kwargs:
        raise Refused("get_inputs passes keyword arguments to forward")
    return args


def input_sets(g):
    """get_inputs()'s input sets: one list, or each set a generator yields."""
    r = g["get_inputs"]()
    if inspect.isgenerator(r):
        return [input_set(x) for x in r]
    return [input_set(r)]


def probe(g, constants, config):
    """Shapes and dtypes of inputs, weights and outputs at `config`, and the
    forward's FLOPs, from the meta device."""
    apply(g, config)
    from torch.utils.flop_counter import FlopCounterMode
    with torch.device("meta"):
        model = make_model(g)
        sets = input_sets(g)
        case = config.get("case", 0)
        if case >= len(sets):
            raise ValueError("fewer input sets at these sizes")
        inputs = tensors(sets[case], "get_inputs()")
        counter = FlopCounterMode(display=False)
        with counter:
            out = model(*inputs)
    outs = tensors(list(out) if isinstance(out, (tuple, list)) else [out], "the output")
    # The module's state, as the kernel's inputs; integer scalars (a batch
    # norm's num_batches_tracked) play no part in a forward pass.
    weights = [(k, v) for k, v in model.state_dict().items()
               if isinstance(v, torch.Tensor) and not (v.dim() == 0 and not v.is_floating_point())]
    for k, v in weights:
        if v.dtype not in DTYPES:
            raise Refused(f"weight {k} has dtype {v.dtype}")
        if v.dim() == 0:
            raise Refused(f"weight {k} is a scalar tensor, which the interface cannot declare")
    total = sum(t.numel() * SIZES[t.dtype] for t in inputs + outs + [w for _, w in weights])
    return {"inputs": inputs, "outputs": outs, "weights": weights, "bytes": total,
            "flops": int(counter.get_total_flops())}


def varied_names(constants):
    return [k for k, v in constants.items() if v >= 8 and not FIXED.search(k)]


def scaled(constants, names, f, odd=False):
    """The constants with `names` scaled by f. Held-out (`odd`): each name
    by a slightly different factor (sizes written equal then differ, as a
    height and a width), and odd: never a multiple of 8."""
    c = dict(constants)
    for j, k in enumerate(names):
        v = max(1, int(round(constants[k] * f * (1.0 + 0.09 * (j % 4) if odd else 1.0))))
        if odd and v > 2 and v % 2 == 0:
            v += 1
        c[k] = v
    return c


def shapes_of(p):
    return tuple(tuple(t.shape) for t in p["inputs"] + p["outputs"] + [w for _, w in p["weights"]])


def try_config(g, constants, config, budget, seen, unlike=()):
    """The probe of `config` if the model accepts it within the budget, it
    is new, and (held-out) its tensors' shapes are none of `unlike`'s."""
    key = tuple(sorted(config.items()))
    if key in seen:
        return None
    seen.add(key)
    try:
        p = probe(g, constants, config)
    except Refused:
        raise
    except Exception:  # noqa: BLE001 (a size the model does not accept)
        return None
    if any(shapes_of(p) == shapes_of(q) for _, q in unlike):
        return None
    return p if p["bytes"] <= budget else None


def plan(path):
    global INIT_PAIR
    source = open(path, encoding="utf-8").read()
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        raise Refused(f"not Python: {e}") from None
    source = lift_sizes(source, tree)
    tree = ast.parse(source)
    constants, tuples = constants_of(tree)
    TUPLES.clear()
    TUPLES.update(tuples)
    g = load(source, path)
    try:
        base = probe(g, constants, constants)
        with torch.device("meta"):
            INIT_PAIR = is_pair(g["get_init_inputs"]())
    except Refused:
        raise
    except Exception as e:  # noqa: BLE001
        raise Refused(f"does not run on PyTorch's meta device: {type(e).__name__}: {e}") from None
    names = varied_names(constants)
    if not names:
        raise Refused("no module-level size constant to vary (sizes must be NAME = integer)")
    with torch.device("meta"):
        sets = input_sets(g)
    if len(sets) > 1:
        # Cases whose tensors have other ranks (1-D to 4-D inputs of one
        # activation, say) are tasks of their own: an interface has one rank.
        groups = {}
        for k, inputs in enumerate(sets):
            groups.setdefault(tuple(t.dim() if isinstance(t, torch.Tensor) else -1 for t in inputs), []).append(k)
        plans, refusals = [], []
        for ranks, cases in groups.items():
            suffix = "" if len(groups) == 1 else "_" + "_".join(f"{r}d" for r in ranks)
            try:
                small, probes = plan_cases(g, constants, names, base, cases)
                plans.append((suffix, source, constants, names, small, probes))
            except Refused as e:
                refusals.append(f"{suffix.lstrip('_')}: {e}" if suffix else str(e))
        if not plans:
            raise Refused("; ".join(refusals))
        return plans
    budget = max(BYTES_BUDGET, base["bytes"])
    seen = set()
    probes = {}

    def add(kind, config):
        if config == constants:
            p = base if kind == "tuning" else None
            seen.add(tuple(sorted(config.items())))
        else:
            unlike = probes.get("tuning", []) if kind == "heldout" else ()
            p = try_config(g, constants, config, budget, seen, unlike)
        if p is not None:
            probes.setdefault(kind, []).append((config, p))

    add("tuning", constants)
    for f in (0.5, 2.0, 0.25, 0.75, 1.5, 0.125):
        if len(probes.get("tuning", [])) >= 5:
            break
        add("tuning", scaled(constants, names, f))
    heldout = [scaled(constants, names, f, odd=True) for f in (0.37, 1.13, 0.61, 0.09, 1.41, 0.23)]
    one = dict(scaled(constants, names, 0.81, odd=True))
    one[names[0]] = 1
    heldout.insert(1, one)
    # Where odd sizes break a rule of the model (channels that a group count
    # must divide, say), sizes at scales the tuning ones do not have.
    heldout += [scaled(constants, names, f) for f in (0.625, 1.25, 0.375, 0.875, 0.1875)]
    for config in heldout:
        if len(probes.get("heldout", [])) >= 5:
            break
        add("heldout", config)
    if not probes.get("tuning") or not probes.get("heldout"):
        raise Refused("no held-out sizes the model accepts within the memory budget")
    small = checked_small(g, constants, names, {})
    return [("", source, constants, names, small, probes)]


def plan_cases(g, constants, names, base, cases):
    """Sizes as input sets (an AgentKernelArena module yields several): each
    set (of those in `cases`) at its own sizes is a tuning configuration;
    held-out ones are each set at sizes scaled to differ (odd where the model
    accepts it)."""
    budget = max(BYTES_BUDGET, base["bytes"])
    seen = set()
    probes = {"tuning": [], "heldout": []}
    for k in cases:
        config = dict(constants, case=k)
        p = try_config(g, constants, config, max(budget, 4 * base["bytes"]), seen)
        if p is not None:
            probes["tuning"].append((config, p))
    factors = (0.37, 0.61, 1.13, 0.23, 0.81, 0.09)
    for k in cases:
        for f in factors[k % len(factors):] + factors[:k % len(factors)]:
            found = None
            for odd in (True, False):
                config = dict(scaled(constants, names, f, odd=odd), case=k)
                found = try_config(g, constants, config, budget, seen, probes["tuning"])
                if found is not None:
                    probes["heldout"].append((config, found))
                    break
            if found is not None:
                break
    probes["tuning"] = probes["tuning"][:8]
    probes["heldout"] = probes["heldout"][:8]
    if not probes["tuning"] or not probes["heldout"]:
        raise Refused("no held-out sizes the model accepts within the memory budget")
    return checked_small(g, constants, names, {"case": cases[0]}), probes


def small_config(g, constants, names, extra):
    """The sizes capped at 8, 4, 2 or 1, the first whose tensors are small
    enough for checks on a CPU and that the model accepts, with its probe;
    None if none is."""
    for s in (8, 4, 2, 1):
        config = dict(constants, **extra)
        for k in names:
            config[k] = max(1, min(constants[k], s))
        try:
            p = probe(g, constants, config)
        except Exception:  # noqa: BLE001
            continue
        if max(t.numel() for t in p["inputs"] + p["outputs"]) <= SMALL_NUMEL:
            return config, p
    return None


def checked_small(g, constants, names, extra):
    """small_config's, which must exist and run on the CPU."""
    small = small_config(g, constants, names, extra)
    if small is None:
        raise Refused("no small configuration (for checks on a CPU) the model accepts")
    run_small_on_cpu(g, small[0])
    return small


def run_small_on_cpu(g, config):
    """The small configuration really runs on the CPU, in float64 as the
    reference does."""
    apply(g, config)
    try:
        torch.manual_seed(0)
        model = make_model(g).double()
        args = [x.double() if x.is_floating_point() else x for x in input_sets(g)[config.get("case", 0)]]
        model(*args)
    except Exception as e:  # noqa: BLE001
        raise Refused(f"the small configuration does not run on the CPU: {type(e).__name__}: {e}") from None


def identifier(s):
    s = re.sub(r"[^0-9a-zA-Z_]", "_", s).strip("_").lower()
    return s if s and not s[0].isdigit() else "t_" + s


def render(path, source, constants, names, small, probes):
    g_forward = None
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == MODEL_CLASS:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "forward":
                    g_forward = [a.arg for a in item.args.args[1:]]
            break
    base = probes["tuning"][0][1]
    # Names: the forward's arguments, the weights, the outputs.
    used = set()

    def unique(n):
        n = identifier(n)
        while n in used:
            n += "_"
        used.add(n)
        return n

    in_names = [unique(g_forward[i] if g_forward and i < len(g_forward) else f"x{i}")
                for i in range(len(base["inputs"]))]
    w_names = [unique("w_" + k.replace(".", "_")) for k, _ in base["weights"]]
    out_names = [unique("out" if len(base["outputs"]) == 1 else f"out{i}") for i in range(len(base["outputs"]))]
    every = [("small", small[0], small[1])] + [(k, c, p) for k in ("tuning", "heldout") for c, p in probes[k]]

    def tensors_of(p):
        return p["inputs"] + [w for _, w in p["weights"]] + p["outputs"]

    all_names = in_names + w_names + out_names
    # Each dimension: a constant it always equals, else a parameter of its own.
    shapes, derived = [], {}
    for t_index, tname in enumerate(all_names):
        dims = []
        if tensors_of(base)[t_index].dim() == 0:
            shapes.append(["1"])  # a scalar is declared with shape [1]
            continue
        for d in range(tensors_of(base)[t_index].dim()):
            values = [tensors_of(p)[t_index].shape[d] for _, _, p in every]
            named = [k for k in constants
                     if all(c[k] == v for (_, c, _), v in zip(every, values))]
            named = [k for k in named if k in names] or named
            if named:
                dims.append(named[0])
            elif len(set(values)) == 1:
                dims.append(str(values[0]))
            else:
                pname = f"{tname}_d{d}"
                derived[pname] = values
                dims.append(pname)
        shapes.append(dims)
    for _, _, p in every:
        if [t.dim() for t in tensors_of(p)] != [t.dim() for t in tensors_of(base)]:
            raise Refused("a tensor's rank changes with the sizes")
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    label = LABEL or f"KernelBench {stem}"
    desc = (inspect.cleandoc(ast.get_docstring(tree) or "") or
            next((ast.get_docstring(n) for n in tree.body
                  if isinstance(n, ast.ClassDef) and n.name == MODEL_CLASS), None) or label)
    desc = " ".join(desc.split())
    if len(desc) > 300:
        desc = desc[:297] + "..."

    def q(s):
        return json.dumps(s)

    names_used = set()

    def name_of(kind, c, p):
        shape = "x".join(str(d) for d in (p["inputs"][0].shape if p["inputs"] else ())) or "scalar"
        name = f"{kind}_" + (f"case{c['case']}_" if "case" in c else "") + shape
        base, n = name, 2
        while name in names_used:
            name, n = f"{base}_{n}", n + 1
        names_used.add(name)
        return name

    def params_of(i, c, p, kind=None):
        out = {"name": name_of(kind, c, p)} if kind else {}
        out.update({k: c[k] for k in constants})
        if "case" in c:
            out["case"] = c["case"]
        for pname, values in derived.items():
            out[pname] = values[i]
        out["bytes_moved"] = p["bytes"]
        out["flops_done"] = p["flops"]
        return "{" + ", ".join(f"{k}: {v}" for k, v in out.items()) + "}"

    lines = ["family: torch2hip",
             f"description: {q(label + ': ' + desc)}",
             "files:", "  editable: [kernel.hip]", "  harness: [reference.py]", "  starter: false",
             "interface:", "  inputs:"]
    base_t = tensors_of(base)
    for i, n in enumerate(in_names + w_names):
        lines.append(f"    - {{name: {n}, dtype: {DTYPES[base_t[i].dtype]}, shape: [{', '.join(shapes[i])}]}}")
    lines.append("  outputs:")
    k0 = len(in_names) + len(w_names)
    for j, n in enumerate(out_names):
        t = base_t[k0 + j]
        lines.append(f"    - {{name: {n}, dtype: {DTYPES[t.dtype]}, shape: [{', '.join(shapes[k0 + j])}]}}")
    lines.append("configs:")
    lines.append(f"  small: {params_of(0, small[0], small[1])}")
    i = 1
    for kind in ("tuning", "heldout"):
        lines.append(f"  {kind}:")
        for c, p in probes[kind]:
            lines.append(f"    - {params_of(i, c, p, kind)}")
            i += 1
    out_dtypes = sorted({DTYPES[t.dtype] for t in base["outputs"]})
    lines.append("tolerances:")
    lines.append("  # KernelBench's own: 1e-2 absolute and relative.")
    for dt in out_dtypes:
        lines.append(f"  {dt}: {{atol: 1.0e-2, rtol: 1.0e-2}}")
    lines += ["cost:",
              "  # Every tensor read or written once; the forward's FLOPs as PyTorch's",
              "  # counter counts them (products and convolutions; elementwise work is 0).",
              "  bytes: bytes_moved", "  flops: flops_done",
              "instructions: |",
              f"  Write kernel.hip from scratch: `arena_run` computes {MODEL_CLASS}.forward of",
              f"  reference.py ({label}) as a HIP translation unit",
              "  behind the C ABI of arena_hip.h, faster than PyTorch eager.",
              "  Inputs, in order: " + ", ".join(in_names + w_names) + ".",
              "  Outputs: " + ", ".join(out_names) + ". All tensors are contiguous and row-major;",
              "  the weights are the module's own (state_dict) tensors. Sizes vary between",
              "  configurations (see configs.json); some held-out ones are not multiples of",
              "  anything. Launch all work on the given stream; portable HIP only.",
              "torch2hip:", "  reference: reference.py"]
    if w_names:
        lines.append("  parameters:")
        for n, (k, _) in zip(w_names, base["weights"]):
            lines.append(f"    {n}: {k}")
    else:
        lines.append("  parameters: {}")
    yaml = "\n".join(lines) + "\n"
    ref = (f'"""{label}, as the arena imported it.\n\n'
           "The problem's code follows as written (sizes written inside get_inputs\n"
           "lifted into module constants, input_size_K); the adapter at the end gives it the\n"
           "arena's reference contract (get_init_inputs(config), get_inputs(config,\n"
           'generator)): the configuration sets the module\'s size constants.\n"""\n' + source.rstrip() +
           "\n\n\n# The arena's adapter.\n"
           "import torch as _arena_torch\n\n"
           + ("" if MODEL_CLASS == "Model" else f"Model = {MODEL_CLASS}\n") +
           f"_ARENA_CONSTANTS = {tuple(k for k in constants if not any(k.startswith(t + '_') for t in TUPLES))!r}\n"
           f"_ARENA_TUPLES = {dict(TUPLES)!r}\n"
           "_arena_get_init_inputs = get_init_inputs\n"
           "_arena_get_inputs = get_inputs\n\n\n"
           "def _arena_apply(config):\n"
           "    for name in _ARENA_CONSTANTS:\n"
           "        if name in config:\n"
           "            globals()[name] = int(config[name])\n"
           "    for name, n in _ARENA_TUPLES.items():\n"
           "        globals()[name] = tuple(int(config[f'{name}_{i}']) for i in range(n))\n\n\n"
           "def _arena_args(a):  # [args, {kwargs}] or plain args\n"
           "    if (isinstance(a, (list, tuple)) and len(a) == 2 and isinstance(a[0], (list, tuple))\n"
           "            and isinstance(a[1], dict)):\n"
           "        return list(a[0]), dict(a[1])\n"
           "    return list(a), {}\n\n\n"
           + ("_arena_init = Model.__init__\n\n\n"
              "def get_init_inputs(config):  # noqa: F811 (keyword arguments reach Model's __init__)\n"
              "    import functools\n"
              "    _arena_apply(config)\n"
              "    args, kwargs = _arena_args(_arena_get_init_inputs())\n"
              "    Model.__init__ = functools.partialmethod(_arena_init, **kwargs) if kwargs else _arena_init\n"
              "    return args\n\n\n"
              if INIT_PAIR else
              "def get_init_inputs(config):  # noqa: F811\n"
              "    _arena_apply(config)\n"
              "    return list(_arena_get_init_inputs())\n\n\n") +
           "def get_inputs(config, generator):  # noqa: F811\n"
           "    _arena_apply(config)\n"
           "    seed = int(_arena_torch.randint(0, 2**62, (1,), generator=generator))\n"
           "    with _arena_torch.random.fork_rng(devices=[]):\n"
           "        _arena_torch.manual_seed(seed)\n"
           "        sets = _arena_get_inputs()\n"
           "        if not isinstance(sets, (list, tuple)):  # one input set per case\n"
           "            for _ in range(int(config.get('case', 0))):\n"
           "                next(sets)\n"
           "            sets = next(sets)\n"
           "        return _arena_args(sets)[0]\n")
    return yaml, ref


def main():
    global AKA, LABEL
    args = sys.argv[1:]
    AKA = "--aka" in args
    for a in args:
        if a.startswith("--label="):
            LABEL = a[len("--label="):]
    path = [a for a in args if not a.startswith("--")][0]
    try:
        tasks = []
        for suffix, source, constants, names, small, probes in plan(path):
            yaml, ref = render(path, source, constants, names, small, probes)
            tasks.append({"suffix": suffix, "task_yaml": yaml, "reference_py": ref})
        print(json.dumps({"tasks": tasks}))
    except Refused as e:
        print(json.dumps({"refused": str(e)}))
    except Exception as e:  # noqa: BLE001 (the problem's own code failed)
        print(json.dumps({"refused": f"{type(e).__name__}: {e}"}))


if __name__ == "__main__":
    main()
