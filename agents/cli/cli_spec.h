// The command-line coding agents the arena can drive, one CliSpec per CLI.
//
// A spec says everything that differs between CLIs: the executable, how the
// prompt reaches it, its non-interactive argv, the model and effort flags, the
// API-key variables it reads, the endpoint it needs the network for, how its
// output reports tokens and cost, and what it prints when it is not logged in.
// CliAgent (cli_agent.h) is the one adapter that runs any of them; adding a
// CLI is adding one entry to the table in cli_spec.cc.
//
//   const CliSpec* spec = FindCliSpec("codex");
//   // spec->executable == "codex", spec->prompt_channel == PromptChannel::kStdin
#ifndef ARENA_AGENTS_CLI_CLI_SPEC_H_
#define ARENA_AGENTS_CLI_CLI_SPEC_H_

#include <map>
#include <string>
#include <vector>

namespace arena {

// Where the CLI reads its prompt from.
enum class PromptChannel {
  kArgument,  // one argv element ("{prompt}" in args)
  kStdin,     // the process's standard input
  kFile,      // a file in the workspace whose path is "{prompt_file}" in args
};

// How the CLI reports tokens and cost (parsed best effort, cli_output.h).
enum class UsageFormat {
  kNone,
  kResultEvent,     // stream-json lines ending in {"type":"result", usage, cost}
  kCodexEvents,     // JSONL with {"type":"turn.completed","usage":{...}} per turn
  kOpenCodeEvents,  // JSONL with {"type":"step_finish","part":{tokens, cost}} per step
  kAiderText,       // "Tokens: 1.2k sent, 340 received. Cost: $0.01 message, $0.02 session."
  kTrajectoryFile,  // a JSON trajectory written to "{output_file}" (mini-SWE-agent)
};

struct CliSpec {
  std::string agent;         // the registered agent name: "claude-code"
  std::string display_name;  // for messages: "Claude Code"
  std::string executable;    // looked up on the host PATH: "claude"
  std::string install_hint;  // how to get it, for the not-found message

  // The argv after the executable. Whole-element tokens expand:
  //   {prompt}            the prompt text (PromptChannel::kArgument)
  //   {prompt_file}       path of the prompt file (PromptChannel::kFile)
  //   {output_file}       path of the file the CLI writes its usage to
  //   {permission_args}   permission_args_sandboxed or _unsandboxed
  //   {model_args}        model_args, when the config sets a model
  //   {effort_args}       effort_args, when the config sets an effort
  //   {extra_args}        the config's extra_args
  //   {editable_files}    the task's editable files, relative to the workspace
  std::vector<std::string> args;
  PromptChannel prompt_channel = PromptChannel::kArgument;
  std::vector<std::string> model_args;   // "{model}" inside is replaced
  std::vector<std::string> effort_args;  // "{effort}" inside; empty: no effort setting
  // What lets the CLI edit files and run ./feedback without asking. Inside the
  // arena's sandbox a CLI's own sandbox is redundant (and may not nest), so the
  // two can differ.
  std::vector<std::string> permission_args_sandboxed;
  std::vector<std::string> permission_args_unsandboxed;

  // Passed into the sandbox when set on the host (never on a command line).
  std::vector<std::string> api_key_env;
  // Always set inside, e.g. switches that keep a first-run wizard away.
  std::map<std::string, std::string> fixed_env;
  std::string endpoint;  // why it needs the network: its API endpoint
  // What the sandboxed CLI may reach by default (host:port); a config's
  // `endpoints` and base URLs passed in add to it.
  std::vector<std::string> endpoints;

  UsageFormat usage_format = UsageFormat::kNone;
  std::string output_file_name;  // under the workspace, for {output_file}

  // Lower-case fragments of the CLI's own "not logged in / bad key" messages.
  std::vector<std::string> logged_out_markers;
};

// Every CLI the arena knows, in a fixed order.
const std::vector<CliSpec>& CliSpecs();

// The spec registered as `agent`, or nullptr.
const CliSpec* FindCliSpec(const std::string& agent);

}  // namespace arena

#endif  // ARENA_AGENTS_CLI_CLI_SPEC_H_
