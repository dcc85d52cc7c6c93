#include "agents/cli/cli_spec.h"

namespace arena {
namespace {

// Each entry notes what was checked against the CLI's documentation (or its
// maintainers' issue threads, where the docs say nothing) and where. Flags that
// only some versions know are left out; extra_args adds them.
std::vector<CliSpec> BuildSpecs() {
  std::vector<CliSpec> specs;

  // Claude Code. Verified:
  // - `claude -p "query"` runs once and exits (CLI reference,
  //   docs.anthropic.com/claude/docs/claude-code/cli-usage); the prompt is the
  //   positional argument, so it goes right after -p, before any list flag.
  // - `--output-format stream-json` needs `--verbose` with -p
  //   (github.com/anthropics/claude-code/issues/733); the stream ends with a
  //   {"type":"result"} line holding total_cost_usd, num_turns and usage
  //   (headless docs, docs.claude.com/en/docs/claude-code/headless).
  // - `--permission-mode acceptEdits` accepts file edits and `--allowedTools`
  //   pre-approves tools (same headless page); Bash is allowed so the agent can
  //   run ./feedback. bypassPermissions is avoided: it refuses to run as root.
  // - `--model`, and `--effort low|medium|high|max` (model configuration,
  //   code.claude.com/docs/en/model-config, "adjust effort level").
  // - With a missing or bad key it prints "Invalid API key · Please run /login"
  //   (anthropics/claude-code issues 6270, 9222).
  {
    CliSpec s;
    s.agent = "claude-code";
    s.display_name = "Claude Code";
    s.executable = "claude";
    s.install_hint = "npm install -g @anthropic-ai/claude-code";
    s.args = {"-p", "{prompt}", "--output-format", "stream-json", "--verbose",
              "{permission_args}", "{model_args}", "{effort_args}", "{extra_args}"};
    s.prompt_channel = PromptChannel::kArgument;
    s.model_args = {"--model", "{model}"};
    s.effort_args = {"--effort", "{effort}"};
    s.permission_args_sandboxed = {"--permission-mode", "acceptEdits", "--allowedTools", "Bash"};
    s.permission_args_unsandboxed = s.permission_args_sandboxed;
    s.api_key_env = {"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
                     "CLAUDE_CODE_OAUTH_TOKEN"};
    s.endpoint = "api.anthropic.com";
    s.endpoints = {"api.anthropic.com:443"};
    s.usage_format = UsageFormat::kResultEvent;
    s.logged_out_markers = {"invalid api key", "please run /login", "not logged in",
                            "oauth token has expired"};
    specs.push_back(s);
  }

  // Codex CLI. Verified:
  // - `codex exec` is the non-interactive mode and `--json` makes stdout JSONL
  //   (developers.openai.com/codex/noninteractive); each turn ends with
  //   {"type":"turn.completed","usage":{input_tokens,cached_input_tokens,
  //   output_tokens}} (openai/codex pull 4525, the exec event shapes).
  // - A prompt of "-" is read from stdin (`codex exec --help`); stdin is also
  //   closed at once, so exec never waits for more input.
  // - `--skip-git-repo-check`: the workspace is no git repository (same page).
  // - Inside another sandbox Codex's own Linux sandbox may not nest; its docs
  //   say to use `--dangerously-bypass-approvals-and-sandbox` when "externally
  //   sandboxed" (docs/platform-sandboxing.md), and `--sandbox workspace-write`
  //   to allow edits otherwise (noninteractive page).
  // - `--model`, and reasoning effort as `-c model_reasoning_effort=...`.
  // - CODEX_API_KEY is honoured by exec only; OPENAI_API_KEY as well.
  // - Bad keys surface as "401 Unauthorized" / "Incorrect API key provided" /
  //   "missing api key" (openai/codex issues 7323, 39820).
  {
    CliSpec s;
    s.agent = "codex";
    s.display_name = "Codex";
    s.executable = "codex";
    s.install_hint = "npm install -g @openai/codex";
    s.args = {"exec", "--json", "--skip-git-repo-check", "{permission_args}", "{model_args}",
              "{effort_args}", "{extra_args}", "-"};
    s.prompt_channel = PromptChannel::kStdin;
    s.model_args = {"--model", "{model}"};
    s.effort_args = {"-c", "model_reasoning_effort={effort}"};
    s.permission_args_sandboxed = {"--dangerously-bypass-approvals-and-sandbox"};
    s.permission_args_unsandboxed = {"--sandbox", "workspace-write"};
    s.api_key_env = {"CODEX_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"};
    s.endpoint = "api.openai.com";
    s.endpoints = {"api.openai.com:443"};
    s.usage_format = UsageFormat::kCodexEvents;
    s.logged_out_markers = {"401 unauthorized", "incorrect api key provided", "missing api key",
                            "not logged in", "codex login"};
    specs.push_back(s);
  }

  // Cursor Agent CLI. Verified:
  // - `cursor-agent -p --output-format stream-json "<prompt>"`: -p is print
  //   (headless) mode and the prompt is the last positional argument; events
  //   end with {"type":"result"} (cursor.com/docs/cli, reference/parameters).
  // - `--force` lets it apply edits and run commands without asking, and also
  //   passes the workspace-trust gate of a never-seen folder ("Pass --trust,
  //   --yolo, or -f if you trust this directory", escoffier-labs/brigade pull
  //   205); --trust itself is newer, so it is not required here.
  // - `--model`; no effort setting.
  // - CURSOR_API_KEY authenticates headless runs (cursor.com/docs/cli/reference/
  //   authentication); some versions put camelCase usage (inputTokens, ...) on
  //   the result event, others none.
  // - "The provided API key is invalid." / "not authenticated ... agent login"
  //   (a5c-ai/babysitter issue 562, pingdotgg/t3code issue 7244).
  {
    CliSpec s;
    s.agent = "cursor-agent";
    s.display_name = "Cursor Agent";
    s.executable = "cursor-agent";
    s.install_hint = "curl https://cursor.com/install -fsS | bash";
    s.args = {"-p", "--output-format", "stream-json", "{permission_args}", "{model_args}",
              "{extra_args}", "{prompt}"};
    s.prompt_channel = PromptChannel::kArgument;
    s.model_args = {"--model", "{model}"};
    s.permission_args_sandboxed = {"--force"};
    s.permission_args_unsandboxed = {"--force"};
    s.api_key_env = {"CURSOR_API_KEY"};
    s.endpoint = "api2.cursor.sh";
    s.endpoints = {"api2.cursor.sh:443", "api.cursor.sh:443"};
    s.usage_format = UsageFormat::kResultEvent;
    s.logged_out_markers = {"not logged in", "not authenticated", "api key is invalid",
                            "agent login", "authentication required"};
    specs.push_back(s);
  }

  // OpenCode. Verified:
  // - `opencode run [message..]` runs one prompt non-interactively, and
  //   `--format json` prints one JSON event per line (opencode.ai/docs/cli);
  //   each step ends with {"type":"step_finish","part":{"tokens":{input,output,
  //   reasoning,cache:{read,write}},"cost":...}} (anomalyco/opencode issue
  //   26855 quotes the stream).
  // - `--model provider/model` (opencode.ai/docs/models) and `--variant` for the
  //   reasoning effort (anomalyco/opencode issue 7354: "added to opencode run").
  // - Edits are allowed by its default permissions; `--auto` (newer) or
  //   `--dangerously-skip-permissions` (older) go in extra_args when wanted.
  // - Provider keys come from the usual variables; a missing one is reported as
  //   "... API key is missing", a bad one as a 401 authentication_error.
  {
    CliSpec s;
    s.agent = "opencode";
    s.display_name = "OpenCode";
    s.executable = "opencode";
    s.install_hint = "npm install -g opencode-ai";
    s.args = {"run", "--format", "json", "{model_args}", "{effort_args}", "{extra_args}",
              "{prompt}"};
    s.prompt_channel = PromptChannel::kArgument;
    s.model_args = {"--model", "{model}"};
    s.effort_args = {"--variant", "{effort}"};
    s.api_key_env = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY",   "OPENROUTER_API_KEY",
                     "GEMINI_API_KEY",    "GOOGLE_GENERATIVE_AI_API_KEY", "DEEPSEEK_API_KEY",
                     "GROQ_API_KEY",      "XAI_API_KEY",      "OPENCODE_API_KEY"};
    s.endpoint = "the model provider's API (e.g. api.anthropic.com)";
    s.usage_format = UsageFormat::kOpenCodeEvents;
    s.logged_out_markers = {"api key is missing", "providerautherror", "invalid x-api-key",
                            "incorrect api key provided", "not logged in"};
    specs.push_back(s);
  }

  // Aider. Verified:
  // - `--message`/`--message-file` do that one thing, apply the edits and exit
  //   (aider.chat/docs/scripting.html); the file form keeps long prompts off
  //   the command line.
  // - `--yes-always` answers every confirmation, `--no-git` runs without a
  //   repository (aider.chat/docs/git.html), `--no-pretty` drops colours,
  //   `--no-check-update` skips the version check (aider/args.py); the files to
  //   edit are the positional arguments.
  // - `--model`, `--reasoning-effort`.
  // - After each reply it prints "Tokens: 12k sent, 133 received. Cost: $0.04
  //   message, $0.10 session."; a bad key gives "The API provider is not able
  //   to authenticate you. Check your API key." (Aider-AI/aider issue 3802).
  {
    CliSpec s;
    s.agent = "aider";
    s.display_name = "Aider";
    s.executable = "aider";
    s.install_hint = "python -m pip install aider-install && aider-install";
    s.args = {"--message-file", "{prompt_file}", "--yes-always", "--no-git", "--no-pretty",
              "--no-check-update", "{model_args}", "{effort_args}", "{extra_args}",
              "{editable_files}"};
    s.prompt_channel = PromptChannel::kFile;
    s.model_args = {"--model", "{model}"};
    s.effort_args = {"--reasoning-effort", "{effort}"};
    s.api_key_env = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_API_BASE",
                     "OPENROUTER_API_KEY", "GEMINI_API_KEY", "DEEPSEEK_API_KEY",
                     "GROQ_API_KEY", "XAI_API_KEY"};
    s.endpoint = "the model provider's API (e.g. api.openai.com)";
    s.usage_format = UsageFormat::kAiderText;
    s.logged_out_markers = {"not able to authenticate you", "authenticationerror",
                            "invalid x-api-key", "incorrect api key provided"};
    specs.push_back(s);
  }

  // mini-SWE-agent (its `mini` command). Verified:
  // - `mini -t TASK -y --exit-immediately`: -t gives the task instead of asking,
  //   -y (yolo) runs actions without confirmation, --exit-immediately finishes
  //   without a final prompt; -o sets the trajectory file; -m the model
  //   (mini-swe-agent.com/latest/usage/mini, command line options).
  // - The trajectory's info.model_stats holds instance_cost and api_calls
  //   (mini-swe-agent docs, output and trajectories).
  // - MSWEA_CONFIGURED=true keeps the interactive first-run setup away, which
  //   otherwise waits for a terminal (set by every headless harness we found).
  // - Models go through litellm, whose bad-key error is AuthenticationError.
  {
    CliSpec s;
    s.agent = "mini-swe-agent";
    s.display_name = "mini-SWE-agent";
    s.executable = "mini";
    s.install_hint = "pip install mini-swe-agent";
    s.args = {"-t", "{prompt}", "-y", "--exit-immediately", "-o", "{output_file}",
              "{model_args}", "{extra_args}"};
    s.prompt_channel = PromptChannel::kArgument;
    s.model_args = {"-m", "{model}"};
    s.api_key_env = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_API_BASE",
                     "OPENROUTER_API_KEY", "GEMINI_API_KEY", "DEEPSEEK_API_KEY",
                     "MSWEA_MODEL_NAME", "MSWEA_MODEL_API_KEY"};
    s.fixed_env = {{"MSWEA_CONFIGURED", "true"}};
    s.endpoint = "the model provider's API (e.g. api.anthropic.com)";
    s.usage_format = UsageFormat::kTrajectoryFile;
    s.output_file_name = ".arena-mini.traj.json";
    s.logged_out_markers = {"authenticationerror", "invalid x-api-key",
                            "incorrect api key provided", "api_key client option must be set"};
    specs.push_back(s);
  }
  return specs;
}

}  // namespace

const std::vector<CliSpec>& CliSpecs() {
  static const std::vector<CliSpec>* specs = new std::vector<CliSpec>(BuildSpecs());
  return *specs;
}

const CliSpec* FindCliSpec(const std::string& agent) {
  for (const CliSpec& s : CliSpecs()) {
    if (s.agent == agent) return &s;
  }
  return nullptr;
}

}  // namespace arena
