// A report whose every byte the reader can check came from the writer:
// SipHash-2-4 of the text under a 128-bit key only the writer and the
// reader hold (the launch observer in a runner, the key handed to it
// before the subject's code ran, and the judge that made the key).
// Whoever passes the text on between them (the runner's Python, which the
// subject's code can rewrite) can drop it, or send it twice, but not make
// or change one: the reader checks the signature and the report's number.
//
//   arena::signed_report::SipHash24(key, data, n)   the 64-bit tag
//   arena::signed_report::Sign(key, text)           text + "mac <16 hex>\n"
#ifndef ARENA_PLUGINS_COMMON_PYTHON_SIGNED_REPORT_H_
#define ARENA_PLUGINS_COMMON_PYTHON_SIGNED_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace arena::signed_report {

inline constexpr size_t kKeyBytes = 16;

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

inline uint64_t Rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

inline uint64_t SipHash24(const uint8_t key[kKeyBytes], const uint8_t* data, size_t n) {
  const uint64_t k0 = Load64(key);
  const uint64_t k1 = Load64(key + 8);
  uint64_t v0 = 0x736f6d6570736575ULL ^ k0;
  uint64_t v1 = 0x646f72616e646f6dULL ^ k1;
  uint64_t v2 = 0x6c7967656e657261ULL ^ k0;
  uint64_t v3 = 0x7465646279746573ULL ^ k1;
  auto round = [&] {
    v0 += v1;
    v1 = Rotl(v1, 13);
    v1 ^= v0;
    v0 = Rotl(v0, 32);
    v2 += v3;
    v3 = Rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = Rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = Rotl(v1, 17);
    v1 ^= v2;
    v2 = Rotl(v2, 32);
  };
  const size_t whole = n - n % 8;
  for (size_t i = 0; i < whole; i += 8) {
    const uint64_t m = Load64(data + i);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  uint64_t last = static_cast<uint64_t>(n) << 56;
  for (size_t i = 0; i < n % 8; ++i) last |= static_cast<uint64_t>(data[whole + i]) << (8 * i);
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) round();
  return v0 ^ v1 ^ v2 ^ v3;
}

// TEXT with its signature line appended (TEXT ends with a newline).
inline std::string Sign(const uint8_t key[kKeyBytes], const std::string& text) {
  char tag[24];
  std::snprintf(tag, sizeof(tag), "%016llx",
                static_cast<unsigned long long>(
                    SipHash24(key, reinterpret_cast<const uint8_t*>(text.data()), text.size())));
  return text + "mac " + tag + "\n";
}

}  // namespace arena::signed_report

#endif  // ARENA_PLUGINS_COMMON_PYTHON_SIGNED_REPORT_H_
