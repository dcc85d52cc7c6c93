#include "core/results_store.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace arena {
namespace {

TaskResult Sample(const std::string& id, double t_cand) {
  TaskResult r;
  r.task_id = id;
  r.family = "fake";
  r.seed = 99;
  r.baseline_compile = StageOutcome::Passed();
  r.candidate_compile = StageOutcome::Passed();
  r.integrity = StageOutcome::Passed();
  ConfigResult c;
  c.name = "t1";
  c.kind = ConfigKind::kTuning;
  c.bytes = 4096;
  c.baseline_check = StageOutcome::Passed();
  c.candidate_check = StageOutcome::Passed();
  c.timing.stage = StageOutcome::Passed();
  c.timing.method = "fake";
  c.timing.baseline.us = {10, 10, 10};
  c.timing.candidate.us = {t_cand, t_cand, t_cand};
  r.configs.push_back(c);
  return r;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = testing::TempDir() + "/store_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db";
    std::filesystem::remove(path_);
    auto s = ResultsStore::Open(path_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(*s);
    info_.run_id = "run-1";
    info_.agent = "noop";
    info_.selector = "all";
    info_.created_at = NowIso8601();
    info_.task_ids = {"f/s/a", "f/s/b"};
    ASSERT_TRUE(store_->CreateRun(info_).ok());
  }
  std::string path_;
  std::unique_ptr<ResultsStore> store_;
  RunInfo info_;
};

TEST_F(StoreTest, DuplicateRunIsRefused) {
  EXPECT_EQ(store_->CreateRun(info_).code(), StatusCode::kAlreadyExists);
}

TEST_F(StoreTest, SaveAndLoadRoundTripInRunOrder) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/b", 5)).ok());
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  auto loaded = store_->LoadTasks("run-1");
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[0].task_id, "f/s/a");
  EXPECT_EQ((*loaded)[0].ToJson(), Sample("f/s/a", 2).ToJson());
  auto finished = store_->FinishedTasks("run-1");
  EXPECT_EQ(finished->size(), 2u);
}

TEST_F(StoreTest, TablesHoldScoresStagesAndRawSamples) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  auto rows = store_->Query(
      "SELECT correct, quadrant, speedup_mean, score FROM task_results WHERE task_id='f/s/a'");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0][0], "1");
  EXPECT_EQ((*rows)[0][1], "not_checked");
  EXPECT_DOUBLE_EQ(std::stod((*rows)[0][2]), 5.0);
  EXPECT_DOUBLE_EQ(std::stod((*rows)[0][3]), 620.0);
  auto timings = store_->Query(
      "SELECT subject, median_us, samples_json FROM timings ORDER BY subject");
  ASSERT_EQ(timings->size(), 2u);
  EXPECT_EQ((*timings)[0][0], "baseline");
  EXPECT_EQ((*timings)[1][2], "[2.0,2.0,2.0]");
  auto stages = store_->Query("SELECT count(*) FROM stages WHERE task_id='f/s/a'");
  EXPECT_EQ((*stages)[0][0], "6");  // 2 compiles, integrity, 2 checks, 1 timing
  auto configs = store_->Query("SELECT config, kind, bytes, speedup FROM configurations");
  ASSERT_EQ(configs->size(), 1u);
  EXPECT_EQ((*configs)[0][1], "tuning");
}

TEST_F(StoreTest, SavingAgainReplacesEverything) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 10)).ok());
  auto rows = store_->Query("SELECT count(*), max(speedup_mean) FROM task_results");
  EXPECT_EQ((*rows)[0][0], "1");
  EXPECT_DOUBLE_EQ(std::stod((*rows)[0][1]), 1.0);
  auto timings = store_->Query("SELECT count(*) FROM timings");
  EXPECT_EQ((*timings)[0][0], "2");
}

TEST_F(StoreTest, ReopenKeepsData) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  store_.reset();
  auto again = ResultsStore::Open(path_);
  ASSERT_TRUE(again.ok());
  auto run = (*again)->GetRun("run-1");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->task_ids.size(), 2u);
  EXPECT_EQ((*again)->FinishedTasks("run-1")->count("f/s/a"), 1u);
  EXPECT_FALSE((*again)->GetRun("nope").ok());
}

TEST_F(StoreTest, MergeCopiesWhatIsMissingAndFinishesRunsItCompletes) {
  // This store: run-1 with task a (b still to come). Another machine's
  // store: run-1 resumed to the end (a and b), and a run of its own.
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 5)).ok());
  const std::string other_path = path_ + ".other";
  std::filesystem::remove(other_path);
  auto other = ResultsStore::Open(other_path);
  ASSERT_TRUE(other.ok());
  RunInfo resumed = info_;
  resumed.status = "finished";
  ASSERT_TRUE((*other)->CreateRun(resumed).ok());
  ASSERT_TRUE((*other)->SetRunStatus("run-1", "finished").ok());
  ASSERT_TRUE((*other)->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  ASSERT_TRUE((*other)->SaveTask("run-1", Sample("f/s/b", 4)).ok());
  RunInfo own = info_;
  own.run_id = "run-2";
  own.agent = "autotune";
  own.task_ids = {"f/s/a"};
  ASSERT_TRUE((*other)->CreateRun(own).ok());
  ASSERT_TRUE((*other)->SaveTask("run-2", Sample("f/s/a", 1)).ok());

  auto merged = MergeStore(**other, *store_);
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(merged->runs_added, 1);
  EXPECT_EQ(merged->tasks_added, 2);  // run-1's b, run-2's a
  EXPECT_EQ(merged->tasks_kept, 1);   // run-1's a: this store's stays
  ASSERT_EQ(merged->lines.size(), 2u);
  EXPECT_EQ(merged->lines[0], "run run-1: 1 task(s) added, 1 already here");
  EXPECT_EQ(merged->lines[1], "run run-2: new, 1 task(s) added (unfinished)");
  EXPECT_EQ(store_->GetRun("run-1")->status, "finished") << "now complete here";
  EXPECT_EQ(store_->GetRun("run-2")->status, "running") << "unfinished there too";
  auto a = store_->LoadTasks("run-1");
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a->size(), 2u);
  EXPECT_DOUBLE_EQ(a->at(0).configs[0].timing.candidate.us[0], 5) << "this store's result kept";
  // Raw samples came along.
  auto rows = store_->Query("SELECT count(*) FROM timings WHERE run_id = 'run-2'");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0][0], "2");

  // Merging again changes nothing.
  auto again = MergeStore(**other, *store_);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->runs_added + again->tasks_added, 0);

  // A different run under the same id is refused.
  RunInfo clash = own;
  clash.run_id = "run-1";
  clash.agent = "other";
  const std::string clash_path = path_ + ".clash";
  std::filesystem::remove(clash_path);
  auto third = ResultsStore::Open(clash_path);
  ASSERT_TRUE(third.ok());
  ASSERT_TRUE((*third)->CreateRun(clash).ok());
  auto refused = MergeStore(**third, *store_);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("differs"), std::string::npos);
}

TEST_F(StoreTest, SchemaVersionIsRecordedAndANewerOneRefused) {
  auto v = store_->Query("PRAGMA user_version");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ((*v)[0][0], std::to_string(kResultsSchemaVersion));
  ASSERT_TRUE(store_->Query("PRAGMA user_version = 99").ok());
  store_.reset();
  for (bool read_only : {false, true}) {
    auto again = read_only ? ResultsStore::OpenReadOnly(path_) : ResultsStore::Open(path_);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(again.status().message().find("written by a newer arena (schema 99"),
              std::string::npos)
        << again.status().message();
  }
}

TEST_F(StoreTest, AnUnversionedDatabaseIsMigratedWhenOpenedForWriting) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  ASSERT_TRUE(store_->Query("PRAGMA user_version = 0").ok());
  store_.reset();
  auto reader = ResultsStore::OpenReadOnly(path_);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*(*reader)->Query("PRAGMA user_version"))[0][0], "0");  // reading changes nothing
  reader->reset();
  auto writer = ResultsStore::Open(path_);
  ASSERT_TRUE(writer.ok());
  EXPECT_EQ((*(*writer)->Query("PRAGMA user_version"))[0][0], std::to_string(kResultsSchemaVersion));
  EXPECT_EQ((*writer)->LoadTasks("run-1")->size(), 1u);
}

TEST_F(StoreTest, ACorruptResultIsNamedAndSkippedNeverAnAbort) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/b", 5)).ok());
  // One flipped byte, and a document of the wrong shape.
  ASSERT_TRUE(store_->Query("UPDATE task_results SET result_json = substr(result_json, 2) "
                            "WHERE task_id = 'f/s/a'").ok());
  auto loaded = store_->LoadTasks("run-1");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ((*loaded)[0].task_id, "f/s/b");
  ASSERT_EQ(store_->skipped().size(), 1u);
  EXPECT_NE(store_->skipped()[0].find("run run-1, task f/s/a: stored result unreadable"),
            std::string::npos)
      << store_->skipped()[0];
  ASSERT_TRUE(store_->Query("UPDATE task_results SET result_json = '{\"configs\": 7}' "
                            "WHERE task_id = 'f/s/b'").ok());
  EXPECT_TRUE(store_->LoadTasks("run-1").ok());
  EXPECT_EQ(store_->skipped().size(), 2u);
  ASSERT_TRUE(store_->Query("UPDATE runs SET info_json = '[1' WHERE run_id = 'run-1'").ok());
  auto run = store_->GetRun("run-1");
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kDataLoss);
  auto runs = store_->ListRuns();
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
  EXPECT_NE(store_->skipped().back().find("run run-1: stored record unreadable"), std::string::npos);
}

TEST_F(StoreTest, AMergeSourceIsNeverWritten) {
  ASSERT_TRUE(store_->SaveTask("run-1", Sample("f/s/a", 2)).ok());
  store_.reset();
  auto bytes = [](const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  // Checkpointed and closed: the file alone holds the database.
  const std::string before = bytes(path_);
  auto from = ResultsStore::OpenReadOnly(path_);
  ASSERT_TRUE(from.ok()) << from.status().ToString();
  const std::string dest = path_ + ".into.db";
  std::filesystem::remove(dest);
  auto into = ResultsStore::Open(dest);
  ASSERT_TRUE(into.ok());
  auto merged = MergeStore(**from, **into);
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_EQ(merged->tasks_added, 1);
  EXPECT_FALSE((*from)->CreateRun(info_).ok()) << "a read-only store accepted a write";
  from->reset();
  EXPECT_EQ(bytes(path_), before);
}

TEST(Store, SomethingThatIsNotADatabaseIsNamed) {
  const std::string path = testing::TempDir() + "/not_a_db.db";
  std::ofstream(path) << "this is not sqlite, it is text\n";
  auto r = ResultsStore::OpenReadOnly(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(path), std::string::npos) << r.status().message();
  EXPECT_FALSE(ResultsStore::OpenReadOnly(path + ".missing").ok());
}

}  // namespace
}  // namespace arena
