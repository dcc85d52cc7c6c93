// A task family written from docs/adding-a-task-family.md alone, against the
// plugin SDK (//core:sdk) and nothing else: C kernels on the CPU.
//
// A task ships `kernel.c` (editable) and a reference (harness), each
// defining
//
//   void run(const float* x, float* y, long n);
//
// for one float32 input and one float32 output of the same length n (the
// task's interface). The family builds each with the system's C compiler
// and a driver of its own (read x from stdin, poison y, call run, write y),
// inside the sandbox; draws x from the evaluation's seed; runs the
// reference and the subject as separate sandboxed processes; and compares
// their outputs itself, under the task's float32 tolerance. It does not
// time: a CPU example has no clock worth trusting, and says so.
//
//   example_c:
//     reference: reference.c
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "core/expr.h"
#include "core/family.h"
#include "core/files.h"
#include "core/process.h"
#include "core/sandbox.h"
#include "core/section.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

const SectionSchema kSchema = {"example_c", {{"reference", FieldType::kString, /*required=*/true}}};

constexpr char kDriver[] = R"(#include <math.h>
#include <stdio.h>
#include <stdlib.h>
void run(const float* x, float* y, long n);
int main(int argc, char** argv) {
  if (argc != 2) return 2;
  long n = atol(argv[1]);
  float* x = malloc(sizeof(float) * (n > 0 ? n : 1));
  float* y = malloc(sizeof(float) * (n > 0 ? n : 1));
  if (!x || !y || fread(x, sizeof(float), n, stdin) != (size_t)n) return 3;
  for (long i = 0; i < n; ++i) y[i] = NAN;
  run(x, y, n);
  return fwrite(y, sizeof(float), n, stdout) == (size_t)n ? 0 : 4;
}
)";

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

class ExampleSession : public EvaluationSession {
 public:
  ExampleSession(const EvaluationContext& ctx, std::string reference)
      : ctx_(ctx), reference_(std::move(reference)) {}

  StageOutcome Compile(Subject subject) override {
    const auto start = std::chrono::steady_clock::now();
    const std::string dir = subject == Subject::kBaseline ? ctx_.baseline_dir : ctx_.candidate_dir;
    StageOutcome out = Build(SubjectName(subject), (fs::path(dir) / "kernel.c").string());
    out.seconds = Since(start);
    return out;
  }

  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    const auto start = std::chrono::steady_clock::now();
    if (!fs::exists(Program(SubjectName(subject)))) return StageOutcome::Failed("not compiled");
    if (!fs::exists(Program("reference"))) {
      StageOutcome ref = Build("reference", (fs::path(ctx_.baseline_dir) / reference_).string());
      if (!ref.passed()) return StageOutcome::Failed("the reference does not build", ref.log);
    }
    auto n = EvaluateExtent(ctx_.task->inputs[0].shape[0], config.numeric);
    if (!n.ok()) return StageOutcome::Failed(n.status().message());
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::string x(static_cast<size_t>(*n) * sizeof(float), '\0');
    for (long long i = 0; i < *n; ++i) {
      const float v = dist(rng);
      std::memcpy(&x[static_cast<size_t>(i) * sizeof(float)], &v, sizeof(float));
    }
    auto want = Execute("reference", x, *n);
    if (!want.ok()) return StageOutcome::Failed("reference: " + want.status().message());
    auto got = Execute(SubjectName(subject), x, *n);
    if (!got.ok()) return StageOutcome::Failed(got.status().message());
    const Tolerance tol = ctx_.task->tolerances.count("float32")
                              ? ctx_.task->tolerances.at("float32")
                              : Tolerance{1e-5, 1e-5};
    double max_abs = 0;
    for (long long i = 0; i < *n; ++i) {
      float a, b;
      std::memcpy(&a, &(*got)[static_cast<size_t>(i) * sizeof(float)], sizeof(float));
      std::memcpy(&b, &(*want)[static_cast<size_t>(i) * sizeof(float)], sizeof(float));
      const double err = std::fabs(static_cast<double>(a) - b);
      if (!(err <= tol.atol + tol.rtol * std::fabs(b))) {  // NaN fails too
        return StageOutcome::Failed("y[" + std::to_string(i) + "] = " + std::to_string(a) +
                                    ", expected " + std::to_string(b));
      }
      max_abs = std::max(max_abs, err);
    }
    StageOutcome out = StageOutcome::Passed("within tolerance");
    out.metrics["max_abs_err"] = max_abs;
    out.seconds = Since(start);
    return out;
  }

  TimingOutcome Time(const Configuration&) override {
    // Never asked: the family's capabilities say it does not time.
    TimingOutcome t;
    t.stage = StageOutcome::Skipped("the example family does not time");
    return t;
  }

 private:
  // Under work_dir, beside the staged subjects (never over them).
  std::string Dir(const std::string& name) const {
    return (fs::path(ctx_.work_dir) / "example_build" / name).string();
  }
  std::string Program(const std::string& name) const { return Dir(name) + "/prog"; }

  // Copies `source` and the driver into a folder of their own and builds
  // them there, sandboxed (the folder is all it can write).
  StageOutcome Build(const std::string& name, const std::string& source) {
    const std::string dir = Dir(name);
    if (Status s = ResetDir(dir); !s.ok()) return StageOutcome::Failed(s.message());
    if (Status s = CopyFile(source, dir + "/kernel.c"); !s.ok())
      return StageOutcome::Failed(s.message());
    if (Status s = WriteFileAtomic(dir + "/driver.c", kDriver); !s.ok()) {
      return StageOutcome::Failed(s.message());
    }
    SandboxOptions sb;
    sb.workspace = dir;
    auto p = SandboxedProcess(
        sb, {"cc", "-O2", "-std=c11", "-o", "prog", "driver.c", "kernel.c", "-lm"});
    if (!p.ok()) return StageOutcome::Failed(p.status().message());
    p->timeout_s = ctx_.stage_timeout_s;
    auto r = RunProcess(*p);
    if (!r.ok()) return StageOutcome::Failed(r.status().message());
    if (!r->success()) return StageOutcome::Failed("cc: " + r->Describe(), r->err);
    return StageOutcome::Passed("built with cc");
  }

  // Runs a built program on x, sandboxed with its own folder read-only, and
  // returns its n outputs.
  Result<std::string> Execute(const std::string& name, const std::string& x, long long n) {
    SandboxOptions sb;
    sb.workspace = Dir(name);
    sb.workspace_read_only = true;
    sb.memory_bytes = ctx_.memory_limit_bytes;
    ARENA_ASSIGN_OR_RETURN(
        ProcessOptions p,
        SandboxedProcess(sb, {std::string(kSandboxWorkspace) + "/prog", std::to_string(n)}));
    p.stdin_data = x;
    p.timeout_s = ctx_.stage_timeout_s;
    p.output_cap = x.size() + 1;
    ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(p));
    if (!r.success()) return InvalidArgument(r.Describe() + (r.err.empty() ? "" : ": " + r.err));
    if (r.out.size() != x.size() || r.out_dropped > 0) {
      return InvalidArgument("wrote " + std::to_string(r.out.size() + r.out_dropped) +
                             " bytes, expected " + std::to_string(x.size()));
    }
    return r.out;
  }

  EvaluationContext ctx_;
  std::string reference_;
};

class ExampleFamily : public TaskFamily {
 public:
  FamilyCapabilities Capabilities(const DeviceInfo&) const override {
    FamilyCapabilities c;
    c.time = false;
    c.why = "the example family does not time";
    if (std::string why = SandboxUnavailableReason(); !why.empty()) {
      // Code under test never runs outside the sandbox: compile only.
      c.baseline_checks = c.candidate_checks = FamilyCapabilities::Checks::kNone;
      c.why = "no sandbox: " + why;
    }
    return c;
  }

  Status ValidateTask(const TaskSpec& task) const override {
    ARENA_ASSIGN_OR_RETURN(Section s, DecodeSection(task, kSchema));
    if (task.editable != std::vector<std::string>{"kernel.c"}) {
      return TaskRequirementError(task, "files.editable",
                                  "the example family edits kernel.c alone");
    }
    if (std::find(task.harness.begin(), task.harness.end(), s.String("reference")) ==
        task.harness.end()) {
      return s.Error("reference", "must be one of files.harness");
    }
    const bool one_each = task.inputs.size() == 1 && task.outputs.size() == 1;
    if (!one_each || task.inputs[0].dtype != "float32" || task.outputs[0].dtype != "float32" ||
        task.inputs[0].shape.size() != 1 || task.outputs[0].shape != task.inputs[0].shape) {
      return TaskRequirementError(task, "interface",
                                  "one float32 input and one float32 output of the same length");
    }
    return OkStatus();
  }

  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    ARENA_ASSIGN_OR_RETURN(Section s, DecodeSection(*ctx.task, kSchema));
    return std::unique_ptr<EvaluationSession>(new ExampleSession(ctx, s.String("reference")));
  }

  std::string PromptFile() const override { return "tests/example_family/prompt.md"; }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_FAMILY("example_c", arena::ExampleFamily);
