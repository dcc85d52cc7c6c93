#include "core/slurm.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "core/files.h"
#include "core/process.h"

namespace arena {
namespace fs = std::filesystem;

namespace {

std::string SlurmDir(const PreparedRun& run) { return (fs::path(run.run_dir) / "slurm").string(); }

std::string RecordPath(const PreparedRun& run, int k) {
  return (fs::path(SlurmDir(run)) / ("submission-" + std::to_string(k) + ".json")).string();
}

// One submission as recorded in RUN/slurm/submission-K.json: the job, its
// tasks (element I evaluates tasks[I]) and the elements already accounted
// for (a result copied, or recorded as lost).
struct Submission {
  int k = 0;
  std::string job_id;  // empty: sbatch did not answer (recovered by name)
  std::string name;
  std::vector<std::string> tasks;
  std::set<int> resolved;
  std::string elements_dir;
};

Status SaveRecord(const PreparedRun& run, const Submission& s) {
  Json j = {{"job_id", s.job_id},
            {"name", s.name},
            {"tasks", s.tasks},
            {"resolved", std::vector<int>(s.resolved.begin(), s.resolved.end())},
            {"elements_dir", s.elements_dir}};
  return WriteFileAtomic(RecordPath(run, s.k), JsonText(j, 2) + "\n");
}

Result<std::vector<Submission>> LoadRecords(const PreparedRun& run) {
  std::vector<Submission> out;
  for (int k = 0;; ++k) {
    const std::string path = RecordPath(run, k);
    if (!fs::exists(path)) break;
    ARENA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return InvalidArgument(path + ": not a submission record");
    Submission s;
    s.k = k;
    s.job_id = j.value("job_id", "");
    s.name = j.value("name", "");
    s.tasks = j.value("tasks", std::vector<std::string>{});
    for (int i : j.value("resolved", std::vector<int>{})) s.resolved.insert(i);
    s.elements_dir = j.value("elements_dir", "");
    out.push_back(std::move(s));
  }
  return out;
}

Result<ProcessResult> Slurm(const std::vector<std::string>& argv, double timeout_s = 60) {
  ProcessOptions o;
  o.argv = argv;
  o.timeout_s = timeout_s;
  return RunProcess(o);
}

// The elements of the submissions' jobs still queued or running, by job; an
// error when the controller cannot be asked.
Result<std::map<std::string, std::map<int, std::string>>> ActiveElements(
    const std::vector<Submission>& subs) {
  ARENA_ASSIGN_OR_RETURN(ProcessResult r, Slurm({"squeue", "-h", "-r", "-u", std::to_string(getuid()),
                                                 "-o", "%i|%T"}));
  if (r.timed_out || r.exit_code != 0) {
    return Unavailable("squeue failed: " + (r.err.empty() ? r.out : r.err));
  }
  std::map<std::string, std::map<int, std::string>> out;
  for (const auto& s : subs) out[s.job_id] = ParseSqueue(r.out, s.job_id);
  return out;
}

// What Slurm says of an element that left the queue ("" if it forgot it):
// the element's own state, else the array's (an array cancelled before it
// was split into elements has only that).
std::string EndState(const std::string& job_id, int index) {
  for (const std::string& id : {job_id + "_" + std::to_string(index), job_id}) {
    auto r = Slurm({"scontrol", "-o", "show", "job", id});
    if (!r.ok() || r->exit_code != 0) continue;
    const auto at = r->out.find("JobState=");
    if (at == std::string::npos) continue;
    const auto end = r->out.find_first_of(" \n", at);
    return r->out.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
  }
  return "";
}

// The element's result for its task, once its database holds one.
std::optional<TaskResult> ElementResult(const Submission& s, int i, const std::string& run_id) {
  const fs::path db = fs::path(s.elements_dir) / (std::to_string(s.k) + "-" + std::to_string(i)) / "arena.db";
  std::error_code ec;
  if (!fs::is_regular_file(db, ec)) return std::nullopt;
  auto store = ResultsStore::OpenReadOnly(db.string());
  if (!store.ok()) return std::nullopt;
  auto results = (*store)->LoadTasks(run_id);
  if (!results.ok()) return std::nullopt;
  for (auto& r : *results) {
    if (r.task_id == s.tasks[static_cast<size_t>(i)]) return r;
  }
  return std::nullopt;
}

}  // namespace

std::map<int, std::string> ParseSqueue(const std::string& text, const std::string& job_id) {
  std::map<int, std::string> out;
  std::istringstream in(text);
  std::string line;
  const std::string prefix = job_id + "_";
  while (std::getline(in, line)) {
    const auto bar = line.find('|');
    if (bar == std::string::npos || job_id.empty()) continue;
    const std::string id = line.substr(0, bar);
    const std::string state = line.substr(bar + 1);
    if (id.rfind(prefix, 0) != 0) continue;
    const std::string rest = id.substr(prefix.size());
    // A pending array not yet split shows as JOB_[0-3] or JOB_[0,2,5-7%2].
    if (!rest.empty() && rest.front() == '[') {
      std::string ranges = rest.substr(1, rest.find_first_of("]%") - 1);
      std::istringstream parts(ranges);
      for (std::string part; std::getline(parts, part, ',');) {
        const auto dash = part.find('-');
        try {
          const int lo = std::stoi(part.substr(0, dash));
          const int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
          for (int i = lo; i <= hi; ++i) out[i] = state;
        } catch (const std::exception&) {
        }
      }
      continue;
    }
    try {
      size_t used = 0;
      const int i = std::stoi(rest, &used);
      if (used == rest.size()) out[i] = state;
    } catch (const std::exception&) {
    }
  }
  return out;
}

std::string SlurmBatchScript(const PreparedRun& run, const SlurmOptions& options, int submission,
                             const std::string& task_list, const std::string& elements_dir,
                             int count) {
  const RunRequest& req = run.req;
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Evaluates one task of run " << run.info.run_id << " per array element (submission "
    << submission << ", " << count << " element(s)).\n"
    << "set -u\n"
    << "task=\"$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << ShellQuote(task_list) << ")\"\n"
    << "elem=" << ShellQuote(elements_dir + "/" + std::to_string(submission) + "-")
    << "\"$SLURM_ARRAY_TASK_ID\"\n"
    << "# Slurm may start an element again (requeued after a node failure).\n"
    << "if [ -e \"$elem/arena.db\" ]; then what=(--resume " << ShellQuote(run.info.run_id) << ")\n"
    << "else what=(--run-id " << ShellQuote(run.info.run_id) << " --agent " << ShellQuote(req.agent)
    << " --tasks \"$task\"); fi\n"
    << "exec " << ShellQuote(options.arena_binary) << " --root " << ShellQuote(options.project_root)
    << " run \"${what[@]}\" --runs-dir \"$elem\" --stage-timeout " << req.stage_timeout_s;
  if (req.seed != 0) s << " --seed " << req.seed;
  if (req.agent_time_budget_s > 0) s << " --agent-budget " << req.agent_time_budget_s;
  if (!req.agent_config.empty()) {
    s << " --agent-config " << ShellQuote((fs::path(SlurmDir(run)) / "agent-config.json").string());
  }
  if (!options.gpus.empty()) s << " --gpus " << ShellQuote(options.gpus);
  s << "\n";
  return s.str();
}

Result<RunOutcome> ExecuteRunOnSlurm(const RunRequest& request, const SlurmOptions& options) {
  ARENA_ASSIGN_OR_RETURN(PreparedRun run, PrepareRun(request));
  auto progress = [&](const std::string& line) {
    if (run.req.progress) run.req.progress(line);
  };
  const std::string dir = SlurmDir(run);
  ARENA_RETURN_IF_ERROR(MakeDirs(dir + "/logs"));
  if (!run.req.agent_config.empty()) {
    ARENA_RETURN_IF_ERROR(
        WriteFileAtomic(dir + "/agent-config.json", JsonText(run.req.agent_config, 2) + "\n"));
  }
  // A resume submits as the run was first submitted (partition, GPUs, time)
  // unless it is given sbatch arguments of its own.
  SlurmOptions slurm = options;
  const std::string args_path = dir + "/sbatch-args.json";
  if (slurm.sbatch_args.empty() && fs::exists(args_path)) {
    ARENA_ASSIGN_OR_RETURN(std::string text, ReadFile(args_path));
    Json j = Json::parse(text, nullptr, false);
    if (!j.is_array()) return InvalidArgument(args_path + ": expected a list of sbatch arguments");
    for (const auto& a : j) {
      if (!a.is_string()) return InvalidArgument(args_path + ": expected a list of sbatch arguments");
      slurm.sbatch_args.push_back(a.get<std::string>());
    }
  }
  std::map<std::string, const TaskSpec*> by_id;
  for (const auto& t : run.tasks) by_id[t.id] = &t;
  ARENA_ASSIGN_OR_RETURN(std::vector<Submission> subs, LoadRecords(run));
  for (auto& s : subs) {
    if (!s.job_id.empty()) continue;
    // Submitted, but the answer was never recorded: found by its name.
    auto r = Slurm({"squeue", "-h", "--name=" + s.name, "-o", "%F"});
    if (r.ok() && r->exit_code == 0 && !r->out.empty()) {
      s.job_id = r->out.substr(0, r->out.find_first_of("\n "));
      ARENA_RETURN_IF_ERROR(SaveRecord(run, s));
    }
  }

  int collected = 0, expected = 0;
  // One look at every element not yet accounted for: results copied in,
  // elements that left the queue without one recorded as lost.
  auto pending = [&] {
    int n = 0;
    for (const auto& s : subs) n += static_cast<int>(s.tasks.size() - s.resolved.size());
    return n;
  };
  auto collect = [&]() -> Status {
    if (pending() == 0) return OkStatus();
    auto active = ActiveElements(subs);
    if (!active.ok()) {
      progress("slurm: " + active.status().message() + " (trying again)");
      return OkStatus();
    }
    for (auto& s : subs) {
      bool changed = false;
      for (int i = 0; i < static_cast<int>(s.tasks.size()); ++i) {
        if (s.resolved.count(i)) continue;
        const std::string& task_id = s.tasks[static_cast<size_t>(i)];
        std::optional<TaskResult> r = ElementResult(s, i, run.info.run_id);
        const bool queued = (*active)[s.job_id].count(i) > 0;
        if (!r && queued) continue;
        if (!r) r = ElementResult(s, i, run.info.run_id);  // it may have just ended
        if (r) {
          ARENA_RETURN_IF_ERROR(run.store->SaveTask(run.info.run_id, *r));
          run.finished.insert(task_id);
          progress("[" + std::to_string(++collected) + "/" + std::to_string(expected) + "] " + task_id +
                   ": " + TaskVerdict(*r));
        } else {
          const std::string state = s.job_id.empty() ? "" : EndState(s.job_id, i);
          const std::string why = "element " + std::to_string(i) + " of Slurm job " +
                                  (s.job_id.empty() ? "'" + s.name + "'" : s.job_id) + " ended" +
                                  (state.empty() ? "" : " " + state) + " without a result";
          auto t = by_id.find(task_id);
          if (t != by_id.end()) {
            TaskResult lost = LostResult(*t->second, why);
            ARENA_RETURN_IF_ERROR(run.store->SaveTask(run.info.run_id, lost));
            run.finished.erase(task_id);
            progress("[" + std::to_string(++collected) + "/" + std::to_string(expected) + "] " +
                     task_id + ": " + TaskVerdict(lost) + "; logs: " + dir + "/logs/" +
                     std::to_string(s.k) + "-" + std::to_string(i) + ".out");
          }
        }
        s.resolved.insert(i);
        changed = true;
      }
      if (changed) ARENA_RETURN_IF_ERROR(SaveRecord(run, s));
    }
    return OkStatus();
  };

  // Elements of earlier submissions that ended meanwhile.
  expected = pending();
  ARENA_RETURN_IF_ERROR(collect());
  // What to submit: tasks without a result kept (run.finished leaves lost
  // ones out), and not in an element still queued or running.
  const std::set<std::string> done = run.finished;
  std::set<std::string> in_flight;
  for (const auto& s : subs) {
    for (int i = 0; i < static_cast<int>(s.tasks.size()); ++i) {
      if (!s.resolved.count(i)) in_flight.insert(s.tasks[static_cast<size_t>(i)]);
    }
  }
  std::vector<std::string> todo;
  for (const auto& t : run.tasks) {
    if (!done.count(t.id) && !in_flight.count(t.id)) todo.push_back(t.id);
  }
  if (!todo.empty()) {
    Submission s;
    s.k = static_cast<int>(subs.size());
    s.name = "arena-" + run.info.run_id + "-" + std::to_string(s.k);
    s.tasks = todo;
    s.elements_dir = (fs::path(dir) / "elements").string();
    const std::string list = (fs::path(dir) / ("tasks-" + std::to_string(s.k) + ".txt")).string();
    std::string lines;
    for (const auto& t : todo) lines += t + "\n";
    ARENA_RETURN_IF_ERROR(WriteFileAtomic(list, lines));
    const std::string script = (fs::path(dir) / ("job-" + std::to_string(s.k) + ".sh")).string();
    ARENA_RETURN_IF_ERROR(WriteFileAtomic(
        script, SlurmBatchScript(run, slurm, s.k, list, s.elements_dir, static_cast<int>(todo.size()))));
    ARENA_RETURN_IF_ERROR(MakeDirs(s.elements_dir));
    ARENA_RETURN_IF_ERROR(SaveRecord(run, s));  // before sbatch: a crash leaves the name
    std::vector<std::string> argv = {"sbatch", "--parsable", "--job-name=" + s.name,
                                     "--array=0-" + std::to_string(todo.size() - 1),
                                     "--output=" + dir + "/logs/" + std::to_string(s.k) + "-%a.out"};
    argv.insert(argv.end(), slurm.sbatch_args.begin(), slurm.sbatch_args.end());
    argv.push_back(script);
    Result<ProcessResult> submitted = Slurm(argv, 120);
    if (!submitted.ok() || submitted->timed_out || submitted->exit_code != 0) {
      std::error_code ec;
      fs::remove(RecordPath(run, s.k), ec);
      return Unavailable("sbatch refused the run's job: " +
                         (!submitted.ok() ? submitted.status().message()
                          : submitted->err.empty() ? submitted->out : submitted->err));
    }
    const ProcessResult& r = *submitted;
    s.job_id = r.out.substr(0, r.out.find_first_of(";\n "));
    ARENA_RETURN_IF_ERROR(SaveRecord(run, s));
    ARENA_RETURN_IF_ERROR(WriteFileAtomic(args_path, JsonText(Json(slurm.sbatch_args)) + "\n"));
    progress("run " + run.info.run_id + ": " + std::to_string(todo.size()) +
             " task(s) submitted as Slurm job " + s.job_id + " (" + script + ")" +
             (done.size() ? ", " + std::to_string(done.size()) + " already finished" : "") +
             (in_flight.size() ? ", " + std::to_string(in_flight.size()) + " still in the queue" : ""));
    subs.push_back(std::move(s));
  } else if (!in_flight.empty()) {
    progress("run " + run.info.run_id + ": nothing to submit; " + std::to_string(in_flight.size()) +
             " task(s) still in the queue");
  }
  expected = collected + pending();
  if (options.wait) {
    while (pending() > 0) {
      std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_s));
      ARENA_RETURN_IF_ERROR(collect());
    }
  } else if (pending() > 0) {
    progress("not waiting: `arena run --resume " + run.info.run_id +
             " --scheduler slurm` collects the results (and waits for the rest)");
  }
  RunOutcome outcome;
  outcome.evaluated_now = collected;
  outcome.skipped_finished = static_cast<int>(done.size());
  ARENA_RETURN_IF_ERROR(FinishRun(run, &outcome));
  return outcome;
}

}  // namespace arena
