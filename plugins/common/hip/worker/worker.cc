// The hip2hip judge (NVIDIA platform): one process per evaluation, driven by
// the family plugin with one JSON request and reply per line. It never runs
// a subject's code: each subject (baseline, candidate) runs in its own
// sandboxed runner (plugins/common/hip/runner/runner.cc), whose command line
// the plugin sends. The judge draws the inputs, computes the CPU reference,
// lends the runner device memory it owns (CUDA virtual memory shared by file
// descriptor), asks it to run, and reads and compares the outputs in its own
// memory; it times the runner's round trips on its own clock, over rounds of
// fresh inputs whose outputs are verified. A runner that crashes, hangs,
// corrupts its GPU context or breaks the protocol fails its subject's stage;
// the next request starts a fresh runner.
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "core/expr.h"
#include "plugins/common/hip/runner/cuda_text.h"
#include "plugins/common/hip/runner/runner_client.h"
#include "plugins/common/hip/runner/vmm.h"
#include "plugins/common/hip/worker/device_fill.h"
#include "plugins/common/hip/worker/shelf.h"
#include "plugins/common/hip/worker/tensors.h"

namespace arena::hip2hip {
namespace {

using Json = nlohmann::json;
using ReferenceFn = int (*)(const ArenaHostConstTensor*, int, ArenaHostTensor*, int,
                            const ArenaParam*, int);

constexpr size_t kAlign = 256;
const std::vector<std::string> kSubjects = {"baseline", "candidate"};

size_t RoundUp(size_t n, size_t m = kAlign) { return (n + m - 1) / m * m; }

Json Reply(const std::string& status, const std::string& detail, Json metrics = Json::object()) {
  return {{"status", status}, {"detail", detail}, {"log", ""}, {"seconds", 0.0},
          {"metrics", metrics}};
}

// A failed stage that is an integrity finding (counted in reports).
Json Finding(const std::string& finding) {
  return Reply("failed", "integrity: " + finding, {{"integrity", Json::array({finding})}});
}

struct TensorSpec {
  std::string name;
  ArenaDtype dtype;
  std::vector<std::string> shape;
  Json init;
};

// The judge's own device memory (never lent).
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : bytes(n) {
    if (cudaMalloc(&ptr, std::max<size_t>(n, 1)) != cudaSuccess) ptr = nullptr;
  }
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Fills `numel` elements at `dst` with the dtype's poison (NaN, or the
// smallest integer): a byte-uniform poison by memset, any other by one
// element copied up and doubled in place.
Status Poison(void* dst, ArenaDtype dtype, size_t numel) {
  const HostTensor one = Poisoned(dtype, {1});
  const size_t size = one.bytes.size(), total = numel * size;
  if (total == 0) return OkStatus();
  auto* d = static_cast<uint8_t*>(dst);
  cudaError_t e;
  if (std::all_of(one.bytes.begin(), one.bytes.end(), [&](uint8_t x) { return x == one.bytes[0]; })) {
    e = cudaMemset(d, one.bytes[0], total);
  } else {
    e = cudaMemcpy(d, one.bytes.data(), size, cudaMemcpyHostToDevice);
    for (size_t done = size; done < total && e == cudaSuccess;) {
      const size_t n = std::min(done, total - done);
      e = cudaMemcpy(d + done, d, n, cudaMemcpyDeviceToDevice);
      done += n;
    }
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return Internal("poisoning an output failed: " + CudaText(e));
  return OkStatus();
}

// Where one tensor of a request sits in a subject's lent memory: set k's
// copy at off + k * stride.
struct Placed {
  ArenaDtype dtype;
  std::vector<int64_t> shape;
  size_t bytes = 0;
  size_t off = 0;
  size_t stride = 0;
};

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Inputs and outputs of `sets` sets, tensor by tensor (each tensor's sets
// side by side, 256-byte aligned), in memory of `*total` bytes.
std::pair<std::vector<Placed>, std::vector<Placed>> Place(
    const std::vector<std::pair<ArenaDtype, std::vector<int64_t>>>& in,
    const std::vector<std::pair<ArenaDtype, std::vector<int64_t>>>& out, size_t sets, size_t* total) {
  size_t at = 0;
  auto place = [&](const std::vector<std::pair<ArenaDtype, std::vector<int64_t>>>& specs) {
    std::vector<Placed> placed;
    for (const auto& [dtype, shape] : specs) {
      Placed p{dtype, shape, static_cast<size_t>(Numel(shape)) * DtypeSize(dtype), at, 0};
      p.stride = RoundUp(std::max<size_t>(p.bytes, 1));
      at += p.stride * sets;
      placed.push_back(p);
    }
    return placed;
  };
  auto i = place(in);
  auto o = place(out);
  *total = std::max<size_t>(at, 1);
  return {i, o};
}

Json Describe(const std::vector<Placed>& tensors, int slab) {
  Json a = Json::array();
  for (const auto& t : tensors) {
    a.push_back({{"slab", slab}, {"off", t.off}, {"stride", t.stride}, {"dtype", DtypeName(t.dtype)},
                 {"shape", t.shape}});
  }
  return a;
}

// Positions of a tensor the judge verifies after a timed round: all of a
// small tensor, else about 64K evenly spaced from a secret start. A subject
// that skips or fakes a share f of its outputs is caught with probability
// about 1 - (1 - f)^65536 per round; reading all of a large tensor back
// every round would cost more than the round itself.
struct Sample {
  size_t start = 0, stride = 1, count = 0;
};

Sample PickSample(size_t n, std::mt19937_64& rng) {
  // Every element up to 64 Ki, else 64 Ki at a secret phase: a subject
  // that skips or fakes even 1% of a timed call's outputs is caught with
  // a chance of 1 - 0.99^65536.
  constexpr size_t kAll = size_t{1} << 16, kSampled = size_t{1} << 16;
  if (n <= kAll) return {0, 1, n};
  const size_t stride = n / kSampled;
  const size_t start = std::uniform_int_distribution<size_t>(0, stride - 1)(rng);
  return {start, stride, (n - start + stride - 1) / stride};
}

HostTensor DownloadSample(const void* src, ArenaDtype dtype, const Sample& s) {
  const size_t es = DtypeSize(dtype);
  HostTensor t = Poisoned(dtype, {static_cast<int64_t>(s.count)});
  const auto* from = static_cast<const uint8_t*>(src) + s.start * es;
  const cudaError_t e = s.count == 0    ? cudaSuccess
                        : s.stride == 1 ? cudaMemcpy(t.bytes.data(), from, s.count * es, cudaMemcpyDeviceToHost)
                                        : cudaMemcpy2D(t.bytes.data(), es, from, s.stride * es, es, s.count,
                                                       cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    t = Poisoned(dtype, {static_cast<int64_t>(s.count)});  // never compared as if downloaded
  }
  return t;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : 0.5 * (v[(v.size() - 1) / 2] + v[v.size() / 2]);
}

class Worker {
 public:
  Json Handle(const Json& req) {
    const std::string op = req.value("op", "");
    if (op == "init") return Init(req);
    if (op == "check") return Check(req);
    if (op == "time") return Time(req);
    if (op == "load") return Load(req);
    return Reply("error", "unknown op '" + op + "'");
  }

 private:
  Json Init(const Json& req) {
    task_ = req["task"];
    for (const char* key : {"inputs", "outputs"}) {
      for (const auto& t : task_[key]) {
        auto dtype = ParseDtype(t["dtype"].get<std::string>());
        if (!dtype.ok()) return Reply("failed", dtype.status().message());
        TensorSpec spec{t["name"], *dtype, t["shape"].get<std::vector<std::string>>(),
                        t.value("init", Json::object())};
        (std::string(key) == "inputs" ? inputs_ : outputs_).push_back(spec);
      }
    }
    const Json runners = req.value("runners", Json::object());
    for (const auto& [subject, spec] : runners.items()) {
      runner_argv_[subject] = spec.value("argv", std::vector<std::string>{});
    }
    timeout_s_ = req.value("timeout_s", 60.0);
    log_dir_ = req.value("log_dir", std::string("."));
    device_ = req.value("device_index", 0);
    cudaError_t e = cudaSetDevice(device_);
    if (e == cudaSuccess) e = cudaFree(nullptr);
    if (e != cudaSuccess) return Reply("failed", "CUDA: " + CudaText(e));
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, req.value("device_index", 0));
    l2_bytes_ = static_cast<size_t>(l2);
    flush_ = std::make_unique<DeviceBuffer>(std::max<size_t>(2 * l2_bytes_, 64 << 20));
    auto vmm = Vmm::Open(req.value("device_index", 0));
    if (!vmm.ok()) return Reply("failed", vmm.status().message());
    vmm_ = *vmm;
    // A family whose reference lives elsewhere (torch2hip) sends each
    // trial's inputs and reference outputs as files instead.
    const std::string ref_path = req.value("reference", std::string());
    if (!ref_path.empty()) {
      void* ref = dlopen(ref_path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!ref) return Reply("failed", std::string("reference: cannot load: ") + dlerror());
      reference_ = reinterpret_cast<ReferenceFn>(dlsym(ref, "arena_reference"));
      if (!reference_) return Reply("failed", "reference: no extern \"C\" arena_reference");
    }
    return Reply("passed", "judge ready");
  }

  // Gives a subject another runner command (a session kept open across
  // feedback calls rebuilds its candidate); the prepared trials stay. An
  // empty command forgets the subject.
  Json Load(const Json& req) {
    const std::string subject = req.value("subject", "");
    if (subject != "baseline" && subject != "candidate") {
      return Reply("error", "load: unknown subject '" + subject + "'");
    }
    runners_.erase(subject);
    runner_argv_[subject] = req.value("runner", Json::object()).value("argv", std::vector<std::string>{});
    return Reply("passed", subject + (runner_argv_[subject].empty() ? " forgotten" : " replaced"));
  }

  // One line of the judge's log (log_dir/judge.log): where an evaluation's
  // time goes, request by request.
  void Log(const std::string& line) {
    if (log_ == nullptr) log_ = std::fopen((log_dir_ + "/judge.log").c_str(), "a");
    if (log_ == nullptr) return;
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
    std::fprintf(log_, "%9.3f %s\n", t, line.c_str());
    std::fflush(log_);
  }

  // The subject's runner, started when there is none (or it died).
  Result<RunnerClient*> Runner(const std::string& subject) {
    auto argv = runner_argv_.find(subject);
    if (argv == runner_argv_.end() || argv->second.empty()) {
      return FailedPrecondition(subject + " was not compiled");
    }
    auto& r = runners_[subject];
    if (r != nullptr && r->alive()) return r.get();
    r = std::make_unique<RunnerClient>(subject, argv->second, log_dir_ + "/runner-" + subject + ".log");
    ARENA_RETURN_IF_ERROR(r->Start(timeout_s_));
    return r.get();
  }

  // A runner's failure as a stage's reply: protocol breaks are findings.
  static Json RunnerFailure(RunnerClient* r, const Status& s) {
    Json reply = s.message().find("broke the protocol") != std::string::npos
                     ? Finding(s.message())
                     : Reply("failed", s.message());
    if (r != nullptr) reply["log"] = r->LogTail();
    return reply;
  }

  // One request to a runner whose answer must be "ok".
  Json Ask(RunnerClient* r, const Json& req, bool* ok) {
    *ok = false;
    auto a = r->Request(req, timeout_s_);
    if (!a.ok()) return RunnerFailure(r, a.status());
    if (!(*a)["ok"].get<bool>()) {
      const std::string why = a->value("why", std::string("failed"));
      Json reply = Reply("failed", r->subject() + ": " + why);
      reply["log"] = r->LogTail();
      // A CUDA error may have taken the runner's context with it (the
      // runner then exits): the next request gets a fresh runner.
      if (why.rfind("CUDA error", 0) == 0) r->Stop();
      return reply;
    }
    *ok = true;
    return Json();
  }

  // What the subject's runner saw it do since the last look (CUPTI, see
  // runner/observer.h): host memory the GPU can reach, copies to the host,
  // the observation switched off, each an integrity finding; so is a call
  // (or capture) that launched no kernel, when `must_launch`. Null when all
  // is well, or when the runner cannot observe (said in `observation_`).
  Json Observed(RunnerClient* r, bool must_launch, const std::string& when) {
    auto a = r->Request({{"op", "observe"}}, timeout_s_);
    if (!a.ok()) return RunnerFailure(r, a.status());
    if (!(*a)["ok"].get<bool>()) return Reply("failed", r->subject() + ": " + a->value("why", std::string("observe")));
    if (a->contains("unobserved")) {
      observation_[r->subject()] = "unobserved: " + (*a)["unobserved"].get<std::string>();
      return Json();
    }
    observation_[r->subject()] = "cupti";
    const Json& findings = (*a)["findings"];
    if (!findings.empty()) {
      std::string more = findings.size() > 1 ? " (and " + std::to_string(findings.size() - 1) + " more)" : "";
      return Finding(r->subject() + ": " + findings[0].get<std::string>() + " " + when + more);
    }
    if (must_launch && (*a)["launches"].get<int64_t>() == 0) {
      return Finding(r->subject() + ": launched no GPU kernel " + when +
                     " (the outputs must come from the subject's own kernels)");
    }
    return Json();
  }

  Result<std::vector<int64_t>> Shape(const TensorSpec& t, const ParameterValues& p) {
    std::vector<int64_t> shape;
    for (const auto& d : t.shape) {
      ARENA_ASSIGN_OR_RETURN(long long v, EvaluateExtent(d, p));
      shape.push_back(v);
    }
    return shape;
  }

  static ParameterValues Numeric(const Json& params) {
    ParameterValues p;
    for (auto it = params.begin(); it != params.end(); ++it) {
      if (it->is_number()) p[it.key()] = it->get<double>();
      if (it->is_boolean()) p[it.key()] = it->get<bool>() ? 1 : 0;
    }
    return p;
  }

  // Inputs for one trial, drawn on the host (bounds may be expressions).
  Result<std::vector<HostTensor>> DrawInputs(const ParameterValues& p, uint64_t seed) {
    std::vector<HostTensor> out;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      ARENA_ASSIGN_OR_RETURN(auto shape, Shape(inputs_[i], p));
      ARENA_ASSIGN_OR_RETURN(Json init, EvaluatedInit(i, p));
      ARENA_ASSIGN_OR_RETURN(HostTensor t, DrawInput(inputs_[i].dtype, shape, init,
                                                     seed * 1000003ull + i));
      out.push_back(std::move(t));
    }
    return out;
  }


  // A configuration's parameters, as numbers for shape expressions and as
  // the ArenaParam list arena_run receives; `args` points into `names`, so it
  // is moved, never copied.
  struct ConfigParams {
    ParameterValues numeric;
    std::vector<std::string> names;
    std::vector<ArenaParam> args;

    explicit ConfigParams(const Json& params) : numeric(Numeric(params)) {
      for (auto it = params.begin(); it != params.end(); ++it) {
        if (it->is_number() || it->is_boolean()) names.push_back(it.key());
      }
      for (const auto& n : names) {
        const Json& v = params[n];
        args.push_back({n.c_str(), v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>()});
      }
    }
    ConfigParams(const ConfigParams&) = delete;
    ConfigParams& operator=(const ConfigParams&) = delete;
  };

  // The seed of trial `trial` of a check seeded with `seed`.
  static uint64_t TrialSeed(uint64_t seed, int trial) { return seed * 31 + static_cast<uint64_t>(trial); }

  // Output i's tolerances: the task's for its dtype, else the dtype's default.
  std::pair<double, double> Tolerance(size_t i) const {
    const double fallback = DefaultTolerance(outputs_[i].dtype);
    const Json t = task_.value("tolerances", Json::object()).value(DtypeName(outputs_[i].dtype), Json::object());
    return {t.value("atol", fallback), t.value("rtol", fallback)};
  }


  // One trial's inputs and reference outputs. Both subjects are checked on
  // the very same trials, so they are drawn and computed once per
  // configuration and seed and kept for the other subject.
  struct Trial {
    std::vector<HostTensor> inputs;
    std::vector<std::vector<int64_t>> out_shapes;
    std::vector<std::vector<double>> reference;
  };

  static size_t TrialsBytes(const std::map<uint64_t, Trial>& trials) {
    size_t bytes = 0;
    for (const auto& [seed, t] : trials) {
      for (const auto& x : t.inputs) bytes += x.bytes.size();
      for (const auto& r : t.reference) bytes += r.size() * sizeof(double);
    }
    return bytes;
  }

  // Host memory the trials of earlier configurations may keep: an eighth
  // of the machine's, at most 8 GiB.
  static size_t ShelfBudget() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    const size_t physical = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
    return std::min<size_t>(physical / 8, size_t{8} << 30);
  }

  // Another configuration (or seed) becomes the current one. The current
  // trials go on the shelf and the new key's come back from it when there:
  // a session kept open across feedback calls checks the same
  // configurations on the same seed call after call, and their inputs and
  // CPU references (the slow part of a check) are prepared once.
  void ResetTrials(const std::string& key) {
    if (!trials_.empty()) {
      const size_t bytes = TrialsBytes(trials_);
      shelf_.Put(trial_key_, std::move(trials_), bytes);
    }
    trials_.clear();
    device_inputs_.clear();
    device_inputs_bytes_ = 0;
    trial_key_ = key;
    if (auto kept = shelf_.Take(key)) trials_ = std::move(*kept);
  }

  // Trial `seed`'s inputs in the judge's own device memory: copied from
  // there into a subject's lent memory (one upload of a trial serves both
  // subjects), and compared with what is there after the call. Kept with
  // the trials; only the trial at hand once they would take more than a
  // quarter of the free device memory.
  using DeviceTensors = std::vector<std::unique_ptr<DeviceBuffer>>;
  Result<const DeviceTensors*> DeviceInputs(uint64_t seed, const Trial& t) {
    if (auto it = device_inputs_.find(seed); it != device_inputs_.end()) return &it->second;
    size_t bytes = 0;
    for (const auto& x : t.inputs) bytes += x.bytes.size();
    size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    if (device_inputs_bytes_ + bytes > free / 4) {
      device_inputs_.clear();
      device_inputs_bytes_ = 0;
    }
    DeviceTensors copies;
    for (const auto& x : t.inputs) {
      auto b = std::make_unique<DeviceBuffer>(x.bytes.size());
      if (b->ptr == nullptr) {
        cudaGetLastError();  // the failed allocation is not an error of what follows
        return Unavailable("out of device memory for a trial's inputs");
      }
      if (!x.bytes.empty() &&
          cudaMemcpy(b->ptr, x.bytes.data(), x.bytes.size(), cudaMemcpyHostToDevice) != cudaSuccess) {
        return Internal("copying an input to the device failed");
      }
      copies.push_back(std::move(b));
    }
    device_inputs_bytes_ += bytes;
    return &(device_inputs_[seed] = std::move(copies));
  }

  Status EnsureFill() {
    if (fill_.has_value()) return OkStatus();
    ARENA_ASSIGN_OR_RETURN(DeviceFill fill, DeviceFill::Create(device_));
    fill_ = fill;
    return OkStatus();
  }

  Result<const Trial*> PrepareTrial(const ParameterValues& p, const std::vector<ArenaParam>& params,
                                    const std::string& key, uint64_t seed) {
    if (trial_key_ != key) ResetTrials(key);
    auto it = trials_.find(seed);
    if (it != trials_.end()) return &it->second;
    ARENA_ASSIGN_OR_RETURN(Trial t, MakeTrial(p, params, seed));
    return &(trials_[seed] = std::move(t));
  }

  Result<Trial> MakeTrial(const ParameterValues& p, const std::vector<ArenaParam>& params,
                          uint64_t seed) {
    Trial t;
    ARENA_ASSIGN_OR_RETURN(t.inputs, DrawInputs(p, seed));
    for (const auto& o : outputs_) {
      ARENA_ASSIGN_OR_RETURN(auto shape, Shape(o, p));
      t.out_shapes.push_back(shape);
    }
    // The reference, in double, on exactly the values the kernel sees.
    std::vector<std::vector<double>> wide_in;
    std::vector<ArenaHostConstTensor> ref_in;
    for (const auto& x : t.inputs) wide_in.push_back(Widen(x));
    for (size_t i = 0; i < t.inputs.size(); ++i) {
      ArenaHostConstTensor v{};
      v.data = wide_in[i].data();
      v.ndim = static_cast<int>(t.inputs[i].shape.size());
      for (int d = 0; d < v.ndim; ++d) v.shape[d] = t.inputs[i].shape[static_cast<size_t>(d)];
      v.numel = t.inputs[i].numel;
      ref_in.push_back(v);
    }
    std::vector<ArenaHostTensor> ref_views;
    for (const auto& shape : t.out_shapes) {
      int64_t numel = 1;
      for (int64_t d : shape) numel *= d;
      t.reference.emplace_back(static_cast<size_t>(numel), std::numeric_limits<double>::quiet_NaN());
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      ArenaHostTensor v{};
      v.data = t.reference[i].data();
      v.ndim = static_cast<int>(t.out_shapes[i].size());
      for (int d = 0; d < v.ndim; ++d) v.shape[d] = t.out_shapes[i][static_cast<size_t>(d)];
      v.numel = static_cast<int64_t>(t.reference[i].size());
      ref_views.push_back(v);
    }
    if (reference_(ref_in.data(), static_cast<int>(ref_in.size()), ref_views.data(),
                   static_cast<int>(ref_views.size()), params.data(),
                   static_cast<int>(params.size())) != 0) {
      return Internal("the reference reported an error");
    }
    return t;
  }


  static Result<HostTensor> ReadTensor(const Json& spec) {
    ARENA_ASSIGN_OR_RETURN(ArenaDtype dtype, ParseDtype(spec.value("dtype", "float64")));
    return ReadTensorFile(spec.value("path", ""), dtype, spec.value("shape", std::vector<int64_t>{}));
  }

  Result<Trial> LoadTrial(const Json& data) {
    Trial t;
    if (data["inputs"].size() != inputs_.size() || data["reference"].size() != outputs_.size()) {
      return InvalidArgument("trial data does not match the interface's inputs and outputs");
    }
    for (size_t i = 0; i < inputs_.size(); ++i) {
      ARENA_ASSIGN_OR_RETURN(HostTensor x, ReadTensor(data["inputs"][i]));
      if (x.dtype != inputs_[i].dtype) {
        return InvalidArgument("input '" + inputs_[i].name + "' is " + DtypeName(x.dtype) +
                               ", the interface says " + DtypeName(inputs_[i].dtype));
      }
      t.inputs.push_back(std::move(x));
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      Json spec = data["reference"][i];
      spec["dtype"] = "float64";
      ARENA_ASSIGN_OR_RETURN(HostTensor r, ReadTensor(spec));
      t.out_shapes.push_back(r.shape);
      std::vector<double> values(static_cast<size_t>(r.numel));
      if (!values.empty()) std::memcpy(values.data(), r.bytes.data(), r.bytes.size());
      t.reference.push_back(std::move(values));
    }
    return t;
  }

  // The trials named by `specs`, read side by side.
  std::vector<Result<Trial>> LoadTrials(const std::vector<Json>& specs) {
    std::vector<Result<Trial>> loaded(specs.size(), Internal("not read"));
    std::vector<std::thread> readers;
    for (size_t i = 0; i < specs.size(); ++i) {
      readers.emplace_back([&, i] { loaded[i] = LoadTrial(specs[i]); });
    }
    for (auto& t : readers) t.join();
    return loaded;
  }

  // The trials of `seeds`, side by side; those that fail are left out (the
  // caller's PrepareTrial reports the error in trial order).
  std::map<uint64_t, Trial> MakeTrials(const ParameterValues& p, const std::vector<ArenaParam>& params,
                                       const std::vector<uint64_t>& seeds) {
    std::vector<Result<Trial>> made(seeds.size(), Internal("not prepared"));
    std::vector<std::thread> pool;
    for (size_t i = 0; i < seeds.size(); ++i) {
      pool.emplace_back([&, i] { made[i] = MakeTrial(p, params, seeds[i]); });
    }
    for (auto& t : pool) t.join();
    std::map<uint64_t, Trial> out;
    for (size_t i = 0; i < seeds.size(); ++i) {
      if (made[i].ok()) out.emplace(seeds[i], std::move(*made[i]));
    }
    return out;
  }

  // Trials of the next configuration, prepared on a background thread.
  struct Prefetch {
    std::string key;
    ConfigParams params;
    std::map<uint64_t, Trial> trials;
    std::thread thread;
  };

  void StartPrefetch(const Json& next, uint64_t seed, int trials) {
    const std::string key = next.value("name", "") + "/" + Json(seed).dump();
    if (prefetch_ && prefetch_->key == key) return;
    if (key == trial_key_ || shelf_.Contains(key)) return;  // prepared already
    StopPrefetch();
    auto pf = std::unique_ptr<Prefetch>(new Prefetch{key, ConfigParams(next["params"]), {}, {}});
    std::vector<uint64_t> seeds;
    for (int trial = 0; trial < trials; ++trial) seeds.push_back(TrialSeed(seed, trial));
    Prefetch* raw = pf.get();
    pf->thread = std::thread(
        [this, raw, seeds] { raw->trials = MakeTrials(raw->params.numeric, raw->params.args, seeds); });
    prefetch_ = std::move(pf);
  }

  // The prefetch ends before anything is timed, and is kept: its threads
  // (host allocations of gigabytes, the CPU reference) slowed the GPU
  // rounds that ran beside them by up to 2.2x, in whichever subject's
  // rounds they fell (docs/results/hip-timing-quiet-h200-2026-12-02/).
  void FinishPrefetch() {
    if (prefetch_ && prefetch_->thread.joinable()) prefetch_->thread.join();
  }

  void StopPrefetch() {
    FinishPrefetch();
    prefetch_.reset();
  }

  // Wall seconds spent in each phase of a check, reported with it so that a
  // run shows where its checking time goes.
  struct PhaseClock {
    std::map<std::string, double> seconds;
    std::chrono::steady_clock::time_point mark = std::chrono::steady_clock::now();
    void Lap(const std::string& phase) {
      const auto now = std::chrono::steady_clock::now();
      seconds[phase] += std::chrono::duration<double>(now - mark).count();
      mark = now;
    }
    Json ToJson() const {
      Json j = Json::object();
      for (const auto& [phase, s] : seconds) j[phase] = s;
      return j;
    }
  };


  // `src` copied into host memory kept between checks (slot `slot`), page
  // locked once per judge rather than staged on every download of every
  // trial; valid until the slot's next download.
  const HostTensor& DownloadKept(size_t slot, const void* src, ArenaDtype dtype, const std::vector<int64_t>& shape) {
    if (kept_.size() <= slot) {
      kept_.resize(slot + 1);
      kept_locked_.resize(slot + 1, {nullptr, 0});
    }
    HostTensor& t = kept_[slot];
    t.dtype = dtype;
    t.shape = shape;
    t.numel = Numel(shape);
    const size_t bytes = static_cast<size_t>(t.numel) * DtypeSize(dtype);
    auto& [locked, locked_bytes] = kept_locked_[slot];
    // Unlocked before the memory moves or is freed.
    auto unlock = [&] {
      if (locked != nullptr) cudaHostUnregister(locked);
      locked = nullptr;
      locked_bytes = 0;
    };
    if (bytes > t.bytes.capacity()) unlock();
    t.bytes.resize(bytes);
    if (t.bytes.data() != locked || t.bytes.capacity() != locked_bytes) {
      unlock();
      // Only worth it for large downloads; pageable memory works otherwise.
      if (t.bytes.capacity() >= (size_t{1} << 20) &&
          cudaHostRegister(t.bytes.data(), t.bytes.capacity(), cudaHostRegisterDefault) == cudaSuccess) {
        locked = t.bytes.data();
        locked_bytes = t.bytes.capacity();
      }
      cudaGetLastError();  // a refused registration is not an error of what follows
    }
    if (!t.bytes.empty() && cudaMemcpy(t.bytes.data(), src, t.bytes.size(), cudaMemcpyDeviceToHost) != cudaSuccess) {
      unlock();
      t = Poisoned(dtype, shape);  // never compared as if downloaded
    }
    return t;
  }

  std::vector<std::pair<ArenaDtype, std::vector<int64_t>>> Specs(const std::vector<HostTensor>& ts) const {
    std::vector<std::pair<ArenaDtype, std::vector<int64_t>>> s;
    for (const auto& t : ts) s.push_back({t.dtype, t.shape});
    return s;
  }
  std::vector<std::pair<ArenaDtype, std::vector<int64_t>>> OutSpecs(
      const std::vector<std::vector<int64_t>>& shapes) const {
    std::vector<std::pair<ArenaDtype, std::vector<int64_t>>> s;
    for (size_t i = 0; i < outputs_.size(); ++i) s.push_back({outputs_[i].dtype, shapes[i]});
    return s;
  }

  static Json ParamList(const std::vector<ArenaParam>& params) {
    Json a = Json::array();
    for (const auto& p : params) a.push_back(Json::array({p.name, p.value}));
    return a;
  }

  Json Check(const Json& req) {
    PhaseClock phases;
    if (Status s = EnsureFill(); !s.ok()) return Reply("error", s.message());
    Log("check " + req.value("subject", std::string()) + " " + req["config"].value("name", ""));
    const std::string subject = req["subject"];
    auto runner = Runner(subject);
    if (!runner.ok()) {
      Json reply = Reply("failed", runner.status().message());
      if (auto it = runners_.find(subject); it != runners_.end() && it->second) reply["log"] = it->second->LogTail();
      return reply;
    }
    RunnerClient* r = *runner;
    const ConfigParams config_params(req["config"]["params"]);
    const ParameterValues& p = config_params.numeric;
    const std::vector<ArenaParam>& params = config_params.args;
    const std::string key = req["config"].value("name", "") + "/" + req["seed"].dump();
    Json fingerprints = Json::array();
    double max_abs = 0, max_rel = 0;
    int trials = req.value("trials", 3);
    if (req.contains("data")) {
      // Trials prepared by another process (a PyTorch reference).
      trials = static_cast<int>(req["data"].size());
      trials_.clear();  // sent with every request: nothing to keep for later
      ResetTrials(key);
      std::vector<Result<Trial>> loaded = LoadTrials(std::vector<Json>(req["data"].begin(), req["data"].end()));
      for (int trial = 0; trial < trials; ++trial) {
        auto& t = loaded[static_cast<size_t>(trial)];
        if (!t.ok()) return Reply("error", "trial data: " + t.status().message());
        trials_[TrialSeed(req["seed"].get<uint64_t>(), trial)] = std::move(*t);
      }
    } else if (reference_ == nullptr) {
      return Reply("error", "no reference: the request carries no trial data");
    } else {
      // The trials' inputs and references are independent: on the first
      // subject's check of a configuration they are prepared side by side
      // (the CPU reference is the slow part of a check). The results are
      // kept; the loop below reports any error in trial order.
      if (trial_key_ != key) ResetTrials(key);
      if (prefetch_ && prefetch_->key == key) {
        // Prepared in the background while the previous configuration ran.
        FinishPrefetch();
        for (auto& [trial_seed, t] : prefetch_->trials) trials_.emplace(trial_seed, std::move(t));
        prefetch_.reset();
      }
      std::vector<uint64_t> missing;
      for (int trial = 0; trial < trials; ++trial) {
        uint64_t seed = TrialSeed(req["seed"].get<uint64_t>(), trial);
        if (!trials_.count(seed)) missing.push_back(seed);
      }
      for (auto& [trial_seed, t] : MakeTrials(p, params, missing)) trials_.emplace(trial_seed, std::move(t));
      // The next configuration's trials are prepared while this one runs on
      // the GPU (its checks and timing): the CPU reference is the slow part.
      if (req.contains("prefetch")) StartPrefetch(req["prefetch"], req["seed"].get<uint64_t>(), trials);
    }
    phases.Lap("prepare_s");  // inputs drawn or read, CPU references computed
    for (int trial = 0; trial < trials; ++trial) {
      uint64_t seed = TrialSeed(req["seed"].get<uint64_t>(), trial);
      auto prepared = PrepareTrial(p, params, key, seed);
      if (!prepared.ok()) {
        return Reply(prepared.status().code() == StatusCode::kInternal ? "error" : "failed",
                     prepared.status().message());
      }
      const Trial& t = **prepared;
      phases.Lap("prepare_s");
      // The trial in the subject's lent memory: fresh inputs, poisoned outputs.
      size_t total = 0;
      auto [in, out] = Place(Specs(t.inputs), OutSpecs(t.out_shapes), 1, &total);
      if (Status s = r->Reserve(vmm_, total, timeout_s_); !s.ok()) return RunnerFailure(r, s);
      auto* base = reinterpret_cast<uint8_t*>(r->slab_ptr());
      // Without the device memory for the judge's copy, the inputs go up
      // from the host and come back down to be compared.
      auto pristine = DeviceInputs(seed, t);
      if (!pristine.ok() && pristine.status().code() != StatusCode::kUnavailable) {
        return Reply("error", pristine.status().message());
      }
      const DeviceTensors* copies = pristine.ok() ? *pristine : nullptr;
      for (size_t i = 0; i < in.size(); ++i) {
        const cudaError_t e =
            in[i].bytes == 0 ? cudaSuccess
            : copies != nullptr
                ? cudaMemcpy(base + in[i].off, (*copies)[i]->ptr, in[i].bytes, cudaMemcpyDeviceToDevice)
                : cudaMemcpy(base + in[i].off, t.inputs[i].bytes.data(), in[i].bytes, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) return Reply("error", "copying an input to the subject's memory failed");
      }
      for (const auto& o : out) {
        if (Status s = Poison(base + o.off, o.dtype, static_cast<size_t>(Numel(o.shape))); !s.ok()) {
          return Reply("error", s.message());
        }
      }
      phases.Lap("transfer_s");
      bool ok = false;
      Json failure = Ask(r, {{"op", "call"}, {"sets", 1}, {"in", Describe(in, r->slab_id())},
                             {"out", Describe(out, r->slab_id())}, {"params", ParamList(params)}}, &ok);
      phases.Lap("run_s");
      if (!ok) return failure;
      if (Json seen = Observed(r, true, "in a checked call (trial " + std::to_string(trial) + ")");
          !seen.is_null()) {
        return seen;
      }
      phases.Lap("observe_s");
      for (size_t i = 0; i < inputs_.size(); ++i) {
        bool modified = false;
        if (copies != nullptr) {
          auto differs = fill_->Differs(base + in[i].off, (*copies)[i]->ptr, in[i].bytes);
          if (!differs.ok()) return Reply("error", differs.status().message());
          modified = *differs;
        } else {
          modified = DownloadKept(0, base + in[i].off, in[i].dtype, in[i].shape).bytes != t.inputs[i].bytes;
        }
        if (modified) return Reply("failed", "input '" + inputs_[i].name + "' was modified");
      }
      Json trial_prints = Json::array();
      for (size_t i = 0; i < outputs_.size(); ++i) {
        phases.Lap("compare_s");  // the earlier outputs compared and fingerprinted
        const HostTensor& got = DownloadKept(1 + i, base + out[i].off, out[i].dtype, out[i].shape);
        phases.Lap("transfer_s");
        const auto [atol, rtol] = Tolerance(i);
        Comparison c = Compare(outputs_[i].name, got, t.reference[i], atol, rtol);
        max_abs = std::max(max_abs, c.max_abs_err);
        max_rel = std::max(max_rel, c.max_rel_err);
        if (!c.ok) {
          return Reply("failed", "trial " + std::to_string(trial) + ": " + c.detail,
                       {{"max_abs_err", max_abs}, {"max_rel_err", max_rel}});
        }
        trial_prints.push_back(Fingerprint(got));
      }
      fingerprints.push_back(trial_prints);
    }
    phases.Lap("compare_s");
    return Reply("passed", std::to_string(trials) + " trial(s) within tolerance",
                 {{"max_abs_err", max_abs}, {"max_rel_err", max_rel}, {"fingerprints", fingerprints},
                  {"trials", trials}, {"phases", phases.ToJson()},
                  {"observation", observation_[r->subject()]}});
  }

  // Input i's init with its expressions evaluated.
  Result<Json> EvaluatedInit(size_t i, const ParameterValues& p) const {
    Json init = inputs_[i].init;
    for (const char* k : {"low", "high", "mean", "std"}) {
      if (init.contains(k) && init[k].is_string()) {
        ARENA_ASSIGN_OR_RETURN(double v, EvaluateExpression(init[k].get<std::string>(), p));
        init[k] = v;
      }
    }
    return init;
  }

  // Microseconds from a request to its accepted answer; a runner's failure
  // goes to `*failure`.
  double RoundTrip(RunnerClient* r, const Json& req, Json* failure) {
    const auto t0 = std::chrono::steady_clock::now();
    bool ok = false;
    Json f = Ask(r, req, &ok);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (!ok && failure->is_null()) *failure = f;
    return us;
  }

  // Times the subjects from the judge's clock, in rounds.
  //
  // A round lends a subject N sets of fresh inputs (windows at secret
  // offsets into pools drawn from a secret seed) and poisoned outputs, asks
  // its runner to run them all (one CUDA graph replay, or eager calls) and
  // waits for its answer; the round ends when the judge has copied the
  // outputs of one set, chosen in secret, out of its own memory. That set is
  // verified afterwards, inputs included: against the other subject's
  // outputs on the same inputs when both are timed, against a reference
  // computed elsewhere (the request's "verify" trials, which then fill the
  // chosen set) when one subject is timed alone. A runner that answers
  // before its work is done, skips or caches calls, or behaves differently
  // when timed is caught, and all its work, on any stream or host thread,
  // is inside the round. The other subject's runner is stopped (SIGSTOP)
  // meanwhile.
  Json Time(const Json& req) {
    PhaseClock phases;  // where the stage's time goes, reported with it
    FinishPrefetch();   // nothing of the judge's own runs beside a round
    phases.Lap("prefetch_s");
    const std::vector<std::string> order = req.value("subjects", kSubjects);
    const bool alone = order.size() == 1;
    std::map<std::string, RunnerClient*> runners;
    for (const auto& s : order) {
      auto r = Runner(s);
      if (!r.ok()) return Reply("failed", r.status().message());
      runners[s] = *r;
    }
    const ConfigParams config_params(req["config"]["params"]);
    const ParameterValues& p = config_params.numeric;
    const std::vector<ArenaParam>& params = config_params.args;
    const Json plist = ParamList(params);
    const Json timing = task_["timing"];
    const int rounds = req.value("rounds", std::max(10, std::min(timing.value("repetitions", 100), 30)));
    std::vector<std::pair<ArenaDtype, std::vector<int64_t>>> in_specs, out_specs;
    for (const auto& t : inputs_) {
      auto shape = Shape(t, p);
      if (!shape.ok()) return Reply("failed", shape.status().message());
      in_specs.push_back({t.dtype, *shape});
    }
    std::vector<std::vector<int64_t>> out_shapes;
    for (const auto& t : outputs_) {
      auto shape = Shape(t, p);
      if (!shape.ok()) return Reply("failed", shape.status().message());
      out_shapes.push_back(*shape);
    }
    out_specs = OutSpecs(out_shapes);
    // The verification trials, kept with the pools drawn from them while
    // requests name the same ones ("verify_id"): a configuration timed
    // alone comes in several requests, and its trials can be gigabytes.
    const Json verify_json = req.value("verify", Json::array());
    const std::string verify_key =
        req.contains("verify_id") ? req["verify_id"].dump() + verify_json.dump() : std::string();
    if (verify_key.empty() || verify_key != alone_.key) {
      alone_ = AloneData{};
      std::vector<Json> specs(verify_json.begin(), verify_json.end());
      std::vector<Result<Trial>> loaded = LoadTrials(specs);
      for (auto& t : loaded) {
        if (!t.ok()) return Reply("error", "verification trial: " + t.status().message());
        for (size_t i = 0; i < inputs_.size(); ++i) {
          if (t->inputs[i].shape != in_specs[i].second) {
            return Reply("error", "verification trial: input '" + inputs_[i].name + "' has another shape");
          }
        }
        alone_.trials.push_back(std::move(*t));
      }
    }
    alone_.key = verify_key;
    const std::vector<Trial>& verify = alone_.trials;
    if (alone && verify.empty()) return Reply("error", "a subject timed alone needs verification trials");
    std::random_device entropy;
    std::mt19937_64 rng((static_cast<uint64_t>(entropy()) << 32) ^ entropy());

    Json failure;  // the first runner failure, if any
    // A round trip with no work, through the baseline's runner: a candidate
    // cannot inflate what is subtracted from its own time. Timed alone,
    // nothing is subtracted (the rounds are long enough for it not to
    // matter much, and it counts against the subject).
    double overhead = 0;
    if (!alone) {
      std::vector<double> empty;
      for (int i = 0; i < 9; ++i) empty.push_back(RoundTrip(runners.at("baseline"), {{"op", "empty"}}, &failure));
      if (!failure.is_null()) return failure;
      overhead = Median(empty);
    }
    std::vector<Json> inits;  // per input: drawn on the device (both subjects timed)
    if (Status s = EnsureFill(); !s.ok()) return Reply("error", s.message());
    if (!alone) {
      for (size_t i = 0; i < inputs_.size(); ++i) {
        auto init = EvaluatedInit(i, p);
        if (!init.ok()) return Reply("failed", init.status().message());
        inits.push_back(*init);
      }
    }
    // One eager call of each subject on one set: the size of a round. Its
    // inputs: the first verification trial's, or drawn on the device.
    const uint64_t probe_seed = rng();
    size_t per_set = 0;
    auto [in1, out1] = Place(in_specs, out_specs, 1, &per_set);
    std::map<std::string, double> single;
    for (const auto& s : order) {
      RunnerClient* r = runners[s];
      if (Status st = r->Reserve(vmm_, per_set, timeout_s_); !st.ok()) return RunnerFailure(r, st);
      auto* base = reinterpret_cast<uint8_t*>(r->slab_ptr());
      for (size_t i = 0; i < in1.size(); ++i) {
        if (alone) {
          cudaMemcpy(base + in1[i].off, verify[0].inputs[i].bytes.data(), in1[i].bytes, cudaMemcpyHostToDevice);
        } else if (Status st = fill_->Fill(base + in1[i].off, in1[i].stride, 1, static_cast<size_t>(Numel(in1[i].shape)),
                                           in1[i].dtype, inits[i], probe_seed + 0x9E3779B97F4A7C15ull * i);
                   !st.ok()) {
          return Reply("error", st.message());
        }
      }
      std::vector<double> times;
      for (int k = 0; k < 3; ++k) {
        for (const auto& o : out1) (void)Poison(base + o.off, o.dtype, static_cast<size_t>(Numel(o.shape)));
        times.push_back(RoundTrip(r, {{"op", "call"}, {"sets", 1}, {"in", Describe(in1, r->slab_id())},
                                      {"out", Describe(out1, r->slab_id())}, {"params", plist}},
                                  &failure));
        if (!failure.is_null()) return failure;
      }
      single[s] = std::max(Median(times) - overhead, 1.0);
    }
    phases.Lap("probe_s");  // trials read, runners sized, one eager call each
    double estimate = 1e300;
    for (const auto& [s, us] : single) estimate = std::min(estimate, us);
    size_t free = 0, total_mem = 0;
    cudaMemGetInfo(&free, &total_mem);
    const size_t budget = std::min<size_t>(size_t{8} << 30, free / 8);
    const size_t cap = std::max<size_t>(1, std::min<size_t>(4096, budget / std::max<size_t>(per_set, 1)));
    auto sets_for = [&](double us_per_set) {
      const double want = std::max(std::ceil(5000.0 / std::max(us_per_set, 0.05)),
                                   std::ceil(2.0 * static_cast<double>(l2_bytes_) / static_cast<double>(per_set)));
      return std::clamp<size_t>(static_cast<size_t>(want), 1, cap);
    };
    size_t count = sets_for(estimate);

    // Everything a round needs, for `count` sets.
    std::vector<Placed> in, out;
    size_t total = 0, out_base = 0;
    // Timed alone, the other sets of a round are windows at secret offsets
    // into pools made of the verification trials' inputs (the task's own
    // input makers drew them); with both subjects timed, every set of every
    // round is drawn afresh on the device (DeviceFill).
    std::vector<std::unique_ptr<DeviceBuffer>>& device_pools = alone_.pools;
    std::vector<size_t>& slack = alone_.slack;  // per input: the largest window offset
    std::unique_ptr<DeviceBuffer> poison;
    std::string mode;
    // Every set of a round's inputs in a subject's lent memory: drawn on
    // the device (both subjects timed), or windows of the pools at
    // `offsets` with the chosen trial's data in set `secret` (alone). Never
    // left as it was: memory lent again may hold anything, and a kernel
    // that follows indices must find valid ones in every round it runs.
    auto fill_sets = [&](uint8_t* base, uint64_t seed, const std::vector<std::vector<size_t>>& offsets,
                         size_t secret, const Trial* vt) -> Status {
      cudaError_t e = cudaSuccess;
      for (size_t i = 0; i < in.size() && e == cudaSuccess; ++i) {
        const size_t es = DtypeSize(in[i].dtype);
        if (!alone) {
          ARENA_RETURN_IF_ERROR(fill_->Fill(base + in[i].off, in[i].stride, count,
                                            static_cast<size_t>(Numel(in[i].shape)), in[i].dtype, inits[i],
                                            seed + 0x9E3779B97F4A7C15ull * i));
          continue;
        }
        const auto* pool = static_cast<const uint8_t*>(device_pools[i]->ptr);
        for (size_t k = 0; k < count && e == cudaSuccess; ++k) {
          e = cudaMemcpyAsync(base + in[i].off + k * in[i].stride, pool + offsets[i][k] * es, in[i].bytes,
                              cudaMemcpyDeviceToDevice, nullptr);
        }
        if (e == cudaSuccess) {
          e = cudaMemcpy(base + in[i].off + secret * in[i].stride, vt->inputs[i].bytes.data(), in[i].bytes,
                         cudaMemcpyHostToDevice);
        }
      }
      if (e == cudaSuccess) e = cudaDeviceSynchronize();
      if (e != cudaSuccess) return Internal("preparing a timing round failed: " + CudaText(e));
      return OkStatus();
    };
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::tie(in, out) = Place(in_specs, out_specs, count, &total);
      out_base = out.empty() ? total : out[0].off;
      // Per input, a pool of the trials' inputs end to end (twice an
      // input's length, or more): made once per set of trials.
      for (size_t i = device_pools.size(); i < in.size() && alone; ++i) {
        const size_t n = static_cast<size_t>(Numel(in[i].shape));
        const size_t es = DtypeSize(in[i].dtype);
        const size_t window_slack = std::max<size_t>(n, 65536);
        const size_t len = n + window_slack;
        auto dev = std::make_unique<DeviceBuffer>(len * es);
        if (dev->ptr == nullptr) {
          alone_ = AloneData{};
          return Reply("failed", "out of device memory for the timing inputs");
        }
        cudaError_t e = cudaSuccess;
        for (size_t at = 0, k = 0; at < len && e == cudaSuccess; ++k) {
          const auto& src = verify[k % verify.size()].inputs[i].bytes;
          const size_t take = std::min(src.size() / es, len - at);
          if (take == 0) {  // an empty input: the pool is its poison
            const HostTensor rest = Poisoned(in[i].dtype, {static_cast<int64_t>(len - at)});
            e = cudaMemcpy(static_cast<uint8_t*>(dev->ptr) + at * es, rest.bytes.data(), rest.bytes.size(),
                           cudaMemcpyHostToDevice);
            break;
          }
          e = cudaMemcpy(static_cast<uint8_t*>(dev->ptr) + at * es, src.data(), take * es, cudaMemcpyHostToDevice);
          at += take;
        }
        if (e != cudaSuccess) {
          alone_ = AloneData{};
          return Reply("error", "preparing the timing inputs failed: " + CudaText(e));
        }
        slack.push_back(window_slack);
        device_pools.push_back(std::move(dev));
      }
      // The outputs' poison, copied over them before every round.
      poison = std::make_unique<DeviceBuffer>(total - out_base);
      if (poison->ptr == nullptr) return Reply("failed", "out of device memory for the timing outputs");
      for (const auto& o : out) {
        const size_t n = o.stride * count / DtypeSize(o.dtype);
        if (Status st = Poison(static_cast<uint8_t*>(poison->ptr) + (o.off - out_base), o.dtype, n); !st.ok()) {
          return Reply("error", st.message());
        }
      }
      phases.Lap("pools_s");  // memory lent, pools and poison made
      mode = "graph";
      for (const auto& s : order) {
        RunnerClient* r = runners[s];
        if (Status st = r->Reserve(vmm_, total, timeout_s_); !st.ok()) return RunnerFailure(r, st);
        auto a = r->Request({{"op", "capture"}, {"sets", count}, {"in", Describe(in, r->slab_id())},
                             {"out", Describe(out, r->slab_id())}, {"params", plist}},
                            timeout_s_);
        if (!a.ok()) return RunnerFailure(r, a.status());
        if (!(*a)["ok"].get<bool>()) mode = "eager";
        if (Json seen = Observed(r, (*a)["ok"].get<bool>(), "while captured for timing"); !seen.is_null()) {
          return seen;
        }
      }
      phases.Lap("capture_s");
      // One round of each subject: resized so that the faster one's lasts
      // about 5 ms (one eager call was the estimate), but the slower one's
      // no more than 50 ms (a subject 1000 times slower than the other
      // must not run its rounds past the stage's limit).
      Log("time " + req["config"].value("name", "") + ": " + std::to_string(count) + " sets of " +
          std::to_string(per_set) + " bytes, " + mode + ", pools and capture ready");
      double fastest = 1e300, slowest = 0;
      for (const auto& s : order) {
        RunnerClient* r = runners[s];
        if (Status st = fill_sets(reinterpret_cast<uint8_t*>(r->slab_ptr()), rng(),
                                  std::vector<std::vector<size_t>>(slack.size(), std::vector<size_t>(count, 0)), 0,
                                  alone ? &verify[0] : nullptr);
            !st.ok()) {
          return Reply("error", st.message());
        }
        const double us = RoundTrip(r, Request(mode, count, in, out, r->slab_id(), plist), &failure) - overhead;
        Log("time: a round of " + s + " took " + std::to_string(us) + " us");
        if (!failure.is_null()) return failure;
        fastest = std::min(fastest, us);
        slowest = std::max(slowest, us);
      }
      size_t resized = std::clamp<size_t>(static_cast<size_t>(std::ceil(count * 5000.0 / std::max(fastest, 1.0))), 1, cap);
      const size_t slow_cap = std::max<size_t>(1, static_cast<size_t>(count * 50000.0 / std::max(slowest, 1.0)));
      resized = std::min(resized, slow_cap);
      const bool far_off = fastest < 2500.0 || fastest > 10000.0 || slowest > 50000.0;
      if (attempt == 1 || !far_off || resized == count) break;
      count = resized;
    }

    // Per subject: the chosen set's outputs, copied out at the end of a round.
    size_t out_bytes = 0;
    for (const auto& o : out) out_bytes += o.stride;
    std::map<std::string, std::unique_ptr<DeviceBuffer>> snaps;
    for (const auto& s : order) {
      snaps[s] = std::make_unique<DeviceBuffer>(out_bytes);
      if (snaps[s]->ptr == nullptr) return Reply("failed", "out of device memory");
    }
    cudaEvent_t snap_start, snap_end;
    cudaEventCreate(&snap_start);
    cudaEventCreate(&snap_end);
    // What evicting the L2 takes on an otherwise idle GPU.
    std::vector<double> evictions;
    for (int k = 0; k < 5; ++k) evictions.push_back(TimedEviction(k));
    const double quiet_us = Median(evictions);
    phases.Lap("setup_s");  // the sizing round, snapshots, the idle eviction's time
    std::map<std::string, std::vector<double>> samples;
    double worst_abs = 0, worst_rel = 0;
    for (int round = 0; round <= rounds; ++round) {  // round 0 warms up
      // Alone: offsets[i][k], where set k's window of input i starts in
      // its pool. Both: the round's seed, the same for both subjects.
      std::vector<std::vector<size_t>> offsets;
      for (size_t i = 0; i < slack.size(); ++i) {
        std::uniform_int_distribution<size_t> pick(0, slack[i]);
        offsets.emplace_back();
        for (size_t k = 0; k < count; ++k) offsets.back().push_back(pick(rng));
      }
      const uint64_t round_seed = rng();
      const size_t secret = std::uniform_int_distribution<size_t>(0, count - 1)(rng);
      const Trial* vt = alone ? &verify[static_cast<size_t>(round) % verify.size()] : nullptr;
      std::vector<std::string> turn = order;
      if (round % 2 == 1) std::reverse(turn.begin(), turn.end());
      for (const auto& s : turn) {
        RunnerClient* r = runners[s];
        auto* base = reinterpret_cast<uint8_t*>(r->slab_ptr());
        phases.Lap("verify_s");
        if (Status st = fill_sets(base, round_seed, offsets, secret, vt); !st.ok()) {
          return Reply("error", st.message());
        }
        cudaError_t e = cudaSuccess;
        // The chosen set's inputs, sampled before the round: they must be
        // there, unchanged, after it.
        std::vector<Sample> in_samples;
        std::vector<HostTensor> before;
        for (size_t i = 0; i < in.size() && e == cudaSuccess; ++i) {
          in_samples.push_back(PickSample(static_cast<size_t>(Numel(in[i].shape)), rng));
          before.push_back(Sampled(base + in[i].off + secret * in[i].stride, in[i].dtype, in_samples[i]));
        }
        if (e == cudaSuccess) e = cudaMemcpy(base + out_base, poison->ptr, total - out_base, cudaMemcpyDeviceToDevice);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) return Reply("error", "preparing a timing round failed: " + CudaText(e));
        phases.Lap("fill_s");  // inputs drawn, sampled, outputs poisoned
        // Every runner stopped, the L2 evicted, and the GPU free of work
        // left running (kernels a subject launched from a thread of its
        // own, to slow down whoever is timed next): waited for, and a
        // finding if it never ends. Then the subject timed, alone.
        for (const auto& any : order) runners[any]->Freeze(true);
        if (std::string busy = EvictAndWaitQuiet(quiet_us, round); !busy.empty()) {
          for (const auto& any : order) runners[any]->Freeze(false);
          return Finding("a subject left work running on the GPU for over 2 s after its runner was stopped, "
                         "before " + s + " was timed (" + busy + ")");
        }
        r->Freeze(false);
        phases.Lap("quiet_s");  // runners stopped, L2 evicted, the GPU idle
        // One empty round trip first: the runner is running again, and
        // waking it up is not in the round.
        Json woke;
        RoundTrip(r, {{"op", "empty"}}, &woke);
        if (!woke.is_null()) {
          for (const auto& any : order) runners[any]->Freeze(false);
          return woke;
        }
        phases.Lap("wake_s");
        const auto t0 = std::chrono::steady_clock::now();
        bool ok = false;
        Json f = Ask(r, Request(mode, count, in, out, r->slab_id(), plist), &ok);
        cudaEventRecord(snap_start, nullptr);
        size_t at = 0;
        for (const auto& o : out) {
          cudaMemcpyAsync(static_cast<uint8_t*>(snaps[s]->ptr) + at, base + o.off + secret * o.stride, o.bytes,
                          cudaMemcpyDeviceToDevice, nullptr);
          at += o.stride;
        }
        cudaEventRecord(snap_end, nullptr);
        cudaEventSynchronize(snap_end);
        const double elapsed =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        for (const auto& other : order) {
          if (other != s) runners[other]->Freeze(false);
        }
        phases.Lap("round_s");
        if (!ok) return f;
        if (Json seen = Observed(r, mode != "graph", "in a timed round (round " + std::to_string(round) + ")");
            !seen.is_null()) {
          return seen;
        }
        phases.Lap("observe_s");
        Log("round " + std::to_string(round) + " " + s + ": " + std::to_string(elapsed) + " us");
        float snap_ms = 0;
        cudaEventElapsedTime(&snap_ms, snap_start, snap_end);
        if (round > 0) {
          samples[s].push_back(std::max(elapsed - snap_ms * 1000.0 - overhead, 0.0) / static_cast<double>(count));
        }
        for (size_t i = 0; i < in.size(); ++i) {
          const HostTensor now = Sampled(base + in[i].off + secret * in[i].stride, in[i].dtype, in_samples[i]);
          if (now.bytes != before[i].bytes) {
            return Finding(s + ": input '" + inputs_[i].name + "' was modified in a timed call (round " +
                           std::to_string(round) + ")");
          }
        }
      }
      // The chosen set's outputs.
      for (size_t o = 0, at = 0; o < out.size(); at += out[o].stride, ++o) {
        const auto [atol, rtol] = Tolerance(o);
        const Sample sample = PickSample(static_cast<size_t>(Numel(out[o].shape)), rng);
        std::map<std::string, HostTensor> got;
        for (const auto& s : order) {
          got[s] = Sampled(static_cast<uint8_t*>(snaps[s]->ptr) + at, out[o].dtype, sample);
        }
        Comparison c;
        std::string what;
        if (alone) {
          std::vector<double> want(sample.count);
          for (size_t j = 0; j < sample.count; ++j) want[j] = vt->reference[o][sample.start + j * sample.stride];
          c = Compare(outputs_[o].name, got[order[0]], want, atol, rtol);
          what = order[0] + ": a timed call's outputs are wrong";
        } else {
          // Each within the tolerance of the reference: within twice of each other.
          c = Compare(outputs_[o].name, got["candidate"], Widen(got["baseline"]), 2 * atol, 2 * rtol);
          what = "candidate: a timed call's outputs differ from the baseline's on the same inputs";
        }
        worst_abs = std::max(worst_abs, c.max_abs_err);
        worst_rel = std::max(worst_rel, c.max_rel_err);
        if (!c.ok) return Finding(what + " (round " + std::to_string(round) + "): " + c.detail);
      }
    }
    cudaEventDestroy(snap_start);
    cudaEventDestroy(snap_end);
    phases.Lap("verify_s");  // inputs re-sampled, the chosen set compared
    const std::string method = "judge-clock+" + std::string(mode == "graph" ? "cuda-graph" : "eager") +
                               "-rounds-of-" + std::to_string(count) +
                               "-fresh-input-sets+secret-verified-set" + (alone ? "" : "+interleaved");
    Json single_json = Json::object();
    for (const auto& [s, us] : single) single_json[s] = us;
    Json metrics = {{"method", method},
                    {"sets_per_round", count},
                    {"round_trip_us", overhead},
                    {"single_call_us", single_json},
                    {"verified", {{"max_abs_err", worst_abs}, {"max_rel_err", worst_rel}}},
                    {"observation", observation_},
                    {"phases", phases.ToJson()}};
    Json reply = Reply("passed", method, metrics);
    for (const auto& s : order) reply[s + "_us"] = samples[s];
    return reply;
  }

  // A sample of device memory, on the host: a strided one packed on the
  // device first (one copy, not one per element).
  HostTensor Sampled(const uint8_t* src, ArenaDtype dtype, const Sample& s) {
    if (s.stride == 1 || !fill_.has_value()) return DownloadSample(src, dtype, s);
    const size_t es = DtypeSize(dtype), bytes = s.count * es;
    if (gathered_ == nullptr || gathered_->bytes < bytes) gathered_ = std::make_unique<DeviceBuffer>(bytes);
    HostTensor t = Poisoned(dtype, {static_cast<int64_t>(s.count)});
    if (gathered_->ptr == nullptr || !fill_->Gather(src + s.start * es, s.stride, s.count, es, gathered_->ptr).ok() ||
        cudaMemcpy(t.bytes.data(), gathered_->ptr, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
      return Poisoned(dtype, {static_cast<int64_t>(s.count)});  // never compared as if downloaded
    }
    return t;
  }

  // Microseconds from submitting the judge's L2 eviction (a memset twice
  // the L2) to its end, on the host's clock: while another context's
  // kernels hold the GPU, the judge's work waits for its time slice.
  double TimedEviction(int value) {
    const auto t0 = std::chrono::steady_clock::now();
    // Lines marked persisting made ordinary first, so that the memset takes
    // them too (whether this reaches lines a runner's context marked is not
    // yet measured: the runner refuses a subject that marks any, in
    // observer.cc).
    cudaCtxResetPersistingL2Cache();
    cudaMemsetAsync(flush_->ptr, value & 0xff, flush_->bytes, nullptr);
    cudaStreamSynchronize(nullptr);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }

  // Evicts the L2 until an eviction takes what it takes on an idle GPU;
  // after two seconds, what it took ("" once quiet).
  std::string EvictAndWaitQuiet(double quiet_us, int value) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
      const double us = TimedEviction(value);
      if (us <= 2.0 * quiet_us + 50.0) return "";
      if (std::chrono::steady_clock::now() > deadline) {
        return "an L2 eviction took " + std::to_string(static_cast<int>(us)) + " us against " +
               std::to_string(static_cast<int>(quiet_us)) + " us when idle";
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
  }

  static Json Request(const std::string& mode, size_t count, const std::vector<Placed>& in,
                      const std::vector<Placed>& out, int slab, const Json& params) {
    if (mode == "graph") return {{"op", "replay"}};
    return {{"op", "call"}, {"sets", count}, {"in", Describe(in, slab)}, {"out", Describe(out, slab)},
            {"params", params}};
  }

 public:
  ~Worker() { StopPrefetch(); }

 private:
  Json task_;
  std::vector<TensorSpec> inputs_, outputs_;
  std::map<std::string, std::vector<std::string>> runner_argv_;
  std::map<std::string, std::unique_ptr<RunnerClient>> runners_;
  std::map<std::string, std::string> observation_;  // per subject: "cupti" or "unobserved: why"
  Vmm vmm_;
  double timeout_s_ = 60;
  std::string log_dir_;
  ReferenceFn reference_ = nullptr;
  size_t l2_bytes_ = 0;
  std::unique_ptr<DeviceBuffer> flush_;
  std::string trial_key_;
  std::map<uint64_t, Trial> trials_;
  // Earlier configurations' trials (ResetTrials).
  Shelf<std::map<uint64_t, Trial>> shelf_{ShelfBudget()};
  std::unique_ptr<Prefetch> prefetch_;
  std::vector<HostTensor> kept_;  // host memory check downloads land in, by slot
  std::vector<std::pair<uint8_t*, size_t>> kept_locked_;  // per slot: what is page locked
  std::optional<DeviceFill> fill_;  // the timing rounds' input generator
  std::unique_ptr<DeviceBuffer> gathered_;  // a strided sample, packed (Sampled)
  std::map<uint64_t, DeviceTensors> device_inputs_;  // by trial seed (DeviceInputs)
  size_t device_inputs_bytes_ = 0;
  // A subject timed alone: the verification trials of the last request
  // that named them, and per input the device pool drawn from them.
  struct AloneData {
    std::string key;
    std::vector<Trial> trials;
    std::vector<std::unique_ptr<DeviceBuffer>> pools;
    std::vector<size_t> slack;
  };
  AloneData alone_;
  int device_ = 0;
  std::FILE* log_ = nullptr;
  const std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

}  // namespace
}  // namespace arena::hip2hip

int main() {
  // Replies go to the real stdout; anything else printed goes to stderr.
  int reply_fd = dup(1);
  dup2(2, 1);
  FILE* reply = fdopen(reply_fd, "w");
  arena::hip2hip::Worker worker;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    nlohmann::json req = nlohmann::json::parse(line, nullptr, false);
    if (req.is_discarded()) continue;
    if (req.value("op", "") == "quit") break;
    auto start = std::chrono::steady_clock::now();
    nlohmann::json r;
    try {
      r = worker.Handle(req);
    } catch (const nlohmann::json::exception& e) {
      r = {{"status", "error"}, {"detail", std::string("malformed request: ") + e.what()}, {"log", ""},
           {"metrics", nlohmann::json::object()}};
    }
    r["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string out = r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::fputs(out.c_str(), reply);
    std::fflush(reply);
  }
  return 0;
}
