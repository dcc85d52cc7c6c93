// Feedback for agents: their current files compiled, checked and timed on
// the tuning configurations only (and the small one, for machines without
// a GPU); never held-out configurations, never reference outputs.
//
// In process (C++ adapters call AgentRequest::feedback) and across the
// sandbox wall: a FeedbackServer listens on a Unix socket, and the
// workspace's ./feedback script runs `arena feedback --socket PATH`.
//
//   auto server = FeedbackServer::Start("/tmp/arena-fb/sock", feedback_fn);
//   ...  // inside the sandbox: ./feedback
//   int calls = (*server)->calls();
#ifndef ARENA_CORE_FEEDBACK_H_
#define ARENA_CORE_FEEDBACK_H_

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "core/agent.h"
#include "core/scoring.h"

namespace arena {

// The report an agent reads, from a result restricted to visible configurations.
FeedbackReport MakeFeedbackReport(const TaskResult& result);

class FeedbackServer {
 public:
  // Listens on `socket_path` (a fresh path; at most 107 bytes).
  static Result<std::unique_ptr<FeedbackServer>> Start(const std::string& socket_path,
                                                       FeedbackFn fn);
  ~FeedbackServer();
  int calls() const { return calls_; }

  struct Impl;

 private:
  explicit FeedbackServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  std::atomic<int> calls_{0};
  std::thread thread_;
};

// The client side: asks the server at `socket_path` for a report. The reply
// is the report's text; `correct` tells the exit status of `arena feedback`.
Result<FeedbackReport> RequestFeedback(const std::string& socket_path, double timeout_s,
                                       const FeedbackOptions& options = {});

// The ./feedback script written into a workspace.
std::string FeedbackScript(const std::string& host_arena, const std::string& host_socket);

}  // namespace arena

#endif  // ARENA_CORE_FEEDBACK_H_
