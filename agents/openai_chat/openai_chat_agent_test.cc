// Tests of the openai-chat agent against a scripted chat server: a Beast HTTP
// (or HTTPS) server on 127.0.0.1 that answers from a queue of canned
// responses and records every request it received.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agents/openai_chat/http_client.h"
#include "core/agent.h"
#include "core/files.h"
#include "core/run.h"
#include "core/task.h"
#include "core/testing/agent_conformance.h"

namespace arena {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;

const char kTasksRoot[] = "tests/testdata/tasks";
const char kAlphaYaml[] = "tests/testdata/tasks/fake/suite/alpha/task.yaml";
const char kBaselineKernel[] = "compile: ok\ntime_us: 100\n";

// ---------------------------------------------------------------------------
// The scripted server.

struct CannedResponse {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  double delay_s = 0;  // before answering, to provoke client timeouts
};

struct ReceivedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names in lower case
  Json body;
  std::string server_name;  // TLS SNI, when served over TLS
};

class ScriptedServer {
 public:
  // Plain HTTP, or HTTPS with `tls` (which must outlive the server).
  explicit ScriptedServer(std::vector<CannedResponse> script, ssl::context* tls = nullptr)
      : script_(script.begin(), script.end()), tls_(tls), acceptor_(io_) {
    tcp::endpoint local(asio::ip::make_address("127.0.0.1"), 0);
    acceptor_.open(local.protocol());
    acceptor_.bind(local);
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    accept_thread_ = std::thread([this] { AcceptLoop(); });
  }

  ~ScriptedServer() {
    stopping_ = true;
    // Wakes the blocking accept; the loop sees stopping_ and ends.
    asio::io_context io;
    tcp::socket waker(io);
    beast::error_code ignored;
    waker.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ignored);
    accept_thread_.join();
    for (auto& t : connection_threads_) t.join();
  }

  int port() const { return port_; }
  std::string base_url() const {
    return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + "/v1";
  }

  std::vector<ReceivedRequest> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  void AcceptLoop() {
    while (true) {
      auto socket = std::make_shared<tcp::socket>(io_);
      beast::error_code ec;
      acceptor_.accept(*socket, ec);
      if (stopping_) return;
      if (ec) continue;
      // A thread per connection, so a delayed answer does not hold up the next.
      connection_threads_.emplace_back([this, socket] { Serve(std::move(*socket)); });
    }
  }

  void Serve(tcp::socket socket) {
    if (tls_) {
      ssl::stream<tcp::socket> stream(std::move(socket), *tls_);
      beast::error_code ec;
      stream.handshake(ssl::stream_base::server, ec);
      if (ec) return;  // e.g. a client that refused the certificate
      const char* sni = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name);
      Answer(stream, sni ? sni : "");
      // No close_notify: the client has its whole response and hangs up.
      stream.lowest_layer().shutdown(tcp::socket::shutdown_both, ec);
    } else {
      Answer(socket, "");
      beast::error_code ec;
      socket.shutdown(tcp::socket::shutdown_both, ec);
    }
  }

  template <typename Stream>
  void Answer(Stream& stream, const std::string& server_name) {
    beast::flat_buffer buffer;
    http::request<http::string_body> request;
    beast::error_code ec;
    http::read(stream, buffer, request, ec);
    if (ec) return;
    ReceivedRequest received;
    received.method = std::string(request.method_string());
    received.target = std::string(request.target());
    for (const auto& field : request) {
      std::string name(field.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      received.headers[name] = std::string(field.value());
    }
    received.body = Json::parse(request.body(), nullptr, false);
    received.server_name = server_name;
    CannedResponse canned;
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(std::move(received));
      if (script_.empty()) {
        canned.status = 400;
        canned.body = R"({"error": {"message": "scripted server: no response left"}})";
      } else {
        canned = script_.front();
        script_.pop_front();
      }
    }
    if (canned.delay_s > 0) {
      std::this_thread::sleep_for(std::chrono::duration<double>(canned.delay_s));
    }
    http::response<http::string_body> response{static_cast<http::status>(canned.status), 11};
    response.set(http::field::content_type, "application/json");
    for (const auto& [name, value] : canned.headers) response.set(name, value);
    response.body() = canned.body;
    response.keep_alive(false);
    response.prepare_payload();
    http::write(stream, response, ec);
  }

  mutable std::mutex mu_;
  std::deque<CannedResponse> script_;
  std::vector<ReceivedRequest> requests_;
  ssl::context* tls_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread accept_thread_;
  std::vector<std::thread> connection_threads_;  // only the accept thread adds
};

// ---------------------------------------------------------------------------
// Canned chat completions.

struct ScriptedCall {
  std::string id;
  std::string name;
  Json arguments = Json::object();
};

std::string CompletionBody(const Json& message, int64_t total_tokens = 30) {
  const int64_t prompt = total_tokens * 2 / 3;
  return Json{{"id", "chatcmpl-test"},
              {"object", "chat.completion"},
              {"model", "test-model"},
              {"choices",
               {{{"index", 0},
                 {"message", message},
                 {"finish_reason", message.contains("tool_calls") ? "tool_calls" : "stop"}}}},
              {"usage",
               {{"prompt_tokens", prompt},
                {"completion_tokens", total_tokens - prompt},
                {"total_tokens", total_tokens}}}}
      .dump();
}

CannedResponse Says(const std::string& text, int64_t total_tokens = 30) {
  return {200, CompletionBody({{"role", "assistant"}, {"content", text}}, total_tokens)};
}

CannedResponse Calls(const std::vector<ScriptedCall>& calls, int64_t total_tokens = 30) {
  Json tool_calls = Json::array();
  for (const auto& call : calls) {
    tool_calls.push_back(
        {{"id", call.id},
         {"type", "function"},
         {"function", {{"name", call.name}, {"arguments", call.arguments.dump()}}}});
  }
  return {200,
          CompletionBody({{"role", "assistant"}, {"content", nullptr}, {"tool_calls", tool_calls}},
                         total_tokens)};
}

CannedResponse HttpError(int status, const std::string& message,
                         std::vector<std::pair<std::string, std::string>> headers = {}) {
  return {status, Json{{"error", {{"message", message}, {"type", "test"}}}}.dump(),
          std::move(headers)};
}

// The tool message answering `id` in a request's conversation, or null.
Json ToolMessage(const ReceivedRequest& request, const std::string& id) {
  for (const Json& message : request.body["messages"]) {
    if (message.value("role", "") == "tool" && message.value("tool_call_id", "") == id) {
      return message;
    }
  }
  return nullptr;
}

std::string ToolText(const ReceivedRequest& request, const std::string& id) {
  Json message = ToolMessage(request, id);
  return message.is_object() ? message["content"].get<std::string>() : "<no tool message>";
}

// ---------------------------------------------------------------------------
// A self-signed certificate for "localhost", made in memory.

struct TestCertificate {
  std::string cert_pem;
  std::string key_pem;
};

std::string DrainBio(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string text(data, static_cast<size_t>(size));
  BIO_free(bio);
  return text;
}

TestCertificate MakeSelfSignedCertificate() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509_sign(cert, key, EVP_sha256());
  TestCertificate out;
  BIO* cert_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cert_bio, cert);
  out.cert_pem = DrainBio(cert_bio);
  BIO* key_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(key_bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  out.key_pem = DrainBio(key_bio);
  X509_free(cert);
  EVP_PKEY_free(key);
  return out;
}

// ---------------------------------------------------------------------------
// The fixture: the fake task's workspace under a folder of the test's own.

class OpenAiChatAgentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto task = LoadTask(kTasksRoot, kAlphaYaml);
    ASSERT_TRUE(task.ok()) << task.status().ToString();
    task_ = *task;
    root_ = testing::TempDir() + "/openai_chat_" +
            testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(root_).ok());
    workspace_ = root_ + "/workspace";
    ASSERT_TRUE(PrepareWorkspace(task_, workspace_).ok());
  }

  // The config every test starts from: fast retries, no key.
  static Json ConfigFor(const ScriptedServer& server) {
    return {{"base_url", server.base_url()},
            {"model", "test-model"},
            {"api_key_env", "ARENA_TEST_OPENAI_KEY"},
            {"retry_initial_delay_s", 0.01}};
  }

  Result<AgentOutcome> RunAgent(const Json& config, FeedbackFn feedback = nullptr,
                                double time_budget_s = 60) {
    auto agent = AgentRegistry::Global().Create("openai-chat");
    if (!agent.ok()) return agent.status();
    AgentRequest request;
    request.task = &task_;
    request.workspace = workspace_;
    request.config = config;
    request.time_budget_s = time_budget_s;
    request.prompt = "Make kernel.fake faster.";
    request.feedback = std::move(feedback);
    return (*agent)->Run(request);
  }

  std::string Kernel() const {
    auto text = ReadFile(workspace_ + "/kernel.fake");
    return text.ok() ? *text : "<unreadable>";
  }

  TaskSpec task_;
  std::string root_;
  std::string workspace_;
};

// ---------------------------------------------------------------------------
// The loop.

TEST_F(OpenAiChatAgentTest, ExecutesToolCallsAndFeedsTheResultsBack) {
  const std::string faster = "compile: ok\ntime_us: 40\n";
  ScriptedServer server({
      Calls({{"call_list", "list_files"}, {"call_read", "read_file", {{"path", "kernel.fake"}}}}),
      Calls({{"call_write", "write_file", {{"path", "kernel.fake"}, {"content", faster}}}}),
      Calls({{"call_feedback", "run_feedback"}}),
      Says("done"),
  });
  std::string kernel_seen_by_feedback;
  FeedbackFn feedback = [&](const FeedbackOptions&) -> Result<FeedbackReport> {
    kernel_seen_by_feedback = Kernel();
    FeedbackReport report;
    report.compiled = report.correct = true;
    report.speedup = 2.5;
    report.text = "correct on t1, t2; speedup 2.50x";
    return report;
  };

  auto outcome = RunAgent(ConfigFor(server), feedback);
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_EQ(Kernel(), faster);
  EXPECT_EQ(outcome->feedback_calls, 1);
  EXPECT_EQ(kernel_seen_by_feedback, faster) << "feedback must see the written file";

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  const ReceivedRequest& first = requests[0];
  EXPECT_EQ(first.method, "POST");
  EXPECT_EQ(first.target, "/v1/chat/completions");
  EXPECT_EQ(first.body["model"], "test-model");
  ASSERT_EQ(first.body["messages"].size(), 2u);
  EXPECT_EQ(first.body["messages"][0]["role"], "system");
  EXPECT_EQ(first.body["messages"][1]["role"], "user");
  EXPECT_EQ(first.body["messages"][1]["content"], "Make kernel.fake faster.");
  std::set<std::string> offered;
  for (const Json& tool : first.body["tools"]) {
    EXPECT_EQ(tool["type"], "function");
    offered.insert(tool["function"]["name"].get<std::string>());
  }
  EXPECT_EQ(offered,
            (std::set<std::string>{"list_files", "read_file", "write_file", "run_feedback"}));

  // Both calls of turn 1 answered in turn 2's request, with their ids.
  const std::string listing = ToolText(requests[1], "call_list");
  EXPECT_NE(listing.find("kernel.fake"), std::string::npos) << listing;
  EXPECT_NE(listing.find("editable"), std::string::npos) << listing;
  EXPECT_NE(listing.find("INSTRUCTIONS.md"), std::string::npos) << listing;
  EXPECT_EQ(ToolText(requests[1], "call_read"), kBaselineKernel);
  // The assistant's tool calls are echoed before their results.
  const Json& history = requests[1].body["messages"];
  ASSERT_EQ(history.size(), 5u);
  EXPECT_EQ(history[2]["role"], "assistant");
  EXPECT_EQ(history[2]["tool_calls"].size(), 2u);
  EXPECT_EQ(history[3]["tool_call_id"], "call_list");
  EXPECT_EQ(history[4]["tool_call_id"], "call_read");

  EXPECT_NE(ToolText(requests[2], "call_write").find("wrote"), std::string::npos);
  EXPECT_EQ(ToolText(requests[3], "call_feedback"), "correct on t1, t2; speedup 2.50x");

  EXPECT_EQ(outcome->usage["requests"], 4);
  EXPECT_EQ(outcome->usage["retries"], 0);
  EXPECT_EQ(outcome->usage["total_tokens"], 4 * 30);
  EXPECT_EQ(outcome->usage["prompt_tokens"], 4 * 20);
  EXPECT_EQ(outcome->usage["completion_tokens"], 4 * 10);
  EXPECT_GT(outcome->wall_s, 0);
  for (const char* expected : {"== system ==", "list_files", "read_file", "write_file",
                               "run_feedback", "speedup 2.50x", "done"}) {
    EXPECT_NE(outcome->transcript.find(expected), std::string::npos)
        << expected << " missing from the transcript:\n"
        << outcome->transcript;
  }
}

TEST_F(OpenAiChatAgentTest, FeedbackOptionsReachTheArenaAndBadOnesAreRefused) {
  ScriptedServer server({
      Calls({{"quick", "run_feedback", {{"configs", {"t1"}}, {"check_only", true}}}}),
      Calls({{"bad", "run_feedback", {{"configs", "t1"}}}}),
      Says("done"),
  });
  std::vector<FeedbackOptions> asked;
  FeedbackFn feedback = [&](const FeedbackOptions& o) -> Result<FeedbackReport> {
    asked.push_back(o);
    FeedbackReport report;
    report.compiled = report.correct = true;
    report.text = "t1: correct, not timed";
    return report;
  };
  auto outcome = RunAgent(ConfigFor(server), feedback);
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  ASSERT_EQ(asked.size(), 1u) << "the malformed call must not reach the arena";
  EXPECT_EQ(asked[0].configs, (std::vector<std::string>{"t1"}));
  EXPECT_TRUE(asked[0].check_only);
  EXPECT_EQ(outcome->feedback_calls, 1);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(ToolText(requests[1], "quick"), "t1: correct, not timed");
  EXPECT_NE(ToolText(requests[2], "bad").find("configs"), std::string::npos)
      << ToolText(requests[2], "bad");
  const Json& params = requests[0].body["tools"][3]["function"]["parameters"]["properties"];
  EXPECT_TRUE(params.contains("configs") && params.contains("check_only")) << params.dump();
}

TEST_F(OpenAiChatAgentTest, FeedbackIsOfferedOnlyWhenTheRequestCarriesIt) {
  ScriptedServer server({Calls({{"c1", "run_feedback"}}), Says("done")});
  auto outcome = RunAgent(ConfigFor(server), /*feedback=*/nullptr);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  for (const Json& tool : requests[0].body["tools"]) {
    EXPECT_NE(tool["function"]["name"], "run_feedback");
  }
  EXPECT_NE(ToolText(requests[1], "c1").find("error: there is no tool named"), std::string::npos);
  EXPECT_EQ(outcome->feedback_calls, 0);
}

TEST_F(OpenAiChatAgentTest, BadToolArgumentsAreReportedToTheModel) {
  CannedResponse garbled = Calls({{"c1", "read_file"}});
  Json body = Json::parse(garbled.body);
  body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{not json";
  garbled.body = body.dump();
  ScriptedServer server({garbled, Calls({{"c2", "read_file", {{"path", 7}}}}), Says("done")});
  auto outcome = RunAgent(ConfigFor(server));
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(ToolText(requests[1], "c1").find("not valid JSON"), std::string::npos);
  EXPECT_NE(ToolText(requests[2], "c2").find("'path' (a string) is required"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Retries.

TEST_F(OpenAiChatAgentTest, RetriesA503) {
  ScriptedServer server({HttpError(503, "overloaded"), Says("done")});
  auto outcome = RunAgent(ConfigFor(server));
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_EQ(outcome->usage["retries"], 1);
  EXPECT_EQ(outcome->usage["requests"], 1);
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_NE(outcome->transcript.find("HTTP 503"), std::string::npos) << outcome->transcript;
}

TEST_F(OpenAiChatAgentTest, RetriesA429AfterRetryAfter) {
  ScriptedServer server({HttpError(429, "slow down", {{"Retry-After", "0"}}), Says("done")});
  Json config = ConfigFor(server);
  config["retry_initial_delay_s"] = 30;  // Retry-After: 0 must win over this
  const auto started = std::chrono::steady_clock::now();
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_EQ(outcome->usage["retries"], 1);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 20);
}

TEST_F(OpenAiChatAgentTest, GivesUpAfterMaxRetries) {
  ScriptedServer server(
      {HttpError(500, "boom"), HttpError(502, "boom"), HttpError(503, "still boom")});
  Json config = ConfigFor(server);
  config["max_retries"] = 2;
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->detail.find("gave up after 2 retries"), std::string::npos) << outcome->detail;
  EXPECT_NE(outcome->detail.find("still boom"), std::string::npos) << outcome->detail;
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(outcome->usage["retries"], 2);
}

TEST_F(OpenAiChatAgentTest, AClientErrorEndsTheRunWithTheServersMessage) {
  ScriptedServer server({HttpError(400, "model 'test-model' does not exist"), Says("never sent")});
  auto outcome = RunAgent(ConfigFor(server));
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->detail.find("HTTP 400"), std::string::npos) << outcome->detail;
  EXPECT_NE(outcome->detail.find("model 'test-model' does not exist"), std::string::npos)
      << outcome->detail;
  EXPECT_EQ(server.requests().size(), 1u) << "a 4xx other than 429 is not retried";
  EXPECT_EQ(outcome->usage["retries"], 0);
}

TEST_F(OpenAiChatAgentTest, ARefusedConnectionIsRetriedThenReported) {
  int port = 0;
  {
    // A port nothing listens on: bound, then released.
    asio::io_context io;
    tcp::acceptor probe(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    port = probe.local_endpoint().port();
  }
  Json config = {{"base_url", "http://127.0.0.1:" + std::to_string(port) + "/v1"},
                 {"model", "m"},
                 {"max_retries", 1},
                 {"retry_initial_delay_s", 0.01}};
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->detail.find("gave up after 1 retries"), std::string::npos) << outcome->detail;
  EXPECT_NE(outcome->detail.find("connecting to"), std::string::npos) << outcome->detail;
  EXPECT_EQ(outcome->usage["retries"], 1);
}

TEST_F(OpenAiChatAgentTest, ARequestTimeoutIsRetried) {
  CannedResponse slow = Says("too late");
  slow.delay_s = 1.5;
  ScriptedServer server({slow, Says("done")});
  Json config = ConfigFor(server);
  config["request_timeout_s"] = 0.3;
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_EQ(outcome->usage["retries"], 1);
  EXPECT_NE(outcome->transcript.find("no answer from"), std::string::npos) << outcome->transcript;
}

// ---------------------------------------------------------------------------
// Budgets: a budget running out ends the run with ok = true (the files as they
// stand are evaluated) and says which budget it was.

std::vector<CannedResponse> EndlessListing(int n, int64_t tokens_each = 30) {
  std::vector<CannedResponse> script;
  for (int i = 0; i < n; ++i) {
    script.push_back(Calls({{"call_" + std::to_string(i), "list_files"}}, tokens_each));
  }
  return script;
}

TEST_F(OpenAiChatAgentTest, StopsAtMaxTurns) {
  ScriptedServer server(EndlessListing(10));
  Json config = ConfigFor(server);
  config["max_turns"] = 3;
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_NE(outcome->detail.find("max_turns (3) reached"), std::string::npos) << outcome->detail;
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(outcome->usage["requests"], 3);
  EXPECT_NE(outcome->transcript.find("[call_2]"), std::string::npos)
      << "the last turn's tool calls still run";
}

TEST_F(OpenAiChatAgentTest, StopsAtTheTokenBudget) {
  ScriptedServer server(EndlessListing(10, /*tokens_each=*/60));
  Json config = ConfigFor(server);
  config["max_tokens_total"] = 100;
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_NE(outcome->detail.find("max_tokens_total (100) reached"), std::string::npos)
      << outcome->detail;
  // 60 after the first reply is under the budget; 120 after the second is not.
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(outcome->usage["total_tokens"], 120);
}

TEST_F(OpenAiChatAgentTest, StopsAtTheTimeBudgetInsteadOfWaitingToRetry) {
  ScriptedServer server({HttpError(503, "busy", {{"Retry-After", "120"}}), Says("done")});
  const auto started = std::chrono::steady_clock::now();
  auto outcome = RunAgent(ConfigFor(server), nullptr, /*time_budget_s=*/2);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  EXPECT_NE(outcome->detail.find("time budget"), std::string::npos) << outcome->detail;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 10);
  EXPECT_EQ(server.requests().size(), 1u);
}

// ---------------------------------------------------------------------------
// Confinement.

TEST_F(OpenAiChatAgentTest, FileToolsStayInsideTheWorkspace) {
  ASSERT_TRUE(WriteFileAtomic(root_ + "/outside.txt", "secret\n").ok());
  fs::create_symlink(root_ + "/outside.txt", workspace_ + "/link.txt");
  ScriptedServer server({
      Calls({
          {"up", "write_file", {{"path", "../x"}, {"content", "escaped"}}},
          {"harness", "write_file", {{"path", "reference.txt"}, {"content", "forged"}}},
          {"absolute", "write_file", {{"path", root_ + "/abs"}, {"content", "escaped"}}},
          {"instructions", "write_file", {{"path", "INSTRUCTIONS.md"}, {"content", "x"}}},
          {"read_up", "read_file", {{"path", "../outside.txt"}}},
          {"read_link", "read_file", {{"path", "link.txt"}}},
          {"read_abs", "read_file", {{"path", root_ + "/outside.txt"}}},
          {"dot", "write_file", {{"path", "./kernel.fake"}, {"content", "compile: ok\n"}}},
      }),
      Says("done"),
  });
  auto outcome = RunAgent(ConfigFor(server));
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::map<std::string, std::string> why = {
      {"up", "leaves the workspace"},      {"harness", "is not editable"},
      {"absolute", "is absolute"},         {"instructions", "is not editable"},
      {"read_up", "leaves the workspace"}, {"read_link", "symbolic link"},
      {"read_abs", "is absolute"},
  };
  for (const auto& [id, reason] : why) {
    const std::string text = ToolText(requests[1], id);
    EXPECT_EQ(text.rfind("error: ", 0), 0u) << id << ": " << text;
    EXPECT_NE(text.find(reason), std::string::npos) << id << ": " << text;
  }
  EXPECT_NE(ToolText(requests[1], "harness").find("kernel.fake"), std::string::npos)
      << "a refusal names the files that may be written";
  EXPECT_EQ(ToolText(requests[1], "dot").rfind("wrote", 0), 0u);
  EXPECT_EQ(Kernel(), "compile: ok\n");

  // Nothing written outside, nor beside the editable file.
  std::set<std::string> beside_workspace;
  for (const auto& entry : fs::directory_iterator(root_)) {
    beside_workspace.insert(entry.path().filename().string());
  }
  EXPECT_EQ(beside_workspace, (std::set<std::string>{"workspace", "outside.txt"}));
  EXPECT_EQ(*ReadFile(root_ + "/outside.txt"), "secret\n");
  EXPECT_FALSE(fs::exists(workspace_ + "/reference.txt"));
  EXPECT_NE(*ReadFile(workspace_ + "/INSTRUCTIONS.md"), "x");
}

TEST_F(OpenAiChatAgentTest, AnEditableFileReplacedByALinkIsNotWrittenThrough) {
  ASSERT_TRUE(WriteFileAtomic(root_ + "/outside.txt", "secret\n").ok());
  fs::remove(workspace_ + "/kernel.fake");
  fs::create_symlink(root_ + "/outside.txt", workspace_ + "/kernel.fake");
  ScriptedServer server({
      Calls({{"w", "write_file", {{"path", "kernel.fake"}, {"content", "overwritten"}}}}),
      Says("done"),
  });
  auto outcome = RunAgent(ConfigFor(server));
  ASSERT_TRUE(outcome.ok());
  EXPECT_NE(ToolText(server.requests()[1], "w").find("symbolic link"), std::string::npos);
  EXPECT_EQ(*ReadFile(root_ + "/outside.txt"), "secret\n");
  EXPECT_TRUE(fs::is_symlink(workspace_ + "/kernel.fake"));
}

// ---------------------------------------------------------------------------
// Authorization.

TEST_F(OpenAiChatAgentTest, SendsTheKeyOnlyWhenItsVariableIsSet) {
  ScriptedServer server({Says("done"), Says("done")});
  ASSERT_EQ(setenv("ARENA_TEST_OPENAI_KEY", "sk-test-123", 1), 0);
  auto with_key = RunAgent(ConfigFor(server));
  ASSERT_EQ(unsetenv("ARENA_TEST_OPENAI_KEY"), 0);
  auto without_key = RunAgent(ConfigFor(server));
  ASSERT_TRUE(with_key.ok() && without_key.ok());
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].headers["authorization"], "Bearer sk-test-123");
  EXPECT_EQ(requests[1].headers.count("authorization"), 0u);
  EXPECT_EQ(with_key->transcript.find("sk-test-123"), std::string::npos)
      << "the key must not reach the transcript";
}

// ---------------------------------------------------------------------------
// HTTPS.

class TlsServerContext {
 public:
  TlsServerContext() : context_(ssl::context::tls_server) {
    TestCertificate certificate = MakeSelfSignedCertificate();
    context_.use_certificate_chain(asio::buffer(certificate.cert_pem));
    context_.use_private_key(asio::buffer(certificate.key_pem), ssl::context::pem);
  }
  ssl::context* get() { return &context_; }

 private:
  ssl::context context_;
};

TEST_F(OpenAiChatAgentTest, InsecureAcceptsASelfSignedCertificateAndSendsSni) {
  TlsServerContext tls;
  ScriptedServer server({Says("done")}, tls.get());
  Json config = ConfigFor(server);
  config["base_url"] = "https://localhost:" + std::to_string(server.port()) + "/v1";
  config["insecure"] = true;
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->ok) << outcome->detail;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].server_name, "localhost");
  EXPECT_EQ(requests[0].target, "/v1/chat/completions");
}

TEST_F(OpenAiChatAgentTest, CertificatesAreVerifiedByDefault) {
  TlsServerContext tls;
  ScriptedServer server({Says("done")}, tls.get());
  Json config = ConfigFor(server);
  config["base_url"] = "https://localhost:" + std::to_string(server.port()) + "/v1";
  auto outcome = RunAgent(config);
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->detail.find("TLS handshake"), std::string::npos) << outcome->detail;
  EXPECT_NE(outcome->detail.find("certificate"), std::string::npos) << outcome->detail;
  EXPECT_EQ(outcome->usage["retries"], 0) << "an untrusted certificate is not retried";
  EXPECT_TRUE(server.requests().empty());
}

// ---------------------------------------------------------------------------
// Configuration and URLs.

TEST_F(OpenAiChatAgentTest, RefusesABadConfig) {
  for (const Json& config :
       {Json{{"model", "m"}}, Json{{"base_url", "http://127.0.0.1:1/v1"}},
        Json{{"base_url", "ftp://x/v1"}, {"model", "m"}},
        Json{{"base_url", "http://x/v1"}, {"model", "m"}, {"max_turn", 3}},
        Json{{"base_url", "http://x/v1"}, {"model", "m"}, {"max_turns", 0}},
        Json{{"base_url", "http://x/v1"}, {"model", "m"}, {"insecure", "yes"}}}) {
    auto outcome = RunAgent(config);
    ASSERT_FALSE(outcome.ok()) << config.dump();
    EXPECT_EQ(outcome.status().code(), StatusCode::kInvalidArgument) << config.dump();
  }
}

TEST(ParseBaseUrl, DecodesSchemeHostPortAndPath) {
  auto local = ParseBaseUrl("http://127.0.0.1:8000/v1/");
  ASSERT_TRUE(local.ok());
  EXPECT_FALSE(local->tls);
  EXPECT_EQ(local->host, "127.0.0.1");
  EXPECT_EQ(local->port, "8000");
  EXPECT_EQ(local->host_header, "127.0.0.1:8000");
  EXPECT_EQ(local->path_prefix, "/v1");

  auto openai = ParseBaseUrl("https://api.openai.com/v1");
  ASSERT_TRUE(openai.ok());
  EXPECT_TRUE(openai->tls);
  EXPECT_EQ(openai->port, "443");
  EXPECT_EQ(openai->host_header, "api.openai.com");

  auto v6 = ParseBaseUrl("http://[::1]:11434");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, "11434");
  EXPECT_EQ(v6->path_prefix, "");

  for (const char* bad : {"127.0.0.1:8000", "http://", "http://h:0/", "http://h:99999/",
                          "http://user@h/", "http://h/v1?x=1", "http://[::1/"}) {
    EXPECT_FALSE(ParseBaseUrl(bad).ok()) << bad;
  }
}

// ---------------------------------------------------------------------------
// The conformance kit.

TEST(OpenAiChatAgent, Conformance) {
  ScriptedServer server({Says("done")});
  Json config = {{"base_url", server.base_url()}, {"model", "test-model"}};
  AgentConformanceResult r = RunAgentConformance("openai-chat", config);
  EXPECT_TRUE(r.outcome.ok) << r.outcome.detail;
  EXPECT_EQ(*ReadFile(r.workspace + "/kernel.fake"), kBaselineKernel);
  EXPECT_EQ(r.outcome.usage["requests"], 1);
  EXPECT_EQ(server.requests().size(), 1u);
}

}  // namespace
}  // namespace arena
