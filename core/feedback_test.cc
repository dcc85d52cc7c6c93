#include "core/feedback.h"

#include <unistd.h>

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
  auto server = FeedbackServer::Start(dir + "/sock", [&]() -> Result<FeedbackReport> {
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
  auto server = FeedbackServer::Start(dir + "/sock", []() -> Result<FeedbackReport> {
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
  auto server = FeedbackServer::Start(dir + "/sock", [&]() -> Result<FeedbackReport> {
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

TEST(FeedbackServer, RefusesOverlongSocketPaths) {
  EXPECT_FALSE(FeedbackServer::Start("/tmp/" + std::string(120, 'x'), nullptr).ok());
}

}  // namespace
}  // namespace arena
