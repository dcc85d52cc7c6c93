// The HIP judge's trials: inputs drawn on the device or the host, the CPU
// reference in double, trials read from files, the next configuration's
// prepared in the background, inputs kept on the device (judge.h).
#include "plugins/common/hip/worker/judge.h"

namespace arena::hip2hip {

Result<std::vector<HostTensor>> Judge::DrawInputs(const ParameterValues& p, uint64_t seed) {
  std::vector<HostTensor> out;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    ARENA_ASSIGN_OR_RETURN(auto shape, Shape(inputs_[i], p));
    ARENA_ASSIGN_OR_RETURN(Json init, EvaluatedInit(i, p));
    ARENA_ASSIGN_OR_RETURN(HostTensor t, DrawInput(inputs_[i].dtype, shape, init,
                                                   seed * 1000003ull + i));
    out.push_back(std::move(t));
  }
  return out;
}

void Judge::ResetTrials(const std::string& key) {
  if (!trials_.empty()) {
    const size_t bytes = TrialsBytes(trials_);
    shelf_.Put(trial_key_, std::move(trials_), bytes);
  }
  trials_.clear();
  device_inputs_.clear();
  device_inputs_bytes_ = 0;
  trial_key_ = key;
  if (auto kept = shelf_.Take(key)) trials_ = std::move(*kept);
}

Result<const Judge::DeviceTensors*> Judge::DeviceInputs(uint64_t seed, const Trial& t) {
  if (auto it = device_inputs_.find(seed); it != device_inputs_.end()) return &it->second;
  size_t bytes = 0;
  for (const auto& x : t.inputs) bytes += x.bytes.size();
  size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  if (device_inputs_bytes_ + bytes > free / 4) {
    device_inputs_.clear();
    device_inputs_bytes_ = 0;
  }
  DeviceTensors copies;
  for (size_t i = 0; i < t.inputs.size(); ++i) {
    const HostTensor& x = t.inputs[i];
    auto b = std::make_unique<DeviceBuffer>(x.bytes.size());
    if (b->ptr == nullptr) {
      cudaGetLastError();  // the failed allocation is not an error of what follows
      return Unavailable("out of device memory for a trial's inputs");
    }
    const bool redrawn = !x.bytes.empty() && redraw_ && i < t.drawn_inits.size() &&
                         Redrawn(b->ptr, x, t.drawn_inits[i], InputSeed(t.drawn_seed, i));
    if (!x.bytes.empty() && !redrawn &&
        cudaMemcpy(b->ptr, x.bytes.data(), x.bytes.size(), cudaMemcpyHostToDevice) != cudaSuccess) {
      return Internal("copying an input to the device failed");
    }
    copies.push_back(std::move(b));
  }
  device_inputs_bytes_ += bytes;
  return &(device_inputs_[seed] = std::move(copies));
}

Status Judge::DrawLike(void* dst, const HostTensor& like, const Json& init, uint64_t seed) const {
  return fill_->Fill(dst, like.bytes.size(), 1, static_cast<size_t>(like.numel), like.dtype, init, seed, 0);
}

bool Judge::Redrawn(void* dst, const HostTensor& x, const Json& init, uint64_t seed) {
  if (!DrawLike(dst, x, init, seed).ok()) return false;
  std::mt19937_64 rng(seed);
  const Sample s = PickSample(static_cast<size_t>(x.numel), rng);
  const HostTensor got = Sampled(static_cast<const uint8_t*>(dst), x.dtype, s);
  const size_t es = DtypeSize(x.dtype);
  for (size_t k = 0; k < s.count; ++k) {
    if (std::memcmp(got.bytes.data() + k * es, x.bytes.data() + (s.start + k * s.stride) * es, es) != 0) {
      redraw_ = false;
      Log("an input drawn again on the device differs from the host's copy at element " +
          std::to_string(s.start + k * s.stride) + ": inputs are uploaded from now on");
      return false;
    }
  }
  return true;
}

Status Judge::EnsureFill() {
  if (fill_.has_value()) return OkStatus();
  ARENA_ASSIGN_OR_RETURN(DeviceFill fill, DeviceFill::Create(device_));
  fill_ = fill;
  return OkStatus();
}

Result<Judge::Trial> Judge::MakeTrial(const ParameterValues& p, const std::vector<ArenaParam>& params,
                                     uint64_t seed) {
  if (device_trials_) {
    // Drawn by the rounds' own generator and copied back: a fill of
    // milliseconds where the host's draw takes most of a large trial's
    // making (tensors_benchmark: BM_DrawNormal against BM_ReferenceLoop).
    // The host draws where the device cannot (no room for the set).
    std::vector<Json> inits;
    Result<std::vector<HostTensor>> drawn = DrawnSet(p, seed, &inits);
    if (drawn.ok()) {
      ARENA_ASSIGN_OR_RETURN(Trial t, TrialOf(std::move(*drawn), p, params));
      t.drawn_seed = seed;
      t.drawn_inits = std::move(inits);
      return t;
    }
  }
  ARENA_ASSIGN_OR_RETURN(std::vector<HostTensor> inputs, DrawInputs(p, seed));
  return TrialOf(std::move(inputs), p, params);
}

Result<Judge::Trial> Judge::TrialOf(std::vector<HostTensor> inputs, const ParameterValues& p,
                                   const std::vector<ArenaParam>& params) {
  Trial t;
  t.inputs = std::move(inputs);
  for (const auto& o : outputs_) {
    ARENA_ASSIGN_OR_RETURN(auto shape, Shape(o, p));
    t.out_shapes.push_back(shape);
  }
  // The reference, in double, on exactly the values the kernel sees.
  std::vector<Doubles> wide_in;
  std::vector<std::vector<int64_t>> in_shapes;
  for (const auto& x : t.inputs) {
    wide_in.push_back(Widen(x));
    in_shapes.push_back(x.shape);
  }
  if (RunReference(reference_, wide_in, in_shapes, t.out_shapes, params, &t.reference) != 0) {
    return Internal("the reference reported an error");
  }
  return t;
}

Result<HostTensor> Judge::ReadTensor(const Json& spec) {
  ARENA_ASSIGN_OR_RETURN(ArenaDtype dtype, ParseDtype(spec.value("dtype", "float64")));
  return ReadTensorFile(spec.value("path", ""), dtype, spec.value("shape", std::vector<int64_t>{}));
}

Result<Judge::Trial> Judge::LoadTrial(const Json& data) {
  Trial t;
  if (data["inputs"].size() != inputs_.size() || data["reference"].size() != outputs_.size()) {
    return InvalidArgument("trial data does not match the interface's inputs and outputs");
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    ARENA_ASSIGN_OR_RETURN(HostTensor x, ReadTensor(data["inputs"][i]));
    if (x.dtype != inputs_[i].dtype) {
      return InvalidArgument("input '" + inputs_[i].name + "' is " + DtypeName(x.dtype) +
                             ", the interface says " + DtypeName(inputs_[i].dtype));
    }
    t.inputs.push_back(std::move(x));
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    t.out_shapes.emplace_back();
    ARENA_ASSIGN_OR_RETURN(Doubles values, ReadReference(data["reference"][i], &t.out_shapes.back()));
    t.reference.push_back(std::move(values));
  }
  return t;
}

Result<Doubles> Judge::ReadReference(const Json& spec, std::vector<int64_t>* shape) {
  const auto dims = spec.value("shape", std::vector<int64_t>{});
  ARENA_ASSIGN_OR_RETURN(Doubles values, ReadFloat64File(spec.value("path", ""), dims));
  if (shape != nullptr) *shape = dims;
  return values;
}

std::vector<Result<Judge::Trial>> Judge::LoadTrials(const std::vector<Json>& specs) {
  std::vector<Result<Trial>> loaded(specs.size(), Internal("not read"));
  std::vector<std::thread> readers;
  for (size_t i = 0; i < specs.size(); ++i) {
    readers.emplace_back([&, i] { loaded[i] = LoadTrial(specs[i]); });
  }
  for (auto& t : readers) t.join();
  return loaded;
}

std::map<uint64_t, Judge::Trial> Judge::MakeTrials(const ParameterValues& p, const std::vector<ArenaParam>& params,
                                                   const std::vector<uint64_t>& seeds) {
  std::vector<Result<Trial>> made(seeds.size(), Internal("not prepared"));
  std::vector<std::thread> pool;
  for (size_t i = 0; i < seeds.size(); ++i) {
    pool.emplace_back([&, i] { made[i] = MakeTrial(p, params, seeds[i]); });
  }
  for (auto& t : pool) t.join();
  std::map<uint64_t, Trial> out;
  for (size_t i = 0; i < seeds.size(); ++i) {
    if (made[i].ok()) out.emplace(seeds[i], std::move(*made[i]));
  }
  return out;
}

void Judge::StartPrefetch(const Json& next, uint64_t seed, int trials) {
  PrefetchFor(seed);
  std::vector<uint64_t> seeds;
  for (int trial = 0; trial < trials; ++trial) seeds.push_back(TrialSeed(seed, trial));
  for (const Json& config : next.is_array() ? next : Json::array({next})) {
    const std::string name = config.value("name", "");
    const std::string key = name + "/" + Json(seed).dump();
    if (key == trial_key_ || shelf_.Contains(key) || prefetched_.Has(key)) {
      StartHeld(name, config["params"]);
      continue;  // its trials prepared already
    }
    auto params = std::make_shared<ConfigParams>(config["params"]);
    // What its trials hold (inputs, and a double per output element) and
    // what making one takes besides (its inputs widened to double).
    auto bytes = TrialBytes(params->numeric);
    if (!bytes.ok()) continue;  // its check says what is wrong
    if (!prefetched_.Start(key, *bytes * seeds.size(), [this, params, seeds] {
          return MakeTrials(params->numeric, params->args, seeds);
        })) {
      break;  // the budget is full: the rest in order, later
    }
    StartHeld(name, config["params"]);
  }
}

Result<size_t> Judge::TrialBytes(const ParameterValues& p) {
  size_t bytes = 0;
  for (const auto* specs : {&inputs_, &outputs_}) {
    for (const TensorSpec& t : *specs) {
      ARENA_ASSIGN_OR_RETURN(auto shape, Shape(t, p));
      size_t numel = 1;
      for (int64_t d : shape) numel *= static_cast<size_t>(std::max<int64_t>(d, 0));
      bytes += numel * (specs == &inputs_ ? DtypeSize(t.dtype) + sizeof(double) : sizeof(double));
    }
  }
  return bytes;
}

Result<std::vector<HostTensor>> Judge::DrawnSet(const ParameterValues& p, uint64_t seed,
                                                std::vector<Json>* inits) {
  ARENA_RETURN_IF_ERROR(EnsureFill());
  // Also called on the prefetch threads, whose current device is the
  // runtime's default until set.
  if (cudaSetDevice(device_) != cudaSuccess) return Internal("selecting the device to draw a set on failed");
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    ARENA_ASSIGN_OR_RETURN(auto shape, Shape(inputs_[i], p));
    ARENA_ASSIGN_OR_RETURN(Json init, EvaluatedInit(i, p));
    if (inits != nullptr) inits->push_back(init);
    HostTensor t = Empty(inputs_[i].dtype, shape);
    if (t.bytes.empty()) {
      inputs.push_back(std::move(t));
      continue;
    }
    DeviceBuffer drawn(t.bytes.size());
    if (drawn.ptr == nullptr) {
      cudaGetLastError();
      return Unavailable("out of device memory for a drawn set's inputs");
    }
    ARENA_RETURN_IF_ERROR(DrawLike(drawn.ptr, t, init, InputSeed(seed, i)));
    if (cudaMemcpy(t.bytes.data(), drawn.ptr, t.bytes.size(), cudaMemcpyDeviceToHost) != cudaSuccess) {
      return Internal("reading a drawn set's inputs back failed");
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

void Judge::StartHeld(const std::string& name, const Json& params) {
  const std::string key = "held/" + name;
  if (reference_ == nullptr || held_seeds_.count(name) || prefetched_.Has(key)) return;
  auto config = std::make_shared<ConfigParams>(params);
  auto bytes = TrialBytes(config->numeric);
  if (!bytes.ok()) return;  // its check says what is wrong
  if (!prefetched_.Fits(*bytes * kHeldRounds)) return;  // sets not drawn in vain
  std::random_device entropy;
  std::vector<uint64_t> seeds;
  for (int k = 0; k < kHeldRounds; ++k) seeds.push_back((static_cast<uint64_t>(entropy()) << 32) ^ entropy());
  // Each set drawn and its reference computed on a thread of its own (the
  // job's thread waits for them), in the background as the prefetched
  // trials are: a set the device has no room for, or whose making fails,
  // is missing from the job's trials, and is drawn after the rounds
  // instead, where an error is reported.
  const bool started = prefetched_.Start(key, *bytes * kHeldRounds, [this, config, seeds] {
    std::vector<std::optional<Result<Trial>>> made = SideBySide<Result<Trial>>(
        seeds.size(), seeds.size(), [&](size_t k) -> Result<Trial> {
          ARENA_ASSIGN_OR_RETURN(std::vector<HostTensor> inputs, DrawnSet(config->numeric, seeds[k]));
          return TrialOf(std::move(inputs), config->numeric, config->args);
        });
    std::map<uint64_t, Trial> trials;
    for (size_t k = 0; k < seeds.size(); ++k) {
      if (made[k].has_value() && made[k]->ok()) trials.emplace(seeds[k], std::move(**made[k]));
    }
    return trials;
  });
  if (started) held_seeds_[name] = std::move(seeds);
}

std::pair<std::vector<uint64_t>, std::map<uint64_t, Judge::Trial>> Judge::TakeHeld(const std::string& name) {
  auto it = held_seeds_.find(name);
  if (it == held_seeds_.end()) return {};
  std::vector<uint64_t> seeds = std::move(it->second);
  held_seeds_.erase(it);
  std::optional<std::map<uint64_t, Trial>> trials = prefetched_.Take("held/" + name);
  if (!trials.has_value()) return {};
  return {std::move(seeds), std::move(*trials)};
}

}  // namespace arena::hip2hip
