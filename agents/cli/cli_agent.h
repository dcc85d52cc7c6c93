// CliAgent: the one adapter behind every command-line coding agent (Claude
// Code, Codex, Cursor Agent, OpenCode, Aider, mini-SWE-agent), configured by
// its CliSpec (cli_spec.h). Each spec is registered under its agent name.
//
// Run() finds the CLI on the host PATH, binds it (and what it runs on) read-only
// into the bubblewrap sandbox next to the workspace and the arena binary, hands
// it the prompt the way that CLI takes it, runs it with no network but its
// model endpoints (through the arena's forwarder and a proxy inside the
// sandbox: core/net_forward.h) under a time limit, and turns what it printed into an
// AgentOutcome: transcript, exit code, wall time, tokens and cost where the CLI
// reports them, and a one-line reason when it failed (not installed, not
// logged in, timed out, exited with an error).
//
//   # agent config (YAML), all keys optional
//   model: claude-sonnet-4-5
//   effort: high            # only CLIs with an effort setting
//   timeout_s: 1200         # used when the run gives no time budget
//   extra_args: [--max-turns, "40"]
//   mounts: [/opt/node]     # host paths bound read-only ("HOST" or "HOST:INSIDE")
//   pass_env: [OPENAI_BASE_URL] # host variables passed in, when set
//   endpoints: [api.example.com:443]  # model endpoints beyond the CLI's own
//   sandbox: true           # false only for debugging: runs on the host
//
//   auto agent = AgentRegistry::Global().Create("claude-code");
//   ARENA_ASSIGN_OR_RETURN(AgentOutcome outcome, (*agent)->Run(request));
#ifndef ARENA_AGENTS_CLI_CLI_AGENT_H_
#define ARENA_AGENTS_CLI_CLI_AGENT_H_

#include <string>
#include <vector>

#include "agents/cli/cli_spec.h"
#include "core/agent.h"

namespace arena {

// The agent config, checked: unknown keys and wrong types are errors, so a
// typo in the YAML is not silently ignored.
struct CliAgentConfig {
  std::string model;
  std::string effort;
  double timeout_s = 0;  // 0: not set
  std::vector<std::string> extra_args;
  std::vector<std::string> mounts;
  std::vector<std::string> pass_env;
  std::vector<std::string> endpoints;  // host:port or URLs the CLI may reach
  bool sandbox = true;
};

Result<CliAgentConfig> ParseCliAgentConfig(const CliSpec& spec, const Json& config);

// When no time budget is given and the config sets no timeout_s.
constexpr double kDefaultCliTimeoutS = 1800;

class CliAgent : public AgentAdapter {
 public:
  explicit CliAgent(const CliSpec& spec) : spec_(spec) {}
  Result<AgentOutcome> Run(const AgentRequest& request) override;
  SectionSchema ConfigSchema() const override;

 private:
  const CliSpec& spec_;
};

}  // namespace arena

#endif  // ARENA_AGENTS_CLI_CLI_AGENT_H_
