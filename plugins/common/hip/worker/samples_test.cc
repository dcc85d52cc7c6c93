// The places the judge reads of an output, and a reference written at a
// few phases of them: what the reference worker writes is what is read.
#include "plugins/common/hip/worker/samples.h"

#include <set>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

TEST(Samples, AllOfASmallOutputElseAbout64KiAtAPhase) {
  std::mt19937_64 rng(3);
  const Sample all = PickSample(1000, rng);
  EXPECT_EQ(all.start, 0u);
  EXPECT_EQ(all.stride, 1u);
  EXPECT_EQ(all.count, 1000u);
  EXPECT_EQ(PickSample(0, rng).count, 0u);
  const size_t n = (size_t{1} << 16) * 7 + 5;  // stride 7
  std::set<size_t> starts;
  for (int i = 0; i < 200; ++i) {
    const Sample s = PickSample(n, rng);
    ASSERT_EQ(s.stride, 7u);
    ASSERT_LT(s.start, 7u);
    ASSERT_LT(s.start + (s.count - 1) * s.stride, n) << "the last place is inside";
    ASSERT_GE(s.start + s.count * s.stride, n) << "and no place is left after it";
    starts.insert(s.start);
  }
  EXPECT_EQ(starts.size(), 7u) << "every phase drawn";
}

TEST(ReferenceAt, ReadsThePhasesTheWorkerWrote) {
  const size_t n = (size_t{1} << 16) * 3 + 2;  // stride 3: phases 0 and 1 read one more place than 2
  const nlohmann::json spec = {{"numel", n}, {"stride", 3}, {"starts", {2, 0}}};
  const size_t values = SampleAt(n, 2).count + SampleAt(n, 0).count;
  auto at = ReferenceAt::Of(spec, n, values);
  ASSERT_TRUE(at.ok()) << at.status().ToString();
  ASSERT_FALSE(at->whole());
  EXPECT_EQ(at->from, (std::vector<size_t>{0, SampleAt(n, 2).count}));
  std::mt19937_64 rng(5);
  std::set<size_t> seen;
  for (int i = 0; i < 100; ++i) {
    auto [s, from] = at->Pick(rng);
    EXPECT_EQ(from, s.start == 2 ? 0u : SampleAt(n, 2).count);
    EXPECT_EQ(s.stride, 3u);
    seen.insert(s.start);
  }
  EXPECT_EQ(seen, (std::set<size_t>{0, 2}));
}

TEST(ReferenceAt, AWholeReferenceHasNoPhases) {
  auto at = ReferenceAt::Of({{"path", "x"}}, 5000, 5000);
  ASSERT_TRUE(at.ok());
  EXPECT_TRUE(at->whole());
}

TEST(ReferenceAt, AnythingElseThanWhatIsReadIsAnError) {
  const size_t n = (size_t{1} << 16) * 4;  // stride 4, 64 Ki places a phase
  const size_t k = size_t{1} << 16;
  EXPECT_FALSE(ReferenceAt::Of({{"numel", n}, {"stride", 2}, {"starts", {0}}}, n, k).ok()) << "another stride";
  EXPECT_FALSE(ReferenceAt::Of({{"numel", n + 1}, {"stride", 4}, {"starts", {0}}}, n, k).ok()) << "another output";
  EXPECT_FALSE(ReferenceAt::Of({{"numel", n}, {"stride", 4}, {"starts", {4}}}, n, k).ok()) << "past the stride";
  EXPECT_FALSE(ReferenceAt::Of({{"numel", n}, {"stride", 4}, {"starts", {1}}}, n, k - 1).ok()) << "a value short";
  EXPECT_FALSE(ReferenceAt::Of({{"numel", n}, {"stride", 4}, {"starts", nlohmann::json::array()}}, n, 0).ok())
      << "no phase";
  const auto two = ReferenceAt::Of({{"numel", n}, {"stride", 4}, {"starts", {1, 3}}}, n, 2 * k);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
}

}  // namespace
}  // namespace arena::hip2hip
