#include "plugins/common/hip/worker/shelf.h"

#include <memory>

#include <gtest/gtest.h>

namespace arena::hip2hip {
namespace {

TEST(Shelf, TakeGivesBackWhatWasPutAndRemovesIt) {
  Shelf<std::unique_ptr<int>> shelf(100);
  shelf.Put("a", std::make_unique<int>(1), 10);
  EXPECT_TRUE(shelf.Contains("a"));
  auto a = shelf.Take("a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(**a, 1);
  EXPECT_FALSE(shelf.Contains("a"));
  EXPECT_FALSE(shelf.Take("a").has_value());
  EXPECT_EQ(shelf.bytes(), 0u);
}

TEST(Shelf, TheOldestLeaveFirstWhenOverBudget) {
  Shelf<int> shelf(100);
  shelf.Put("a", 1, 40);
  shelf.Put("b", 2, 40);
  shelf.Put("c", 3, 40);  // 120 > 100: a goes
  EXPECT_FALSE(shelf.Contains("a"));
  EXPECT_TRUE(shelf.Contains("b"));
  EXPECT_TRUE(shelf.Contains("c"));
  EXPECT_EQ(shelf.bytes(), 80u);
  // Taken and put back, b is the newest: d pushes c out, not b.
  shelf.Put("b", *shelf.Take("b"), 40);
  shelf.Put("d", 4, 40);
  EXPECT_FALSE(shelf.Contains("c"));
  EXPECT_TRUE(shelf.Contains("b"));
  EXPECT_TRUE(shelf.Contains("d"));
}

TEST(Shelf, PutReplacesTheSameKey) {
  Shelf<int> shelf(100);
  shelf.Put("a", 1, 30);
  shelf.Put("a", 2, 50);
  EXPECT_EQ(shelf.size(), 1u);
  EXPECT_EQ(shelf.bytes(), 50u);
  EXPECT_EQ(*shelf.Take("a"), 2);
}

TEST(Shelf, AValueLargerThanTheBudgetIsNotKept) {
  Shelf<int> shelf(100);
  shelf.Put("a", 1, 40);
  shelf.Put("huge", 2, 101);
  EXPECT_FALSE(shelf.Contains("huge"));
  EXPECT_TRUE(shelf.Contains("a")) << "nothing else leaves for a value that cannot stay";
  EXPECT_EQ(shelf.bytes(), 40u);
}

}  // namespace
}  // namespace arena::hip2hip
