// A subject timed alone (PyTorch-to-HIP: no second subject to compare its
// rounds with) is verified on a few trials whose reference was computed
// beforehand: each round's chosen set holds one trial's inputs, so the
// subject is given each trial's inputs again and again, and a subject that
// keeps its outputs by content (a few sampled elements name the trial)
// would answer repeats without doing the work. What it saves shows in its
// rounds: those whose chosen set repeats inputs it was given before are
// faster than those whose inputs were new to it. So the judge spreads each
// trial's first showing over the rounds at random (not the first rounds,
// where anything warming up would look the same) and compares the two.
//
//   size_t t = PickAloneTrial(shown, /*timed=*/round > 0, rounds_left, rng);
//   ... the round ...; (shown[t] ? seen_us : new_us).push_back(us); shown[t] = 1;
//   if (std::string why = CachedByContent(new_us, seen_us, sets); !why.empty()) ...
//
// With more than kDecoyAfterSets sets a round, one other set holds a shown
// trial wherever the chosen one's is new (PickDecoy): every round repeats
// one set's inputs. A few rounds' windows are checked against references
// computed after the rounds (PickLateWindow).
#ifndef ARENA_PLUGINS_COMMON_HIP_WORKER_ALONE_TRIALS_H_
#define ARENA_PLUGINS_COMMON_HIP_WORKER_ALONE_TRIALS_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/family.h"

namespace arena::hip2hip {

// The trial for a round's chosen set: in an untimed round (a warm-up), one
// already shown (the first trial where none is); in a timed round a new one
// with the chance that spreads the new ones evenly over the `rounds_left`
// timed rounds still expected (certain when as many are left as new ones),
// else one already shown. `shown` has one entry per trial.
inline size_t PickAloneTrial(const std::vector<char>& shown, bool timed, int rounds_left, std::mt19937_64& rng) {
  std::vector<size_t> fresh, seen;
  for (size_t t = 0; t < shown.size(); ++t) (shown[t] ? seen : fresh).push_back(t);
  auto any = [&](const std::vector<size_t>& from) {
    return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
  };
  if (seen.empty()) return fresh.empty() ? 0 : (timed ? any(fresh) : fresh.front());
  if (!timed || fresh.empty()) return any(seen);
  const double chance = static_cast<double>(fresh.size()) / std::max(rounds_left, 1);
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < chance ? any(fresh) : any(seen);
}

// Rounds of more than kDecoyAfterSets sets timed alone hold one set of a
// trial already shown in every round, wherever the chosen set's trial is
// new ("a decoy": a set other than the chosen one, drawn at random, with a
// shown trial's inputs, drawn at random; its outputs are not compared).
// Without it, a subject that knows inputs it was given before would know
// the rounds whose chosen set repeats a trial (most of them) by the one
// repeat among their sets, and could skip or fake every other set there:
// timed alone, the other sets are windows whose reference no one computes.
// With it, every round holds one repeated set, whether the chosen set's
// trial is new or not: a subject that does the repeated set's work alone
// gets the new trial wrong in the rounds that show one. (Keeping the
// repeated set's outputs by content saves a set a round in either kind of
// round, as keeping the chosen set's did: a share of the work under a
// fifth, and none of CachedByContent's rounds, whose sets are fewer.)
constexpr size_t kDecoyAfterSets = 4;

struct Decoy {
  int64_t set = -1;  // -1: none
  size_t trial = 0;
};

// The decoy of a round whose chosen set is `secret` of `sets` and holds
// trial `chosen` (`shown` as before this round).
inline Decoy PickDecoy(const std::vector<char>& shown, size_t chosen, size_t secret, size_t sets,
                       std::mt19937_64& rng) {
  Decoy d;
  if (sets <= kDecoyAfterSets || chosen >= shown.size() || shown[chosen]) return d;
  std::vector<size_t> seen;
  for (size_t t = 0; t < shown.size(); ++t) {
    if (shown[t]) seen.push_back(t);
  }
  if (seen.empty()) return d;
  d.trial = seen[std::uniform_int_distribution<size_t>(0, seen.size() - 1)(rng)];
  // Any set but the chosen one, uniformly.
  const size_t k = std::uniform_int_distribution<size_t>(0, sets - 2)(rng);
  d.set = static_cast<int64_t>(k >= secret ? k + 1 : k);
  return d;
}

// A round's late window: a set other than the chosen one and the decoy,
// drawn at random (-1 where there is none), whose outputs are copied out
// with the chosen set's at the round's end. In a few rounds, drawn in
// secret, they are kept, and its inputs (a window of the pools, cut from
// the trials laid end to end) are written out after the rounds for a
// reference computed then: a subject that tells the chosen set and the
// decoy from the windows by their data, and fakes the windows, is wrong
// there. Drawn in every round, kept or not: nothing in a round tells
// whether its window is kept.
inline int64_t PickLateWindow(size_t secret, int64_t decoy, size_t sets, std::mt19937_64& rng) {
  std::vector<size_t> others;
  for (size_t k = 0; k < sets; ++k) {
    if (k != secret && static_cast<int64_t>(k) != decoy) others.push_back(k);
  }
  if (others.empty()) return -1;
  return static_cast<int64_t>(others[std::uniform_int_distribution<size_t>(0, others.size() - 1)(rng)]);
}

// A finding, or "": the rounds whose chosen set repeated inputs (`seen_us`,
// time per set) against those whose inputs were new (`new_us`), in rounds
// of `sets` sets. Only where the chosen set is at least a quarter of the
// round (4 sets or fewer) can keeping its outputs save enough to tell from
// noise; a subject is named when its repeats are over 20% faster, with two
// rounds on new inputs and four on repeats at least.
inline std::string CachedByContent(const std::vector<double>& new_us, const std::vector<double>& seen_us,
                                   size_t sets) {
  if (sets > kDecoyAfterSets || new_us.size() < 2 || seen_us.size() < 4) return "";
  const double fresh = TimingSamples{new_us}.median(), again = TimingSamples{seen_us}.median();
  if (!(again < 0.8 * fresh)) return "";
  char text[320];
  std::snprintf(text, sizeof(text),
                "rounds on inputs it had been given before took %.1f us a set, rounds on new inputs %.1f us "
                "(%zu and %zu rounds of %zu sets): outputs kept by content, the work not done again",
                again, fresh, seen_us.size(), new_us.size(), sets);
  return text;
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_WORKER_ALONE_TRIALS_H_
