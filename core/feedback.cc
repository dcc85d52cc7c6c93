#include "core/feedback.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <boost/asio.hpp>

#include "core/sandbox.h"

namespace arena {
namespace asio = boost::asio;
using LocalSocket = asio::local::stream_protocol;

namespace {

constexpr size_t kMaxRequestBytes = 64 << 10;

// Check details may quote a reference value ("e.g. got 1.5, expected 2.0"):
// an agent is told how many elements are off, never what the reference says.
std::string WithoutReferenceValues(std::string detail) {
  size_t at = detail.find("; e.g.");
  if (at != std::string::npos) detail.erase(at);
  return detail;
}

std::string Tail(const std::string& s, size_t n) {
  return s.size() <= n ? s : "[...]\n" + s.substr(s.size() - n);
}

}  // namespace

FeedbackReport MakeFeedbackReport(const TaskResult& r) {
  FeedbackReport report;
  TaskScore s = ScoreTask(r);
  report.compiled = s.compiled;
  report.correct = s.correct;
  report.checked = s.configs_checked > 0;
  report.speedup = s.speedup_geomean;
  std::string t;
  t += "compile: " + std::string(StageStatusName(r.candidate_compile.status));
  if (!r.candidate_compile.passed()) {
    t += ": " + r.candidate_compile.detail + "\n" + Tail(r.candidate_compile.log, 20000) + "\n";
    report.text = t;
    return report;
  }
  t += "\n";
  for (const auto& c : r.configs) {
    char line[256];
    t += c.name + ": ";
    if (c.candidate_check.status == StageStatus::kFailed) {
      t += "WRONG: " + WithoutReferenceValues(c.candidate_check.detail) + "\n";
      if (!c.candidate_check.log.empty()) t += Tail(c.candidate_check.log, 4000) + "\n";
      continue;
    }
    if (c.candidate_check.status == StageStatus::kSkipped) {
      t += "not checked (" + c.candidate_check.detail + ")\n";
      continue;
    }
    t += "correct";
    if (auto sp = c.speedup()) {
      std::snprintf(line, sizeof(line), ", %.3fx (%.2f us; baseline %.2f us)", *sp,
                    c.timing.candidate.median(), c.timing.baseline.median());
      t += line;
    } else if (FailedWhenTimed(c)) {
      t += ", FAILED WHEN TIMED (" + WithoutReferenceValues(c.timing.stage.detail) + ")";
    } else if (c.timing.stage.status != StageStatus::kPassed) {
      t += ", not timed (" + c.timing.stage.detail + ")";
    }
    t += "\n";
  }
  char summary[160];
  std::snprintf(summary, sizeof(summary), "summary: %s; speedup %s (geomean over timed configurations)\n",
                s.correct ? "correct" : "NOT correct",
                s.speedup_geomean ? (std::to_string(*s.speedup_geomean).substr(0, 5) + "x").c_str()
                                  : "not measured");
  t += summary;
  if (r.integrity.status == StageStatus::kFailed) t += "integrity: " + r.integrity.detail + "\n";
  report.text = t;
  return report;
}

struct FeedbackServer::Impl {
  asio::io_context io;
  LocalSocket::acceptor acceptor{io};
  std::string path;
  FeedbackFn fn;
};

FeedbackServer::FeedbackServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<FeedbackServer>> FeedbackServer::Start(const std::string& socket_path,
                                                              FeedbackFn fn) {
  if (socket_path.size() > 107) {
    return InvalidArgument("feedback socket path too long (" + std::to_string(socket_path.size()) +
                           " > 107 bytes): " + socket_path);
  }
  auto impl = std::make_unique<Impl>();
  impl->path = socket_path;
  impl->fn = std::move(fn);
  ::unlink(socket_path.c_str());
  boost::system::error_code ec;
  impl->acceptor.open(LocalSocket(), ec);
  if (!ec) impl->acceptor.bind(LocalSocket::endpoint(socket_path), ec);
  if (!ec) impl->acceptor.listen(4, ec);
  if (ec) return Unavailable("feedback socket " + socket_path + ": " + ec.message());
  std::unique_ptr<FeedbackServer> server(new FeedbackServer(std::move(impl)));
  FeedbackServer* self = server.get();
  server->thread_ = std::thread([self] {
    Impl& s = *self->impl_;
    while (true) {
      LocalSocket::socket peer(s.io);
      boost::system::error_code aec;
      s.acceptor.accept(peer, aec);
      if (aec) return;  // closed: the server is stopping
      // A request is one short line: a client that sends more (the agent
      // is not trusted) is answered without the arena holding it all.
      asio::streambuf request(kMaxRequestBytes);
      asio::read_until(peer, request, '\n', aec);
      if (aec == asio::error::not_found) {
        asio::write(peer, asio::buffer("bad-request\na request is one line of at most " +
                                       std::to_string(kMaxRequestBytes) + " bytes\n"), aec);
        continue;
      }
      if (aec) continue;
      ++self->calls_;
      // "evaluate\n", or "evaluate {options as JSON}\n".
      std::string line(asio::buffers_begin(request.data()), asio::buffers_end(request.data()));
      line = line.substr(0, line.find('\n'));
      Result<FeedbackReport> report = InvalidArgument("unknown request");
      if (line == "evaluate") {
        report = s.fn(FeedbackOptions());
      } else if (line.rfind("evaluate ", 0) == 0) {
        Json j = Json::parse(line.substr(9), nullptr, /*allow_exceptions=*/false);
        Result<FeedbackOptions> options =
            j.is_discarded() ? Result<FeedbackOptions>(InvalidArgument("options: not JSON"))
                             : FeedbackOptions::FromJson(j);
        report = options.ok() ? s.fn(*options) : Result<FeedbackReport>(options.status());
      }
      std::string reply;
      if (report.ok()) {
        const char* status = !report->compiled  ? "no-compile"
                             : report->correct  ? "correct"
                             : !report->checked ? "unchecked"
                                                : "wrong";
        reply = std::string(status) + "\n" + report->text;
      } else if (report.status().code() == StatusCode::kInvalidArgument) {
        reply = "bad-request\n" + report.status().message() + "\n";
      } else {
        reply = "error\nthe arena could not evaluate your files: " + report.status().message() + "\n";
      }
      asio::write(peer, asio::buffer(reply), aec);
    }
  });
  return server;
}

FeedbackServer::~FeedbackServer() {
  boost::system::error_code ec;
  impl_->acceptor.close(ec);
  // accept() does not always return on close from another thread: connect
  // once to wake it.
  {
    asio::io_context io;
    LocalSocket::socket poke(io);
    poke.connect(LocalSocket::endpoint(impl_->path), ec);
  }
  if (thread_.joinable()) thread_.join();
  ::unlink(impl_->path.c_str());
}

Result<FeedbackReport> RequestFeedback(const std::string& socket_path, double timeout_s,
                                       const FeedbackOptions& options) {
  asio::io_context io;
  LocalSocket::socket sock(io);
  boost::system::error_code ec;
  sock.connect(LocalSocket::endpoint(socket_path), ec);
  if (ec) return Unavailable("cannot reach the arena's feedback service at " + socket_path + ": " +
                             ec.message());
  asio::write(sock, asio::buffer("evaluate " + JsonText(options.ToJson()) + "\n"), ec);
  if (ec) return Unavailable("feedback request failed: " + ec.message());
  std::string reply;
  asio::streambuf buf;
  bool done = false;
  asio::async_read(sock, buf, [&](const boost::system::error_code&, size_t) { done = true; });
  io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(timeout_s)));
  if (!done) return DeadlineExceeded("no feedback within " + SecondsText(timeout_s));
  reply.assign(asio::buffers_begin(buf.data()), asio::buffers_end(buf.data()));
  FeedbackReport report;
  size_t nl = reply.find('\n');
  std::string status = reply.substr(0, nl);
  if (status == "bad-request") {
    std::string why = nl == std::string::npos ? "" : reply.substr(nl + 1);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    return InvalidArgument(why);
  }
  report.correct = status == "correct";
  report.checked = status != "unchecked";
  report.compiled = status != "error" && status != "no-compile";
  report.text = nl == std::string::npos ? "" : reply.substr(nl + 1);
  return report;
}

std::string FeedbackScript(const std::string& host_arena, const std::string& host_socket) {
  return std::string(
             "#!/bin/sh\n"
             "# Compiles, checks and times your files on the tuning configurations.\n"
             "#   ./feedback [--configs NAME[,NAME...]] [--check-only]\n"
             "# Exit status 0: correct everywhere it could be checked.\n"
             "if [ -S /opt/arena/feedback.sock ]; then\n"
             "  exec ") +
         kSandboxArena +
         " feedback --socket /opt/arena/feedback.sock \"$@\"\n"
         "fi\n"
         "exec '" + host_arena + "' feedback --socket '" + host_socket + "' \"$@\"\n";
}

}  // namespace arena
