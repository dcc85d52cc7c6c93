// The triton2triton family: a Triton baseline, made faster.
//
// One long-lived judge process per evaluation (harness/worker.py), driven
// through WorkerProcess, holds the seed, the reference, the tolerances and
// the clock. It never runs a subject's code: each subject runs in its own
// sandboxed runner (plugins/common/python/arena_runner.py) that sees only
// that subject's editable files, read-only, and the memory the judge lends
// it; the sandbox's command line is built here, by core/sandbox. A runner
// that crashes or hangs is that subject's failure; a judge that dies is
// restarted and the stage recorded as failed.
//
// A judge and its runners are started before their task's evaluation where
// another of the family comes next on the device (EvaluationContext::
// prepare_next; $ARENA_TRITON_PRESTART=0 never): they import torch and
// Triton (seconds) while the evaluation before runs, the runners with no
// GPU context and nothing of any subject, and wait for the task (a runner's
// --await-go). Their command lines name no task: the subjects' files, the
// baseline's kernels and the task's arguments reach them once it is known.
//
// On a machine without a GPU the worker runs kernels under the Triton
// interpreter (TRITON_INTERPRET=1) on the CPU, on the task's small
// configuration only; every other check and all timing say
// "skipped: no GPU".
#include <atomic>
#include <filesystem>
#include <set>

#include "core/env.h"
#include "core/family.h"
#include "core/files.h"
#include "core/harness_worker.h"
#include "core/process.h"
#include "core/provenance.h"
#include "core/sandbox.h"
#include "core/section.h"
#include "core/spares.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kWorker[] = "plugins/triton2triton/harness/worker.py";
constexpr char kRunnerDir[] = "plugins/common/python";
constexpr char kRunnerInside[] = "/opt/arena/python";
constexpr char kCacheInside[] = "/tmp/triton";
constexpr char kCacheSeed[] = "/opt/arena/triton_seed";
// The machine's Triton launchers (arena_runner.LauncherBuilder), read-only.
constexpr char kLaunchersInside[] = "/opt/arena/triton_launchers";
constexpr char kNativeGuard[] = "libarena_native_guard.so";
constexpr long long kRunnerTmpBytes = 1LL << 30;

Status ValidateEntry(const Section& s, const std::string& key,
                     const std::vector<std::string>& allowed_files, const char* what) {
  const std::string ref = s.String(key);
  auto colon = ref.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == ref.size()) {
    return s.Error(key, "expected file.py:function");
  }
  std::string file = ref.substr(0, colon);
  for (const auto& f : allowed_files) {
    if (f == file) return OkStatus();
  }
  return s.Error(key, "'" + file + "' must be one of the task's " + what + " files");
}

// Where a task's baseline keeps the kernels Triton compiled for it, from one
// evaluation to the next: $ARENA_TRITON_CACHE ("off": within one evaluation
// only), else the user's cache folder; one folder per version of the task's
// files. Only baseline runners write there (the baseline is the task's own
// code); "" when there is no such place.
std::string BaselineCacheRoot() { return UserCacheDir("ARENA_TRITON_CACHE", "triton"); }

// Where the launchers Triton builds per kernel signature are kept, for every
// evaluation on the machine: written only by the arena's builders, which run
// outside every sandbox (arena_runner.LauncherBuilder), beside the baselines'
// caches (never inside one: a baseline's runner writes its own); within the
// evaluation where the user's cache folder is off or not writable.
std::string LaunchersFolder(const std::string& work_dir) {
  const std::string root = BaselineCacheRoot();
  if (!root.empty()) {
    const fs::path dir = fs::path(root) / "launchers";
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!ec) return dir.string();
  }
  return (fs::path(work_dir) / "launchers").string();
}

// Whether judges are started ahead of their evaluation: unless
// $ARENA_TRITON_PRESTART is "0".
bool PrestartWanted() {
  return SwitchOn("ARENA_TRITON_PRESTART");
}

// What a judge and its runners are started with, whatever the task.
struct JudgeSetup {
  DeviceInfo device;
  std::string project_root;
  long long memory_limit_bytes = 0;

  static JudgeSetup Of(const EvaluationContext& ctx) {
    return {ctx.device, ctx.project_root, ctx.memory_limit_bytes};
  }
  bool on_gpu() const { return device.platform == "cuda"; }
  // Judges started for one key serve any evaluation of the same key.
  std::string Key() const {
    return device.platform + ':' + std::to_string(device.index) + '\n' + project_root + '\n' +
           std::to_string(memory_limit_bytes);
  }
};

std::string SubjectDirIn(const std::string& dir, Subject s) {
  return (fs::path(dir) / "subjects" / SubjectName(s)).string();
}

// Where the baseline's runner keeps the kernels Triton compiles for it
// (bound read-write there; the candidate's runner reads it as its seed).
std::string BaselineKernelsIn(const std::string& dir) {
  return (fs::path(dir) / "baseline_kernels").string();
}

// The sandboxed runner of one subject, as a command line for the judge,
// started in `dir`: its files there, and nothing of any task (--await-go:
// the task's arguments come when the task does).
Result<Json> RunnerSpec(const JudgeSetup& setup, Subject s, const std::string& dir,
                        const std::string& python) {
  ARENA_RETURN_IF_ERROR(MakeDirs(SubjectDirIn(dir, s)));
  SandboxOptions sb;
  sb.workspace = SubjectDirIn(dir, s);
  sb.workspace_read_only = true;
  // Its /tmp holds its compiled kernels (megabytes) and lives in the
  // host's memory: a size that leaves the host room for every runner.
  sb.tmp_bytes = kRunnerTmpBytes;
  const std::string kernels = BaselineKernelsIn(dir);
  ARENA_RETURN_IF_ERROR(MakeDirs(kernels));
  // The memory it works on comes as descriptors over its socket; the
  // candidate's runner gets no writable host folder at all (the judge
  // starting it cannot watch one).
  std::vector<std::string> cache_seed;
  if (s == Subject::kBaseline) {
    sb.read_write = {{kernels, kCacheInside}};
  } else {
    sb.read_only.push_back({kernels, kCacheSeed});
    cache_seed.push_back(std::string("--cache-seed=") + kCacheSeed);
  }
  // The runner's own files, copied (a Bazel runfiles tree is links that
  // point outside the sandbox), and nothing else of the harness: its two
  // Python files and, where it was built, its launch observer (without
  // it the runner's load says it observes nothing, and the report says so).
  const std::string code = (fs::path(dir) / "runner_code").string();
  ARENA_RETURN_IF_ERROR(MakeDirs(code));
  if (std::error_code ec; !fs::exists(fs::path(setup.project_root) / kRunnerDir / kNativeGuard, ec)) {
    return Internal(std::string("the runner's native-code guard (") + kNativeGuard + ") was not built");
  }
  for (const char* f : {"arena_runner.py", "arena_buffers.py", "libarena_launches.so",
                        kNativeGuard}) {
    const fs::path from = fs::path(setup.project_root) / kRunnerDir / f;
    std::error_code ec;
    if (std::string(f) == "libarena_launches.so" && !fs::exists(from, ec)) continue;
    // A copy kept from an earlier start may be read-only (the library's
    // mode is copied with it): replaced, not written over.
    fs::remove(fs::path(code) / f, ec);
    ARENA_RETURN_IF_ERROR(CopyFile(from.string(), (fs::path(code) / f).string()));
  }
  sb.read_only.push_back({code, kRunnerInside});
  ARENA_ASSIGN_OR_RETURN(PythonInstall install, PythonInstallation(python));
  for (const auto& p : install.folders) sb.read_only.push_back({p, p});
  sb.env = {{"TRITON_CACHE_DIR", kCacheInside}, {"PYTHONNOUSERSITE", "1"},
            {"PYTHONPATH", install.path}};
  if (setup.on_gpu()) {
    AllowDevice(setup.device, &sb);  // CUDA_VISIBLE_DEVICES names it
  } else {
    sb.env["TRITON_INTERPRET"] = "1";
    sb.env["CUDA_VISIBLE_DEVICES"] = "";
  }
  // The native-code guard (native_guard.cc): once the runner loads the
  // subject, libraries load only from the system, the runner's own
  // files, the Python installation and what the device needs (all bound
  // read-only), or the launchers' folder; never the subject's own,
  // whoever loads them. Never the baseline's kernels (its seed).
  std::string roots = "/usr";
  for (const auto& [host, inside] : sb.read_only) {
    if (inside != kCacheSeed) roots += ":" + inside;
  }
  sb.env["LD_AUDIT"] = std::string(kRunnerInside) + "/" + kNativeGuard;
  // On a GPU, Triton's launchers: the machine's folder of them, read-only,
  // which a builder the judge starts beside the runner, outside the
  // sandbox, writes (the spec's "launchers"; the judge passes the
  // runner's end of their socket, --launcher-fd).
  Json spec = Json::object();
  std::vector<std::string> launchers;
  if (setup.on_gpu()) {
    const std::string folder = LaunchersFolder(dir);
    ARENA_RETURN_IF_ERROR(MakeDirs(folder));
    sb.read_only.push_back({folder, kLaunchersInside});
    sb.env["NATIVE_GUARD_LAUNCHERS"] = kLaunchersInside;
    launchers.push_back(std::string("--launchers=") + kLaunchersInside);
    spec["launchers"] = folder;
  }
  sb.env["NATIVE_GUARD_ROOTS"] = roots;
  std::string python_inside = python;
  if (python.find('/') != std::string::npos) python_inside = fs::absolute(python).string();
  std::vector<std::string> command = {python_inside, "-s", "-B",
                                      std::string(kRunnerInside) + "/arena_runner.py",
                                      setup.on_gpu() ? "--device=cuda" : "--device=cpu",
                                      "--await-go"};
  command.insert(command.end(), cache_seed.begin(), cache_seed.end());
  command.insert(command.end(), launchers.begin(), launchers.end());
  ARENA_ASSIGN_OR_RETURN(std::vector<std::string> argv, SandboxArgv(sb, command));
  spec["argv"] = argv;
  return spec;
}

// A judge and its two runners, started in a folder of their own, before
// their task is known: the runners import torch and Triton and wait, with
// no GPU context, for the task's arguments; the judge waits for "init".
struct StartedJudge {
  std::string dir;        // subjects/, runner_code/, the baseline's kernels, the logs
  bool owns_dir = false;  // removed with it (a temporary folder of its own)
  std::unique_ptr<WorkerProcess> judge;
  Json runners = Json::object();  // {subject: spec}, as "init" must name them

  StartedJudge() = default;
  StartedJudge(const StartedJudge&) = delete;
  StartedJudge& operator=(const StartedJudge&) = delete;
  ~StartedJudge() {
    if (judge != nullptr) judge->Kill();
    if (owns_dir) RemoveTree(dir).ok();
  }
};

Result<std::unique_ptr<StartedJudge>> StartJudge(const JudgeSetup& setup, const std::string& dir,
                                                 bool owns_dir) {
  if (std::string why = SandboxUnavailableReason(); !why.empty()) {
    // Code under test never runs outside the sandbox.
    return Unavailable("the candidate sandbox cannot run here: " + why);
  }
  auto started = std::make_unique<StartedJudge>();
  started->dir = dir;
  started->owns_dir = owns_dir;
  ARENA_RETURN_IF_ERROR(MakeDirs(dir));
  const std::string python = HarnessPython(setup.project_root);
  for (Subject s : {Subject::kBaseline, Subject::kCandidate}) {
    ARENA_ASSIGN_OR_RETURN(started->runners[SubjectName(s)], RunnerSpec(setup, s, dir, python));
  }
  ProcessOptions o;
  o.argv = {python, "-u", (fs::path(setup.project_root) / kWorker).string()};
  o.cwd = dir;
  o.env["PYTHONDONTWRITEBYTECODE"] = "1";
  o.env["TRITON_CACHE_DIR"] = (fs::path(dir) / "triton_cache").string();
  if (setup.on_gpu()) {
    o.env["CUDA_VISIBLE_DEVICES"] = std::to_string(setup.device.index);
    o.unset_env = {"TRITON_INTERPRET"};
  } else {
    o.env["TRITON_INTERPRET"] = "1";
    o.env["CUDA_VISIBLE_DEVICES"] = "";
  }
  o.memory_limit_bytes = setup.memory_limit_bytes;
  // The judge runs no candidate code (its runners do, in sandboxes
  // without a network); it starts those sandboxes, so its own network
  // namespace may not need a user namespace of its own.
  o.isolate_network = true;
  o.network_via_user_namespace = false;
  ARENA_ASSIGN_OR_RETURN(started->judge, WorkerProcess::Start(o));
  // Its runners start at once; it answers before it imports torch.
  Json spare = {{"op", "spare"}, {"runners", started->runners}};
  ARENA_RETURN_IF_ERROR(InitializeWorker(*started->judge, spare, 60, "triton judge"));
  return started;
}

// Judges started ahead, one per JudgeSetup key at most, for the next
// evaluation to take (Open); the arena's end kills those never taken.
Spares<StartedJudge>& SpareJudges() {
  static Spares<StartedJudge> spares;
  return spares;
}

// The judge started for `key`, if one is still up; else null.
std::unique_ptr<StartedJudge> TakeSpareJudge(const std::string& key) {
  return SpareJudges().Take(key, [](const StartedJudge& j) { return j.judge != nullptr && j.judge->alive(); });
}

// Starts a judge for the next evaluation of `setup`, unless one waits, in
// a scratch folder of its own.
void PrepareSpareJudge(const JudgeSetup& setup) {
  SpareJudges().Prepare(setup.Key(), [&setup]() -> Result<std::unique_ptr<StartedJudge>> {
    static std::atomic<int> counter{0};
    const std::string dir =
        (fs::temp_directory_path() / (ScratchName("judge") + "-" + std::to_string(counter++))).string();
    auto started = StartJudge(setup, dir, /*owns_dir=*/true);
    if (!started.ok()) RemoveTree(dir).ok();
    return started;
  });
}

class TritonSession : public EvaluationSession {
 public:
  explicit TritonSession(const EvaluationContext& ctx)
      : ctx_(ctx),
        setup_(JudgeSetup::Of(ctx)),
        kept_kernels_(KeptCache(ctx)),
        started_(PrestartWanted() ? TakeSpareJudge(setup_.Key()) : nullptr),
        dir_(started_ != nullptr ? started_->dir : ctx.work_dir),
        worker_([this] { return Start(); }) {}

  ~TritonSession() override {
    // The baseline's runner has ended (with its judge) before its new
    // kernels are kept for the task's next evaluation.
    worker_.Stop();
    if (!kept_kernels_.empty()) AddMissingEntries(BaselineKernelsIn(dir_), kept_kernels_);
  }

  StageOutcome Compile(Subject subject) override {
    compiled_.erase(subject);
    // The runner sees the subject's editable files alone: never the
    // harness (reference, input makers), never the other subject's.
    const std::string dir = SubjectDirIn(dir_, subject);
    if (Status st = ResetDir(dir); !st.ok()) return StageOutcome::Failed("harness error", st.message());
    const std::string& from = subject == Subject::kBaseline ? ctx_.baseline_dir : ctx_.candidate_dir;
    auto missing = CopyRegularFiles(from, ctx_.task->editable, dir);
    if (!missing.ok()) return StageOutcome::Failed("harness error", missing.status().message());
    if (!missing->empty()) return StageOutcome::Failed(missing->front() + " is missing or not a regular file");
    if (subject == Subject::kBaseline && !kept_kernels_.empty()) {
      // What earlier evaluations of these task files compiled for it.
      MakeDirs(BaselineKernelsIn(dir_)).ok();
      AddMissingEntries(kept_kernels_, BaselineKernelsIn(dir_));
    }
    StageOutcome o = worker_.Send(CompileRequest(subject), ctx_.stage_timeout_s, SubjectName(subject));
    if (o.passed()) compiled_.insert(subject);
    o.metrics["network_isolated"] = NetworkIsolationAvailable();
    o.metrics["judge_started_ahead"] = started_ahead_;
    return o;
  }

  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    Json req = {{"op", "check"},
                {"subject", SubjectName(subject)},
                {"config", {{"name", config.name}, {"params", config.params}}},
                {"seed", seed},
                {"trials", ctx_.task->trials}};
    return worker_.Send(req, ctx_.stage_timeout_s, SubjectName(subject));
  }

  Json Toolchain() override {
    Json t = Json::object();
    for (const char* k : {"python", "torch", "triton"}) {
      if (judge_metrics_.contains(k)) t[k] = judge_metrics_[k];
    }
    return t;
  }

  TimingOutcome Time(const Configuration& config) override {
    TimingOutcome t;
    Json req = {{"op", "time"}, {"config", {{"name", config.name}, {"params", config.params}}}};
    Json reply;
    t.stage = worker_.Send(req, ctx_.stage_timeout_s, "a kernel", &reply);
    t.method = t.stage.metrics.value("method", "");
    if (t.stage.passed()) {
      t.baseline.us = reply.value("baseline_us", std::vector<double>{});
      t.candidate.us = reply.value("candidate_us", std::vector<double>{});
      t.paired = reply.value("paired", false);
      if (t.baseline.us.empty() || t.candidate.us.size() != t.baseline.us.size()) {
        t.stage = StageOutcome::Failed("harness returned no timing samples");
      }
    }
    return t;
  }

 private:
  bool on_gpu() const { return setup_.on_gpu(); }

  // The baseline's compiled kernels are kept across evaluations of the same
  // task files where the user's cache folder is writable (else within this
  // evaluation): copied to its runner's folder before it compiles, and
  // what it added copied back once it ended. Only the baseline's runner
  // writes there: it runs the task's own code. The candidate's runner
  // compiles into its private /tmp, seeded with a copy of the baseline's
  // kernels (those it left as they were are not compiled again), and
  // writes nothing to the host's disk.
  static std::string KeptCache(const EvaluationContext& ctx) {
    const std::string root = BaselineCacheRoot();
    if (root.empty()) return "";
    auto hash = TaskContentHash(*ctx.task);
    if (!hash.ok()) return "";
    const fs::path dir = fs::path(root) / *hash;
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? "" : dir.string();  // not writable: within the evaluation only
  }

  // The task's own arguments to its runners (go).
  Json GoArgs() const {
    std::string allowed;
    // Library ops the task allows outside Triton kernels (validated names).
    for (const auto& op : ctx_.task->family_json.value("allowed_ops", Json::array())) {
      allowed += (allowed.empty() ? "" : ",") + op.get<std::string>();
    }
    return Json::array({"--allow-ops=" + allowed});
  }

  Json CompileRequest(Subject subject) const {
    Json configs = Json::array();
    for (const auto& c : ctx_.task->configs) {
      if (on_gpu() || c.kind == ConfigKind::kSmall) {
        configs.push_back({{"name", c.name}, {"params", c.params}});
      }
    }
    return {{"op", "compile"}, {"subject", SubjectName(subject)}, {"configs", configs}};
  }

  // The judge, told its task: the one started ahead for this evaluation
  // while it is up (once), else one started now in the same folder.
  Result<std::unique_ptr<WorkerProcess>> Start() {
    StartedJudge* started = started_.get();
    started_ahead_ = started != nullptr && started->judge != nullptr && started->judge->alive();
    Result<std::unique_ptr<WorkerProcess>> worker = Unavailable("no judge");
    if (started_ahead_) {
      worker = Initialize(started);
      // One that died since it was taken is no one's failure: a judge is
      // started now instead.
      started_ahead_ = worker.ok();
    }
    if (!started_ahead_) {
      ARENA_ASSIGN_OR_RETURN(std::unique_ptr<StartedJudge> now, StartJudge(setup_, dir_, /*owns_dir=*/false));
      worker = Initialize(now.get());
    }
    if (!worker.ok()) return worker.status();
    // The next evaluation's judge imports while this one compiles and
    // checks (not while it times: started before the first stage ends).
    if (ctx_.prepare_next && !prepared_ && PrestartWanted()) {
      prepared_ = true;
      PrepareSpareJudge(setup_);
    }
    return worker;
  }

  // Tells `started`'s judge its task and takes it over; it recompiles what
  // the session's last judge had compiled.
  Result<std::unique_ptr<WorkerProcess>> Initialize(StartedJudge* started) {
    Json runners = started->runners;
    for (auto& [subject, spec] : runners.items()) spec["go"] = GoArgs();
    std::unique_ptr<WorkerProcess> worker = std::move(started->judge);
    Json init = {{"op", "init"},
                 {"task", ctx_.task->ToJson()},
                 {"dirs", {{"baseline", ctx_.baseline_dir}}},
                 {"runners", runners},
                 // The judge gives up on a runner before this process gives
                 // up on the judge, so the right subject is blamed.
                 {"timeout_s", std::max(1.0, ctx_.stage_timeout_s * 0.9 - 1.0)},
                 {"device", on_gpu() ? "cuda" : "cpu"}};
    ARENA_RETURN_IF_ERROR(InitializeWorker(*worker, init, 300, "triton worker", &judge_metrics_));
    std::set<Subject> again;
    again.swap(compiled_);
    for (Subject s : again) {
      auto r = worker->Request(CompileRequest(s).dump(), ctx_.stage_timeout_s);
      if (r.ok() && Json::parse(*r, nullptr, false).value("status", "") == "passed") {
        compiled_.insert(s);
      }
    }
    return worker;
  }

  EvaluationContext ctx_;
  const JudgeSetup setup_;
  const std::string kept_kernels_;  // kept across evaluations ("" if not)
  std::unique_ptr<StartedJudge> started_;  // started ahead for this evaluation (its folder)
  const std::string dir_;  // the judge's and runners' folder
  bool started_ahead_ = false;
  bool prepared_ = false;  // a judge for the next evaluation asked for
  Json judge_metrics_ = Json::object();  // what the judge said it runs on
  std::set<Subject> compiled_;
  HarnessWorker worker_;  // last: stopped before the members it uses go
};

class TritonFamily : public TaskFamily {
 public:
  // Without a CUDA GPU the Triton interpreter checks the small configuration.
  std::string PromptFile() const override { return "plugins/triton2triton/prompt.md"; }
  FamilyCapabilities Capabilities(const DeviceInfo& device) const override {
    using Checks = FamilyCapabilities::Checks;
    return FamilyCapabilities::OnlyOn("cuda", device, Checks::kSmall, Checks::kSmall, "CUDA");
  }

  Status ValidateTask(const TaskSpec& task) const override {
    static const SectionSchema kSchema = {
        "triton2triton",
        {{"entry", FieldType::kString, /*required=*/true},
         {"reference", FieldType::kString, /*required=*/true},
         {"inputs", FieldType::kString},
         {"reference_dtype", FieldType::kString, false, {"float64", "native"}},
         // Library ops the task lets a subject run outside its Triton
         // kernels (aten names such as mm); everything else is library
         // compute.
         {"allowed_ops", FieldType::kStringList}}};
    ARENA_ASSIGN_OR_RETURN(Section s, DecodeSection(task, kSchema));
    ARENA_RETURN_IF_ERROR(ValidateEntry(s, "entry", task.editable, "editable"));
    ARENA_RETURN_IF_ERROR(ValidateEntry(s, "reference", task.harness, "harness"));
    if (s.Has("inputs")) ARENA_RETURN_IF_ERROR(ValidateEntry(s, "inputs", task.harness, "harness"));
    const auto ops = s.List("allowed_ops");
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos) {
        return s.ItemError("allowed_ops", i, "expected an aten op name such as mm");
      }
    }
    if (task.ConfigsOfKind(ConfigKind::kSmall).empty()) {
      return TaskRequirementError(task, "configs.small",
                                  "required (checked under the Triton interpreter on machines "
                                  "without a GPU)");
    }
    for (const auto& t : task.inputs) {
      std::string dist = t.init.value("dist", "normal");
      if (dist != "normal" && dist != "uniform" && dist != "randint") {
        return InvalidArgument(task.yaml_path + ":" + std::to_string(t.line) + ":" +
                               std::to_string(t.column) + ": interface.inputs." + t.name +
                               ".init.dist: unknown distribution '" + dist + "'");
      }
      if (dist == "randint" && !t.init.contains("high")) {
        return InvalidArgument(task.yaml_path + ":" + std::to_string(t.line) + ":" +
                               std::to_string(t.column) + ": interface.inputs." + t.name +
                               ".init.high: randint needs high");
      }
    }
    return OkStatus();
  }

  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    if (!fs::exists(fs::path(ctx.project_root) / kWorker)) {
      return NotFound("triton2triton harness not found at " +
                      (fs::path(ctx.project_root) / kWorker).string());
    }
    return std::unique_ptr<EvaluationSession>(new TritonSession(ctx));
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_FAMILY("triton2triton", arena::TritonFamily);
