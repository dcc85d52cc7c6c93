// A descriptor pinned: it keeps naming what it names now, for this process
// and every process it starts. A seccomp filter of the process's own
// (stacked on the sandbox's) refuses closing it and making it a copy of
// another (EPERM); everything else passes.
//
// A runner's channel to the judge is its descriptor 0, which the subject's
// code could otherwise point at a socket of its own, to stand between the
// runner and the judge: drop, rewrite or answer what the runner says (a
// witness's pause answered by the subject itself, its findings dropped).
// arena_runner.py's pin_descriptor does the same for a Triton runner.
//
// It also refuses every filter after it (seccomp(2), and prctl's
// PR_SET_SECCOMP): the subject's native code could stack one of its own
// that answers the runner's calls as it chooses (getrandom refused, so
// that every split of a replay fell at its earliest call, where the
// subject had done its work: entropy_refused). A Triton subject has no
// native code, and its runner no such rule.
//
//   if (std::string why = PinDescriptor(0); !why.empty()) ...  // could not
#ifndef ARENA_PLUGINS_COMMON_HIP_RUNNER_PIN_DESCRIPTOR_H_
#define ARENA_PLUGINS_COMMON_HIP_RUNNER_PIN_DESCRIPTOR_H_

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace arena::hip2hip {

// Pins `fd`; returns why it could not, or "".
inline std::string PinDescriptor(uint32_t fd) {
#ifdef SYS_close_range
  constexpr uint32_t kCloseRange = SYS_close_range;
#else
  constexpr uint32_t kCloseRange = 436;  // the same on every machine
#endif
  auto arg = [](int i) { return static_cast<uint32_t>(16 + 8 * i); };  // an argument's low word
  const uint32_t refuse = SECCOMP_RET_ERRNO | EPERM;
  std::vector<sock_filter> f = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0)};  // the call's number
  // Another filter: refused.
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 0, 1));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, refuse));
  // (number, the argument, its value refused): the descriptor replaced or
  // closed; prctl's PR_SET_SECCOMP.
  std::vector<std::tuple<uint32_t, int, uint32_t>> calls = {{SYS_close, 0, fd}, {SYS_dup3, 1, fd},
                                                            {SYS_prctl, 0, PR_SET_SECCOMP}};
#ifdef SYS_dup2
  calls.push_back({SYS_dup2, 1, fd});
#endif
  for (const auto& [number, which, value] : calls) {
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, number, 0, 4));
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg(which)));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, refuse));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  }
  // close_range(first, last, flags): refused where first <= fd <= last.
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kCloseRange, 0, 6));
  f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg(0)));
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, fd, 3, 0));
  f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg(1)));
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, fd, 0, 1));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, refuse));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  sock_fprog program{static_cast<unsigned short>(f.size()), f.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return std::string("prctl(PR_SET_NO_NEW_PRIVS): ") + std::strerror(errno);
  }
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    return std::string("prctl(PR_SET_SECCOMP): ") + std::strerror(errno);
  }
  return "";
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_RUNNER_PIN_DESCRIPTOR_H_
