// A network path for sandboxed agents that reaches their model endpoints
// and nothing else. The sandbox has no network of its own (only its own
// loopback); inside it, `arena forward` (ForwardProxy) is an HTTP proxy on
// 127.0.0.1 that the agent's CLI uses (HTTPS_PROXY, HTTP_PROXY). Each
// connection it accepts goes over a unix socket bound into the sandbox to
// the EndpointForwarder the arena runs outside, which connects to the host
// and port asked for only when they are on the allowed list, and records
// every connection. TLS passes through untouched (CONNECT); plain HTTP
// requests in absolute form ("POST http://host:port/v1/...") are forwarded
// to their host in origin form.
//
//   outside: auto fwd = EndpointForwarder::Start(dir + "/net.sock", {{"api.openai.com", 443}});
//   inside:  arena forward --listen 127.0.0.1:3128 --socket /run/arena/net.sock
//            HTTPS_PROXY=http://127.0.0.1:3128 codex exec ...
#ifndef ARENA_CORE_NET_FORWARD_H_
#define ARENA_CORE_NET_FORWARD_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"

namespace arena {

struct Endpoint {
  std::string host;
  int port = 0;
  std::string ToString() const { return host + ":" + std::to_string(port); }
  bool operator==(const Endpoint& o) const { return host == o.host && port == o.port; }
};

// "host:port", "[v6]:port", or a URL ("https://host[:port]/..."; the port
// defaults to the scheme's).
Result<Endpoint> ParseEndpoint(const std::string& text);

class EndpointForwarder {
 public:
  // Listens on the unix socket `socket_path` (created, mode 0600) and serves
  // until destroyed.
  static Result<std::unique_ptr<EndpointForwarder>> Start(const std::string& socket_path,
                                                          std::vector<Endpoint> allowed);
  ~EndpointForwarder();

  // One line per connection asked for: "host:port: connected, N bytes out,
  // M bytes in" or "host:port: refused (not an allowed endpoint)".
  std::vector<std::string> Log() const;

 private:
  EndpointForwarder() = default;
  void Serve();
  void Handle(int client);

  static constexpr int kMaxConnections = 64;

  int listener_ = -1;
  int wake_[2] = {-1, -1};
  std::string path_;
  std::vector<Endpoint> allowed_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable idle_;
  int active_ = 0;          // connections being served (mu_)
  std::set<int> open_;      // their sockets, both sides (mu_)
  std::vector<std::string> log_;  // (mu_)
};

// The inside half: an HTTP proxy on `listen` ("127.0.0.1:PORT") whose every
// connection goes through the forwarder at `socket_path`. With `daemon`,
// returns once listening (in the parent) and serves in a child process.
// Serves until killed.
Status ForwardProxy(const std::string& listen, const std::string& socket_path, bool daemon);

}  // namespace arena

#endif  // ARENA_CORE_NET_FORWARD_H_
