#include "agents/openai_chat/http_client.h"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <chrono>
#include <exception>
#include <functional>

namespace arena {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Chat completions are small; a reply beyond this is a broken server.
constexpr uint64_t kMaxResponseBytes = 64ull << 20;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Runs one asynchronous step of an exchange at a time on a private
// io_context. Every step shares the exchange's deadline: when it passes, the
// step is aborted (its handler still runs, with operation_aborted, before Run
// returns), so no handler outlives the objects it refers to.
class StepRunner {
 public:
  using Done = std::function<void(beast::error_code)>;

  StepRunner(asio::io_context& io, Clock::time_point deadline) : io_(io), deadline_(deadline) {}

  beast::error_code Run(const std::function<void(Done)>& start,
                        const std::function<void()>& abort) {
    beast::error_code result;
    bool done = false;
    start([&](beast::error_code ec) {
      result = ec;
      done = true;
    });
    io_.restart();
    io_.run_until(deadline_);
    if (!done) {
      timed_out_ = true;
      abort();
      io_.restart();
      io_.run();  // drains the aborted handler
    }
    return result;
  }

  bool timed_out() const { return timed_out_; }

 private:
  asio::io_context& io_;
  Clock::time_point deadline_;
  bool timed_out_ = false;
};

// What a failed step means for the caller (see HttpPost's contract).
Status StepError(const StepRunner& runner, const beast::error_code& ec, const std::string& step,
                 const HttpEndpoint& endpoint, double timeout_s) {
  const std::string where = endpoint.host_header;
  if (runner.timed_out()) {
    return DeadlineExceeded("no answer from " + where + " within " +
                            std::to_string(static_cast<int>(timeout_s + 0.5)) + " s (" + step +
                            ")");
  }
  const std::string message = step + " " + where + ": " + ec.message();
  if (ec.category() == asio::error::get_ssl_category() ||
      ec.category() == ssl::error::get_stream_category()) {
    if (ec != ssl::error::stream_truncated) return FailedPrecondition(message);
  }
  // Beast's HTTP category covers both a peer that hung up before answering
  // (worth another try) and garbage on the wire (not).
  if (ec == http::error::end_of_stream || ec == http::error::partial_message) {
    return Unavailable(message);
  }
  if (ec.category() == beast::error_code(http::error::end_of_stream).category()) {
    return InvalidArgument(message);
  }
  return Unavailable(message);
}

// Writes the request and reads the response on a connected (and, for TLS,
// handshaken) stream.
template <typename Stream>
Result<HttpResponse> Exchange(StepRunner& runner, Stream& stream,
                              const http::request<http::string_body>& request,
                              const HttpEndpoint& endpoint, double timeout_s) {
  auto close = [&] {
    beast::error_code ignored;
    beast::get_lowest_layer(stream).socket().close(ignored);
  };
  beast::error_code ec = runner.Run(
      [&](StepRunner::Done done) {
        http::async_write(stream, request, [done](beast::error_code e, std::size_t) { done(e); });
      },
      close);
  if (ec) return StepError(runner, ec, "sending the request to", endpoint, timeout_s);

  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxResponseBytes);
  ec = runner.Run(
      [&](StepRunner::Done done) {
        http::async_read(stream, buffer, parser,
                         [done](beast::error_code e, std::size_t) { done(e); });
      },
      close);
  if (ec) return StepError(runner, ec, "reading the response from", endpoint, timeout_s);

  HttpResponse response;
  const auto& message = parser.get();
  response.status = static_cast<int>(message.result_int());
  for (const auto& field : message) {
    response.headers[Lower(std::string(field.name_string()))] = std::string(field.value());
  }
  response.body = message.body();
  // The response is complete (length or chunked framing), so the connection
  // is closed without a TLS close_notify: waiting for the server's would only
  // add a round trip, and many servers never send one.
  close();
  return response;
}

Result<HttpResponse> Post(const HttpEndpoint& endpoint, const std::string& target,
                          const std::string& body, const HttpRequestOptions& options) {
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::max(options.timeout_s, 0.001)));
  asio::io_context io;
  StepRunner runner(io, deadline);

  http::request<http::string_body> request{http::verb::post, target, 11};
  request.set(http::field::host, endpoint.host_header);
  request.set(http::field::user_agent, "arena-openai-chat");
  request.set(http::field::content_type, "application/json");
  request.set(http::field::accept, "application/json");
  // One connection per request: turns are seconds apart, and a fresh
  // connection never meets a server that dropped an idle one.
  request.set(http::field::connection, "close");
  for (const auto& [name, value] : options.headers) request.set(name, value);
  request.body() = body;
  request.prepare_payload();

  tcp::resolver resolver(io);
  tcp::resolver::results_type addresses;
  // The resolver's cancel takes effect once getaddrinfo returns; a hung name
  // lookup is bounded by the system resolver's own timeout, not ours.
  beast::error_code ec = runner.Run(
      [&](StepRunner::Done done) {
        resolver.async_resolve(endpoint.host, endpoint.port,
                               [&, done](beast::error_code e, tcp::resolver::results_type r) {
                                 addresses = std::move(r);
                                 done(e);
                               });
      },
      [&] { resolver.cancel(); });
  if (ec) return StepError(runner, ec, "resolving", endpoint, options.timeout_s);

  if (!endpoint.tls) {
    beast::tcp_stream stream(io);
    ec = runner.Run(
        [&](StepRunner::Done done) {
          stream.async_connect(addresses,
                               [done](beast::error_code e, const tcp::endpoint&) { done(e); });
        },
        [&] { stream.close(); });
    if (ec) return StepError(runner, ec, "connecting to", endpoint, options.timeout_s);
    return Exchange(runner, stream, request, endpoint, options.timeout_s);
  }

  ssl::context context(ssl::context::tls_client);
  if (options.verify_tls) {
    context.set_default_verify_paths(ec);
    if (ec) return FailedPrecondition("cannot load the system's CA certificates: " + ec.message());
    context.set_verify_mode(ssl::verify_peer);
  } else {
    context.set_verify_mode(ssl::verify_none);
  }
  beast::ssl_stream<beast::tcp_stream> stream(io, context);
  if (options.verify_tls) {
    stream.set_verify_callback(ssl::host_name_verification(endpoint.host));
  }
  // SNI: servers behind a shared address pick the certificate by it. RFC 6066
  // forbids sending an IP literal as a name.
  asio::ip::make_address(endpoint.host, ec);
  if (ec && !SSL_set_tlsext_host_name(stream.native_handle(), endpoint.host.c_str())) {
    return Internal("cannot set the TLS server name " + endpoint.host);
  }
  auto close = [&] {
    beast::error_code ignored;
    beast::get_lowest_layer(stream).socket().close(ignored);
  };
  ec = runner.Run(
      [&](StepRunner::Done done) {
        beast::get_lowest_layer(stream).async_connect(
            addresses, [done](beast::error_code e, const tcp::endpoint&) { done(e); });
      },
      close);
  if (ec) return StepError(runner, ec, "connecting to", endpoint, options.timeout_s);
  ec = runner.Run(
      [&](StepRunner::Done done) {
        stream.async_handshake(ssl::stream_base::client, [done](beast::error_code e) { done(e); });
      },
      close);
  if (ec) return StepError(runner, ec, "TLS handshake with", endpoint, options.timeout_s);
  return Exchange(runner, stream, request, endpoint, options.timeout_s);
}

}  // namespace

const std::string* HttpResponse::Header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? nullptr : &it->second;
}

Result<HttpEndpoint> ParseBaseUrl(const std::string& url) {
  HttpEndpoint endpoint;
  std::string rest;
  if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
  } else if (url.rfind("https://", 0) == 0) {
    endpoint.tls = true;
    rest = url.substr(8);
  } else {
    return InvalidArgument("base_url '" + url + "' must start with http:// or https://");
  }
  if (rest.find_first_of("?#@") != std::string::npos) {
    return InvalidArgument("base_url '" + url + "' may not carry user info, a query or a fragment");
  }
  const size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  endpoint.path_prefix = slash == std::string::npos ? "" : rest.substr(slash);
  while (!endpoint.path_prefix.empty() && endpoint.path_prefix.back() == '/') {
    endpoint.path_prefix.pop_back();
  }
  std::string port;
  if (!authority.empty() && authority.front() == '[') {  // [IPv6]:port
    const size_t close = authority.find(']');
    if (close == std::string::npos) return InvalidArgument("base_url '" + url + "': unclosed '['");
    endpoint.host = authority.substr(1, close - 1);
    std::string after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return InvalidArgument("base_url '" + url + "': bad port");
      port = after.substr(1);
    }
  } else {
    const size_t colon = authority.rfind(':');
    endpoint.host = authority.substr(0, colon);
    if (colon != std::string::npos) port = authority.substr(colon + 1);
  }
  if (endpoint.host.empty()) return InvalidArgument("base_url '" + url + "' names no host");
  endpoint.host_header = authority;
  if (port.empty()) {
    endpoint.port = endpoint.tls ? "443" : "80";
  } else {
    const bool digits = std::all_of(port.begin(), port.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (!digits || port.size() > 5 || std::stoi(port) == 0 || std::stoi(port) > 65535) {
      return InvalidArgument("base_url '" + url + "': bad port '" + port + "'");
    }
    endpoint.port = port;
  }
  return endpoint;
}

Result<HttpResponse> HttpPost(const HttpEndpoint& endpoint, const std::string& target,
                              const std::string& body, const HttpRequestOptions& options) {
  // The edge where Asio's and Beast's exceptions (allocation, a context that
  // cannot be created) become values.
  try {
    return Post(endpoint, target, body, options);
  } catch (const std::exception& e) {
    return Internal("HTTP request to " + endpoint.host_header + " failed: " + e.what());
  }
}

}  // namespace arena
