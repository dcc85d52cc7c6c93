#include "plugins/common/hip/worker/rounds.h"

#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

std::vector<double> Noisy(double us, double spread, int n, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0.0, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(us * (1.0 + noise(rng)));
  return v;
}

TEST(Settled, SteadyRatiosSettleAfterTheFirstBlock) {
  std::mt19937_64 rng(1);
  const auto base = Noisy(1000, 0.003, 10, rng), cand = Noisy(500, 0.003, 10, rng);
  EXPECT_TRUE(Settled(base, cand));
  EXPECT_FALSE(Settled({base.begin(), base.end() - 1}, {cand.begin(), cand.end() - 1}));
}

TEST(Settled, NoisyRatiosDoNotUntilThereAreEnough) {
  std::mt19937_64 rng(2);
  EXPECT_FALSE(Settled(Noisy(1000, 0.05, 30, rng), Noisy(1000, 0.05, 30, rng)));
  EXPECT_TRUE(Settled(Noisy(1000, 0.05, 1000, rng), Noisy(1000, 0.05, 1000, rng)));
}

TEST(Settled, AFewDisturbedRoundsDoNotDecide) {
  std::vector<double> base(12, 1000.0), cand(12, 1000.0);
  cand[3] = 3000;
  cand[7] = 300;
  EXPECT_TRUE(Settled(base, cand));
}

TEST(Settled, RoundsOfNoTimeAreNoRatio) {
  EXPECT_FALSE(Settled(std::vector<double>(30, 0.0), std::vector<double>(30, 1.0)));
  EXPECT_FALSE(Settled(std::vector<double>(30, 1.0), std::vector<double>(30, 0.0)));
}

TEST(Settled, TheSameRuleAsTheTritonJudges) {
  // Ratios whose interval is just inside, then just outside, +-1%: log-ratios
  // of +-d alternating have a spread of 1.4826 d.
  auto with = [](double d, int n) {
    std::vector<double> b, c;
    for (int i = 0; i < n; ++i) {
      b.push_back(1000.0 * std::exp(i % 2 ? d : -d));
      c.push_back(1000.0);
    }
    return Settled(b, c);
  };
  const double edge = std::log1p(0.01) * std::sqrt(10.0) / (1.96 * 1.2533 * 1.4826);
  EXPECT_TRUE(with(edge * 0.99, 10));
  EXPECT_FALSE(with(edge * 1.01, 10));
}

TEST(PlanBlock, AFifthHeldAndAFifthMoreWitnessed) {
  std::mt19937_64 rng(3);
  std::set<int> held, untimed;
  EXPECT_EQ(PlanBlock(1, 10, true, &held, &untimed, rng), 12);
  EXPECT_EQ(untimed.size(), 2u);
  EXPECT_EQ(held.size(), 2u);
  for (int r : untimed) EXPECT_TRUE(r >= 1 && r <= 12);
  for (int r : held) EXPECT_TRUE(r >= 1 && r <= 12);
  EXPECT_EQ(PlanBlock(13, 5, true, &held, &untimed, rng), 18);
  EXPECT_EQ(untimed.size(), 3u);
  EXPECT_EQ(held.size(), 3u);
  EXPECT_GE(*untimed.rbegin(), 13);
  EXPECT_GE(*held.rbegin(), 13);
}

TEST(PlanBlock, EagerRoundsHaveNoWitnessedRoundOfTheirOwn) {
  std::mt19937_64 rng(4);
  std::set<int> held, untimed;
  EXPECT_EQ(PlanBlock(1, 10, false, &held, &untimed, rng), 10);
  EXPECT_TRUE(untimed.empty());
  EXPECT_EQ(held.size(), 2u);
}

TEST(PlanBlock, EveryRoundOfABlockMayBeDrawn) {
  std::set<int> seen_untimed, seen_held;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    std::mt19937_64 rng(seed);
    std::set<int> held, untimed;
    PlanBlock(1, 10, true, &held, &untimed, rng);
    seen_untimed.insert(untimed.begin(), untimed.end());
    seen_held.insert(held.begin(), held.end());
  }
  EXPECT_EQ(seen_untimed.size(), 12u);
  EXPECT_EQ(seen_held.size(), 12u);
}

}  // namespace
}  // namespace arena::hip2hip
