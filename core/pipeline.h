// The gated evaluation of one candidate: compile, then correctness on every
// configuration (tuning and held-out), then timing where both baseline and
// candidate are correct. A failed gate stops that candidate's later stages
// and is recorded with its log; stages the machine cannot run are recorded
// as skipped with the reason.
//
//   PipelineOptions o;
//   o.work_dir = "/tmp/eval";
//   ARENA_ASSIGN_OR_RETURN(TaskResult r,
//                          EvaluateCandidate(task, family, candidate_dir, o));
//   TaskScore s = ScoreTask(r);
//
// Integrity: only the task's editable files are taken from candidate_dir;
// everything else comes from the task folder, and harness files are compared
// byte for byte after the evaluation (a candidate that rewrites its
// reference fails).
#ifndef ARENA_CORE_PIPELINE_H_
#define ARENA_CORE_PIPELINE_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "core/family.h"
#include "core/scoring.h"

namespace arena {

class SessionReuse;

struct PipelineOptions {
  uint64_t seed = 0;  // 0: drawn at random for this evaluation (and recorded)
  DeviceInfo device;
  std::string work_dir;      // scratch; created and filled here
  std::string project_root;  // passed to the family
  double stage_timeout_s = 600;
  // Only configurations of these kinds are evaluated (empty: all). The
  // feedback an agent gets uses {small, tuning}: never held-out ones.
  std::set<ConfigKind> kinds;
  // Only configurations of these names (empty: all of the kinds above).
  std::set<std::string> config_names;
  // false: checks only, every timing stage skipped saying so.
  bool timing = true;
  // Called as stages progress ("check tuning_n4096 candidate"), for progress lines.
  std::function<void(const std::string&)> on_stage;
  // Keeps the family's session (its workers, the compiled baseline) open
  // across evaluations of successive candidates; null: a fresh session,
  // ended before the integrity check. Only for an agent's feedback: a
  // recorded result always gets a fresh session.
  SessionReuse* reuse = nullptr;
  // Another evaluation of this task's family follows on this device
  // (EvaluationContext::prepare_next).
  bool prepare_next = false;
};

Result<TaskResult> EvaluateCandidate(const TaskSpec& task, const TaskFamily& family,
                                     const std::string& candidate_dir,
                                     const PipelineOptions& options);

// One task's evaluation session kept open between an agent's feedback
// calls: the workers stay up (a Python worker pays seconds to import torch)
// and the baseline is staged and compiled once; every call stages and
// compiles the candidate afresh. The session draws one seed, at its first
// call, and every later call uses it (options.seed, when set, wins): the
// calls see the very same inputs, so the families' workers can keep the
// inputs and references they prepared, and a baseline that passed on a
// configuration once is not checked there again (later calls check only
// the candidate and say so). The agent never sees the seed or the inputs;
// a recorded result draws its own. Evaluations that share it must be of
// the same task in the same work_dir (another task or folder opens a new
// session).
//
//   SessionReuse reuse;
//   PipelineOptions o;
//   o.reuse = &reuse;
//   EvaluateCandidate(task, family, files, o);  // opens, compiles both
//   EvaluateCandidate(task, family, files, o);  // compiles the candidate
//   reuse.Close();                              // before removing work_dir
class SessionReuse {
 public:
  SessionReuse() = default;
  SessionReuse(const SessionReuse&) = delete;
  SessionReuse& operator=(const SessionReuse&) = delete;
  ~SessionReuse() { Close(); }

  // Ends the session and its worker processes now.
  void Close() {
    session_.reset();
    key_.clear();
    baseline_compile_ = StageOutcome();
    baseline_passed_.clear();
    seed_ = 0;
  }
  int evaluations() const { return evaluations_; }

 private:
  friend Result<TaskResult> EvaluateCandidate(const TaskSpec&, const TaskFamily&,
                                              const std::string&, const PipelineOptions&);
  std::string key_;  // task id and work_dir of the open session
  std::unique_ptr<EvaluationSession> session_;
  StageOutcome baseline_compile_;
  std::map<std::string, uint64_t> baseline_passed_;  // configuration -> the seed it passed on
  uint64_t seed_ = 0;  // drawn by the session's first evaluation
  int evaluations_ = 0;
};

// A fresh random seed (never 0).
uint64_t DrawSeed();

}  // namespace arena

#endif  // ARENA_CORE_PIPELINE_H_
