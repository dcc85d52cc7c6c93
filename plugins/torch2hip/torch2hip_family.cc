// The torch2hip family: a PyTorch module (the baseline, timed as PyTorch
// eager) made faster as a HIP translation unit behind the C ABI of
// plugins/common/hip/include/arena_hip.h.
//
// Two workers per evaluation. The reference worker (Python,
// harness/reference_worker.py) owns the task's reference.py: it draws each
// trial's inputs, computes the module in float64, checks PyTorch eager in the
// native dtype against it (the baseline's check), writes inputs and
// reference outputs as raw files, and times eager (and torch.compile, as a
// second baseline recorded beside it). The HIP judge of the HIP kit
// (plugins/common/hip, shared with hip2hip) has the candidate run by its
// sandboxed runner, checks it on exactly
// those files and times it. Timing alternates between the two processes in
// rounds so that both see the same state of the GPU. Where another task of
// the family follows (prepare_next), its reference worker is started while
// this one runs and imports torch, and gets its task when that evaluation
// opens (SpareReferences; ARENA_TORCH2HIP_PRESTART=0: never).
//
// Without a GPU: the candidate is compiled for NVIDIA and AMD, the baseline
// is checked on the CPU (small configuration), and the candidate's checks
// and timing say "skipped: no GPU".
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "core/env.h"
#include "core/family.h"
#include "core/harness_worker.h"
#include "core/process.h"
#include "core/spares.h"
#include "plugins/common/hip/build/hip_build.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kReferenceWorker[] = "plugins/torch2hip/harness/reference_worker.py";
constexpr int kTimingRounds = 4;
constexpr uint64_t kTimingSeed = 12345;  // PyTorch's own timing inputs
constexpr int kVerifyTrials = 4;  // the candidate's timed calls are verified on
// Requests of a configuration's timing whose late window is checked: a
// window of one round, drawn in secret, held to a reference computed after
// the rounds from its inputs (the HIP judge's "late_dir", "late_check").
constexpr int kLateWindows = 2;
// Phases of each large output at which the verified trials' references
// are written (ReferenceAt).
constexpr int kReferencePhases = 16;

// torch.compile's budget of compile time per task, in seconds
// ($ARENA_TORCH_COMPILE_BUDGET_S, default 120); 0 with $ARENA_TORCH_COMPILE=0.
double TorchCompileBudgetS() {
  if (!SwitchOn("ARENA_TORCH_COMPILE")) return 0;
  const char* env = std::getenv("ARENA_TORCH_COMPILE_BUDGET_S");
  return env != nullptr ? std::atof(env) : 120.0;
}

// $ARENA_TORCH2HIP_PRESTART=0: no reference worker started ahead.
bool PrestartWanted() {
  return SwitchOn("ARENA_TORCH2HIP_PRESTART");
}

// The reference worker's process, whatever the task: it imports torch,
// then waits for its "init" (which names the task, the reference and the
// trials' folder: every path in it absolute, so its folder is no matter).
ProcessOptions ReferenceProcess(const EvaluationContext& ctx, const std::string& cwd) {
  ProcessOptions o;
  o.argv = {HarnessPython(ctx.project_root), "-u", (fs::path(ctx.project_root) / kReferenceWorker).string()};
  o.cwd = cwd;
  o.isolate_network = true;
  o.env["CUDA_VISIBLE_DEVICES"] = ctx.device.platform == "cuda" ? std::to_string(ctx.device.index) : "";
  return o;
}

std::string ReferenceKey(const EvaluationContext& ctx) {
  return ctx.device.platform + ':' + std::to_string(ctx.device.index) + '\n' + ctx.project_root;
}

// Reference workers started ahead of the next evaluation (prepare_next),
// one per key at most: the next session takes one whose torch is imported
// already; the arena's end kills those never taken. The reference worker
// runs no subject's code (the candidate runs in the HIP judge's sandboxed
// runner); a spare holds nothing of any task until its "init".
Spares<WorkerProcess>& SpareReferences() {
  static Spares<WorkerProcess> spares;
  return spares;
}

class TorchHipSession : public EvaluationSession {
 public:
  explicit TorchHipSession(const EvaluationContext& ctx)
      : ctx_(ctx),
        data_dir_((fs::path(ctx.work_dir) / "trials").string()),
        reference_([this] { return StartReference(); }),
        hip_([this] { return StartHip(); }) {}

  ~TorchHipSession() override {
    hip_.Stop();
    reference_.Stop();
    std::error_code ec;
    fs::remove_all(data_dir_, ec);  // trial files can be gigabytes
  }

  StageOutcome Compile(Subject subject) override {
    if (subject == Subject::kBaseline) {
      // The baseline is the PyTorch module: "compiling" it is importing it
      // in the reference worker (a broken reference.py fails here).
      reference_.Stop();
      StageOutcome o = reference_.Send({{"op", "ping"}}, ctx_.stage_timeout_s, "the PyTorch reference");
      o.metrics["reference_started_ahead"] = started_ahead_;
      return o;
    }
    const std::string src = (fs::path(ctx_.candidate_dir) / HipSource(*ctx_.task)).string();
    candidate_lib_.clear();
    hip_.Stop();  // a new library: the next check starts a fresh worker
    HipBuildOptions build{ctx_.project_root, ctx_.work_dir, ctx_.device, ctx_.stage_timeout_s};
    build.editable = ctx_.task->editable;  // built sandboxed, on these files alone
    return BuildHip(build, src, "candidate", &candidate_lib_);
  }

  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    Json cfg = {{"name", config.name}, {"params", config.params}};
    if (subject == Subject::kBaseline) {
      // The baseline's check: PyTorch eager against the float64 module, on
      // trials whose files the candidate's check then reads. A failure is
      // believed only when it comes alone: beside the candidate's live
      // runner (which may hold the device's memory, or keep it busy, to
      // starve PyTorch on a configuration where the candidate would be
      // slow or wrong, and so keep it from being checked and timed) the
      // baseline is checked again with that runner gone (the candidate's
      // next request starts another).
      StageOutcome o = Prepare(cfg, seed, ctx_.task->trials, /*reference=*/true, /*check_eager=*/true);
      if (o.passed() || !hip_.running()) return o;
      hip_.Stop();
      StageOutcome alone = Prepare(cfg, seed, ctx_.task->trials, /*reference=*/true, /*check_eager=*/true);
      alone.metrics["checked_again_alone"] = "failed beside the candidate's runner: " + o.detail.substr(0, 300);
      return alone;
    }
    const std::string key = config.name + "/" + std::to_string(seed);
    if (prepared_key_ != key) {
      StageOutcome o = Prepare(cfg, seed, ctx_.task->trials, /*reference=*/true, /*check_eager=*/false);
      if (!o.passed()) return StageOutcome::Failed("harness: reference data: " + o.detail, o.log);
    }
    return hip_.Send({{"op", "check"},
                      {"subject", "candidate"},
                      {"config", cfg},
                      {"seed", seed},
                      {"data", prepared_}},
                     ctx_.stage_timeout_s, "the candidate");
  }

  Json Toolchain() override {
    Json t = HipToolchain();
    for (const char* k : {"python", "torch"}) {
      if (reference_metrics_.contains(k)) t[k] = reference_metrics_[k];
    }
    return t;
  }

  TimingOutcome Time(const Configuration& config) override {
    TimingOutcome t;
    Json cfg = {{"name", config.name}, {"params", config.params}};
    // Where the configuration's time goes, for the report (task_times.py):
    // the verified trials' files, PyTorch's rounds, the candidate's, and
    // torch.compile's.
    Json phases = Json::object();
    auto lap = [&phases, last = std::chrono::steady_clock::now()](const char* name) mutable {
      const auto now = std::chrono::steady_clock::now();
      phases[name] = phases.value(name, 0.0) + std::chrono::duration<double>(now - last).count();
      last = now;
    };
    // Trials the judge verifies the candidate's timed calls on, drawn from
    // a seed no one can predict (the judge fills each round's other sets
    // from their inputs, at secret offsets).
    std::random_device entropy;
    const uint64_t secret = ((static_cast<uint64_t>(entropy()) << 32) ^ entropy()) >> 1;
    // Their references written only where the judge reads them: at 16
    // phases drawn in secret, one of which each round reads (outputs of
    // more than 1 Mi elements; a whole float64 reference is twice an fp32
    // output's bytes, written and read back, for 64 Ki places a round).
    Json read_at = Json::array();
    for (int k = 0; k < kReferencePhases; ++k) read_at.push_back(entropy() & 0x3fffffff);
    StageOutcome prep =
        Prepare(cfg, secret, kVerifyTrials, /*reference=*/true, /*check_eager=*/false, read_at);
    prepared_key_.clear();  // not a check's trials
    lap("prepare_s");
    if (!prep.passed() || prepared_.empty()) {
      t.stage = StageOutcome::Failed("harness: timing inputs: " + prep.detail, prep.log);
      return t;
    }
    const Json verify = prepared_;
    const int reps = ctx_.task->timing.repetitions;
    const int per_round = (reps + kTimingRounds - 1) / kTimingRounds;
    // The judge's rounds of the candidate per PyTorch round (30 in all).
    const int hip_rounds = (30 + kTimingRounds - 1) / kTimingRounds;
    std::string eager_method, hip_method;
    Json hip_metrics;
    // Which requests keep a late window, drawn in secret.
    std::vector<int> order(kTimingRounds);
    for (int k = 0; k < kTimingRounds; ++k) order[k] = k;
    std::shuffle(order.begin(), order.end(), std::mt19937_64((static_cast<uint64_t>(entropy()) << 32) ^ entropy()));
    const std::set<int> late_requests(order.begin(), order.begin() + std::min(kLateWindows, kTimingRounds));
    Json late_seen = {{"checked", 0}, {"unusable", Json::array()}};
    for (int round = 0; round < kTimingRounds; ++round) {
      if (StageOutcome held = HoldCandidate(); !held.passed()) {
        t.stage = held;
        return t;
      }
      Json eager;
      StageOutcome e = reference_.Send(
          {{"op", "time"},
           {"config", cfg},
           {"seed", kTimingSeed},
           {"mode", "eager"},
           {"repetitions", per_round}},
          ctx_.stage_timeout_s, "PyTorch eager", &eager);
      lap("eager_s");
      if (!e.passed()) {
        t.stage = StageOutcome::Failed("harness: timing PyTorch eager: " + e.detail, e.log);
        return t;
      }
      Json hip;
      Json request = {{"op", "time"},
                      {"config", cfg},
                      {"subjects", Json::array({"candidate"})},
                      {"rounds", hip_rounds},
                      // All the rounds this configuration's requests
                      // time: each trial is first shown at a secret one
                      // of them.
                      {"expected_rounds", hip_rounds * kTimingRounds},
                      {"verify", verify},
                      // The same trials in every round: the judge reads
                      // them once.
                      {"verify_id", std::to_string(secret)}};
      if (late_requests.count(round) > 0) request["late_dir"] = data_dir_;
      StageOutcome h = hip_.Send(request, ctx_.stage_timeout_s, "the candidate", &hip);
      lap("candidate_s");
      if (!h.passed()) {
        t.stage = h;
        return t;
      }
      if (StageOutcome late = CheckLateWindows(cfg, secret, hip.value("late", Json::array()), &late_seen);
          !late.passed()) {
        t.stage = late;
        return t;
      }
      lap("late_s");
      for (double v : eager.value("samples_us", std::vector<double>{})) t.baseline.us.push_back(v);
      for (double v : hip.value("candidate_us", std::vector<double>{})) t.candidate.us.push_back(v);
      eager_method = e.metrics.value("method", "");
      hip_method = h.metrics.value("method", "");
      hip_metrics = h.metrics;
    }
    t.method = "baseline " + eager_method + "; candidate hip: " + hip_method +
               "; alternating in " + std::to_string(kTimingRounds) + " rounds";
    t.stage = StageOutcome::Passed(t.method);
    t.stage.metrics = {{"method", t.method}, {"candidate", hip_metrics}, {"late_windows", late_seen}};
    // torch.compile: a second, stronger baseline, recorded beside eager.
    // Compiling takes seconds to minutes per configuration: a budget per
    // task (ARENA_TORCH_COMPILE_BUDGET_S, default 120; ARENA_TORCH_COMPILE=0
    // turns it off) bounds it, and what is left out says so.
    const double budget = TorchCompileBudgetS();
    if (!SwitchOn("ARENA_TORCH_COMPILE")) {
      t.stage.metrics["torch_compile"] = "not timed: turned off (ARENA_TORCH_COMPILE=0)";
    } else if (compile_spent_s_ >= budget) {
      t.stage.metrics["torch_compile"] = "not timed: the task's torch.compile budget of " +
                                         std::to_string(static_cast<int>(budget)) + " s is spent";
    } else if (StageOutcome held = HoldCandidate(); !held.passed()) {
      t.stage = held;
      return t;
    } else {
      Json c;
      const auto start = std::chrono::steady_clock::now();
      StageOutcome o = reference_.Send(
          {{"op", "time"},
           {"config", cfg},
           {"seed", kTimingSeed},
           {"mode", "compiled"},
           {"repetitions", reps}},
          ctx_.stage_timeout_s, "torch.compile", &c);
      compile_spent_s_ +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      lap("torch_compile_s");
      if (o.passed()) {
        const TimingSamples compiled_us{c.value("samples_us", std::vector<double>{})};
        t.stage.metrics["torch_compile_us"] = compiled_us.median();
        t.stage.metrics["torch_compile_method"] = o.metrics.value("method", "");
        t.stage.metrics["torch_compile_setup_s"] = o.metrics.value("setup_s", 0.0);
        // The compiler's one-time costs, paid while the task was checked.
        if (o.metrics.contains("compiler_warmup")) {
          t.stage.metrics["torch_compile_warmup"] = o.metrics["compiler_warmup"];
        }
      } else {
        t.stage.metrics["torch_compile"] = o.detail;
      }
    }
    t.stage.metrics["phases"] = phases;
    return t;
  }

 private:
  // The candidate's runner stopped, and the GPU idle, while PyTorch is
  // timed in the reference worker (the HIP judge's "hold"): its threads
  // cannot take the CPUs eager's launches need, nor a kernel it left
  // running share the GPU. The judge's next request resumes it, and names
  // it if it ran meanwhile.
  StageOutcome HoldCandidate() {
    return hip_.Send({{"op", "hold"}}, ctx_.stage_timeout_s, "the candidate");
  }

  // The late windows of a timing request (`late`: each one's id and input
  // files): each one's float64 reference computed by the reference worker
  // from those inputs, with the candidate held (its runner can take neither
  // the GPU nor the CPUs), then the judge holds the window's outputs,
  // kept since its round, to it. A window where PyTorch eager itself is
  // not within tolerance tells nothing and is counted as such in `seen`.
  StageOutcome CheckLateWindows(const Json& cfg, uint64_t seed, const Json& late, Json* seen) {
    if (late.empty()) return StageOutcome::Passed("no late window");
    if (StageOutcome held = HoldCandidate(); !held.passed()) return held;
    Json windows = Json::array();
    for (const Json& w : late) {
      const int id = w.value("id", -1);
      Json ref;
      StageOutcome o = reference_.Send({{"op", "reference"},
                                        {"config", cfg},
                                        {"seed", seed},
                                        {"name", "late_" + std::to_string(id)},
                                        {"inputs", w.value("inputs", Json::array())},
                                        {"at", w.value("at", Json::array())}},
                                       ctx_.stage_timeout_s, "the PyTorch reference", &ref);
      if (!o.passed()) return StageOutcome::Failed("harness: a late window's reference: " + o.detail, o.log);
      const std::string eager = o.metrics.value("eager", "");
      const Json data = ref.value("data", Json::array());
      if (eager == "within tolerance" && data.size() == 1) {
        windows.push_back({{"id", id}, {"reference", data[0].value("reference", Json::array())}});
      } else {
        windows.push_back({{"id", id}, {"unusable", "round " + std::to_string(w.value("round", 0)) + ": " + eager}});
        (*seen)["unusable"].push_back(windows.back()["unusable"]);
      }
    }
    Json checked;
    StageOutcome c = hip_.Send({{"op", "late_check"}, {"late", windows}}, ctx_.stage_timeout_s, "the candidate",
                               &checked);
    if (c.passed()) {
      (*seen)["checked"] = (*seen)["checked"].get<int>() + c.metrics.value("late_windows", Json::object()).value("checked", 0);
    }
    return c;
  }

  // Has the reference worker draw `trials` trials of `cfg` from `seed` and
  // write their files (inputs; float64 outputs with `reference`; PyTorch
  // eager checked against them with `check_eager`); remembers their paths.
  StageOutcome Prepare(const Json& cfg, uint64_t seed, int trials, bool reference,
                       bool check_eager, const Json& phases = Json()) {
    Json reply;
    Json request = {{"op", "prepare"},
                    {"config", cfg},
                    {"seed", seed},
                    {"trials", trials},
                    {"reference", reference},
                    {"check_eager", check_eager}};
    if (!phases.is_null()) request["phases"] = phases;
    StageOutcome o = reference_.Send(request, ctx_.stage_timeout_s, "the PyTorch reference", &reply);
    prepared_ = reply.value("data", Json::array());
    prepared_key_ = prepared_.empty() ? "" : cfg.value("name", "") + "/" + std::to_string(seed);
    return o;
  }

  Result<std::unique_ptr<WorkerProcess>> StartReference() {
    fs::path script = fs::path(ctx_.project_root) / kReferenceWorker;
    if (!fs::exists(script)) return NotFound("torch2hip reference worker not found at " + script.string());
    const std::string key = ReferenceKey(ctx_);
    std::unique_ptr<WorkerProcess> spare =
        PrestartWanted() ? SpareReferences().Take(key, [](const WorkerProcess& w) { return w.alive(); }) : nullptr;
    started_ahead_ = spare != nullptr;
    if (started_ahead_) {
      auto worker = Initialize(std::move(spare));
      // One that died since it was taken is no one's failure: a worker is
      // started now instead.
      started_ahead_ = worker.ok();
      if (worker.ok()) return PrepareNext(std::move(*worker));
    }
    ARENA_ASSIGN_OR_RETURN(std::unique_ptr<WorkerProcess> worker,
                           WorkerProcess::Start(ReferenceProcess(ctx_, ctx_.work_dir)));
    ARENA_ASSIGN_OR_RETURN(worker, Initialize(std::move(worker)));
    return PrepareNext(std::move(worker));
  }

  // The next evaluation's reference worker imports torch while this one
  // checks and times (started once this one's is up).
  std::unique_ptr<WorkerProcess> PrepareNext(std::unique_ptr<WorkerProcess> worker) {
    if (ctx_.prepare_next && !next_asked_ && PrestartWanted()) {
      next_asked_ = true;
      const ProcessOptions o = ReferenceProcess(ctx_, fs::temp_directory_path().string());
      SpareReferences().Prepare(ReferenceKey(ctx_), [&o] { return WorkerProcess::Start(o); });
    }
    return worker;
  }

  // Tells a started worker its task.
  Result<std::unique_ptr<WorkerProcess>> Initialize(std::unique_ptr<WorkerProcess> worker) {
    Json task = ctx_.task->ToJson();
    const std::string reference =
        (fs::path(ctx_.baseline_dir) / ctx_.task->family_json.value("reference", "reference.py"))
            .string();
    Json init = {{"op", "init"},
                 {"task", task},
                 {"reference", reference},
                 {"device", ctx_.device.platform == "cuda" ? "cuda" : "cpu"},
                 {"data_dir", data_dir_},
                 // torch.compile's one-time costs paid while the task is
                 // checked, where it will be timed (on a GPU).
                 {"warm_compiler", ctx_.device.platform == "cuda" && TorchCompileBudgetS() > 0}};
    ARENA_RETURN_IF_ERROR(
        InitializeWorker(*worker, init, 180, "torch2hip reference worker", &reference_metrics_));
    return worker;
  }

  Result<std::unique_ptr<WorkerProcess>> StartHip() {
    return StartHipWorker(ctx_, {{"candidate", candidate_lib_}}, "");
  }

  EvaluationContext ctx_;
  Json reference_metrics_ = Json::object();  // what the reference worker runs on
  std::string data_dir_;
  std::string candidate_lib_;
  std::string prepared_key_;  // config/seed whose trial files are on disk
  double compile_spent_s_ = 0;  // torch.compile time so far in this task
  bool started_ahead_ = false;  // the reference worker was a spare (reported)
  bool next_asked_ = false;     // the next evaluation's spare asked for
  Json prepared_ = Json::array();
  HarnessWorker reference_;  // last: stopped before the members they use go
  HarnessWorker hip_;
};

class TorchHipFamily : public TaskFamily {
 public:
  // Without a CUDA GPU: PyTorch eager (the baseline) is checked on the small
  // configuration (sizes meant for a GPU would take minutes on a CPU); the
  // candidate's HIP is only compiled.
  std::string PromptFile() const override { return "plugins/torch2hip/prompt.md"; }
  FamilyCapabilities Capabilities(const DeviceInfo& device) const override {
    using Checks = FamilyCapabilities::Checks;
    return FamilyCapabilities::OnlyOn("cuda", device, Checks::kSmall, Checks::kNone,
                                        "CUDA (HIP runs here through its CUDA layer)");
  }

  // The C ABI the editable file implements.
  std::map<std::string, std::string> WorkspaceFiles(const TaskSpec& task,
                                                    const std::string& project_root) const override {
    return {{"arena_hip.h", (fs::path(ArenaHipIncludeDir(project_root)) / "arena_hip.h").string()}};
  }

  // The baseline is PyTorch eager: a task may leave the HIP to the agent.
  bool TakesTasksWithoutStarter() const override { return true; }

  Status ValidateTask(const TaskSpec& task) const override {
    // parameters: interface input name -> the module's state_dict key.
    ARENA_ASSIGN_OR_RETURN(
        Section s, ValidateHipTask(task, "torch2hip", {{"parameters", FieldType::kStringMap}}, ".py"));
    const auto parameters = s.Map("parameters");
    for (size_t i = 0; i < parameters.size(); ++i) {
      bool known = false;
      for (const auto& in : task.inputs) known |= in.name == parameters[i].first;
      if (!known) return s.ItemError("parameters", i, "not one of the interface's inputs");
    }
    return OkStatus();
  }

  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    return std::unique_ptr<EvaluationSession>(new TorchHipSession(ctx));
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_FAMILY("torch2hip", arena::TorchHipFamily);
