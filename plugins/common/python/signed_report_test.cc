#include "plugins/common/python/signed_report.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace arena::signed_report {
namespace {

// The key 00 01 .. 0f of SipHash's reference vectors.
struct Key {
  uint8_t bytes[kKeyBytes];
  Key() {
    for (size_t i = 0; i < kKeyBytes; ++i) bytes[i] = static_cast<uint8_t>(i);
  }
};

TEST(SipHash24, ReferenceVectors) {
  Key key;
  uint8_t message[64];
  for (int i = 0; i < 64; ++i) message[i] = static_cast<uint8_t>(i);
  // The reference implementation's vectors for the messages 00 .. (n-1).
  EXPECT_EQ(SipHash24(key.bytes, message, 0), 0x726fdb47dd0e0e31ULL);
  EXPECT_EQ(SipHash24(key.bytes, message, 15), 0xa129ca6149be45e5ULL);
  EXPECT_EQ(SipHash24(key.bytes, message, 8), 0x93f5f5799a932462ULL);
  EXPECT_EQ(SipHash24(key.bytes, message, 63), 0x958a324ceb064572ULL);
}

// The same text and key as arena_judge_test's (the judge checks in
// Python what the observer signs in C++).
TEST(Sign, AppendsTheTagOfTheText) {
  Key key;
  const std::string text = "arena-launches 1\nseq 3\noff 0\nlaunch S d 7f00aa _gelu\nmore 0\n";
  const std::string signed_text = Sign(key.bytes, text);
  ASSERT_EQ(signed_text.substr(0, text.size()), text);
  EXPECT_EQ(signed_text.substr(text.size()), "mac 9b437f206103d51e\n");
}

TEST(Sign, AnyChangedByteChangesTheTag) {
  Key key;
  const std::string text = "arena-launches 1\nseq 3\noff 0\nmore 0\n";
  const std::string tag = Sign(key.bytes, text).substr(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    std::string changed = text;
    changed[i] ^= 1;
    EXPECT_NE(Sign(key.bytes, changed).substr(changed.size()), tag) << "byte " << i;
  }
  Key other;
  other.bytes[0] ^= 1;
  EXPECT_NE(Sign(other.bytes, text).substr(text.size()), tag);
}

}  // namespace
}  // namespace arena::signed_report
