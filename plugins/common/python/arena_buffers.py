"""Memory the judge owns and lends to a sandboxed runner.

The judge allocates every input and output a subject's code touches; the
runner maps the same memory and hands it to the code under test. The judge
then reads what really sits in its own memory: whatever the runner's process
says or re-points, the verdict is taken from these bytes.

- CPU: one anonymous memory file per buffer (memfd), sealed at its size
  (the runner can neither shrink it, which would fault the judge's reads,
  nor grow it), passed over the runner's unix socket and mapped shared on
  both sides. The runner gets no writable folder of the host.
- CUDA: virtual-memory-management allocations exported as POSIX file
  descriptors, passed over the runner's unix socket (SCM_RIGHTS) and mapped
  there. Legacy CUDA IPC handles cannot cross the sandbox's PID namespace;
  descriptors can.

    pool = BufferPool("cuda")                    # judge
    buf = pool.allocate(1 << 20)                 # buf.tensor: uint8 on the device
    desc, fds = pool.describe(buf)               # sent to the runner
    view = MappedBuffer.open(desc, fds, "cuda")  # runner

Public API: BufferPool (the judge's side), MappedBuffer (the runner's),
Buffer (one allocation and its views), CudaVmm (the driver calls), GraphChain
(the driver calls that chain graphs captured one call each), pin_descriptor
(the runner's socket to the judge, the way memory is lent and everything
else said, kept for good).
"""

import ctypes
import fcntl
import mmap
import os
import uuid

import torch

_ALIGN = 256
# Lent device memory comes in allocations of this size (BufferPool).
LEND_PIECE_BYTES = 16 << 20
# The most pieces one lent buffer may come in (the descriptors a bind
# sends: arena_judge sends them in batches the runner takes).
_MAX_PIECES = 4096


def _round_up(n, m):
    return (n + m - 1) // m * m


class _CudaArray:
    """A device pointer with __cuda_array_interface__, for torch.as_tensor."""

    def __init__(self, ptr, nbytes):
        self.__cuda_array_interface__ = {
            "shape": (nbytes,), "typestr": "|u1", "data": (ptr, False),
            "version": 2, "strides": None}


class _Prop(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("handle_types", ctypes.c_int),
                ("loc_type", ctypes.c_int), ("loc_id", ctypes.c_int),
                ("win32", ctypes.c_void_p), ("flags", ctypes.c_ubyte * 8)]


class _Access(ctypes.Structure):
    _fields_ = [("loc_type", ctypes.c_int), ("loc_id", ctypes.c_int),
                ("flags", ctypes.c_int)]


class _DriverCalls:
    """The CUDA driver's library, and its calls checked."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")

    def _check(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc != 0:
            raise RuntimeError(f"{name} failed with CUDA error {rc}")

    def _call(self, name, *args):
        """A call whose failure changes nothing (undoing on the way out of
        another failure)."""
        return getattr(self.lib, name)(*args)


class CudaVmm(_DriverCalls):
    """The few driver calls that share device memory by file descriptor."""

    _POSIX_FD = 1
    _PINNED = 1
    _DEVICE = 1
    _READ_WRITE = 3

    def __init__(self, device=0):
        super().__init__()
        self.device = device
        self.prop = _Prop(self._PINNED, self._POSIX_FD, self._DEVICE, device, None,
                          (ctypes.c_ubyte * 8)())
        self.access = _Access(self._DEVICE, device, self._READ_WRITE)
        gran = ctypes.c_size_t()
        self._check("cuMemGetAllocationGranularity", ctypes.byref(gran), ctypes.byref(self.prop),
                    ctypes.c_int(0))
        self.granularity = gran.value

    def _map(self, handles, piece, size):
        """Maps HANDLES (PIECE bytes each) one after another at one new
        address, read-write for this device; returns the address."""
        ptr = ctypes.c_uint64()
        self._check("cuMemAddressReserve", ctypes.byref(ptr), ctypes.c_size_t(size),
                    ctypes.c_size_t(0), ctypes.c_uint64(0), ctypes.c_uint64(0))
        mapped = 0
        try:
            for handle in handles:
                self._check("cuMemMap", ctypes.c_uint64(ptr.value + mapped * piece), ctypes.c_size_t(piece),
                            ctypes.c_size_t(0), ctypes.c_uint64(handle), ctypes.c_uint64(0))
                mapped += 1
            self._check("cuMemSetAccess", ptr, ctypes.c_size_t(size), ctypes.byref(self.access),
                        ctypes.c_size_t(1))
        except BaseException:
            self._unmap(ptr.value, piece, mapped, size, self._call)
            raise
        return ptr.value

    def _unmap(self, ptr, piece, mapped, size, call):
        """Unmaps the first MAPPED pieces (PIECE bytes each) at PTR and frees
        the SIZE bytes reserved there, each driver call made by CALL
        (_check, or _call on the way out of another failure)."""
        for i in range(mapped):
            call("cuMemUnmap", ctypes.c_uint64(ptr + i * piece), ctypes.c_size_t(piece))
        call("cuMemAddressFree", ctypes.c_uint64(ptr), ctypes.c_size_t(size))

    def layout(self, nbytes, piece=0):
        """(piece, count): NBYTES as COUNT allocations of PIECE bytes each
        (PIECE rounded to the granularity; 0: one allocation)."""
        size = _round_up(max(int(nbytes), 1), self.granularity)
        piece = size if piece <= 0 else min(size, _round_up(int(piece), self.granularity))
        return piece, -(-size // piece)

    def create(self, nbytes, piece=0):
        """(handles, piece, address): at least NBYTES of device memory, made
        of allocations of PIECE bytes (layout), mapped in that order at one
        address."""
        return self.create_together(nbytes, piece, 1)[0]

    def create_together(self, nbytes, piece=0, ways=1):
        """WAYS of what create(NBYTES, PIECE) makes, their pieces allocated in
        turns: the k-th piece of each before the (k+1)-th of any, in their
        order or, where k has an odd number of ones (the Thue-Morse
        sequence), the other; so each lies in device memory as the others
        do (turn_reversed)."""
        piece, count = self.layout(nbytes, piece)
        handles = [[] for _ in range(ways)]
        made = []
        try:
            for k in range(count):
                for way in (handles[::-1] if turn_reversed(k) else handles):
                    handle = ctypes.c_uint64()
                    self._check("cuMemCreate", ctypes.byref(handle), ctypes.c_size_t(piece),
                                ctypes.byref(self.prop), ctypes.c_uint64(0))
                    way.append(handle.value)
            for way in handles:
                made.append((way, piece, self._map(way, piece, piece * count)))
            return made
        except BaseException:
            for _, _, ptr in made:
                self._unmap(ptr, piece, count, piece * count, self._call)
            for way in handles:
                for handle in way:
                    self._call("cuMemRelease", ctypes.c_uint64(handle))
            raise

    def export(self, handle):
        fd = ctypes.c_int(-1)
        self._check("cuMemExportToShareableHandle", ctypes.byref(fd), ctypes.c_uint64(handle),
                    ctypes.c_int(self._POSIX_FD), ctypes.c_uint64(0))
        return fd.value

    def import_fds(self, fds, piece):
        """(handles, address): the allocations FDS name (PIECE bytes each),
        mapped in that order at one address."""
        handles = []
        try:
            for fd in fds:
                handle = ctypes.c_uint64()
                self._check("cuMemImportFromShareableHandle", ctypes.byref(handle),
                            ctypes.c_void_p(fd), ctypes.c_int(self._POSIX_FD))
                handles.append(handle.value)
            return handles, self._map(handles, piece, piece * len(handles))
        except BaseException:
            for handle in handles:
                self._call("cuMemRelease", ctypes.c_uint64(handle))
            raise

    def release(self, handles, ptr, piece):
        self._unmap(ptr, piece, len(handles), piece * len(handles), self._check)
        for handle in handles:
            self._check("cuMemRelease", ctypes.c_uint64(handle))


class _MemsetParams(ctypes.Structure):  # CUDA_MEMSET_NODE_PARAMS
    _fields_ = [("dst", ctypes.c_uint64), ("pitch", ctypes.c_size_t), ("value", ctypes.c_uint),
                ("elementSize", ctypes.c_uint), ("width", ctypes.c_size_t), ("height", ctypes.c_size_t)]


class GraphChain(_DriverCalls):
    """The driver calls that chain CUDA graphs, one captured per call, into
    one graph (each a child graph node after the one before), instantiate
    it and launch it. Every round replays a chain of the first calls (its
    end marked in memory the judge reads), then a chain of the rest; where
    the judge witnesses the first calls' outputs, the second waits for it
    (arena_runner's capture and replay)."""

    def chain(self, graphs, marker=0):
        """An executable graph of GRAPHS (CUgraph handles, as ints), in order;
        with MARKER (a device address), the 4-byte word there set to 1 once
        they have all run."""
        graph, exe = ctypes.c_void_p(), ctypes.c_void_p()
        self._check("cuGraphCreate", ctypes.byref(graph), ctypes.c_uint(0))

        def after(last):
            """A node's dependencies: the node before it, if any."""
            if last is None:
                return None, ctypes.c_size_t(0)
            return (ctypes.c_void_p * 1)(last), ctypes.c_size_t(1)
        try:
            last = None
            for child in graphs:
                node = ctypes.c_void_p()
                self._check("cuGraphAddChildGraphNode", ctypes.byref(node), graph, *after(last),
                            ctypes.c_void_p(child))
                last = node.value
            if marker:
                context, node = ctypes.c_void_p(), ctypes.c_void_p()
                self._check("cuCtxGetCurrent", ctypes.byref(context))
                params = _MemsetParams(marker, 4, 1, 4, 1, 1)
                self._check("cuGraphAddMemsetNode", ctypes.byref(node), graph, *after(last), ctypes.byref(params),
                            context)
            self._check("cuGraphInstantiateWithFlags", ctypes.byref(exe), graph, ctypes.c_ulonglong(0))
        finally:
            self.lib.cuGraphDestroy(graph)
        return exe.value

    def launch(self, exe, stream):
        self._check("cuGraphLaunch", ctypes.c_void_p(exe), ctypes.c_void_p(stream))

    def destroy(self, exe):
        if exe:
            self.lib.cuGraphExecDestroy(ctypes.c_void_p(exe))


class Buffer:
    """One allocation: `tensor` is a flat uint8 view of it."""

    def __init__(self, key, nbytes, tensor, release, size=None, handle=None):
        self.key = key
        self.nbytes = nbytes  # usable bytes
        self.size = nbytes if size is None else size  # allocated bytes (CUDA granularity)
        self.handle = handle  # the CUDA allocation's handle, or the memory file (CPU)
        self.tensor = tensor
        self._release = release
        self._typed = {}  # dtype: (the buffer's whole length as that dtype, its storage offset)

    def view(self, dtype, shape, offset=0):
        """The contiguous tensor of DTYPE and SHAPE at byte OFFSET (a
        multiple of the dtype's size): one op on a typed view of the whole
        buffer, kept per dtype (a set's views are made by the thousand, and
        each op costs its share under a dispatch mode)."""
        shape = [int(d) for d in shape]
        numel = 1
        for d in shape:
            numel *= d
        itemsize = dtype.itemsize
        size = numel * itemsize
        if offset < 0 or offset + size > self.nbytes or offset % itemsize:
            raise ValueError("a view outside its buffer")
        if numel == 0:
            return self.tensor[offset:offset].view(dtype).view(shape)
        typed = self._typed.get(dtype)
        if typed is None:
            whole = self.nbytes - self.nbytes % itemsize
            view = self.tensor[:whole].view(dtype)
            typed = self._typed[dtype] = (view, view.storage_offset())  # (as_strided's is absolute)
        strides, step = [], 1
        for d in reversed(shape):
            strides.append(step)
            step *= max(d, 1)
        return typed[0].as_strided(shape, strides[::-1], typed[1] + offset // itemsize)

    def free(self):
        if self._release is not None:
            self.tensor = None
            self._typed = {}
            self._release()
            self._release = None


def turn_reversed(k):
    """Whether the k-th pieces of buffers made together are made last one
    first (Vmm::TurnReversed, the HIP judge's): where k has an odd number
    of ones. Made always first, one buffer's pieces would hold the same
    value of every address bit above a piece's, given where the allocations
    start, and its partner's the other; in these turns each holds about as
    many of either value of any bit, or of any parity of a few bits."""
    return bin(k).count("1") % 2 == 1


class BufferPool:
    """The judge's allocator of lent memory."""

    def __init__(self, device, piece_bytes=None):
        self.device = device
        self.vmm = CudaVmm() if device == "cuda" else None
        # Device memory lent as allocations of this size, mapped one after
        # another (0: one allocation a buffer). Where a large allocation
        # lies moves a memory-bound kernel's time by up to 7% on an H100,
        # the same for every call on it (tools/gpu/vmm_placement_probe.py):
        # two subjects' memory made of 16 MiB pieces allocated in turns
        # (allocate_together) brought that within 1.6% there; made apart,
        # not (docs/results/native-guard-h100-2026-12-06/).
        # ARENA_LEND_PIECE_BYTES sets another size (0: one allocation).
        if piece_bytes is None:
            piece_bytes = int(os.environ.get("ARENA_LEND_PIECE_BYTES", str(LEND_PIECE_BYTES)) or 0)
        self.piece_bytes = max(0, int(piece_bytes))

    def allocate(self, nbytes):
        return self.allocate_together(nbytes, 1)[0]

    def allocate_together(self, nbytes, ways):
        """WAYS buffers of NBYTES each (one per subject of a round): on a
        device, lent in pieces, theirs allocated in turns (turn_reversed's),
        so that each lies in device memory as the others do."""
        if self.vmm is None:
            return [self._allocate_file(nbytes) for _ in range(ways)]
        nbytes = _round_up(max(int(nbytes), 1), _ALIGN)
        buffers = []
        for handles, piece, ptr in self.vmm.create_together(nbytes, self.piece_bytes, ways):
            buffers.append(self._device_buffer(nbytes, handles, piece, ptr))
        return buffers

    def _allocate_file(self, nbytes):
        nbytes = _round_up(max(int(nbytes), 1), _ALIGN)
        key = uuid.uuid4().hex
        fd = os.memfd_create("arena-" + key, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        os.ftruncate(fd, nbytes)
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS,
                    fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
        tensor = torch.frombuffer(mmap.mmap(fd, nbytes), dtype=torch.uint8)

        def release(fd=fd):
            os.close(fd)  # the mapping goes with the last view of it
        return Buffer(key, nbytes, tensor, release, handle=fd)

    def _device_buffer(self, nbytes, handles, piece, ptr):
        key = uuid.uuid4().hex
        size = piece * len(handles)
        holder = _CudaArray(ptr, size)
        tensor = torch.as_tensor(holder, device="cuda")
        vmm = self.vmm

        def release(handles=handles, ptr=ptr, piece=piece):
            torch.cuda.synchronize()
            vmm.release(handles, ptr, piece)
        buf = Buffer(key, nbytes, tensor, release, size, handles)
        buf.piece = piece
        return buf

    def describe(self, buf):
        """(descriptor, file descriptors to send with it) for the runner:
        one for a memory file, one for each of a device buffer's pieces."""
        if self.vmm is None:
            return {"kind": "memfd", "nbytes": buf.nbytes}, [os.dup(buf.handle)]
        fds = []
        try:
            for handle in buf.handle:
                fds.append(self.vmm.export(handle))
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        return {"kind": "vmm", "size": buf.size, "nbytes": buf.nbytes, "piece": buf.piece,
                "pieces": len(fds)}, fds


class MappedBuffer:
    """The runner's side: lent memory, mapped."""

    _vmm = None

    @classmethod
    def prepare(cls):
        """Loads the driver for CUDA buffers now rather than at first use."""
        if cls._vmm is None:
            cls._vmm = CudaVmm()

    @staticmethod
    def descriptors(desc):
        """How many file descriptors come with the buffer DESC describes."""
        pieces = desc.get("pieces", 1) if desc.get("kind") == "vmm" else 1
        if type(pieces) is not int or not 1 <= pieces <= _MAX_PIECES:
            raise ValueError("bad buffer descriptor")
        return pieces

    @classmethod
    def open(cls, desc, fds, device):
        if len(fds) != cls.descriptors(desc):
            raise ValueError("bad buffer descriptor")
        if desc["kind"] == "memfd":
            nbytes = int(desc["nbytes"])
            mapping = mmap.mmap(fds[0], nbytes)
            os.close(fds[0])
            return Buffer(None, nbytes, torch.frombuffer(mapping, dtype=torch.uint8), None)
        if desc["kind"] != "vmm":
            raise ValueError("bad buffer descriptor")
        cls.prepare()
        vmm = cls._vmm
        size = int(desc["size"])
        piece = int(desc.get("piece", size))
        if piece <= 0 or piece * len(fds) != size or not 0 < int(desc["nbytes"]) <= size:
            raise ValueError("bad buffer descriptor")
        try:
            handles, ptr = vmm.import_fds(fds, piece)
        finally:
            for fd in fds:
                os.close(fd)
        tensor = torch.as_tensor(_CudaArray(ptr, size), device="cuda")

        def release():
            torch.cuda.synchronize()
            vmm.release(handles, ptr, piece)
        return Buffer(None, int(desc["nbytes"]), tensor, release)


# The system calls that could make a descriptor name another file, by
# machine: (number, the argument that names the descriptor replaced or
# closed: 0 or 1; 2 for close_range's first and last).
_DESCRIPTOR_CALLS = {
    "x86_64": ((3, 0), (33, 1), (292, 1), (436, 2)),   # close, dup2, dup3, close_range
    "aarch64": ((57, 0), (24, 1), (436, 2)),           # close, dup3, close_range
}


def raise_open_files_limit():
    """The process's limit on open descriptors raised to what it may be
    (a buffer lent in pieces comes as a descriptor a piece)."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass


def pin_descriptor(fd):
    """Descriptor FD keeps naming what it names now, for this process and
    every process it starts: a seccomp filter of the process's own (stacked
    on the sandbox's) refuses closing it and making it a copy of another
    (EPERM). The runner's channel to the judge is its descriptor 0, which
    the subject's code could otherwise point at a socket of its own and so
    stand between the runner and the judge: drop, rewrite or answer what
    the runner says (a witness's pause answered by the subject itself, its
    findings dropped and their count rewritten). Nothing the runner or
    Triton's compiler does closes or replaces descriptor 0. Returns why it
    could not, or ""."""
    import platform
    calls = _DESCRIPTOR_CALLS.get(platform.machine())
    if calls is None:
        return f"no filter for machine {platform.machine()}"

    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                    ("k", ctypes.c_uint)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

    load, jeq, jgt, jge, ret = 0x20, 0x15, 0x25, 0x35, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JGT, JGE, RET|K
    allow, refuse = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM

    def arg(i):
        return 16 + 8 * i  # struct seccomp_data: an argument's low word (little-endian)

    code = [(load, 0, 0, 0)]  # the call's number
    for number, which in calls:
        if which < 2:
            # number: the descriptor argument is FD: refused; else allowed.
            code += [(jeq, 0, 4, number), (load, 0, 0, arg(which)), (jeq, 0, 1, fd),
                     (ret, 0, 0, refuse), (ret, 0, 0, allow)]
        else:
            # close_range(first, last, flags): refused where first <= FD <= last.
            code += [(jeq, 0, 6, number), (load, 0, 0, arg(0)), (jgt, 3, 0, fd), (load, 0, 0, arg(1)),
                     (jge, 0, 1, fd), (ret, 0, 0, refuse), (ret, 0, 0, allow)]
    code.append((ret, 0, 0, allow))
    program = (Filter * len(code))(*[Filter(*c) for c in code])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    pr_set_no_new_privs, pr_set_seccomp, seccomp_mode_filter = 38, 22, 2
    if libc.prctl(pr_set_no_new_privs, 1, None, 0, 0) != 0:
        return "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(ctypes.get_errno())
    prog = Program(len(code), program)
    if libc.prctl(pr_set_seccomp, seccomp_mode_filter, ctypes.cast(ctypes.pointer(prog), ctypes.c_void_p),
                  0, 0) != 0:
        return "prctl(PR_SET_SECCOMP): " + os.strerror(ctypes.get_errno())
    return ""
