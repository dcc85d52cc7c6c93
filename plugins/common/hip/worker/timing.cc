// The HIP judge's timing rounds (judge.h, docs/methodology.md's Timing).
#include "plugins/common/hip/worker/judge.h"

#include <future>

#include "plugins/common/hip/worker/witness.h"

namespace arena::hip2hip {

// Witnessed calls (runner.cc): eager calls of a round are witnessed, on
// average, this many times a round (the runner's kWitnessesPerRound, which
// draws them: the same number); rounds are added, this many at most, until
// each runner has paused for one.
constexpr double kWitnessesPerRound = 0.25;
constexpr int kWitnessRoundsMore = 40;
// Rounds of captured calls whose replay is witnessed between its two parts
// (untimed, at secret places among the others).
constexpr int kGraphWitnessRounds = 4;
// Elements of each output read in every set of a witnessed replay's first
// part (a run at a secret place), and at most in an eager call's set.
constexpr size_t kSplitWitnessElements = 4096;
constexpr size_t kPauseWitnessElements = size_t{1} << 20;
// Elements of each output read, and poisoned again, in every later set
// once a witness is taken (a run at a secret place).
constexpr size_t kAheadElements = 64;
// How long the judge polls for a runner's word while it times (twice the
// longest round, 50 ms) before it sleeps on it.
constexpr double kTimingSpinS = 0.1;

// A witness of a round's calls (Judge::Time): as call `call` had returned
// (an eager call's pause), or as the calls up to it had run on the GPU (a
// replay's first part), the outputs of sets [from, call] at `places` (per
// output, a run at a secret start, the same in every set), copied to the
// judge; then the outputs of every later set read at `ahead` (`early`:
// one written before its call) and poisoned again there.
struct Witness {
  int64_t call = 0;
  bool in_round = true;  // a call the round has (else the runner lied)
  bool ended = true;     // the first part had ended when it was looked for
  // A later set whose outputs were written before its call (-1: none), and
  // which output.
  int64_t early = -1;
  size_t early_output = 0;
  size_t from = 0;
  std::vector<SetRuns> places, ahead;
  std::vector<HostTensor> copies;
};

Json Judge::Time(const Json& req) {
  PhaseClock phases;  // where the stage's time goes, reported with it
  FinishPrefetch();   // nothing of the judge's own runs beside a round
  phases.Lap("prefetch_s");
  const std::vector<std::string> order = req.value("subjects", kSubjects);
  const bool alone = order.size() == 1;
  // Timed alone: where a late window's inputs are written ("late_dir";
  // none kept without it).
  const std::string late_dir = alone ? req.value("late_dir", std::string()) : std::string();
  late_.clear();
  std::map<std::string, RunnerClient*> runners;
  // While it times them the judge polls for its runners' words before it
  // sleeps, past the longest round (its own wake-up out of every round;
  // the runners poll within one too), and sleeps on them again after.
  struct Polled {
    std::map<std::string, RunnerClient*>* runners;
    ~Polled() {
      for (auto& [s, r] : *runners) r->set_spin_s(0.0);
    }
  } polled{&runners};
  for (const auto& s : order) {
    auto r = Runner(s);
    if (!r.ok()) return Reply("failed", r.status().message());
    runners[s] = *r;
    (*r)->TakeStopTally();  // this timing's stops alone
    (*r)->set_spin_s(kTimingSpinS);
  }
  const ConfigParams config_params(req["config"]["params"]);
  const ParameterValues& p = config_params.numeric;
  const std::vector<ArenaParam>& params = config_params.args;
  const Json plist = ParamList(params);
  const Json timing = task_["timing"];
  const int rounds = req.value("rounds", std::max(10, std::min(timing.value("repetitions", 100), 30)));
  std::vector<std::pair<ArenaDtype, std::vector<int64_t>>> in_specs, out_specs;
  for (const auto& t : inputs_) {
    auto shape = Shape(t, p);
    if (!shape.ok()) return Reply("failed", shape.status().message());
    in_specs.push_back({t.dtype, *shape});
  }
  std::vector<std::vector<int64_t>> out_shapes;
  for (const auto& t : outputs_) {
    auto shape = Shape(t, p);
    if (!shape.ok()) return Reply("failed", shape.status().message());
    out_shapes.push_back(*shape);
  }
  out_specs = OutSpecs(out_shapes);
  // The verification trials, kept with the pools drawn from them while
  // requests name the same ones ("verify_id"): a configuration timed
  // alone comes in several requests, and its trials can be gigabytes.
  const Json verify_json = req.value("verify", Json::array());
  const std::string verify_key =
      req.contains("verify_id") ? req["verify_id"].dump() + verify_json.dump() : std::string();
  if (verify_key.empty() || verify_key != alone_.key) {
    alone_ = AloneData{};
    std::vector<Json> specs(verify_json.begin(), verify_json.end());
    std::vector<Result<Trial>> loaded = LoadTrials(specs);
    for (size_t k = 0; k < loaded.size(); ++k) {
      Result<Trial>& t = loaded[k];
      if (!t.ok()) return Reply("error", "verification trial: " + t.status().message());
      for (size_t i = 0; i < inputs_.size(); ++i) {
        if (t->inputs[i].shape != in_specs[i].second) {
          return Reply("error", "verification trial: input '" + inputs_[i].name + "' has another shape");
        }
      }
      for (size_t o = 0; o < outputs_.size(); ++o) {
        auto at = ReferenceAt::Of(specs[k]["reference"][o], static_cast<size_t>(Numel(out_shapes[o])),
                                  t->reference[o].size());
        if (!at.ok()) {
          return Reply("error", "verification trial: output '" + outputs_[o].name + "': " + at.status().message());
        }
        t->at.push_back(std::move(*at));
      }
      alone_.trials.push_back(std::move(*t));
    }
    alone_.shown.assign(alone_.trials.size(), 0);
  }
  alone_.key = verify_key;
  const std::vector<Trial>& verify = alone_.trials;
  if (alone && verify.empty()) return Reply("error", "a subject timed alone needs verification trials");
  // The trials' inputs on the device, once per set of trials, where all
  // of them take no more than a sixteenth of the free memory.
  if (alone && !alone_.on_device_tried) {
    alone_.on_device_tried = true;
    size_t need = 0, free_now = 0, total_now = 0;
    for (const auto& t : verify) {
      for (const auto& x : t.inputs) need += x.bytes.size();
    }
    cudaMemGetInfo(&free_now, &total_now);
    bool ok = need <= free_now / 16;
    for (size_t t = 0; t < verify.size() && ok; ++t) {
      alone_.on_device.emplace_back();
      for (const auto& x : verify[t].inputs) {
        auto buffer = std::make_unique<DeviceBuffer>(x.bytes.size());
        ok = buffer->ptr != nullptr && cudaMemcpy(buffer->ptr, x.bytes.data(), x.bytes.size(),
                                                  cudaMemcpyHostToDevice) == cudaSuccess;
        alone_.on_device.back().push_back(std::move(buffer));
        if (!ok) break;
      }
    }
    if (!ok) alone_.on_device.clear();  // filled from the host, as before
  }
  // Input i of trial t copied to `dst`: from the device where the trials
  // are kept there, else from the host.
  auto copy_trial_input = [&](uint8_t* dst, size_t t, size_t i) {
    const Bytes& bytes = verify[t].inputs[i].bytes;
    return t < alone_.on_device.size()
               ? cudaMemcpy(dst, alone_.on_device[t][i]->ptr, bytes.size(), cudaMemcpyDeviceToDevice)
               : cudaMemcpy(dst, bytes.data(), bytes.size(), cudaMemcpyHostToDevice);
  };
  std::random_device entropy;
  std::mt19937_64 rng((static_cast<uint64_t>(entropy()) << 32) ^ entropy());

  Json failure;  // the first runner failure, if any
  // A round trip with no work, through the baseline's runner: a candidate
  // cannot inflate what is subtracted from its own time. Timed alone,
  // nothing is subtracted (the rounds are long enough for it not to
  // matter much, and it counts against the subject).
  // The other runners stopped meanwhile (and stopped indeed): one that
  // burned the CPUs then would make what is subtracted larger for both.
  double overhead = 0;
  if (!alone) {
    std::vector<double> empty;
    for (auto& [s, r] : runners) {
      if (s != "baseline") r->Freeze(true);
    }
    for (int i = 0; i < 9; ++i) empty.push_back(RoundTrip(runners.at("baseline"), {{"op", "empty"}}, &failure));
    std::string ran;
    for (auto& [s, r] : runners) {
      if (s == "baseline") continue;
      if (ran.empty()) ran = r->RanWhileStopped();
      r->Freeze(false);
    }
    if (!failure.is_null()) return failure;
    if (!ran.empty()) return Finding(ran + " (as the empty round trips were timed)");
    overhead = Median(empty);
  }
  std::vector<Json> inits;  // per input: drawn on the device (both subjects timed)
  if (Status s = EnsureFill(); !s.ok()) return Reply("error", s.message());
  if (!alone) {
    for (size_t i = 0; i < inputs_.size(); ++i) {
      auto init = EvaluatedInit(i, p);
      if (!init.ok()) return Reply("failed", init.status().message());
      inits.push_back(*init);
    }
  }
  // Both subjects timed: in kHeldRounds rounds, chosen in secret, the
  // candidate's outputs of the chosen set are also held to the CPU
  // reference at the checks' tolerance, besides the other subject's: a
  // subject less precise when timed, yet within twice the tolerance of the
  // other's outputs, fails a round it cannot tell apart. Nothing of this
  // happens around a held round: in every round the chosen set is drawn
  // again, after the others, from a seed of its own (one set drawn from a
  // seed and its index alone, DeviceFill, as any set is); a held round's
  // seed is one whose set was drawn, and its reference computed, while the
  // configuration was checked (StartHeld), and its sampled outputs are kept
  // like every round's and held to that reference after the last round.
  // No gap before or after a round tells a subject which rounds are held
  // or how many are left. (A held set not prepared is drawn again after
  // the last round from its seed, and its reference computed then.)
  std::set<int> held_rounds;
  std::vector<uint64_t> held_seeds;
  std::map<uint64_t, Trial> held_made;
  if (!alone && reference_ != nullptr) {
    std::tie(held_seeds, held_made) = TakeHeld(req["config"].value("name", ""));
    std::uniform_int_distribution<int> any_round(1, rounds);
    while (held_rounds.size() < static_cast<size_t>(std::min(kHeldRounds, rounds))) {
      held_rounds.insert(any_round(rng));
    }
  }
  // One eager call of each subject on one set: the size of a round. Its
  // inputs: the first verification trial's, or drawn on the device.
  const uint64_t probe_seed = rng();
  size_t per_set = 0;
  auto [in1, out1] = Place(in_specs, out_specs, 1, &per_set);
  std::map<std::string, double> single;
  // Both subjects' memory made together (pieces in turns: where memory
  // lies weighs on both alike), here and for the rounds below.
  std::vector<RunnerClient*> timed;
  for (const auto& s : order) timed.push_back(runners[s]);
  RunnerClient* failed = nullptr;
  if (Status st = RunnerClient::ReserveTogether(timed, vmm_, per_set, Left(), &failed); !st.ok()) {
    return RunnerFailure(failed, st);
  }
  for (const auto& s : order) {
    RunnerClient* r = runners[s];
    auto* base = reinterpret_cast<uint8_t*>(r->slab_ptr());
    for (size_t i = 0; i < in1.size(); ++i) {
      if (alone) {
        copy_trial_input(base + in1[i].off, 0, i);
      } else if (Status st = fill_->Fill(base + in1[i].off, in1[i].stride, 1, static_cast<size_t>(Numel(in1[i].shape)),
                                         in1[i].dtype, inits[i], probe_seed + 0x9E3779B97F4A7C15ull * i);
                 !st.ok()) {
        return Reply("error", st.message());
      }
    }
    std::vector<double> times;
    for (int k = 0; k < 3; ++k) {
      for (const auto& o : out1) (void)Poison(base + o.off, o.dtype, static_cast<size_t>(Numel(o.shape)));
      times.push_back(RoundTrip(r, {{"op", "call"}, {"sets", 1}, {"in", Describe(in1, r->slab_id())},
                                    {"out", Describe(out1, r->slab_id())}, {"params", plist}},
                                &failure));
      if (!failure.is_null()) return failure;
    }
    single[s] = std::max(Median(times) - overhead, 1.0);
  }
  if (alone) alone_.shown[0] = 1;  // the probe's inputs, and the sizing round's
  phases.Lap("probe_s");  // trials read, runners sized, one eager call each
  double estimate = 1e300;
  for (const auto& [s, us] : single) estimate = std::min(estimate, us);
  // (Free before any subject's library was loaded: init.)
  const size_t budget = std::min<size_t>(size_t{8} << 30, free_at_start_ / 8);
  const size_t cap = std::max<size_t>(1, std::min<size_t>(4096, budget / std::max<size_t>(per_set, 1)));
  auto sets_for = [&](double us_per_set) {
    const double want = std::max(std::ceil(5000.0 / std::max(us_per_set, 0.05)),
                                 std::ceil(2.0 * static_cast<double>(l2_bytes_) / static_cast<double>(per_set)));
    return std::clamp<size_t>(static_cast<size_t>(want), 1, cap);
  };
  size_t count = sets_for(estimate);

  // Everything a round needs, for `count` sets.
  std::vector<Placed> in, out;
  size_t total = 0, out_base = 0;
  // Timed alone, the other sets of a round are windows at secret offsets
  // into pools made of the verification trials' inputs (the task's own
  // input makers drew them); with both subjects timed, every set of every
  // round is drawn afresh on the device (DeviceFill).
  std::vector<std::unique_ptr<DeviceBuffer>>& device_pools = alone_.pools;
  std::vector<size_t>& slack = alone_.slack;  // per input: the largest window offset
  std::unique_ptr<DeviceBuffer> poison;
  std::string mode;
  size_t marker_off = 0;
  // Every set of a round's inputs in a subject's lent memory: drawn on
  // the device (both subjects timed), or windows of the pools at
  // `offsets` with the chosen trial's data in set `secret` (alone). Never
  // left as it was: memory lent again may hold anything, and a kernel
  // that follows indices must find valid ones in every round it runs.
  auto fill_sets = [&](uint8_t* base, uint64_t seed, const std::vector<std::vector<size_t>>& offsets,
                       size_t secret, const Trial* vt, uint64_t chosen_seed, const Decoy& decoy) -> Status {
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < in.size() && e == cudaSuccess; ++i) {
      const size_t es = DtypeSize(in[i].dtype);
      if (!alone) {
        const size_t n = static_cast<size_t>(Numel(in[i].shape));
        ARENA_RETURN_IF_ERROR(
            fill_->Fill(base + in[i].off, in[i].stride, count, n, in[i].dtype, inits[i], InputSeed(seed, i)));
        // The chosen set again, from a seed of its own (a held one's).
        ARENA_RETURN_IF_ERROR(fill_->Fill(base + in[i].off + secret * in[i].stride, in[i].stride, 1, n,
                                          in[i].dtype, inits[i], InputSeed(chosen_seed, i), 0));
        continue;
      }
      const auto* pool = static_cast<const uint8_t*>(device_pools[i]->ptr);
      for (size_t k = 0; k < count && e == cudaSuccess; ++k) {
        e = cudaMemcpyAsync(base + in[i].off + k * in[i].stride, pool + offsets[i][k] * es, in[i].bytes,
                            cudaMemcpyDeviceToDevice, nullptr);
      }
      if (e == cudaSuccess) {
        e = copy_trial_input(base + in[i].off + secret * in[i].stride, static_cast<size_t>(vt - verify.data()), i);
      }
      if (e == cudaSuccess && decoy.set >= 0) {
        e = copy_trial_input(base + in[i].off + static_cast<size_t>(decoy.set) * in[i].stride, decoy.trial, i);
      }
    }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return Internal("preparing a timing round failed: " + CudaText(e));
    return OkStatus();
  };
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::tie(in, out) = Place(in_specs, out_specs, count, &total);
    out_base = out.empty() ? total : out[0].off;
    // Per input, a pool of the trials' inputs end to end (twice an
    // input's length, or more): made once per set of trials.
    for (size_t i = device_pools.size(); i < in.size() && alone; ++i) {
      const size_t n = static_cast<size_t>(Numel(in[i].shape));
      const size_t es = DtypeSize(in[i].dtype);
      const size_t window_slack = std::max<size_t>(n, 65536);
      const size_t len = n + window_slack;
      auto dev = std::make_unique<DeviceBuffer>(len * es);
      if (dev->ptr == nullptr) {
        alone_ = AloneData{};
        return Reply("failed", "out of device memory for the timing inputs");
      }
      cudaError_t e = cudaSuccess;
      for (size_t at = 0, k = 0; at < len && e == cudaSuccess; ++k) {
        const auto& src = verify[k % verify.size()].inputs[i].bytes;
        const size_t take = std::min(src.size() / es, len - at);
        if (take == 0) {  // an empty input: the pool is its poison
          const HostTensor rest = Poisoned(in[i].dtype, {static_cast<int64_t>(len - at)});
          e = cudaMemcpy(static_cast<uint8_t*>(dev->ptr) + at * es, rest.bytes.data(), rest.bytes.size(),
                         cudaMemcpyHostToDevice);
          break;
        }
        e = cudaMemcpy(static_cast<uint8_t*>(dev->ptr) + at * es, src.data(), take * es, cudaMemcpyHostToDevice);
        at += take;
      }
      if (e != cudaSuccess) {
        alone_ = AloneData{};
        return Reply("error", "preparing the timing inputs failed: " + CudaText(e));
      }
      slack.push_back(window_slack);
      device_pools.push_back(std::move(dev));
    }
    // The outputs' poison, copied over them before every round.
    poison = std::make_unique<DeviceBuffer>(total - out_base);
    if (poison->ptr == nullptr) return Reply("failed", "out of device memory for the timing outputs");
    for (const auto& o : out) {
      const size_t n = o.stride * count / DtypeSize(o.dtype);
      if (Status st = Poison(static_cast<uint8_t*>(poison->ptr) + (o.off - out_base), o.dtype, n); !st.ok()) {
        return Reply("error", st.message());
      }
    }
    phases.Lap("pools_s");  // memory lent, pools and poison made
    mode = "graph";
    // The marker a replay's first part sets at its end (runner.cc), after
    // everything else lent.
    marker_off = RoundUp(total);
    if (Status st = RunnerClient::ReserveTogether(timed, vmm_, marker_off + kAlign, Left(), &failed); !st.ok()) {
      return RunnerFailure(failed, st);
    }
    // Every runner captures at once (each a process of its own; thousands
    // of calls take a second or more to capture); each reply is then read
    // in order, as before.
    std::map<std::string, std::future<Result<Json>>> captures;
    for (const auto& s : order) {
      RunnerClient* r = runners[s];
      Json capture = {{"op", "capture"},
                      {"quiet", quiet_rounds_},
                      {"marker", {{"slab", r->slab_id()}, {"off", marker_off}}},
                      {"sets", count},
                      {"in", Describe(in, r->slab_id())},
                      {"out", Describe(out, r->slab_id())},
                      {"params", plist}};
      captures[s] = std::async(std::launch::async, [r, capture = std::move(capture), left = Left()] {
        return r->Request(capture, left);
      });
    }
    std::vector<Result<Json>> captured;
    for (const auto& s : order) captured.push_back(captures[s].get());
    for (size_t k = 0; k < order.size(); ++k) {
      RunnerClient* r = runners[order[k]];
      Result<Json>& a = captured[k];
      if (!a.ok()) return RunnerFailure(r, a.status());
      if (!(*a)["ok"].get<bool>()) mode = "eager";
      if (Json seen = Observed(r, (*a)["ok"].get<bool>(), "while captured for timing"); !seen.is_null()) {
        return seen;
      }
    }
    phases.Lap("capture_s");
    // One round of each subject: resized so that the faster one's lasts
    // about 5 ms (one eager call was the estimate), but the slower one's
    // no more than 50 ms (a subject 1000 times slower than the other
    // must not run its rounds past the stage's limit).
    Log("time " + req["config"].value("name", "") + ": " + std::to_string(count) + " sets of " +
        std::to_string(per_set) + " bytes, " + mode + ", pools and capture ready");
    double fastest = 1e300, slowest = 0;
    for (const auto& s : order) {
      RunnerClient* r = runners[s];
      if (Status st = fill_sets(reinterpret_cast<uint8_t*>(r->slab_ptr()), rng(),
                                std::vector<std::vector<size_t>>(slack.size(), std::vector<size_t>(count, 0)), 0,
                                alone ? &verify[0] : nullptr, rng(), Decoy{});
          !st.ok()) {
        return Reply("error", st.message());
      }
      const double us = RoundTrip(r, Request(mode, count, in, out, r->slab_id(), plist, rng(), static_cast<uint32_t>(rng())), &failure) - overhead;
      Log("time: a round of " + s + " took " + std::to_string(us) + " us");
      if (!failure.is_null()) return failure;
      fastest = std::min(fastest, us);
      slowest = std::max(slowest, us);
    }
    size_t resized = std::clamp<size_t>(static_cast<size_t>(std::ceil(count * 5000.0 / std::max(fastest, 1.0))), 1, cap);
    const size_t slow_cap = std::max<size_t>(1, static_cast<size_t>(count * 50000.0 / std::max(slowest, 1.0)));
    resized = std::min(resized, slow_cap);
    const bool far_off = fastest < 2500.0 || fastest > 10000.0 || slowest > 50000.0;
    if (attempt == 1 || !far_off || resized == count) break;
    count = resized;
  }

  // Per subject: the chosen set's outputs, copied out at the end of a round.
  size_t out_bytes = 0;
  for (const auto& o : out) out_bytes += o.stride;
  std::map<std::string, std::unique_ptr<DeviceBuffer>> snaps;
  for (const auto& s : order) {
    snaps[s] = std::make_unique<DeviceBuffer>(out_bytes);
    if (snaps[s]->ptr == nullptr) return Reply("failed", "out of device memory");
  }
  // Timed alone: the round's late window's outputs, copied out with the
  // chosen set's in every round (PickLateWindow).
  std::unique_ptr<DeviceBuffer> late_snap;
  if (alone) {
    late_snap = std::make_unique<DeviceBuffer>(out_bytes);
    if (late_snap->ptr == nullptr) return Reply("failed", "out of device memory");
  }
  cudaEvent_t snap_start, snap_end;
  cudaEventCreate(&snap_start);
  cudaEventCreate(&snap_end);
  // What evicting the L2 takes on an otherwise idle GPU, every runner
  // stopped (never more than before any subject ran: IdleEvictionUs).
  for (const auto& any : order) runners[any]->Freeze(true);
  const double quiet_us = IdleEvictionUs(5);
  for (const auto& any : order) runners[any]->Freeze(false);
  phases.Lap("setup_s");  // the sizing round, snapshots, the idle eviction's time
  std::map<std::string, std::vector<double>> samples;
  double worst_abs = 0, worst_rel = 0;
  // A held round: its chosen set's seed, and per output the places
  // sampled and the candidate's values there.
  struct HeldRound {
    int round;
    uint64_t seed;
    std::vector<std::pair<Sample, HostTensor>> outputs;
  };
  std::vector<HeldRound> kept;
  // Per subject and kept round, what came between its inputs being written
  // and its clock starting: the wait for an idle GPU (every runner
  // stopped) and the wake. Neither is on the clock; both are reported, so
  // that runs tell what an honest subject's take.
  std::map<std::string, std::map<std::string, std::vector<double>>> before_clock;
  // Witnessed calls (runner.cc). Eager calls of a round of several sets
  // are witnessed: the runner pauses after a call drawn once it has
  // returned, and the judge copies that set's outputs then; after the
  // round they must be what the set holds at its end. A subject that
  // leaves a call's work to a later call (to batch a round's calls into
  // fewer launches, which its callers' calls, each waited for, never are)
  // is caught in the rounds that witness a call it left. Captured calls
  // are one graph per call, chained, and every replay runs one of the
  // runner's splits: the calls up to a secret one, then, once the runner
  // has told the judge and the judge has said "go", the rest. In
  // kGraphWitnessRounds rounds, at secret places and not timed, the judge
  // waits for the first part to end (it marks its end in the judge's
  // memory) and copies what its calls wrote before it says "go"; in the
  // others it says "go" at once. Until then a witnessed replay and a timed
  // one are the same: the same graphs, the same requests. Once a witness
  // is taken, every later set's outputs are read at a secret place, where
  // they must still hold the poison written before the round (their calls
  // have not run: work done ahead of its call, a round's first call
  // computing every set, has written them), and poisoned there again,
  // which their own calls must write (a call that skips its work leaves
  // it).
  const bool eager_witnessed = mode == "eager" && count > 1;
  std::set<int> untimed;
  int last_round = rounds;
  if (mode == "graph" && count > 1) {
    last_round += kGraphWitnessRounds;
    std::uniform_int_distribution<int> any_round(1, last_round);
    while (untimed.size() < static_cast<size_t>(kGraphWitnessRounds)) untimed.insert(any_round(rng));
  }
  std::map<std::string, int> witnessed;
  for (const auto& s : order) witnessed[s] = 0;
  // A witness of the sets [from, call] of subject `s`'s round, at most
  // `most` elements of each output; then the later sets poisoned again.
  auto take_witness = [&](const std::string& s, int64_t call, size_t from, size_t most) {
    Witness w;
    w.call = call;
    w.from = from;
    w.in_round = call >= 0 && static_cast<size_t>(call) < count && from <= static_cast<size_t>(call);
    if (!w.in_round) return w;
    auto* base = reinterpret_cast<uint8_t*>(runners[s]->slab_ptr());
    const size_t later = count - static_cast<size_t>(call) - 1;
    for (const auto& o : out) {
      const size_t n = static_cast<size_t>(Numel(o.shape));
      const size_t es = DtypeSize(o.dtype);
      const size_t length = std::min(n, most);
      const SetRuns run{std::uniform_int_distribution<size_t>(0, n - length)(rng), length};
      w.copies.push_back(DownloadSetRuns(base + o.off + from * o.stride, o.stride,
                                         static_cast<size_t>(call) + 1 - from, o.dtype, run));
      w.places.push_back(run);
      const size_t ahead_length = std::min(n, kAheadElements);
      const SetRuns ahead{std::uniform_int_distribution<size_t>(0, n - ahead_length)(rng), ahead_length};
      w.ahead.push_back(ahead);
      if (later == 0 || ahead.length == 0) continue;
      const size_t first_later = o.off + (static_cast<size_t>(call) + 1) * o.stride;  // set call + 1
      if (w.early < 0) {
        // The later sets' calls have not run: their outputs hold the
        // poison written before the round, wherever they are read.
        const int64_t early =
            FirstWrittenAhead(DownloadSetRuns(base + first_later, o.stride, later, o.dtype, ahead), ahead.length);
        if (early >= 0) {
          w.early = call + 1 + early;
          w.early_output = static_cast<size_t>(&o - out.data());
        }
      }
      const size_t at = first_later + ahead.start * es;
      cudaMemcpy2D(base + at, o.stride, static_cast<uint8_t*>(poison->ptr) + (at - out_base), o.stride,
                   ahead.length * es, later, cudaMemcpyDeviceToDevice);
    }
    cudaDeviceSynchronize();
    return w;
  };
  // Whether a witness of `s`'s round holds once the round has ended; a
  // finding says why not. `other`: the other subject, whose outputs at the
  // places poisoned again tell what is written there ("" timed alone).
  auto check_witness = [&](const std::string& s, const std::string& other, const Witness& w,
                           int round) -> Json {
    const std::string calls = "call " + std::to_string(w.call + 1) + " of " + std::to_string(count) +
                              " in round " + std::to_string(round);
    if (!w.in_round) {
      return Finding("tampering: " + s + "'s runner stopped for a witness of " + calls + ", where there is none");
    }
    if (!w.ended) {
      return Finding(s + ": the first part of a witnessed replay (its calls up to " + calls +
                     ") had not ended 2 s after its runner said it was launched");
    }
    if (w.early >= 0) {
      return Finding(s + ": work done ahead of its call: once the calls up to " + calls + " had returned, '" +
                     outputs_[w.early_output].name + "' of call " + std::to_string(w.early + 1) +
                     " was already written, before that call was made");
    }
    const auto* base = reinterpret_cast<const uint8_t*>(runners[s]->slab_ptr());
    const size_t later = count - static_cast<size_t>(w.call) - 1;
    for (size_t o = 0; o < out.size(); ++o) {
      const Placed& t = out[o];
      const HostTensor now = DownloadSetRuns(base + t.off + w.from * t.stride, t.stride,
                                             static_cast<size_t>(w.call) + 1 - w.from, t.dtype, w.places[o]);
      if (now.bytes != w.copies[o].bytes) {
        return Finding(s + ": work deferred to a later call: the calls up to " + calls +
                       " had returned with outputs not all written ('" + outputs_[o].name +
                       "' was witnessed then, and differs from what the round's end holds)");
      }
      if (later == 0) continue;
      const size_t first_later = t.off + (static_cast<size_t>(w.call) + 1) * t.stride;
      const HostTensor mine = DownloadSetRuns(base + first_later, t.stride, later, t.dtype, w.ahead[o]);
      const HostTensor theirs =
          other.empty() ? HostTensor{}
                        : DownloadSetRuns(reinterpret_cast<const uint8_t*>(runners[other]->slab_ptr()) + first_later,
                                          t.stride, later, t.dtype, w.ahead[o]);
      if (FirstLeftPoisoned(mine, other.empty() ? nullptr : &theirs, w.ahead[o].length) >= 0) {
        return Finding(s + ": a later call's outputs unwritten: once the calls up to " + calls +
                       " had returned, '" + outputs_[o].name +
                       "' of the later sets was poisoned again at places drawn in secret, and their own "
                       "calls left it there (their work done ahead of them, or skipped)");
      }
    }
    return Json();
  };
  const size_t timed_rounds = static_cast<size_t>(last_round) - untimed.size();
  // The round whose late window is kept (the first with one from there),
  // drawn in secret; its window's offsets into the pools, per input.
  const int late_round = late_dir.empty() ? -1 : std::uniform_int_distribution<int>(1, last_round)(rng);
  std::vector<size_t> late_offsets;
  int decoys = 0;  // rounds with a decoy (timed alone)
  for (int round = 0;; ++round) {  // round 0 warms up
    const bool enough = std::min(samples[order[0]].size(), samples[order.back()].size()) >= timed_rounds &&
                        (!eager_witnessed || std::min(witnessed[order[0]], witnessed[order.back()]) > 0);
    if (round > last_round && (enough || round > last_round + kWitnessRoundsMore)) break;
    std::map<std::string, std::vector<Witness>> witnesses;
    // Alone: offsets[i][k], where set k's window of input i starts in
    // its pool. Both: the round's seed, the same for both subjects.
    std::vector<std::vector<size_t>> offsets;
    for (size_t i = 0; i < slack.size(); ++i) {
      std::uniform_int_distribution<size_t> pick(0, slack[i]);
      offsets.emplace_back();
      for (size_t k = 0; k < count; ++k) offsets.back().push_back(pick(rng));
    }
    const uint64_t round_seed = rng();
    const size_t secret = std::uniform_int_distribution<size_t>(0, count - 1)(rng);
    const bool held = held_rounds.count(round) > 0;
    // The chosen set's seed: a held round's, prepared, or a fresh one.
    const uint64_t chosen_seed = held && kept.size() < held_seeds.size() ? held_seeds[kept.size()] : rng();
    // Alone: the chosen set's trial, each one's first showing at a secret
    // round among those the whole configuration's requests will time
    // ("expected_rounds", this request's where not given).
    const size_t pick =
        alone ? PickAloneTrial(alone_.shown, round > 0,
                               req.value("expected_rounds", rounds) - alone_.timed_rounds, rng)
              : 0;
    const Trial* vt = alone ? &verify[pick] : nullptr;
    // One set of a shown trial where the chosen one's is new (PickDecoy):
    // every round repeats inputs the subject was given before.
    const Decoy decoy = alone ? PickDecoy(alone_.shown, pick, secret, count, rng) : Decoy{};
    decoys += decoy.set >= 0;
    const int64_t window = alone ? PickLateWindow(secret, decoy.set, count, rng) : -1;
    const bool keep_window = late_round >= 0 && round >= late_round && late_.empty() && window >= 0;
    std::vector<std::string> turn = order;
    if (round % 2 == 1) std::reverse(turn.begin(), turn.end());
    for (const auto& s : turn) {
      RunnerClient* r = runners[s];
      auto* base = reinterpret_cast<uint8_t*>(r->slab_ptr());
      phases.Lap("verify_s");
      // Every runner stopped, and the GPU idle, before the round's inputs
      // are written: no subject sees them before its clock starts (a
      // thread that watched its lent memory, or a kernel it left running,
      // would otherwise work on them unclocked; a kernel launched between
      // requests is a finding too, runner/observer.h).
      auto thaw_all = [&] {
        for (const auto& any : order) runners[any]->Freeze(false);
      };
      for (const auto& any : order) runners[any]->Freeze(true);
      if (std::string busy = EvictAndWaitQuiet(quiet_us, round); !busy.empty()) {
        thaw_all();
        return Finding("a subject left work running on the GPU for over 2 s after its runner was stopped, "
                       "before a round's inputs were written (" + busy + ")");
      }
      phases.Lap("quiet_s");
      if (Status st = fill_sets(base, round_seed, offsets, secret, vt, chosen_seed, decoy); !st.ok()) {
        thaw_all();
        return Reply("error", st.message());
      }
      cudaError_t e = cudaSuccess;
      // The chosen set's inputs, sampled before the round: they must be
      // there, unchanged, after it.
      std::vector<Sample> in_samples;
      std::vector<HostTensor> before;
      for (size_t i = 0; i < in.size() && e == cudaSuccess; ++i) {
        in_samples.push_back(PickSample(static_cast<size_t>(Numel(in[i].shape)), rng));
        before.push_back(Sampled(base + in[i].off + secret * in[i].stride, in[i].dtype, in_samples[i]));
      }
      if (e == cudaSuccess) e = cudaMemcpy(base + out_base, poison->ptr, total - out_base, cudaMemcpyDeviceToDevice);
      // The marker's word before the replay (runner.cc): a fresh one, which
      // the first part writes again in a timed round and changes in a
      // witnessed one.
      const auto mark = static_cast<uint32_t>(rng());
      const uint32_t mark_before = untimed.count(round) > 0 ? mark ^ (static_cast<uint32_t>(rng()) | 1u) : mark;
      if (e == cudaSuccess && mode == "graph") {
        e = cudaMemcpy(base + marker_off, &mark_before, 4, cudaMemcpyHostToDevice);
      }
      if (e == cudaSuccess) e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        thaw_all();
        return Reply("error", "preparing a timing round failed: " + CudaText(e));
      }
      phases.Lap("fill_s");  // inputs drawn, sampled, outputs poisoned
      // The L2 evicted, and the GPU free of work left running (kernels a
      // subject launched from a thread of its own, to slow down whoever is
      // timed next): waited for, and a finding if it never ends. Then the
      // subject timed, alone.
      const auto quiet_from = std::chrono::steady_clock::now();
      if (std::string busy = EvictAndWaitQuiet(quiet_us, round); !busy.empty()) {
        thaw_all();
        return Finding("a subject left work running on the GPU for over 2 s after its runner was stopped, "
                       "before " + s + " was timed (" + busy + ")");
      }
      const double waited_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - quiet_from).count();
      // Stopped while the round's inputs were written: stopped indeed.
      if (std::string ran = r->RanWhileStopped(); !ran.empty()) {
        thaw_all();
        return Finding(ran + " (round " + std::to_string(round) + ", as its inputs were written)");
      }
      r->Freeze(false);
      phases.Lap("quiet_s");  // runners stopped, L2 evicted, the GPU idle
      // One round trip first, in which the runner touches 4 bytes of its
      // own on the GPU: the runner is running again, and the GPU has
      // switched from the judge's context (the eviction) to the runner's;
      // neither is in the round. (A probe of two runner processes timed
      // this way, tools/gpu/probes/aa_rounds.cu, showed the switch inside
      // the round as an offset of several percent on launch-bound rounds.)
      // A graph's replay is then observed quietly (runner/observer.h): no
      // copy records, which would cost each of its kernels about a launch.
      Json woke;
      const double wake_us = RoundTrip(r, {{"op", "prime"}, {"quiet", quiet_rounds_ && mode == "graph"}}, &woke);
      if (!woke.is_null()) {
        thaw_all();
        return woke;
      }
      if (round > 0) {
        before_clock[s]["quiet_us"].push_back(waited_us);
        before_clock[s]["wake_us"].push_back(wake_us);
      }
      phases.Lap("wake_s");
      // A round in which the runner paused for a witness is not timed:
      // a pause is the runner's word on its channel, which the subject's
      // code can say too (pause_forged: pauses of its own, each a window
      // of the judge's in which its GPU worked on later sets off the
      // clock, had the witnesses' time been taken off the round). Rounds
      // go on until each subject has as many timed rounds as asked
      // (about one in five eager rounds has a witness).
      bool paused = false;
      if (eager_witnessed) {
        r->on_pause = [&, s](int64_t call) {
          paused = true;
          witnesses[s].push_back(take_witness(s, call, static_cast<size_t>(std::max<int64_t>(call, 0)),
                                              kPauseWitnessElements));
        };
      }
      if (untimed.count(round) > 0) {
        r->on_split = [&, s, base, mark, mark_before](int64_t call) {
          Witness w;
          if (call >= 0 && static_cast<size_t>(call) + 1 < count) {
            // The first part's end, in the judge's memory (runner.cc).
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
            uint32_t word = mark_before;
            while (cudaMemcpy(&word, base + marker_off, 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
                   word != mark && std::chrono::steady_clock::now() < deadline) {
            }
            w = word == mark ? take_witness(s, call, 0, kSplitWitnessElements) : Witness{call, true, false};
          } else {
            w.call = call;
            w.in_round = false;
          }
          witnesses[s].push_back(std::move(w));
        };
      }
      const auto t0 = std::chrono::steady_clock::now();
      bool ok = false;
      Json f = Ask(r, Request(mode, count, in, out, r->slab_id(), plist, rng(), mark), &ok);
      r->on_pause = r->on_split = nullptr;
      cudaEventRecord(snap_start, nullptr);
      size_t at = 0;
      for (const auto& o : out) {
        cudaMemcpyAsync(static_cast<uint8_t*>(snaps[s]->ptr) + at, base + o.off + secret * o.stride, o.bytes,
                        cudaMemcpyDeviceToDevice, nullptr);
        if (window >= 0) {
          cudaMemcpyAsync(static_cast<uint8_t*>(late_snap->ptr) + at, base + o.off + window * o.stride, o.bytes,
                          cudaMemcpyDeviceToDevice, nullptr);
        }
        at += o.stride;
      }
      cudaEventRecord(snap_end, nullptr);
      cudaEventSynchronize(snap_end);
      const double elapsed =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      for (const auto& other : order) {
        if (other == s) continue;
        if (std::string ran = runners[other]->RanWhileStopped(); !ran.empty()) {
          thaw_all();
          return Finding(ran + " (round " + std::to_string(round) + ", while " + s + " was timed)");
        }
      }
      for (const auto& other : order) {
        if (other != s) runners[other]->Freeze(false);
      }
      phases.Lap("round_s");
      const std::string when = "in a timed round (round " + std::to_string(round) + ")";
      if (!ok) return FailureOrFinding(r, f, when);
      if (Json seen = Observed(r, mode != "graph", when); !seen.is_null()) {
        return seen;
      }
      phases.Lap("observe_s");
      Log("round " + std::to_string(round) + " " + s + ": " + std::to_string(elapsed) + " us");
      float snap_ms = 0;
      cudaEventElapsedTime(&snap_ms, snap_start, snap_end);
      if (untimed.count(round) > 0 && witnesses[s].size() != 1) {
        return Finding("tampering: " + s + "'s runner replayed its captured calls without telling where the "
                       "first part ended (round " + std::to_string(round) + ")");
      }
      if (round > 0 && untimed.count(round) == 0 && !paused) {
        samples[s].push_back(std::max(elapsed - snap_ms * 1000.0 - overhead, 0.0) /
                             static_cast<double>(count));
        if (alone) {
          (alone_.shown[pick] ? alone_.seen_us : alone_.new_us).push_back(samples[s].back());
          ++alone_.timed_rounds;
        }
      }
      if (alone) alone_.shown[pick] = 1;
      for (size_t i = 0; i < in.size(); ++i) {
        const HostTensor now = Sampled(base + in[i].off + secret * in[i].stride, in[i].dtype, in_samples[i]);
        if (now.bytes != before[i].bytes) {
          return Finding(s + ": input '" + inputs_[i].name + "' was modified in a timed call (round " +
                         std::to_string(round) + ")");
        }
      }
    }
    // The witnesses first: a call's work was done when it returned, and no
    // later call's before it was called.
    for (const auto& s : order) {
      const std::string other = alone ? "" : (s == order[0] ? order.back() : order[0]);
      for (const Witness& w : witnesses[s]) {
        if (Json found = check_witness(s, other, w, round); !found.is_null()) return found;
      }
      witnessed[s] += static_cast<int>(witnesses[s].size());
    }
    // The chosen set's outputs.
    if (held) kept.push_back(HeldRound{round, chosen_seed, {}});
    for (size_t o = 0, at = 0; o < out.size(); at += out[o].stride, ++o) {
      const auto [atol, rtol] = Tolerance(o);
      // Timed alone, a trial's reference written at a few phases: one of
      // them, and where its values begin.
      const ReferenceAt* phases = alone && o < vt->at.size() && !vt->at[o].whole() ? &vt->at[o] : nullptr;
      Sample sample;
      size_t from = 0;
      if (phases != nullptr) {
        std::tie(sample, from) = phases->Pick(rng);
      } else {
        sample = PickSample(static_cast<size_t>(Numel(out[o].shape)), rng);
      }
      std::map<std::string, HostTensor> got;
      for (const auto& s : order) {
        got[s] = Sampled(static_cast<uint8_t*>(snaps[s]->ptr) + at, out[o].dtype, sample);
      }
      Comparison c;
      std::string what;
      if (alone) {
        c = phases != nullptr ? AgainstReference(o, Sample{from, 1, sample.count}, got[order[0]], vt->reference[o])
                              : AgainstReference(o, sample, got[order[0]], vt->reference[o]);
        what = order[0] + ": a timed call's outputs are wrong";
      } else {
        // Each within the tolerance of the reference: within twice of each other.
        c = Compare(outputs_[o].name, got["candidate"], Widen(got["baseline"]), 2 * atol, 2 * rtol);
        what = "candidate: a timed call's outputs differ from the baseline's on the same inputs";
      }
      worst_abs = std::max(worst_abs, c.max_abs_err);
      worst_rel = std::max(worst_rel, c.max_rel_err);
      if (!c.ok) return Finding(what + " (round " + std::to_string(round) + "): " + c.detail);
      if (held) kept.back().outputs.push_back({sample, std::move(got["candidate"])});
      // Every set of the round, lightly (PickSetRuns), both subjects timed:
      // skipping a few sets' work is caught every round, not only when the
      // chosen set is one of them. What this looks for is poison or garbage,
      // not precision (the chosen set's check): twice that bound, so that
      // the many more elements read cannot turn an honest subject's rare
      // outlier into a finding. (Timed alone, the other sets are windows at
      // secret offsets whose reference is not computed.)
      if (!alone) {
        const size_t n = static_cast<size_t>(Numel(out[o].shape));
        const SetRuns runs = PickSetRuns(n, count, rng);
        std::map<std::string, HostTensor> all;
        for (const auto& s : order) {
          all[s] = DownloadSetRuns(reinterpret_cast<const uint8_t*>(runners[s]->slab_ptr()) + out[o].off,
                                   out[o].stride, count, out[o].dtype, runs);
        }
        const Comparison every = Compare(outputs_[o].name, all["candidate"], Widen(all["baseline"]),
                                         4 * atol, 4 * rtol);
        if (!every.ok) {
          return Finding("candidate: a timed round's other sets differ from the baseline's on the same inputs "
                         "(round " + std::to_string(round) + ", " + std::to_string(count) + " sets): " +
                         every.detail);
        }
      }
    }
    if (keep_window) {
      LateWindow w{late_made_++, round, window, count, {}};
      for (size_t o = 0, at = 0; o < out.size(); at += out[o].stride, ++o) {
        const Sample sample = PickSample(static_cast<size_t>(Numel(out[o].shape)), rng);
        w.outputs.push_back({sample, Sampled(static_cast<uint8_t*>(late_snap->ptr) + at, out[o].dtype, sample)});
      }
      for (size_t i = 0; i < slack.size(); ++i) late_offsets.push_back(offsets[i][static_cast<size_t>(window)]);
      late_.push_back(std::move(w));
    }
  }
  cudaEventDestroy(snap_start);
  cudaEventDestroy(snap_end);
  for (const auto& [s, seen] : witnessed) {
    if (eager_witnessed && seen == 0) {
      char chance[32];
      std::snprintf(chance, sizeof(chance), "%.3g", kWitnessesPerRound / static_cast<double>(count));
      return Finding("tampering: " + s + "'s runner never paused for a witness in " + std::to_string(last_round) +
                     " rounds and more of " + std::to_string(count) + " calls (each call witnessed with a chance of " +
                     chance + ": its draws or its pauses were kept from the judge)");
    }
  }
  for (const auto& s : order) {
    if (samples[s].size() * 2 < timed_rounds) {
      return Finding("tampering: " + s + "'s runner paused for witnesses in all but " +
                     std::to_string(samples[s].size()) + " of its rounds (the runner draws about one witness in "
                     "four rounds): pauses of its own, not the runner's");
    }
  }
  // The held rounds, after the last: each one's chosen set held to its
  // reference, prepared before the rounds (StartHeld); one not prepared is
  // drawn again from its seed and its reference computed now (side by
  // side, within the prefetch budget: a reference takes one core, and each
  // holds the configuration's inputs widened and its outputs in double).
  std::vector<size_t> unprepared;
  for (size_t k = 0; k < kept.size(); ++k) {
    if (!held_made.count(kept[k].seed)) unprepared.push_back(k);
  }
  std::vector<std::vector<HostTensor>> held_inputs;
  for (size_t k : unprepared) {
    auto drawn = DrawnSet(p, kept[k].seed);
    if (!drawn.ok()) return Reply("error", "timing: a held round's inputs: " + drawn.status().message());
    held_inputs.push_back(std::move(*drawn));
  }
  auto trial_bytes = TrialBytes(p);
  if (!trial_bytes.ok()) return Reply("failed", trial_bytes.status().message());
  std::vector<std::optional<Result<Trial>>> made_now = SideBySide<Result<Trial>>(
      held_inputs.size(), PrefetchBudget() / std::max<size_t>(*trial_bytes, 1),
      [&](size_t k) { return TrialOf(std::move(held_inputs[k]), p, params); });
  for (size_t j = 0; j < unprepared.size(); ++j) {
    if (!made_now[j]->ok()) {
      return Reply("error", "timing: a held round's reference: " + made_now[j]->status().message());
    }
    held_made.emplace(kept[unprepared[j]].seed, std::move(**made_now[j]));
  }
  for (const HeldRound& h : kept) {
    const Trial& trial = held_made.at(h.seed);
    for (size_t o = 0; o < h.outputs.size(); ++o) {
      const Comparison c = AgainstReference(o, h.outputs[o].first, h.outputs[o].second, trial.reference[o]);
      worst_abs = std::max(worst_abs, c.max_abs_err);
      worst_rel = std::max(worst_rel, c.max_rel_err);
      if (!c.ok) {
        // As a check would say: wrong on inputs of its own.
        return Reply("failed", "candidate: wrong when timed: the outputs of a timed call (round " +
                                   std::to_string(h.round) + "): " + c.detail);
      }
    }
  }
  phases.Lap("verify_s");  // inputs re-sampled, the chosen set compared, every set read lightly
  if (alone) {
    if (std::string why = CachedByContent(alone_.new_us, alone_.seen_us, count); !why.empty()) {
      return Finding(order[0] + ": " + why);
    }
  }
  const std::string method = "judge-clock+" + std::string(mode == "graph" ? "cuda-graph" : "eager") +
                             "-rounds-of-" + std::to_string(count) +
                             "-fresh-input-sets+secret-verified-set" + (alone ? "" : "+interleaved") +
                             (count > 1 ? "+witnessed-calls" : "");
  Json single_json = Json::object();
  for (const auto& [s, us] : single) single_json[s] = us;
  Json metrics = {{"method", method},
                  {"sets_per_round", count},
                  {"round_trip_us", overhead},
                  {"single_call_us", single_json},
                  {"verified", {{"max_abs_err", worst_abs}, {"max_rel_err", worst_rel}}},
                  {"observation", observation_},
                  {"witnessed_calls", count > 1 ? Json(witnessed) : Json()},
                  {"phases", phases.ToJson()}};
  for (const auto& [subject, seen] : before_clock) {
    for (const auto& [what, us] : seen) {
      metrics["before_clock"][subject][what] = {{"median", Median(us)},
                                                {"max", *std::max_element(us.begin(), us.end())}};
    }
  }
  for (const auto& [s, r] : runners) {
    const RunnerClient::StopTally t = r->TakeStopTally();
    metrics["stops"][s] = {{"stops", t.stops},
                           {"fewest_threads_counted", t.fewest_counted},
                           {"most_us_while_stopped", t.most_ns_while_stopped / 1e3}};
  }
  if (alone) {
    metrics["alone_rounds"] = {{"new_inputs", alone_.new_us.size()},
                               {"seen_inputs", alone_.seen_us.size()},
                               {"decoys", decoys},
                               {"late_windows", late_.size()}};
  }
  Json reply = Reply("passed", method, metrics);
  // The late window's inputs, written out for its reference: each input's
  // window of its pool, as the subject was given it.
  for (const LateWindow& w : late_) {
    Json files = Json::array();
    for (size_t i = 0; i < in.size(); ++i) {
      HostTensor x = Empty(in[i].dtype, in_specs[i].second);
      const auto* pool = static_cast<const uint8_t*>(device_pools[i]->ptr);
      if (cudaError_t e = cudaMemcpy(x.bytes.data(), pool + late_offsets[i] * DtypeSize(x.dtype), x.bytes.size(),
                                     cudaMemcpyDeviceToHost);
          e != cudaSuccess) {
        return Reply("error", "a late window's inputs: " + CudaText(e));
      }
      const std::string path =
          late_dir + "/late_" + std::to_string(w.id) + "_in" + std::to_string(i) + ".bin";
      if (Status st = WriteTensorFile(path, x); !st.ok()) return Reply("error", st.message());
      files.push_back({{"path", path}, {"dtype", DtypeName(x.dtype)}, {"shape", x.shape}});
    }
    // The places of each output read: its reference is wanted there alone.
    Json at = Json::array();
    for (const auto& [sample, got] : w.outputs) {
      at.push_back({{"start", sample.start}, {"stride", sample.stride}, {"count", sample.count}});
    }
    reply["late"].push_back({{"id", w.id}, {"round", w.round}, {"inputs", files}, {"at", at}});
  }
  for (const auto& s : order) reply[s + "_us"] = samples[s];
  reply["paired"] = !alone;  // sample i of each subject: round i, one after the other
  return reply;
}

Json Judge::LateCheck(const Json& req) {
  double worst_abs = 0, worst_rel = 0;
  int checked = 0;
  Json unusable = Json::array();
  for (const Json& entry : req.value("late", Json::array())) {
    const int id = entry.value("id", -1);
    auto w = std::find_if(late_.begin(), late_.end(), [id](const LateWindow& l) { return l.id == id; });
    if (w == late_.end()) return Reply("error", "late_check: no late window " + std::to_string(id));
    if (entry.contains("unusable")) {
      // PyTorch eager not within the tolerance of the float64 reference
      // there (inputs outside what the module is checked on): the window
      // tells nothing either way.
      unusable.push_back(entry["unusable"]);
      continue;
    }
    const Json refs = entry.value("reference", Json::array());
    if (refs.size() != outputs_.size()) return Reply("error", "late_check: one reference per output expected");
    for (size_t o = 0; o < outputs_.size(); ++o) {
      auto values = ReadReference(refs[o]);
      if (!values.ok()) return Reply("error", "late_check: " + values.status().message());
      // The reference at the places read ("at"), in their order.
      const auto& [sample, got] = w->outputs[o];
      if (values->size() != sample.count) {
        return Reply("error", "late_check: the reference of '" + outputs_[o].name + "' holds " +
                                  std::to_string(values->size()) + " values, " + std::to_string(sample.count) +
                                  " read");
      }
      const Comparison c = AgainstReference(o, Sample{0, 1, sample.count}, got, *values);
      worst_abs = std::max(worst_abs, c.max_abs_err);
      worst_rel = std::max(worst_rel, c.max_rel_err);
      if (!c.ok) {
        return Finding("candidate: a timed call's outputs are wrong on a set whose reference was computed after "
                       "the rounds (round " + std::to_string(w->round) + ", set " + std::to_string(w->set + 1) +
                       " of " + std::to_string(w->sets) + ", a window no reference was computed for while it ran): " +
                       c.detail);
      }
    }
    ++checked;
  }
  late_.clear();
  return Reply("passed", std::to_string(checked) + " late window(s) within tolerance",
               {{"late_windows", {{"checked", checked}, {"unusable", unusable}}},
                {"verified", {{"max_abs_err", worst_abs}, {"max_rel_err", worst_rel}}}});
}

}  // namespace arena::hip2hip
