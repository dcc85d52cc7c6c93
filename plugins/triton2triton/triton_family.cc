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
// On a machine without a GPU the worker runs kernels under the Triton
// interpreter (TRITON_INTERPRET=1) on the CPU, on the task's small
// configuration only; every other check and all timing say
// "skipped: no GPU".
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/family.h"
#include "core/files.h"
#include "core/harness_worker.h"
#include "core/process.h"
#include "core/provenance.h"
#include "core/sandbox.h"
#include "core/section.h"

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

class TritonSession : public EvaluationSession {
 public:
  explicit TritonSession(const EvaluationContext& ctx)
      : ctx_(ctx), baseline_cache_(KeptCache(ctx)), worker_([this] { return Start(); }) {}

  StageOutcome Compile(Subject subject) override {
    compiled_.erase(subject);
    // The runner sees the subject's editable files alone: never the
    // harness (reference, input makers), never the other subject's.
    const std::string dir = SubjectDir(subject);
    if (Status st = ResetDir(dir); !st.ok()) return StageOutcome::Failed("harness error", st.message());
    const std::string& from = subject == Subject::kBaseline ? ctx_.baseline_dir : ctx_.candidate_dir;
    auto missing = CopyRegularFiles(from, ctx_.task->editable, dir);
    if (!missing.ok()) return StageOutcome::Failed("harness error", missing.status().message());
    if (!missing->empty()) return StageOutcome::Failed(missing->front() + " is missing or not a regular file");
    StageOutcome o = worker_.Send(CompileRequest(subject), ctx_.stage_timeout_s, SubjectName(subject));
    if (o.passed()) compiled_.insert(subject);
    o.metrics["network_isolated"] = NetworkIsolationAvailable();
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
  bool on_gpu() const { return ctx_.device.platform == "cuda"; }

  // The baseline's compiled kernels stay for its next runner, kept across
  // evaluations of the same task files where the user's cache folder is
  // writable (else within this evaluation). Only the baseline's runner
  // writes there: it runs the task's own code. The candidate's runner
  // compiles into its private /tmp, seeded with a copy of the baseline's
  // kernels (those it left as they were are not compiled again), and
  // writes nothing to the host's disk.
  std::string BaselineCache() const {
    if (!baseline_cache_.empty()) return baseline_cache_;
    return (fs::path(ctx_.work_dir) / "triton_cache" / SubjectName(Subject::kBaseline)).string();
  }

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

  std::string SubjectDir(Subject s) const {
    return (fs::path(ctx_.work_dir) / "subjects" / SubjectName(s)).string();
  }

  // The sandboxed runner of one subject, as a command line for the judge.
  Result<Json> RunnerSpec(Subject s, const std::string& python) const {
    ARENA_RETURN_IF_ERROR(MakeDirs(SubjectDir(s)));
    SandboxOptions sb;
    sb.workspace = SubjectDir(s);
    sb.workspace_read_only = true;
    // Its /tmp holds its compiled kernels (megabytes) and lives in the
    // host's memory: a size that leaves the host room for every runner.
    sb.tmp_bytes = kRunnerTmpBytes;
    const std::string cache = BaselineCache();
    ARENA_RETURN_IF_ERROR(MakeDirs(cache));
    // The memory it works on comes as descriptors over its socket; the
    // candidate's runner gets no writable host folder at all (the judge
    // starting it cannot watch one).
    std::vector<std::string> cache_seed;
    if (s == Subject::kBaseline) {
      sb.read_write = {{cache, kCacheInside}};
    } else {
      sb.read_only.push_back({cache, kCacheSeed});
      cache_seed.push_back(std::string("--cache-seed=") + kCacheSeed);
    }
    // The runner's own files, copied (a Bazel runfiles tree is links that
    // point outside the sandbox), and nothing else of the harness: its two
    // Python files and, where it was built, its launch observer (without
    // it the runner's load says it observes nothing, and the report says so).
    const std::string code = (fs::path(ctx_.work_dir) / "runner_code").string();
    ARENA_RETURN_IF_ERROR(MakeDirs(code));
    if (std::error_code ec; !fs::exists(fs::path(ctx_.project_root) / kRunnerDir / kNativeGuard, ec)) {
      return Internal(std::string("the runner's native-code guard (") + kNativeGuard + ") was not built");
    }
    for (const char* f : {"arena_runner.py", "arena_buffers.py", "libarena_launches.so",
                          kNativeGuard}) {
      const fs::path from = fs::path(ctx_.project_root) / kRunnerDir / f;
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
    if (on_gpu()) {
      AllowDevice(ctx_.device, &sb);  // CUDA_VISIBLE_DEVICES names it
    } else {
      sb.env["TRITON_INTERPRET"] = "1";
      sb.env["CUDA_VISIBLE_DEVICES"] = "";
    }
    // The native-code guard (native_guard.cc): once the runner loads the
    // subject, libraries load only from the system, the runner's own
    // files, the Python installation and what the device needs (all bound
    // read-only), or the launchers' folder; never the subject's own,
    // whoever loads them. Never the baseline's cache (its seed).
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
    if (on_gpu()) {
      const std::string folder = LaunchersFolder(ctx_.work_dir);
      ARENA_RETURN_IF_ERROR(MakeDirs(folder));
      sb.read_only.push_back({folder, kLaunchersInside});
      sb.env["NATIVE_GUARD_LAUNCHERS"] = kLaunchersInside;
      launchers.push_back(std::string("--launchers=") + kLaunchersInside);
      spec["launchers"] = folder;
    }
    sb.env["NATIVE_GUARD_ROOTS"] = roots;
    // Library ops the task allows outside Triton kernels (validated names).
    std::string allowed;
    for (const auto& op : ctx_.task->family_json.value("allowed_ops", Json::array())) {
      allowed += (allowed.empty() ? "" : ",") + op.get<std::string>();
    }
    std::string python_inside = python;
    if (python.find('/') != std::string::npos) python_inside = fs::absolute(python).string();
    std::vector<std::string> command = {python_inside, "-s", "-B",
                                        std::string(kRunnerInside) + "/arena_runner.py",
                                        on_gpu() ? "--device=cuda" : "--device=cpu",
                                        "--allow-ops=" + allowed};
    command.insert(command.end(), cache_seed.begin(), cache_seed.end());
    command.insert(command.end(), launchers.begin(), launchers.end());
    ARENA_ASSIGN_OR_RETURN(std::vector<std::string> argv, SandboxArgv(sb, command));
    spec["argv"] = argv;
    return spec;
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

  Result<std::unique_ptr<WorkerProcess>> Start() {
    if (std::string why = SandboxUnavailableReason(); !why.empty()) {
      // Code under test never runs outside the sandbox.
      return Unavailable("the candidate sandbox cannot run here: " + why);
    }
    const std::string python = HarnessPython(ctx_.project_root);
    Json runners = Json::object();
    for (Subject s : {Subject::kBaseline, Subject::kCandidate}) {
      ARENA_ASSIGN_OR_RETURN(runners[SubjectName(s)], RunnerSpec(s, python));
    }
    ProcessOptions o;
    o.argv = {python, "-u",
              (fs::path(ctx_.project_root) / kWorker).string()};
    o.cwd = ctx_.work_dir;
    o.env["PYTHONDONTWRITEBYTECODE"] = "1";
    o.env["TRITON_CACHE_DIR"] = (fs::path(ctx_.work_dir) / "triton_cache").string();
    if (on_gpu()) {
      o.env["CUDA_VISIBLE_DEVICES"] = std::to_string(ctx_.device.index);
      o.unset_env = {"TRITON_INTERPRET"};
    } else {
      o.env["TRITON_INTERPRET"] = "1";
      o.env["CUDA_VISIBLE_DEVICES"] = "";
    }
    o.memory_limit_bytes = ctx_.memory_limit_bytes;
    // The judge runs no candidate code (its runners do, in sandboxes
    // without a network); it starts those sandboxes, so its own network
    // namespace may not need a user namespace of its own.
    o.isolate_network = true;
    o.network_via_user_namespace = false;
    ARENA_ASSIGN_OR_RETURN(std::unique_ptr<WorkerProcess> worker, WorkerProcess::Start(o));
    Json init = {{"op", "init"},
                 {"task", ctx_.task->ToJson()},
                 {"dirs", {{"baseline", ctx_.baseline_dir}}},
                 {"runners", runners},
                 // The judge gives up on a runner before this process gives
                 // up on the judge, so the right subject is blamed.
                 {"timeout_s", std::max(1.0, ctx_.stage_timeout_s * 0.9 - 1.0)},
                 {"device", on_gpu() ? "cuda" : "cpu"}};
    ARENA_RETURN_IF_ERROR(InitializeWorker(*worker, init, 300, "triton worker", &judge_metrics_));
    // A fresh worker must recompile whatever the last one had compiled.
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
  const std::string baseline_cache_;  // kept across evaluations ("" if not)
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
