#include "core/results_store.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <sqlite3.h>

#include <ctime>

namespace arena {

Result<MergeSummary> MergeStore(ResultsStore& from, ResultsStore& into) {
  MergeSummary summary;
  ARENA_ASSIGN_OR_RETURN(std::vector<RunInfo> runs, from.ListRuns());
  for (const RunInfo& run : runs) {
    Result<RunInfo> here = into.GetRun(run.run_id);
    const bool is_new = !here.ok();
    if (is_new) {
      if (here.status().code() != StatusCode::kNotFound) return here.status();
      RunInfo copy = run;
      copy.status = "running";  // until every task is in
      ARENA_RETURN_IF_ERROR(into.CreateRun(copy));
      ++summary.runs_added;
    } else if (here->agent != run.agent || here->selector != run.selector) {
      return FailedPrecondition("run '" + run.run_id + "' differs between the databases (agent " +
                                here->agent + " vs " + run.agent + ", tasks " + here->selector +
                                " vs " + run.selector + ")");
    }
    ARENA_ASSIGN_OR_RETURN(std::set<std::string> have, into.FinishedTasks(run.run_id));
    ARENA_ASSIGN_OR_RETURN(std::vector<TaskResult> results, from.LoadTasks(run.run_id));
    int added = 0, kept = 0;
    for (const TaskResult& r : results) {
      if (have.count(r.task_id)) {
        ++kept;
        continue;
      }
      ARENA_RETURN_IF_ERROR(into.SaveTask(run.run_id, r));
      have.insert(r.task_id);
      ++added;
    }
    bool complete = true;
    for (const auto& id : run.task_ids) complete = complete && have.count(id) > 0;
    const bool finished = run.status == "finished" && complete;
    if (finished) ARENA_RETURN_IF_ERROR(into.SetRunStatus(run.run_id, "finished"));
    summary.tasks_added += added;
    summary.tasks_kept += kept;
    summary.lines.push_back("run " + run.run_id + ": " + (is_new ? "new, " : "") +
                            std::to_string(added) + " task(s) added" +
                            (kept ? ", " + std::to_string(kept) + " already here" : "") +
                            (finished ? "" : " (unfinished)"));
  }
  return summary;
}

std::string NowIso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Json RunInfo::ToJson() const {
  return {{"run_id", run_id},   {"agent", agent},   {"selector", selector},
          {"created_at", created_at}, {"status", status}, {"devices", devices},
          {"agent_config", agent_config}, {"options", options}, {"task_ids", task_ids},
          {"task_errors", task_errors}};
}

RunInfo RunInfo::FromJson(const Json& j) {
  RunInfo r;
  r.run_id = j.value("run_id", "");
  r.agent = j.value("agent", "");
  r.selector = j.value("selector", "");
  r.created_at = j.value("created_at", "");
  r.status = j.value("status", "running");
  r.devices = j.value("devices", Json::array());
  r.agent_config = j.value("agent_config", Json::object());
  r.options = j.value("options", Json::object());
  r.task_ids = j.value("task_ids", std::vector<std::string>{});
  r.task_errors = j.value("task_errors", Json::object());
  return r;
}

namespace {

const char* kSchema = R"sql(
PRAGMA journal_mode = WAL;
PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  selector TEXT NOT NULL,
  created_at TEXT NOT NULL,
  status TEXT NOT NULL,
  info_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS task_results (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  task_id TEXT NOT NULL,
  family TEXT NOT NULL,
  seed TEXT NOT NULL,
  device TEXT NOT NULL,
  compiled INTEGER NOT NULL,
  correct INTEGER NOT NULL,
  quadrant TEXT NOT NULL,
  speedup_mean REAL,
  speedup_geomean REAL,
  tuning_geomean REAL,
  heldout_geomean REAL,
  score REAL,
  wall_s REAL NOT NULL,
  finished_at TEXT NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY (run_id, task_id)
);
CREATE TABLE IF NOT EXISTS configurations (
  run_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  config TEXT NOT NULL,
  kind TEXT NOT NULL,
  bytes REAL NOT NULL,
  flops REAL NOT NULL,
  baseline_status TEXT NOT NULL,
  candidate_status TEXT NOT NULL,
  speedup REAL,
  PRIMARY KEY (run_id, task_id, config)
);
CREATE TABLE IF NOT EXISTS stages (
  run_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  stage TEXT NOT NULL,
  config TEXT NOT NULL,
  status TEXT NOT NULL,
  detail TEXT NOT NULL,
  seconds REAL NOT NULL,
  log TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS stages_by_task ON stages(run_id, task_id);
CREATE TABLE IF NOT EXISTS timings (
  run_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  config TEXT NOT NULL,
  subject TEXT NOT NULL,
  method TEXT NOT NULL,
  median_us REAL,
  p10_us REAL,
  p90_us REAL,
  samples_json TEXT NOT NULL,
  PRIMARY KEY (run_id, task_id, config, subject)
);
)sql";

// A prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql) {
    rc_ = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  bool ok() const { return rc_ == SQLITE_OK; }
  Statement& Text(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& Real(int i, std::optional<double> v) {
    if (v) sqlite3_bind_double(stmt_, i, *v);
    else sqlite3_bind_null(stmt_, i);
    return *this;
  }
  Statement& Int(int i, long long v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  int Step() { return sqlite3_step(stmt_); }
  std::string Column(int i) {
    const unsigned char* t = sqlite3_column_text(stmt_, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  int Columns() { return sqlite3_column_count(stmt_); }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  int rc_;
};

Status DbError(sqlite3* db, const std::string& what) {
  return Internal("results database: " + what + ": " + sqlite3_errmsg(db));
}

// A stored JSON document, or why it cannot be read (never an exception).
template <typename T>
Result<T> FromStoredJson(const std::string& text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return DataLoss("not valid JSON");
  try {
    return T::FromJson(j);
  } catch (const std::exception& e) {
    return DataLoss(std::string("not the expected document: ") + e.what());
  }
}

}  // namespace

Result<std::unique_ptr<ResultsStore>> ResultsStore::Open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Unavailable(path + ": cannot open database: " + msg);
  }
  sqlite3_busy_timeout(db, 30000);
  std::unique_ptr<ResultsStore> store(new ResultsStore(db, path));
  ARENA_RETURN_IF_ERROR(store->CheckVersion(/*migrate=*/false));
  ARENA_RETURN_IF_ERROR(store->Exec(kSchema).WithContext(path));
  ARENA_RETURN_IF_ERROR(store->CheckVersion(/*migrate=*/true));
  return store;
}

Result<std::unique_ptr<ResultsStore>> ResultsStore::OpenReadOnly(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return NotFound(path + ": no such results database");
  }
  // mode=ro first; where SQLite cannot even make its shared-memory file
  // (a read-only folder holding a WAL database), immutable=1.
  std::string last_error;
  for (const char* query : {"?mode=ro", "?mode=ro&immutable=1"}) {
    sqlite3* db = nullptr;
    const std::string uri = "file:" + std::filesystem::absolute(path, ec).string() + query;
    int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc == SQLITE_OK) {
      sqlite3_busy_timeout(db, 30000);
      std::unique_ptr<ResultsStore> store(new ResultsStore(db, path));
      Status st = store->CheckVersion(/*migrate=*/false);
      if (st.ok()) {
        auto probe = store->Query("SELECT count(*) FROM runs");
        if (probe.ok()) return store;
        st = probe.status();
      }
      last_error = st.message();
      if (st.code() == StatusCode::kFailedPrecondition) return st;  // a newer schema
      continue;
    }
    last_error = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
  }
  return Unavailable(last_error.rfind(path, 0) == 0 ? last_error : path + ": " + last_error);
}

void ResultsStore::Skip(const std::string& what) {
  if (std::find(skipped_.begin(), skipped_.end(), what) == skipped_.end()) skipped_.push_back(what);
}

Status ResultsStore::CheckVersion(bool migrate) {
  auto rows = Query("PRAGMA user_version");
  if (!rows.ok()) {
    std::string why = rows.status().message();
    const std::string prefix = "results database: query: ";
    if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
    return Unavailable(path_ + ": not a results database (" + why + ")");
  }
  const int version = rows->empty() || rows->front().empty() ? 0 : std::atoi(rows->front()[0].c_str());
  if (version > kResultsSchemaVersion) {
    return FailedPrecondition(path_ + ": written by a newer arena (schema " +
                              std::to_string(version) + ", this arena reads up to " +
                              std::to_string(kResultsSchemaVersion) + "); update the arena");
  }
  if (migrate && version < kResultsSchemaVersion) {
    // Version 0 is the same tables, stored before versions were recorded.
    ARENA_RETURN_IF_ERROR(
        Exec("PRAGMA user_version = " + std::to_string(kResultsSchemaVersion)).WithContext(path_));
  }
  return OkStatus();
}

ResultsStore::~ResultsStore() { sqlite3_close(db_); }

Status ResultsStore::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return Internal("results database: " + msg);
  }
  return OkStatus();
}

Status ResultsStore::CreateRun(const RunInfo& info) {
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, "INSERT INTO runs(run_id, agent, selector, created_at, status, info_json) "
                   "VALUES (?, ?, ?, ?, ?, ?)");
  s.Text(1, info.run_id).Text(2, info.agent).Text(3, info.selector).Text(4, info.created_at)
      .Text(5, info.status).Text(6, JsonText(info.ToJson()));
  if (s.Step() != SQLITE_DONE) {
    return AlreadyExists("run '" + info.run_id + "': " + sqlite3_errmsg(db_));
  }
  return OkStatus();
}

Result<RunInfo> ResultsStore::GetRun(const std::string& run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, "SELECT info_json, status FROM runs WHERE run_id = ?");
  if (!s.ok()) return DbError(db_, "read run " + run_id).WithContext(path_);
  s.Text(1, run_id);
  int rc = s.Step();
  if (rc == SQLITE_DONE) return NotFound("no run '" + run_id + "' in the results database");
  if (rc != SQLITE_ROW) return DbError(db_, "read run " + run_id).WithContext(path_);
  auto info = FromStoredJson<RunInfo>(s.Column(0));
  if (!info.ok()) {
    return DataLoss(path_ + ": run " + run_id + ": stored record unreadable: " +
                    info.status().message());
  }
  info->status = s.Column(1);
  return *info;
}

Result<std::vector<RunInfo>> ResultsStore::ListRuns() {
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, "SELECT info_json, status, run_id FROM runs ORDER BY created_at, run_id");
  if (!s.ok()) return DbError(db_, "list runs").WithContext(path_);
  std::vector<RunInfo> out;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    auto info = FromStoredJson<RunInfo>(s.Column(0));
    if (!info.ok()) {
      Skip("run " + s.Column(2) + ": stored record unreadable (" + info.status().message() +
           "), skipped");
      continue;
    }
    info->status = s.Column(1);
    out.push_back(*info);
  }
  if (rc != SQLITE_DONE) return DbError(db_, "list runs").WithContext(path_);
  return out;
}

Status ResultsStore::SetRunStatus(const std::string& run_id, const std::string& status) {
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, "UPDATE runs SET status = ? WHERE run_id = ?");
  s.Text(1, status).Text(2, run_id);
  if (s.Step() != SQLITE_DONE) return DbError(db_, "update run");
  return OkStatus();
}

Status ResultsStore::SaveTask(const std::string& run_id, const TaskResult& r) {
  std::lock_guard<std::mutex> lock(mu_);
  TaskScore score = ScoreTask(r);
  ARENA_RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE"));
  auto fail = [&](const std::string& what) {
    Status st = DbError(db_, what);
    Exec("ROLLBACK").ok();
    return st;
  };
  for (const char* table : {"task_results", "configurations", "stages", "timings"}) {
    Statement del(db_, std::string("DELETE FROM ") + table + " WHERE run_id = ? AND task_id = ?");
    del.Text(1, run_id).Text(2, r.task_id);
    if (del.Step() != SQLITE_DONE) return fail(std::string("clear ") + table);
  }
  {
    Statement s(db_,
                "INSERT INTO task_results(run_id, task_id, family, seed, device, compiled, "
                "correct, quadrant, speedup_mean, speedup_geomean, tuning_geomean, "
                "heldout_geomean, score, wall_s, finished_at, result_json) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    s.Text(1, run_id).Text(2, r.task_id).Text(3, r.family).Text(4, std::to_string(r.seed))
        .Text(5, r.device.Describe()).Int(6, score.compiled).Int(7, score.correct)
        .Text(8, QuadrantName(score.quadrant)).Real(9, score.speedup_mean)
        .Real(10, score.speedup_geomean).Real(11, score.tuning_geomean)
        .Real(12, score.heldout_geomean).Real(13, score.score).Real(14, r.wall_s)
        .Text(15, NowIso8601()).Text(16, JsonText(r.ToJson()));
    if (s.Step() != SQLITE_DONE) return fail("insert task");
  }
  auto stage = [&](const char* subject, const char* name, const std::string& config,
                   const StageOutcome& o) {
    Statement s(db_, "INSERT INTO stages VALUES (?,?,?,?,?,?,?,?,?)");
    s.Text(1, run_id).Text(2, r.task_id).Text(3, subject).Text(4, name).Text(5, config)
        .Text(6, StageStatusName(o.status)).Text(7, o.detail).Real(8, o.seconds).Text(9, o.log);
    return s.Step() == SQLITE_DONE;
  };
  if (!stage("baseline", "compile", "", r.baseline_compile) ||
      !stage("candidate", "compile", "", r.candidate_compile) ||
      !stage("candidate", "integrity", "", r.integrity)) {
    return fail("insert stage");
  }
  for (const auto& c : r.configs) {
    Statement s(db_, "INSERT INTO configurations VALUES (?,?,?,?,?,?,?,?,?)");
    s.Text(1, run_id).Text(2, r.task_id).Text(3, c.name).Text(4, ConfigKindName(c.kind))
        .Real(5, c.bytes).Real(6, c.flops).Text(7, StageStatusName(c.baseline_check.status))
        .Text(8, StageStatusName(c.candidate_check.status)).Real(9, c.speedup());
    if (s.Step() != SQLITE_DONE) return fail("insert configuration");
    if (!stage("baseline", "check", c.name, c.baseline_check) ||
        !stage("candidate", "check", c.name, c.candidate_check) ||
        !stage("both", "time", c.name, c.timing.stage)) {
      return fail("insert stage");
    }
    if (c.timing.stage.status == StageStatus::kPassed) {
      for (const auto* samples : {&c.timing.baseline, &c.timing.candidate}) {
        Statement t(db_, "INSERT INTO timings VALUES (?,?,?,?,?,?,?,?,?)");
        t.Text(1, run_id).Text(2, r.task_id).Text(3, c.name)
            .Text(4, samples == &c.timing.baseline ? "baseline" : "candidate")
            .Text(5, c.timing.method).Real(6, samples->median()).Real(7, samples->percentile(10))
            .Real(8, samples->percentile(90)).Text(9, JsonText(Json(samples->us)));
        if (t.Step() != SQLITE_DONE) return fail("insert timing");
      }
    }
  }
  ARENA_RETURN_IF_ERROR(Exec("COMMIT"));
  // Fold the write-ahead log into the main file, so arena.db alone (copied
  // off a machine, say) holds every finished task. Best effort.
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  return OkStatus();
}

Result<std::set<std::string>> ResultsStore::FinishedTasks(const std::string& run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, "SELECT task_id FROM task_results WHERE run_id = ?");
  if (!s.ok()) return DbError(db_, "read finished tasks").WithContext(path_);
  s.Text(1, run_id);
  std::set<std::string> out;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) out.insert(s.Column(0));
  if (rc != SQLITE_DONE) return DbError(db_, "read finished tasks").WithContext(path_);
  return out;
}

Result<std::vector<TaskResult>> ResultsStore::LoadTasks(const std::string& run_id) {
  ARENA_ASSIGN_OR_RETURN(RunInfo info, GetRun(run_id));
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, "SELECT task_id, result_json FROM task_results WHERE run_id = ?");
  if (!s.ok()) return DbError(db_, "read task results").WithContext(path_);
  s.Text(1, run_id);
  std::map<std::string, TaskResult> by_id;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    auto result = FromStoredJson<TaskResult>(s.Column(1));
    if (!result.ok()) {
      Skip("run " + run_id + ", task " + s.Column(0) + ": stored result unreadable (" +
           result.status().message() + "), skipped");
      continue;
    }
    by_id[s.Column(0)] = std::move(*result);
  }
  if (rc != SQLITE_DONE) return DbError(db_, "read task results").WithContext(path_);
  std::vector<TaskResult> out;
  for (const auto& id : info.task_ids) {
    auto it = by_id.find(id);
    if (it != by_id.end()) out.push_back(std::move(it->second));
  }
  return out;
}

Result<std::vector<std::vector<std::string>>> ResultsStore::Query(const std::string& sql) {
  std::lock_guard<std::mutex> lock(mu_);
  Statement s(db_, sql);
  if (!s.ok()) return InvalidArgument("bad query: " + std::string(sqlite3_errmsg(db_)));
  std::vector<std::vector<std::string>> rows;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int i = 0; i < s.Columns(); ++i) row.push_back(s.Column(i));
    rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return DbError(db_, "query");
  return rows;
}

}  // namespace arena
