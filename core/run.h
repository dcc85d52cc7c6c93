// A run: one agent over a selection of tasks, evaluated and stored.
//
// For each task the agent gets a fresh workspace holding only what it may
// see (the editable files, INSTRUCTIONS.md and the tuning configurations in
// configs.json; never held-out configurations, references or seeds). Only
// the editable files are taken back; the candidate is then evaluated by the
// gated pipeline and stored. One worker thread per GPU; without a GPU, one
// worker on the CPU. An interrupted run continues with `resume`, which skips
// the tasks the database holds and redoes any that were half done.
//
//   RunRequest req;
//   req.agent = "noop";
//   req.selector = "triton2triton";
//   ARENA_ASSIGN_OR_RETURN(std::string run_id, ExecuteRun(req));
#ifndef ARENA_CORE_RUN_H_
#define ARENA_CORE_RUN_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/results_store.h"
#include "core/task.h"

namespace arena {

// A task the selector matched that is not valid.
struct BrokenTask {
  std::string id;  // <family>/<suite>/<task>
  Status error;    // names file:line:column and the field
};
struct TaskCatalog {
  std::vector<TaskSpec> tasks;
  std::vector<BrokenTask> broken;
};
struct RunRequest {
  std::string run_id;   // with resume: the run to continue; else optional
  bool resume = false;
  std::string agent = "noop";
  Json agent_config = Json::object();
  std::string selector = "all";
  std::vector<DeviceInfo> devices;  // empty: one worker on the CPU
  std::string runs_dir;             // holds arena.db and one folder per run
  std::string tasks_root;
  std::string project_root;
  uint64_t seed = 0;                // 0: a fresh seed per evaluation
  double agent_time_budget_s = 0;
  double stage_timeout_s = 600;
  std::function<void(const std::string&)> progress;  // one line per event
};

struct RunOutcome {
  std::string run_id;
  std::vector<TaskResult> results;  // every task of the run, in order
  std::vector<BrokenTask> broken;   // matched, but not valid: not evaluated
  int evaluated_now = 0;            // tasks evaluated by this call
  int skipped_finished = 0;         // tasks a resumed run found finished
};

Result<RunOutcome> ExecuteRun(const RunRequest& request);

// A run made ready to evaluate, shared by ExecuteRun and other executors (a
// batch scheduler): created, or reopened for a resume with its stored
// options applied; locked against a second arena process while this object
// lives; its folder and run.json written.
class RunLock;
struct PreparedRun {
  PreparedRun();
  ~PreparedRun();
  PreparedRun(PreparedRun&&) noexcept;
  RunRequest req;                   // the request, a resume's stored options in it
  RunInfo info;
  std::vector<TaskSpec> tasks;      // the valid tasks, in the run's order
  std::vector<BrokenTask> broken;   // matched, but not valid
  std::set<std::string> finished;   // tasks holding a result (lost ones excluded)
  std::string run_dir;              // RUNS_DIR/RUN_ID
  std::unique_ptr<ResultsStore> store;
  std::unique_ptr<RunLock> lock;
};
Result<PreparedRun> PrepareRun(const RunRequest& request);

// Ends what a call did to `run`: every stored result into `outcome`, in the
// run's order; the run marked finished once every task holds one that was
// not lost; summary.json written.
Status FinishRun(PreparedRun& run, RunOutcome* outcome);

// A task a scheduler lost (the node failed, the job was cancelled or ran
// out of time before a result was stored) is recorded with this result:
// it counts as a failure in reports, and a resume evaluates it again.
TaskResult LostResult(const TaskSpec& task, const std::string& why);
bool LostToScheduler(const TaskResult& r);

// One line for a task's outcome: "correct 1.032x", "WRONG", "LOST (...)".
std::string TaskVerdict(const TaskResult& r);

// The options of `req` that a run keeps for its whole life, as stored in
// RunInfo::options.
Json RunOptions(const RunRequest& req);
// A resume continues under the options the run was started with: those
// stored in `info` replace the request's (a run stored before options were
// recorded keeps the request's).
void ApplyStoredOptions(const RunInfo& info, RunRequest* req);

// The tasks matching `selector` under `tasks_root`, each loaded and
// validated (schema and family section) on its own: one broken task does
// not hide the others. Fails only when nothing matches.
Result<TaskCatalog> ScanTasks(const std::string& tasks_root, const std::string& selector);

// As ScanTasks, but the first broken task is the error.
Result<std::vector<TaskSpec>> LoadTasks(const std::string& tasks_root, const std::string& selector);

// Fills `workspace` with what an agent may see of `task`.
// extra: workspace-relative name -> source path (a family's WorkspaceFiles).
Status PrepareWorkspace(const TaskSpec& task, const std::string& workspace,
                        const std::map<std::string, std::string>& extra = {});

}  // namespace arena

#endif  // ARENA_CORE_RUN_H_
