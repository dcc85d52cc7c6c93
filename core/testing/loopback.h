// For tests: a listening TCP socket on 127.0.0.1 at a port the kernel
// picks (a stand-in server for agents and forwarders).
#ifndef ARENA_CORE_TESTING_LOOPBACK_H_
#define ARENA_CORE_TESTING_LOOPBACK_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

namespace arena::testing_support {

// The listening socket (or -1), its port in *port.
inline int ListenOnLoopback(int* port, int backlog = 16) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0 || listen(fd, backlog) != 0) {
    return -1;
  }
  *port = ntohs(a.sin_port);
  return fd;
}

// A server on 127.0.0.1 that answers each connection's first bytes with
// "echo:" and them, then closes it.
class EchoServer {
 public:
  EchoServer() : fd_(ListenOnLoopback(&port_)) {
    thread_ = std::thread([this] {
      for (int c; fd_ >= 0 && (c = accept(fd_, nullptr, nullptr)) >= 0; close(c)) {
        char buf[4096];
        const ssize_t r = recv(c, buf, sizeof(buf), 0);
        const std::string reply = "echo:" + (r > 0 ? std::string(buf, static_cast<size_t>(r)) : "");
        send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
      }
    });
  }
  ~EchoServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  int port() const { return port_; }
  std::string at() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  int port_ = 0;
  int fd_;
  std::thread thread_;
};

}  // namespace arena::testing_support

#endif  // ARENA_CORE_TESTING_LOOPBACK_H_
