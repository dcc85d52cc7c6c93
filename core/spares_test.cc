#include "core/spares.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

namespace arena {
namespace {

struct Thing {
  int id = 0;
  bool up = true;
};

bool Up(const Thing& t) { return t.up; }

TEST(Spares, OneKeptPerKeyTakenOnce) {
  Spares<Thing> spares;
  int started = 0;
  auto start = [&]() -> Result<std::unique_ptr<Thing>> {
    auto t = std::make_unique<Thing>();
    t->id = ++started;
    return t;
  };
  EXPECT_EQ(spares.Take("a", Up), nullptr);
  spares.Prepare("a", start);
  spares.Prepare("a", start);  // one kept already: none started
  EXPECT_EQ(started, 1);
  spares.Prepare("b", start);
  auto a = spares.Take("a", Up);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->id, 1);
  EXPECT_EQ(spares.Take("a", Up), nullptr);  // taken
  auto b = spares.Take("b", Up);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->id, 2);
}

TEST(Spares, OneNotUsableOrNotStartedIsNone) {
  Spares<Thing> spares;
  spares.Prepare("a", []() -> Result<std::unique_ptr<Thing>> {
    auto t = std::make_unique<Thing>();
    t->up = false;
    return t;
  });
  EXPECT_EQ(spares.Take("a", Up), nullptr);  // dropped
  EXPECT_EQ(spares.Take("a", Up), nullptr);
  spares.Prepare("a", []() -> Result<std::unique_ptr<Thing>> { return Unavailable("cannot start"); });
  EXPECT_EQ(spares.Take("a", Up), nullptr);
  spares.Prepare("a", []() -> Result<std::unique_ptr<Thing>> { return std::make_unique<Thing>(); });
  EXPECT_NE(spares.Take("a", Up), nullptr);
}

}  // namespace
}  // namespace arena
