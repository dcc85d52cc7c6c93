#include "core/sandbox.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/testing/unprivileged.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = SandboxUnavailableReason();
    ASSERT_TRUE(why.empty()) << "the sandbox must work on CI machines: " << why;
    root_ = testing::TempDir() + "/sandbox_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(root_ + "/workspace").ok());
    sb_.workspace = root_ + "/workspace";
  }

  ProcessResult Run(const std::string& script, double timeout_s = 20) {
    auto p = SandboxedProcess(sb_, {"/bin/bash", "-c", script});
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    p->timeout_s = timeout_s;
    auto r = RunProcess(*p);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return *r;
  }

  // A folder of /tmp (whose path an unprivileged user can walk) holding
  // the sandbox's workspace, for a case run as such a user.
  std::string UnprivilegedFolder() {
    char tmpl[] = "/tmp/arena-sandbox-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return "";
    const std::string dir = tmpl;
    if (!ResetDir(dir + "/workspace").ok()) return "";
    sb_.workspace = dir + "/workspace";
    return dir;
  }

  std::string root_;
  SandboxOptions sb_;
};

// A TCP listener on 127.0.0.1 outside the sandbox; returns its port.
int Listen(int* fd_out) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  listen(fd, 8);
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *fd_out = fd;
  return ntohs(addr.sin_port);
}

TEST_F(SandboxTest, WorkspaceIsReadWriteAtAFixedPath) {
  std::ofstream(root_ + "/workspace/kernel.py") << "print(1)\n";
  ProcessResult r = Run("pwd; cat kernel.py; echo changed > kernel.py");
  EXPECT_TRUE(r.success()) << r.err;
  EXPECT_EQ(r.out, "/workspace\nprint(1)\n");
  EXPECT_EQ(*ReadFile(root_ + "/workspace/kernel.py"), "changed\n");
}

TEST_F(SandboxTest, IsWhatTheKernelKillsFirstWhenMemoryRunsOut) {
  // Code under test that takes the host's memory ends itself, not the
  // arena or a judge (whose own score is left as it was).
  ProcessResult r = Run("cat /proc/self/oom_score_adj");
  EXPECT_TRUE(r.success()) << r.err;
  EXPECT_EQ(r.out, "1000\n");
  EXPECT_NE(*ReadFile("/proc/self/oom_score_adj"), "1000\n");
}

TEST_F(SandboxTest, HasNoNetwork) {
  int fd;
  int port = Listen(&fd);
  std::string probe = "echo > /dev/tcp/127.0.0.1/" + std::to_string(port) + " && echo connected";
  ProcessResult inside = Run(probe);
  EXPECT_EQ(inside.out.find("connected"), std::string::npos) << "the sandbox reached the host";
  sb_.network = true;  // control: allowed, the same probe connects
  ProcessResult allowed = Run(probe);
  EXPECT_NE(allowed.out.find("connected"), std::string::npos) << allowed.err;
  close(fd);
}

TEST_F(SandboxTest, CannotReadOutsideItsWorkspace) {
  // A secret beside the workspace, like held-out configurations or the project.
  std::ofstream(root_ + "/heldout.json") << "secret\n";
  ProcessResult r = Run("cat " + root_ + "/heldout.json; ls " + fs::current_path().string());
  EXPECT_EQ(r.out.find("secret"), std::string::npos);
  EXPECT_NE(r.err.find("No such file"), std::string::npos) << r.err;
}

TEST_F(SandboxTest, CannotWriteOutsideItsWorkspace) {
  ProcessResult r = Run("touch /usr/x || echo usr-refused; touch /etc/x || echo etc-refused; "
                        "echo private > /tmp/arena_sandbox_probe && echo tmp-ok");
  EXPECT_NE(r.out.find("usr-refused"), std::string::npos);
  EXPECT_NE(r.out.find("etc-refused"), std::string::npos);
  EXPECT_NE(r.out.find("tmp-ok"), std::string::npos);
  EXPECT_FALSE(fs::exists("/tmp/arena_sandbox_probe")) << "the sandbox's /tmp must be private";
}

TEST_F(SandboxTest, ItsFoldersInMemoryHaveASize) {
  // /tmp and /dev/shm live in the host's memory: a subject filling them
  // runs out of space, not the host out of memory; /dev takes no file.
  sb_.tmp_bytes = 8 << 20;
  ProcessResult r = Run(
      "head -c 16777216 /dev/zero > /tmp/fill 2>/dev/null || echo tmp-full; "
      "echo \"tmp=$(stat -c %s /tmp/fill)\"; rm -f /tmp/fill; "
      "head -c 16777216 /dev/zero > /dev/shm/fill 2>/dev/null || echo shm-full; "
      "touch /dev/fill 2>/dev/null || echo dev-refused; "
      "echo x > /dev/null && echo null-ok");
  EXPECT_NE(r.out.find("tmp-full"), std::string::npos) << r.out << r.err;
  const size_t at = r.out.find("tmp=");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_LE(std::stoll(r.out.substr(at + 4)), 8 << 20) << r.out;
  EXPECT_NE(r.out.find("shm-full"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dev-refused"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("null-ok"), std::string::npos) << r.out;
  // Control: with room, the same write fits.
  sb_.tmp_bytes = 64 << 20;
  ProcessResult roomy = Run("head -c 16777216 /dev/zero > /tmp/fill && stat -c %s /tmp/fill");
  EXPECT_EQ(roomy.out, "16777216\n") << roomy.err;
  sb_.tmp_bytes = 0;
  EXPECT_FALSE(SandboxedProcess(sb_, {"true"}).ok());
}

TEST_F(SandboxTest, ItsWritableFoldersOnDiskHaveALimit) {
  // The workspace and the host folders lent read-write are on the host's
  // disk: what they hold together is watched, and past the limit the
  // sandbox is killed, whichever of them it fills.
  ASSERT_TRUE(ResetDir(root_ + "/lent").ok());
  sb_.read_write = {{root_ + "/lent", "/lent"}};
  sb_.disk_bytes = 8 << 20;
  for (const std::string where : {"/workspace", "/lent"}) {
    ProcessResult r = Run("i=0; while true; do i=$((i+1)); head -c 1048576 /dev/zero > " + where +
                          "/f$i; done");
    EXPECT_FALSE(r.success()) << where;
    EXPECT_NE(r.disk_exceeded.find("over their limit of 8 MiB"), std::string::npos)
        << where << ": " << r.Describe();
    ASSERT_TRUE(ResetDir(root_ + "/workspace").ok());
    ASSERT_TRUE(ResetDir(root_ + "/lent").ok());
  }
  // Its memory folders are not on the disk: 16 MiB in /tmp is no
  // concern of this limit.
  ProcessResult tmp = Run("head -c 16777216 /dev/zero > /tmp/f && echo tmp-ok");
  EXPECT_TRUE(tmp.success()) << tmp.Describe();
  // A read-only workspace is not watched (nothing can be written to it).
  sb_.workspace_read_only = true;
  sb_.read_write.clear();
  auto p = SandboxedProcess(sb_, {"true"});
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->disk_folders.empty());
}

TEST_F(SandboxTest, EnvironmentHoldsOnlyWhatIsPassed) {
  setenv("ARENA_HOST_SECRET", "leak", 1);
  sb_.env["ARENA_PASSED"] = "yes";
  ProcessResult r = Run("echo \"[$ARENA_HOST_SECRET][$ARENA_PASSED]\"");
  EXPECT_EQ(r.out, "[][yes]\n");
}

TEST_F(SandboxTest, NoProcessInsideHoldsTheHostsEnvironment) {
  // Bubblewrap's own process is pid 1 inside: its environment is readable.
  setenv("ARENA_HOST_SECRET", "leak", 1);
  ProcessResult r = Run("cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | "
                        "grep -c ARENA_HOST_SECRET || true");
  EXPECT_EQ(r.out, "0\n") << r.err;
}

TEST_F(SandboxTest, EtcHoldsNoSecrets) {
  ProcessResult r = Run("for f in /etc/shadow /etc/gshadow /etc/ssh /etc/sudoers; do "
                        "[ -e $f ] && echo \"$f visible\"; done; "
                        "[ -r /etc/passwd ] && [ -r /etc/ld.so.cache ] && echo usable");
  EXPECT_EQ(r.out, "usable\n") << r.err;
}

TEST_F(SandboxTest, KilledWithItsChildrenAtTheTimeLimit) {
  // A child that leaves the process group with setsid, then a hang.
  ProcessResult r = Run("setsid sleep 1234.5 & sleep 1000", 1.0);
  EXPECT_TRUE(r.timed_out);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessOptions pgrep;
  pgrep.argv = {"/bin/sh", "-c", "pgrep -f 'sleep 1234[.]5' || true"};
  auto left = RunProcess(pgrep);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->out, "") << "processes outlived the sandbox";
}

TEST_F(SandboxTest, NumberOfProcessesIsLimited) {
  sb_.max_processes = 20;
  ProcessResult r = Run(
      "exec python3 -c \"\nimport os, time\nn = 0\nfor i in range(60):\n"
      "    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
      "    if pid == 0:\n        time.sleep(2)\n        os._exit(0)\n    n += 1\n"
      "print('forked', n)\n\"",
      30);
  ASSERT_NE(r.out.find("forked "), std::string::npos) << r.out << r.err;
  int forked = std::atoi(r.out.substr(r.out.find("forked ") + 7).c_str());
  EXPECT_GT(forked, 0);
  EXPECT_LT(forked, 20) << "the limit of 20 processes was not enforced";
}

TEST_F(SandboxTest, RefusesTheSystemCallsNoSubjectNeeds) {
  // Each line prints what it saw; a refused call's errno is the one its
  // libraries expect (io_uring and clone3: ENOSYS, 38; preallocation:
  // EOPNOTSUPP, after which posix_fallocate writes instead).
  ProcessResult r = Run(
      "grep '^Seccomp:' /proc/self/status; "
      "fallocate -l 1M /workspace/a 2>/dev/null && echo preallocated; "
      "unshare -U true 2>/dev/null && echo nested-namespace; "
      "exec python3 -c \"\n"
      "import ctypes, os, threading\n"
      "libc = ctypes.CDLL(None, use_errno=True)\n"
      "for name, nr in (('io_uring_setup', 425), ('clone3', 435)):\n"
      "    print(name, libc.syscall(nr, 0, 0), ctypes.get_errno())\n"
      "fd = os.open('/workspace/b', os.O_CREAT | os.O_WRONLY)\n"
      "os.posix_fallocate(fd, 0, 1 << 20)\n"
      "print('posix_fallocate wrote', os.fstat(fd).st_size)\n"
      "t = threading.Thread(target=print, args=('a thread ran',))\n"
      "t.start()\n"
      "t.join()\n"
      "\"");
  EXPECT_NE(r.out.find("Seccomp:\t2"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("preallocated"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nested-namespace"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("io_uring_setup -1 38"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("clone3 -1 38"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("posix_fallocate wrote 1048576"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("a thread ran"), std::string::npos) << r.out << r.err;
}

TEST_F(SandboxTest, AJudgeInANamespaceOfItsOwnStartsTheSandboxesOfItsCommandLines) {
  // A process that starts sandboxes from command lines the arena made may
  // live in a user namespace of its own (its network's, when the arena is
  // not root and the process asks for network_via_user_namespace), from
  // which the arena's own descriptors cannot be opened: the filter must
  // still reach bubblewrap. (The families' judges no longer ask for one:
  // AJudgeOfAnArenaThatIsNotRootStartsRealSandboxes.) As an unprivileged
  // user (the arena as root has no such namespace).
  const std::string dir = UnprivilegedFolder();
  ASSERT_FALSE(dir.empty());
  // Bubblewrap itself cannot nest in that namespace here; a stand-in in its
  // place says whether it got the filter on its descriptor.
  {
    std::ofstream stand_in(dir + "/bwrap");
    stand_in << "#!/bin/sh\necho filter of $(wc -c <&9) bytes\n";
  }
  fs::permissions(dir + "/bwrap", fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  const int status = testing_support::AsUnprivileged(dir, [&] {
    setenv("TMPDIR", dir.c_str(), 1);
    setenv("ARENA_BWRAP", (dir + "/bwrap").c_str(), 1);
    auto argv = SandboxArgv(sb_, {"true"});
    if (!argv.ok()) return false;
    ProcessOptions judge;
    judge.argv = *argv;
    judge.isolate_network = true;
    judge.timeout_s = 20;
    auto r = RunProcess(judge);
    if (!r.ok() || !r->success() || r->out.find("filter of ") == std::string::npos ||
        r->out.find("filter of 0 ") != std::string::npos) {
      std::fprintf(stderr, "%s\n", r.ok() ? (r->out + r->err).c_str() : r.status().ToString().c_str());
      return false;
    }
    return true;
  });
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(RemoveTree(dir).ok());
}

TEST_F(SandboxTest, AJudgeOfAnArenaThatIsNotRootStartsRealSandboxes) {
  // A judge's network namespace that needs no user namespace of its own
  // (network_via_user_namespace = false, as the families' judges ask):
  // as an unprivileged user, the judge keeps the machine's network, and
  // the real bubblewrap it starts makes its namespaces, the filter on.
  const std::string dir = UnprivilegedFolder();
  ASSERT_FALSE(dir.empty());
  const int status = testing_support::AsUnprivileged(dir, [&] {
    setenv("TMPDIR", dir.c_str(), 1);
    auto argv = SandboxArgv(sb_, {"/bin/sh", "-c", "grep ^Seccomp: /proc/self/status; echo sandboxed"});
    if (!argv.ok()) return false;
    ProcessOptions judge;
    judge.argv = *argv;
    judge.isolate_network = true;
    judge.network_via_user_namespace = false;
    judge.timeout_s = 20;
    auto r = RunProcess(judge);
    if (!r.ok() || !r->success() || r->out.find("sandboxed") == std::string::npos ||
        r->out.find("Seccomp:\t2") == std::string::npos) {
      std::fprintf(stderr, "%s\n", r.ok() ? (r->out + r->err).c_str() : r.status().ToString().c_str());
      return false;
    }
    return true;
  });
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(RemoveTree(dir).ok());
}

TEST_F(SandboxTest, MissingWorkspaceIsBadInput) {
  sb_.workspace = root_ + "/nope";
  auto p = SandboxedProcess(sb_, {"true"});
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace arena
