// The schedule of trials for a subject timed alone, and the finding that
// names a subject which keeps its outputs by content.
#include "plugins/common/hip/worker/alone_trials.h"

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

TEST(PickAloneTrial, WarmUpsShowOnlyTrialsAlreadyShown) {
  std::mt19937_64 rng(1);
  EXPECT_EQ(PickAloneTrial({0, 0, 0, 0}, /*timed=*/false, 30, rng), 0u);
  for (int i = 0; i < 100; ++i) {
    const size_t t = PickAloneTrial({0, 1, 0, 1}, /*timed=*/false, 30, rng);
    EXPECT_TRUE(t == 1 || t == 3) << t;
  }
}

TEST(PickAloneTrial, NewTrialsAreSpreadOverTheRoundsLeft) {
  // Four trials, the first shown (the probe's), 32 timed rounds: the other
  // three first appear across the rounds, not in the first three.
  std::vector<int> first_round_of_new;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<char> shown = {1, 0, 0, 0};
    for (int round = 0; round < 32; ++round) {
      const size_t t = PickAloneTrial(shown, true, 32 - round, rng);
      ASSERT_LT(t, shown.size());
      if (!shown[t]) first_round_of_new.push_back(round);
      shown[t] = 1;
    }
    ASSERT_EQ(shown, std::vector<char>({1, 1, 1, 1})) << "every trial shown by the last round";
  }
  ASSERT_EQ(first_round_of_new.size(), 1200u);
  int early = 0, late = 0;
  for (int r : first_round_of_new) {
    early += r < 8;
    late += r >= 24;
  }
  // Even spreading puts about a quarter in each quarter of the rounds.
  EXPECT_GT(early, 200);
  EXPECT_LT(early, 420);
  EXPECT_GT(late, 200);
}

TEST(CachedByContent, NamesRepeatsThatAreFasterThanNewInputs) {
  // One set a round, its outputs kept: repeats cost a lookup.
  const std::string why = CachedByContent({1000, 1010, 995}, {20, 22, 21, 20, 19, 25}, 1);
  EXPECT_NE(why.find("outputs kept by content"), std::string::npos) << why;
  EXPECT_NE(why.find("6 and 3 rounds of 1 sets"), std::string::npos) << why;
}

TEST(CachedByContent, HonestNoiseAndSmallSharesAreNotFindings) {
  EXPECT_EQ(CachedByContent({1000, 1040, 980}, {990, 1010, 1005, 970, 1030, 995}, 1), "");
  // Slower repeats (say, the GPU warming down) are no finding either.
  EXPECT_EQ(CachedByContent({1000, 1000}, {1500, 1500, 1500, 1500}, 2), "");
  // Too few rounds of either kind to compare.
  EXPECT_EQ(CachedByContent({1000}, {10, 10, 10, 10}, 1), "");
  EXPECT_EQ(CachedByContent({1000, 1000}, {10, 10, 10}, 1), "");
  // Eight sets a round: the chosen one is an eighth of the work, so a
  // cache cannot save 20% and noise is all a difference could be.
  EXPECT_EQ(CachedByContent({1000, 1000}, {700, 700, 700, 700}, 8), "");
  // At four sets a round a kept quarter of the work is just over the bar.
  EXPECT_NE(CachedByContent({1000, 1000}, {740, 750, 745, 760}, 4), "");
}

}  // namespace
}  // namespace arena::hip2hip
