#include "core/feedback.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/files.h"

namespace arena {
namespace {

ConfigResult Config(const std::string& name, StageOutcome cand, double tb = 0, double tc = 0) {
  ConfigResult c;
  c.name = name;
  c.baseline_check = StageOutcome::Passed();
  c.candidate_check = cand;
  if (tb > 0) {
    c.timing.stage = StageOutcome::Passed();
    c.timing.baseline.us = {tb};
    c.timing.candidate.us = {tc};
  } else {
    c.timing.stage = StageOutcome::Skipped("skipped: no GPU");
  }
  return c;
}

TEST(FeedbackReport, SaysWhatPassedAndHidesReferenceValues) {
  TaskResult r;
  r.candidate_compile = StageOutcome::Passed();
  r.integrity = StageOutcome::Passed();
  r.configs = {Config("t1", StageOutcome::Passed(), 10, 5),
               Config("t2", StageOutcome::Failed(
                                "trial 0: 'y': 3 of 100 element(s) outside atol=0.01 rtol=0.01; "
                                "e.g. got 1.5, expected 2.25"))};
  FeedbackReport f = MakeFeedbackReport(r);
  EXPECT_TRUE(f.compiled);
  EXPECT_FALSE(f.correct);
  EXPECT_NE(f.text.find("t1: correct, 2.000x"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("t2: WRONG: trial 0: 'y': 3 of 100 element(s) outside"), std::string::npos);
  EXPECT_EQ(f.text.find("2.25"), std::string::npos) << "a reference value leaked:\n" << f.text;
}

TEST(FeedbackReport, AFailureWhenTimedIsNotCorrectAndHidesReferenceValues) {
  TaskResult r;
  r.candidate_compile = StageOutcome::Passed();
  r.integrity = StageOutcome::Passed();
  ConfigResult timed = Config("t1", StageOutcome::Passed(), 10, 5);
  timed.timing.stage = StageOutcome::Failed(
      "candidate: wrong when timed: the outputs of a timed call (round 7): 'y': 5 of 65536 "
      "element(s) outside atol=0.002 rtol=0.002; e.g. got 1.5, expected 2.25");
  r.configs = {timed, Config("t2", StageOutcome::Passed(), 10, 5)};
  FeedbackReport f = MakeFeedbackReport(r);
  EXPECT_FALSE(f.correct);
  EXPECT_NE(f.text.find("t1: correct, FAILED WHEN TIMED (candidate: wrong when timed"), std::string::npos)
      << f.text;
  EXPECT_NE(f.text.find("summary: NOT correct"), std::string::npos) << f.text;
  EXPECT_EQ(f.text.find("2.25"), std::string::npos) << "a reference value leaked:\n" << f.text;
}

TEST(FeedbackReport, CompileErrorsVerbatim) {
  TaskResult r;
  r.candidate_compile = StageOutcome::Failed("SyntaxError: invalid syntax", "File kernel.py, line 3");
  FeedbackReport f = MakeFeedbackReport(r);
  EXPECT_FALSE(f.compiled);
  EXPECT_NE(f.text.find("File kernel.py, line 3"), std::string::npos);
}

TEST(FeedbackServer, AnswersOverItsSocketAndCountsCalls) {
  const std::string dir = "/tmp/arena-feedback-test-" + std::to_string(getpid());
  ASSERT_TRUE(ResetDir(dir).ok());
  int evaluated = 0;
  auto server = FeedbackServer::Start(dir + "/sock", [&](const FeedbackOptions&)
                                                         -> Result<FeedbackReport> {
    ++evaluated;
    FeedbackReport r;
    r.compiled = r.correct = true;
    r.text = "all good " + std::to_string(evaluated) + "\n";
    return r;
  });
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto first = RequestFeedback(dir + "/sock", 10);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->correct);
  EXPECT_EQ(first->text, "all good 1\n");
  auto second = RequestFeedback(dir + "/sock", 10);
  EXPECT_EQ(second->text, "all good 2\n");
  EXPECT_EQ((*server)->calls(), 2);
  server->reset();
  EXPECT_FALSE(std::filesystem::exists(dir + "/sock"));
  EXPECT_FALSE(RequestFeedback(dir + "/sock", 1).ok());
}

TEST(FeedbackServer, ErrorsReachTheClient) {
  const std::string dir = "/tmp/arena-feedback-err-" + std::to_string(getpid());
  ASSERT_TRUE(ResetDir(dir).ok());
  auto server = FeedbackServer::Start(dir + "/sock", [](const FeedbackOptions&)
                                                         -> Result<FeedbackReport> {
    return Internal("disk full");
  });
  ASSERT_TRUE(server.ok());
  auto r = RequestFeedback(dir + "/sock", 10);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->correct);
  EXPECT_NE(r->text.find("disk full"), std::string::npos);
}

TEST(FeedbackServer, CompileFailuresAndUncheckedReportsKeepTheirMeaning) {
  const std::string dir = "/tmp/arena-feedback-kinds-" + std::to_string(getpid());
  ASSERT_TRUE(ResetDir(dir).ok());
  int call = 0;
  auto server = FeedbackServer::Start(dir + "/sock", [&](const FeedbackOptions&)
                                                         -> Result<FeedbackReport> {
    FeedbackReport r;
    if (++call == 1) {
      r.compiled = false;  // does not compile
    } else {
      r.compiled = true;   // compiles; no GPU to check on
      r.checked = false;
    }
    return r;
  });
  ASSERT_TRUE(server.ok());
  auto no_compile = RequestFeedback(dir + "/sock", 10);
  ASSERT_TRUE(no_compile.ok());
  EXPECT_FALSE(no_compile->compiled);
  EXPECT_FALSE(no_compile->correct);
  auto unchecked = RequestFeedback(dir + "/sock", 10);
  ASSERT_TRUE(unchecked.ok());
  EXPECT_TRUE(unchecked->compiled);
  EXPECT_FALSE(unchecked->checked);
  EXPECT_FALSE(unchecked->correct);
}

TEST(FeedbackServer, CarriesTheOptionsAndRefusesBadOnes) {
  const std::string dir = "/tmp/arena-feedback-opts-" + std::to_string(getpid());
  ASSERT_TRUE(ResetDir(dir).ok());
  FeedbackOptions seen;
  auto server = FeedbackServer::Start(dir + "/sock", [&](const FeedbackOptions& o)
                                                         -> Result<FeedbackReport> {
    seen = o;
    if (!o.configs.empty() && o.configs[0] == "nope") return InvalidArgument("no such config");
    FeedbackReport r;
    r.compiled = r.correct = true;
    return r;
  });
  ASSERT_TRUE(server.ok());
  FeedbackOptions asked;
  asked.configs = {"t1", "t2"};
  asked.check_only = true;
  auto r = RequestFeedback(dir + "/sock", 10, asked);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->correct);
  EXPECT_EQ(seen.configs, asked.configs);
  EXPECT_TRUE(seen.check_only);
  // Without options: everything, timed.
  ASSERT_TRUE(RequestFeedback(dir + "/sock", 10).ok());
  EXPECT_TRUE(seen.configs.empty());
  EXPECT_FALSE(seen.check_only);
  // A request the evaluation refuses comes back as bad input, with the why.
  asked.configs = {"nope"};
  auto bad = RequestFeedback(dir + "/sock", 10, asked);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "no such config");
}

TEST(FeedbackServer, AnOverlongRequestIsRefusedAndTheServerGoesOn) {
  const std::string dir = "/tmp/arena-feedback-long-" + std::to_string(getpid());
  ASSERT_TRUE(ResetDir(dir).ok());
  int calls = 0;
  auto server = FeedbackServer::Start(dir + "/sock", [&](const FeedbackOptions&) -> Result<FeedbackReport> {
    ++calls;
    FeedbackReport r;
    r.compiled = r.correct = true;
    return r;
  });
  ASSERT_TRUE(server.ok());
  // 128 KiB with no end of line (within the socket's buffers, so that
  // sending does not wait for a reader).
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string path = dir + "/sock";
  std::snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path.c_str());
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  const std::string flood(128 << 10, 'x');
  ASSERT_EQ(send(fd, flood.data(), flood.size(), MSG_NOSIGNAL), static_cast<ssize_t>(flood.size()));
  std::string reply;
  char buf[256];
  for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) reply.append(buf, n);
  close(fd);
  EXPECT_EQ(reply, "bad-request\na request is one line of at most 65536 bytes\n");
  EXPECT_EQ(calls, 0);
  // The next request is served as ever.
  auto ok = RequestFeedback(dir + "/sock", 10);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(calls, 1);
}

TEST(FeedbackOptions, FieldErrorsNameTheField) {
  EXPECT_TRUE(FeedbackOptions::FromJson(Json::object()).ok());
  auto o = FeedbackOptions::FromJson({{"configs", {"a", "b"}}, {"check_only", true}});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->configs, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(o->check_only);
  auto field = [](const Json& j) { return FeedbackOptions::FromJson(j).status().message(); };
  EXPECT_NE(field({{"configs", {"a", 3}}}).find("configs[1]"), std::string::npos);
  EXPECT_NE(field({{"configs", "a"}}).find("configs"), std::string::npos);
  EXPECT_NE(field({{"check_only", "yes"}}).find("check_only"), std::string::npos);
  EXPECT_NE(field({{"heldout", true}}).find("'heldout'"), std::string::npos);
  EXPECT_FALSE(FeedbackOptions::FromJson(Json::array()).ok());
}

TEST(FeedbackServer, RefusesOverlongSocketPaths) {
  EXPECT_FALSE(FeedbackServer::Start("/tmp/" + std::string(120, 'x'), nullptr).ok());
}

}  // namespace
}  // namespace arena
