// The arena command line.
//
//   arena tasks [--validate] [--tasks SELECTOR]
//   arena run --agent NAME --tasks SELECTOR [--gpus LIST] [--resume RUN]
//             [--scheduler slurm [--partition P --account A --time T --gres G] [--no-wait]]
//   arena eval --task ID --candidate DIR
//   arena report RUN [--json | --csv]
//   arena devices
//   arena import kernelbench|aka SOURCE --out TASKS/FAMILY/SUITE [--overwrite]
//   arena feedback --socket PATH        (agents run this through ./feedback)
//
// Exit codes: 0 ok, 1 evaluation failures, 2 bad input.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>

#include "core/agent.h"
#include "core/device.h"
#include "core/family.h"
#include "core/feedback.h"
#include "core/files.h"
#include "core/importer.h"
#include "core/leaderboard.h"
#include "core/net_forward.h"
#include "core/pipeline.h"
#include "core/provenance.h"
#include "core/report.h"
#include "core/results_store.h"
#include "core/run.h"
#include "core/slurm.h"
#include "core/validation.h"
#include "core/verdicts.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitFailures = 1;
constexpr int kExitBadInput = 2;

int Fail(const Status& s) {
  std::cerr << "arena: " << s.message() << "\n";
  return s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kNotFound ||
                 s.code() == StatusCode::kAlreadyExists
             ? kExitBadInput
             : kExitFailures;
}

// Names on stderr what a results database held but could not be read (each
// skipped); returns how many.
int ReportSkipped(const std::string& path, const ResultsStore& store) {
  for (const auto& what : store.skipped()) {
    std::cerr << "arena: " << path << ": " << what << "\n";
  }
  return static_cast<int>(store.skipped().size());
}

// The project root: --root, else $ARENA_ROOT, else the nearest folder above
// the working directory that holds tasks/.
std::string FindRoot(const std::string& flag) {
  if (!flag.empty()) return fs::absolute(flag).lexically_normal().string();
  if (const char* env = std::getenv("ARENA_ROOT"); env && *env) return env;
  std::error_code ec;
  for (fs::path p = fs::current_path(ec); !p.empty(); p = p.parent_path()) {
    if (fs::is_directory(p / "tasks") && fs::exists(p / "plugins")) return p.string();
    if (p == p.parent_path()) break;
  }
  return fs::current_path(ec).string();
}

Result<std::vector<DeviceInfo>> SelectDevices(const std::string& gpus) {
  DeviceDiscovery found = DiscoverDevices();
  if (gpus == "none") return std::vector<DeviceInfo>{};
  if (gpus.empty() || gpus == "all") return found.devices;
  std::vector<DeviceInfo> out;
  std::stringstream ss(gpus);
  std::string item;
  while (std::getline(ss, item, ',')) {
    bool matched = false;
    for (const auto& d : found.devices) {
      if (std::to_string(d.index) == item || d.platform + ":" + std::to_string(d.index) == item) {
        out.push_back(d);
        matched = true;
      }
    }
    if (!matched) {
      return InvalidArgument("--gpus: no device '" + item + "' (" +
                             (found.devices.empty() ? "this machine has no GPU: " + found.note
                                                    : std::to_string(found.devices.size()) +
                                                          " found") +
                             ")");
    }
  }
  return out;
}

// Progress lines: rewritten in place on a terminal, one per line otherwise.
void Progress(const std::string& line) {
  static const bool tty = isatty(STDERR_FILENO);
  if (tty && line.rfind("[", 0) == 0) {
    std::cerr << "\r\033[K" << line << std::flush;
  } else {
    std::cerr << line << "\n";
  }
}

std::string DefaultRunsDir(const std::string& root) { return (fs::path(root) / "runs").string(); }

int CmdDevices() {
  DeviceDiscovery d = DiscoverDevices();
  if (d.devices.empty()) std::cout << "no GPU: " << d.note << "\n";
  for (const auto& dev : d.devices) {
    std::cout << dev.Describe() << "  " << dev.memory_bytes / (1 << 20) << " MiB, L2 "
              << dev.l2_bytes / 1024 << " KiB, " << dev.multiprocessors << " SMs\n";
  }
  return kExitOk;
}

// The results database of `runs_dir`, read-only, and the id of `run_id`
// there ("latest": the latest run's).
struct OpenedRun {
  std::string db_path;
  std::unique_ptr<ResultsStore> store;
  std::string run_id;
};

Result<OpenedRun> OpenRun(const std::string& runs_dir, const std::string& run_id) {
  OpenedRun out;
  out.db_path = (fs::path(runs_dir) / "arena.db").string();
  ARENA_ASSIGN_OR_RETURN(out.store, ResultsStore::OpenReadOnly(out.db_path));
  out.run_id = run_id;
  if (run_id == "latest") {
    ARENA_ASSIGN_OR_RETURN(auto runs, out.store->ListRuns());
    if (runs.empty()) return NotFound("no runs in " + runs_dir);
    out.run_id = runs.back().run_id;
  }
  return out;
}

// The runs `runs` lists, each with its results.
Result<std::vector<std::pair<RunInfo, std::vector<TaskResult>>>> LoadRuns(
    ResultsStore& store, const std::vector<RunInfo>& runs) {
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> out;
  for (const auto& info : runs) {
    ARENA_ASSIGN_OR_RETURN(std::vector<TaskResult> results, store.LoadTasks(info.run_id));
    out.emplace_back(info, std::move(results));
  }
  return out;
}

}  // namespace

// The commit of a stamped build (build_stamp.cc, generated).
extern const char kArenaCommit[];

int Main(int argc, char** argv) {
  SetArenaVersion(kArenaCommit);
  CLI::App app{"arena: how much faster, and how honestly, does an agent make GPU kernels?"};
  app.require_subcommand(1);
  app.fallthrough();  // --root is accepted after the subcommand too
  app.set_version_flag("--version", std::string("arena ") + kArenaCommit);
  std::string root_flag;
  app.add_option("--root", root_flag, "project root (default: found from the working directory)");

  auto* tasks_cmd = app.add_subcommand("tasks", "list tasks; --validate checks them");
  std::string selector = "all";
  bool validate = false;
  tasks_cmd->add_option("--tasks", selector, "task selector: all, a family, a suite, an id, or a comma list");
  tasks_cmd->add_flag("--validate", validate,
                      "check schema, held-out configurations, and the baseline on this machine");
  std::string validate_on = "auto";
  tasks_cmd->add_option("--device", validate_on,
                        "validate on: auto (the first GPU, else the CPU), cpu (never a GPU), or gpu "
                        "(a GPU or fail)")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));

  auto* run_cmd = app.add_subcommand("run", "let an agent optimize tasks, then evaluate");
  std::string agent = "noop", gpus, resume, runs_dir, agent_config_path;
  uint64_t seed = 0;
  double agent_budget = 0;
  double stage_timeout = 300;
  run_cmd->add_option("--agent", agent, "agent adapter (default noop)");
  run_cmd->add_option("--tasks", selector, "task selector (default all)");
  run_cmd->add_option("--gpus", gpus, "GPUs to use: all (default), none, or a list like 0,1");
  run_cmd->add_option("--resume", resume, "continue an interrupted run");
  run_cmd->add_option("--runs-dir", runs_dir, "where runs and arena.db live (default ROOT/runs)");
  std::string run_id_flag;
  run_cmd->add_option("--run-id", run_id_flag,
                      "the id of a new run (default: made from the agent and the time)")
      ->check([](const std::string& v) -> std::string {
        if (v.empty() || v.size() > 120 ||
            v.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
                std::string::npos ||
            v[0] == '.') {
          return "expected letters, digits, '-', '_' or '.', got '" + v + "'";
        }
        return "";
      });
  std::string scheduler = "local";
  run_cmd->add_option("--scheduler", scheduler,
                      "local (default: this machine's GPUs) or slurm (an array job, a task per "
                      "element)")
      ->check(CLI::IsMember({"local", "slurm"}));
  std::string partition, account, time_limit, gres;
  std::vector<std::string> sbatch_args;
  bool no_wait = false;
  run_cmd->add_option("--partition", partition, "slurm: the partition");
  run_cmd->add_option("--account", account, "slurm: the account");
  run_cmd->add_option("--time", time_limit, "slurm: each element's time limit, e.g. 01:00:00");
  run_cmd->add_option("--gres", gres, "slurm: each element's resources, e.g. gpu:1");
  run_cmd->add_option("--sbatch-arg", sbatch_args, "slurm: one more sbatch argument (repeatable)");
  run_cmd->add_flag("--no-wait", no_wait,
                    "slurm: submit and return; a --resume collects the results");
  // A number a flag cannot hold, or one that makes no sense, is bad input.
  const CLI::Validator unsigned_integer(
      [](std::string& v) -> std::string {
        if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos) {
          return "expected a non-negative integer, got '" + v + "'";
        }
        return "";
      },
      "UINT");
  const CLI::Validator seconds_range(
      [](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        // Written so that NaN fails too; up to about 11 days.
        if (v.empty() || end == nullptr || *end != '\0' || !(x >= 0.001 && x <= 1e6)) {
          return "expected seconds between 0.001 and 1e6, got '" + v + "'";
        }
        return "";
      },
      "SECONDS");
  run_cmd->add_option("--seed", seed, "fix the evaluation seeds (default: fresh each time)")
      ->check(unsigned_integer);
  run_cmd->add_option("--agent-config", agent_config_path, "YAML configuration of the agent");
  run_cmd->add_option("--agent-budget", agent_budget, "seconds per task for the agent")
      ->check(seconds_range);
  run_cmd->add_option("--stage-timeout", stage_timeout,
                      "seconds one stage (a compile, one configuration's check or timing) may take; "
                      "past it the subject fails that stage (default 300)")
      ->check(seconds_range);

  auto* eval_cmd = app.add_subcommand("eval", "evaluate given candidate files (no agent)");
  std::string task_id, candidate;
  bool eval_json = false;
  eval_cmd->add_option("--task", task_id, "task id")->required();
  eval_cmd->add_option("--candidate", candidate, "folder with the candidate's editable files")
      ->required();
  eval_cmd->add_option("--gpus", gpus, "GPU to use (default: the first)");
  eval_cmd->add_option("--seed", seed, "evaluation seed (default: fresh)")->check(unsigned_integer);
  eval_cmd->add_flag("--json", eval_json, "print the full result as JSON");
  eval_cmd->add_option("--stage-timeout", stage_timeout, "seconds one stage may take (default 300)")
      ->check(seconds_range);

  auto* report_cmd = app.add_subcommand("report", "summarize a run");
  std::string run_id;
  bool as_json = false, as_csv = false;
  report_cmd->add_option("run", run_id, "run id, or 'latest'")->required();
  report_cmd->add_option("--runs-dir", runs_dir, "where runs and arena.db live");
  auto* json_flag = report_cmd->add_flag("--json", as_json, "JSON");
  report_cmd->add_flag("--csv", as_csv, "CSV, one row per configuration")->excludes(json_flag);
  std::string html_path;
  report_cmd->add_option("--html", html_path, "also write a self-contained HTML page to this file");
  std::string ceilings_path;
  report_cmd->add_option("--ceilings", ceilings_path,
                         "with --html: the machine's ceilings (tools/gpu/ceilings.py) for a roofline");

  auto* board_cmd = app.add_subcommand("leaderboard", "rank the stored runs over the same tasks");
  board_cmd->add_option("--runs-dir", runs_dir, "where runs and arena.db live");
  board_cmd->add_option("--tasks", selector, "only these tasks (default all)");
  board_cmd->add_flag("--json", as_json, "JSON");
  bool by_agent = false;
  board_cmd->add_flag("--by-agent", by_agent,
                      "one row per agent: each task from the agent's latest run that has it");
  board_cmd->add_option("--html", html_path, "also write the leaderboard as an HTML page to this file");
  bool current_only = false;
  board_cmd->add_flag("--current", current_only,
                      "only results of the task files as they are now (task hash): others are "
                      "left out and named on stderr");

  auto* verdicts_cmd = app.add_subcommand(
      "verdicts", "compare a run's verdicts with those committed for the same submissions");
  std::vector<std::string> committed_dbs;
  verdicts_cmd->add_option("run", run_id, "the run that re-evaluated stored submissions ('latest' allowed)")
      ->required();
  verdicts_cmd->add_option("--committed", committed_dbs, "arena.db files whose verdicts stand (repeatable)")
      ->required();
  verdicts_cmd->add_option("--runs-dir", runs_dir, "where the run's arena.db lives");

  auto* compare_cmd = app.add_subcommand("compare", "compare two runs task by task (A/B)");
  std::string run_a, run_b;
  compare_cmd->add_option("a", run_a, "run A")->required();
  compare_cmd->add_option("b", run_b, "run B ('latest' allowed)")->required();
  compare_cmd->add_option("--runs-dir", runs_dir, "where runs and arena.db live");
  compare_cmd->add_flag("--json", as_json, "JSON");

  auto* merge_cmd = app.add_subcommand(
      "merge", "copy the runs of other results databases (other machines) into this one");
  std::vector<std::string> merge_sources;
  merge_cmd->add_option("databases", merge_sources, "arena.db files to merge in")->required();
  merge_cmd->add_option("--runs-dir", runs_dir, "where the destination arena.db lives");

  app.add_subcommand("devices", "list the GPUs this machine has");

  auto* import_cmd = app.add_subcommand("import", "turn another benchmark's problems into task folders");
  std::string import_name, import_source, import_out;
  bool import_overwrite = false;
  import_cmd->add_option("importer", import_name, "which benchmark: " + [] {
    std::string names;
    for (const auto& n : TaskImporterRegistry::Global().Names()) names += (names.empty() ? "" : ", ") + n;
    return names;
  }())->required();
  import_cmd->add_option("source", import_source, "the benchmark's folder")->required();
  import_cmd->add_option("--out", import_out, "TASKS/FAMILY/SUITE: one task folder per problem")->required();
  import_cmd->add_flag("--overwrite", import_overwrite, "replace task folders that exist");

  auto* feedback_cmd = app.add_subcommand(
      "feedback", "report on an agent's current files (what ./feedback in a workspace runs)");
  std::string socket_path, feedback_configs;
  bool check_only = false;
  feedback_cmd->add_option("--socket", socket_path, "the arena's feedback socket")->required();
  feedback_cmd->add_option("--configs", feedback_configs,
                           "only these tuning configurations (names from configs.json, comma-separated)");
  feedback_cmd->add_flag("--check-only", check_only, "compile and check, no timing (faster)");

  auto* forward_cmd = app.add_subcommand(
      "forward", "inside an agent's sandbox: the HTTP proxy its CLI uses to reach its model endpoints");
  std::string forward_listen = "127.0.0.1:3128", forward_socket;
  bool forward_daemon = false;
  forward_cmd->add_option("--listen", forward_listen, "IPv4 address and port to listen on");
  forward_cmd->add_option("--socket", forward_socket, "the arena's endpoint forwarder")->required();
  forward_cmd->add_flag("--daemon", forward_daemon, "return once listening; serve in the background");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitBadInput;
  }
  if (app.got_subcommand("forward")) {
    Status s = ForwardProxy(forward_listen, forward_socket, forward_daemon);
    return s.ok() ? kExitOk : Fail(s);
  }
  // What an arena killed earlier left in the temporary folders goes now.
  RemoveOrphanedScratch(fs::temp_directory_path().string());
  if (fs::temp_directory_path() != "/tmp") RemoveOrphanedScratch("/tmp");
  const std::string root = FindRoot(root_flag);
  const std::string tasks_root = (fs::path(root) / "tasks").string();
  if (runs_dir.empty()) runs_dir = DefaultRunsDir(root);

  if (app.got_subcommand("devices")) return CmdDevices();

  if (app.got_subcommand("import")) {
    auto importer = TaskImporterRegistry::Global().Create(import_name);
    if (!importer.ok()) return Fail(InvalidArgument(importer.status().message()));
    auto tasks = ImportTasksRoot(import_out, (*importer)->Family());
    if (!tasks.ok()) return Fail(tasks.status());
    ImportOptions options{import_source, import_out, root, import_overwrite};
    auto outcomes = (*importer)->Import(options);
    if (!outcomes.ok()) return Fail(InvalidArgument(outcomes.status().message()));
    int refused = 0;
    for (const auto& o : *outcomes) {
      if (o.refused.empty()) {
        std::cout << "imported: " << o.source << " -> " << o.task_dir << "\n";
      } else {
        ++refused;
        std::cout << "not converted: " << o.source << ": " << o.refused << "\n";
      }
    }
    std::cout << outcomes->size() - refused << " task(s) written, " << refused << " problem(s) not converted\n";
    return refused ? kExitFailures : kExitOk;
  }

  if (app.got_subcommand("merge")) {
    const fs::path dest = fs::path(runs_dir) / "arena.db";
    std::error_code ec;
    fs::create_directories(runs_dir, ec);
    auto into = ResultsStore::Open(dest.string());
    if (!into.ok()) return Fail(into.status());
    int skipped = 0;
    for (const auto& source : merge_sources) {
      if (!fs::is_regular_file(source)) return Fail(NotFound(source + ": no such results database"));
      if (fs::equivalent(source, dest, ec)) {
        return Fail(InvalidArgument(source + ": is the destination itself"));
      }
      // Sources are only read: an archive stays as it was, even on
      // read-only storage.
      auto from = ResultsStore::OpenReadOnly(source);
      if (!from.ok()) return Fail(InvalidArgument(from.status().message()));  // names the file
      auto merged = MergeStore(**from, **into);
      if (!merged.ok()) return Fail(InvalidArgument(source + ": " + merged.status().message()));
      for (const auto& line : merged->lines) std::cout << source << ": " << line << "\n";
      std::cout << source << ": " << merged->runs_added << " new run(s), " << merged->tasks_added
                << " task result(s) added, " << merged->tasks_kept << " already here\n";
      skipped += ReportSkipped(source, **from);
    }
    return skipped ? kExitFailures : kExitOk;
  }

  if (app.got_subcommand("feedback")) {
    FeedbackOptions options;
    options.check_only = check_only;
    std::stringstream names(feedback_configs);
    for (std::string name; std::getline(names, name, ',');) {
      if (!name.empty()) options.configs.push_back(name);
    }
    auto report = RequestFeedback(socket_path, 3600, options);
    if (!report.ok()) return Fail(report.status());
    std::cout << report->text;
    // Unchecked (no GPU) is not a failure: the text says what was skipped.
    return report->correct || (report->compiled && !report->checked) ? kExitOk : kExitFailures;
  }

  if (app.got_subcommand("tasks")) {
    auto catalog = ScanTasks(tasks_root, selector);
    if (!catalog.ok()) return Fail(catalog.status());
    const std::vector<TaskSpec>* tasks = &catalog->tasks;
    // Every broken task at once, one line each; the valid ones still listed
    // or validated. Any broken task makes the exit 2.
    for (const auto& b : catalog->broken) std::cerr << "arena: " << b.error.message() << "\n";
    const int broken = static_cast<int>(catalog->broken.size());
    if (!validate) {
      for (const auto& t : *tasks) {
        std::cout << t.id << "  (" << t.ConfigsOfKind(ConfigKind::kTuning).size() << " tuning, "
                  << t.ConfigsOfKind(ConfigKind::kHeldout).size() << " held-out)  "
                  << t.description << "\n";
      }
      return broken ? kExitBadInput : kExitOk;
    }
    DeviceInfo device = CpuDevice();
    if (validate_on != "cpu") {
      auto devices = SelectDevices(gpus);
      if (!devices.ok()) return Fail(devices.status());
      if (!devices->empty()) device = devices->front();
    }
    if (validate_on == "gpu" && !device.is_gpu()) {
      // A GPU validation that cannot run fails: it is never a CPU pass.
      std::cerr << "arena: --device gpu: no GPU on this machine\n";
      return kExitFailures;
    }
    std::cout << "validating " << tasks->size() << " task(s) on " << device.Describe() << "\n";
    int failures = 0;
    for (const auto& t : *tasks) {
      auto family = TaskFamilyRegistry::Global().Create(t.family);
      const TaskValidation v = ValidateTaskBaseline(
          t, **family, device, root,
          (fs::temp_directory_path() / (ScratchName("validate") + "-" + TaskIdToFileName(t.id)))
              .string());
      std::cout << (v.status.ok() ? "ok    " : "FAIL  ") << t.id << "\n";
      for (const auto& line : v.lines) std::cout << line << "\n";
      if (!v.status.ok()) {
        std::cout << "      " << v.status.message() << "\n";
        ++failures;
      }
    }
    std::cout << tasks->size() - failures << "/" << tasks->size() + broken << " task(s) valid"
              << (broken ? " (" + std::to_string(broken) + " broken, named above)" : "") << "\n";
    return broken ? kExitBadInput : failures ? kExitFailures : kExitOk;
  }

  if (app.got_subcommand("run")) {
    // On Slurm the devices are the nodes': --gpus names each element's on
    // its node (the submitting machine may have none), and none is recorded
    // for the run itself.
    auto devices = scheduler == "slurm" ? Result<std::vector<DeviceInfo>>(std::vector<DeviceInfo>{})
                                        : SelectDevices(gpus);
    if (!devices.ok()) return Fail(devices.status());
    RunRequest req;
    // A resumed run keeps the agent and configuration it was started with.
    if (resume.empty()) {
      auto adapter = AgentRegistry::Global().Create(agent);
      if (!adapter.ok()) return Fail(adapter.status());
      auto config = DecodeAgentConfig(**adapter, agent, agent_config_path);
      if (!config.ok()) return Fail(config.status());
      req.agent_config = *config;
    }
    req.agent = agent;
    req.selector = selector;
    req.devices = *devices;
    req.runs_dir = runs_dir;
    req.tasks_root = tasks_root;
    req.project_root = root;
    req.seed = seed;
    req.agent_time_budget_s = agent_budget;
    req.stage_timeout_s = stage_timeout;
    req.progress = Progress;
    if (!resume.empty()) {
      req.resume = true;
      req.run_id = resume;
    } else {
      req.run_id = run_id_flag;
    }
    Result<RunOutcome> outcome = RunOutcome{};
    if (scheduler == "slurm") {
      SlurmOptions slurm;
      for (const auto& [flag, value] : {std::pair<std::string, std::string>{"--partition", partition},
                                        {"--account", account},
                                        {"--time", time_limit},
                                        {"--gres", gres}}) {
        if (!value.empty()) slurm.sbatch_args.push_back(flag + "=" + value);
      }
      slurm.sbatch_args.insert(slurm.sbatch_args.end(), sbatch_args.begin(), sbatch_args.end());
      std::error_code ec;
      slurm.arena_binary = fs::canonical("/proc/self/exe", ec).string();
      slurm.project_root = root;
      slurm.gpus = gpus;
      slurm.wait = !no_wait;
      outcome = ExecuteRunOnSlurm(req, slurm);
    } else {
      if (devices->empty()) Progress("no GPU: " + DiscoverDevices().note + " Timing is skipped.");
      outcome = ExecuteRun(req);
    }
    if (!outcome.ok()) return Fail(outcome.status());
    if (isatty(STDERR_FILENO)) std::cerr << "\n";
    auto store = ResultsStore::Open((fs::path(runs_dir) / "arena.db").string());
    if (!store.ok()) return Fail(store.status());
    auto info = (*store)->GetRun(outcome->run_id);
    if (!info.ok()) return Fail(info.status());
    std::cout << FormatTextReport(*info, outcome->results);
    std::cout << "results: " << (fs::path(runs_dir) / outcome->run_id).string() << "\n";
    if (!outcome->broken.empty()) return kExitFailures;  // named in the report
    for (const auto& r : outcome->results) {
      if (FailedAGate(r)) return kExitFailures;
    }
    return kExitOk;
  }

  if (app.got_subcommand("eval")) {
    auto tasks = LoadTasks(tasks_root, task_id);
    if (!tasks.ok()) return Fail(tasks.status());
    if (tasks->size() != 1 || tasks->front().id != task_id) {
      return Fail(InvalidArgument("--task: '" + task_id + "' is not a task id"));
    }
    if (!fs::is_directory(candidate)) {
      return Fail(InvalidArgument("--candidate: '" + candidate + "' is not a folder"));
    }
    auto devices = SelectDevices(gpus);
    if (!devices.ok()) return Fail(devices.status());
    const TaskSpec& task = tasks->front();
    auto family = TaskFamilyRegistry::Global().Create(task.family);
    PipelineOptions o;
    o.device = devices->empty() ? CpuDevice() : devices->front();
    o.seed = seed;
    o.stage_timeout_s = stage_timeout;
    o.project_root = root;
    o.work_dir = (fs::temp_directory_path() / ScratchName("eval")).string();
    o.on_stage = [](const std::string& s) { Progress("[eval] " + s); };
    auto r = EvaluateCandidate(task, **family, fs::absolute(candidate).string(), o);
    RemoveTree(o.work_dir).ok();
    if (isatty(STDERR_FILENO)) std::cerr << "\n";
    if (!r.ok()) return Fail(r.status());
    TaskScore s = ScoreTask(*r);
    if (eval_json) {
      Json j = r->ToJson();
      j["score"] = s.ToJson();
      std::cout << JsonText(j, 2) << "\n";
    } else {
      RunInfo info;
      info.run_id = "eval";
      info.agent = "(given files)";
      info.selector = task.id;
      info.status = "finished";
      info.task_ids = {task.id};
      std::cout << FormatTextReport(info, {*r});
      for (const auto& c : r->configs) {
        if (c.candidate_check.status == StageStatus::kFailed) {
          std::cout << "  " << c.name << ": " << c.candidate_check.detail << "\n";
        }
      }
      if (!r->candidate_compile.passed()) {
        std::cout << "compile: " << r->candidate_compile.detail << "\n"
                  << r->candidate_compile.log << "\n";
      }
    }
    return FailedAGate(*r) ? kExitFailures : kExitOk;
  }

  if (app.got_subcommand("report")) {
    auto opened = OpenRun(runs_dir, run_id);
    if (!opened.ok()) return Fail(opened.status());
    const std::string db_path = opened->db_path;
    auto& store = opened->store;
    run_id = opened->run_id;
    auto info = store->GetRun(run_id);
    if (!info.ok()) return Fail(info.status());
    auto results = store->LoadTasks(run_id);
    if (!results.ok()) return Fail(results.status());
    std::optional<Ceilings> ceilings;  // read first: bad input prints nothing
    if (!ceilings_path.empty()) {
      if (html_path.empty()) return Fail(InvalidArgument("--ceilings: only with --html"));
      auto c = LoadCeilings(ceilings_path);
      if (!c.ok()) return Fail(c.status());
      ceilings = *c;
    }
    if (as_json) {
      std::cout << JsonText(ReportJson(*info, *results), 2) << "\n";
    } else if (as_csv) {
      std::cout << ReportCsv(*info, *results);
    } else {
      std::cout << FormatTextReport(*info, *results);
    }
    if (!html_path.empty()) {
      Status w = WriteFileAtomic(html_path, HtmlReport(*info, *results, ceilings));
      if (!w.ok()) return Fail(w);
    }
    return ReportSkipped(db_path, *store) ? kExitFailures : kExitOk;
  }

  if (app.got_subcommand("verdicts")) {
    auto opened = OpenRun(runs_dir, run_id);
    if (!opened.ok()) return Fail(opened.status());
    auto replayed = opened->store->LoadTasks(opened->run_id);
    if (!replayed.ok()) return Fail(replayed.status());
    std::vector<std::pair<RunInfo, std::vector<TaskResult>>> committed;
    for (const auto& path : committed_dbs) {
      if (!fs::is_regular_file(path)) return Fail(NotFound(path + ": no such results database"));
      auto from = ResultsStore::OpenReadOnly(path);
      if (!from.ok()) return Fail(InvalidArgument(from.status().message()));
      auto listed = (*from)->ListRuns();
      if (!listed.ok()) return Fail(InvalidArgument(path + ": " + listed.status().message()));
      auto runs = LoadRuns(**from, *listed);
      if (!runs.ok()) return Fail(InvalidArgument(path + ": " + runs.status().message()));
      for (auto& run : *runs) committed.push_back(std::move(run));
    }
    // Oldest first, whatever the order of the files: a later run's verdict
    // is preferred over an earlier one's.
    std::stable_sort(committed.begin(), committed.end(), [](const auto& a, const auto& b) {
      return a.first.created_at < b.first.created_at;
    });
    if (replayed->empty()) return Fail(NotFound(opened->run_id + ": no task results to compare"));
    auto checks = CheckVerdicts(*replayed, committed);
    std::cout << FormatVerdictChecks(checks);
    for (const auto& c : checks) {
      if (!c.ok()) return kExitFailures;
    }
    return kExitOk;
  }

  if (app.got_subcommand("leaderboard") || app.got_subcommand("compare")) {
    const std::string db_path = (fs::path(runs_dir) / "arena.db").string();
    auto store = ResultsStore::OpenReadOnly(db_path);
    if (!store.ok()) return Fail(store.status());
    auto runs = (*store)->ListRuns();
    if (!runs.ok()) return Fail(runs.status());
    if (runs->empty()) return Fail(NotFound("no runs in " + runs_dir));
    auto load = [&](std::string id) -> Result<std::pair<RunInfo, std::vector<TaskResult>>> {
      if (id == "latest") id = runs->back().run_id;
      ARENA_ASSIGN_OR_RETURN(RunInfo info, (*store)->GetRun(id));
      ARENA_ASSIGN_OR_RETURN(std::vector<TaskResult> results, (*store)->LoadTasks(id));
      return std::make_pair(std::move(info), std::move(results));
    };
    if (app.got_subcommand("compare")) {
      auto a = load(run_a);
      if (!a.ok()) return Fail(a.status());
      auto b = load(run_b);
      if (!b.ok()) return Fail(b.status());
      RunComparison c = CompareRuns(a->second, b->second);
      if (as_json) {
        std::cout << JsonText(ComparisonJson(a->first, b->first, c), 2) << "\n";
      } else {
        std::cout << FormatComparison(a->first, b->first, c);
      }
      return ReportSkipped(db_path, **store) ? kExitFailures : kExitOk;
    }
    auto loaded = LoadRuns(**store, *runs);
    if (!loaded.ok()) return Fail(loaded.status());
    auto all = std::move(*loaded);
    const std::string tasks = selector == "all" ? "" : selector;
    if (current_only) {
      auto specs = LoadTasks(tasks_root, tasks.empty() ? "all" : tasks);
      if (!specs.ok()) return Fail(specs.status());
      std::map<std::string, std::string> current;
      for (const auto& spec : *specs) {
        auto hash = TaskContentHash(spec);
        if (!hash.ok()) return Fail(hash.status());
        current[spec.id] = *hash;
      }
      std::vector<std::string> left_out;
      all = KeepCurrentTasks(all, current, &left_out);
      for (const auto& line : left_out) {
        std::cerr << "left out (not the task files as they are now): " << line << "\n";
      }
      if (all.empty()) return Fail(NotFound("no result of the task files as they are now"));
    }
    auto rows = BuildLeaderboard(by_agent ? MergeRunsByAgent(all, tasks) : all, tasks);
    if (as_json) {
      std::cout << JsonText(LeaderboardJson(rows), 2) << "\n";
    } else {
      std::cout << FormatLeaderboard(rows);
    }
    if (!html_path.empty()) {
      Status w = WriteFileAtomic(html_path, HtmlLeaderboard(rows, tasks));
      if (!w.ok()) return Fail(w);
    }
    return ReportSkipped(db_path, **store) ? kExitFailures : kExitOk;
  }
  return kExitBadInput;
}

}  // namespace arena

int main(int argc, char** argv) { return arena::Main(argc, argv); }
