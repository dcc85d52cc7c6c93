// Across runs: a leaderboard (one row per run, over the same tasks), the
// comparison of two runs task by task (A/B testing of agents), and a
// self-contained HTML page of one run with its plots.
//
//   auto rows = BuildLeaderboard(runs, "triton2triton");
//   std::cout << FormatLeaderboard(rows);
//   RunComparison c = CompareRuns(results_a, results_b);
#ifndef ARENA_CORE_LEADERBOARD_H_
#define ARENA_CORE_LEADERBOARD_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/results_store.h"
#include "core/scoring.h"

namespace arena {

struct LeaderboardRow {
  RunInfo run;
  RunSummary summary;
  int unchecked = 0;         // tasks nothing could check (no GPU)
  double agent_wall_s = 0;   // summed over tasks
  int feedback_calls = 0;
  std::string device;        // where it was evaluated
  // Its board: results are ranked only against results on the same device
  // and scoring version (core/provenance.h: ComparableKey; "" for results
  // stored without provenance).
  std::string board;
  // Tasks that rows of its board evaluated in other versions of the task's
  // files: their figures are not comparable, and the board says so.
  std::vector<std::string> task_versions_differ;
  int tasks_of_board = 0;    // tasks evaluated by any run on the board
  // Evaluated every task of the board. A partial row (an unfinished run, a
  // narrower selector) is ranked after the complete ones: its figures cover
  // fewer tasks and cannot be ranked against theirs.
  bool complete = true;
};

// One row per run, over the run's tasks that match `selector` ("" or "all":
// every task); runs with no such task are left out. Runs on other devices
// or scoring versions go on separate boards (in order of first appearance).
// Best first within a board: complete rows before partial ones, then
// geometric mean speedup, then tasks correct.
std::vector<LeaderboardRow> BuildLeaderboard(
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& runs,
    const std::string& selector);
std::string FormatLeaderboard(const std::vector<LeaderboardRow>& rows);

// One entry per agent: for each task, its result from the agent's latest run
// (by creation time) that evaluated it, so that runs made family by family
// add up to one row. The entry's run_id says how many runs it draws on
// ("3 runs", or the run's own id if one); its selector lists them, oldest
// first; its status is "running" if any of them is. Only tasks matching
// `selector` ("": all) count, and runs with none are left out.
std::vector<std::pair<RunInfo, std::vector<TaskResult>>> MergeRunsByAgent(
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& runs,
    const std::string& selector = "");
// The results evaluated on the task files as they are now: those whose
// provenance task_hash is `current[task_id]`. The others (another version
// of the files, a task not in `current`, no provenance) are left out, each
// named in `left_out` as "RUN TASK: why"; runs left with no result go.
std::vector<std::pair<RunInfo, std::vector<TaskResult>>> KeepCurrentTasks(
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& runs,
    const std::map<std::string, std::string>& current, std::vector<std::string>* left_out);

// The same as a self-contained HTML page.
std::string HtmlLeaderboard(const std::vector<LeaderboardRow>& rows, const std::string& selector);
Json LeaderboardJson(const std::vector<LeaderboardRow>& rows);

struct TaskComparison {
  std::string task_id;
  TaskScore a, b;
  std::optional<double> ratio;  // b's geomean speedup / a's, both correct and timed
  std::string verdict;          // "B faster", "A faster", "tie", "B fixed it", ...
};

struct RunComparison {
  std::vector<TaskComparison> tasks;  // the tasks both runs evaluated
  int b_faster = 0, a_faster = 0, ties = 0;
  int fixed = 0;   // correct in B, wrong in A
  int broken = 0;  // correct in A, wrong in B
  int only_a = 0, only_b = 0;
  // Tasks in both runs left out of the counts: evaluated on other devices or
  // scoring versions, or in other versions of the task's files.
  int not_comparable = 0;
  int without_provenance = 0;  // stored before provenance: compared as they are
  std::optional<double> geomean_ratio;  // over tasks with a ratio
};

// Speedups are each against the baseline timed in its own run, so the ratio
// compares the two candidates; within `tie` of 1 is a tie.
RunComparison CompareRuns(const std::vector<TaskResult>& a, const std::vector<TaskResult>& b,
                          double tie = kNoiseBand);
std::string FormatComparison(const RunInfo& a, const RunInfo& b, const RunComparison& c);
Json ComparisonJson(const RunInfo& a, const RunInfo& b, const RunComparison& c);

// The machine's measured ceilings, for roofline placement.
struct Ceilings {
  std::string device;
  double copy_bytes_per_s = 0;  // a device-to-device copy, bytes read + written
  double peak_flops = 0;        // dense matrix product (e.g. bf16)
};

// {"device", "copy_bytes_per_s", "bf16_matmul_flops"} as tools/gpu/ceilings.py
// writes it; errors name the file and the field.
Result<Ceilings> LoadCeilings(const std::string& path);

// One run as a single HTML file (no scripts, no external resources): the
// summary, per-task table, a histogram of per-configuration speedups on a
// log scale, and the generalization quadrants; with ceilings, a roofline
// plot placing each timed configuration's baseline and candidate.
std::string HtmlReport(const RunInfo& info, const std::vector<TaskResult>& results,
                       const std::optional<Ceilings>& ceilings = std::nullopt);

}  // namespace arena

#endif  // ARENA_CORE_LEADERBOARD_H_
