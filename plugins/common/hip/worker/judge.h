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
//
// The judge's parts: this class (requests, runners, trials, the L2
// eviction), its checks (check.cc) and its timing rounds (timing.cc); the
// request loop in worker.cc.
#ifndef ARENA_PLUGINS_COMMON_HIP_WORKER_JUDGE_H_
#define ARENA_PLUGINS_COMMON_HIP_WORKER_JUDGE_H_

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "core/expr.h"
#include "plugins/common/hip/runner/cuda_text.h"
#include "plugins/common/hip/runner/runner_client.h"
#include "plugins/common/hip/runner/vmm.h"
#include "plugins/common/hip/worker/alone_trials.h"
#include "plugins/common/hip/worker/device_fill.h"
#include "plugins/common/hip/worker/judge_support.h"
#include "plugins/common/hip/worker/prefetcher.h"
#include "plugins/common/hip/worker/shelf.h"
#include "plugins/common/hip/worker/tensors.h"

namespace arena::hip2hip {

class Judge {
 public:
  Json Handle(const Json& req) {
    const std::string op = req.value("op", "");
    if (op == "init") return Init(req);
    // A stage's request has the stage's limit from when it came, and each
    // runner request within it what is left of that: a subject too slow
    // over many requests is named here ("no answer within"), before the
    // family's own limit kills this judge and blames it.
    deadline_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                       std::chrono::duration<double>(timeout_s_));
    if (op == "hold") return Hold();
    if (Json ran = Release(); !ran.is_null()) return ran;
    if (op == "check") return CheckBelieved(req);
    if (op == "time") return Time(req);
    if (op == "late_check") return LateCheck(req);
    if (op == "load") return Load(req);
    return Reply("error", "unknown op '" + op + "'");
  }

  // While another process times a baseline (PyTorch-to-HIP's reference
  // worker times PyTorch between the candidate's requests): every runner
  // stopped (SIGSTOP, its whole tree) and the GPU waited for until it is
  // idle, so that no subject's threads take the CPUs the baseline's
  // launches need and no kernel it left running shares the GPU with it. A
  // finding where work still runs on the GPU 2 s later. The runners stay
  // stopped until the next request, which first names any that ran
  // meanwhile (Release).
  Json Hold() {
    bool any = false;
    for (auto& [name, r] : runners_) {
      if (r == nullptr || !r->alive()) continue;
      r->Freeze(true);
      held_.insert(name);
      any = true;
    }
    if (!any) return Reply("passed", "no runner to stop");
    if (flush_ == nullptr) return Reply("passed", "runners stopped");  // (no GPU: nothing runs there)
    if (std::string busy = EvictAndWaitQuiet(idle_us_, 0); !busy.empty()) {
      return Finding("a subject left work running on the GPU for over 2 s after its runner was stopped, "
                     "before another process timed the baseline (" + busy + ")");
    }
    return Reply("passed", "runners stopped, the GPU idle");
  }

  // The runners Hold stopped, resumed; a finding for one that ran on a CPU
  // while it was stopped (a SIGCONT of its own: it worked while the
  // baseline was timed).
  Json Release() {
    std::string ran;
    for (const std::string& name : held_) {
      auto it = runners_.find(name);
      if (it == runners_.end() || it->second == nullptr) continue;
      if (ran.empty()) ran = it->second->RanWhileStopped();
      it->second->Freeze(false);
    }
    held_.clear();
    return ran.empty() ? Json() : Finding(ran + " (while another process timed the baseline)");
  }

  // The evaluation's end ("quit"): every runner killed at once, then each
  // reaped (their GPU contexts gone before the judge ends), the log
  // flushed. The caller then ends the process without destructors: the
  // kernel frees its memory and context at once, and a prefetch still
  // computing a reference for a configuration that will not come is not
  // waited for.
  void End() {
    for (auto& [name, r] : runners_) {
      if (r != nullptr) r->Kill();
    }
    for (auto& [name, r] : runners_) {
      if (r != nullptr) r->Stop();
    }
    if (log_ != nullptr) std::fflush(log_);
  }

 private:
  // A baseline's failed check is believed only when it fails alone:
  // beside a live candidate runner (which may hold the device's memory, or
  // leave it busy, to starve the baseline where the candidate would be
  // slow, and so keep that configuration from being timed) it is checked
  // again with that runner stopped.
  Json CheckBelieved(const Json& req) {
    Json reply = Check(req);
    if (req.value("subject", "") != "baseline" || reply.value("status", "") == "passed") return reply;
    auto it = runners_.find("candidate");
    if (it == runners_.end() || it->second == nullptr || !it->second->alive()) return reply;
    it->second->Stop();
    Json alone = Check(req);
    alone["metrics"]["checked_again_alone"] =
        "failed beside the candidate's runner: " + reply.value("detail", std::string()).substr(0, 300);
    return alone;
  }

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
    quiet_rounds_ = req.value("quiet_rounds", true);
    device_trials_ = req.value("device_trials", false);
    log_dir_ = req.value("log_dir", std::string("."));
    device_ = req.value("device_index", 0);
    cudaError_t e = cudaSetDevice(device_);
    if (e == cudaSuccess) e = cudaFree(nullptr);
    if (e != cudaSuccess) return Reply("failed", std::string(kGpuRuntime) + ": " + CudaText(e));
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, req.value("device_index", 0));
    l2_bytes_ = static_cast<size_t>(l2);
    flush_ = std::make_unique<DeviceBuffer>(std::max<size_t>(2 * l2_bytes_, 64 << 20));
    IdleEvictionUs(5);  // before any runner has loaded a subject's library
    // Also before: the memory the rounds' sets are sized from. A subject
    // that held most of the GPU's would otherwise shrink every round's
    // sets, both subjects' alike, below twice the L2 (both timed on warm
    // data, which its kernels may gain more from); now its own stage
    // fails where the judge cannot lend what the rounds need.
    size_t total_mem = 0;
    cudaMemGetInfo(&free_at_start_, &total_mem);
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

  // What is left of the request's limit, for one runner request (never
  // nothing: a request past the deadline still gets a moment to answer).
  double Left() const {
    const double left = std::chrono::duration<double>(deadline_ - std::chrono::steady_clock::now()).count();
    return std::max(0.05, left);
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
    if (r != nullptr && r->alive()) {
      if (!r->ready()) ARENA_RETURN_IF_ERROR(r->AwaitReady(Left()));
      return r.get();
    }
    r = std::make_unique<RunnerClient>(subject, argv->second, log_dir_ + "/runner-" + subject + ".log");
    ARENA_RETURN_IF_ERROR(r->Launch());
    // The first time, every other subject's runner starts beside this one:
    // its start (a CUDA context, its library loaded) no longer waits for its
    // first request. One started before, even stopped since, is left as it is.
    for (const auto& [other, other_argv] : runner_argv_) {
      if (other_argv.empty() || runners_.count(other)) continue;
      auto o = std::make_unique<RunnerClient>(other, other_argv, log_dir_ + "/runner-" + other + ".log");
      if (o->Launch().ok()) runners_[other] = std::move(o);
    }
    ARENA_RETURN_IF_ERROR(r->AwaitReady(Left()));
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
    auto a = r->Request(req, Left());
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

  // A call that failed may still have been seen doing what is forbidden
  // (a set-aside of L2 refused, a copy to the host before a crash): the
  // finding is the verdict, as it names the act the failure may come from.
  // Without one, or when the runner is gone, the failure stands.
  Json FailureOrFinding(RunnerClient* r, Json failure, const std::string& when) {
    if (!r->alive()) return failure;
    Json seen = Observed(r, false, when);
    if (seen.is_null() || !seen["metrics"].contains("integrity")) return failure;
    seen["log"] = failure.value("log", std::string());
    return seen;
  }

  // What the subject's runner saw it do since the last look (CUPTI, see
  // runner/observer.h): host memory the GPU can reach, copies to the host,
  // the observation switched off, each an integrity finding; so is a call
  // (or capture) that launched no kernel, when `must_launch`. Null when all
  // is well, or when the runner cannot observe (said in `observation_`).
  Json Observed(RunnerClient* r, bool must_launch, const std::string& when) {
    auto a = r->Request({{"op", "observe"}}, Left());
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
    return EvaluateShape(t.shape, p);
  }

  // Inputs for one trial, drawn on the host (bounds may be expressions).
  Result<std::vector<HostTensor>> DrawInputs(const ParameterValues& p, uint64_t seed);

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
    std::vector<Doubles> reference;
    // Per output, where its reference was written at a few phases alone
    // (ReferenceAt; a subject timed alone's trials); empty: all whole.
    std::vector<ReferenceAt> at;
    // Inputs drawn by the device generator (DrawnSet) from `drawn_seed`,
    // input i from `drawn_inits[i]`: drawn there again, bit for bit, rather
    // than uploaded from the host (DeviceInputs). Empty inits: not drawn so.
    uint64_t drawn_seed = 0;
    std::vector<Json> drawn_inits;
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
  void ResetTrials(const std::string& key);

  // Trial `seed`'s inputs in the judge's own device memory: copied from
  // there into a subject's lent memory (one upload of a trial serves both
  // subjects), and compared with what is there after the call. Kept with
  // the trials; only the trial at hand once they would take more than a
  // quarter of the free device memory.
  using DeviceTensors = std::vector<std::unique_ptr<DeviceBuffer>>;
  Result<const DeviceTensors*> DeviceInputs(uint64_t seed, const Trial& t);
  // Input `x` of a trial the device generator drew, drawn again at `dst`
  // (DrawnSet's fill, from `init` and `seed`: a fraction of an upload's
  // time) and held to the host's copy on a sample of 64 Ki elements. False
  // where the fill failed or the sample differs: the caller uploads, and
  // after a difference nothing is drawn again for the judge's life.
  bool Redrawn(void* dst, const HostTensor& x, const Json& init, uint64_t seed);
  // A tensor of `like`'s dtype and size drawn at `dst` (device memory) by
  // the device generator from `init` and `seed`: how DrawnSet draws each
  // input, and Redrawn draws it again.
  Status DrawLike(void* dst, const HostTensor& like, const Json& init, uint64_t seed) const;

  Status EnsureFill();

  Result<const Trial*> PrepareTrial(const ParameterValues& p, const std::vector<ArenaParam>& params,
                                    const std::string& key, uint64_t seed) {
    if (trial_key_ != key) ResetTrials(key);
    auto it = trials_.find(seed);
    if (it != trials_.end()) return &it->second;
    ARENA_ASSIGN_OR_RETURN(Trial t, MakeTrial(p, params, seed));
    return &(trials_[seed] = std::move(t));
  }

  Result<Trial> MakeTrial(const ParameterValues& p, const std::vector<ArenaParam>& params,
                          uint64_t seed);
  // A trial of these inputs: its CPU reference computed.
  Result<Trial> TrialOf(std::vector<HostTensor> inputs, const ParameterValues& p,
                        const std::vector<ArenaParam>& params);

  static Result<HostTensor> ReadTensor(const Json& spec);
  // A float64 reference file (`spec`'s dtype aside) as values; its shape
  // in `*shape` where given.
  static Result<Doubles> ReadReference(const Json& spec, std::vector<int64_t>* shape = nullptr);

  Result<Trial> LoadTrial(const Json& data);

  // The trials named by `specs`, read side by side.
  std::vector<Result<Trial>> LoadTrials(const std::vector<Json>& specs);

  // The trials of `seeds`, side by side; those that fail are left out (the
  // caller's PrepareTrial reports the error in trial order).
  std::map<uint64_t, Trial> MakeTrials(const ParameterValues& p, const std::vector<ArenaParam>& params,
                                       const std::vector<uint64_t>& seeds);

  // Trials of the configurations that come next (`next`: one, or a list
  // in the order they come), prepared in the background side by side, as
  // many as the prefetch budget holds.
  void StartPrefetch(const Json& next, uint64_t seed, int trials);

  // Prefetches end before anything is timed, and are kept: their threads
  // (host allocations of gigabytes, the CPU reference) slowed the GPU
  // rounds that ran beside them by up to 2.2x, in whichever subject's
  // rounds they fell (docs/results/hip-timing-quiet-h200-2026-12-02/).
  void FinishPrefetch() { prefetched_.Finish(); }

  void StopPrefetch() {
    prefetched_.Clear();
    held_seeds_.clear();
  }
  // Prefetches are for the evaluation of `seed`: another seed (another
  // evaluation of a session) drops what was prefetched for the last one.
  void PrefetchFor(uint64_t seed) {
    if (seed != prefetch_seed_) StopPrefetch();
    prefetch_seed_ = seed;
  }

  // Rounds of a configuration's timing, chosen in secret, whose chosen set
  // is held to the CPU reference (timing.cc): a subject less precise in
  // more than half of its rounds, as it must be to move the median, is
  // caught with probability at least 7/8.
  static constexpr int kHeldRounds = 3;

  // Configuration `name`'s held rounds prepared before it is timed: each
  // one's chosen set drawn by the rounds' own generator, from a seed of the
  // judge's chosen now, and its CPU reference computed, in the background
  // with the prefetched trials, so that none is computed after the rounds (three of
  // a large configuration took 15-33 s of its timing there). Started at the
  // configuration's first check and for those that come next, within the
  // prefetch budget; nothing when the task has no CPU reference.
  void StartHeld(const std::string& name, const Json& params);
  // The seeds of configuration `name`'s held sets, and the trials made of
  // them (by seed; one whose making failed is missing): waited for, handed
  // over once. Both empty where none were prepared.
  std::pair<std::vector<uint64_t>, std::map<uint64_t, Trial>> TakeHeld(const std::string& name);
  // The chosen set of a round whose sets are drawn by the device generator
  // from `seed` (set 0: each round's chosen set is drawn from a seed of its
  // own), brought to the host; a check's trial too, where device_trials_.
  // Safe on the prefetch threads: the generator is made (EnsureFill) on the
  // job's thread before any of them starts, and only read after. Each
  // input's init, evaluated, goes to `*inits` where given.
  Result<std::vector<HostTensor>> DrawnSet(const ParameterValues& p, uint64_t seed,
                                           std::vector<Json>* inits = nullptr);
  // The seed of input i of a round's sets drawn from `seed`.
  static uint64_t InputSeed(uint64_t seed, size_t i) { return seed + 0x9E3779B97F4A7C15ull * i; }
  // What a trial of configuration `p` takes in the host's memory while made:
  // its inputs, widened to double, and its reference's outputs in double.
  Result<size_t> TrialBytes(const ParameterValues& p);

  // What prefetched trials may take, while made and until checked: a
  // quarter of the host's memory, at most 32 GiB (the CPU references of a
  // task's configurations, side by side, as the shelf keeps them after).
  static size_t PrefetchBudget() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    const size_t physical = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
    return std::min<size_t>(physical / 4, size_t{32} << 30);
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

  Json Check(const Json& req);

  // Input i's init with its expressions evaluated.
  Result<Json> EvaluatedInit(size_t i, const ParameterValues& p) const { return EvaluateInit(inputs_[i].init, p); }

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
  // its runner to run them all (a replay of the calls captured one graph
  // each, or eager calls; some witnessed between two calls: timing.cc) and
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
  Json Time(const Json& req);
  // The late windows of the last timing request (timing.cc) held to the
  // references computed since from their inputs ("late_check"): per window
  // {"id", "reference": [file specs]}, each output's reference at the
  // places the request's reply named ("at", in their order), or {"id",
  // "unusable": why}, where PyTorch eager itself was not within the
  // tolerance there.
  Json LateCheck(const Json& req);

  // Output o's values `got` at the places `sample` against `reference`
  // (all of output o), at the checks' tolerance.
  Comparison AgainstReference(size_t o, const Sample& sample, const HostTensor& got, const Doubles& reference) const {
    const auto [atol, rtol] = Tolerance(o);
    std::vector<double> want(sample.count);
    for (size_t j = 0; j < sample.count; ++j) want[j] = reference[sample.start + j * sample.stride];
    return Compare(outputs_[o].name, got, want, atol, rtol);
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

  // What evicting the L2 takes on an idle GPU: the least ever measured, with
  // `times` more evictions now (every runner stopped). Work a subject leaves
  // running can only make an eviction slower, and the judge measured before
  // any subject's library was loaded: a subject that keeps the GPU busy
  // while this is measured cannot raise the bar the next rounds wait for.
  double IdleEvictionUs(int times) {
    for (int k = 0; k < times; ++k) idle_us_ = std::min(idle_us_, TimedEviction(k));
    return idle_us_;
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

  // A round's request: a replay of split `split` of the captured calls,
  // its first part ending in the word `mark` at the marker (runner.cc), or
  // the eager calls.
  static Json Request(const std::string& mode, size_t count, const std::vector<Placed>& in,
                      const std::vector<Placed>& out, int slab, const Json& params, uint64_t split,
                      uint32_t mark) {
    if (mode == "graph") return {{"op", "replay"}, {"split", split}, {"mark", mark}};
    return {{"op", "call"}, {"sets", count}, {"in", Describe(in, slab)}, {"out", Describe(out, slab)},
            {"params", params}};
  }

 public:
  ~Judge() { StopPrefetch(); }

 private:
  Json task_;
  std::vector<TensorSpec> inputs_, outputs_;
  std::map<std::string, std::vector<std::string>> runner_argv_;
  std::map<std::string, std::unique_ptr<RunnerClient>> runners_;
  std::map<std::string, std::string> observation_;  // per subject: "cupti" or "unobserved: why"
  Vmm vmm_;
  double timeout_s_ = 60;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::now();  // of the request served
  // Timed replays of captured graphs observed quietly (runner/observer.h).
  bool quiet_rounds_ = true;
  // A check's trials drawn by the device generator (DrawnSet) rather than
  // on the host (DrawInputs).
  bool device_trials_ = false;
  bool redraw_ = true;  // Redrawn has not yet found a difference
  std::string log_dir_;
  ReferenceFn reference_ = nullptr;
  size_t l2_bytes_ = 0;
  size_t free_at_start_ = 0;  // device memory free at init (timing's sets)
  std::unique_ptr<DeviceBuffer> flush_;
  double idle_us_ = std::numeric_limits<double>::infinity();  // IdleEvictionUs
  std::set<std::string> held_;  // runners Hold stopped
  std::string trial_key_;
  std::map<uint64_t, Trial> trials_;
  // Earlier configurations' trials (ResetTrials).
  Shelf<std::map<uint64_t, Trial>> shelf_{ShelfBudget()};
  Prefetcher<std::map<uint64_t, Trial>> prefetched_{PrefetchBudget()};
  uint64_t prefetch_seed_ = 0;  // the seed prefetched_ holds trials of
  // Per configuration, the seeds of its held sets being prepared (StartHeld).
  std::map<std::string, std::vector<uint64_t>> held_seeds_;
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
    // Which trials the subject has been given (alone_trials.h), the timed
    // rounds so far, and their time per set where the chosen set's inputs
    // were new to it and where it had been given them before.
    std::vector<char> shown;
    int timed_rounds = 0;
    std::vector<double> new_us, seen_us;
    // Each trial's inputs kept on the device (trial, then input), where
    // they fit: a round's chosen set is filled from there, not from the
    // host (for gigabyte inputs, most of a round's preparation).
    std::vector<std::vector<std::unique_ptr<DeviceBuffer>>> on_device;
    bool on_device_tried = false;
  };
  AloneData alone_;
  // A window of a round timed alone whose outputs were kept for a
  // reference computed after the rounds (PickLateWindow): its round, set,
  // per output the places sampled and the subject's values there, and
  // where its inputs were written.
  struct LateWindow {
    int id = 0;
    int round = 0;
    int64_t set = -1;
    size_t sets = 0;
    std::vector<std::pair<Sample, HostTensor>> outputs;
  };
  std::vector<LateWindow> late_;  // the last timing request's
  int late_made_ = 0;             // windows kept so far (their ids)
  int device_ = 0;
  std::FILE* log_ = nullptr;
  const std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_WORKER_JUDGE_H_
