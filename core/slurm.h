// Runs evaluated on a Slurm cluster: one array job per submission, one
// element per task, each element requesting what the options say (a GPU:
// --gres gpu:1).
//
// Each element runs this arena binary on its node (`arena run --run-id RUN
// --tasks TASK --runs-dir ELEMENT_DIR ...`): the agent and the evaluation of
// one task, into a results database of its own under the run's folder
// (RUNS_DIR/RUN/slurm/elements/K-I/arena.db; the cluster shares the file
// system, or the runs folder is staged). The submitting arena copies each
// element's result into the run's database as it appears. An element that
// ends without a result (its node failed, it was cancelled or ran out of
// time) is recorded as lost (LostResult): a failure in every report, and
// evaluated again by `--resume`, which submits only what is unfinished and
// never a task whose element is still queued or running, with the sbatch
// arguments the run was last submitted with unless it is given its own.
//
//   SlurmOptions slurm;
//   slurm.sbatch_args = {"--partition=gpu", "--gres=gpu:1", "--time=01:00:00"};
//   ARENA_ASSIGN_OR_RETURN(RunOutcome out, ExecuteRunOnSlurm(req, slurm));
#ifndef ARENA_CORE_SLURM_H_
#define ARENA_CORE_SLURM_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/run.h"
#include "core/status.h"

namespace arena {

struct SlurmOptions {
  std::vector<std::string> sbatch_args;  // e.g. --partition=P, --gres=gpu:1
  std::string arena_binary;              // run by every element (absolute)
  std::string project_root;              // its --root
  std::string gpus;                      // an element's --gpus ("" : its node's)
  bool wait = true;                      // else submit and return
  double poll_s = 5;                     // between looks at the queue
};

// The batch script of one submission: an array over the lines of
// `task_list`; element I evaluates line I+1 into `elements_dir`/K-I.
std::string SlurmBatchScript(const PreparedRun& run, const SlurmOptions& options,
                             int submission, const std::string& task_list,
                             const std::string& elements_dir, int count);

// `squeue -h -r -o %i|%T` output -> element index -> state, for `job_id`.
std::map<int, std::string> ParseSqueue(const std::string& text, const std::string& job_id);

// Submits the run's unfinished tasks as an array job and, with `wait`,
// collects their results until every element has ended.
Result<RunOutcome> ExecuteRunOnSlurm(const RunRequest& request, const SlurmOptions& options);

}  // namespace arena

#endif  // ARENA_CORE_SLURM_H_
