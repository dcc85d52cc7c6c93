// For tests of what a file's owner cannot read: root reads it anyway, so a
// test run as root runs such a case in a child process as an unprivileged
// user (nobody), in a folder handed to that user first.
//
//   EXPECT_EQ(testing_support::AsUnprivileged(dir, [&] { return Case(dir); }), 0);
#ifndef ARENA_CORE_TESTING_UNPRIVILEGED_H_
#define ARENA_CORE_TESTING_UNPRIVILEGED_H_

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

namespace arena::testing_support {

constexpr uid_t kNobody = 65534;

// fn() run as an unprivileged user (in a child when this process is root,
// `dir` and what is in it given to that user); 0 when it returned true, 1
// when false, 2 when the child could not drop its privileges.
inline int AsUnprivileged(const std::string& dir, const std::function<bool()>& fn) {
  if (geteuid() != 0) return fn() ? 0 : 1;
  std::error_code ec;
  chown(dir.c_str(), kNobody, kNobody);
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    lchown(e.path().c_str(), kNobody, kNobody);
  }
  const pid_t pid = fork();
  if (pid == 0) {
    if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(2);
    _exit(fn() ? 0 : 1);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 3;
  return WEXITSTATUS(status);
}

}  // namespace arena::testing_support

#endif  // ARENA_CORE_TESTING_UNPRIVILEGED_H_
