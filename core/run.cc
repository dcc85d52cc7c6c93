#include "core/run.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "core/agent.h"
#include "core/family.h"
#include "core/feedback.h"
#include "core/files.h"
#include "core/pipeline.h"
#include "core/prompt.h"
#include "core/sandbox.h"

namespace arena {
namespace fs = std::filesystem;

Result<TaskCatalog> ScanTasks(const std::string& tasks_root, const std::string& selector) {
  ARENA_ASSIGN_OR_RETURN(std::vector<std::string> files, FindTaskFiles(tasks_root));
  TaskCatalog out;
  for (const auto& file : files) {
    fs::path rel = fs::path(file).parent_path().lexically_relative(tasks_root);
    if (!TaskMatches(rel.generic_string(), selector)) continue;
    auto broken = [&](Status error) { out.broken.push_back({rel.generic_string(), std::move(error)}); };
    auto task = LoadTask(tasks_root, file);
    if (!task.ok()) {
      broken(task.status());
      continue;
    }
    auto family = TaskFamilyRegistry::Global().Create(task->family);
    if (!family.ok()) {
      broken(InvalidArgument(file + ":" + std::to_string(task->family_line) + ":" +
                             std::to_string(task->family_column) +
                             ": family: " + family.status().message()));
      continue;
    }
    Status valid = ValidateTaskSafely(**family, *task);
    if (!valid.ok()) {
      broken(valid);
      continue;
    }
    out.tasks.push_back(std::move(*task));
  }
  if (out.tasks.empty() && out.broken.empty()) {
    return NotFound("no task under " + tasks_root + " matches '" + selector + "'");
  }
  return out;
}

Result<std::vector<TaskSpec>> LoadTasks(const std::string& tasks_root,
                                        const std::string& selector) {
  ARENA_ASSIGN_OR_RETURN(TaskCatalog catalog, ScanTasks(tasks_root, selector));
  if (!catalog.broken.empty()) return catalog.broken.front().error;
  return std::move(catalog.tasks);
}

Status PrepareWorkspace(const TaskSpec& task, const std::string& workspace,
                        const std::map<std::string, std::string>& extra) {
  ARENA_RETURN_IF_ERROR(ResetDir(workspace));
  for (const auto& [rel, source] : extra) {
    ARENA_RETURN_IF_ERROR(CopyFile(source, (fs::path(workspace) / rel).string()));
  }
  for (const auto& rel : task.starter ? task.editable : std::vector<std::string>{}) {
    ARENA_RETURN_IF_ERROR(
        CopyFile((fs::path(task.dir) / rel).string(), (fs::path(workspace) / rel).string()));
  }
  Json configs = Json::array();
  for (const Configuration* c : task.ConfigsOfKind(ConfigKind::kTuning)) {
    configs.push_back({{"name", c->name}, {"params", c->params}});
  }
  ARENA_RETURN_IF_ERROR(
      WriteFileAtomic((fs::path(workspace) / "configs.json").string(), JsonText(configs, 2) + "\n"));
  std::string text = "# " + task.id + "\n\n" + task.description + "\n\n" + task.instructions +
                     (task.starter ? "\n\nFiles you may edit: "
                                   : "\n\nNo starting code is shipped: write these files from scratch: ");
  for (size_t i = 0; i < task.editable.size(); ++i) text += (i ? ", " : "") + task.editable[i];
  text += "\nThe tuning configurations are in configs.json. Your kernel is also checked on "
          "configurations you do not see.\n";
  return WriteFileAtomic((fs::path(workspace) / "INSTRUCTIONS.md").string(), text);
}

namespace {

std::string NewRunId(const std::string& agent) {
  std::string t = NowIso8601();  // 2026-11-30T07:30:00Z
  std::string compact;
  for (char c : t) {
    if (std::isdigit(static_cast<unsigned char>(c))) compact += c;
  }
  std::random_device rd;
  char suffix[8];
  std::snprintf(suffix, sizeof(suffix), "%04x", rd() & 0xffff);
  return agent + "-" + compact.substr(0, 8) + "-" + compact.substr(8) + "-" + suffix;
}

uint64_t TaskSeed(uint64_t run_seed, const std::string& task_id) {
  if (run_seed == 0) return 0;  // fresh per evaluation
  uint64_t h = 1469598103934665603ull ^ run_seed;
  for (char c : task_id) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h == 0 ? 1 : h;
}

// Copies the declared editable files, and nothing else, from an agent's
// workspace into a fresh `dest`. A link planted in the workspace is not
// followed.
Status TakeEditableFiles(const TaskSpec& task, const std::string& workspace,
                         const std::string& dest) {
  ARENA_RETURN_IF_ERROR(ResetDir(dest));
  // What the agent made unreadable (a file, a folder on its way) is its
  // own: the arena's user owns what a sandbox writes, so it is made
  // readable again and taken as it is, rather than stopping the run. Links
  // are not followed.
  std::error_code ec;
  fs::permissions(workspace, fs::perms::owner_all, fs::perm_options::add | fs::perm_options::nofollow,
                  ec);
  for (const auto& rel : task.editable) {
    fs::path p = workspace;
    for (const auto& part : fs::path(rel)) {
      p /= part;
      if (fs::is_symlink(fs::symlink_status(p, ec))) break;
      fs::permissions(p, fs::is_directory(p, ec) ? fs::perms::owner_all
                                                 : fs::perms::owner_read | fs::perms::owner_write,
                      fs::perm_options::add | fs::perm_options::nofollow, ec);
    }
  }
  // A file the agent deleted or replaced by a link is left out: the
  // candidate then fails to compile, saying so.
  return CopyRegularFiles(workspace, task.editable, dest).status();
}

// Feedback may name only configurations of the kinds it evaluates; the
// message lists those, never a held-out name.
Status CheckVisibleConfigs(const TaskSpec& task, const std::set<ConfigKind>& kinds,
                           const std::vector<std::string>& names) {
  std::set<std::string> visible;
  for (const auto& c : task.configs) {
    if (kinds.count(c.kind)) visible.insert(c.name);
  }
  for (const auto& name : names) {
    if (visible.count(name)) continue;
    std::string list;
    for (const auto& v : visible) list += (list.empty() ? "" : ", ") + v;
    return InvalidArgument("--configs: no visible configuration named '" + name +
                           "' (visible: " + list + ")");
  }
  return OkStatus();
}

// Evaluates one task end to end; returns the stored result.
Result<TaskResult> RunOneTask(const RunRequest& req, const std::string& run_dir,
                              const TaskSpec& task, const DeviceInfo& device,
                              AgentAdapter& agent, const TaskFamily& family, bool more_of_family) {
  const std::string task_dir = (fs::path(run_dir) / "tasks" / TaskIdToFileName(task.id)).string();
  const std::string workspace = (fs::path(task_dir) / "workspace").string();
  const std::string candidate = (fs::path(task_dir) / "candidate").string();
  ARENA_RETURN_IF_ERROR(
      PrepareWorkspace(task, workspace, family.WorkspaceFiles(task, req.project_root)));

  AgentRequest areq;
  areq.task = &task;
  areq.workspace = workspace;
  areq.time_budget_s = req.agent_time_budget_s;
  areq.config = req.agent_config;
  areq.seed = TaskSeed(req.seed, task.id);
  areq.project_root = req.project_root;
  std::error_code ec;
  areq.arena_binary = fs::read_symlink("/proc/self/exe", ec).string();
  ARENA_ASSIGN_OR_RETURN(areq.prompt,
                         RenderPrompt(task, family.PromptFile(), req.project_root, device));

  // Feedback: the agent's current files on the visible configurations.
  std::atomic<int> feedback_calls{0};
  const std::string feedback_dir = (fs::path(task_dir) / "feedback").string();
  // The family's workers and compiled baseline stay up between the agent's
  // feedback calls, which come one at a time.
  SessionReuse feedback_session;
  std::mutex feedback_mutex;
  // What an agent may see: never held-out configurations.
  const std::set<ConfigKind> feedback_kinds = {ConfigKind::kSmall, ConfigKind::kTuning};
  areq.feedback = [&](const FeedbackOptions& options) -> Result<FeedbackReport> {
    std::lock_guard<std::mutex> lock(feedback_mutex);
    ARENA_RETURN_IF_ERROR(CheckVisibleConfigs(task, feedback_kinds, options.configs));
    ++feedback_calls;
    const std::string files = feedback_dir + "/candidate";
    ARENA_RETURN_IF_ERROR(TakeEditableFiles(task, workspace, files));
    PipelineOptions po;
    po.device = device;
    po.work_dir = feedback_dir + "/eval";
    po.project_root = req.project_root;
    po.stage_timeout_s = req.stage_timeout_s;
    po.kinds = feedback_kinds;
    po.config_names = {options.configs.begin(), options.configs.end()};
    po.timing = !options.check_only;
    po.reuse = &feedback_session;
    po.prepare_next = true;  // the recorded evaluation follows
    ARENA_ASSIGN_OR_RETURN(TaskResult fr, EvaluateCandidate(task, family, files, po));
    return MakeFeedbackReport(fr);
  };
  static std::atomic<int> socket_counter{0};
  // Under /tmp itself, not $TMPDIR: a Unix socket path has at most 107 bytes.
  const std::string socket_dir = "/tmp/" + ScratchName("fb") + "-" +
                                 std::to_string(socket_counter++);
  ARENA_RETURN_IF_ERROR(ResetDir(socket_dir));
  const std::string socket_path = socket_dir + "/sock";
  ARENA_ASSIGN_OR_RETURN(std::unique_ptr<FeedbackServer> server,
                         FeedbackServer::Start(socket_path, areq.feedback));
  const std::string script = (fs::path(workspace) / "feedback").string();
  ARENA_RETURN_IF_ERROR(WriteFileAtomic(script, FeedbackScript(areq.arena_binary, socket_path)));
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec, ec);
  areq.sandbox_mounts = {{areq.arena_binary, kSandboxArena},
                         {socket_path, "/opt/arena/feedback.sock"}};

  auto started = std::chrono::steady_clock::now();
  // An adapter meets what its agent or endpoint sends back; code of it that
  // throws on something unexpected is that agent's failure on this task,
  // not the run's end.
  Result<AgentOutcome> outcome = Internal("no outcome");
  try {
    outcome = agent.Run(areq);
  } catch (const std::exception& e) {
    outcome = Internal(std::string("the agent's adapter threw: ") + e.what());
  }
  server.reset();
  feedback_session.Close();  // its workers end before their folder goes
  RemoveTree(socket_dir).ok();
  RemoveTree(feedback_dir).ok();
  AgentOutcome ao;
  if (outcome.ok()) {
    ao = *outcome;
  } else {
    ao.ok = false;
    ao.detail = outcome.status().ToString();
  }
  ao.feedback_calls = std::max(ao.feedback_calls, feedback_calls.load());
  if (ao.wall_s == 0) {
    ao.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  ARENA_RETURN_IF_ERROR(WriteFileAtomic((fs::path(task_dir) / "agent.log").string(),
                                        ao.transcript));

  ARENA_RETURN_IF_ERROR(TakeEditableFiles(task, workspace, candidate));

  TaskResult result;
  if (!ao.ok) {
    // The agent itself failed: nothing to evaluate, recorded as not compiled.
    result.task_id = task.id;
    result.family = task.family;
    result.device = device;
    result.baseline_compile = StageOutcome::Skipped("agent failed");
    result.candidate_compile = StageOutcome::Failed("agent failed: " + ao.detail);
    result.integrity = StageOutcome::Skipped("agent failed");
  } else {
    PipelineOptions po;
    po.seed = TaskSeed(req.seed, task.id);
    po.device = device;
    po.work_dir = (fs::path(task_dir) / "eval").string();
    po.project_root = req.project_root;
    po.stage_timeout_s = req.stage_timeout_s;
    po.prepare_next = more_of_family;
    ARENA_ASSIGN_OR_RETURN(result, EvaluateCandidate(task, family, candidate, po));
    RemoveTree(po.work_dir).ok();
  }
  result.agent = ao.ToJson();
  result.agent.erase("transcript");  // kept in agent.log
  result.agent["budget_s"] = req.agent_time_budget_s;  // 0: the agent's own default
  ARENA_RETURN_IF_ERROR(WriteFileAtomic((fs::path(task_dir) / "result.json").string(),
                                        JsonText(result.ToJson(), 2) + "\n"));
  return result;
}

}  // namespace

Json RunOptions(const RunRequest& req) {
  return {{"seed", req.seed},
          {"agent_time_budget_s", req.agent_time_budget_s},
          {"stage_timeout_s", req.stage_timeout_s}};
}

void ApplyStoredOptions(const RunInfo& info, RunRequest* req) {
  const Json& o = info.options;
  req->seed = o.value("seed", req->seed);
  req->agent_time_budget_s = o.value("agent_time_budget_s", req->agent_time_budget_s);
  req->stage_timeout_s = o.value("stage_timeout_s", req->stage_timeout_s);
}

// An exclusive lock on a run, held while this process evaluates it: a second
// `--resume` of a run in progress is refused instead of racing it. The lock
// is the kernel's (flock): a killed arena releases it.
class RunLock {
 public:
  static Result<std::unique_ptr<RunLock>> Take(const std::string& runs_dir,
                                               const std::string& run_id) {
    const std::string path = (fs::path(runs_dir) / ("." + run_id + ".lock")).string();
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Unavailable(path + ": cannot open the run's lock file");
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      char holder[32] = {0};
      ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
      ::close(fd);
      return FailedPrecondition("run " + run_id + " is being evaluated by another arena process" +
                                (n > 0 ? " (pid " + std::string(holder, static_cast<size_t>(n)) + ")"
                                       : std::string()) +
                                "; wait for it, or stop it, before resuming");
    }
    const std::string pid = std::to_string(getpid());
    if (ftruncate(fd, 0) == 0) {
      ssize_t ignored = pwrite(fd, pid.data(), pid.size(), 0);
      (void)ignored;
    }
    return std::unique_ptr<RunLock>(new RunLock(fd));
  }
  ~RunLock() { ::close(fd_); }

 private:
  explicit RunLock(int fd) : fd_(fd) {}
  int fd_;
};

PreparedRun::PreparedRun() = default;
PreparedRun::~PreparedRun() = default;
PreparedRun::PreparedRun(PreparedRun&&) noexcept = default;

bool LostToScheduler(const TaskResult& r) {
  return r.agent.is_object() && r.agent.value("scheduler_lost", false);
}

TaskResult LostResult(const TaskSpec& task, const std::string& why) {
  TaskResult r;
  r.task_id = task.id;
  r.family = task.family;
  r.device = CpuDevice();
  r.agent = {{"ok", false}, {"scheduler_lost", true}, {"detail", why}};
  const std::string detail = "not evaluated: " + why + " (a --resume evaluates it again)";
  r.baseline_compile = StageOutcome::Skipped(detail);
  r.candidate_compile = StageOutcome::Failed(detail);
  r.integrity = StageOutcome::Skipped(detail);
  return r;
}

Result<PreparedRun> PrepareRun(const RunRequest& request) {
  PreparedRun run;
  ARENA_RETURN_IF_ERROR(MakeDirs(request.runs_dir));
  if (request.resume) {
    ARENA_ASSIGN_OR_RETURN(run.lock, RunLock::Take(request.runs_dir, request.run_id));
  }
  ARENA_ASSIGN_OR_RETURN(run.store,
                         ResultsStore::Open((fs::path(request.runs_dir) / "arena.db").string()));
  RunRequest& req = run.req;
  req = request;
  RunInfo& info = run.info;
  if (req.resume) {
    ARENA_ASSIGN_OR_RETURN(info, run.store->GetRun(req.run_id));
    req.agent = info.agent;
    req.selector = info.selector;
    req.agent_config = info.agent_config;
    ApplyStoredOptions(info, &req);
    info.options = RunOptions(req);
    ARENA_ASSIGN_OR_RETURN(run.finished, run.store->FinishedTasks(info.run_id));
    // A task a scheduler lost (its node failed, its job was cancelled) is
    // recorded as such, and evaluated again.
    ARENA_ASSIGN_OR_RETURN(std::vector<TaskResult> stored, run.store->LoadTasks(info.run_id));
    for (const auto& r : stored) {
      if (LostToScheduler(r)) run.finished.erase(r.task_id);
    }
    // Writes cut short by the interruption left their temporaries.
    RemoveStaleTemporaries((fs::path(req.runs_dir) / info.run_id).string());
  }
  if (!AgentRegistry::Global().Contains(req.agent)) {
    return InvalidArgument("unknown agent '" + req.agent + "'");
  }
  // Broken tasks are reported and left out; the valid ones are evaluated.
  ARENA_ASSIGN_OR_RETURN(TaskCatalog catalog, ScanTasks(req.tasks_root, req.selector));
  run.tasks = std::move(catalog.tasks);
  run.broken = std::move(catalog.broken);
  if (run.tasks.empty()) return run.broken.front().error;
  if (!req.resume) {
    info.run_id = req.run_id.empty() ? NewRunId(req.agent) : req.run_id;
    info.agent = req.agent;
    info.selector = req.selector;
    info.created_at = NowIso8601();
    info.agent_config = req.agent_config;
    info.options = RunOptions(req);
    for (const auto& d : req.devices) info.devices.push_back(d.ToJson());
    for (const auto& t : run.tasks) info.task_ids.push_back(t.id);
    for (const auto& b : run.broken) info.task_errors[b.id] = b.error.message();
    ARENA_ASSIGN_OR_RETURN(run.lock, RunLock::Take(req.runs_dir, info.run_id));
    ARENA_RETURN_IF_ERROR(run.store->CreateRun(info));
  } else {
    ARENA_RETURN_IF_ERROR(run.store->SetRunStatus(info.run_id, "running"));
  }
  run.run_dir = (fs::path(req.runs_dir) / info.run_id).string();
  ARENA_RETURN_IF_ERROR(MakeDirs(run.run_dir));
  ARENA_RETURN_IF_ERROR(WriteFileAtomic((fs::path(run.run_dir) / "run.json").string(),
                                        JsonText(info.ToJson(), 2) + "\n"));
  return run;
}

Status FinishRun(PreparedRun& run, RunOutcome* outcome) {
  outcome->run_id = run.info.run_id;
  outcome->broken = run.broken;
  ARENA_ASSIGN_OR_RETURN(outcome->results, run.store->LoadTasks(run.info.run_id));
  bool complete = outcome->results.size() == run.info.task_ids.size();
  for (const auto& r : outcome->results) complete = complete && !LostToScheduler(r);
  if (complete) ARENA_RETURN_IF_ERROR(run.store->SetRunStatus(run.info.run_id, "finished"));
  return WriteFileAtomic((fs::path(run.run_dir) / "summary.json").string(),
                         JsonText(Summarize(outcome->results).ToJson(), 2) + "\n");
}

std::string TaskVerdict(const TaskResult& r) {
  if (LostToScheduler(r)) return "LOST (" + r.agent.value("detail", std::string()) + ")";
  TaskScore s = ScoreTask(r);
  std::string verdict = "WRONG";
  if (s.correct) {
    verdict = "correct";
  } else if (!s.compiled) {
    verdict = "NO COMPILE";
  } else if (Unchecked(r)) {
    verdict = "unchecked (nothing could be checked here)";
  } else if (FailedOnlyWhenTimed(r)) {
    verdict = "FAILED WHEN TIMED";
  }
  return verdict + (s.speedup_mean ? " " + std::to_string(*s.speedup_mean).substr(0, 5) + "x" : "");
}

Result<RunOutcome> ExecuteRun(const RunRequest& request) {
  ARENA_ASSIGN_OR_RETURN(PreparedRun run, PrepareRun(request));
  const RunRequest& req = run.req;
  const RunInfo& info = run.info;
  const std::string& run_dir = run.run_dir;
  ResultsStore* store = run.store.get();
  std::vector<const TaskSpec*> todo;
  RunOutcome outcome;
  outcome.run_id = info.run_id;
  for (const auto& t : run.tasks) {
    if (run.finished.count(t.id)) {
      ++outcome.skipped_finished;
    } else {
      todo.push_back(&t);
    }
  }
  std::vector<DeviceInfo> devices = req.devices;
  if (devices.empty()) devices.push_back(CpuDevice());

  std::atomic<size_t> next{0};
  std::atomic<int> done{0};
  std::mutex mu;
  Status first_error;
  auto report = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(mu);
    if (req.progress) req.progress(line);
  };
  auto worker = [&](DeviceInfo device) {
    auto agent = AgentRegistry::Global().Create(req.agent);
    if (!agent.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (first_error.ok()) first_error = agent.status();
      return;
    }
    for (size_t i = next++; i < todo.size(); i = next++) {
      const TaskSpec& task = *todo[i];
      {
        std::lock_guard<std::mutex> lock(mu);
        if (!first_error.ok()) return;
      }
      auto family = TaskFamilyRegistry::Global().Create(task.family);
      // Whether a task of the same family is still to come (on this device,
      // unless another takes it first).
      bool more_of_family = false;
      for (size_t j = i + 1; j < todo.size() && !more_of_family; ++j) {
        more_of_family = todo[j]->family == task.family;
      }
      Result<TaskResult> r = family.ok()
          ? RunOneTask(req, run_dir, task, device, **agent, **family, more_of_family)
          : Result<TaskResult>(family.status());
      Status saved = r.ok() ? store->SaveTask(info.run_id, *r) : r.status();
      std::lock_guard<std::mutex> lock(mu);
      if (!saved.ok()) {
        if (first_error.ok()) first_error = saved.WithContext(task.id);
        return;
      }
      int n = ++done;
      if (req.progress) {
        req.progress("[" + std::to_string(n) + "/" + std::to_string(todo.size()) + "] " +
                     task.id + ": " + TaskVerdict(*r));
      }
    }
  };
  report("run " + info.run_id + ": " + std::to_string(todo.size()) + " task(s) to evaluate" +
         (outcome.skipped_finished ? ", " + std::to_string(outcome.skipped_finished) +
                                         " already finished" : ""));
  std::vector<std::thread> threads;
  for (const auto& d : devices) threads.emplace_back(worker, d);
  for (auto& t : threads) t.join();
  ARENA_RETURN_IF_ERROR(first_error);
  outcome.evaluated_now = done;

  ARENA_RETURN_IF_ERROR(FinishRun(run, &outcome));
  return outcome;
}

}  // namespace arena
