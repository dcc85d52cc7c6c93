#include "core/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/testing/unprivileged.h"

namespace arena {
namespace {

ProcessOptions Sh(const std::string& script, double timeout_s = 10) {
  ProcessOptions o;
  o.argv = {"/bin/sh", "-c", script};
  o.timeout_s = timeout_s;
  return o;
}

bool PidAlive(int pid) { return kill(pid, 0) == 0; }

TEST(SecondsText, WholeSecondsAndOneDecimal) {
  EXPECT_EQ(SecondsText(15.0), "15 s");
  EXPECT_EQ(SecondsText(1.5), "1.5 s");
  EXPECT_EQ(SecondsText(0.25), "0.2 s");
  EXPECT_EQ(SecondsText(1200.0), "1200 s");
}

TEST(RunProcess, CapturesOutputAndExitCode) {
  auto r = RunProcess(Sh("echo out; echo err >&2; exit 3"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->signal, 0);
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->Describe(), "exit 3");
}

TEST(RunProcess, FeedsStdinAndSetsEnvironment) {
  ProcessOptions o = Sh("read line; echo \"$line-$ARENA_TEST_VAR\"");
  o.stdin_data = "hello\n";
  o.env["ARENA_TEST_VAR"] = "set";
  auto r = RunProcess(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "hello-set\n");
}

TEST(RunProcess, RecordsTheKillingSignal) {
  auto r = RunProcess(Sh("kill -SEGV $$"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->signal, SIGSEGV);
  EXPECT_NE(r->Describe().find("SIGSEGV"), std::string::npos) << r->Describe();
}

TEST(RunProcess, TimeLimitKillsTheWholeProcessTree) {
  const std::string pidfile = testing::TempDir() + "/grandchild.pid";
  std::filesystem::remove(pidfile);
  auto start = std::chrono::steady_clock::now();
  // The child starts a grandchild in the background, then hangs.
  auto r = RunProcess(Sh("sleep 1000 & echo $! > " + pidfile + "; sleep 1000", 1.0));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(took, 5.0);
  int grandchild = 0;
  std::ifstream(pidfile) >> grandchild;
  ASSERT_GT(grandchild, 0);
  for (int i = 0; i < 50 && PidAlive(grandchild); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(PidAlive(grandchild)) << "grandchild " << grandchild << " outlived the time limit";
}

TEST(RunProcess, LeftoverChildrenAreKilledAfterExit) {
  const std::string pidfile = testing::TempDir() + "/leftover.pid";
  std::filesystem::remove(pidfile);
  auto r = RunProcess(Sh("sleep 1000 >/dev/null 2>&1 & echo $! > " + pidfile + "; exit 0"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  int pid = 0;
  std::ifstream(pidfile) >> pid;
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 50 && PidAlive(pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(PidAlive(pid));
}

TEST(RunProcess, OutputIsCapped) {
  ProcessOptions o = Sh("head -c 100000 /dev/zero");
  o.output_cap = 1000;
  auto r = RunProcess(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out.size(), 1000u);
  EXPECT_EQ(r->out_dropped, 99000u);
}

TEST(RunProcess, MissingProgramIsAnError) {
  ProcessOptions o;
  o.argv = {"arena-no-such-program"};
  auto r = RunProcess(o);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

TEST(RunProcess, MemoryLimitApplies) {
  // dd allocates its whole block up front.
  ProcessOptions o = Sh("dd if=/dev/zero of=/dev/null bs=400M count=1 2>/dev/null");
  o.memory_limit_bytes = 200ll << 20;
  auto r = RunProcess(o);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->success()) << "a 400 MB allocation under a 200 MB limit succeeded";
}

class DiskWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "/disk_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    // Whatever a test left unreadable, readable again, then gone.
    MeasureDiskUsage({dir_});
    std::filesystem::remove_all(dir_);
  }

  // `script` run in dir_, its writes watched.
  ProcessResult Watched(const std::string& script, long long bytes, long long entries = 0,
                        double timeout_s = 20) {
    ProcessOptions o = Sh("cd " + ShellQuote(dir_) + " && " + script, timeout_s);
    o.disk_folders = {dir_};
    o.disk_bytes = bytes;
    o.disk_entries = entries;
    auto r = RunProcess(o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return *r;
  }

  std::string dir_;
};

TEST_F(DiskWatchTest, UsageIsTheDiskBlocksOfEveryEntryOnce) {
  ProcessResult r = Watched(
      "head -c 1048576 /dev/urandom > a && mkdir -p d/e && head -c 2097152 /dev/urandom > d/e/b && "
      "ln d/e/b d/again && truncate -s 10G sparse && ln -s /usr link && sync", 0);
  ASSERT_TRUE(r.success()) << r.Describe() << r.err;
  const DiskUsage u = MeasureDiskUsage({dir_, dir_ + "/d"});
  EXPECT_TRUE(u.unmeasured.empty()) << u.unmeasured;
  // 3 MiB of data (the link to b counted once, the sparse file's 10 GiB
  // taking no block, /usr behind the link not entered), plus the folders'.
  EXPECT_GE(u.bytes, 3 << 20);
  EXPECT_LT(u.bytes, (3 << 20) + (1 << 20));
  EXPECT_EQ(u.entries, 7);  // dir_, a, d, d/e, d/e/b, sparse, link
  EXPECT_EQ(MeasureDiskUsage({dir_}, 3).entries, 4) << "counting stops past the cap";
}

TEST_F(DiskWatchTest, AWriterPastItsLimitIsKilled) {
  ProcessResult r = Watched("i=0; while true; do i=$((i+1)); head -c 1048576 /dev/zero > f$i; done",
                            8 << 20);
  EXPECT_FALSE(r.success());
  EXPECT_FALSE(r.timed_out) << "killed at the limit, not at the time limit";
  EXPECT_NE(r.disk_exceeded.find("over their limit of 8 MiB"), std::string::npos) << r.Describe();
  EXPECT_NE(r.Describe().find("killed: its writable folders held"), std::string::npos);
  // Control: within the limit, the same writes are a success.
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  ProcessResult fits = Watched("for i in 1 2 3 4; do head -c 1048576 /dev/zero > g$i; done", 8 << 20);
  EXPECT_TRUE(fits.success()) << fits.Describe();
}

TEST_F(DiskWatchTest, ManyEmptyFilesArePastTheEntriesLimit) {
  ProcessResult r = Watched("i=0; while true; do i=$((i+1)); : > f$i; done", 0, 1000);
  EXPECT_FALSE(r.success());
  EXPECT_NE(r.disk_exceeded.find("more than 1000 files and folders"), std::string::npos)
      << r.Describe();
}

TEST_F(DiskWatchTest, WhatIsWrittenJustBeforeTheEndCounts) {
  ProcessResult r = Watched("head -c 16777216 /dev/zero > f && sync", 8 << 20);
  EXPECT_FALSE(r.success()) << "a program that ends before the first measurement is measured at its end";
  EXPECT_FALSE(r.disk_exceeded.empty());
}

TEST_F(DiskWatchTest, PreallocatedBlocksCount) {
  ProcessResult r = Watched("fallocate -l 64M f && sleep 10", 8 << 20);
  EXPECT_FALSE(r.success());
  EXPECT_NE(r.disk_exceeded.find("over their limit"), std::string::npos) << r.Describe();
  EXPECT_LT(r.wall_s, 5) << "killed at a measurement, not at the end of its sleep";
}

TEST_F(DiskWatchTest, NothingHidesInAFolderMadeUnreadable) {
  // As its owner (root would read it anyway): in a folder of /tmp, whose
  // path that user can walk.
  char tmpl[] = "/tmp/arena-unreadable-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  const int status = testing_support::AsUnprivileged(dir, [&] {
    ProcessOptions o = Sh("cd " + ShellQuote(dir) +
                          " && mkdir d && head -c 16777216 /dev/zero > d/f && chmod 000 d . && sleep 10");
    o.disk_folders = {dir};
    o.disk_bytes = 8 << 20;
    auto r = RunProcess(o);
    if (!r.ok() || r->disk_exceeded.find("over their limit") == std::string::npos) {
      fprintf(stderr, "not caught: %s\n", r.ok() ? r->Describe().c_str() : r.status().ToString().c_str());
      return false;
    }
    return true;
  });
  MeasureDiskUsage({dir});  // readable again, to be removed
  std::filesystem::remove_all(dir);
  EXPECT_EQ(status, 0);
}

TEST_F(DiskWatchTest, NothingHidesTooDeepToMeasure) {
  std::string path = "x";
  for (int i = 0; i < kMaxDiskDepth + 4; ++i) path += "/x";
  ProcessResult r = Watched("mkdir -p " + path + " && sleep 10", 1LL << 40);
  EXPECT_FALSE(r.success());
  EXPECT_NE(r.disk_exceeded.find("nested deeper than 128 levels"), std::string::npos)
      << r.Describe();
}

TEST(BytesText, UnitsOfTwo) {
  EXPECT_EQ(BytesText(512), "512 bytes");
  EXPECT_EQ(BytesText(8 << 20), "8 MiB");
  EXPECT_EQ(BytesText(3 << 29), "1.5 GiB");
}

TEST(RunProcess, NetworkIsolation) {
  ASSERT_TRUE(NetworkIsolationAvailable()) << "CI machines must support it (root or user namespaces)";
  ProcessOptions o = Sh("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
  o.isolate_network = true;
  auto r = RunProcess(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "lo\n") << "an isolated child sees only its own loopback";
}

// A worker that answers each line with "ok:<line>", hangs on "hang" and
// crashes on "crash".
constexpr char kWorker[] =
    "while read line; do case \"$line\" in hang) sleep 1000;; crash) kill -SEGV $$;; "
    "*) echo \"ok:$line\";; esac; done";

TEST(RunProcess, ChildrenDoNotInheritOpenDescriptors) {
  // A descriptor open in the parent without close-on-exec (a socket
  // accepted by another thread, say) must not reach the child.
  int fd = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 3);
  const std::string probe = "test -e /proc/$$/fd/" + std::to_string(fd) +
                            " && echo inherited || echo closed";
  auto r = RunProcess(Sh(probe));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "closed\n");
  const std::string worker = "read l; " + probe;
  auto w = WorkerProcess::Start(Sh(worker));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*(*w)->Request("x", 5), "closed");
  ::close(fd);
}

TEST(WorkerProcess, RequestsAndReplies) {
  auto w = WorkerProcess::Start(Sh(kWorker));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*(*w)->Request("one", 5), "ok:one");
  EXPECT_EQ(*(*w)->Request("two", 5), "ok:two");
  EXPECT_TRUE((*w)->alive());
}

TEST(WorkerProcess, HangIsKilledAtTheTimeLimit) {
  auto w = WorkerProcess::Start(Sh(kWorker));
  ASSERT_TRUE(w.ok());
  auto start = std::chrono::steady_clock::now();
  auto r = (*w)->Request("hang", 0.5);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_LT(took, 3.0);
  EXPECT_FALSE((*w)->alive());
  EXPECT_FALSE((*w)->Request("again", 1).ok());
}

TEST(RunProcess, InputAChildNeverReadsIsNotASignal) {
  ProcessOptions o = Sh("exit 3");
  o.stdin_data = std::string(4 << 20, 'x');  // more than a pipe holds
  auto r = RunProcess(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 3);
}

TEST(WorkerProcess, ARequestToAWorkerThatDiedIsAnErrorNotASignal) {
  // A worker that ended while idle: the next request's write meets a pipe
  // with no reader, which is the worker's failure, not the end of the
  // process holding it (SIGPIPE).
  auto w = WorkerProcess::Start(Sh("read l; echo ok; exec sleep 0.2"));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*(*w)->Request("one", 5), "ok");
  usleep(600000);
  auto r = (*w)->Request(std::string(1 << 20, 'x'), 2);  // more than a pipe holds
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE((*w)->alive());
}

TEST(WorkerProcess, CrashIsReportedWithItsSignal) {
  auto w = WorkerProcess::Start(Sh(kWorker));
  ASSERT_TRUE(w.ok());
  auto r = (*w)->Request("crash", 5);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("SIGSEGV"), std::string::npos) << r.status().message();
  EXPECT_FALSE((*w)->alive());
}

TEST(WorkerProcess, StderrIsKept) {
  auto w = WorkerProcess::Start(Sh("echo starting >&2; " + std::string(kWorker)));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Request("x", 5).ok());
  EXPECT_NE((*w)->StderrTail().find("starting"), std::string::npos);
}

TEST(WorkerProcess, DiesWithTheProcessThatStartedIt) {
  // A stand-in arena (a forked child of this test) starts a worker that
  // writes its pid and sleeps, then is killed with SIGKILL: the worker must
  // not outlive it.
  const std::string pid_file = testing::TempDir() + "/worker_pid";
  std::filesystem::remove(pid_file);
  pid_t arena = fork();
  ASSERT_GE(arena, 0);
  if (arena == 0) {
    auto w = WorkerProcess::Start(Sh("echo $$ > " + pid_file + "; exec sleep 600"));
    if (!w.ok()) _exit(1);
    pause();
    _exit(0);
  }
  int worker = 0;
  for (int i = 0; i < 100 && worker == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream(pid_file) >> worker;
  }
  ASSERT_GT(worker, 0) << "the worker never started";
  ASSERT_TRUE(PidAlive(worker));
  kill(arena, SIGKILL);
  waitpid(arena, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // Killed, it lingers as a zombie until init reaps it: gone either way.
    std::ifstream stat("/proc/" + std::to_string(worker) + "/stat");
    std::string line;
    std::getline(stat, line);
    gone = !stat || line.find(") Z ") != std::string::npos;
  }
  EXPECT_TRUE(gone) << "worker " << worker << " outlived the process that started it";
  if (!gone) kill(worker, SIGKILL);
}

}  // namespace
}  // namespace arena
