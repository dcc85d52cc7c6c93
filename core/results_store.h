// The SQLite database that is the source of truth for reports.
//
// Tables: runs, task_results, configurations, stages, timings (with their raw
// samples). Each task's records are written in one transaction, so a run
// killed at any moment holds either all of a task or none of it; --resume
// redoes exactly the tasks that are not recorded.
//
//   ARENA_ASSIGN_OR_RETURN(auto store, ResultsStore::Open("runs/arena.db"));
//   ARENA_RETURN_IF_ERROR(store->CreateRun(info));
//   ARENA_RETURN_IF_ERROR(store->SaveTask(info.run_id, result));
#ifndef ARENA_CORE_RESULTS_STORE_H_
#define ARENA_CORE_RESULTS_STORE_H_

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/scoring.h"

struct sqlite3;

namespace arena {

struct RunInfo {
  std::string run_id;
  std::string agent;
  std::string selector;
  std::string created_at;  // ISO 8601, UTC
  std::string status = "running";  // "running" or "finished"
  Json devices = Json::array();
  Json agent_config = Json::object();
  // The options a resume must keep: seed, agent_time_budget_s,
  // stage_timeout_s. Empty for runs stored before they were recorded.
  Json options = Json::object();
  std::vector<std::string> task_ids;  // the run's tasks, in order
  // Tasks the selector matched that were broken (not valid), so not
  // evaluated: task id -> the error, with its file:line:column.
  Json task_errors = Json::object();
  Json ToJson() const;
  static RunInfo FromJson(const Json& j);
};

// The schema this arena writes (PRAGMA user_version). A database of an
// older version is migrated when opened for writing; a newer one is refused.
constexpr int kResultsSchemaVersion = 1;

class ResultsStore {
 public:
  // Opens for writing, creating or migrating the database.
  static Result<std::unique_ptr<ResultsStore>> Open(const std::string& path);
  // Opens without writing anything, not even SQLite's side files where the
  // folder refuses them (an archive on read-only storage): for reports,
  // leaderboards, comparisons and merge sources.
  static Result<std::unique_ptr<ResultsStore>> OpenReadOnly(const std::string& path);
  ~ResultsStore();

  // Stored rows that could not be read (a corrupt result), each skipped and
  // named here: "run R, task T: ...". Reads go on without them.
  const std::vector<std::string>& skipped() const { return skipped_; }

  Status CreateRun(const RunInfo& info);
  Result<RunInfo> GetRun(const std::string& run_id);
  Result<std::vector<RunInfo>> ListRuns();
  Status SetRunStatus(const std::string& run_id, const std::string& status);
  // Replaces whatever was stored for (run, task) in one transaction.
  Status SaveTask(const std::string& run_id, const TaskResult& result);
  Result<std::set<std::string>> FinishedTasks(const std::string& run_id);
  // In the run's task order.
  Result<std::vector<TaskResult>> LoadTasks(const std::string& run_id);
  // Runs a query and returns the rows as strings (tests and reports).
  Result<std::vector<std::vector<std::string>>> Query(const std::string& sql);

 private:
  ResultsStore(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  Status Exec(const std::string& sql);
  Status CheckVersion(bool migrate);
  void Skip(const std::string& what);
  sqlite3* db_;
  std::string path_;
  std::vector<std::string> skipped_;
  std::mutex mu_;
};

// What MergeStore did, one line per run of the source.
struct MergeSummary {
  int runs_added = 0;    // runs the destination did not have
  int tasks_added = 0;   // task results copied
  int tasks_kept = 0;    // task results both had: the destination's kept
  std::vector<std::string> lines;  // "run X: new, 24 task(s)" ...
};

// Copies into `into` what `from` holds and `into` lacks: whole runs, and the
// task results of runs both hold (a run resumed on another machine). A task
// result both hold stays as it is in `into`. A run both hold must be the
// same run (agent and selector); it is marked finished once `into` holds
// every one of its tasks and `from` says it finished. Each task result is
// written in its own transaction: an interrupted merge is completed by
// running it again.
Result<MergeSummary> MergeStore(ResultsStore& from, ResultsStore& into);

// Current UTC time as "2026-11-30T07:30:00Z".
std::string NowIso8601();

}  // namespace arena

#endif  // ARENA_CORE_RESULTS_STORE_H_
