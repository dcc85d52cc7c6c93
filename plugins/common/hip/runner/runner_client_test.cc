// The judge's side of a runner against runners that misbehave: stand-ins
// written in sh that speak (or break) the protocol on their stdin socket.
#include "plugins/common/hip/runner/runner_client.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

// `{"ok":true,"ready":true}` framed (24 bytes), as printf writes it.
constexpr char kReady[] = "printf '\\030\\000\\000\\000{\"ok\":true,\"ready\":true}' >&0; ";

std::string Log() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/runner-" + std::to_string(getpid()) + ".log";
}

RunnerClient Runner(const std::string& script) {
  return RunnerClient("candidate", {"/bin/sh", "-c", script}, Log());
}

TEST(RunnerClient, ARunnerThatAnswersServes) {
  // Reads the request, answers {"ok":true}.
  auto r = Runner(std::string(kReady) +
                  "head -c 18 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"ok\":true}' >&0; sleep 5");
  ASSERT_TRUE(r.Start(5).ok());
  auto a = r.Request({{"op", "empty"}}, 5);  // 14 bytes of JSON + 4
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_TRUE((*a)["ok"].get<bool>());
}

TEST(RunnerClient, ALaunchedRunnerIsAskedNothingBeforeItsStartIsAwaited) {
  // Says it is ready a moment after it starts; then answers one request.
  auto r = Runner("sleep 0.3; " + std::string(kReady) +
                  "head -c 18 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"ok\":true}' >&0; sleep 5");
  ASSERT_TRUE(r.Launch().ok());
  EXPECT_TRUE(r.alive());
  EXPECT_FALSE(r.ready());
  auto early = r.Request({{"op", "empty"}}, 5);
  ASSERT_FALSE(early.ok());
  EXPECT_EQ(early.status().code(), StatusCode::kFailedPrecondition) << early.status().message();
  ASSERT_TRUE(r.AwaitReady(5).ok());
  EXPECT_TRUE(r.ready());
  auto a = r.Request({{"op", "empty"}}, 5);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_TRUE((*a)["ok"].get<bool>());
  r.Stop();
  EXPECT_FALSE(r.ready());
}

TEST(RunnerClient, ARefusalAtStartIsTheSubjectsWithItsReason) {
  auto r = Runner("printf '\\034\\000\\000\\000{\"ok\":false,\"why\":\"no lib!\"}' >&0; sleep 5");
  Status s = r.Start(5);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("candidate: no lib!"), std::string::npos) << s.message();
}

TEST(RunnerClient, GarbageAtStartIsNotAReadyRunner) {
  auto r = Runner("printf 'hello judge' >&0; sleep 5");
  Status s = r.Start(5);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("did not start"), std::string::npos) << s.message();
}

TEST(RunnerClient, ADeadRunnerIsReportedWithHowItEnded) {
  auto r = Runner(std::string(kReady) + "head -c 18 <&0 >/dev/null; echo dying >&2; exit 7");
  ASSERT_TRUE(r.Start(5).ok());
  auto a = r.Request({{"op", "empty"}}, 5);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("exited with status 7"), std::string::npos) << a.status().message();
  EXPECT_NE(r.LogTail().find("dying"), std::string::npos);
}

TEST(RunnerClient, AKilledRunnerSaysBySignal) {
  auto r = Runner(std::string(kReady) + "head -c 18 <&0 >/dev/null; kill -9 $$");
  ASSERT_TRUE(r.Start(5).ok());
  auto a = r.Request({{"op", "empty"}}, 5);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("killed by"), std::string::npos) << a.status().message();
}

TEST(RunnerClient, AHungRunnerTimesOutAndIsKilled) {
  auto r = Runner(std::string(kReady) + "sleep 100");
  ASSERT_TRUE(r.Start(5).ok());
  auto a = r.Request({{"op", "empty"}}, 0.3);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_FALSE(r.alive());
}

TEST(RunnerClient, AForgedAnswerBreaksTheProtocol) {
  // A reply carrying what only the judge may say.
  auto r = Runner(std::string(kReady) +
                  "head -c 18 <&0 >/dev/null; "
                  "printf '\\035\\000\\000\\000{\"ok\":true,\"status\":\"passed\"}' >&0; sleep 5");
  ASSERT_TRUE(r.Start(5).ok());
  auto a = r.Request({{"op", "empty"}}, 5);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("broke the protocol"), std::string::npos) << a.status().message();
  EXPECT_FALSE(r.alive());
}

TEST(RunnerClient, FrozenRunnersDoNotRun) {
  // A runner that keeps appending to its log; frozen, the log stands still
  // from the moment Freeze returns (it waits for every thread to stop).
  auto r = Runner(std::string(kReady) + "while :; do echo tick >&2; sleep 0.01; done");
  ASSERT_TRUE(r.Start(5).ok());
  usleep(100000);
  r.Freeze(true);
  const std::string before = r.LogTail(1 << 20);
  usleep(200000);
  EXPECT_EQ(r.LogTail(1 << 20), before);
  r.Freeze(false);
  usleep(200000);
  EXPECT_NE(r.LogTail(1 << 20), before);
}

TEST(RunnerClient, ARunnerThatResumesItselfIsNamed) {
  // A process outside the runner's tree (started through a subshell that
  // ends, so that it is nobody's child there) sends the runner SIGCONT
  // every 2 ms: a stop undone as soon as it is made. The runner burns a
  // CPU meanwhile.
  auto r = Runner(std::string(kReady) +
                  "( setsid sh -c \"while kill -CONT $$ 2>/dev/null; do sleep 0.002; done\" & ); "
                  "while :; do :; done");
  ASSERT_TRUE(r.Start(5).ok());
  usleep(100000);
  r.Freeze(true);
  usleep(200000);
  const std::string ran = r.RanWhileStopped();
  EXPECT_NE(ran.find("ran while it was stopped"), std::string::npos) << ran;
  r.Freeze(false);
  // One that stays stopped (it burns a CPU too, until stopped) is not.
  auto still = Runner(std::string(kReady) + "while :; do :; done");
  ASSERT_TRUE(still.Start(5).ok());
  usleep(100000);
  still.Freeze(true);
  usleep(200000);
  EXPECT_EQ(still.RanWhileStopped(), "");
  still.Freeze(false);
  EXPECT_EQ(still.RanWhileStopped(), "");  // not stopped: nothing to tell
}

TEST(RunnerClient, ARunnerResumedForAMomentIsNamed) {
  // Resumed once for a moment by a process outside its tree, and stopped
  // again at once: the runner (a sleep) spends microseconds on a CPU, far
  // under what the time check lets by, and is named all the same: its
  // stopped thread was put on a CPU again. Time enough to queue work on
  // the GPU, which is what a resumed runner would do.
  auto r = Runner(std::string(kReady) +
                  "( setsid sh -c \"while ! grep -q '^State:.*T' /proc/$$/status; do sleep 0.01; done; "
                  "sleep 0.05; kill -CONT $$; kill -STOP $$\" & ); exec sleep 100");
  ASSERT_TRUE(r.Start(5).ok());
  usleep(100000);
  r.Freeze(true);
  EXPECT_EQ(r.RanWhileStopped(), "");  // not yet
  usleep(400000);
  const std::string ran = r.RanWhileStopped();
  EXPECT_NE(ran.find("ran while it was stopped (1 of its stopped threads put on a CPU again)"), std::string::npos)
      << ran;
  r.Freeze(false);
  // Stopped and resumed by the judge alone, a runner with several
  // threads (a pipeline's processes, each waiting) is not.
  auto still = Runner(std::string(kReady) + "sleep 100 | sleep 100 | cat");
  ASSERT_TRUE(still.Start(5).ok());
  usleep(100000);
  still.TakeStopTally();
  for (int i = 0; i < 3; ++i) {
    still.Freeze(true);
    usleep(100000);
    EXPECT_EQ(still.RanWhileStopped(), "");
    still.Freeze(false);
    usleep(20000);
  }
  // Each stop counted the pipeline's shell and its three processes' threads.
  const RunnerClient::StopTally tally = still.TakeStopTally();
  EXPECT_EQ(tally.stops, 3);
  EXPECT_GE(tally.fewest_counted, 4u);
  EXPECT_LT(tally.most_ns_while_stopped, 500000u);  // under the slack: nothing ran
  EXPECT_EQ(still.TakeStopTally().stops, 0);
}

// The state letter of every process below (and with) `pid`, from the
// children lists (read while the tree is stopped, it stands still).
std::string TreeStates(pid_t pid) {
  std::string states;
  std::vector<pid_t> todo{pid};
  while (!todo.empty()) {
    const pid_t p = todo.back();
    todo.pop_back();
    std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
    const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t close = text.rfind(')');
    if (close == std::string::npos || close + 2 >= text.size()) continue;
    states += text[close + 2];
    const std::string task = "/proc/" + std::to_string(p) + "/task/" + std::to_string(p) + "/children";
    std::ifstream children(task);
    for (long child; children >> child;) todo.push_back(static_cast<pid_t>(child));
  }
  return states;
}

TEST(RunnerClient, WhatForksAsTheRunnerStopsIsStoppedToo) {
  // A runner whose four processes each start one every millisecond or so
  // (a tree of a few hundred, read in milliseconds): one started
  // after the judge read the tree, before its parent stopped, is found by
  // reading it again and stopped too. Every process of the tree is
  // stopped (or ended) once Freeze returns, and the stop is not taken for
  // running.
  const std::string pid_file = testing::TempDir() + "/forking.pid";
  auto r = Runner(std::string(kReady) + "echo $$ > " + pid_file +
                  "; for i in 1 2 3 4; do (while :; do sleep 0.05 & done) & done; wait");
  ASSERT_TRUE(r.Start(5).ok());
  usleep(200000);
  std::ifstream in(pid_file);
  pid_t pid = 0;
  ASSERT_TRUE(in >> pid);
  for (int i = 0; i < 5; ++i) {
    r.Freeze(true);
    const std::string states = TreeStates(pid);
    EXPECT_EQ(states.find_first_not_of("TtZ"), std::string::npos) << states;
    usleep(100000);
    EXPECT_EQ(r.RanWhileStopped(), "");
    r.Freeze(false);
    usleep(50000);
  }
}

TEST(RunnerClient, AProcessStartedWhileStoppedIsNamed) {
  // Resumed by a process outside its tree, the runner starts a process and
  // stops itself again: something in a stopped tree ran.
  auto r = Runner(std::string(kReady) + "trap 'sleep 10 & kill -STOP $$' CONT; " +
                  "( setsid sh -c \"while ! grep -q '^State:.*T' /proc/$$/status; do sleep 0.01; done; "
                  "sleep 0.05; kill -CONT $$\" & ); while :; do :; done");
  ASSERT_TRUE(r.Start(5).ok());
  usleep(100000);
  r.Freeze(true);
  usleep(400000);
  const std::string ran = r.RanWhileStopped();
  EXPECT_NE(ran.find("ran while it was stopped (a process was started in it)"), std::string::npos) << ran;
  r.Freeze(false);
}

TEST(RunnerClient, AProcessWhoseTracerLetsTheStopGoIsNamed) {
  // A process of the runner traced by another that lets every stop go
  // (PTRACE_CONT without the signal): it never stops, and sleeps or runs
  // on while the other subject is timed. Here the tracer is a process of
  // the test's; in a runner, one of the runner's own that got its SIGSTOP
  // a moment after the process it traces.
  const std::string pid_file = testing::TempDir() + "/traced.pid";
  auto r = Runner(std::string(kReady) + "sleep 100 & echo $! > " + pid_file + "; wait");
  ASSERT_TRUE(r.Start(5).ok());
  usleep(200000);
  std::ifstream in(pid_file);
  pid_t traced = 0;
  ASSERT_TRUE(in >> traced);
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t tracer = fork();
  ASSERT_GE(tracer, 0);
  if (tracer == 0) {
    const char ok = ptrace(PTRACE_SEIZE, traced, nullptr, nullptr) == 0 ? 1 : 0;
    (void)!write(ready[1], &ok, 1);
    for (;;) {
      int status = 0;
      if (waitpid(traced, &status, __WALL) < 0) _exit(0);
      if (WIFSTOPPED(status)) ptrace(PTRACE_CONT, traced, nullptr, nullptr);  // the stop let go
    }
  }
  char ok = 0;
  ASSERT_EQ(read(ready[0], &ok, 1), 1);
  if (!ok) {
    kill(tracer, SIGKILL);
    waitpid(tracer, nullptr, 0);
    GTEST_SKIP() << "this machine lets no process trace another";
  }
  r.Freeze(true);
  usleep(100000);  // as long as a round
  const std::string ran = r.RanWhileStopped();
  EXPECT_NE(ran.find("ran while it was stopped (it never stopped: thread " + std::to_string(traced) + " (state S)"),
            std::string::npos)
      << ran;
  r.Freeze(false);
  kill(tracer, SIGKILL);
  waitpid(tracer, nullptr, 0);
}

TEST(RunnerClient, APauseAtACallAlreadyWitnessedBreaksTheProtocol) {
  // {"op":"call","sets":4} (22 bytes + 4); {"pause":1}, resumed ({"op":
  // "resume"}, 15 + 4), then {"pause":1} again: a pause the runner never
  // draws (one per call, in order), which the subject's code can write.
  auto r = Runner(std::string(kReady) +
                  "head -c 26 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"pause\":1}' >&0; "
                  "head -c 19 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"pause\":1}' >&0; sleep 5");
  const Status started = r.Start(5);
  ASSERT_TRUE(started.ok()) << started.message();
  int witnessed = 0;
  r.on_pause = [&](int64_t) { ++witnessed; };
  auto a = r.Request({{"op", "call"}, {"sets", 4}}, 5);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("a witness out of place"), std::string::npos) << a.status().message();
  EXPECT_EQ(witnessed, 1);
}

TEST(RunnerClient, ObservationsAreAnswersToObserveAlone) {
  // {"op":"observe"} (16 bytes + 4) answered with what the runner saw.
  auto r = Runner(std::string(kReady) + "head -c 20 <&0 >/dev/null; printf '\\150\\000\\000\\000{\"ok\":true,\"launches\":2,\"graph_launches\":0,\"findings\":[\"cuMemHostAlloc: host memory the GPU can reach\"]}' >&0; sleep 5");
  ASSERT_TRUE(r.Start(5).ok());
  auto a = r.Request({{"op", "observe"}}, 5);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ((*a)["launches"].get<int>(), 2);
  EXPECT_EQ((*a)["findings"].size(), 1u);
  // The same keys in the answer to another request break the protocol.
  auto other = Runner(std::string(kReady) + "head -c 18 <&0 >/dev/null; printf '\\030\\000\\000\\000{\"ok\":true,\"launches\":2}' >&0; sleep 5");
  ASSERT_TRUE(other.Start(5).ok());
  auto b = other.Request({{"op", "empty"}}, 5);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("broke the protocol"), std::string::npos) << b.status().message();
}

TEST(RunnerClient, AReplaysSplitWaitsForTheJudgesHandler) {
  // {"op":"replay"} (15 bytes + 4); {"split":3}; the judge's {"op":"go"}
  // (11 + 4) read before the answer.
  auto r = Runner(std::string(kReady) +
                  "head -c 19 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"split\":3}' >&0; "
                  "head -c 15 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"ok\":true}' >&0; sleep 5");
  ASSERT_TRUE(r.Start(5).ok());
  int64_t seen = -1;
  r.on_split = [&](int64_t call) { seen = call; };
  auto a = r.Request({{"op", "replay"}}, 5);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_TRUE((*a)["ok"].get<bool>());
  EXPECT_EQ(seen, 3);
}

TEST(RunnerClient, ASecondSplitOrAPauseOutOfPlaceBreaksTheProtocol) {
  auto twice = Runner(std::string(kReady) +
                      "head -c 19 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"split\":3}' >&0; "
                      "head -c 15 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"split\":4}' >&0; sleep 5");
  ASSERT_TRUE(twice.Start(5).ok());
  auto a = twice.Request({{"op", "replay"}}, 5);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("a witness out of place"), std::string::npos) << a.status().message();
  // A pause in a replay (only eager calls of several sets pause).
  auto paused = Runner(std::string(kReady) +
                       "head -c 19 <&0 >/dev/null; printf '\\013\\000\\000\\000{\"pause\":0}' >&0; sleep 5");
  ASSERT_TRUE(paused.Start(5).ok());
  auto b = paused.Request({{"op", "replay"}}, 5);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("a witness out of place"), std::string::npos) << b.status().message();
}

}  // namespace
}  // namespace arena::hip2hip
