#include "plugins/common/hip/worker/tensors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

TEST(Tensors, HalfRoundTripIsExactForRepresentableValues) {
  nlohmann::json init = {{"dist", "uniform"}, {"low", -4.0}, {"high", 4.0}};
  auto t = DrawInput(ARENA_FLOAT16, {1000}, init, 7);
  ASSERT_TRUE(t.ok());
  Doubles w = Widen(*t);
  for (double v : w) {
    EXPECT_GE(v, -4.0);
    EXPECT_LE(v, 4.0);
    // A half has 11 significant bits: scaled to [1024, 2048) it is a whole number.
    if (v != 0 && std::fabs(v) >= std::ldexp(1.0, -14)) {
      int e = static_cast<int>(std::floor(std::log2(std::fabs(v))));
      EXPECT_EQ(std::fmod(std::ldexp(v, 10 - e), 1.0), 0.0) << v;
    }
  }
}

TEST(Tensors, SeedsDecideTheValues) {
  nlohmann::json init = {{"dist", "normal"}};
  auto a = DrawInput(ARENA_FLOAT32, {64}, init, 1), b = DrawInput(ARENA_FLOAT32, {64}, init, 1);
  auto c = DrawInput(ARENA_FLOAT32, {64}, init, 2);
  EXPECT_EQ(a->bytes, b->bytes);
  EXPECT_NE(a->bytes, c->bytes);
}

TEST(Tensors, LargeTensorsAreDrawnAlikeAndLookNormal) {
  // Drawn in parallel chunks: still a function of the seed alone.
  nlohmann::json init = {{"dist", "normal"}, {"mean", 1.0}, {"std", 2.0}};
  auto a = DrawInput(ARENA_FLOAT32, {1 << 20}, init, 9);
  auto b = DrawInput(ARENA_FLOAT32, {1 << 20}, init, 9);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->bytes, b->bytes);
  EXPECT_EQ(Fingerprint(*a), Fingerprint(*b));
  Doubles w = Widen(*a);
  double sum = 0, sq = 0;
  for (double v : w) {
    sum += v;
    sq += v * v;
  }
  const double mean = sum / w.size(), var = sq / w.size() - mean * mean;
  EXPECT_NEAR(mean, 1.0, 0.01);
  EXPECT_NEAR(std::sqrt(var), 2.0, 0.01);
  // A difference in one element, far from the start, is found and named.
  Doubles ref = w;
  ref[1000003] += 1.0;
  Comparison c = Compare("y", *a, ref, 1e-4, 1e-4);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.detail.find("1 of 1048576 element(s)"), std::string::npos) << c.detail;
  EXPECT_NE(c.detail.find("element 1000003"), std::string::npos) << c.detail;
  HostTensor p = Poisoned(ARENA_FLOAT16, {1 << 18});
  EXPECT_EQ(Compare("p", p, std::vector<double>(1 << 18, 0.0), 1, 1).detail,
            "'p': 262144 element(s) are NaN or Inf (unwritten?) where the reference is finite");
}

TEST(Tensors, RawFilesRoundTripExactlyAndWrongSizesAreNamed) {
  const std::string path = testing::TempDir() + "/t.bin";
  const std::vector<uint16_t> bits = {0x3c00, 0xc000, 0x7e00};  // fp16 1, -2, NaN
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(bits.data(), 2, bits.size(), f);
  std::fclose(f);
  auto t = ReadTensorFile(path, ARENA_FLOAT16, {3});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  Doubles w = Widen(*t);
  EXPECT_EQ(w[0], 1.0);
  EXPECT_EQ(w[1], -2.0);
  EXPECT_TRUE(std::isnan(w[2]));
  auto short_read = ReadTensorFile(path, ARENA_FLOAT32, {3});
  ASSERT_FALSE(short_read.ok());
  EXPECT_NE(short_read.status().message().find("holds 6 bytes, expected 12 (3 x float32)"),
            std::string::npos)
      << short_read.status().message();
  EXPECT_FALSE(ReadTensorFile(path, ARENA_FLOAT16, {2}).ok()) << "a longer file is refused too";
  EXPECT_EQ(ReadTensorFile(path + ".none", ARENA_FLOAT16, {3}).status().code(),
            StatusCode::kNotFound);
}

TEST(Tensors, Float64FilesReadStraightIntoValuesByTheSameRule) {
  const std::string path = testing::TempDir() + "/r.bin";
  const std::vector<double> want = {1.5, -0.25, 3e300, std::numeric_limits<double>::quiet_NaN(), 0.0, -7.0};
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(want.data(), sizeof(double), want.size(), f);
  std::fclose(f);
  auto v = ReadFloat64File(path, {2, 3});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  ASSERT_EQ(v->size(), want.size());
  EXPECT_EQ(std::memcmp(v->data(), want.data(), want.size() * sizeof(double)), 0) << "bit for bit, NaN too";
  auto longer = ReadFloat64File(path, {7});
  ASSERT_FALSE(longer.ok());
  EXPECT_NE(longer.status().message().find("holds 48 bytes, expected 56 (7 x float64)"), std::string::npos)
      << longer.status().message();
  auto shorter = ReadFloat64File(path, {5});
  ASSERT_FALSE(shorter.ok());
  EXPECT_NE(shorter.status().message().find("holds more than 40 bytes"), std::string::npos)
      << shorter.status().message();
  EXPECT_FALSE(ReadFloat64File(path, {-6}).ok()) << "a negative extent";
  EXPECT_EQ(ReadFloat64File(path + ".none", {6}).status().code(), StatusCode::kNotFound);
}

TEST(Tensors, WrittenFilesReadBackBitForBitAndNothingIsLeftWhereWritingFails) {
  const std::string path = testing::TempDir() + "/w.bin";
  auto drawn = DrawInput(ARENA_BFLOAT16, {4, 33}, {{"dist", "normal"}}, 11);
  ASSERT_TRUE(drawn.ok());
  ASSERT_TRUE(WriteTensorFile(path, *drawn).ok());
  auto back = ReadTensorFile(path, ARENA_BFLOAT16, {4, 33});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->bytes, drawn->bytes);
  EXPECT_FALSE(std::ifstream(path + ".part").good()) << "the part file was renamed";
  const Status bad = WriteTensorFile(testing::TempDir() + "/no/such/folder/w.bin", *drawn);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("no/such/folder/w.bin"), std::string::npos) << bad.message();
}

TEST(Tensors, RandintStaysInRange) {
  auto t = DrawInput(ARENA_INT32, {5000}, {{"dist", "randint"}, {"low", 3}, {"high", 7}}, 3);
  ASSERT_TRUE(t.ok());
  Doubles w = Widen(*t);
  EXPECT_EQ(*std::min_element(w.begin(), w.end()), 3);
  EXPECT_EQ(*std::max_element(w.begin(), w.end()), 6);
}

TEST(Tensors, PoisonIsCaughtAsUnwritten) {
  HostTensor got = Poisoned(ARENA_BFLOAT16, {10});
  std::vector<double> ref(10, 1.0);
  Comparison c = Compare("y", got, ref, 1e-2, 1e-2);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.detail.find("NaN or Inf (unwritten?)"), std::string::npos) << c.detail;
  HostTensor ints = Poisoned(ARENA_INT32, {4});
  EXPECT_FALSE(Compare("n", ints, {0, 0, 0, 0}, 0, 0).ok);
}

TEST(Tensors, ToleranceIsElementwise) {
  auto t = DrawInput(ARENA_FLOAT32, {3}, {{"dist", "uniform"}, {"low", 1}, {"high", 1}}, 1);
  std::vector<double> ref = {1.0, 1.0, 1.0};
  EXPECT_TRUE(Compare("y", *t, ref, 0, 0).ok);
  ref[2] = 1.001;
  Comparison c = Compare("y", *t, ref, 1e-4, 1e-4);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.detail.find("1 of 3 element(s)"), std::string::npos) << c.detail;
  EXPECT_TRUE(Compare("y", *t, ref, 1e-4, 1e-2).ok);
}

TEST(Tensors, WhatIsNotDrawnIsStillWrittenEverywhere) {
  // Buffers are allocated unwritten (no serial zeroing pass): memory freed
  // just before, full of other bytes, must not show through.
  for (int round = 0; round < 3; ++round) {
    { std::vector<uint8_t> garbage(40000, 0xCD); }
    const HostTensor zeros = Empty(ARENA_FLOAT32, {10000});
    EXPECT_TRUE(std::all_of(zeros.bytes.begin(), zeros.bytes.end(), [](uint8_t b) { return b == 0; }));
    { std::vector<uint8_t> garbage(40000, 0xCD); }
    const HostTensor poison = Poisoned(ARENA_INT32, {10000});
    for (int64_t i = 0; i < poison.numel; ++i) {
      int32_t v;
      std::memcpy(&v, poison.bytes.data() + i * 4, 4);
      ASSERT_EQ(v, std::numeric_limits<int32_t>::min()) << i;
    }
    { std::vector<double> garbage(5000, 1.0); }
    const Doubles nans = NaNs(5000);
    EXPECT_TRUE(std::all_of(nans.begin(), nans.end(), [](double x) { return std::isnan(x); }));
  }
  // Large enough to be filled on several threads.
  const Doubles many = NaNs(int64_t{1} << 20);
  EXPECT_TRUE(std::all_of(many.begin(), many.end(), [](double x) { return std::isnan(x); }));
  const HostTensor big = Empty(ARENA_FLOAT16, {int64_t{1} << 20});
  EXPECT_TRUE(std::all_of(big.bytes.begin(), big.bytes.end(), [](uint8_t b) { return b == 0; }));
}

TEST(Tensors, NonFiniteReferenceMustBeReproduced) {
  HostTensor nan_out = Poisoned(ARENA_FLOAT32, {1});
  EXPECT_TRUE(Compare("y", nan_out, {std::nan("")}, 0, 0).ok);
  auto one = DrawInput(ARENA_FLOAT32, {1}, {{"dist", "uniform"}, {"low", 1}, {"high", 1}}, 1);
  EXPECT_FALSE(Compare("y", *one, {INFINITY}, 0, 0).ok);
}

}  // namespace
TEST(Tensors, FingerprintsSeeEveryByte) {
  // Word-wise over blocks: a change in any word, in the bytes past the last
  // whole word, or in the length changes the fingerprint.
  nlohmann::json init = {{"dist", "uniform"}, {"low", -1.0}, {"high", 1.0}};
  auto a = DrawInput(ARENA_FLOAT16, {(1 << 20) + 3}, init, 4);  // 2 MiB + 6 bytes
  ASSERT_TRUE(a.ok());
  const std::string original = Fingerprint(*a);
  std::set<std::string> seen = {original};
  for (size_t at : {size_t{0}, size_t{8}, size_t{(1 << 20) + 5}, a->bytes.size() - 1}) {
    HostTensor b = *a;
    b.bytes[at] ^= 0x01;
    seen.insert(Fingerprint(b));
  }
  HostTensor shorter = *a;
  shorter.bytes.pop_back();
  seen.insert(Fingerprint(shorter));
  EXPECT_EQ(seen.size(), 6u) << "a changed byte or length went unseen";
  EXPECT_EQ(Fingerprint(*a), original);
  EXPECT_EQ(original.size(), 16u);
}

}  // namespace arena::hip2hip
