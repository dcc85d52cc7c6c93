// The task model: one task.yaml per task, decoded once into a typed TaskSpec.
//
// The schema's common part is owned here (docs/task-format.md documents it);
// a section named after the family (e.g. `triton2triton:`) belongs to the
// family plugin, which validates it in TaskFamily::ValidateTask.
//
//   ARENA_ASSIGN_OR_RETURN(TaskSpec task,
//                          LoadTask("/repo/tasks", "/repo/tasks/f/s/t/task.yaml"));
//   for (const Configuration& c : task.configs) ...
//
// Every error names file:line:column and the field, e.g.
//   tasks/f/s/t/task.yaml:14:7: configs.heldout[1].n: expected a number
#ifndef ARENA_CORE_TASK_H_
#define ARENA_CORE_TASK_H_

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/expr.h"
#include "core/section.h"
#include "core/status.h"

namespace arena {

using Json = nlohmann::json;

// `j` as JSON text (`indent` as Json::dump's). Bytes in its strings that are
// not UTF-8, which a subject or an agent can put there (a compiler's log
// echoing a candidate's source, a transcript), become U+FFFD instead of an
// exception: whatever a subject prints, its result is written. Every
// document the arena writes or sends goes through it.
std::string JsonText(const Json& j, int indent = -1);

enum class ConfigKind { kSmall, kTuning, kHeldout };
const char* ConfigKindName(ConfigKind kind);

// One input configuration: named parameters (shapes, flags) and its cost.
struct Configuration {
  std::string name;
  ConfigKind kind = ConfigKind::kTuning;
  Json params = Json::object();  // every parameter, as written
  ParameterValues numeric;       // the numeric ones, for expressions
  double bytes = 0;              // cost model: fewest bytes moved
  double flops = 0;              // cost model: floating-point operations
  int line = 0;                  // 1-based line in task.yaml
  int column = 0;                // 1-based column
};

struct TensorSpec {
  std::string name;
  std::string dtype;
  std::vector<std::string> shape;  // expressions of the parameters
  Json init = Json::object();      // how inputs are drawn: {dist: normal, ...}
  int line = 0;                    // where it is declared (1-based), for messages
  int column = 0;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

struct TimingSettings {
  double warmup_ms = 25;
  int repetitions = 100;      // samples per subject, at least 100 on a GPU
  double graph_below_us = 20; // graph replay for kernels shorter than this
};

struct Tunable {
  std::string name;
  Json values = Json::array();
  Json default_value;
  int default_line = 0;  // where `default:` is written (1-based), for messages
  int default_column = 0;
};

struct TaskSpec {
  std::string id;      // "<family>/<suite>/<name>", from the folder
  std::string family;
  int family_line = 0;  // where `family:` is written (1-based), for messages
  int family_column = 0;
  std::string suite;
  std::string name;
  std::string dir;        // absolute path of the task folder
  std::string yaml_path;  // as given to LoadTask (used in messages)
  std::string description;
  std::string instructions;
  std::vector<std::string> editable;  // files the agent may change
  // Whether the editable files are shipped (files.starter, default true).
  // False: the agent writes them from scratch; only a family whose
  // baseline is not the editable files takes such a task.
  bool starter = true;
  std::vector<std::string> harness;   // read-only to the agent
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<std::string> inplace;   // inputs the kernel may modify
  std::vector<Configuration> configs; // small (optional), tuning, held-out
  std::map<std::string, Tolerance> tolerances;  // by dtype
  int trials = 3;
  TimingSettings timing;
  std::string bytes_expr;
  std::string flops_expr;
  std::vector<Tunable> tunables;
  YamlValue family_section;   // the plugin's own section (core/section.h: DecodeSection)
  Json family_json;           // the same, as JSON (for harness processes)

  std::vector<const Configuration*> ConfigsOfKind(ConfigKind kind) const;
  const Configuration* FindConfig(const std::string& name) const;
  // The task as JSON, for harness processes (no held-out data is hidden
  // here: workers run inside the arena, never inside an agent workspace).
  Json ToJson() const;
};

// Loads and validates `yaml_path`, a task.yaml under `tasks_root`.
// Whether every tunable of `task` is a constant of its editable files whose
// value there is the declared default (file:line:column errors).
Status CheckTunables(const TaskSpec& task);

Result<TaskSpec> LoadTask(const std::string& tasks_root,
                          const std::string& yaml_path);

// Finds every task.yaml under `tasks_root` (sorted by id).
Result<std::vector<std::string>> FindTaskFiles(const std::string& tasks_root);

// True if `task_id` matches `selector`: "all", an exact id, a prefix ending at
// a '/' boundary ("triton2triton", "triton2triton/norms"), or a
// comma-separated list of those.
bool TaskMatches(const std::string& task_id, const std::string& selector);


}  // namespace arena

#endif  // ARENA_CORE_TASK_H_
