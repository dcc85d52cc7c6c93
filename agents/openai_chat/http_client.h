// A small blocking HTTP/1.1 client for JSON APIs, on Boost.Beast over Asio.
//
// It speaks plain HTTP and HTTPS (OpenSSL: SNI set, the server's certificate
// checked against the system store and the host name unless the caller opts
// out), opens one connection per request, and bounds the whole exchange
// (resolve, connect, handshake, write, read) by one deadline. Nothing throws:
// a failure is a Status whose code says whether trying again can help.
//
//   ARENA_ASSIGN_OR_RETURN(HttpEndpoint api, ParseBaseUrl("http://127.0.0.1:8000/v1"));
//   HttpRequestOptions options;
//   options.timeout_s = 60;
//   ARENA_ASSIGN_OR_RETURN(HttpResponse response,
//                          HttpPost(api, api.path_prefix + "/chat/completions", body, options));
//   if (response.status == 200) ...
#ifndef ARENA_AGENTS_OPENAI_CHAT_HTTP_CLIENT_H_
#define ARENA_AGENTS_OPENAI_CHAT_HTTP_CLIENT_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace arena {

// Where requests go, decoded from a base URL such as https://api.openai.com/v1.
struct HttpEndpoint {
  bool tls = false;
  std::string host;         // without IPv6 brackets: what the resolver takes
  std::string port;         // always set: 80 and 443 by default
  std::string host_header;  // host[:port] as the Host header wants it
  std::string path_prefix;  // "/v1", or "" for a bare host; never ends in '/'
};

// Accepts http:// and https:// URLs with an optional port and path; refuses
// user info, queries and fragments (they have no place in an API base URL).
Result<HttpEndpoint> ParseBaseUrl(const std::string& url);

struct HttpRequestOptions {
  double timeout_s = 60;   // for the whole exchange
  bool verify_tls = true;  // false: accept any certificate (local servers)
  std::vector<std::pair<std::string, std::string>> headers;  // added as given
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;

  // The header's value, or nullptr; `name` in lower case.
  const std::string* Header(const std::string& name) const;
};

// POSTs `body` as application/json to `target` (a path such as
// "/v1/chat/completions"). Any HTTP status is a response, not an error.
// Errors: kUnavailable for transport failures (refused, reset, closed early,
// name not resolved) and kDeadlineExceeded for the timeout, both worth a
// retry; kFailedPrecondition for a failed TLS handshake (a certificate the
// client does not trust), which a retry would not change; kInvalidArgument
// for a response too large or malformed to parse.
Result<HttpResponse> HttpPost(const HttpEndpoint& endpoint, const std::string& target,
                              const std::string& body, const HttpRequestOptions& options);

}  // namespace arena

#endif  // ARENA_AGENTS_OPENAI_CHAT_HTTP_CLIENT_H_
