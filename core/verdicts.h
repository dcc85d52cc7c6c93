// Re-evaluated submissions against the verdicts committed for them: the
// basis of reproducible leaderboards. A stored submission is replayed on the
// machine at hand; each of its results is matched with a committed result of
// the same submission (provenance candidate_hash) on the same task version
// (task_hash), and the verdicts are compared:
//
//   same device and architecture: the candidate's compile, integrity and
//       every configuration's check, including those now left unchecked;
//   another device (a CPU replay of a GPU verdict): each of those that ran
//       on both.
//
// Speed is not a verdict (it is measured again, and noise moves it).
//
//   std::vector<VerdictCheck> checks = CheckVerdicts(replayed, committed);
//   std::cout << FormatVerdictChecks(checks);
#ifndef ARENA_CORE_VERDICTS_H_
#define ARENA_CORE_VERDICTS_H_

#include <string>
#include <utility>
#include <vector>

#include "core/results_store.h"
#include "core/scoring.h"

namespace arena {

struct VerdictCheck {
  std::string task_id;
  std::string committed_run;  // the run whose verdict it was compared with
  bool same_device = false;   // the whole verdict was compared
  int compared = 0;           // verdicts compared (compile, integrity, checks)
  // What changed, one line each ("check heldout_n7: passed, now failed").
  std::vector<std::string> changes;
  // Why it could not be compared: no committed verdict for this submission,
  // the task's files changed since, nothing that ran here ran there.
  std::string problem;
  bool ok() const { return problem.empty() && changes.empty(); }
};

// One check per result of `replayed`, in order. `committed`: the runs whose
// verdicts stand (a result of the same submission on the same device is
// preferred, then the latest run's).
std::vector<VerdictCheck> CheckVerdicts(
    const std::vector<TaskResult>& replayed,
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& committed);

// A line per task, then the count; "" for no checks.
std::string FormatVerdictChecks(const std::vector<VerdictCheck>& checks);

}  // namespace arena

#endif  // ARENA_CORE_VERDICTS_H_
