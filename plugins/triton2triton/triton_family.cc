// The triton2triton family: a Triton baseline, made faster.
//
// Compile, check and time run in one long-lived Python worker per evaluation
// (harness/worker.py), driven through WorkerProcess: importing torch costs
// seconds, paid once. A worker that crashes or hangs is killed, the stage is
// recorded as that subject's failure, and a fresh worker carries on.
//
// On a machine without a GPU the worker runs kernels under the Triton
// interpreter (TRITON_INTERPRET=1) on the CPU, on the task's small
// configuration only; every other check and all timing say
// "skipped: no GPU".
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/family.h"
#include "core/harness_worker.h"
#include "core/process.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kWorker[] = "plugins/triton2triton/harness/worker.py";

Status ValidateEntry(const TaskSpec& task, const std::string& key, const std::string& ref,
                     const std::vector<std::string>& allowed_files, const char* what) {
  auto colon = ref.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == ref.size()) {
    return FieldError(task.yaml_path, task.family_section[key], "triton2triton." + key,
                      "expected file.py:function");
  }
  std::string file = ref.substr(0, colon);
  for (const auto& f : allowed_files) {
    if (f == file) return OkStatus();
  }
  return FieldError(task.yaml_path, task.family_section[key], "triton2triton." + key,
                    "'" + file + "' must be one of the task's " + what + " files");
}

class TritonSession : public EvaluationSession {
 public:
  explicit TritonSession(const EvaluationContext& ctx)
      : ctx_(ctx), worker_([this] { return Start(); }) {}

  StageOutcome Compile(Subject subject) override {
    compiled_.erase(subject);
    StageOutcome o = worker_.Send(CompileRequest(subject), ctx_.stage_timeout_s, SubjectName(subject));
    if (o.passed()) compiled_.insert(subject);
    o.metrics["network_isolated"] = NetworkIsolationAvailable();
    return o;
  }

  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    if (!on_gpu() && config.kind != ConfigKind::kSmall) {
      return StageOutcome::Skipped(
          "skipped: no GPU (the Triton interpreter checks only the small configuration)");
    }
    Json req = {{"op", "check"},
                {"subject", SubjectName(subject)},
                {"config", {{"name", config.name}, {"params", config.params}}},
                {"seed", seed},
                {"trials", ctx_.task->trials}};
    return worker_.Send(req, ctx_.stage_timeout_s, SubjectName(subject));
  }

  TimingOutcome Time(const Configuration& config) override {
    TimingOutcome t;
    if (!on_gpu()) {
      t.stage = StageOutcome::Skipped("skipped: no GPU");
      return t;
    }
    Json req = {{"op", "time"}, {"config", {{"name", config.name}, {"params", config.params}}}};
    Json reply;
    t.stage = worker_.Send(req, ctx_.stage_timeout_s, "a kernel", &reply);
    t.method = t.stage.metrics.value("method", "");
    if (t.stage.passed()) {
      t.baseline.us = reply.value("baseline_us", std::vector<double>{});
      t.candidate.us = reply.value("candidate_us", std::vector<double>{});
      if (t.baseline.us.empty() || t.candidate.us.size() != t.baseline.us.size()) {
        t.stage = StageOutcome::Failed("harness returned no timing samples");
      }
    }
    return t;
  }

 private:
  bool on_gpu() const { return ctx_.device.platform == "cuda"; }

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
    ProcessOptions o;
    o.argv = {HarnessPython(ctx_.project_root), "-u",
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
    o.isolate_network = true;  // candidate code gets no network
    ARENA_ASSIGN_OR_RETURN(std::unique_ptr<WorkerProcess> worker, WorkerProcess::Start(o));
    Json init = {{"op", "init"},
                 {"task", ctx_.task->ToJson()},
                 {"dirs", {{"baseline", ctx_.baseline_dir}, {"candidate", ctx_.candidate_dir}}},
                 {"device", on_gpu() ? "cuda" : "cpu"}};
    ARENA_RETURN_IF_ERROR(InitializeWorker(*worker, init, 300, "triton worker"));
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
  std::set<Subject> compiled_;
  HarnessWorker worker_;  // last: stopped before the members it uses go
};

class TritonFamily : public TaskFamily {
 public:
  Status ValidateTask(const TaskSpec& task) const override {
    const YAML::Node& s = task.family_section;
    if (!s.IsDefined() || !s.IsMap()) {
      return InvalidArgument(task.yaml_path + ": triton2triton: missing section (entry, reference)");
    }
    static const std::set<std::string> kKeys = {"entry", "reference", "inputs", "reference_dtype"};
    for (const auto& kv : s) {
      if (!kKeys.count(kv.first.Scalar())) {
        return FieldError(task.yaml_path, kv.first, "triton2triton." + kv.first.Scalar(),
                          "unknown field");
      }
    }
    for (const char* key : {"entry", "reference"}) {
      if (!s[key].IsDefined() || !s[key].IsScalar()) {
        return FieldError(task.yaml_path, s, std::string("triton2triton.") + key, "missing");
      }
    }
    ARENA_RETURN_IF_ERROR(
        ValidateEntry(task, "entry", s["entry"].Scalar(), task.editable, "editable"));
    ARENA_RETURN_IF_ERROR(
        ValidateEntry(task, "reference", s["reference"].Scalar(), task.harness, "harness"));
    if (s["inputs"].IsDefined()) {
      ARENA_RETURN_IF_ERROR(
          ValidateEntry(task, "inputs", s["inputs"].Scalar(), task.harness, "harness"));
    }
    if (s["reference_dtype"].IsDefined() && s["reference_dtype"].Scalar() != "float64" &&
        s["reference_dtype"].Scalar() != "native") {
      return FieldError(task.yaml_path, s["reference_dtype"], "triton2triton.reference_dtype",
                        "expected float64 or native");
    }
    if (task.ConfigsOfKind(ConfigKind::kSmall).empty()) {
      return InvalidArgument(task.yaml_path +
                             ": configs.small: required (checked under the Triton interpreter "
                             "on machines without a GPU)");
    }
    for (const auto& t : task.inputs) {
      std::string dist = t.init.value("dist", "normal");
      if (dist != "normal" && dist != "uniform" && dist != "randint") {
        return InvalidArgument(task.yaml_path + ": interface.inputs." + t.name +
                               ".init.dist: unknown distribution '" + dist + "'");
      }
      if (dist == "randint" && !t.init.contains("high")) {
        return InvalidArgument(task.yaml_path + ": interface.inputs." + t.name +
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
