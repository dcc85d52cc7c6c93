#include "plugins/common/hip/runner/channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace arena::hip2hip {

Channel::~Channel() {
  for (int fd : fds_) close(fd);
  if (fd_ >= 0) close(fd_);
}

Status Channel::Send(const nlohmann::json& body, const std::vector<int>& fds) {
  if (fds.size() > kMaxFds) return InvalidArgument("too many descriptors in one message");
  const std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMaxFrame) return InvalidArgument("message too long");
  std::string frame(4, '\0');
  const auto n = static_cast<uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) frame[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  frame += text;
  size_t sent = 0;
  bool fds_sent = fds.empty();
  while (sent < frame.size()) {
    iovec iov{frame.data() + sent, frame.size() - sent};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    if (!fds_sent) {
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t w = sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Unavailable(std::string("the peer is gone: ") + std::strerror(errno));
    }
    fds_sent = true;
    sent += static_cast<size_t>(w);
  }
  return OkStatus();
}

Status Channel::Fill(double timeout_s) {
  pollfd p{fd_, POLLIN, 0};
  int r = 0;
  if (spin_s_ > 0) {
    // Polled first: readable at once, or within the spin, and no sleep.
    const double spin = timeout_s < 0 ? spin_s_ : std::min(spin_s_, timeout_s);
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(spin);
    do {
      r = poll(&p, 1, 0);
    } while ((r == 0 || (r < 0 && errno == EINTR)) && std::chrono::steady_clock::now() < until);
    if (timeout_s >= 0) timeout_s = std::max(0.0, timeout_s - spin);
  }
  if (r <= 0) {
    const int ms = timeout_s < 0 ? -1 : static_cast<int>(timeout_s * 1000.0 + 0.999);
    do {
      r = poll(&p, 1, ms);
    } while (r < 0 && errno == EINTR);
  }
  if (r == 0) return DeadlineExceeded("no answer in time");
  if (r < 0) return Internal(std::string("poll: ") + std::strerror(errno));
  char data[1 << 16];
  iovec iov{data, sizeof(data)};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t got;
  do {
    got = recvmsg(fd_, &msg, MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  if (got < 0) return Unavailable(std::string("the peer is gone: ") + std::strerror(errno));
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      fds_.push_back(fd);
    }
  }
  if ((msg.msg_flags & MSG_CTRUNC) != 0 || fds_.size() > kMaxFds) {
    return DataLoss("more descriptors than a message may carry");
  }
  if (got == 0) return Unavailable("the peer closed the channel");
  buffer_.append(data, static_cast<size_t>(got));
  return OkStatus();
}

Result<Channel::Message> Channel::Receive(double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(timeout_s < 0 ? 1e9 : timeout_s);
  for (;;) {
    if (buffer_.size() >= 4) {
      uint32_t n = 0;
      for (int i = 3; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(buffer_[static_cast<size_t>(i)]);
      if (n > kMaxFrame) return DataLoss("a frame of " + std::to_string(n) + " bytes");
      if (buffer_.size() >= 4 + static_cast<size_t>(n)) {
        Message m;
        m.body = nlohmann::json::parse(buffer_.begin() + 4, buffer_.begin() + 4 + n, nullptr, false);
        buffer_.erase(0, 4 + static_cast<size_t>(n));
        if (m.body.is_discarded() || !m.body.is_object()) return DataLoss("a frame that is not a JSON object");
        m.fds.assign(fds_.begin(), fds_.end());
        fds_.clear();
        return m;
      }
    }
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (timeout_s >= 0 && left <= 0) return DeadlineExceeded("no answer in time");
    ARENA_RETURN_IF_ERROR(Fill(timeout_s < 0 ? -1 : left));
  }
}

}  // namespace arena::hip2hip
