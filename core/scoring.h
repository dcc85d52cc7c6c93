// Per-task and per-run scores, from the records the pipeline produced.
//
// Per configuration s = t_baseline / t_candidate, defined only where both
// were correct and timed: the median over rounds of each round's ratio
// where the two subjects were timed in interleaved rounds (TimingOutcome::
// paired), else the ratio of the two medians. Per task: the mean (AgentKernelArena's
// figure) and the geometric mean over configurations, the speedup on tuning
// versus held-out configurations, the AgentKernelArena-compatible score
// (0: does not compile, 20: compiles but wrong, 120 + 100 * mean speedup:
// correct; none when it could not be checked or timed here), and the
// generalization quadrant from the held-out checks.
// Per run: mean and geometric-mean speedup, fast_p, and the conditional
// correctness P(candidate correct on held-out | baseline correct on held-out).
//
//   TaskScore s = ScoreTask(result);
//   RunSummary r = Summarize(results);
#ifndef ARENA_CORE_SCORING_H_
#define ARENA_CORE_SCORING_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/family.h"
#include "core/task.h"

namespace arena {

enum class Quadrant {
  kBothPass,   // baseline and candidate correct on held-out configurations
  kRegressed,  // baseline correct, candidate wrong: the optimization overfit
  kBothFail,   // neither correct
  kImproved,   // candidate correct where the baseline was not
  kNotChecked, // no held-out configuration could be checked here
};
const char* QuadrantName(Quadrant q);

struct ConfigResult {
  std::string name;
  ConfigKind kind = ConfigKind::kTuning;
  double bytes = 0;
  double flops = 0;
  StageOutcome baseline_check;
  StageOutcome candidate_check;
  TimingOutcome timing;  // stage skipped unless both were correct

  // t_baseline / t_candidate (paired rounds' median ratio, else the ratio
  // of the medians), when timing passed.
  std::optional<double> speedup() const;
  Json ToJson() const;
  static ConfigResult FromJson(const Json& j);
};

// Everything recorded about one candidate of one task.
struct TaskResult {
  std::string task_id;
  std::string family;
  uint64_t seed = 0;
  DeviceInfo device;
  Json agent = Json::object();   // the AgentOutcome, where an agent ran
  StageOutcome baseline_compile;
  StageOutcome candidate_compile;
  StageOutcome integrity;        // harness files untouched, layout sane
  std::vector<ConfigResult> configs;
  double wall_s = 0;
  // Seconds of wall_s outside the stages' own: "stage_s" (the subjects'
  // files copied), "open_s" (the family's session opened), "harness_s"
  // (inside stage calls, beyond what the stages measured of their work:
  // the family's workers started, round trips), "close_s" (its workers
  // ended); empty for results stored before.
  Json phases = Json::object();
  // What produced it (core/provenance.h): task_hash, scoring_version,
  // arena_build, device, arch; empty for results stored before.
  Json provenance = Json::object();

  Json ToJson() const;
  static TaskResult FromJson(const Json& j);
};

struct TaskScore {
  bool compiled = false;
  bool correct = false;        // every checked configuration passed
  int configs_checked = 0;     // candidate checks that were not skipped
  int configs_timed = 0;
  std::optional<double> speedup_mean;
  std::optional<double> speedup_geomean;
  std::optional<double> tuning_geomean;
  std::optional<double> heldout_geomean;
  std::optional<double> score;  // AgentKernelArena-compatible; none if untimed
  Quadrant quadrant = Quadrant::kNotChecked;
  Json ToJson() const;
};

TaskScore ScoreTask(const TaskResult& result);

// True where both subjects were checked correct on `config` and its
// timing then failed (a finding, a crash or a hang when timed, or a
// harness error): the candidate cannot be scored there, and a task whose
// candidate could leave its slow configurations out of its mean speedup
// that way would be ranked on the rest; it fails the task like a check.
bool FailedWhenTimed(const ConfigResult& config);

// True if the candidate compiled, failed no check, and failed when timed
// on some configuration: what the verdict and the report call "failed
// when timed" (a failed check is "wrong" first).
bool FailedOnlyWhenTimed(const TaskResult& result);

// True if the candidate failed a gate it was put through (compile,
// integrity, a check, or timing after its checks passed). A candidate that
// could not be checked at all on this machine has not failed: it is
// unchecked.
bool FailedAGate(const TaskResult& result);

// True if the candidate compiled and failed nothing, but no check of it
// could run on this machine (no GPU): neither correct nor wrong.
bool Unchecked(const TaskResult& result);

// Two timings within this fraction of each other are a tie: A versus A on
// an H200 puts 97-99% of configurations within 2%
// (docs/results/*-h200-*/).
inline constexpr double kNoiseBand = 0.02;

// Timed configurations of one kind over a run's correct tasks, and on how
// many of them the candidate is slower or faster than the baseline by more
// than kNoiseBand.
struct ConfigCounts {
  int timed = 0;
  int slower = 0;
  int faster = 0;
  Json ToJson() const;
};

struct RunSummary {
  int tasks = 0;
  int compiled = 0;
  int correct = 0;
  int timed = 0;  // correct tasks with at least one speedup
  std::optional<double> mean_speedup;     // mean over timed tasks of their mean
  std::optional<double> geomean_speedup;  // geomean over timed tasks of their geomean
  std::map<std::string, std::optional<double>> fast_p;  // "1.0" -> share of all tasks
  std::optional<double> tuning_geomean;   // over every tuning configuration
  std::optional<double> heldout_geomean;  // over every held-out configuration
  // Where the speedup holds: the configurations the agent tuned on against
  // those it never saw.
  ConfigCounts tuning_configs, heldout_configs;
  std::optional<double> mean_score;       // over tasks with a score
  std::map<std::string, int> quadrants;
  int heldout_baseline_correct = 0;       // denominator of the conditional
  int heldout_both_correct = 0;           // numerator
  std::optional<double> conditional_correctness;
  // Integrity findings against candidates (library compute, tampering, a
  // broken protocol, outputs wrong only when timed): tasks with any, and
  // findings by kind (the text before the first ':').
  int integrity_tasks = 0;
  std::map<std::string, int> integrity_kinds;
  Json ToJson() const;
};

// The integrity findings recorded against a task's candidate, in stage order
// (each stage's metrics.integrity).
std::vector<std::string> IntegrityFindings(const TaskResult& r);

// "integrity: findings against 2/40 task(s): library compute 1, tampering 1"
// or "integrity: no findings".
std::string DescribeIntegrity(const RunSummary& summary);

RunSummary Summarize(const std::vector<TaskResult>& results);

// "per configuration: slower than the baseline by more than 2% on 5/218
// tuning and 40/215 held-out, faster ... on 101/218 and 68/215"; empty when
// nothing was timed.
std::string DescribeConfigCounts(const RunSummary& summary);

// Helpers exposed for tests.
std::optional<double> Mean(const std::vector<double>& v);
std::optional<double> GeometricMean(const std::vector<double>& v);

}  // namespace arena

#endif  // ARENA_CORE_SCORING_H_
