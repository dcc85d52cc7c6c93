// Tests of the CLI agents against one stand-in script (testdata/standin.sh)
// installed under each CLI's executable name: the argv and prompt it gets,
// the capture of its output and usage, the time limit, take-back of its edits
// (through the conformance kit), and the missing-CLI and not-logged-in errors.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "agents/cli/cli_agent.h"
#include "agents/cli/cli_output.h"
#include "agents/cli/cli_spec.h"
#include "core/files.h"
#include "core/run.h"
#include "core/sandbox.h"
#include "core/testing/agent_conformance.h"
#include "core/testing/loopback.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kStandin[] = "agents/cli/testdata/standin.sh";
constexpr char kTasksRoot[] = "tests/testdata/tasks";
constexpr char kTaskYaml[] = "tests/testdata/tasks/fake/suite/alpha/task.yaml";

const std::vector<std::string>& AllAgents() {
  static const std::vector<std::string> agents = {"claude-code", "codex", "cursor-agent",
                                                  "opencode",    "aider", "mini-swe-agent"};
  return agents;
}

std::string Read(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? *text : "<missing: " + path + ">";
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool HasLine(const std::string& text, const std::string& line) {
  for (const std::string& l : Lines(text)) {
    if (l == line) return true;
  }
  return false;
}

void SetEnv(const std::string& name, const std::string& value) {
  setenv(name.c_str(), value.c_str(), 1);
}

// What the stand-in prints, as the adapter should read it.
Json ExpectedUsage(const std::string& agent) {
  static const std::map<std::string, Json> usage = {
      {"claude-code",
       {{"input_tokens", 1200}, {"output_tokens", 340}, {"cache_read_tokens", 1000},
        {"cache_write_tokens", 50}, {"cost_usd", 0.0123}, {"turns", 3}}},
      {"codex",
       {{"input_tokens", 2000}, {"cache_read_tokens", 500}, {"output_tokens", 300}, {"turns", 1}}},
      {"cursor-agent", {{"input_tokens", 900}, {"output_tokens", 120}}},
      {"opencode",
       {{"input_tokens", 300}, {"output_tokens", 50}, {"reasoning_tokens", 5},
        {"cache_read_tokens", 110}, {"cache_write_tokens", 10}, {"cost_usd", 0.003},
        {"steps", 2}}},
      {"aider",
       {{"input_tokens", 3200}, {"output_tokens", 440}, {"cost_usd", 0.03}, {"replies", 2}}},
      {"mini-swe-agent", {{"cost_usd", 0.042}, {"api_calls", 7}}},
  };
  return usage.at(agent);
}

// The part of each CLI's not-logged-in message the detail must quote.
std::string ExpectedLoginComplaint(const std::string& agent) {
  static const std::map<std::string, std::string> complaint = {
      {"claude-code", "Invalid API key"},   {"codex", "401 Unauthorized"},
      {"cursor-agent", "API key is invalid"}, {"opencode", "API key is missing"},
      {"aider", "invalid x-api-key"},       {"mini-swe-agent", "invalid x-api-key"},
  };
  return complaint.at(agent);
}

void ExpectUsage(const Json& actual, const Json& expected, const std::string& agent) {
  for (const auto& item : expected.items()) {
    ASSERT_TRUE(actual.contains(item.key())) << agent << ": usage lacks " << item.key() << " in "
                                             << actual.dump();
    EXPECT_NEAR(actual[item.key()].get<double>(), item.value().get<double>(), 1e-9)
        << agent << ": " << item.key();
  }
}

// Puts a copy of the stand-in on the host PATH under `executable` for one
// test, and restores PATH afterwards.
class StandinOnPath {
 public:
  StandinOnPath(const std::string& executable, const std::string& dir) : bin_(dir + "/bin") {
    EXPECT_TRUE(ResetDir(dir).ok());
    EXPECT_TRUE(MakeDirs(bin_).ok());
    path_ = bin_ + "/" + executable;
    fs::copy_file(kStandin, path_, fs::copy_options::overwrite_existing);
    fs::permissions(path_, fs::perms::owner_all | fs::perms::group_read |
                               fs::perms::group_exec | fs::perms::others_read |
                               fs::perms::others_exec);
    const char* old = std::getenv("PATH");
    old_path_ = old ? old : "/usr/bin:/bin";
    SetEnv("PATH", bin_ + ":" + old_path_);
  }
  ~StandinOnPath() {
    SetEnv("PATH", old_path_);
    for (const char* v : {"STANDIN_MODE", "STANDIN_LIST", "ARENA_STANDIN_PASSED",
                          "ARENA_HOST_ONLY"}) {
      unsetenv(v);
    }
  }
  const std::string& path() const { return path_; }
  const std::string& old_path() const { return old_path_; }

 private:
  std::string bin_, path_, old_path_;
};

class CliAgentTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string why = SandboxUnavailableReason();
    ASSERT_TRUE(why.empty()) << "the sandbox must work where these tests run: " << why;
    spec_ = FindCliSpec(GetParam());
    ASSERT_NE(spec_, nullptr) << GetParam();
    standin_ = std::make_unique<StandinOnPath>(spec_->executable,
                                               testing::TempDir() + "/standin_" + spec_->agent);
  }
  void TearDown() override {
    standin_.reset();
    for (const std::string& key : spec_ ? spec_->api_key_env : std::vector<std::string>{}) {
      unsetenv(key.c_str());
    }
  }

  // Runs the agent on a fresh workspace of the fake task with a request of our own.
  AgentOutcome RunOn(const Json& config, const std::string& prompt, double budget_s,
                     const std::string& arena_binary = "") {
    auto task = LoadTask(kTasksRoot, kTaskYaml);
    EXPECT_TRUE(task.ok()) << task.status().ToString();
    if (!task.ok()) return {};
    task_ = std::make_unique<TaskSpec>(*task);
    workspace_ = testing::TempDir() + "/run_" + spec_->agent + "/workspace";
    EXPECT_TRUE(PrepareWorkspace(*task_, workspace_).ok());
    auto agent = AgentRegistry::Global().Create(spec_->agent);
    EXPECT_TRUE(agent.ok()) << agent.status().ToString();
    if (!agent.ok()) return {};
    AgentRequest req;
    req.task = task_.get();
    req.workspace = workspace_;
    req.config = config;
    req.prompt = prompt;
    req.time_budget_s = budget_s;
    req.arena_binary = arena_binary;
    auto outcome = (*agent)->Run(req);
    EXPECT_TRUE(outcome.ok()) << outcome.status().ToString();
    return outcome.ok() ? *outcome : AgentOutcome{};
  }

  const CliSpec* spec_ = nullptr;
  std::unique_ptr<StandinOnPath> standin_;
  std::unique_ptr<TaskSpec> task_;
  std::string workspace_;
};

TEST_P(CliAgentTest, InvocationCaptureUsageAndTakeBack) {
  // A key the CLI reads, a variable passed on request, one that must stay out.
  const std::string key = spec_->api_key_env.at(0);
  SetEnv(key, "arena-test-key");
  SetEnv("ARENA_STANDIN_PASSED", "yes");
  SetEnv("ARENA_HOST_ONLY", "must-not-leak");
  const Json config = {{"pass_env", {"ARENA_STANDIN_PASSED"}},
                       {"extra_args", {"--standin-extra", 7}}};

  AgentConformanceResult r = RunAgentConformance(spec_->agent, config);
  AgentOutcome out = r.outcome;
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_GT(out.wall_s, 0);

  // Take-back: the edit landed in the workspace's editable file.
  EXPECT_NE(Read(r.workspace + "/kernel.fake").find("standin-edit: " + spec_->executable),
            std::string::npos);

  // Invocation: every fixed flag of the spec, the permission flags for the
  // sandbox, and the extra arguments arrived, in the CLI's argv.
  const std::string argv = Read(r.workspace + "/.standin-argv");
  for (const std::string& a : spec_->args) {
    if (a.front() != '{') {
      EXPECT_TRUE(HasLine(argv, a)) << a << " missing from\n" << argv;
    }
  }
  for (const std::string& a : spec_->permission_args_sandboxed) {
    EXPECT_TRUE(HasLine(argv, a)) << a << " missing from\n" << argv;
  }
  EXPECT_TRUE(HasLine(argv, "--standin-extra")) << argv;
  EXPECT_TRUE(HasLine(argv, "7")) << argv;
  if (spec_->agent == "aider") {
    EXPECT_TRUE(HasLine(argv, "kernel.fake")) << argv;
  }
  if (!spec_->output_file_name.empty()) {
    EXPECT_TRUE(HasLine(argv, std::string(kSandboxWorkspace) + "/" + spec_->output_file_name));
  }

  // The prompt, from where this CLI takes it: the core rendered none, so the
  // adapter's fallback carries the task's instructions and the rules.
  const std::string prompt = Read(r.workspace + "/.standin-prompt");
  EXPECT_NE(prompt.find("Make y = x faster."), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("kernel.fake"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("./feedback"), std::string::npos) << prompt;

  // Environment: the key and pass_env came in, the rest of the host did not.
  const std::string env = Read(r.workspace + "/.standin-env");
  EXPECT_NE(env.find(key + "=arena-test-key"), std::string::npos);
  EXPECT_NE(env.find("ARENA_STANDIN_PASSED=yes"), std::string::npos);
  EXPECT_EQ(env.find("ARENA_HOST_ONLY"), std::string::npos) << "a host variable leaked";
  for (const auto& [k, v] : spec_->fixed_env) {
    EXPECT_NE(env.find(k + "=" + v), std::string::npos) << k;
  }
  // The key never showed on a command line and its file is gone again.
  EXPECT_EQ(argv.find("arena-test-key"), std::string::npos);
  for (const auto& entry : fs::directory_iterator(r.workspace)) {
    const std::string name = entry.path().filename().string();
    EXPECT_NE(name.rfind(".arena-", 0), 0u) << name << " left in the workspace";
  }

  // Network: none of the host's; the sandbox's own loopback alone (its
  // endpoints go through the arena's proxy: EndpointsAloneThroughTheArenasProxy).
  EXPECT_EQ(Read(r.workspace + "/.standin-netdev"), "lo\n");
  EXPECT_EQ(out.usage["sandbox"]["network"], "endpoints only");
  EXPECT_EQ(out.usage["sandbox"]["enabled"], true);

  // Capture: the streamed lines are in the transcript, usage was read.
  EXPECT_NE(out.transcript.find("standin: editing kernel.fake"), std::string::npos)
      << out.transcript;
  EXPECT_NE(out.transcript.find("[arena] $ " + spec_->executable), std::string::npos);
  ExpectUsage(out.usage, ExpectedUsage(spec_->agent), spec_->agent);
}

using testing_support::EchoServer;

TEST_P(CliAgentTest, EndpointsAloneThroughTheArenasProxy) {
  // The real arena binary runs the proxy inside; the CLI (a stand-in) finds
  // it in HTTPS_PROXY as real CLIs do. Its endpoint is reached, the other
  // server on the same host is not, and nothing is reached directly.
  EchoServer endpoint, other;
  SetEnv("STANDIN_NET", endpoint.at() + " " + other.at());
  AgentOutcome out = RunOn({{"pass_env", {"STANDIN_NET"}}, {"endpoints", {endpoint.at()}}}, "go", 60,
                           /*arena_binary=*/"tools/arena/arena");
  unsetenv("STANDIN_NET");
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  const std::string net = Read(workspace_ + "/.standin-net");
  EXPECT_NE(net.find("proxy " + endpoint.at() + " HTTP/1.1 200 Connection established echo:ping"),
            std::string::npos) << net;
  EXPECT_NE(net.find("proxy " + other.at() + " HTTP/1.1 403"), std::string::npos) << net;
  EXPECT_NE(net.find("direct " + endpoint.at() + " refused"), std::string::npos) << net;
  EXPECT_NE(net.find("direct " + other.at() + " refused"), std::string::npos) << net;
  // Recorded: what was reached, what was refused.
  const std::string connections = out.usage["sandbox"]["connections"].dump();
  EXPECT_NE(connections.find(endpoint.at() + ": connected"), std::string::npos) << connections;
  EXPECT_NE(connections.find(other.at() + ": refused"), std::string::npos) << connections;
  EXPECT_NE(out.transcript.find("[arena] network: " + endpoint.at() + ": connected"), std::string::npos);
}

TEST_P(CliAgentTest, RenderedPromptArrivesVerbatim) {
  const std::string prompt =
      "# Task\nit's \"quoted\", $HOME `uname` \\n; rm -rf /  * ?\n\ttabs and ünïcödé\n";
  AgentOutcome out = RunOn(Json::object(), prompt, 60);
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  EXPECT_EQ(Read(workspace_ + "/.standin-prompt"), prompt);
  EXPECT_EQ(out.transcript.find("rm -rf"), std::string::npos) << "prompt echoed in the header";
}

TEST_P(CliAgentTest, TimeLimitKillsTheWholeTree) {
  SetEnv("STANDIN_MODE", "sleep");
  AgentOutcome out = RunOn({{"pass_env", {"STANDIN_MODE"}}}, "hang, please", 1);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.detail, "timed out after 1 s");
  EXPECT_EQ(out.exit_code, -1);
  EXPECT_LT(out.wall_s, 10);
  EXPECT_NE(out.transcript.find("standin: working for a long time"), std::string::npos)
      << out.transcript;
  // What it edited before the limit stays for the core to take back.
  EXPECT_NE(Read(workspace_ + "/kernel.fake").find("standin-edit"), std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessOptions pgrep;
  pgrep.argv = {"/bin/sh", "-c", "pgrep -f 'sleep 31415[9]' || true"};
  auto left = RunProcess(pgrep);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->out, "") << "the agent's processes outlived the time limit";
}

TEST_P(CliAgentTest, MissingCliIsAClearFailure) {
  const std::string empty = testing::TempDir() + "/empty_path_dir";
  ASSERT_TRUE(ResetDir(empty).ok());
  SetEnv("PATH", empty);
  AgentOutcome out = RunOn(Json::object(), "", 60);
  SetEnv("PATH", standin_->old_path());
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.detail, spec_->executable + " not found on PATH (install " +
                            spec_->display_name + " or set PATH)");
  EXPECT_NE(out.transcript.find(spec_->install_hint), std::string::npos);
}

TEST_P(CliAgentTest, NotLoggedInIsAClearFailure) {
  SetEnv("STANDIN_MODE", "logged_out");
  AgentOutcome out = RunOn({{"pass_env", {"STANDIN_MODE"}}}, "do it", 60);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.detail.rfind(spec_->display_name + " is not logged in: ", 0), 0u) << out.detail;
  EXPECT_NE(out.detail.find(ExpectedLoginComplaint(spec_->agent)), std::string::npos)
      << out.detail;
}

TEST_P(CliAgentTest, NonZeroExitIsAFailureWithItsReason) {
  SetEnv("STANDIN_MODE", "fail");
  AgentOutcome out = RunOn({{"pass_env", {"STANDIN_MODE"}}}, "do it", 60);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.exit_code, 3);
  EXPECT_EQ(out.detail, spec_->executable + " exited with code 3: standin: something broke");
}

TEST_P(CliAgentTest, WithoutTheSandboxForDebugging) {
  AgentOutcome out = RunOn({{"sandbox", false}}, "debug run", 60);
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  EXPECT_EQ(out.usage["sandbox"]["enabled"], false);
  const std::string argv = Read(workspace_ + "/.standin-argv");
  for (const std::string& a : spec_->permission_args_unsandboxed) {
    EXPECT_TRUE(HasLine(argv, a)) << a << " missing from\n" << argv;
  }
  EXPECT_EQ(Read(workspace_ + "/.standin-prompt"), "debug run");
  ExpectUsage(out.usage, ExpectedUsage(spec_->agent), spec_->agent);
}

INSTANTIATE_TEST_SUITE_P(AllClis, CliAgentTest, ::testing::ValuesIn(AllAgents()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

// One CLI is enough for what does not depend on the spec.
class ClaudeCodeTest : public CliAgentTest {};

TEST_P(ClaudeCodeTest, ConfigTimeoutAppliesWithoutABudget) {
  SetEnv("STANDIN_MODE", "sleep");
  AgentOutcome out = RunOn({{"pass_env", {"STANDIN_MODE"}}, {"timeout_s", 1.5}}, "hang", 0);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.detail, "timed out after 1.5 s");
}

TEST_P(ClaudeCodeTest, ModelEffortMountsAndArenaBinaryReachTheCli) {
  const std::string extra = testing::TempDir() + "/extra_mount";
  ASSERT_TRUE(WriteFileAtomic(extra + "/marker.txt", "x").ok());
  SetEnv("STANDIN_LIST", "/opt/extra/marker.txt /opt/arena/arena " + extra);
  const Json config = {{"model", "claude-opus-4-1"},
                       {"effort", "high"},
                       {"mounts", {extra + ":/opt/extra"}},
                       {"pass_env", {"STANDIN_LIST"}}};
  AgentOutcome out = RunOn(config, "go", 60, /*arena_binary=*/"tools/arena/arena");
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  const std::string argv = Read(workspace_ + "/.standin-argv");
  EXPECT_NE(argv.find("--model\nclaude-opus-4-1\n"), std::string::npos) << argv;
  EXPECT_NE(argv.find("--effort\nhigh\n"), std::string::npos) << argv;
  // The mount shows where asked, the arena binary at its fixed path, and the
  // host path of the mount itself does not.
  EXPECT_EQ(Read(workspace_ + "/.standin-list"), "/opt/extra/marker.txt\n/opt/arena/arena\n");
}

TEST_P(ClaudeCodeTest, CliBehindALinkRunsWithItsVenvInterpreter) {
  // The CLI lives in <root>/app, its shebang names <root>/venv/bin/python (a
  // link to bash, as a venv's python links to the real one), and PATH holds
  // only a link to the CLI: the app folder and the venv must both be bound.
  const std::string root = testing::TempDir() + "/venv_case";
  ASSERT_TRUE(ResetDir(root).ok());
  ASSERT_TRUE(MakeDirs(root + "/venv/bin").ok());
  ASSERT_TRUE(MakeDirs(root + "/app").ok());
  ASSERT_TRUE(MakeDirs(root + "/links").ok());
  fs::create_symlink("/bin/bash", root + "/venv/bin/python");
  std::string script = Read(kStandin);
  script = "#!" + root + "/venv/bin/python" + script.substr(script.find('\n'));
  ASSERT_TRUE(WriteFileAtomic(root + "/app/claude", script).ok());
  fs::permissions(root + "/app/claude", fs::perms::owner_all);
  fs::create_symlink(root + "/app/claude", root + "/links/claude");
  SetEnv("PATH", root + "/links:/usr/bin:/bin");
  AgentOutcome out = RunOn(Json::object(), "from a venv", 60);
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  EXPECT_EQ(Read(workspace_ + "/.standin-prompt"), "from a venv");
}

TEST_P(ClaudeCodeTest, EnvShebangFindsItsInterpreterOnTheHostPath) {
  // "#!/usr/bin/env standin-shell", where standin-shell lives only in a
  // folder of the host's PATH: that folder must be bound and searched inside.
  const std::string root = testing::TempDir() + "/env_case";
  ASSERT_TRUE(ResetDir(root).ok());
  ASSERT_TRUE(MakeDirs(root + "/tools/bin").ok());
  ASSERT_TRUE(MakeDirs(root + "/cli").ok());
  fs::create_symlink("/bin/bash", root + "/tools/bin/standin-shell");
  std::string script = Read(kStandin);
  script = "#!/usr/bin/env standin-shell" + script.substr(script.find('\n'));
  ASSERT_TRUE(WriteFileAtomic(root + "/cli/claude", script).ok());
  fs::permissions(root + "/cli/claude", fs::perms::owner_all);
  SetEnv("PATH", root + "/cli:" + root + "/tools/bin:/usr/bin:/bin");
  AgentOutcome out = RunOn(Json::object(), "via env", 60);
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  EXPECT_EQ(Read(workspace_ + "/.standin-prompt"), "via env");
}

TEST_P(ClaudeCodeTest, PromptStartingWithADashIsNotAnOption) {
  AgentOutcome out = RunOn(Json::object(), "--help is not what I want", 60);
  ASSERT_TRUE(out.ok) << out.detail << "\n" << out.transcript;
  EXPECT_EQ(Read(workspace_ + "/.standin-prompt"), "\n--help is not what I want");
}

TEST_P(ClaudeCodeTest, BadConfigIsAnErrorNotAnOutcome) {
  auto task = LoadTask(kTasksRoot, kTaskYaml);
  ASSERT_TRUE(task.ok());
  auto agent = AgentRegistry::Global().Create("claude-code");
  ASSERT_TRUE(agent.ok());
  AgentRequest req;
  req.task = &*task;
  req.workspace = testing::TempDir();
  req.config = {{"modle", "x"}};
  auto outcome = (*agent)->Run(req);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(outcome.status().message().find("unknown key 'modle'"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Claude, ClaudeCodeTest, ::testing::Values("claude-code"));

TEST(CliAgentRegistry, RegistersEveryCli) {
  ASSERT_EQ(CliSpecs().size(), AllAgents().size());
  for (const std::string& name : AllAgents()) {
    EXPECT_TRUE(AgentRegistry::Global().Contains(name)) << name;
    ASSERT_NE(FindCliSpec(name), nullptr) << name;
  }
}

TEST(CliAgentConfig, ChecksKeysAndTypes) {
  const CliSpec& claude = *FindCliSpec("claude-code");
  const CliSpec& cursor = *FindCliSpec("cursor-agent");
  auto ok = ParseCliAgentConfig(claude, {{"model", "m"},
                                         {"effort", "low"},
                                         {"timeout_s", 30},
                                         {"extra_args", {"--max-turns", 40, true}},
                                         {"pass_env", {"HTTPS_PROXY"}},
                                         {"mounts", {"/usr", "/usr:/opt/u"}},
                                         {"sandbox", false}});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->extra_args, (std::vector<std::string>{"--max-turns", "40", "true"}));
  EXPECT_FALSE(ok->sandbox);
  EXPECT_TRUE(ParseCliAgentConfig(claude, Json()).ok()) << "an empty config is fine";

  for (const Json& bad : std::vector<Json>{{{"modle", "m"}},
                                           {{"timeout_s", -1}},
                                           {{"timeout_s", "10"}},
                                           {{"model", 3}},
                                           {{"extra_args", "--x"}},
                                           {{"mounts", {"relative/path"}}},
                                           {{"mounts", {"/no/such/arena/path"}}},
                                           {{"pass_env", {"NOT-A-NAME"}}},
                                           {{"sandbox", "no"}},
                                           Json::array()}) {
    auto r = ParseCliAgentConfig(claude, bad);
    EXPECT_FALSE(r.ok()) << bad.dump();
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad.dump();
    }
  }
  auto effort = ParseCliAgentConfig(cursor, {{"effort", "high"}});
  ASSERT_FALSE(effort.ok());
  EXPECT_NE(effort.status().message().find("has no effort setting"), std::string::npos);
}

TEST(CliOutput, UsageParsingNeverFailsOnOddLines) {
  const std::string noisy =
      "not json at all\n{broken\n[1,2]\n{\"type\":\"result\",\"usage\":\"oops\"}\n"
      "{\"type\":\"result\",\"total_cost_usd\":\"free\",\"usage\":{\"input_tokens\":\"many\"}}\n";
  for (UsageFormat f : {UsageFormat::kResultEvent, UsageFormat::kCodexEvents,
                        UsageFormat::kOpenCodeEvents, UsageFormat::kAiderText,
                        UsageFormat::kTrajectoryFile, UsageFormat::kNone}) {
    Json u = ParseUsage(f, noisy, noisy, noisy);
    EXPECT_TRUE(u.is_object());
    EXPECT_TRUE(u.empty()) << u.dump();
  }
  // Older Claude Code releases: cost_usd; the last result event counts.
  Json u = ParseUsage(UsageFormat::kResultEvent,
                      "{\"type\":\"result\",\"cost_usd\":1.0}\n"
                      "{\"type\":\"result\",\"cost_usd\":0.25,\"num_turns\":2}\n",
                      "", "");
  EXPECT_EQ(u["cost_usd"], 0.25);
  EXPECT_EQ(u["turns"], 2);
  // Aider's token counts with suffixes, on stderr too.
  u = ParseUsage(UsageFormat::kAiderText, "",
                 "Tokens: 1.5M sent, 2.5k received. Cost: $1.20 message, $1.20 session.\n", "");
  EXPECT_EQ(u["input_tokens"], 1500000);
  EXPECT_EQ(u["output_tokens"], 2500);
  EXPECT_DOUBLE_EQ(u["cost_usd"].get<double>(), 1.2);
}

TEST(CliOutput, LoginMessagesCountOnlyFromTheCliItself) {
  const std::vector<std::string> markers = FindCliSpec("claude-code")->logged_out_markers;
  // The model or a tool quoting the message is not the CLI failing to log in.
  const std::string quoted =
      "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":"
      "\"The docs say: Invalid API key · Please run /login\"}]}}\n"
      "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":"
      "\"not logged in\"}]}}\n";
  EXPECT_FALSE(FindLoggedOutMessage(markers, quoted, "").has_value());
  const std::string failed =
      quoted + "{\"type\":\"result\",\"is_error\":true,\"result\":\"Invalid API key · Please "
               "run /login\"}\n";
  auto message = FindLoggedOutMessage(markers, failed, "");
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(*message, "Invalid API key · Please run /login");
  EXPECT_TRUE(FindLoggedOutMessage(markers, "", "Error: Not logged in\n").has_value());
  EXPECT_EQ(FindReportedError(failed), "Invalid API key · Please run /login");
  EXPECT_FALSE(FindReportedError(failed + "{\"type\":\"result\",\"is_error\":false}\n"));
}

}  // namespace
}  // namespace arena
