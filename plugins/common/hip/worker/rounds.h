// How many timed rounds the HIP judge runs (plugins/common/hip/worker/
// timing.cc; docs/methodology.md's Timing), apart from the device so that
// it is tested on any machine: blocks of rounds, each with rounds of its
// own held to the reference and witnessed, until the median of the rounds'
// paired ratios is settled. The same rule as the Triton judge's
// (plugins/triton2triton/harness/judge_support.py).
#ifndef ARENA_PLUGINS_COMMON_HIP_WORKER_ROUNDS_H_
#define ARENA_PLUGINS_COMMON_HIP_WORKER_ROUNDS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace arena::hip2hip {

// Timed rounds per subject: a first block of this many, then blocks of
// kNextBlockRounds until the median ratio is settled or the most are timed.
constexpr int kFirstBlockRounds = 10;
constexpr int kNextBlockRounds = 5;
// Timed rounds of a block per round held to the reference, and per
// witnessed round of captured calls (rounded up).
constexpr int kRoundsPerHeld = 5;
// Of the median ratio's 95% interval, relative.
constexpr double kSettledHalfWidth = 0.01;

inline double MedianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  const double upper = v[n / 2];
  if (n % 2 == 1) return upper;
  return 0.5 * (*std::max_element(v.begin(), v.begin() + n / 2) + upper);
}

// Whether the median of the paired rounds' ratios (baseline over candidate,
// round by round: the speedup) is known within +-half_width at 95%: 1.96
// standard errors of a median, 1.2533 times the log-ratios' spread (1.4826
// times their median absolute deviation: a few rounds the machine
// disturbed neither keep it from settling nor make it settle) over the
// square root of their count. A round of no time is no ratio; under
// kFirstBlockRounds ratios nothing is settled.
inline bool Settled(const std::vector<double>& baseline_us, const std::vector<double>& candidate_us,
                    double half_width = kSettledHalfWidth) {
  std::vector<double> logs;
  for (size_t i = 0; i < std::min(baseline_us.size(), candidate_us.size()); ++i) {
    if (baseline_us[i] > 0 && candidate_us[i] > 0) logs.push_back(std::log(baseline_us[i] / candidate_us[i]));
  }
  if (logs.size() < static_cast<size_t>(kFirstBlockRounds)) return false;
  const double middle = MedianOf(logs);
  std::vector<double> deviations;
  for (double x : logs) deviations.push_back(std::fabs(x - middle));
  const double spread = 1.4826 * MedianOf(deviations);
  return 1.96 * 1.2533 * spread / std::sqrt(static_cast<double>(logs.size())) <= std::log1p(half_width);
}

// A block of rounds from `start`: `timed` timed ones and, where captured
// calls are witnessed, a fifth as many more (rounded up), untimed, at places
// drawn in secret among them (into `untimed`); and as many of its rounds,
// drawn in secret, held to the reference (into `held`). Returns its last
// round.
inline int PlanBlock(int start, int timed, bool graph_witnessed, std::set<int>* held, std::set<int>* untimed,
                     std::mt19937_64& rng) {
  const int extra = (timed + kRoundsPerHeld - 1) / kRoundsPerHeld;
  const int last = start + timed + (graph_witnessed ? extra : 0) - 1;
  std::uniform_int_distribution<int> any_round(start, last);
  for (std::set<int> mine; graph_witnessed && static_cast<int>(mine.size()) < extra;) {
    const int r = any_round(rng);
    if (mine.insert(r).second) untimed->insert(r);
  }
  for (std::set<int> mine; static_cast<int>(mine.size()) < std::min(extra, last - start + 1);) {
    const int r = any_round(rng);
    if (mine.insert(r).second) held->insert(r);
  }
  return last;
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_WORKER_ROUNDS_H_
