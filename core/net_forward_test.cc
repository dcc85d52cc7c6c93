#include "core/net_forward.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <vector>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core/testing/loopback.h"

namespace arena {
namespace {

TEST(ParseEndpoint, HostsPortsAndUrls) {
  auto e = ParseEndpoint("api.openai.com:443");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "api.openai.com");
  EXPECT_EQ(e->port, 443);
  e = ParseEndpoint("https://api.anthropic.com/v1/messages");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->ToString(), "api.anthropic.com:443");
  e = ParseEndpoint("http://user:pw@127.0.0.1:8000/v1");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->ToString(), "127.0.0.1:8000");
  e = ParseEndpoint("[::1]:9000");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "::1");
  for (const char* bad : {"", "host", "host:", "host:99999", "host:8x", "ftp://h/", ":80", "a b:1"}) {
    EXPECT_FALSE(ParseEndpoint(bad).ok()) << bad;
  }
}

using testing_support::EchoServer;

int FreePort() {
  int port = 0;
  close(testing_support::ListenOnLoopback(&port));
  return port;
}

// Sends `request` to the proxy and returns all it answers.
std::string Ask(int proxy_port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(proxy_port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int i = 0; i < 100 && connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0; ++i) usleep(20000);
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string all;
  char buf[4096];
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  for (ssize_t r; (r = recv(fd, buf, sizeof(buf), 0)) > 0;) all.append(buf, static_cast<size_t>(r));
  close(fd);
  return all;
}

class Forward : public ::testing::Test {
 protected:
  void SetUp() override {
    // A socket's path holds at most 107 bytes: not under the test's folder.
    socket_ = "/tmp/arena-net-test-" + std::to_string(getpid()) + ".sock";
    auto f = EndpointForwarder::Start(socket_, {{"127.0.0.1", server_.port()}});
    ASSERT_TRUE(f.ok()) << f.status().message();
    forwarder_ = std::move(*f);
    proxy_port_ = FreePort();
    proxy_ = fork();
    if (proxy_ == 0) {
      (void)ForwardProxy("127.0.0.1:" + std::to_string(proxy_port_), socket_, /*daemon=*/false);
      _exit(1);
    }
  }
  void TearDown() override {
    kill(proxy_, SIGKILL);
    waitpid(proxy_, nullptr, 0);
  }

  EchoServer server_;
  std::string socket_;
  std::unique_ptr<EndpointForwarder> forwarder_;
  int proxy_port_ = 0;
  pid_t proxy_ = -1;
};

TEST_F(Forward, ATunnelReachesTheAllowedEndpoint) {
  const std::string target = "127.0.0.1:" + std::to_string(server_.port());
  const std::string got = Ask(proxy_port_, "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\nhello");
  EXPECT_EQ(got.rfind("HTTP/1.1 200", 0), 0u) << got;
  EXPECT_NE(got.find("echo:hello"), std::string::npos) << got;
  bool logged = false;
  for (int i = 0; i < 100 && !logged; ++i, usleep(20000)) {
    for (const auto& l : forwarder_->Log()) logged |= l.find(target + ": connected") == 0;
  }
  EXPECT_TRUE(logged);
}

TEST_F(Forward, PlainHttpGoesToTheServerInOriginForm) {
  const std::string got = Ask(proxy_port_, "POST http://127.0.0.1:" + std::to_string(server_.port()) +
                                               "/v1/chat/completions HTTP/1.1\r\nHost: x\r\n\r\n{}");
  EXPECT_NE(got.find("echo:POST /v1/chat/completions HTTP/1.1\r\nHost: x"), std::string::npos) << got;
}

TEST_F(Forward, EverythingElseIsRefused) {
  const int other = FreePort();
  std::string got = Ask(proxy_port_, "CONNECT 127.0.0.1:" + std::to_string(other) + " HTTP/1.1\r\n\r\n");
  EXPECT_EQ(got.rfind("HTTP/1.1 403", 0), 0u) << got;
  EXPECT_NE(got.find("not an endpoint this agent may reach"), std::string::npos) << got;
  got = Ask(proxy_port_, "CONNECT localhost:" + std::to_string(server_.port()) + " HTTP/1.1\r\n\r\n");
  EXPECT_EQ(got.rfind("HTTP/1.1 403", 0), 0u) << "another name for the host is another endpoint: " << got;
  got = Ask(proxy_port_, "GET /relative HTTP/1.1\r\n\r\n");
  EXPECT_EQ(got.rfind("HTTP/1.1 400", 0), 0u) << got;
  got = Ask(proxy_port_, "garbage\r\n\r\n");
  EXPECT_EQ(got.rfind("HTTP/1.1 400", 0), 0u) << got;
  bool refused = false;
  for (const auto& l : forwarder_->Log()) refused |= l.find("refused") != std::string::npos;
  EXPECT_TRUE(refused);
}

TEST(EndpointForwarder, AnInsideHalfCannotAskForAnotherHost) {
  // The outside half enforces the list itself: the inside one runs in the
  // agent's sandbox and may be replaced by the agent.
  EchoServer server;
  const std::string path = "/tmp/arena-net-direct-" + std::to_string(getpid()) + ".sock";
  auto f = EndpointForwarder::Start(path, {{"127.0.0.1", server.port() + 1}});
  ASSERT_TRUE(f.ok());
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strcpy(a.sun_path, path.c_str());
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  const std::string ask = "CONNECT 127.0.0.1:" + std::to_string(server.port()) + "\n";
  send(fd, ask.data(), ask.size(), 0);
  char buf[256];
  const ssize_t r = recv(fd, buf, sizeof(buf), 0);
  ASSERT_GT(r, 0);
  EXPECT_EQ(std::string(buf, static_cast<size_t>(r)).rfind("DENIED", 0), 0u);
  close(fd);
}

TEST(EndpointForwarder, ConnectionsAreBoundedAndEndWithIt) {
  // An agent holding many connections open cannot make the arena hold a
  // thread for each; when the agent is done, every connection ends at once.
  const std::string path = "/tmp/arena-net-many-" + std::to_string(getpid()) + ".sock";
  auto f = EndpointForwarder::Start(path, {{"127.0.0.1", 9}});
  ASSERT_TRUE(f.ok());
  std::vector<int> fds;
  for (int i = 0; i < 70; ++i) {
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strcpy(a.sun_path, path.c_str());
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    fds.push_back(fd);
  }
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i, usleep(20000)) {
    for (const auto& l : (*f)->Log()) refused |= l.find("connections at once") != std::string::npos;
  }
  EXPECT_TRUE(refused);
  const auto t0 = std::chrono::steady_clock::now();
  f->reset();  // 64 connections still wait for their first line
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  for (int fd : fds) close(fd);
}

}  // namespace
}  // namespace arena
