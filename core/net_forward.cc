#include "core/net_forward.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

namespace arena {
namespace {

constexpr size_t kMaxHead = 64 << 10;

void WriteAll(int fd, const char* data, size_t n) {
  size_t at = 0;
  while (at < n) {
    const ssize_t w = send(fd, data + at, n - at, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    at += static_cast<size_t>(w);
  }
}

void WriteAll(int fd, const std::string& data) { WriteAll(fd, data.data(), data.size()); }

// Reads until `end` appears (kept in *buffer with what followed it), at most
// `max` bytes, waiting at most `timeout_ms` for each read.
bool ReadUntil(int fd, const std::string& end, size_t max, int timeout_ms, std::string* buffer) {
  while (buffer->find(end) == std::string::npos) {
    if (buffer->size() > max) return false;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    char chunk[4096];
    const ssize_t r = recv(fd, chunk, sizeof(chunk), 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    buffer->append(chunk, static_cast<size_t>(r));
  }
  return true;
}

// Copies bytes both ways until both sides are done; counts them.
void Pipe(int a, int b, size_t* a_to_b, size_t* b_to_a) {
  bool a_open = true, b_open = true;
  char buf[1 << 15];
  while (a_open || b_open) {
    pollfd p[2] = {{a, static_cast<short>(a_open ? POLLIN : 0), 0}, {b, static_cast<short>(b_open ? POLLIN : 0), 0}};
    if (poll(p, 2, 600000) <= 0) return;  // ten idle minutes
    for (int side = 0; side < 2; ++side) {
      if (!(p[side].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const int from = side == 0 ? a : b, to = side == 0 ? b : a;
      const ssize_t r = recv(from, buf, sizeof(buf), 0);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        (side == 0 ? a_open : b_open) = false;
        shutdown(to, SHUT_WR);
        continue;
      }
      WriteAll(to, buf, static_cast<size_t>(r));
      *(side == 0 ? a_to_b : b_to_a) += static_cast<size_t>(r);
    }
  }
}

Result<int> DialTcp(const Endpoint& e) {
  addrinfo hints{}, *res = nullptr;
  hints.ai_socktype = SOCK_STREAM;
  if (int rc = getaddrinfo(e.host.c_str(), std::to_string(e.port).c_str(), &hints, &res); rc != 0) {
    return Unavailable(e.ToString() + ": " + gai_strerror(rc));
  }
  int fd = -1;
  std::string why = "no address";
  for (addrinfo* ai = res; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
      why = std::strerror(errno);
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) return Unavailable(e.ToString() + ": " + why);
  return fd;
}

Result<int> DialUnix(const std::string& path) {
  sockaddr_un addr{};
  if (path.size() >= sizeof(addr.sun_path)) return InvalidArgument("socket path too long: " + path);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Internal(std::string("socket: ") + std::strerror(errno));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    const std::string why = std::strerror(errno);
    close(fd);
    return Unavailable("the arena's forwarder at " + path + ": " + why);
  }
  return fd;
}

// The inside half's way out: a connection to `e` through the forwarder, or
// why not.
Result<int> Through(const std::string& socket_path, const Endpoint& e) {
  ARENA_ASSIGN_OR_RETURN(int fd, DialUnix(socket_path));
  WriteAll(fd, "CONNECT " + e.ToString() + "\n");
  std::string reply;
  if (!ReadUntil(fd, "\n", 512, 30000, &reply) || reply.rfind("OK\n", 0) != 0) {
    close(fd);
    return FailedPrecondition(reply.empty() ? "no answer from the arena's forwarder"
                                            : reply.substr(0, reply.find('\n')));
  }
  return fd;
}

void ServeProxyClient(int client, const std::string& socket_path) {
  std::string head;
  if (!ReadUntil(client, "\r\n\r\n", kMaxHead, 30000, &head)) {
    close(client);
    return;
  }
  const size_t eol = head.find("\r\n");
  const std::string line = head.substr(0, eol);
  const size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
  auto refuse = [&](const std::string& status, const std::string& why) {
    WriteAll(client, "HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: " +
                         std::to_string(why.size() + 1) + "\r\nConnection: close\r\n\r\n" + why + "\n");
    close(client);
  };
  if (sp1 == std::string::npos || sp2 == sp1) return refuse("400 Bad Request", "not an HTTP request");
  const std::string method = line.substr(0, sp1), target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const bool tunnel = method == "CONNECT";
  auto endpoint = ParseEndpoint(target);
  if (!endpoint.ok() || (!tunnel && target.rfind("http://", 0) != 0)) {
    return refuse("400 Bad Request", "the proxy takes CONNECT host:port or http:// URLs");
  }
  auto out = Through(socket_path, *endpoint);
  if (!out.ok()) return refuse("403 Forbidden", out.status().message());
  size_t sent = 0, received = 0;
  if (tunnel) {
    WriteAll(client, "HTTP/1.1 200 Connection established\r\n\r\n");
    WriteAll(*out, head.substr(head.find("\r\n\r\n") + 4));
  } else {
    // Origin form for the server: the path of the URL.
    const size_t path = target.find('/', 7);
    WriteAll(*out, method + " " + (path == std::string::npos ? "/" : target.substr(path)) +
                       line.substr(sp2) + head.substr(eol));
  }
  Pipe(client, *out, &sent, &received);
  close(*out);
  close(client);
}

}  // namespace

Result<Endpoint> ParseEndpoint(const std::string& text) {
  std::string rest = text;
  int port = 0;
  if (const size_t scheme = rest.find("://"); scheme != std::string::npos) {
    const std::string name = rest.substr(0, scheme);
    if (name == "https") port = 443;
    else if (name == "http") port = 80;
    else return InvalidArgument("'" + text + "': not an http or https URL");
    rest = rest.substr(scheme + 3);
    rest = rest.substr(0, rest.find_first_of("/?#"));
    if (const size_t at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
  }
  Endpoint e;
  size_t colon = std::string::npos;
  if (!rest.empty() && rest[0] == '[') {
    const size_t close_bracket = rest.find(']');
    if (close_bracket == std::string::npos) return InvalidArgument("'" + text + "': unclosed [");
    e.host = rest.substr(1, close_bracket - 1);
    if (close_bracket + 1 < rest.size() && rest[close_bracket + 1] == ':') colon = close_bracket + 1;
  } else {
    colon = rest.rfind(':');
    e.host = rest.substr(0, colon);
  }
  if (colon != std::string::npos) {
    const std::string p = rest.substr(colon + 1);
    if (p.empty() || p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos) {
      return InvalidArgument("'" + text + "': bad port");
    }
    port = std::stoi(p);
  }
  if (e.host.empty() || port <= 0 || port > 65535) return InvalidArgument("'" + text + "': needs host:port");
  if (e.host.find_first_of(" /\r\n") != std::string::npos) return InvalidArgument("'" + text + "': bad host");
  e.port = port;
  return e;
}

Result<std::unique_ptr<EndpointForwarder>> EndpointForwarder::Start(const std::string& socket_path,
                                                                    std::vector<Endpoint> allowed) {
  std::unique_ptr<EndpointForwarder> f(new EndpointForwarder);
  f->path_ = socket_path;
  f->allowed_ = std::move(allowed);
  sockaddr_un addr{};
  if (socket_path.size() >= sizeof(addr.sun_path)) return InvalidArgument("socket path too long: " + socket_path);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  unlink(socket_path.c_str());
  f->listener_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (f->listener_ < 0 || bind(f->listener_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      chmod(socket_path.c_str(), 0600) != 0 || listen(f->listener_, 64) != 0 || pipe2(f->wake_, O_CLOEXEC) != 0) {
    return Internal("the endpoint forwarder cannot listen at " + socket_path + ": " + std::strerror(errno));
  }
  f->thread_ = std::thread([p = f.get()] { p->Serve(); });
  return f;
}

EndpointForwarder::~EndpointForwarder() {
  if (wake_[1] >= 0) {
    const char c = 0;
    (void)!write(wake_[1], &c, 1);
  }
  if (thread_.joinable()) thread_.join();
  for (int fd : {listener_, wake_[0], wake_[1]}) {
    if (fd >= 0) close(fd);
  }
  if (!path_.empty()) unlink(path_.c_str());
}

void EndpointForwarder::Serve() {
  for (;;) {
    pollfd p[2] = {{listener_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (poll(p, 2, -1) < 0 && errno != EINTR) break;
    if (p[1].revents) break;
    if (!(p[0].revents & POLLIN)) continue;
    const int client = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    {
      std::lock_guard<std::mutex> l(mu_);
      if (active_ >= kMaxConnections) {
        // An agent cannot make the arena hold threads without bound.
        if (log_.size() < 10000) log_.push_back("refused: more than " + std::to_string(kMaxConnections) +
                                                " connections at once");
        close(client);
        continue;
      }
      ++active_;
      open_.insert(client);
    }
    std::thread([this, client] {
      Handle(client);
      std::lock_guard<std::mutex> l(mu_);
      open_.erase(client);
      close(client);
      if (--active_ == 0) idle_.notify_all();
    }).detach();
  }
  // Ends the connections still open (the agent is done) and waits for them.
  std::unique_lock<std::mutex> l(mu_);
  for (int fd : open_) shutdown(fd, SHUT_RDWR);
  idle_.wait(l, [this] { return active_ == 0; });
}

void EndpointForwarder::Handle(int client) {
  std::string head;
  if (!ReadUntil(client, "\n", 512, 30000, &head) || head.rfind("CONNECT ", 0) != 0) return;
  const std::string asked = head.substr(8, head.find('\n') - 8);
  auto e = ParseEndpoint(asked);
  auto record = [&](const std::string& line) {
    std::lock_guard<std::mutex> l(mu_);
    if (log_.size() < 10000) log_.push_back(line);
  };
  bool allowed = false;
  for (const auto& a : allowed_) allowed |= e.ok() && a == *e;
  if (!allowed) {
    WriteAll(client, "DENIED " + asked + " is not an endpoint this agent may reach\n");
    record(asked + ": refused (not an allowed endpoint)");
    return;
  }
  auto out = DialTcp(*e);
  if (!out.ok()) {
    WriteAll(client, "DENIED " + out.status().message() + "\n");
    record(asked + ": " + out.status().message());
    return;
  }
  {
    std::lock_guard<std::mutex> l(mu_);
    open_.insert(*out);
  }
  WriteAll(client, "OK\n");
  size_t sent = 0, received = 0;
  Pipe(client, *out, &sent, &received);
  {
    std::lock_guard<std::mutex> l(mu_);
    open_.erase(*out);
  }
  close(*out);
  record(e->ToString() + ": connected, " + std::to_string(sent) + " bytes out, " + std::to_string(received) +
         " bytes in");
}

std::vector<std::string> EndpointForwarder::Log() const {
  std::lock_guard<std::mutex> l(mu_);
  return log_;
}

Status ForwardProxy(const std::string& listen_at, const std::string& socket_path, bool daemon) {
  ARENA_ASSIGN_OR_RETURN(Endpoint at, ParseEndpoint(listen_at));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(at.port));
  if (inet_pton(AF_INET, at.host.c_str(), &addr.sin_addr) != 1) {
    return InvalidArgument("--listen: '" + listen_at + "' is not an IPv4 address and port");
  }
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 64) != 0) {
    return Unavailable("cannot listen on " + listen_at + ": " + std::strerror(errno));
  }
  if (daemon) {
    const pid_t pid = fork();
    if (pid < 0) return Internal(std::string("fork: ") + std::strerror(errno));
    if (pid > 0) {
      close(fd);
      return OkStatus();  // listening: the caller may go on
    }
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
    }
  }
  for (;;) {
    const int client = accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return Internal(std::string("accept: ") + std::strerror(errno));
    }
    std::thread([client, socket_path] { ServeProxyClient(client, socket_path); }).detach();
  }
}

}  // namespace arena
