#include "plugins/common/hip/worker/tensors.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <thread>

namespace arena::hip2hip {
namespace {

// Runs fn(begin, end) over [0, n) in chunks on the machine's cores: tensors
// of hundreds of millions of elements are drawn, widened and compared on
// the host for every check.
template <typename Fn>
void ParallelFor(int64_t n, Fn fn, int64_t min_chunk = 1 << 16) {
  const int64_t threads = std::min<int64_t>(
      {static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency())), 32,
       (n + min_chunk - 1) / min_chunk});
  if (threads <= 1) {
    fn(int64_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const int64_t chunk = (n + threads - 1) / threads;
  for (int64_t t = 0; t < threads; ++t) {
    const int64_t begin = t * chunk, end = std::min(n, begin + chunk);
    if (begin < end) pool.emplace_back([&fn, begin, end] { fn(begin, end); });
  }
  for (auto& th : pool) th.join();
}

// A counter-based generator: element i's value depends only on (seed, i),
// so drawing in parallel gives the same tensor on any number of threads.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in (0, 1): 53 random bits, never exactly 0.
double Uniform01(uint64_t seed, int64_t i, uint64_t stream) {
  uint64_t h = Mix(Mix(seed ^ (stream * 0xd1b54a32d192ed03ull)) + static_cast<uint64_t>(i));
  return (static_cast<double>(h >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;  // may carry into the exponent
  return static_cast<uint16_t>(half);
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      x = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ffu) << 13;
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000u | mant << 13;
  } else {
    x = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t FloatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float Bf16ToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

template <typename T>
void Put(Bytes* bytes, int64_t i, T v) {
  std::memcpy(bytes->data() + i * sizeof(T), &v, sizeof(T));
}

template <typename T>
T Get(const Bytes& bytes, int64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

void Store(HostTensor* t, int64_t i, double v) {
  switch (t->dtype) {
    case ARENA_FLOAT32: Put<float>(&t->bytes, i, static_cast<float>(v)); break;
    case ARENA_FLOAT16: Put<uint16_t>(&t->bytes, i, FloatToHalf(static_cast<float>(v))); break;
    case ARENA_BFLOAT16: Put<uint16_t>(&t->bytes, i, FloatToBf16(static_cast<float>(v))); break;
    case ARENA_FLOAT64: Put<double>(&t->bytes, i, v); break;
    case ARENA_INT8: Put<int8_t>(&t->bytes, i, static_cast<int8_t>(v)); break;
    case ARENA_UINT8: Put<uint8_t>(&t->bytes, i, static_cast<uint8_t>(v)); break;
    case ARENA_INT16: Put<int16_t>(&t->bytes, i, static_cast<int16_t>(v)); break;
    case ARENA_INT32: Put<int32_t>(&t->bytes, i, static_cast<int32_t>(v)); break;
    case ARENA_INT64: Put<int64_t>(&t->bytes, i, static_cast<int64_t>(v)); break;
    case ARENA_BOOL: Put<uint8_t>(&t->bytes, i, v != 0); break;
  }
}

double Load(const HostTensor& t, int64_t i) {
  switch (t.dtype) {
    case ARENA_FLOAT32: return Get<float>(t.bytes, i);
    case ARENA_FLOAT16: return HalfToFloat(Get<uint16_t>(t.bytes, i));
    case ARENA_BFLOAT16: return Bf16ToFloat(Get<uint16_t>(t.bytes, i));
    case ARENA_FLOAT64: return Get<double>(t.bytes, i);
    case ARENA_INT8: return Get<int8_t>(t.bytes, i);
    case ARENA_UINT8: return Get<uint8_t>(t.bytes, i);
    case ARENA_INT16: return Get<int16_t>(t.bytes, i);
    case ARENA_INT32: return Get<int32_t>(t.bytes, i);
    case ARENA_INT64: return static_cast<double>(Get<int64_t>(t.bytes, i));
    case ARENA_BOOL: return Get<uint8_t>(t.bytes, i);
  }
  return 0;
}

// Every element of `v` set to `value`, on all cores.
template <typename V, typename T>
void FillAll(V* v, T value) {
  ParallelFor(static_cast<int64_t>(v->size()), [&](int64_t begin, int64_t end) {
    std::fill(v->begin() + begin, v->begin() + end, value);
  });
}

// A tensor of `dtype` and `shape` whose bytes are not written yet: for
// what fills every element itself, on all cores.
HostTensor Unwritten(ArenaDtype dtype, const std::vector<int64_t>& shape) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.numel = 1;
  for (int64_t d : shape) t.numel *= d;
  t.bytes.resize(static_cast<size_t>(t.numel) * DtypeSize(dtype));
  return t;
}

}  // namespace

HostTensor Empty(ArenaDtype dtype, const std::vector<int64_t>& shape) {
  HostTensor t = Unwritten(dtype, shape);
  FillAll(&t.bytes, uint8_t{0});
  return t;
}

Result<ArenaDtype> ParseDtype(const std::string& name) {
  static const std::pair<const char*, ArenaDtype> kNames[] = {
      {"float32", ARENA_FLOAT32}, {"float16", ARENA_FLOAT16}, {"bfloat16", ARENA_BFLOAT16},
      {"float64", ARENA_FLOAT64}, {"int8", ARENA_INT8},       {"uint8", ARENA_UINT8},
      {"int16", ARENA_INT16},     {"int32", ARENA_INT32},     {"int64", ARENA_INT64},
      {"bool", ARENA_BOOL}};
  for (const auto& [n, d] : kNames) {
    if (name == n) return d;
  }
  return InvalidArgument("dtype '" + name + "' is not supported by the hip2hip family");
}

std::string DtypeName(ArenaDtype dtype) {
  switch (dtype) {
    case ARENA_FLOAT32: return "float32";
    case ARENA_FLOAT16: return "float16";
    case ARENA_BFLOAT16: return "bfloat16";
    case ARENA_FLOAT64: return "float64";
    case ARENA_INT8: return "int8";
    case ARENA_UINT8: return "uint8";
    case ARENA_INT16: return "int16";
    case ARENA_INT32: return "int32";
    case ARENA_INT64: return "int64";
    case ARENA_BOOL: return "bool";
  }
  return "unknown";
}

size_t DtypeSize(ArenaDtype dtype) {
  switch (dtype) {
    case ARENA_FLOAT64:
    case ARENA_INT64: return 8;
    case ARENA_FLOAT32:
    case ARENA_INT32: return 4;
    case ARENA_FLOAT16:
    case ARENA_BFLOAT16:
    case ARENA_INT16: return 2;
    default: return 1;
  }
}

bool IsFloating(ArenaDtype dtype) {
  return dtype == ARENA_FLOAT32 || dtype == ARENA_FLOAT16 || dtype == ARENA_BFLOAT16 ||
         dtype == ARENA_FLOAT64;
}

double DefaultTolerance(ArenaDtype dtype) {
  switch (dtype) {
    case ARENA_FLOAT16: return 1e-2;
    case ARENA_BFLOAT16: return 2e-2;
    case ARENA_FLOAT32: return 1e-4;
    case ARENA_FLOAT64: return 1e-8;
    default: return 0;
  }
}

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

void* AllocateHostBuffer(size_t bytes) {
  if (bytes < kHugePage) return ::operator new(bytes);
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, rounded) != 0) throw std::bad_alloc();
  madvise(p, rounded, MADV_HUGEPAGE);  // a hint: where refused, ordinary pages
  return p;
}

void FreeHostBuffer(void* p, size_t bytes) {
  if (bytes < kHugePage) {
    ::operator delete(p);
  } else {
    std::free(p);
  }
}

ConfigParams::ConfigParams(const nlohmann::json& params) {
  for (auto it = params.begin(); it != params.end(); ++it) {
    if (it->is_number()) numeric[it.key()] = it->get<double>();
    if (it->is_boolean()) numeric[it.key()] = it->get<bool>() ? 1 : 0;
    if (it->is_number() || it->is_boolean()) names.push_back(it.key());
  }
  for (const auto& n : names) {
    const nlohmann::json& v = params[n];
    args.push_back({n.c_str(), v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>()});
  }
}

namespace {

// The view of `shape` over `data` that the reference's C ABI takes.
template <typename View, typename T>
View ViewOf(T* data, const std::vector<int64_t>& shape) {
  View v{};
  v.data = data;
  v.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < v.ndim; ++d) v.shape[d] = shape[static_cast<size_t>(d)];
  v.numel = Numel(shape);
  return v;
}

}  // namespace

int RunReference(ReferenceFn reference, const std::vector<Doubles>& inputs,
                 const std::vector<std::vector<int64_t>>& in_shapes,
                 const std::vector<std::vector<int64_t>>& out_shapes, const std::vector<ArenaParam>& params,
                 std::vector<Doubles>* outputs) {
  std::vector<ArenaHostConstTensor> in_views;
  for (size_t i = 0; i < inputs.size(); ++i) {
    in_views.push_back(ViewOf<ArenaHostConstTensor>(static_cast<const double*>(inputs[i].data()), in_shapes[i]));
  }
  outputs->clear();
  for (const auto& shape : out_shapes) outputs->push_back(NaNs(Numel(shape)));
  std::vector<ArenaHostTensor> out_views;
  for (size_t i = 0; i < outputs->size(); ++i) {
    out_views.push_back(ViewOf<ArenaHostTensor>((*outputs)[i].data(), out_shapes[i]));
  }
  return reference(in_views.data(), static_cast<int>(in_views.size()), out_views.data(),
                   static_cast<int>(out_views.size()), params.data(), static_cast<int>(params.size()));
}

Result<std::vector<int64_t>> EvaluateShape(const std::vector<std::string>& extents, const ParameterValues& p) {
  std::vector<int64_t> shape;
  for (const auto& d : extents) {
    ARENA_ASSIGN_OR_RETURN(long long v, EvaluateExtent(d, p));
    shape.push_back(v);
  }
  return shape;
}

Result<nlohmann::json> EvaluateInit(nlohmann::json init, const ParameterValues& p) {
  for (const char* k : {"low", "high", "mean", "std"}) {
    if (init.contains(k) && init[k].is_string()) {
      ARENA_ASSIGN_OR_RETURN(double v, EvaluateExpression(init[k].get<std::string>(), p));
      init[k] = v;
    }
  }
  return init;
}

Result<HostTensor> DrawInput(ArenaDtype dtype, const std::vector<int64_t>& shape,
                             const nlohmann::json& init, uint64_t seed) {
  HostTensor t = Unwritten(dtype, shape);  // every element drawn below
  const std::string dist = init.value("dist", "normal");
  if (dist == "normal") {
    const double mean = init.value("mean", 0.0), std = init.value("std", 1.0);
    // Box-Muller: elements 2k and 2k+1 are the cosine and sine of pair k,
    // so each pair costs one logarithm and one sincos.
    ParallelFor(t.numel, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end;) {
        const int64_t k = i / 2;
        const double r = std::sqrt(-2.0 * std::log(Uniform01(seed, k, 1)));
        const double angle = 6.283185307179586 * Uniform01(seed, k, 2);
        if (i % 2 == 0) Store(&t, i++, mean + std * r * std::cos(angle));
        if (i < end) Store(&t, i++, mean + std * r * std::sin(angle));
      }
    });
  } else if (dist == "uniform") {
    const double lo = init.value("low", 0.0), hi = init.value("high", 1.0);
    ParallelFor(t.numel, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) Store(&t, i, lo + (hi - lo) * Uniform01(seed, i, 3));
    });
  } else if (dist == "randint") {
    const auto lo = static_cast<int64_t>(init.value("low", 0.0));
    const auto hi = static_cast<int64_t>(init.value("high", 0.0));
    if (hi <= lo) return InvalidArgument("randint needs high > low");
    const double span = static_cast<double>(hi - lo);
    ParallelFor(t.numel, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const auto k = static_cast<int64_t>(std::floor(Uniform01(seed, i, 4) * span));
        Store(&t, i, static_cast<double>(lo + std::min<int64_t>(k, hi - lo - 1)));
      }
    });
  } else {
    return InvalidArgument("unknown init dist '" + dist + "'");
  }
  return t;
}

HostTensor Poisoned(ArenaDtype dtype, const std::vector<int64_t>& shape) {
  HostTensor t = Unwritten(dtype, shape);  // every element written below
  if (t.numel == 0) return t;
  switch (dtype) {
    case ARENA_INT8: Put<int8_t>(&t.bytes, 0, std::numeric_limits<int8_t>::min()); break;
    case ARENA_INT16: Put<int16_t>(&t.bytes, 0, std::numeric_limits<int16_t>::min()); break;
    case ARENA_INT32: Put<int32_t>(&t.bytes, 0, std::numeric_limits<int32_t>::min()); break;
    case ARENA_INT64: Put<int64_t>(&t.bytes, 0, std::numeric_limits<int64_t>::min()); break;
    case ARENA_UINT8:
    case ARENA_BOOL: Put<uint8_t>(&t.bytes, 0, 0xAB); break;
    default: Store(&t, 0, std::numeric_limits<double>::quiet_NaN());
  }
  const size_t size = DtypeSize(dtype);
  uint8_t* data = t.bytes.data();
  ParallelFor(t.numel, [&](int64_t begin, int64_t end) {
    for (int64_t i = std::max<int64_t>(begin, 1); i < end; ++i) {
      std::memcpy(data + static_cast<size_t>(i) * size, data, size);
    }
  });
  return t;
}

Doubles Widen(const HostTensor& t) {
  Doubles out(static_cast<size_t>(t.numel));
  ParallelFor(t.numel, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[static_cast<size_t>(i)] = Load(t, i);
  });
  return out;
}

Doubles NaNs(int64_t n) {
  Doubles out(static_cast<size_t>(n));
  FillAll(&out, std::numeric_limits<double>::quiet_NaN());
  return out;
}

Comparison Compare(const std::string& name, const HostTensor& got, const double* ref, double atol,
                   double rtol) {
  struct Part {
    int64_t bad = 0, nonfinite = 0, first = -1;
    double max_abs = 0, max_rel = 0;
  };
  std::vector<Part> parts;
  std::mutex mu;
  ParallelFor(got.numel, [&](int64_t begin, int64_t end) {
    Part p;
    for (int64_t i = begin; i < end; ++i) {
      double g = Load(got, i), r = ref[static_cast<size_t>(i)];
      if (!std::isfinite(r)) {
        bool same = (std::isnan(r) && std::isnan(g)) || r == g;
        if (!same) {
          ++p.bad;
          if (p.first < 0) p.first = i;
        }
        continue;
      }
      if (!std::isfinite(g)) {
        ++p.nonfinite;
        if (p.first < 0) p.first = i;
        continue;
      }
      double err = std::fabs(g - r);
      p.max_abs = std::max(p.max_abs, err);
      p.max_rel = std::max(p.max_rel, err / std::max(std::fabs(r), 1e-12));
      if (err > atol + rtol * std::fabs(r)) {
        ++p.bad;
        if (p.first < 0) p.first = i;
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    parts.push_back(p);
  });
  Comparison c;
  int64_t bad = 0, nonfinite = 0, first = -1;
  for (const Part& p : parts) {
    bad += p.bad;
    nonfinite += p.nonfinite;
    if (p.first >= 0 && (first < 0 || p.first < first)) first = p.first;
    c.max_abs_err = std::max(c.max_abs_err, p.max_abs);
    c.max_rel_err = std::max(c.max_rel_err, p.max_rel);
  }
  // Integer outputs left at the poison value were never written.
  if (nonfinite > 0) {
    c.ok = false;
    c.detail = "'" + name + "': " + std::to_string(nonfinite) +
               " element(s) are NaN or Inf (unwritten?) where the reference is finite";
  } else if (bad > 0) {
    c.ok = false;
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "'%s': %lld of %lld element(s) outside atol=%g rtol=%g; e.g. element %lld got "
                  "%.6g, expected %.6g",
                  name.c_str(), static_cast<long long>(bad), static_cast<long long>(got.numel),
                  atol, rtol, static_cast<long long>(first), Load(got, first),
                  ref[static_cast<size_t>(first)]);
    c.detail = buf;
  }
  return c;
}

std::string Fingerprint(const HostTensor& t) {
  // Over 1 MiB blocks in parallel, eight bytes at a step (a multiply-xorshift
  // chain; the bytes past the last whole word one at a time), then over the
  // blocks' hashes. Only ever compared with fingerprints of this function.
  constexpr int64_t kBlock = 1 << 20;
  constexpr uint64_t kPrime = 0x100000001b3ull;
  const int64_t size = static_cast<int64_t>(t.bytes.size());
  std::vector<uint64_t> blocks(static_cast<size_t>((size + kBlock - 1) / kBlock));
  ParallelFor(static_cast<int64_t>(blocks.size()), [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      const int64_t from = k * kBlock, to = std::min(size, from + kBlock);
      uint64_t h = 0xcbf29ce484222325ull ^ static_cast<uint64_t>(k);
      int64_t i = from;
      for (; i + 8 <= to; i += 8) {
        uint64_t word;
        std::memcpy(&word, t.bytes.data() + i, 8);
        h = (h ^ word) * kPrime;
        h ^= h >> 29;
      }
      for (; i < to; ++i) h = (h ^ t.bytes[static_cast<size_t>(i)]) * kPrime;
      blocks[static_cast<size_t>(k)] = Mix(h);
    }
  }, 4);
  uint64_t h = 0xcbf29ce484222325ull ^ static_cast<uint64_t>(size);
  for (uint64_t b : blocks) h = Mix(h ^ b);
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace {

// Reads the file at `path` into `dst`, which takes `numel` elements of
// `dtype`: the file must hold exactly that many bytes.
Status ReadExactly(const std::string& path, ArenaDtype dtype, int64_t numel, void* dst) {
  const size_t bytes = static_cast<size_t>(numel) * DtypeSize(dtype);
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return NotFound("cannot open " + path);
  const size_t got = bytes == 0 ? 0 : std::fread(dst, 1, bytes, f);
  const bool extra = std::fgetc(f) != EOF;
  std::fclose(f);
  if (got != bytes || extra) {
    return InvalidArgument(path + ": holds " + (extra ? "more than " : "") + std::to_string(got) +
                           " bytes, expected " + std::to_string(bytes) + " (" + std::to_string(numel) + " x " +
                           DtypeName(dtype) + ")");
  }
  return OkStatus();
}

Status CheckShape(const std::string& path, const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d < 0) return InvalidArgument(path + ": negative extent in the shape");
  }
  return OkStatus();
}

}  // namespace

// Both read into memory left unwritten: the file writes every byte, or
// what was read is dropped with the error.
Result<HostTensor> ReadTensorFile(const std::string& path, ArenaDtype dtype,
                                  const std::vector<int64_t>& shape) {
  ARENA_RETURN_IF_ERROR(CheckShape(path, shape));
  HostTensor t = Unwritten(dtype, shape);
  ARENA_RETURN_IF_ERROR(ReadExactly(path, dtype, t.numel, t.bytes.data()));
  return t;
}

Result<Doubles> ReadFloat64File(const std::string& path, const std::vector<int64_t>& shape) {
  ARENA_RETURN_IF_ERROR(CheckShape(path, shape));
  Doubles values(static_cast<size_t>(Numel(shape)));
  ARENA_RETURN_IF_ERROR(ReadExactly(path, ARENA_FLOAT64, static_cast<int64_t>(values.size()), values.data()));
  return values;
}

Status WriteTensorFile(const std::string& path, const HostTensor& t) {
  const std::string part = path + ".part";
  FILE* f = std::fopen(part.c_str(), "wb");
  if (!f) return Internal("cannot write " + part + ": " + std::strerror(errno));
  const size_t put = t.bytes.empty() ? 0 : std::fwrite(t.bytes.data(), 1, t.bytes.size(), f);
  const bool closed = std::fclose(f) == 0;
  if (put != t.bytes.size() || !closed || std::rename(part.c_str(), path.c_str()) != 0) {
    std::remove(part.c_str());
    return Internal("cannot write " + path + ": " + std::strerror(errno));
  }
  return OkStatus();
}

}  // namespace arena::hip2hip
