#include "plugins/common/hip/runner/pin_descriptor.h"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

// `body` in a child process (a filter, once set, stays for the process);
// its exit status: 0 when every expectation in it held.
int InChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

TEST(PinDescriptor, ThePinnedDescriptorCannotBeClosedNorReplaced) {
  EXPECT_EQ(InChild([] {
              int pinned[2], other[2];
              if (pipe(pinned) != 0 || pipe(other) != 0) return 1;
              const int fd = pinned[0];
              if (!PinDescriptor(static_cast<uint32_t>(fd)).empty()) return 2;
              if (dup2(other[0], fd) != -1 || errno != EPERM) return 3;
              if (dup3(other[0], fd, O_CLOEXEC) != -1 || errno != EPERM) return 4;
              if (close(fd) != -1 || errno != EPERM) return 5;
#ifdef SYS_close_range
              if (syscall(SYS_close_range, 0u, ~0u, 0u) != -1 || errno != EPERM) return 6;
#endif
              // Still the pipe it was: what goes in at the other end comes out.
              char c = 'x';
              if (write(pinned[1], &c, 1) != 1 || read(fd, &c, 1) != 1 || c != 'x') return 7;
              return 0;
            }),
            0);
}

TEST(PinDescriptor, OtherDescriptorsAreClosedAndReplacedAsEver) {
  EXPECT_EQ(InChild([] {
              int pinned[2], other[2];
              if (pipe(pinned) != 0 || pipe(other) != 0) return 1;
              if (!PinDescriptor(static_cast<uint32_t>(pinned[0])).empty()) return 2;
              if (dup2(other[0], other[1]) != other[1]) return 3;
              if (close(other[1]) != 0) return 4;
              const int copy = dup(pinned[0]);  // a copy of the pinned one is another descriptor
              if (copy < 0 || close(copy) != 0) return 5;
              return 0;
            }),
            0);
}

TEST(PinDescriptor, NoFilterCanBeStackedAfterIt) {
  EXPECT_EQ(InChild([] {
              int pinned[2];
              if (pipe(pinned) != 0) return 1;
              if (!PinDescriptor(static_cast<uint32_t>(pinned[0])).empty()) return 2;
              // A filter that would refuse getrandom: neither way installs it.
              sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
              sock_fprog program{1, &allow};
              if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != -1 || errno != EPERM) return 3;
              if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != -1 || errno != EPERM) return 4;
              // prctl's other options pass.
              if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) return 5;
              return 0;
            }),
            0);
}

}  // namespace
}  // namespace arena::hip2hip
