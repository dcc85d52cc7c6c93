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

TEST(PickDecoy, OnlyWhereTheChosenTrialIsNewAndTheRoundHasMoreThanFourSets) {
  std::mt19937_64 rng(3);
  // The chosen trial shown before: it is the round's repeat.
  EXPECT_EQ(PickDecoy({1, 1, 0, 0}, 1, 0, 100, rng).set, -1);
  // Too few sets: CachedByContent's rounds, left as they are.
  EXPECT_EQ(PickDecoy({1, 0, 0, 0}, 2, 0, kDecoyAfterSets, rng).set, -1);
  // Nothing shown yet: nothing to repeat.
  EXPECT_EQ(PickDecoy({0, 0, 0, 0}, 2, 0, 100, rng).set, -1);
  for (int i = 0; i < 1000; ++i) {
    const size_t secret = static_cast<size_t>(i) % 5;
    const Decoy d = PickDecoy({1, 0, 1, 0}, 3, secret, 5, rng);
    ASSERT_GE(d.set, 0);
    ASSERT_LT(d.set, 5);
    EXPECT_NE(static_cast<size_t>(d.set), secret);
    EXPECT_TRUE(d.trial == 0 || d.trial == 2) << d.trial;  // a shown one
  }
}

TEST(PickDecoy, EverySetButTheChosenOneAlike) {
  std::mt19937_64 rng(5);
  std::vector<int> hits(8, 0);
  for (int i = 0; i < 7000; ++i) ++hits[static_cast<size_t>(PickDecoy({1, 0}, 1, 3, 8, rng).set)];
  EXPECT_EQ(hits[3], 0);
  for (size_t k = 0; k < hits.size(); ++k) {
    if (k == 3) continue;
    EXPECT_NEAR(hits[k], 1000, 150) << k;
  }
}

// A subject that knows the inputs it was given before, timed alone as the
// judge times it: four trials (the first shown by the probe), 32 timed
// rounds of 64 sets, the chosen set's trial by PickAloneTrial, the other
// sets new windows. It does the work of the sets whose inputs repeat
// where a round has exactly one such set, and fakes the rest (what no
// one would see without decoys: the chosen set is then the repeat), else
// it works honestly. With decoys, a new trial's round holds one repeat
// too, and the chosen set there is faked: caught in every run.
TEST(PickDecoy, ASubjectThatWorksOnlyOnRepeatsGetsANewTrialWrong) {
  constexpr size_t kSets = 64;
  for (bool decoys : {false, true}) {
    int caught = 0;
    for (uint64_t seed = 0; seed < 200; ++seed) {
      std::mt19937_64 rng(seed);
      std::vector<char> shown = {1, 0, 0, 0};
      bool wrong = false;
      for (int round = 0; round < 32 && !wrong; ++round) {
        const size_t pick = PickAloneTrial(shown, true, 32 - round, rng);
        const size_t secret = std::uniform_int_distribution<size_t>(0, kSets - 1)(rng);
        const Decoy d = decoys ? PickDecoy(shown, pick, secret, kSets, rng) : Decoy{};
        // Which sets repeat inputs given before (windows never do).
        std::vector<char> repeat(kSets, 0);
        if (shown[pick]) repeat[secret] = 1;
        if (d.set >= 0) repeat[static_cast<size_t>(d.set)] = 1;
        const int repeats = static_cast<int>(std::count(repeat.begin(), repeat.end(), 1));
        const bool fakes = repeats == 1;
        if (fakes && !repeat[secret]) wrong = true;  // the chosen set faked
        shown[pick] = 1;
      }
      caught += wrong;
    }
    if (decoys) {
      EXPECT_EQ(caught, 200) << "with decoys, every run shows a new trial it fakes";
    } else {
      EXPECT_EQ(caught, 0) << "without decoys, the repeat is always the chosen set";
    }
  }
}

TEST(PickLateWindow, NeverTheChosenSetOrTheDecoyAndEveryOtherAlike) {
  std::mt19937_64 rng(7);
  EXPECT_EQ(PickLateWindow(0, -1, 1, rng), -1) << "one set: no window";
  EXPECT_EQ(PickLateWindow(1, 0, 2, rng), -1) << "the chosen set and the decoy: no window";
  EXPECT_EQ(PickLateWindow(1, -1, 2, rng), 0);
  std::vector<int> drawn(8, 0);
  for (int i = 0; i < 6000; ++i) {
    const int64_t k = PickLateWindow(3, 5, 8, rng);
    ASSERT_GE(k, 0);
    ASSERT_LT(k, 8);
    ++drawn[static_cast<size_t>(k)];
  }
  EXPECT_EQ(drawn[3], 0);
  EXPECT_EQ(drawn[5], 0);
  for (size_t k : {0, 1, 2, 4, 6, 7}) EXPECT_NEAR(drawn[k], 1000, 150) << "set " << k;
}

// A subject that tells the chosen set and the decoy from the windows by
// their data alone (what decoys cannot stop) and fakes every window: the
// window kept in two of a configuration's requests is one of the faked
// sets whenever there is one, so it is wrong there in every run. A
// subject faking the windows of only some rounds (a share f) escapes a
// configuration with a chance of about (1 - f)^2.
TEST(PickLateWindow, ASubjectThatFakesTheWindowsIsWrongOnAKeptOne) {
  constexpr size_t kSets = 16;
  for (double share : {1.0, 0.5}) {
    int caught = 0;
    for (uint64_t seed = 0; seed < 400; ++seed) {
      std::mt19937_64 rng(seed);
      bool wrong = false;
      for (int request = 0; request < 2; ++request) {  // two requests keep a window
        const int kept_round = std::uniform_int_distribution<int>(1, 8)(rng);
        for (int round = 0; round <= 8; ++round) {
          const size_t secret = std::uniform_int_distribution<size_t>(0, kSets - 1)(rng);
          const int64_t decoy = static_cast<int64_t>((secret + 1) % kSets);
          const int64_t window = PickLateWindow(secret, decoy, kSets, rng);
          const bool fakes = std::uniform_real_distribution<double>(0, 1)(rng) < share;
          if (round == kept_round && window >= 0 && fakes) wrong = true;
        }
      }
      caught += wrong;
    }
    if (share == 1.0) {
      EXPECT_EQ(caught, 400) << "every window faked: caught in every run";
    } else {
      EXPECT_NEAR(caught, 300, 40) << "half of the rounds faked: caught in about 3 runs of 4";
    }
  }
}

}  // namespace
}  // namespace arena::hip2hip
