// A subject's runner: the only process that runs a HIP subject's code. It
// is started by the judge (plugins/common/hip/worker/judge.h) inside the
// sandbox, sees the subject's library alone, maps the device memory the
// judge lends it (file descriptors over the channel on its stdin), and on
// each request calls arena_run over the tensors named there and answers
// "done". It holds no input it did not receive, no reference, no tolerance
// and no clock the judge reads: the judge reads the outputs from its own
// memory and times the round trip itself. Nothing this process says is
// believed; a runner that lies is caught by what the judge reads.
//
//   hip_runner --lib=/subject/subject.so
//
// Requests (replies are {"ok": bool, ...}):
//   {"op": "bind", "id": N, "size": BYTES, "piece": BYTES} + descriptors of
//     pieces of the slab (in order; the slab's further pieces in more such
//     messages), mapped one after another once all SIZE / PIECE have come
//   {"op": "unbind", "id": N}
//   {"op": "call", "sets": K, "in": [T...], "out": [T...], "params": [[name, v]...]}
//     the K calls, one after the other; after each call of a request of
//     several, the runner draws whether the judge witnesses it (below)
//   {"op": "capture", "quiet": B, "marker": {"slab": N, "off": BYTES}, ...the same...}
//     each of the K calls captured as a CUDA graph of its own (with
//     "quiet", quietly and inspected: observer.h), chained into kSplits
//     splits (below)
//   {"op": "replay", "split": J, "mark": M}  split J (modulo kSplits) of
//     those, once, its first part ending in the 32-bit word M at the marker
//   {"op": "empty"}                    nothing (the judge's round-trip cost)
//   {"op": "prime", "quiet": B}        4 bytes of the runner's own set on its
//     stream, waited for: the GPU switched to this runner's context before a
//     timed round, not inside it; with "quiet", the replay that follows is
//     observed quietly (observer.h) until the next observe
//   {"op": "observe"}                  what the subject did since the last
//     observe (observer.h): {"ok": true, "launches": N, "graph_launches": N,
//     "findings": [...]}, or {"ok": true, "unobserved": WHY} without CUPTI
// with T = {"slab": N, "off": BYTES, "stride": BYTES, "dtype": NAME, "shape": [...]}:
// set k's tensor starts at off + k * stride in slab N.
//
// Witnessed calls (docs/methodology.md, Integrity). Every call of a round
// must have done its own set's work when it returns, and no later call's:
// a subject that leaves its calls' work to the round's last call (or does
// it all in the first) batches hundreds of short calls into one launch,
// a speedup no caller of the kernel sees. So the judge looks at a round
// between its calls, where nothing of the subject's can tell it will:
// - Eager calls: after each call of a request of several sets returns,
//   the runner draws (the kernel's entropy, a chance of kWitnessesPerRound
//   over K fixed here: nothing in the request says whether) whether to
//   stop there; if so it waits for the GPU, says {"pause": k} (k the call
//   that returned) and waits for the judge's {"op": "resume"}.
// - Captured calls: each split is the calls up to a call I drawn at
//   capture (at least a tenth of them), then the request's word written
//   at the judge's marker, as one graph; and the rest as another. A
//   replay launches the first, says {"split": I}, waits for the judge's
//   {"op": "go"} and launches the rest. The judge witnesses the first
//   part in a few rounds (it waits for the word, then reads the calls'
//   outputs) and says "go" at once in the others: both run the same
//   graphs, and the first part's GPU time covers the round trip. The
//   marker lies in memory the subject's kernels can find (beside its
//   tensors), so it tells them nothing: the judge writes a fresh random
//   word there before every round, the very word the replay will write in
//   a timed round and another in a witnessed one. Before the split both
//   look alike; after it only a witnessed round's word has changed, and
//   its witness is taken by then.
// While the runner waits for the judge, the subject is not running
// (observer.h: a launch then is a thread's of the subject's, a finding).
#include <dlfcn.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "plugins/common/hip/runner/channel.h"
#include "plugins/common/hip/runner/cuda_text.h"
#include "plugins/common/hip/runner/observer.h"
#include "plugins/common/hip/runner/pin_descriptor.h"
#include "plugins/common/hip/runner/vmm.h"
#include "plugins/common/hip/worker/tensors.h"

namespace arena::hip2hip {
namespace {

using Json = nlohmann::json;

// Splits of a round's captured calls, each one drawn at capture.
constexpr int kSplits = 4;
// Eager calls witnessed in a round, on average (the judge's
// kWitnessesPerRound, plugins/common/hip/worker/timing.cc, is the same).
constexpr double kWitnessesPerRound = 0.25;

// A uniform draw in [0, 1) from the kernel's entropy: nothing in this
// process's memory predicts it. Without it the runner ends: a fixed draw
// would be one the subject knows (every split of a replay at its earliest
// call), and no filter of the subject's can refuse it (pin_descriptor.h).
double Draw() {
  uint64_t v = 0;
  if (getrandom(&v, sizeof(v), 0) != static_cast<ssize_t>(sizeof(v))) {
    std::fprintf(stderr, "arena runner: the kernel's entropy could not be had (getrandom: %s)\n",
                 std::strerror(errno));
    std::_Exit(70);
  }
  return static_cast<double>(v >> 11) * 0x1.0p-53;
}
using RunFn = int (*)(const ArenaTensor*, int, ArenaTensor*, int, const ArenaParam*, int,
                      cudaStream_t);

bool Sticky(cudaError_t e) {
  return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ||
         e == cudaErrorMisalignedAddress || e == cudaErrorIllegalInstruction ||
         e == cudaErrorHardwareStackError || e == cudaErrorInvalidPc ||
         e == cudaErrorAssert || e == cudaErrorLaunchTimeout;
}

// The calls of one request: K sets of tensors and the parameters.
struct Calls {
  int sets = 0;
  std::vector<std::vector<ArenaTensor>> in, out;  // [set][tensor]
  std::vector<std::string> names;
  std::vector<ArenaParam> params;  // names point into `names`
};

class Runner {
 public:
  Runner(Channel* channel, RunFn run, Vmm vmm, Observer* observer, std::string unobserved)
      : channel_(channel), run_(run), vmm_(vmm), observer_(observer), unobserved_(std::move(unobserved)) {
    cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
  }

  // How long the runner polls for the judge's next word within a round
  // before it sleeps (Channel::set_spin_s).
  static constexpr double kSpinS = 0.02;

  // Serves requests until the channel closes; returns the exit code.
  int Serve() {
    for (;;) {
      auto m = channel_->Receive(-1);
      if (!m.ok()) return 0;  // the judge is gone
      Json reply = Handle(m->body, m->fds);
      for (int fd : m->fds) close(fd);
      if (!channel_->Send(reply).ok()) return 0;
      if (fatal_) return 3;  // the context is gone
      const std::string op = m->body.value("op", "");
      if (op == "quit") return 0;
      // After the wake before a round (prime) the timed request comes at
      // once: polled for, not slept on (Channel::set_spin_s).
      channel_->set_spin_s(op == "prime" || op == "empty" ? kSpinS : 0.0);
    }
  }

 private:
  // While one lives, the runner runs the subject's code (observer.h).
  class SubjectRuns {
   public:
    explicit SubjectRuns(Observer* o) : o_(o) { o_->SubjectRunning(true); }
    ~SubjectRuns() { o_->SubjectRunning(false); }
    SubjectRuns(const SubjectRuns&) = delete;
    SubjectRuns& operator=(const SubjectRuns&) = delete;

   private:
    Observer* o_;
  };

  static Json Ok() { return {{"ok", true}}; }
  static Json No(const std::string& why) { return {{"ok", false}, {"why", why}}; }

  Json Handle(const Json& req, const std::vector<int>& fds) {
    const std::string op = req.value("op", "");
    if (op == "empty" || op == "quit") return Ok();
    if (op == "prime") {
      // Before a timed replay: the replay observed quietly (observer.h),
      // until the observe that follows it.
      if (req.value("quiet", false) && !splits_.empty() && unobserved_.empty()) observer_->BeginQuietRound();
      cudaError_t e = cudaSuccess;
      if (scratch_ == nullptr && (e = cudaMalloc(&scratch_, 256)) != cudaSuccess) scratch_ = nullptr;
      if (e == cudaSuccess) e = cudaMemsetAsync(scratch_, 0, 4, stream_);
      if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
      return e == cudaSuccess ? Ok() : No("prime: " + CudaText(e));
    }
    if (op == "observe") {
      if (!unobserved_.empty()) return {{"ok", true}, {"unobserved", unobserved_}};
      Observation seen = observer_->Take();
      return {{"ok", true},
              {"launches", seen.launches},
              {"graph_launches", seen.graph_launches},
              {"findings", seen.findings}};
    }
    if (op == "bind") {
      // A slab's pieces, a few descriptors a message under one id; mapped
      // once the last has come.
      const int id = req.value("id", -1);
      if (fds.empty()) return No("bind: no descriptor");
      if (slabs_.count(id)) return No("bind: slab " + std::to_string(id) + " is bound already");
      VmmMemory& m = binding_[id];
      if (m.pieces.empty()) {
        m.size = req.value("size", size_t{0});
        m.piece = req.value("piece", m.size);
      }
      Status st = vmm_.ImportPieces(fds, &m);
      if (st.ok() && m.pieces.size() * m.piece == m.size) st = vmm_.Map(&m);
      if (!st.ok()) {
        vmm_.Release(m);
        binding_.erase(id);
        return No("bind: " + st.message());
      }
      if (m.ptr != 0) {
        slabs_[id] = m;
        binding_.erase(id);
      }
      return Ok();
    }
    if (op == "unbind") {
      auto it = slabs_.find(req.value("id", -1));
      if (it != slabs_.end()) {
        cudaDeviceSynchronize();
        vmm_.Release(it->second);
        slabs_.erase(it);
      }
      return Ok();
    }
    if (op == "call" || op == "capture") {
      auto calls = Parse(req);
      if (!calls.ok()) return No(calls.status().message());
      calls_ = std::move(*calls);
      if (op == "call") {
        SubjectRuns running(observer_);
        return Call();
      }
      void* marker = nullptr;
      if (calls_.sets > 1) {
        const Json m = req.value("marker", Json::object());
        auto slab = slabs_.find(m.value("slab", -1));
        const size_t off = m.value("off", size_t{0});
        if (slab == slabs_.end() || off % 4 != 0 || off + 4 > slab->second.size) {
          return No("capture: no marker in bound memory");
        }
        marker = reinterpret_cast<void*>(slab->second.ptr + off);
      }
      SubjectRuns running(observer_);
      return Capture(req.value("quiet", false) && unobserved_.empty(), marker);
    }
    if (op == "replay") {
      if (splits_.empty()) return No("replay: nothing captured");
      const Split& split = splits_[req.value("split", uint64_t{0}) % splits_.size()];
      cudaError_t e = cudaSuccess;
      if (split.mark != nullptr) {
        cudaMemsetParams set = MarkParams(marker_);
        set.value = req.value("mark", 0u);
        e = cudaGraphExecMemsetNodeSetParams(split.first, split.mark, &set);
        if (e != cudaSuccess) return Finish(e, 0);
      }
      SubjectRuns running(observer_);
      if (e == cudaSuccess) e = cudaGraphLaunch(split.first, stream_);
      if (e == cudaSuccess && split.rest != nullptr) {
        if (!AwaitJudge({{"split", split.at}}, "go")) return Lost();
        e = cudaGraphLaunch(split.rest, stream_);
      }
      return Finish(e, 0);
    }
    return No("unknown op '" + op + "'");
  }

  Result<ArenaTensor> Tensor(const Json& t, int set) const {
    ArenaTensor v{};
    auto dtype = ParseDtype(t.value("dtype", ""));
    if (!dtype.ok()) return dtype.status();
    v.dtype = *dtype;
    const auto shape = t.value("shape", std::vector<int64_t>{});
    if (shape.size() > ARENA_MAX_DIMS) return InvalidArgument("too many dimensions");
    v.ndim = static_cast<int>(shape.size());
    v.numel = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      v.shape[d] = shape[d];
      v.numel *= shape[d];
    }
    auto slab = slabs_.find(t.value("slab", -1));
    if (slab == slabs_.end()) return InvalidArgument("a tensor in memory that is not bound");
    const size_t off = t.value("off", size_t{0}) + static_cast<size_t>(set) * t.value("stride", size_t{0});
    const size_t bytes = static_cast<size_t>(v.numel) * DtypeSize(v.dtype);
    if (v.numel < 0 || off + bytes > slab->second.size) return InvalidArgument("a tensor outside its memory");
    v.data = reinterpret_cast<void*>(slab->second.ptr + off);
    return v;
  }

  Result<Calls> Parse(const Json& req) const {
    Calls c;
    c.sets = req.value("sets", 0);
    if (c.sets < 1 || c.sets > 1 << 16) return InvalidArgument("sets out of range");
    for (int k = 0; k < c.sets; ++k) {
      c.in.emplace_back();
      c.out.emplace_back();
      for (const auto& t : req.value("in", Json::array())) {
        ARENA_ASSIGN_OR_RETURN(ArenaTensor v, Tensor(t, k));
        c.in.back().push_back(v);
      }
      for (const auto& t : req.value("out", Json::array())) {
        ARENA_ASSIGN_OR_RETURN(ArenaTensor v, Tensor(t, k));
        c.out.back().push_back(v);
      }
    }
    for (const auto& p : req.value("params", Json::array())) c.names.push_back(p.at(0).get<std::string>());
    size_t i = 0;
    for (const auto& p : req.value("params", Json::array())) {
      c.params.push_back({c.names[i++].c_str(), p.at(1).get<double>()});
    }
    return c;
  }

  int RunOne(int k) {
    return run_(calls_.in[static_cast<size_t>(k)].data(), static_cast<int>(calls_.in[0].size()),
                calls_.out[static_cast<size_t>(k)].data(), static_cast<int>(calls_.out[0].size()),
                calls_.params.data(), static_cast<int>(calls_.params.size()), stream_);
  }

  // Tells the judge `frame`, then waits for its word; false when the
  // judge said another or is gone. The subject is not running meanwhile.
  bool AwaitJudge(const Json& frame, const std::string& word) {
    observer_->SubjectRunning(false);
    bool heard = channel_->Send(frame).ok();
    if (heard) {
      channel_->set_spin_s(kSpinS);  // within a round: polled for
      auto m = channel_->Receive(-1);
      channel_->set_spin_s(0.0);
      heard = m.ok() && m->fds.empty() && m->body.value("op", "") == word;
      if (m.ok()) {
        for (int fd : m->fds) close(fd);
      }
    }
    observer_->SubjectRunning(true);
    return heard;
  }

  // The judge broke off a witness: nothing more is served.
  Json Lost() {
    fatal_ = true;
    return No("the judge did not answer a witness");
  }

  // The calls of a "call" request: eager, each one of several witnessed
  // with a chance of kWitnessesPerRound / K, drawn once it has returned.
  Json Call() {
    int rc = 0;
    const double chance = calls_.sets > 1 ? kWitnessesPerRound / calls_.sets : 0.0;
    for (int k = 0; k < calls_.sets; ++k) {
      const int r = RunOne(k);
      if (r != 0) rc = r;
      if (chance > 0.0 && Draw() < chance) {
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) return Finish(e, rc);
        if (!AwaitJudge({{"pause", k}}, "resume")) return Lost();
      }
    }
    return Finish(cudaSuccess, rc);
  }

  // Waits for every stream of the device, then answers.
  Json Finish(cudaError_t e, int rc) {
    cudaError_t s = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = s;
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e != cudaSuccess) {
      fatal_ = Sticky(e);
      return No("CUDA error: " + CudaText(e));
    }
    if (rc != 0) return No("arena_run returned " + std::to_string(rc));
    return Ok();
  }

  // Each call captured as a graph of its own, the graphs chained into
  // kSplits splits (ChainSplits). quiet: the captures made with copy
  // records off and the graphs inspected (observer.h), as the timed
  // replays that follow will be quiet.
  Json Capture(bool quiet, void* marker) {
    DestroySplits();
    std::vector<cudaGraph_t> graphs;
    // No copy runs while capturing: the records are off (a graph made
    // under them may be slower to replay), and the graphs are inspected.
    if (quiet) observer_->RecordCopies(false);
    cudaError_t e = cudaSuccess;
    int rc = 0;
    for (int k = 0; k < calls_.sets && e == cudaSuccess && rc == 0; ++k) {
      e = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed);
      if (e != cudaSuccess) break;
      rc = RunOne(k);
      cudaGraph_t graph = nullptr;
      e = cudaStreamEndCapture(stream_, &graph);
      if (graph != nullptr) graphs.push_back(graph);
    }
    if (e == cudaSuccess && rc == 0) {
      if (quiet) {
        for (cudaGraph_t g : graphs) observer_->InspectGraph(g);
      }
      e = ChainSplits(graphs, marker);
    }
    if (quiet) observer_->RecordCopies(true);
    for (cudaGraph_t g : graphs) cudaGraphDestroy(g);
    if (e != cudaSuccess || rc != 0) {
      (void)cudaGetLastError();
      cudaDeviceSynchronize();
      DestroySplits();
      return No(rc != 0 ? "arena_run returned " + std::to_string(rc) : "cannot be captured: " + CudaText(e));
    }
    return Ok();
  }

  // A 32-bit word written at `marker` (the value is the replay's).
  static cudaMemsetParams MarkParams(void* marker) {
    cudaMemsetParams set{};
    set.dst = marker;
    set.elementSize = 4;
    set.width = 1;
    set.height = 1;
    set.pitch = 4;
    return set;
  }

  // One graph of the captured calls [from, to), one after the other, then
  // (with `marker`) a word written there, its node in `*mark`; `*graph`
  // keeps the graph the exec was made from (the node's).
  static cudaError_t Part(const std::vector<cudaGraph_t>& calls, int from, int to, void* marker,
                          cudaGraphExec_t* exec, cudaGraph_t* graph, cudaGraphNode_t* mark) {
    cudaGraph_t& g = *graph;
    cudaError_t e = cudaGraphCreate(&g, 0);
    cudaGraphNode_t last = nullptr;
    for (int k = from; k < to && e == cudaSuccess; ++k) {
      cudaGraphNode_t node = nullptr;
      e = cudaGraphAddChildGraphNode(&node, g, last != nullptr ? &last : nullptr, last != nullptr ? 1 : 0,
                                     calls[static_cast<size_t>(k)]);
      last = node;
    }
    if (e == cudaSuccess && marker != nullptr) {
      const cudaMemsetParams set = MarkParams(marker);
      e = cudaGraphAddMemsetNode(mark, g, last != nullptr ? &last : nullptr, last != nullptr ? 1 : 0, &set);
    }
    if (e == cudaSuccess) e = cudaGraphInstantiate(exec, g, 0);
    return e;
  }

  // kSplits splits of the captured calls, each at a call I drawn here, in
  // [N/10 - 1, N - 2] (so that the first part, calls 0..I, is at least a
  // tenth of them, and the rest at least one); one part for one call.
  cudaError_t ChainSplits(const std::vector<cudaGraph_t>& calls, void* marker) {
    const int n = static_cast<int>(calls.size());
    marker_ = marker;
    if (n == 1) {
      splits_.emplace_back();
      Split& one = splits_.back();
      return Part(calls, 0, 1, nullptr, &one.first, &one.first_graph, &one.mark);
    }
    const int least = std::max(1, (n + 9) / 10);
    for (int j = 0; j < kSplits; ++j) {
      splits_.emplace_back();
      Split& split = splits_.back();
      split.at = least - 1 + std::min(n - least - 1, static_cast<int>(Draw() * (n - least)));
      cudaError_t e = Part(calls, 0, split.at + 1, marker, &split.first, &split.first_graph, &split.mark);
      if (e == cudaSuccess) e = Part(calls, split.at + 1, n, nullptr, &split.rest, &split.rest_graph, nullptr);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  }

  void DestroySplits() {
    for (const Split& split : splits_) {
      if (split.first != nullptr) cudaGraphExecDestroy(split.first);
      if (split.rest != nullptr) cudaGraphExecDestroy(split.rest);
      if (split.first_graph != nullptr) cudaGraphDestroy(split.first_graph);
      if (split.rest_graph != nullptr) cudaGraphDestroy(split.rest_graph);
    }
    splits_.clear();
  }

  // A split's two graphs and where the first ends (call `at`), with the
  // node that writes the marker; one graph, `at` -1 and no node for a
  // round of one call.
  struct Split {
    cudaGraphExec_t first = nullptr, rest = nullptr;
    cudaGraph_t first_graph = nullptr, rest_graph = nullptr;
    cudaGraphNode_t mark = nullptr;
    int at = -1;
  };

  Channel* channel_;
  RunFn run_;
  Vmm vmm_;
  Observer* observer_;
  std::string unobserved_;  // why nothing is observed ("" when it is)
  cudaStream_t stream_ = nullptr;
  void* scratch_ = nullptr;  // the runner's own, for "prime"
  std::map<int, VmmMemory> slabs_;
  std::map<int, VmmMemory> binding_;  // slabs whose pieces are still coming
  Calls calls_;
  std::vector<Split> splits_;  // of the last capture
  void* marker_ = nullptr;     // where their first parts end with a word
  bool fatal_ = false;
};

}  // namespace
}  // namespace arena::hip2hip

int main(int argc, char** argv) {
  using arena::hip2hip::Channel;
  std::string lib;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--lib=", 0) == 0) lib = a.substr(6);
  }
  Channel channel(0);
  auto fail = [&](const std::string& why) {
    (void)channel.Send({{"ok", false}, {"why", why}});
    return 2;
  };
  if (lib.empty()) return fail("no --lib");
  // The channel to the judge pinned before any code of the subject's is
  // loaded (PinDescriptor).
  if (std::string why = arena::hip2hip::PinDescriptor(0); !why.empty()) {
    return fail("cannot pin the runner's channel to the judge: " + why);
  }
  // The runtime first, so that the subject's library finds a context and
  // the driver's sharing calls a current device.
  cudaError_t e = cudaSetDevice(0);
  if (e == cudaSuccess) e = cudaFree(nullptr);
  if (e != cudaSuccess) return fail(std::string(arena::hip2hip::kGpuRuntime) + ": " + arena::hip2hip::CudaText(e));
  auto vmm = arena::hip2hip::Vmm::Open(0);
  if (!vmm.ok()) return fail(vmm.status().message());
  // Observing before the subject's library is loaded: its constructors are
  // seen too.
  arena::hip2hip::Observer observer;
  const arena::Status observing = observer.Start();
  void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) return fail(std::string("cannot load: ") + dlerror());
  auto run = reinterpret_cast<arena::hip2hip::RunFn>(dlsym(h, "arena_run"));
  if (run == nullptr) return fail("no extern \"C\" arena_run");
  if (!channel.Send({{"ok", true}, {"ready", true}}).ok()) return 0;
  arena::hip2hip::Runner runner(&channel, run, *vmm, &observer, observing.ok() ? "" : observing.message());
  return runner.Serve();
}
