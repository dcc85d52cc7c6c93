// The HIP judge's checks: a subject's outputs on every trial of a
// configuration, against the reference (judge.h).
#include "plugins/common/hip/worker/judge.h"

namespace arena::hip2hip {

Json Judge::Check(const Json& req) {
  PhaseClock phases;
  if (Status s = EnsureFill(); !s.ok()) return Reply("error", s.message());
  Log("check " + req.value("subject", std::string()) + " " + req["config"].value("name", ""));
  const std::string subject = req["subject"];
  auto runner = Runner(subject);
  if (!runner.ok()) {
    Json reply = Reply("failed", runner.status().message());
    if (auto it = runners_.find(subject); it != runners_.end() && it->second) reply["log"] = it->second->LogTail();
    return reply;
  }
  RunnerClient* r = *runner;
  const ConfigParams config_params(req["config"]["params"]);
  const ParameterValues& p = config_params.numeric;
  const std::vector<ArenaParam>& params = config_params.args;
  const std::string key = req["config"].value("name", "") + "/" + req["seed"].dump();
  Json fingerprints = Json::array();
  double max_abs = 0, max_rel = 0;
  int trials = req.value("trials", 3);
  if (req.contains("data")) {
    // Trials prepared by another process (a PyTorch reference).
    trials = static_cast<int>(req["data"].size());
    trials_.clear();  // sent with every request: nothing to keep for later
    ResetTrials(key);
    std::vector<Result<Trial>> loaded = LoadTrials(std::vector<Json>(req["data"].begin(), req["data"].end()));
    for (int trial = 0; trial < trials; ++trial) {
      auto& t = loaded[static_cast<size_t>(trial)];
      if (!t.ok()) return Reply("error", "trial data: " + t.status().message());
      trials_[TrialSeed(req["seed"].get<uint64_t>(), trial)] = std::move(*t);
    }
  } else if (reference_ == nullptr) {
    return Reply("error", "no reference: the request carries no trial data");
  } else {
    // The trials' inputs and references are independent: on the first
    // subject's check of a configuration they are prepared side by side
    // (the CPU reference is the slow part of a check). The results are
    // kept; the loop below reports any error in trial order.
    if (trial_key_ != key) ResetTrials(key);
    if (auto prepared = prefetched_.Take(key)) {
      // Prepared in the background while an earlier configuration ran.
      for (auto& [trial_seed, t] : *prepared) trials_.emplace(trial_seed, std::move(t));
    }
    std::vector<uint64_t> missing;
    for (int trial = 0; trial < trials; ++trial) {
      uint64_t seed = TrialSeed(req["seed"].get<uint64_t>(), trial);
      if (!trials_.count(seed)) missing.push_back(seed);
    }
    for (auto& [trial_seed, t] : MakeTrials(p, params, missing)) trials_.emplace(trial_seed, std::move(t));
    // Its own held rounds' sets (StartHeld), then the next configurations'
    // trials and held sets, are prepared while this one is checked, side by
    // side: the CPU reference is the slow part.
    PrefetchFor(req["seed"].get<uint64_t>());
    StartHeld(req["config"].value("name", ""), req["config"]["params"]);
    if (req.contains("prefetch")) StartPrefetch(req["prefetch"], req["seed"].get<uint64_t>(), trials);
  }
  phases.Lap("prepare_s");  // inputs drawn or read, CPU references computed
  for (int trial = 0; trial < trials; ++trial) {
    uint64_t seed = TrialSeed(req["seed"].get<uint64_t>(), trial);
    auto prepared = PrepareTrial(p, params, key, seed);
    if (!prepared.ok()) {
      return Reply(prepared.status().code() == StatusCode::kInternal ? "error" : "failed",
                   prepared.status().message());
    }
    const Trial& t = **prepared;
    phases.Lap("prepare_s");
    // The trial in the subject's lent memory: fresh inputs, poisoned outputs.
    size_t total = 0;
    auto [in, out] = Place(Specs(t.inputs), OutSpecs(t.out_shapes), 1, &total);
    if (Status s = r->Reserve(vmm_, total, Left()); !s.ok()) return RunnerFailure(r, s);
    auto* base = reinterpret_cast<uint8_t*>(r->slab_ptr());
    // Without the device memory for the judge's copy, the inputs go up
    // from the host and come back down to be compared.
    auto pristine = DeviceInputs(seed, t);
    if (!pristine.ok() && pristine.status().code() != StatusCode::kUnavailable) {
      return Reply("error", pristine.status().message());
    }
    const DeviceTensors* copies = pristine.ok() ? *pristine : nullptr;
    for (size_t i = 0; i < in.size(); ++i) {
      const cudaError_t e =
          in[i].bytes == 0 ? cudaSuccess
          : copies != nullptr
              ? cudaMemcpy(base + in[i].off, (*copies)[i]->ptr, in[i].bytes, cudaMemcpyDeviceToDevice)
              : cudaMemcpy(base + in[i].off, t.inputs[i].bytes.data(), in[i].bytes, cudaMemcpyHostToDevice);
      if (e != cudaSuccess) return Reply("error", "copying an input to the subject's memory failed");
    }
    for (const auto& o : out) {
      if (Status s = Poison(base + o.off, o.dtype, static_cast<size_t>(Numel(o.shape))); !s.ok()) {
        return Reply("error", s.message());
      }
    }
    phases.Lap("transfer_s");
    bool ok = false;
    Json failure = Ask(r, {{"op", "call"}, {"sets", 1}, {"in", Describe(in, r->slab_id())},
                           {"out", Describe(out, r->slab_id())}, {"params", ParamList(params)}}, &ok);
    phases.Lap("run_s");
    const std::string when = "in a checked call (trial " + std::to_string(trial) + ")";
    if (!ok) return FailureOrFinding(r, failure, when);
    if (Json seen = Observed(r, true, when); !seen.is_null()) {
      return seen;
    }
    phases.Lap("observe_s");
    for (size_t i = 0; i < inputs_.size(); ++i) {
      bool modified = false;
      if (copies != nullptr) {
        auto differs = fill_->Differs(base + in[i].off, (*copies)[i]->ptr, in[i].bytes);
        if (!differs.ok()) return Reply("error", differs.status().message());
        modified = *differs;
      } else {
        modified = DownloadKept(0, base + in[i].off, in[i].dtype, in[i].shape).bytes != t.inputs[i].bytes;
      }
      if (modified) return Reply("failed", "input '" + inputs_[i].name + "' was modified");
    }
    Json trial_prints = Json::array();
    for (size_t i = 0; i < outputs_.size(); ++i) {
      phases.Lap("compare_s");  // the earlier outputs compared and fingerprinted
      const HostTensor& got = DownloadKept(1 + i, base + out[i].off, out[i].dtype, out[i].shape);
      phases.Lap("transfer_s");
      const auto [atol, rtol] = Tolerance(i);
      Comparison c = Compare(outputs_[i].name, got, t.reference[i], atol, rtol);
      max_abs = std::max(max_abs, c.max_abs_err);
      max_rel = std::max(max_rel, c.max_rel_err);
      if (!c.ok) {
        return Reply("failed", "trial " + std::to_string(trial) + ": " + c.detail,
                     {{"max_abs_err", max_abs}, {"max_rel_err", max_rel}});
      }
      trial_prints.push_back(Fingerprint(got));
    }
    fingerprints.push_back(trial_prints);
  }
  phases.Lap("compare_s");
  return Reply("passed", std::to_string(trials) + " trial(s) within tolerance",
               {{"max_abs_err", max_abs}, {"max_rel_err", max_rel}, {"fingerprints", fingerprints},
                {"trials", trials}, {"phases", phases.ToJson()},
                {"observation", observation_[r->subject()]}});
}

}  // namespace arena::hip2hip
