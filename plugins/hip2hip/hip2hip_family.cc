// The hip2hip family: a HIP baseline, made faster; the same sources build
// for NVIDIA (nvcc through our HIP-on-CUDA layer, hip_on_cuda/) and AMD
// (hipcc, gfx90a).
//
// Compile: the candidate's kernel.hip into a shared library for the target
// platform (compiler output verbatim in the log), plus a compile for AMD
// gfx90a where hipcc exists, so a candidate must stay portable; the task's
// CPU reference (reference.cpp) with the host compiler. Check and time: a
// judge process (worker/judge.h) holding the inputs, the reference and
// the clock, and one sandboxed runner per subject (runner/runner.cc) that
// alone loads the subject's library; a segfault, a never-ending kernel or
// an illegal address ends that runner and is recorded as the subject's
// failure. Without a GPU, compiling is all that can run: checks and timing
// say "skipped: no GPU".
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "core/family.h"
#include "core/harness_worker.h"
#include "core/process.h"
#include "plugins/common/hip/build/hip_build.h"
#include "plugins/hip2hip/reference_build.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

class HipSession : public EvaluationSession {
 public:
  explicit HipSession(const EvaluationContext& ctx)
      : ctx_(ctx), worker_([this] { return StartWorker(); }) {}

  StageOutcome Compile(Subject subject) override {
    const std::string name = SubjectName(subject);
    libs_.erase(name);
    StageOutcome o = Build(subject);
    if (!o.passed()) {
      Reload(name, "");  // a worker kept up forgets the previous build
      return o;
    }
    if (reference_.empty()) {
      HipBuildOptions build{ctx_.project_root, ctx_.work_dir, ctx_.device, ctx_.stage_timeout_s};
      const std::string ref = (fs::path(ctx_.work_dir) / "reference.so").string();
      const std::string ref_src = (fs::path(ctx_.baseline_dir) /
                                   ctx_.task->family_json.value("reference", "reference.cpp"))
                                      .string();
      // With OpenMP where the host compiler has it (a reference's loops may
      // be spread over cores: the judge says how many), else serial.
      const std::string include = ArenaHipIncludeDir(ctx_.project_root);
      auto r = RunBuildStep(build, ReferenceBuildArgv(include, ref_src, ref, /*openmp=*/true));
      if (!r.success()) r = RunBuildStep(build, ReferenceBuildArgv(include, ref_src, ref, /*openmp=*/false));
      if (!r.success()) return StageOutcome::Failed("harness: the reference does not compile", r.err);
      reference_ = ref;
    }
    // Both subjects are built the same way: where runtime compilation was
    // asked and this subject went to nvcc (the split refused it), the
    // other, already built through NVRTC, is built again by nvcc.
    const Subject other = subject == Subject::kBaseline ? Subject::kCandidate : Subject::kBaseline;
    const std::string other_name = SubjectName(other);
    if (!nvcc_only_ && FellBackToNvcc(o)) {
      nvcc_only_ = true;
      if (libs_.count(other_name)) {
        StageOutcome again = Build(other);
        if (!again.passed()) {
          return StageOutcome::Failed("harness: the " + other_name + ", built again by nvcc as the " +
                                          name + " was, does not compile",
                                      again.log);
        }
        Reload(other_name, libs_[other_name]);
        o.metrics["rebuilt_by_nvcc"] = other_name;
      }
    }
    Reload(name, libs_[name]);
    return o;
  }

  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    Json req = {{"op", "check"},
                {"subject", SubjectName(subject)},
                {"config", {{"name", config.name}, {"params", config.params}}},
                {"seed", seed},
                {"trials", ctx_.task->trials}};
    // The configurations that usually come next, in order: the worker
    // prepares their trials side by side while this one is checked, as
    // many as its budget holds.
    const auto& configs = ctx_.task->configs;
    for (size_t i = 0; i < configs.size(); ++i) {
      if (configs[i].name != config.name) continue;
      Json next = Json::array();
      for (size_t j = i + 1; j < configs.size(); ++j) {
        next.push_back({{"name", configs[j].name}, {"params", configs[j].params}});
      }
      if (!next.empty()) req["prefetch"] = next;
      break;
    }
    return worker_.Send(req, ctx_.stage_timeout_s, SubjectName(subject));
  }

  Json Toolchain() override { return HipToolchain(); }

  TimingOutcome Time(const Configuration& config) override {
    TimingOutcome t;
    Json reply;
    t.stage = worker_.Send(
        {{"op", "time"}, {"config", {{"name", config.name}, {"params", config.params}}}},
        ctx_.stage_timeout_s, "a kernel", &reply);
    t.method = t.stage.metrics.value("method", "");
    if (t.stage.passed()) {
      t.baseline.us = reply.value("baseline_us", std::vector<double>{});
      t.candidate.us = reply.value("candidate_us", std::vector<double>{});
      t.paired = reply.value("paired", false);
    }
    return t;
  }

 private:
  // Builds a subject's source into libs_[its name], by nvcc alone once
  // either subject was (nvcc_only_).
  StageOutcome Build(Subject subject) {
    const std::string name = SubjectName(subject);
    const std::string dir = subject == Subject::kBaseline ? ctx_.baseline_dir : ctx_.candidate_dir;
    const std::string src = (fs::path(dir) / HipSource(*ctx_.task)).string();
    HipBuildOptions build{ctx_.project_root, ctx_.work_dir, ctx_.device, ctx_.stage_timeout_s};
    build.editable = ctx_.task->editable;  // built sandboxed, on these files alone
    build.nvcc_only = nvcc_only_;
    std::string lib;
    StageOutcome o = BuildHip(build, src, name, &lib);
    if (o.passed()) libs_[name] = lib;  // a worker started from now on loads it
    return o;
  }

  // A worker kept up (a session open across feedback calls, which rebuilds
  // the candidate) gets the subject's new runner command and keeps the
  // inputs and CPU references it prepared. A worker that cannot take it is
  // stopped; the next check starts a fresh one from libs_.
  void Reload(const std::string& subject, const std::string& lib) {
    if (!worker_.running()) return;
    auto runner = HipRunner(ctx_, subject, lib);
    if (!runner.ok()) {
      worker_.Stop();
      return;
    }
    StageOutcome o = worker_.Send({{"op", "load"}, {"subject", subject}, {"runner", *runner}},
                                  ctx_.stage_timeout_s, subject);
    if (!o.passed()) worker_.Stop();
  }

  Result<std::unique_ptr<WorkerProcess>> StartWorker() { return StartHipWorker(ctx_, libs_, reference_); }

  EvaluationContext ctx_;
  std::string reference_;
  std::map<std::string, std::string> libs_;
  bool nvcc_only_ = false;  // a subject was built by nvcc: both are, from then on
  HarnessWorker worker_;  // last: stopped before the members it uses go
};

class HipFamily : public TaskFamily {
 public:
  // HIP kernels run on NVIDIA GPUs, through the HIP-on-CUDA layer, and on
  // AMD GPUs through ROCm (the kit's *_rocm judge and runner, hipcc's
  // library for the GPU; plugins/common/hip/rocm); anywhere else both
  // subjects are only compiled (for NVIDIA, and for AMD gfx90a where hipcc
  // is installed).
  std::string PromptFile() const override { return "plugins/hip2hip/prompt.md"; }
  FamilyCapabilities Capabilities(const DeviceInfo& device) const override {
    using Checks = FamilyCapabilities::Checks;
    return FamilyCapabilities::OnlyOn(std::vector<std::string>{"cuda", "rocm"}, device, Checks::kNone, Checks::kNone,
                                      "CUDA or ROCm");
  }

  // The C ABI the editable file implements.
  std::map<std::string, std::string> WorkspaceFiles(const TaskSpec& task,
                                                    const std::string& project_root) const override {
    return {{"arena_hip.h", (fs::path(ArenaHipIncludeDir(project_root)) / "arena_hip.h").string()}};
  }

  Status ValidateTask(const TaskSpec& task) const override {
    return ValidateHipTask(task, "hip2hip", {}, ".cpp").status();
  }

  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    return std::unique_ptr<EvaluationSession>(new HipSession(ctx));
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_FAMILY("hip2hip", arena::HipFamily);
