// Real agent CLIs (mini-SWE-agent and aider, installed by tools/setup.sh
// into .venv-agents) in the real sandbox, talking to a scripted OpenAI-compatible
// server on the host's loopback that it can reach only through the arena's
// endpoint forwarder: the edit the server scripts arrives in the workspace,
// and every connection the CLI tried is recorded (its library's attempt to
// fetch a model price list from the internet is refused).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/agent.h"
#include "core/files.h"
#include "core/run.h"
#include "core/task.h"
#include "core/testing/loopback.h"

namespace arena {
namespace {
namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr char kTasksRoot[] = "tests/testdata/tasks";
constexpr char kTaskYaml[] = "tests/testdata/tasks/fake/suite/alpha/task.yaml";
constexpr char kEdit[] = "// edited by the scripted model";

// Answers every POST with a chat completion. For a tool-calling agent
// (mini-SWE-agent): a bash tool call that edits the workspace while the
// conversation holds no tool result, then the command that ends the run.
// For an editing agent (aider, "whole" edit format): the whole new file.
class ScriptedModel {
 public:
  explicit ScriptedModel(bool tools) : tools_(tools) {
    fd_ = testing_support::ListenOnLoopback(&port_);
    EXPECT_GE(fd_, 0);
    thread_ = std::thread([this] {
      for (int c; (c = accept(fd_, nullptr, nullptr)) >= 0;) std::thread([this, c] { Serve(c); }).detach();
    });
  }
  ~ScriptedModel() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::string at() const { return "127.0.0.1:" + std::to_string(port_); }
  int requests() const { return requests_; }

 private:
  void Serve(int c) {
    std::string buf;
    char chunk[8192];
    for (;;) {
      size_t head_end;
      while ((head_end = buf.find("\r\n\r\n")) == std::string::npos) {
        const ssize_t r = recv(c, chunk, sizeof(chunk), 0);
        if (r <= 0) return (void)close(c);
        buf.append(chunk, static_cast<size_t>(r));
      }
      std::string head = buf.substr(0, head_end);
      for (auto& ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      size_t length = 0;
      if (size_t at = head.find("content-length:"); at != std::string::npos) {
        length = std::stoul(head.substr(at + 15));
      }
      while (buf.size() < head_end + 4 + length) {
        const ssize_t r = recv(c, chunk, sizeof(chunk), 0);
        if (r <= 0) return (void)close(c);
        buf.append(chunk, static_cast<size_t>(r));
      }
      const Json req = Json::parse(buf.substr(head_end + 4, length), nullptr, false);
      buf.erase(0, head_end + 4 + length);
      ++requests_;
      bool answered = false;
      for (const auto& m : req.value("messages", Json::array())) answered |= m.value("role", "") == "tool";
      const std::string command =
          answered ? "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" : std::string("echo '") + kEdit + "' >> kernel.fake";
      const Json call = {{"id", "call_" + std::to_string(requests_)},
                         {"type", "function"},
                         {"function", {{"name", "bash"}, {"arguments", Json{{"command", command}}.dump()}}}};
      const Json reply = {
          {"id", "chatcmpl-scripted"},
          {"object", "chat.completion"},
          {"created", 0},
          {"model", req.value("model", "scripted")},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", "Running a command."}, {"tool_calls", {call}}}},
             {"finish_reason", "tool_calls"}}}},
          {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 10}, {"total_tokens", 110}}}};
      Json answer = reply;
      if (!tools_) {
        answer["choices"][0]["message"] = {
            {"role", "assistant"},
            {"content", std::string("kernel.fake\n```\n") + kEdit + "\n```\n"}};
        answer["choices"][0]["finish_reason"] = "stop";
      }
      const std::string body = answer.dump();
      const std::string out = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\n\r\n" + body;
      send(c, out.data(), out.size(), MSG_NOSIGNAL);
    }
  }

  bool tools_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<int> requests_{0};
  std::thread thread_;
};

// Runs `agent` (its CLI `exe` from $ARENA_AGENT_BIN) on the fake task
// against a scripted model; checks the edit came back and what was reached.
void RunRealCli(const std::string& agent_name, const std::string& exe, bool tools, const Json& config) {
  const char* bin = std::getenv("ARENA_AGENT_BIN");
  if (bin == nullptr || !fs::exists(fs::path(bin) / exe)) {
    GTEST_SKIP() << "skipped: " << exe << " not installed (tools/setup.sh installs it into .venv-agents)";
  }
  // Only the CLI on PATH: a folder with a link to it.
  const std::string path_dir = testing::TempDir() + "/real_cli_bin_" + exe;
  ASSERT_TRUE(ResetDir(path_dir).ok());
  fs::create_symlink(fs::path(bin) / exe, fs::path(path_dir) / exe);
  setenv("PATH", (path_dir + ":/usr/bin:/bin").c_str(), 1);

  ScriptedModel model(tools);
  setenv("OPENAI_API_KEY", "scripted-key", 1);
  setenv("OPENAI_API_BASE", model.base_url().c_str(), 1);

  auto task = LoadTask(kTasksRoot, kTaskYaml);
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  const std::string workspace = testing::TempDir() + "/real_cli_" + exe + "/workspace";
  ASSERT_TRUE(PrepareWorkspace(*task, workspace).ok());
  auto agent = AgentRegistry::Global().Create(agent_name);
  ASSERT_TRUE(agent.ok());
  AgentRequest req;
  req.task = &*task;
  req.workspace = workspace;
  req.prompt = "Make kernel.fake faster.";
  req.time_budget_s = 240;
  req.arena_binary = "tools/arena/arena";
  req.config = config;
  auto out = (*agent)->Run(req);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(out->ok) << out->detail << "\n" << out->transcript;

  std::ifstream edited(workspace + "/kernel.fake");
  const std::string text((std::istreambuf_iterator<char>(edited)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(kEdit), std::string::npos) << text << "\n" << out->transcript;
  EXPECT_GE(model.requests(), 1);
  const std::string connections = out->usage["sandbox"]["connections"].dump();
  std::cout << exe << ": model requests: " << model.requests() << "\nconnections: " << connections << "\n";
  EXPECT_NE(connections.find(model.at() + ": connected"), std::string::npos) << connections;
  for (const auto& c : out->usage["sandbox"]["connections"]) {
    const std::string line = c.get<std::string>();
    if (line.rfind(model.at(), 0) != 0) {
      EXPECT_NE(line.find("refused"), std::string::npos) << "reached something else: " << line;
    }
  }
}

TEST(RealCli, MiniSweAgentEditsTheWorkspaceThroughTheForwarderAlone) {
  setenv("MSWEA_COST_TRACKING", "ignore_errors", 1);
  RunRealCli("mini-swe-agent", "mini", /*tools=*/true,
             {{"model", "openai/scripted"}, {"pass_env", {"MSWEA_COST_TRACKING"}}});
}

TEST(RealCli, AiderEditsTheWorkspaceThroughTheForwarderAlone) {
  RunRealCli("aider", "aider", /*tools=*/false,
             {{"model", "openai/scripted"},
              {"extra_args", {"--no-stream", "--edit-format", "whole", "--analytics-disable"}}});
}

}  // namespace
}  // namespace arena
