// The interface every agent adapter implements.
//
// The core prepares a workspace holding only what the agent may see (the
// editable files, the instructions, the tuning configurations), runs the
// agent in it, and afterwards takes back only the declared editable files.
//
//   class MyAgent : public AgentAdapter { ... };
//   ARENA_REGISTER_AGENT("myagent", MyAgent);
#ifndef ARENA_CORE_AGENT_H_
#define ARENA_CORE_AGENT_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.h"
#include "core/section.h"
#include "core/status.h"
#include "core/task.h"

namespace arena {

// What the feedback command reports on the agent's current files: compiled,
// checked and timed on the tuning configurations only (never held-out ones,
// never reference outputs).
struct FeedbackReport {
  bool compiled = false;
  bool correct = false;
  bool checked = true;  // false: nothing could be checked on this machine (no GPU)
  std::optional<double> speedup;  // geometric mean over timed configurations
  std::string text;               // what a person or a model reads
};

// What an agent may narrow a feedback call to: some of the visible
// configurations (by name; empty: all of them) and checks without timing
// (a quick correctness loop). Held-out configurations are never reachable.
struct FeedbackOptions {
  std::vector<std::string> configs;
  bool check_only = false;
  Json ToJson() const;
  // Field errors name the field ("configs[1]: a string").
  static Result<FeedbackOptions> FromJson(const Json& j);
};

// Evaluates the editable files currently in the workspace.
using FeedbackFn = std::function<Result<FeedbackReport>(const FeedbackOptions&)>;

struct AgentRequest {
  const TaskSpec* task = nullptr;
  std::string workspace;     // read-write; holds the editable files
  double time_budget_s = 0;  // 0: the agent's own default
  Json config = Json::object();  // the adapter's YAML configuration
  uint64_t seed = 0;
  std::string prompt;        // the rendered prompt (core/prompt.h)
  // In-process feedback, for adapters written in C++ (the autotuner).
  FeedbackFn feedback;
  // The same through a command, for agents in a sandbox: run in the
  // workspace, it prints the report (exit 0: correct, 1: not).
  std::string feedback_command = "./feedback";
  std::string arena_binary;  // this program
  std::string project_root;
  // What every sandboxed agent must bind read-only (host path, path inside)
  // for the feedback command to work: the arena binary and its socket.
  std::vector<std::pair<std::string, std::string>> sandbox_mounts;
};

struct AgentOutcome {
  bool ok = true;           // false: the agent itself failed (not the kernel)
  std::string detail;       // why it failed, in one line
  std::string transcript;   // what it printed or said
  double wall_s = 0;
  int exit_code = 0;
  int feedback_calls = 0;
  Json usage = Json::object();  // tokens and cost where reported
  Json ToJson() const;
};

class AgentAdapter {
 public:
  virtual ~AgentAdapter() = default;
  // Edits files in request.workspace. Errors are values: a crash of the
  // agent's process is an AgentOutcome with ok = false, not a Status.
  virtual Result<AgentOutcome> Run(const AgentRequest& request) = 0;
  // The fields of the agent's configuration file (`--agent-config FILE`).
  // Core decodes the file against it before the run starts (an unknown
  // field, a value of the wrong type or a missing required one is an error
  // naming FILE:LINE:COLUMN and the field) and hands the agent the decoded
  // values as request.config, each in its declared type. Default: no
  // fields (the agent takes no configuration).
  virtual SectionSchema ConfigSchema() const { return {}; }
};

// The agent's configuration from `path` ("" for none), decoded against its
// schema (schema.name: the agent's name).
Result<Json> DecodeAgentConfig(const AgentAdapter& agent, const std::string& agent_name,
                               const std::string& path);

using AgentRegistry = Registry<AgentAdapter>;

}  // namespace arena

#define ARENA_REGISTER_AGENT(name, Impl) \
  ARENA_REGISTER_PLUGIN_IMPL(::arena::AgentAdapter, name, Impl, __LINE__)

#endif  // ARENA_CORE_AGENT_H_
