// For tests: a listening TCP socket on 127.0.0.1 at a port the kernel
// picks (a stand-in server for agents and forwarders).
#ifndef ARENA_CORE_TESTING_LOOPBACK_H_
#define ARENA_CORE_TESTING_LOOPBACK_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

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

}  // namespace arena::testing_support

#endif  // ARENA_CORE_TESTING_LOOPBACK_H_
