// The interface every task family implements.
//
// A family knows how to compile a candidate, check it against a reference on
// one configuration with a given seed, and time it against the baseline. The
// core drives these stages (core/pipeline.h) and never names a family.
//
//   class MyFamily : public TaskFamily { ... };
//   ARENA_REGISTER_TASK_FAMILY("myfamily", MyFamily);
//
// Evaluation happens in a session: the family may keep a worker process alive
// across stages (one per evaluation), and must survive a candidate that
// crashes or hangs it, reporting that as the candidate's failure.
#ifndef ARENA_CORE_FAMILY_H_
#define ARENA_CORE_FAMILY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/registry.h"
#include "core/status.h"
#include "core/task.h"

namespace arena {

enum class Subject { kBaseline, kCandidate };
const char* SubjectName(Subject s);

enum class StageStatus { kPassed, kFailed, kSkipped };
const char* StageStatusName(StageStatus s);
Result<StageStatus> ParseStageStatus(const std::string& s);

// What one stage of one subject did.
struct StageOutcome {
  StageStatus status = StageStatus::kSkipped;
  std::string detail;  // one line: why it failed or was skipped
  std::string log;     // full output (compiler messages, tracebacks)
  double seconds = 0;
  Json metrics = Json::object();  // family-specific figures (errors, ...)

  static StageOutcome Passed(std::string detail = "") {
    return {StageStatus::kPassed, std::move(detail), "", 0, Json::object()};
  }
  static StageOutcome Failed(std::string detail, std::string log = "") {
    return {StageStatus::kFailed, std::move(detail), std::move(log), 0, Json::object()};
  }
  static StageOutcome Skipped(std::string reason) {
    return {StageStatus::kSkipped, std::move(reason), "", 0, Json::object()};
  }
  bool passed() const { return status == StageStatus::kPassed; }
  Json ToJson() const;
  static StageOutcome FromJson(const Json& j);
};

// Samples of one subject on one configuration, in microseconds.
struct TimingSamples {
  std::vector<double> us;
  double median() const;
  double percentile(double p) const;  // p in [0, 100]
};

struct TimingOutcome {
  StageOutcome stage;
  std::string method;  // e.g. "cuda-events+l2-flush+graph-replay"
  TimingSamples baseline;
  TimingSamples candidate;
  // Sample i of each subject was taken in round i of rounds that interleave
  // the two, one right after the other: the speedup is then the median of
  // the rounds' ratios, which cancels what drifts under both (clocks, the
  // machine's other load), rather than the ratio of the two medians.
  bool paired = false;
  Json ToJson() const;
  static TimingOutcome FromJson(const Json& j);
};

// Everything a family needs to evaluate one candidate.
struct EvaluationContext {
  const TaskSpec* task = nullptr;
  std::string baseline_dir;   // the task folder as shipped (staged copy)
  std::string candidate_dir;  // the task folder with the candidate's files
  std::string work_dir;       // scratch space for this evaluation; it holds the staged
                              // subjects (baseline/, candidate/): build in a folder of your own
  DeviceInfo device;
  std::string project_root;   // where plugins find their harness files
  double stage_timeout_s = 300;
  long long memory_limit_bytes = 0;  // 0: no limit
  // Another evaluation of this family is expected on this device after
  // this one: the family may start, while this one runs, what the next
  // will need (processes that import their libraries, then wait).
  bool prepare_next = false;
};

class EvaluationSession {
 public:
  virtual ~EvaluationSession() = default;
  virtual StageOutcome Compile(Subject subject) = 0;
  // Each subject's check stands alone: an agent's feedback checks the
  // candidate without the baseline on configurations where the baseline
  // already passed in the same session.
  virtual StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) = 0;
  // Times baseline and candidate on `config`, interleaved in one session.
  virtual TimingOutcome Time(const Configuration& config) = 0;
  // What built and ran the subjects, as far as the session knows (compiler,
  // interpreter and library versions), for the result's provenance; asked
  // once the evaluation is done.
  virtual Json Toolchain() { return Json::object(); }
};

// What a family can do on a device. The pipeline runs only these stages
// and skips every other one itself, saying "skipped: <why>", so that no
// family writes its own reasons or compares platform names in its sessions.
struct FamilyCapabilities {
  enum class Checks { kNone, kSmall, kAll };  // which configurations
  bool compile = true;
  Checks baseline_checks = Checks::kAll;
  Checks candidate_checks = Checks::kAll;
  bool time = true;
  std::string why;  // what this device lacks, e.g. "no GPU"

  Checks checks(Subject s) const {
    return s == Subject::kBaseline ? baseline_checks : candidate_checks;
  }
  // Everything on a GPU of `platform` (a platform plugin's name); on any
  // other device these checks, no timing, and why: "no GPU", or which GPU
  // this is and what the family `needs`.
  static FamilyCapabilities OnlyOn(const std::string& platform, const DeviceInfo& device,
                                   Checks baseline, Checks candidate, const std::string& needs) {
    return OnlyOn(std::vector<std::string>{platform}, device, baseline, candidate, needs);
  }
  // The same, on a GPU of any of `platforms`.
  static FamilyCapabilities OnlyOn(const std::vector<std::string>& platforms, const DeviceInfo& device,
                                   Checks baseline, Checks candidate, const std::string& needs) {
    FamilyCapabilities c;
    for (const auto& platform : platforms) {
      if (device.platform == platform) return c;
    }
    c.baseline_checks = baseline;
    c.candidate_checks = candidate;
    c.time = false;
    c.why = device.is_gpu() ? "a " + device.platform + " GPU; this family needs " + needs : "no GPU";
    return c;
  }
};

class TaskFamily {
 public:
  virtual ~TaskFamily() = default;
  // What this family can do on `device`. Default: everything.
  virtual FamilyCapabilities Capabilities(const DeviceInfo& device) const { return {}; }
  // Validates the family's own section of task.yaml (and anything else it
  // needs from the task); errors name file:line and the field.
  virtual Status ValidateTask(const TaskSpec& task) const = 0;
  // Whether a task may ship no editable files (files.starter: false; the
  // agent writes them from scratch). Only a family whose baseline is not
  // the editable files can evaluate such a task. Default: no.
  virtual bool TakesTasksWithoutStarter() const { return false; }
  // The configurations to evaluate, in order. Default: all of the task's.
  virtual std::vector<const Configuration*> Configurations(const TaskSpec& task) const;
  virtual Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const = 0;
  // Read-only files an agent's workspace gets besides the editable ones
  // (an ABI header, say): workspace-relative name -> source path under
  // project_root. Never harness files, never held-out data. Default: none.
  virtual std::map<std::string, std::string> WorkspaceFiles(const TaskSpec& task,
                                                            const std::string& project_root) const {
    return {};
  }
  // The family's part of an agent's prompt (its role and its contract), a
  // path under the project root; the plugin ships it as data. Default: none
  // (the agent gets a one-line contract).
  virtual std::string PromptFile() const { return ""; }
};

using TaskFamilyRegistry = Registry<TaskFamily>;

// family.ValidateTask(task), with anything it throws (a yaml-cpp conversion
// of a node of the wrong kind, say) turned into an error that names the
// task file, and the line and column where yaml-cpp knows them: a plugin's
// slip never aborts the arena.
Status ValidateTaskSafely(const TaskFamily& family, const TaskSpec& task);

}  // namespace arena

#define ARENA_REGISTER_TASK_FAMILY(name, Impl) \
  ARENA_REGISTER_PLUGIN_IMPL(::arena::TaskFamily, name, Impl, __LINE__)

#endif  // ARENA_CORE_FAMILY_H_
