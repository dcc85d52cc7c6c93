// Messages between an evaluation's judge and a subject's runner: JSON
// objects framed by a 4-byte length on a unix stream socket, with file
// descriptors (lent device memory) riding along as SCM_RIGHTS.
//
// The judge treats everything a runner sends as hostile: a frame longer
// than kMaxFrame, bytes that are not a JSON object, more descriptors than
// were asked for, or a closed socket are all protocol breaks, reported as
// errors, never trusted as replies.
//
//   Channel c(fd);
//   ARENA_RETURN_IF_ERROR(c.Send({{"op", "bind"}, {"id", 1}}, {memory_fd}));
//   ARENA_ASSIGN_OR_RETURN(Channel::Message m, c.Receive(/*timeout_s=*/5));
#ifndef ARENA_PLUGINS_HIP2HIP_RUNNER_CHANNEL_H_
#define ARENA_PLUGINS_HIP2HIP_RUNNER_CHANNEL_H_

#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace arena::hip2hip {

class Channel {
 public:
  static constexpr size_t kMaxFrame = 16 << 20;
  static constexpr size_t kMaxFds = 16;

  struct Message {
    nlohmann::json body;
    std::vector<int> fds;  // owned by the receiver: close them
  };

  // `fd` is one end of a connected unix stream socket; the channel owns it.
  explicit Channel(int fd) : fd_(fd) {}
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Sends one message and the descriptors (which stay the caller's).
  Status Send(const nlohmann::json& body, const std::vector<int>& fds = {});

  // The next message, waiting at most `timeout_s` (< 0: forever). Errors:
  // kDeadlineExceeded on a timeout, kUnavailable when the peer closed the
  // socket, kDataLoss for a frame that breaks the protocol.
  Result<Message> Receive(double timeout_s);

  int fd() const { return fd_; }

  // How long a receive polls the socket (without sleeping) before it
  // waits for it to be readable; 0 (the default): it waits at once. Within
  // a timed round both ends poll, so that a sleeping thread's wake-up, which
  // on some machines costs one of two identical processes about 100 us
  // more, stays out of the round.
  void set_spin_s(double spin_s) { spin_s_ = spin_s; }

 private:
  Status Fill(double timeout_s);

  int fd_;
  double spin_s_ = 0;
  std::string buffer_;
  std::deque<int> fds_;  // received, not yet handed out
};

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_HIP2HIP_RUNNER_CHANNEL_H_
